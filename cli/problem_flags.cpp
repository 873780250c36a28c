// Limits of the subcommands that walk every program (see problem_flags.hpp).
#include "cli/problem_flags.hpp"

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
  sim::Problem p(flags.to_scenario().problem);
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

std::vector<int> triton_step_lines(const ProblemFlags& flags, const sim::ProblemSpec& spec,
                                   std::int64_t pid) {
  const auto k =
      triton::load_kernel_file(flags.triton_file, flags.triton_function, flags.launch_words());
  triton::EvalOptions opt;
  opt.scalars = true;
  const triton::ProgramRun run = k.ev->run(pid, opt);
  int map_line = k.source->fn.body.empty() ? 0 : k.source->fn.body.front()->pos.line;
  for (const char* name : {"pid_m", "pid_n"})
    for (const auto& r : run.records)
      if (r.kind == triton::RecordKind::scalar && r.name == name) map_line = r.pos.line;
  std::vector<int> lines{map_line};
  // The bridge matched sim's steps to these records in this order (a transpose's trans is its
  // own step; the .T of a matmul operand is not).
  const bool trans_step = spec.kernel == sim::Kernel::transpose;
  for (const auto& r : run.records)
    if (r.kind == triton::RecordKind::load || r.kind == triton::RecordKind::store ||
        r.kind == triton::RecordKind::dot || (trans_step && r.kind == triton::RecordKind::trans))
      lines.push_back(r.pos.line);
  return lines;
}

}  // namespace tilesim::cli
