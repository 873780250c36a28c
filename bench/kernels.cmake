# tilesim-bench: the CUDA kernel ladder (links tilesim_kernels; without CUDA it says "not built").
find_package(CLI11 REQUIRED)
file(GLOB tilesim_bench_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/tilesim_bench*.cpp")
add_executable(tilesim-bench ${tilesim_bench_sources})
target_link_libraries(tilesim-bench PRIVATE tilesim_kernels tilesim_scenario CLI11::CLI11)
target_include_directories(tilesim-bench PRIVATE "${PROJECT_SOURCE_DIR}")
