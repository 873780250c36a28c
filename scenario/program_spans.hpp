// The timed engine's per-program spans as CSV (`tilesim-cli run --programs-csv`): one row per
// program, in the columns kernels/probes/block_timeline.cu measures on a GPU, so that
// scripts/compare_spans.py reads both.
#pragma once

#include <string>
#include <vector>

#include "sim/program/problem.hpp"
#include "sim/timing/timed_engine.hpp"

namespace tilesim::scenario {

// "pid,pid_m,pid_n,sm,slot,start_ns,end_ns" then one row per span (times in ns, 3 decimals).
std::string program_spans_csv(const sim::Problem& p, const std::vector<sim::ProgramSpan>& spans);

}  // namespace tilesim::scenario
