// `tilesim-cli check --triton FILE`: every program of a Triton kernel evaluated, and each load
// or store that leaves lanes on outside its tensor reported with pid, line and lanes (a missing
// mask) — for any kernel the front end evaluates, sim's three or not. Exit 3 when any is found.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "sim/compiler/triton_choices.hpp"
#include "sim/machine/machine.hpp"
#include "triton/bounds_check.hpp"
#include "triton/bridge.hpp"
#include "triton/kernel_file.hpp"

namespace tilesim::cli {
namespace {

// Hints from what Triton compiles at this launch (sim/compiler's rules, on Hopper) where the file
// is one of sim's problems: an operand loaded narrower than 16 bytes because its leading stride is
// not a multiple of 16 elements (Triton specialises an integer argument divisible by 16; without
// it, AxisInfo cannot prove wider vectors aligned).
std::vector<std::string> width_hints(const triton::Evaluator& ev) {
  std::vector<std::string> out;
  sim::ProblemSpec spec;
  try {
    spec = triton::infer_problem(ev).spec;
  } catch (const std::exception&) {
    return out;  // not one of sim's problems: no compiler rules to apply
  }
  const sim::Problem p(spec);
  const sim::TritonChoices t = sim::triton_choices(p, *sim::find_machine("h100"));
  for (const sim::OperandChoice* o : {&t.a, &t.b, &t.c}) {
    if ((!t.matmul && o == &t.b) || o->divisible_by_16 || o->access_bytes >= 16) continue;
    const std::int64_t s = o->leading_stride, padded = (s + 15) / 16 * 16;
    const char* name = o == &t.c ? "C" : !t.matmul ? "the input" : o == &t.a ? "A" : "B";
    out.push_back(std::string(name) + (o == &t.c ? " is stored " : " is loaded ") +
                  std::to_string(o->access_bytes) + " bytes at a time: its leading dimension " +
                  std::to_string(s) +
                  " is not a multiple of 16 elements, so Triton cannot prove wider vectors "
                  "aligned; one that is (" +
                  std::to_string(padded) + ", padded) gets 16-byte accesses");
  }
  return out;
}

}  // namespace

Action add_check_command(CLI::App& app) {
  const ProblemCommand c = add_problem_command(
      app, "check", "Triton file: report loads and stores with lanes outside their tensor");
  return [flags = c.flags]() {
    if (flags->triton_file.empty())
      throw sim::InvalidField("triton", "check reads a kernel: give --triton FILE");
    const auto k =
        triton::load_kernel_file(flags->triton_file, flags->triton_function, flags->launch_words());
    const std::int64_t programs = k.ev->launch().programs();
    sim::check_range("programs", programs, 1, kMaxEnumeratedPrograms);
    const triton::KernelCheck checked = triton::check_kernel(*k.ev);
    const auto& found = checked.out_of_bounds;
    std::vector<std::pair<int, std::string>> hints;  // (line, text); line 0: the launch
    for (const auto& a : checked.always_true) hints.push_back({a.pos.line, a.text(programs)});
    for (auto& h : width_hints(*k.ev)) hints.push_back({0, std::move(h)});
    if (flags->json) {
      nlohmann::json j;
      j["programs"] = programs;
      j["out_of_bounds"] = nlohmann::json::array();
      for (const auto& f : found)
        j["out_of_bounds"].push_back({{"pid", f.pid},
                                      {"line", f.pos.line},
                                      {"column", f.pos.col},
                                      {"store", f.store},
                                      {"masked", f.masked},
                                      {"tensor", f.tensor},
                                      {"lanes", f.lanes}});
      j["hints"] = nlohmann::json::array();
      for (const auto& [line, text] : hints) j["hints"].push_back({{"line", line}, {"text", text}});
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      std::printf("%lld programs of %s evaluated: ", static_cast<long long>(programs),
                  k.source->fn.name.c_str());
      std::printf(found.empty() ? "every lane on is inside its tensor\n"
                                : "lanes outside their tensor\n");
      for (const auto& f : found) std::printf("  %s\n", f.text().c_str());
      if (!hints.empty()) std::printf("hints (not errors):\n");
      for (const auto& [line, text] : hints) std::printf("  %s\n", text.c_str());
    }
    return found.empty() ? 0 : 3;
  };
}

}  // namespace tilesim::cli
