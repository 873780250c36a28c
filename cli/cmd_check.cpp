// `tilesim-cli check --triton FILE`: every program of a Triton kernel evaluated, and each load
// or store that leaves lanes on outside its tensor reported with pid, line and lanes (a missing
// mask) — for any kernel the front end evaluates, sim's three or not. Exit 3 when any is found.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "triton/bounds_check.hpp"
#include "triton/kernel_file.hpp"

namespace tilesim::cli {

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
    const auto found = triton::out_of_bounds(*k.ev);
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
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      std::printf("%lld programs of %s evaluated: ", static_cast<long long>(programs),
                  k.source->fn.name.c_str());
      std::printf(found.empty() ? "every lane on is inside its tensor\n"
                                : "lanes outside their tensor\n");
      for (const auto& f : found) std::printf("  %s\n", f.text().c_str());
    }
    return found.empty() ? 0 : 3;
  };
}

}  // namespace tilesim::cli
