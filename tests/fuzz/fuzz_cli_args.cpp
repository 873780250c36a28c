// libFuzzer target: the CLI's problem flags (CLI11 parsing + validation). Input is split on
// newlines into argv; any outcome but a clean refusal or a valid problem is a finding.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/problem_flags.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args{"tilesim-cli"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  CLI::App app{"fuzz"};
  tilesim::cli::ProblemFlags flags;
  flags.add_to(app, /*with_machine=*/true);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
    flags.scenario_file.clear();  // never read files named by the fuzzer
    const auto s = flags.to_scenario();
    tilesim::sim::Problem p(s.problem);
    (void)p.programs();
  } catch (const CLI::Error&) {
  } catch (const tilesim::sim::InvalidField&) {
  } catch (const tilesim::scenario::ScenarioError&) {
  }
  return 0;
}
