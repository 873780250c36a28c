// tilesim-bench --sweep: seed 001's block-size chart and seed 004's GROUP_SIZE_M effect measured
// on the GPU, checked like the ladder (odd sizes in every order, fresh inputs, poisoned outputs)
// and timed beside cuBLAS in the same run.
#pragma once

#include "bench/tilesim_bench_ladder.hpp"

namespace tilesim::bench {

// The templated mma.sync rung over its configurations at 4096^3 and 8192^3 fp16 (quick: 2048^3
// and 4096^3), with registers, spills, shared memory and programs per SM; a configuration that
// does not fit is reported with the reason, not run. Returns the failed checks and runs.
int run_block_sweep(const LadderOptions& o, bool full, scenario::BenchReport& report);
// Row-major and GROUP_SIZE_M 1, 2, 4, 8, 16 at 8192^3 and 6144^3 fp16 (quick: 4096^3 and
// 3072^3), for the fastest matmul rung (matmul_wgmma_tma_store) and the templated rung's seed
// configuration 128 x 128 x 32.
int run_group_sweep(const LadderOptions& o, bool full, scenario::BenchReport& report);

}  // namespace tilesim::bench
