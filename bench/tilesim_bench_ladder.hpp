// The ladders tilesim-bench runs: a correctness sweep (odd sizes x every launch order x every
// variant and dtype) and a timing ladder (each rung beside its baseline, same run).
#pragma once

#include <string>

#include "kernels/kernels.hpp"
#include "scenario/bench_report.hpp"

namespace tilesim::bench {

struct LadderOptions {
  kernels::RunOptions run;
  std::string only;            // substring filter on variant names ("" = all)
  double check_max_elems = 0;  // correctness sweep: skip cases with M*N*K over this (0 = all)
};

// Each returns the number of failed runs and appends its records to `report`.
int run_check_ladder(const LadderOptions& o, scenario::BenchReport& report);
int run_timing_ladder(const LadderOptions& o, bool full, scenario::BenchReport& report);
// The targets, met or missed, from the timing records in `report`.
void print_targets(const scenario::BenchReport& report);

}  // namespace tilesim::bench
