// Requested and distinct bytes of the first programs (see traffic.hpp).
#include "app/core/traffic.hpp"

#include "app/core/sweep.hpp"
#include "sim/footprint.hpp"
#include "sim/program_trace.hpp"

namespace tilesim::app {

CompareStats compute_traffic(const sim::Problem& p, std::optional<sim::LaunchOrder> second,
                             std::int64_t programs, std::stop_token stop,
                             std::atomic<double>& progress) {
  CompareStats s;
  s.programs = programs;
  const auto f1 = sim::footprint(p, programs);
  s.tiles_first = f1.tiles;
  s.bytes_first = f1.bytes;
  progress = 0.3;
  if (second) {
    sim::ProblemSpec spec = p.spec();
    spec.order = *second;
    const auto f2 = sim::footprint(sim::Problem(spec), programs);
    s.tiles_second = f2.tiles;
    s.bytes_second = f2.bytes;
  }
  progress = 0.5;
  // Requests do not depend on the order: every program loads its whole row and column panels.
  const std::int64_t steps = sim::steps_per_program(p);
  for (std::int64_t pid = 0; pid < programs; ++pid) {
    if (stop.stop_requested()) return s;
    for (std::int64_t st = 0; st < steps; ++st) {
      const auto step = sim::program_step(p, pid, st);
      if (step.op == sim::StepOp::load_a || step.op == sim::StepOp::load_b ||
          step.op == sim::StepOp::load)
        s.requested_bytes += step.bytes;
    }
    progress = 0.5 + 0.5 * double(pid + 1) / double(programs);
  }
  return s;
}

std::string traffic_key(const sim::ProblemSpec& s, std::optional<sim::LaunchOrder> second,
                        std::int64_t programs) {
  return sweep_key(s, SweepAxis::group_size_m, 0) + "|" +
         std::to_string(second ? int(*second) : -1) + "|" + std::to_string(programs);
}

}  // namespace tilesim::app
