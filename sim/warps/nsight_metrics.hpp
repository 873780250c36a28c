// Nsight Compute metrics and what they mean for the model: which counter a measured figure is
// compared with, and how a figure is derived from raw metrics (bank conflicts per instruction =
// SASS shared wavefronts - shared instructions). Plain numbers in (metric name -> value, as ncu
// reports them), meaning out; reading the measurement files is scenario/'s job. Why each metric
// is read the way it is: docs/MODEL.md.
#pragma once

#include <map>
#include <string>

#include "sim/memory/counters.hpp"

namespace tilesim::sim {

// ncu metric name -> value ("dram__bytes_read.sum" -> 1.2e9), as scenario::MeasuredRecord keeps it.
using NcuMetrics = std::map<std::string, double>;

// Coalescing and bank conflicts, in the units of sim::WarpAccessCounters.
struct MeasuredWarps {
  double ld_sectors_per_request = 0, st_sectors_per_request = 0;  // 0 without requests
  // Per instruction: SASS shared wavefronts minus shared instructions (a request served in w
  // wavefronts has w - 1 conflicts). Measurements without the SASS metrics fall back to
  // l1tex__data_bank_conflicts_*, which also counts arbitration with concurrent global traffic.
  double shared_ld_conflicts = 0, shared_st_conflicts = 0;
};
MeasuredWarps measured_warps(const NcuMetrics& m);

// DRAM traffic and L2 hit rate, in the model's units; missing metrics read 0.
struct MemoryFigures {
  double dram_read_bytes = 0;
  // While the kernel runs: dram__bytes_write.sum stops with the kernel, before the dirty lines
  // still in L2 are written back (Counters::dram_write_bytes_in_kernel).
  double dram_write_bytes = 0;
  double l2_hit_rate = 0;  // fraction 0..1 (lts__t_sector_hit_rate.pct is a percentage)
};
MemoryFigures measured_memory(const NcuMetrics& m);
// The model's counterparts of measured_memory's figures.
MemoryFigures predicted_memory(const Counters& c);

// (predicted - measured) / measured, a fraction; a measured figure below 1 counts as 1, so a
// measured zero (an output that stays in L2) gives a finite error.
double relative_error(double predicted, double measured);

}  // namespace tilesim::sim
