# tilesim-sim-bench: the simulator replay benchmark (figures in docs/PERFORMANCE.md).
add_executable(tilesim-sim-bench "${CMAKE_CURRENT_SOURCE_DIR}/sim_replay_bench.cpp")
target_link_libraries(tilesim-sim-bench PRIVATE tilesim_sim)
