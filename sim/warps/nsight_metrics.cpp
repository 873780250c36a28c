// Nsight Compute metric names and the figures derived from them (see nsight_metrics.hpp).
#include "sim/warps/nsight_metrics.hpp"

#include <algorithm>

namespace tilesim::sim {
namespace {

double metric(const NcuMetrics& m, const std::string& name, double fallback) {
  const auto it = m.find(name);
  return it == m.end() ? fallback : it->second;
}

double per_request(const NcuMetrics& m, const std::string& op) {
  const std::string unit = "_pipe_lsu_mem_global_op_" + op + ".sum";
  const double requests = metric(m, "l1tex__t_requests" + unit, 0);
  return requests > 0 ? metric(m, "l1tex__t_sectors" + unit, 0) / requests : 0.0;
}

double shared_conflicts(const NcuMetrics& m, const std::string& op) {
  const double wavefronts =
      metric(m, "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", -1);
  const double instructions = metric(m, "sm__sass_inst_executed_op_shared_" + op + ".sum", -1);
  if (wavefronts >= 0 && instructions >= 0) return wavefronts - instructions;
  return metric(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum", 0);
}

}  // namespace

MeasuredWarps measured_warps(const NcuMetrics& m) {
  MeasuredWarps w;
  w.ld_sectors_per_request = per_request(m, "ld");
  w.st_sectors_per_request = per_request(m, "st");
  w.shared_ld_conflicts = shared_conflicts(m, "ld");
  w.shared_st_conflicts = shared_conflicts(m, "st");
  return w;
}

MemoryFigures measured_memory(const NcuMetrics& m) {
  MemoryFigures f;
  f.dram_read_bytes = metric(m, "dram__bytes_read.sum", 0);
  f.dram_write_bytes = metric(m, "dram__bytes_write.sum", 0);
  f.l2_hit_rate = metric(m, "lts__t_sector_hit_rate.pct", 0) / 100.0;
  return f;
}

MemoryFigures predicted_memory(const Counters& c) {
  MemoryFigures f;
  f.dram_read_bytes = static_cast<double>(c.dram_read_bytes);
  f.dram_write_bytes = static_cast<double>(c.dram_write_bytes_in_kernel());
  f.l2_hit_rate = c.l2_hit_rate();
  return f;
}

double relative_error(double predicted, double measured) {
  return (predicted - measured) / std::max(1.0, measured);
}

}  // namespace tilesim::sim
