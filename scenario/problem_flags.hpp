// The problem flags every command-line tool shares (tilesim-cli's subcommands, tilesim-run-one):
// --scenario FILE, then flags that override it (--kernel --m --n --k --dtype --block-m ... --order
// --boundary --b-layout), read into a Scenario. Its own target (tilesim_scenario_flags, CLI11),
// so tools below the CLI take the same flags without reaching into cli/.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/variants.hpp"
#include "scenario/scenario.hpp"
#include "sim/program/problem.hpp"
#include "sim/replay/replay_budget.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::scenario {

// A check for an integer flag that refuses its value the way a scenario file's field is refused
// (sim::InvalidField naming `field`, thrown out of CLI::App::parse): "m = \"abc\" is not an
// integer", "pid = -1 is out of range: allowed 0..80" — not the argument library's wording.
// Values in lo..hi pass; the Problem still checks what depends on other fields.
CLI::Validator integer_field(std::string field, std::int64_t lo, std::int64_t hi);
// The same for a real number (--max-seconds).
CLI::Validator real_field(std::string field, double lo, double hi);

struct ProblemFlags {
  std::string scenario_file;
  std::string kernel, dtype, order, boundary, b_layout, machine, input_precision;
  std::string math_path, smem_layout;  // timing options (commands with a machine)
  std::string variant;                 // a CUDA rung, described as the timed engine sees it
  // A Triton kernel file whose problem is inferred (triton/bridge.hpp) instead of the flags
  // above: --triton FILE [--function NAME] --arg NAME=VALUE ... [--grid G].
  std::string triton_file, triton_function, grid;
  std::vector<std::string> triton_args;
  std::int64_t m = 0, n = 0, k = 0, group_m = 0;
  int block_m = 0, block_n = 0, block_k = 0, stages = 0, programs_per_sm = 0, num_warps = 0;
  bool json = false;
  double max_seconds = sim::ReplayBudget{}.max_seconds;
  double max_memory_gib = static_cast<double>(sim::ReplayBudget{}.max_memory_bytes) / (1ll << 30);
  // Filled by add_to(); an option's count() says whether the user gave it.
  CLI::Option *o_m{}, *o_n{}, *o_k{}, *o_bm{}, *o_bn{}, *o_bk{}, *o_gm{}, *o_stages{}, *o_pps{},
      *o_warps{};

  void add_to(CLI::App& cmd, bool with_machine = false);
  // The scenario file (or the default scenario), with the flags applied; throws
  // sim::InvalidField or ScenarioError with a message naming the field. With --triton, the
  // problem is the kernel file's (its description says how it was recognised); a refusal is a
  // triton::SourceError naming file:line:col.
  Scenario to_scenario() const;
  // The launch words of --arg, --grid, --stages and --num-warps, for the Triton file.
  std::vector<std::string> launch_words() const;
  // --math-path and --smem-layout over the --variant's description (neither: what Triton would
  // do).
  sim::TimingOptions timing() const;
  // The rung --variant names (nullptr without one); InvalidField("variant") listing the rungs
  // the timed engine describes for a name it does not.
  const kernels::Variant* rung() const;
  // The replay budget from --max-seconds / --max-memory-gib (commands that replay).
  sim::ReplayBudget budget() const;
};

}  // namespace tilesim::scenario
