// A scenario made runnable: the validated problem, the machine it names (a preset or a custom
// machine) and the programs per SM the engine uses. The CLI, the app and the bench all resolve
// here, so a bad input is refused once, the same way everywhere, with the field it names.
#pragma once

#include <optional>

#include "scenario/scenario.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::scenario {

struct Resolved {
  sim::Problem problem;
  sim::Machine machine;
  sim::Occupancy occupancy;
  // Set when one program does not fit the machine's shared memory (the kernel would not launch):
  // occupancy then holds programs_per_sm (or 1) so the problem can still be shown; commands that
  // run the problem refuse it with this.
  std::optional<sim::InvalidField> launch_error;
};

// The scenario's problem with its programs' steps: a kernel file's own plan where the scenario
// names one and its problem is still the one the file was read at (flags or edits that change it
// leave the file: the built-in listing's plan takes over, as the app shows), else the built-in's.
sim::Problem problem_of(const Scenario& s);

// Throws sim::InvalidField naming the field for a bad problem, an unknown preset ("machine"), a
// bad custom machine ("custom_machine.<key>") or programs_per_sm outside its range.
// `timing`: the CUDA rung the problem is run as (its occupancy follows the rung's registers).
Resolved resolve(const Scenario& s, const sim::TimingOptions& timing = {});

}  // namespace tilesim::scenario
