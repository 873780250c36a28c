// Scenario files: a problem plus what to show it on, as the JSON a teacher saves and loads.
// Parsing is strict (unknown keys and wrong types are refused with the key's name) and
// saving is atomic (write a temporary file, then rename), so a saved scenario is never lost.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/problem.hpp"
#include "sim/program/program_plan.hpp"

namespace tilesim::scenario {

inline constexpr std::size_t kMaxScenarioBytes = 1 << 20;  // 1 MiB: scenarios are a few hundred B

struct Scenario {
  std::string name;         // file stem used for figure names, e.g. "seed004_574"
  std::string title;        // one line shown in the app, e.g. "Seed 004: 574x574 matmul"
  std::string description;  // what the scenario teaches
  sim::ProblemSpec problem;
  std::string machine = "h100";                   // preset name (see sim/machine/machine.hpp)
  std::optional<int> programs_per_sm;             // override of the occupancy calculation
  std::optional<sim::LaunchOrder> compare_order;  // the app's compare mode: second order
  // A machine described field by field instead of a preset: the JSON object, kept as text so
  // that this header stays free of JSON types; parsed where machines are built.
  std::string custom_machine_json;
  // A Triton kernel file the problem comes from ("triton_file", as written: absolute, beside the
  // scenario or under assets/; scenario/kernel_file.hpp), the @triton.jit function and launch
  // words over its "# launch:" comments. `triton_path` is where it was found (not saved).
  std::string triton_file, triton_function;
  std::vector<std::string> triton_args;
  std::filesystem::path triton_path;
  // The file's own program plan (its steps with its lines and names; sim/program/program_plan.hpp)
  // and the problem it was read at, set with the problem when the scenario names a triton_file;
  // null for the built-in kernels. Not saved (it follows from triton_file and triton_args); equal
  // when both plans read the same.
  struct FilePlan {
    std::shared_ptr<const sim::ProgramPlan> plan;
    sim::ProblemSpec spec;
    bool operator==(const FilePlan& o) const {
      if (!plan || !o.plan) return !plan && !o.plan;
      return spec == o.spec && *plan == *o.plan;
    }
  } file_plan;
  bool operator==(const Scenario&) const = default;
};

// A scenario that cannot be read: the message names the file, line and column, or the field.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parse JSON text; `source` names it in messages. Validates the problem (sim::Problem).
Scenario parse_scenario(std::string_view text, const std::string& source = "scenario");
Scenario load_scenario(const std::filesystem::path& path);
std::string to_json(const Scenario& s);
// Write atomically (scenario/file_io.hpp): a saved scenario is never half written.
void save_scenario(const Scenario& s, const std::filesystem::path& path);

// Where assets/ lives: $TILESIM_ASSETS, else the source tree's assets/ (compiled in).
std::filesystem::path assets_dir();
// The *.json scenarios of `dir` in curriculum order (copy and transpose, the pid -> tile grid,
// grouping, boundaries, layouts, then the measured and production-sized problems), so a menu
// opens with the first lesson's problem, not the heaviest; files not in the curriculum follow
// in name order.
std::vector<std::filesystem::path> list_scenarios(const std::filesystem::path& dir);

}  // namespace tilesim::scenario
