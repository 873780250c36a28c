// `tilesim-cli footprint --programs P`: distinct input tiles touched by pids 0..P-1.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "sim/memory/footprint.hpp"

namespace tilesim::cli {

Action add_footprint_command(CLI::App& app) {
  const ProblemCommand c =
      add_problem_command(app, "footprint", "Distinct input tiles touched by pids 0..P-1");
  auto programs = std::make_shared<std::int64_t>(-1);
  c.cmd->add_option("--programs", *programs, "P: count pids 0..P-1 (default: all programs)")
      ->check(scenario::integer_field("programs", 1, std::int64_t{1} << 32));
  return [flags = c.flags, programs]() {
    const sim::Problem p = enumerable_problem(*flags, "footprint");
    if (*programs != -1) sim::check_range("programs", *programs, 1, p.programs());
    const auto P = *programs < 0 ? p.programs() : *programs;
    const auto f = sim::footprint(p, P);
    if (flags->json) {
      nlohmann::json j{{"programs", P},        {"order", sim::to_string(p.order())},
                       {"a_tiles", f.a_tiles}, {"b_tiles", f.b_tiles},
                       {"tiles", f.tiles},     {"bytes", f.bytes}};
      std::printf("%s\n", j.dump(2).c_str());
      return 0;
    }
    std::printf("pids 0..%lld in %s order touch ", (long long)(P - 1),
                std::string(sim::to_string(p.order())).c_str());
    if (p.kernel() == sim::Kernel::matmul)
      std::printf("%lld A tiles + %lld B tiles = %lld input tiles (%s)\n", (long long)f.a_tiles,
                  (long long)f.b_tiles, (long long)f.tiles, format_bytes(f.bytes).c_str());
    else
      std::printf("%lld input tiles (%s)\n", (long long)f.tiles, format_bytes(f.bytes).c_str());
    return 0;
  };
}

}  // namespace tilesim::cli
