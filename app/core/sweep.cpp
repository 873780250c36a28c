// Sweep settings and their engine replays (see sweep.hpp).
#include "app/core/sweep.hpp"

#include <algorithm>
#include <stdexcept>

#include "app/core/gpu_view.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"
#include "kernels/rung_timing.hpp"
#include "scenario/machine_json.hpp"
#include "scenario/problem_identity.hpp"
#include "sim/replay/replay_budget.hpp"
#include "sim/replay/sweep.hpp"

namespace tilesim::app {

std::vector<sim::ProblemSpec> sweep_settings(const sim::ProblemSpec& base, SweepAxis axis) {
  std::vector<sim::ProblemSpec> out;
  auto add = [&](sim::ProblemSpec s) {
    try {
      sim::Problem p(s);
      out.push_back(s);
    } catch (const sim::InvalidField&) {
    }
  };
  if (axis == SweepAxis::group_size_m) {
    sim::ProblemSpec s = base;
    s.order = sim::LaunchOrder::row_major;
    add(s);
    std::vector<std::int64_t> sizes = {1, 2, 4, 8, 16, 32, 64};
    if (std::find(sizes.begin(), sizes.end(), base.group_size_m) == sizes.end()) {
      sizes.push_back(base.group_size_m);
      std::sort(sizes.begin(), sizes.end());
    }
    for (std::int64_t g : sizes) {
      s = base;
      if (s.order == sim::LaunchOrder::row_major || s.order == sim::LaunchOrder::column_major)
        s.order = sim::LaunchOrder::grouped;
      s.group_size_m = g;
      add(s);
    }
  } else if (base.kernel == sim::Kernel::matmul) {
    // Seed 001's chart (its five Triton configs, num_warps = 4) and the 8-warp tiles that
    // tilesim-bench --sweep blocks measures beside them (kernels/matmul_mma_sync_tiles.hpp).
    for (const auto& c : kernels::mma_sync_tiles::kConfigs)
      add(kernels::mma_sync_tiles::with_config(base, c));
  } else {
    for (int bm : {32, 64, 128})
      for (int bn : {32, 64, 128})
        for (int bk : {32, 64}) {
          sim::ProblemSpec s = base;
          s.block_m = bm;
          s.block_n = bn;
          s.block_k = bk;
          if (base.kernel != sim::Kernel::matmul && bk != 32) continue;
          add(s);
        }
  }
  return out;
}

std::string sweep_label(const sim::ProblemSpec& s, SweepAxis axis) {
  if (axis == SweepAxis::group_size_m)
    return s.order == sim::LaunchOrder::row_major ? "row-major"
                                                  : "G=" + std::to_string(s.group_size_m);
  // Matmul tiles name their warps and stages where they are not seed 001's (num_warps = 4,
  // num_stages = 4 for BLOCK_K = 32 and 3 for 64).
  std::string label = std::to_string(s.block_m) + "x" + std::to_string(s.block_n);
  if (s.kernel != sim::Kernel::matmul) return label;
  label += "x" + std::to_string(s.block_k);
  if (s.num_warps != 4) label += " w" + std::to_string(s.num_warps);
  if (s.stages != (s.block_k >= 64 ? 3 : 4)) label += " s" + std::to_string(s.stages);
  return label;
}

std::vector<SweepBar> sweep_bars(const sim::ProblemSpec& base, SweepAxis axis,
                                 const sim::Machine& m, std::optional<int> programs_per_sm,
                                 std::stop_token stop, std::atomic<double>& progress) {
  const auto settings = sweep_settings(base, axis);
  constexpr int kThreads = 2;  // one replay per shared core
  // The CLI's budget: refuse (with the figures) a sweep whose replays would take past 2 minutes
  // on kThreads cores or need past 4 GiB each, rather than keep workers busy for hours.
  // Settings a CUDA rung is templated on are replayed twice (as a Triton program, as the rung).
  std::vector<sim::ProblemSpec> replays = settings;
  for (const auto& s : settings)
    if (!templated_rung(s).empty()) replays.push_back(s);
  sim::check_replay_budget(sim::estimate_sweep_cost(replays, m, kThreads), {});
  // The stop request reaches the replays in flight through the flag run_sweep polls.
  std::atomic<bool> cancel{false};
  const std::stop_callback on_stop(stop, [&cancel] { cancel = true; });
  std::vector<sim::SweepRow> rows;
  try {
    rows = sim::run_sweep(
        settings, m, programs_per_sm, kThreads,
        [&](int done, int total) { progress = 0.5 * double(done) / double(total); }, &cancel);
  } catch (const std::runtime_error&) {
    if (stop.stop_requested()) return {};
    throw;
  }
  // The settings a CUDA rung is templated on, replayed again as that rung compiles them.
  std::vector<sim::ProblemSpec> rung_specs;
  std::vector<std::size_t> rung_rows;
  const kernels::Variant* tiles = kernels::find_variant("matmul_mma_sync_tiles");
  std::optional<kernels::RungTiming> rung_timing;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].error.empty() || templated_rung(rows[i].spec).empty() || !tiles) continue;
    rung_timing = kernels::rung_timing(*tiles, rows[i].spec);
    rung_specs.push_back(rung_timing->spec);
    rung_rows.push_back(i);
  }
  std::vector<sim::SweepRow> rung_results;
  if (!rung_specs.empty()) try {
      rung_results = sim::run_sweep(
          rung_specs, m, programs_per_sm, kThreads,
          [&](int done, int total) { progress = 0.5 + 0.5 * double(done) / double(total); },
          &cancel, rung_timing->timing);
    } catch (const std::runtime_error&) {
      if (stop.stop_requested()) return {};
      throw;
    }
  std::vector<SweepBar> out;
  for (const auto& r : rows) {
    SweepBar b;
    b.spec = r.spec;
    b.label = sweep_label(r.spec, axis);
    b.error = r.error;
    const auto& c = r.result.counters;
    b.dram_read_bytes = c.dram_read_bytes;
    b.dram_bytes = c.dram_bytes();
    b.l2_hit_rate = c.l2_hit_rate();
    b.waves = r.result.waves;
    b.programs_per_sm = r.result.occupancy.programs_per_sm;
    const double t = r.result.timing.time_s();
    b.predicted_ms = t * 1e3;
    if (t > 0 && b.error.empty()) {
      const sim::Throughput rate = sim::throughput(sim::Problem(r.spec), t);
      b.predicted_rate = rate.value;
      b.rate_unit = std::string(rate.unit);
    }
    b.is_current = r.spec == base;
    out.push_back(std::move(b));
  }
  for (std::size_t j = 0; j < rung_results.size(); ++j) {
    SweepBar& b = out[rung_rows[j]];
    const double t = rung_results[j].result.timing.time_s();
    if (!rung_results[j].error.empty() || t <= 0) continue;
    b.rung = "matmul_mma_sync_tiles";
    b.rung_predicted_ms = t * 1e3;
    b.rung_predicted_rate = sim::throughput(sim::Problem(rung_results[j].spec), t).value;
  }
  progress = 1.0;
  return out;
}

namespace {

const scenario::BenchRecord* best_measured(const SweepBar& bar,
                                           const scenario::BenchReport& report) {
  const scenario::BenchRecord *best = nullptr, *templated = nullptr;
  for (const auto* rec : bench_matches(report, bar.spec)) {
    const auto& r = rec->result;
    if (!r.ok || r.throughput_unit != bar.rate_unit || rec->baseline.empty()) continue;
    if (r.variant == "matmul_mma_sync_tiles") {
      if (r.problem.num_warps != bar.spec.num_warps || r.problem.stages != bar.spec.stages)
        continue;  // another instantiation of the same blocks
      if (!templated || r.throughput > templated->result.throughput) templated = rec;
    }
    if (!best || r.throughput > best->result.throughput) best = rec;
  }
  return templated ? templated : best;
}

}  // namespace

std::string templated_rung(const sim::ProblemSpec& spec) {
  const bool runs = spec.kernel == sim::Kernel::matmul && spec.dtype == sim::DType::fp16 &&
                    spec.b_layout == sim::BLayout::row_major &&
                    kernels::mma_sync_tiles::instantiated(kernels::mma_sync_tiles::config_of(spec));
  return runs ? "matmul_mma_sync_tiles" : "";
}

double measured_rate(const SweepBar& bar, const scenario::BenchReport& report) {
  const auto* rec = best_measured(bar, report);
  return rec ? rec->result.throughput : 0.0;
}

std::string measured_variant(const SweepBar& bar, const scenario::BenchReport& report) {
  const auto* rec = best_measured(bar, report);
  return rec ? rec->result.variant : std::string();
}

std::string measured_legend(const scenario::BenchReport& report) {
  const std::string gpu = report.device.name.empty() ? "unknown GPU" : report.device.name;
  return "measured (" + gpu + (report.date.empty() ? "" : ", " + report.date.substr(0, 10)) + ")";
}

std::optional<SweepAxis> measured_sweep_axis(const sim::ProblemSpec& spec,
                                             const scenario::BenchReport& report) {
  bool blocks = false;
  for (const auto& rec : report.records) {
    const auto& p = rec.result.problem;
    if (rec.result.timed_runs == 0 || !rec.result.ok || p.kernel != spec.kernel || p.m != spec.m ||
        p.n != spec.n || p.k != spec.k || p.dtype != spec.dtype)
      continue;
    if (rec.sweep == "group") return SweepAxis::group_size_m;
    blocks = blocks || rec.sweep == "blocks";
  }
  return blocks ? std::optional(SweepAxis::block_size) : std::nullopt;
}

bool inputs_fit_in_l2(const sim::ProblemSpec& spec, const sim::Machine& m) {
  const sim::Problem p(spec);
  const double e = double(p.elem_bytes());
  const double bytes = spec.kernel == sim::Kernel::matmul
                           ? (double(spec.m) * double(spec.k) + double(spec.k) * double(spec.n)) * e
                           : double(spec.m) * double(spec.n) * e;
  return bytes <= double(sim::effective_l2_bytes(m));  // the L2 the replay's cache holds
}

std::string sweep_key(const sim::ProblemSpec& b, SweepAxis axis, const sim::Machine& m,
                      std::optional<int> programs_per_sm) {
  return scenario::problem_key(b) + "|" + std::to_string(int(axis)) + "|" +
         scenario::machine_key(m) + "|" + std::to_string(programs_per_sm.value_or(0));
}

}  // namespace tilesim::app
