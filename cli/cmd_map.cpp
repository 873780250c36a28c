// `tilesim-cli map`: the pid -> (pid_m, pid_n) table of the chosen launch order, the grid of pids,
// and the coverage check of every launch order on this grid.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "sim/program/launch_order.hpp"

namespace tilesim::cli {

Action add_map_command(CLI::App& app) {
  const ProblemCommand c =
      add_problem_command(app, "map", "pid -> (pid_m, pid_n) table and coverage check");
  auto explain_pid = std::make_shared<std::int64_t>(-1);
  c.cmd->add_option("--pid", *explain_pid, "Also show the formula evaluated for this pid")
      ->check(scenario::integer_field("pid", 0, std::int64_t{1} << 32));
  return [flags = c.flags, explain_pid]() {
    const sim::Problem p = enumerable_problem(*flags, "map");
    const auto g = sim::grid_of(p);
    const auto mapping = sim::launch_mapping(p.order(), g);
    const auto cov = sim::check_coverage(g, mapping);
    if (*explain_pid >= 0) sim::check_range("pid", *explain_pid, 0, g.programs() - 1);
    // A Triton file's pid is also evaluated from its own source, beside the order's formula.
    std::optional<TritonPid> from_source;
    if (*explain_pid >= 0 && !flags->triton_file.empty())
      from_source = explain_triton_pid(*flags, p.spec(), *explain_pid);
    const sim::LaunchOrder all[] = {sim::LaunchOrder::row_major, sim::LaunchOrder::column_major,
                                    sim::LaunchOrder::grouped, sim::LaunchOrder::grouped_legacy};
    if (flags->json) {
      nlohmann::json j;
      j["order"] = sim::to_string(p.order());
      j["programs"] = g.programs();
      j["tiles_m"] = g.tiles_m;
      j["tiles_n"] = g.tiles_n;
      j["group_size_m"] = g.group_size_m;
      j["bijective"] = cov.bijective;
      auto& m = j["mapping"] = nlohmann::json::array();
      for (const auto& t : mapping) m.push_back({t.pid_m, t.pid_n});
      auto tiles = [](const std::vector<sim::TileCoord>& v) {
        auto a = nlohmann::json::array();
        for (const auto& t : v) a.push_back({t.pid_m, t.pid_n});
        return a;
      };
      j["duplicates"] = tiles(cov.duplicates);
      j["misses"] = tiles(cov.misses);
      for (auto o : all)
        j["orders"][std::string(sim::to_string(o))]["bijective"] =
            sim::check_coverage(g, sim::launch_mapping(o, g)).bijective;
      if (*explain_pid >= 0) j["explain"] = sim::explain_tile_of(p.order(), g, *explain_pid);
      if (from_source) {
        j["triton"]["tile"] = {from_source->tile.pid_m, from_source->tile.pid_n};
        j["triton"]["lines"] = from_source->lines;
      }
      std::printf("%s\n", j.dump(2).c_str());
      return 0;
    }
    std::printf("%s order, %lld x %lld tiles (BLOCK_M = %d, BLOCK_N = %d), %lld programs",
                std::string(sim::to_string(p.order())).c_str(), (long long)g.tiles_m,
                (long long)g.tiles_n, p.block_m(), p.block_n(), (long long)g.programs());
    if (p.order() == sim::LaunchOrder::grouped || p.order() == sim::LaunchOrder::grouped_legacy)
      std::printf(", GROUP_SIZE_M = %lld", (long long)g.group_size_m);
    std::printf("\n\n");
    if (g.tiles_n <= 32 && g.tiles_m <= 64) {
      std::printf("pid computing each output tile (rows: pid_m, columns: pid_n)\n");
      const auto grid = sim::pid_grid(p.order(), g);
      std::printf("       ");
      for (std::int64_t c = 0; c < g.tiles_n; ++c) std::printf("%5lld", (long long)c);
      std::printf("\n");
      for (std::int64_t r = 0; r < g.tiles_m; ++r) {
        std::printf("  %4lld ", (long long)r);
        for (std::int64_t c = 0; c < g.tiles_n; ++c)
          std::printf("%5lld", (long long)grid[r * g.tiles_n + c]);
        std::printf("\n");
      }
      std::printf("\n");
    }
    if (g.programs() <= 1024) {
      std::printf("pid -> (pid_m, pid_n)\n");
      for (std::int64_t pid = 0; pid < g.programs(); ++pid)
        std::printf("  %5lld -> (%lld, %lld)%s", (long long)pid, (long long)mapping[pid].pid_m,
                    (long long)mapping[pid].pid_n, pid % 6 == 5 ? "\n" : "");
      std::printf("\n\n");
    } else {
      std::printf("(%lld programs: use --json for the full table)\n\n", (long long)g.programs());
    }
    if (*explain_pid >= 0) {
      std::printf("pid %lld step by step:\n", (long long)*explain_pid);
      for (const auto& line : sim::explain_tile_of(p.order(), g, *explain_pid))
        std::printf("  %s\n", line.c_str());
      std::printf("\n");
    }
    if (from_source) {
      std::printf("pid %lld evaluated from %s:\n", (long long)*explain_pid,
                  flags->triton_file.c_str());
      for (const auto& line : from_source->lines) std::printf("  %s\n", line.c_str());
      std::printf("  -> (pid_m, pid_n) = (%lld, %lld)\n\n", (long long)from_source->tile.pid_m,
                  (long long)from_source->tile.pid_n);
    }
    std::printf("coverage check (every tile computed exactly once):\n");
    for (auto o : all) {
      const auto c = sim::check_coverage(g, sim::launch_mapping(o, g));
      std::printf("  %-15s %s", std::string(sim::to_string(o)).c_str(),
                  c.bijective ? "bijective" : "NOT bijective");
      if (!c.bijective)
        std::printf(" (%zu tiles twice or more, %zu never)", c.duplicates.size(), c.misses.size());
      std::printf("\n");
    }
    return cov.bijective ? 0 : 3;
  };
}

}  // namespace tilesim::cli
