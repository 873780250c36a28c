// Limits of the subcommands that walk every program (see problem_flags.hpp).
#include "cli/problem_flags.hpp"

#include "scenario/kernel_file.hpp"
#include "scenario/resolve.hpp"
#include "triton/bridge.hpp"
#include "triton/kernel_file.hpp"

namespace tilesim::cli {

void check_enumerable(const sim::Problem& p, const char* command) {
  if (p.programs() <= kMaxEnumeratedPrograms) return;
  throw sim::InvalidField("programs",
                          "this grid has " + std::to_string(p.programs()) + " programs (" +
                              std::to_string(p.tiles_m()) + " x " + std::to_string(p.tiles_n()) +
                              " tiles); `" + command + "` walks at most " +
                              std::to_string(kMaxEnumeratedPrograms) + ": use larger blocks");
}

ProblemCommand add_problem_command(CLI::App& app, const char* name, const char* description,
                                   bool with_machine) {
  ProblemCommand c{app.add_subcommand(name, description), std::make_shared<ProblemFlags>()};
  c.flags->add_to(*c.cmd, with_machine);
  return c;
}

sim::Problem enumerable_problem(const ProblemFlags& flags, const char* command) {
  sim::Problem p = scenario::problem_of(flags.to_scenario());
  check_enumerable(p, command);
  return p;
}

TritonPid explain_triton_pid(const ProblemFlags& flags, const sim::ProblemSpec& spec,
                             std::int64_t pid) {
  const auto k =
      triton::load_kernel_file(flags.triton_file, flags.triton_function, flags.launch_words());
  TritonPid out;
  out.tile = triton::evaluated_tile(*k.ev, spec, pid);
  triton::EvalOptions opt;
  opt.scalars = true;
  for (const auto& r : k.ev->run(pid, opt).records)
    if (r.kind == triton::RecordKind::scalar)
      out.lines.push_back("line " + std::to_string(r.pos.line) + ": " + r.name + " = " +
                          std::to_string(r.value));
  return out;
}

}  // namespace tilesim::cli
