// Sweep of GROUP_SIZE_M or block sizes: every setting replayed by the engine (sim::run_sweep) on
// the scenario's machine, giving its predicted DRAM bytes and L2 hit rate. Runs on a worker
// thread; reports progress, and a stop request cancels the replays in flight.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "scenario/bench_report.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::app {

enum class SweepAxis { group_size_m, block_size };

struct SweepBar {
  std::string label;  // "G=8", "row-major" or "64x64x32"
  sim::ProblemSpec spec;
  std::string error;            // the setting cannot run (e.g. shared memory); numbers are zero
  std::int64_t dram_bytes = 0;  // predicted DRAM read + write bytes of the whole run
  std::int64_t dram_read_bytes = 0;
  double l2_hit_rate = 0;
  std::int64_t waves = 0;
  int programs_per_sm = 0;
  double predicted_ms = 0;  // the timed engine's kernel time
  // Useful work over predicted time: TFLOP/s of 2 M N K (matmul), GB/s read + written (copy and
  // transpose), as tilesim-bench reports it.
  double predicted_rate = 0;
  std::string rate_unit;
  // The same setting as a CUDA rung compiles it, where one is templated on it (fp16 matmul tiles
  // of matmul_mma_sync_tiles): the timed engine with the rung's description (mma.sync, its own
  // loads and pipeline) instead of a Triton program's. 0 / "" where no rung runs the setting.
  std::string rung;
  double rung_predicted_ms = 0;
  double rung_predicted_rate = 0;
  bool is_current = false;  // the setting now open
};

// The settings a sweep visits (valid problems only).
std::vector<sim::ProblemSpec> sweep_settings(const sim::ProblemSpec& base, SweepAxis axis);
std::string sweep_label(const sim::ProblemSpec& s, SweepAxis axis);
std::vector<SweepBar> sweep_bars(const sim::ProblemSpec& base, SweepAxis axis,
                                 const sim::Machine& m, std::optional<int> programs_per_sm,
                                 std::stop_token stop, std::atomic<double>& progress);
// The rung that runs `spec` as its own template instance ("matmul_mma_sync_tiles" for an
// instantiated fp16 matmul tile), or "" when none does.
std::string templated_rung(const sim::ProblemSpec& spec);
// The measured throughput of `bar`'s setting in a tilesim-bench report (same unit as
// predicted_rate), or 0 when the report did not time it: the templated rung's at the bar's exact
// tile, warps and stages where the report has it, else the fastest rung's on the same problem.
double measured_rate(const SweepBar& bar, const scenario::BenchReport& report);
// The rung that measured `bar`'s best point ("" when none), for the tooltip and legend.
std::string measured_variant(const SweepBar& bar, const scenario::BenchReport& report);
// The legend of measured points: "measured (NVIDIA H100 80GB HBM3, 2026-11-27)".
std::string measured_legend(const scenario::BenchReport& report);
// The sweep a report measured at `spec`'s sizes and dtype, for the tab to open on: the
// GROUP_SIZE_M sweep where it has one (tilesim-bench --sweep group), else the block sizes
// (--sweep blocks); nullopt when it measured neither there.
std::optional<SweepAxis> measured_sweep_axis(const sim::ProblemSpec& spec,
                                             const scenario::BenchReport& report);
// True when the problem's inputs fit together in the L2 a replay uses (sim::effective_l2_bytes):
// every input byte is read from DRAM once whatever the order or GROUP_SIZE_M (seed 004 on an H100),
// so bars are equal.
bool inputs_fit_in_l2(const sim::ProblemSpec& spec, const sim::Machine& m);
// The sweep's cache key: every problem field (scenario::problem_key), the axis, every machine
// field (scenario::machine_key) and the programs-per-SM override.
std::string sweep_key(const sim::ProblemSpec& base, SweepAxis axis, const sim::Machine& m,
                      std::optional<int> programs_per_sm);

}  // namespace tilesim::app
