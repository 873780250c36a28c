// Scenario -> Problem + Machine + Occupancy (see resolve.hpp).
#include "scenario/resolve.hpp"

#include "scenario/machine_json.hpp"

namespace tilesim::scenario {

sim::Problem problem_of(const Scenario& s) {
  const auto& f = s.file_plan;
  if (f.plan && f.spec == s.problem) return sim::Problem(s.problem, f.plan);
  return sim::Problem(s.problem);
}

Resolved resolve(const Scenario& s, const sim::TimingOptions& timing) {
  sim::Problem problem = problem_of(s);
  sim::Machine machine = machine_of(s);
  if (s.programs_per_sm) sim::check_programs_per_sm(*s.programs_per_sm);
  std::optional<sim::InvalidField> launch_error;
  sim::Occupancy occ;
  try {
    occ = sim::occupancy(problem, machine, s.programs_per_sm, timing);
  } catch (const sim::InvalidField& e) {
    launch_error = e;
    occ.programs_per_sm = s.programs_per_sm.value_or(1);
    occ.reason = e.what();
  }
  return {std::move(problem), std::move(machine), std::move(occ), std::move(launch_error)};
}

}  // namespace tilesim::scenario
