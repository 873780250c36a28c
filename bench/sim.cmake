# tilesim-sim-bench: the simulator replay benchmark (figures in docs/PERFORMANCE.md).
add_executable(tilesim-sim-bench "${CMAKE_CURRENT_SOURCE_DIR}/sim_replay_bench.cpp")
target_link_libraries(tilesim-sim-bench PRIVATE tilesim_sim)
# tilesim-triton-bench: the Triton front end's parse / evaluate / infer times on kernel files.
add_executable(tilesim-triton-bench "${CMAKE_CURRENT_SOURCE_DIR}/triton_frontend_bench.cpp")
target_link_libraries(tilesim-triton-bench PRIVATE tilesim_triton)
