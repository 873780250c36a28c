// Sweep settings and their engine replays (see sweep.hpp).
#include "app/core/sweep.hpp"

#include <algorithm>
#include <stdexcept>

#include "app/core/gpu_view.hpp"
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
  return std::to_string(s.block_m) + "x" + std::to_string(s.block_n) +
         (s.kernel == sim::Kernel::matmul ? "x" + std::to_string(s.block_k) : "");
}

std::vector<SweepBar> sweep_bars(const sim::ProblemSpec& base, SweepAxis axis,
                                 const sim::Machine& m, std::optional<int> programs_per_sm,
                                 std::stop_token stop, std::atomic<double>& progress) {
  const auto settings = sweep_settings(base, axis);
  constexpr int kThreads = 2;  // one replay per shared core
  // The CLI's budget: refuse (with the figures) a sweep whose replays would take past 2 minutes
  // on kThreads cores or need past 4 GiB each, rather than keep workers busy for hours.
  sim::check_replay_budget(sim::estimate_sweep_cost(settings, m, kThreads), {});
  // The stop request reaches the replays in flight through the flag run_sweep polls.
  std::atomic<bool> cancel{false};
  const std::stop_callback on_stop(stop, [&cancel] { cancel = true; });
  std::vector<sim::SweepRow> rows;
  try {
    rows = sim::run_sweep(
        settings, m, programs_per_sm, kThreads,
        [&](int done, int total) { progress = double(done) / double(total); }, &cancel);
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
  progress = 1.0;
  return out;
}

double measured_rate(const SweepBar& bar, const scenario::BenchReport& report) {
  double best = 0;
  for (const auto* rec : bench_matches(report, bar.spec))
    if (rec->result.ok && rec->result.throughput_unit == bar.rate_unit && rec->baseline != "")
      best = std::max(best, rec->result.throughput);
  return best;
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
