# tilesim-run-one: one launch of one variant, for Nsight Compute calibration (scripts/calibrate).
add_executable(tilesim-run-one "${CMAKE_CURRENT_SOURCE_DIR}/calibrate_run_one.cpp")
target_link_libraries(tilesim-run-one PRIVATE tilesim_kernels tilesim_scenario_flags)
