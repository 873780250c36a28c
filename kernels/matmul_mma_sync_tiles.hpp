// The mma.sync rung with its tile as template parameters (matmul_mma_sync_tiles.cu): the
// configurations it is instantiated with (seed 001's block-size chart and a few more), the shared
// memory one needs, and what the compiled kernel holds per program. `tilesim-bench --sweep blocks`
// runs them; the problem's BLOCK_M/N/K, num_warps and stages pick the instantiation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/launcher.hpp"
#include "kernels/run_types.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::kernels {

namespace mma_sync_tiles {

struct Config {
  int block_m = 0, block_n = 0, block_k = 0, warps = 0, stages = 0;
  constexpr bool operator==(const Config&) const = default;
};

// Warps as a (warps_m x warps_n) grid over the tile: 1 x 1, 1 x 2, 2 x 2, 2 x 4, 4 x 4.
constexpr int warps_m(int warps) {
  return warps >= 16 ? 4 : warps >= 4 ? 2 : 1;
}
// Dynamic shared memory of `stages` A (BLOCK_M, BLOCK_K) and B (BLOCK_K, BLOCK_N) tiles of 2-byte
// elements, each row padded by 8 elements (16 bytes) so ldmatrix's 8 rows hit 32 banks.
constexpr std::int64_t shared_bytes(const Config& c) {
  return std::int64_t{2} * c.stages *
         (std::int64_t{c.block_m} * (c.block_k + 8) + std::int64_t{c.block_k} * (c.block_n + 8));
}
// Seed 001's five (Triton's num_warps = 4; num_stages = 4 for BLOCK_K = 32, 3 for 64, as its
// 128 x 128 x 32 and 256 x 256 x 64 configs), then the search for a faster one: 8-warp tiles that
// keep a thread's accumulators in registers, and the seed's best tile at other depths and K steps.
// Every entry has a kernel (fp16).
inline constexpr Config kConfigs[] = {
    {32, 32, 32, 4, 4},   {64, 64, 32, 4, 4},   {128, 128, 32, 4, 4}, {128, 256, 64, 4, 3},
    {256, 256, 64, 4, 3}, {64, 128, 32, 4, 4},  {128, 128, 32, 4, 3}, {128, 128, 32, 4, 5},
    {128, 128, 64, 4, 3}, {128, 128, 32, 8, 4}, {128, 128, 64, 8, 3}, {128, 256, 32, 8, 3},
    {256, 128, 32, 8, 3},
};
inline constexpr int kSeedConfigs = 5;  // the first five are seed 001's chart

// One configuration as a problem: `base` with its blocks, num_warps and stages.
inline sim::ProblemSpec with_config(sim::ProblemSpec base, const Config& c) {
  base.block_m = c.block_m;
  base.block_n = c.block_n;
  base.block_k = c.block_k;
  base.num_warps = c.warps;
  base.stages = c.stages;
  return base;
}
inline Config config_of(const sim::ProblemSpec& s) {
  return {s.block_m, s.block_n, s.block_k, s.num_warps, s.stages};
}
inline std::string label(const Config& c) {  // "128x128x32 w4 s4"
  return std::to_string(c.block_m) + "x" + std::to_string(c.block_n) + "x" +
         std::to_string(c.block_k) + " w" + std::to_string(c.warps) + " s" +
         std::to_string(c.stages);
}
inline bool instantiated(const Config& c) {
  for (const Config& x : kConfigs)
    if (x == c) return true;
  return false;
}

}  // namespace mma_sync_tiles

// Registers and spills (cudaFuncGetAttributes), shared memory and programs per SM
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) of configuration `c`'s fp16 kernel on this
// device. A configuration whose shared memory is over the device's per-block limit says so as
// Triton does ("out of resource: shared memory, Required: X, Hardware limit: Y"), and one with no
// kernel names the instantiated ones. Never throws.
KernelResources mma_sync_tiles_resources(const mma_sync_tiles::Config& c);

namespace detail {
std::string launch_matmul_mma_sync_tiles(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels
