// tilesim::kernels: the simulator's tile programs run for real on a CUDA GPU, checked and timed.
// Teaches: the same Problem (sizes, blocks, launch order, GROUP_SIZE_M) that the simulator replays
// runs as a CUDA kernel whose blocks take (pid_m, pid_n) from sim::tile_of; its time, throughput
// and error sit beside a library baseline (cudaMemcpy, cuBLAS) measured in the same run.
// Plain C++ only: no CUDA type crosses this header. A build without CUDA links and says "not
// built".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launcher.hpp"
#include "kernels/run_types.hpp"
#include "kernels/variants.hpp"
#include "sim/program/launch_order.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::kernels {

// Was the library compiled with CUDA? (false: every run answers "not built").
bool cuda_built();

DeviceInfo query_device();

// Runs one variant on one problem: fresh random inputs, output poisoned (NaN bytes), one checked
// launch, then warm-up and timed launches. Never throws; failures land in RunResult::error.
RunResult run(const sim::Problem& problem, std::string_view variant,
              const RunOptions& options = {});

// The device's own pid -> (pid_m, pid_n): a kernel of g.programs() blocks, each writing what the
// kernels' __device__ tile_of returned for its blockIdx.x. nullopt (and `why`) without a device.
std::optional<std::vector<sim::TileCoord>> device_launch_mapping(sim::LaunchOrder order,
                                                                 const sim::GridShape& g,
                                                                 std::string* why = nullptr);

}  // namespace tilesim::kernels
