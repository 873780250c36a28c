// `tilesim-cli sweep`: the replay over lists of GROUP_SIZE_M, block sizes, stages and launch
// orders (comma-separated flags), on all CPU cores, as a table or --json.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "cli/run_report.hpp"
#include "scenario/problem_json.hpp"
#include "scenario/resolve.hpp"
#include "sim/replay/sweep.hpp"

namespace tilesim::cli {
namespace {

struct SweepLists {
  std::vector<int> block_m, block_n, block_k, stages;
  std::vector<std::int64_t> group_m;
  std::vector<std::string> orders;
  int threads = 0;
};

// Drawn only when stderr is a terminal: a piped or captured stderr gets no carriage returns.
void draw_progress(int done, int total) {
  if (!isatty(fileno(stderr))) return;
  constexpr int kWidth = 30;
  const int filled = total ? done * kWidth / total : kWidth;
  std::fprintf(stderr, "\r[%s%s] %d/%d", std::string(filled, '#').c_str(),
               std::string(kWidth - filled, '.').c_str(), done, total);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "sweep", "Replay over lists of GROUP_SIZE_M, block sizes, stages and orders (all cores)");
  auto flags = std::make_shared<ProblemFlags>();
  flags->add_to(*cmd, /*with_machine=*/true);
  // The single-value problem flags become lists here.
  for (const char* name :
       {"--block-m", "--block-n", "--block-k", "--group-m", "--stages", "--order"})
    cmd->remove_option(cmd->get_option(name));
  flags->o_bm = flags->o_bn = flags->o_bk = flags->o_gm = flags->o_stages = nullptr;
  auto lists = std::make_shared<SweepLists>();
  // A comma-separated list whose every value is checked like the single flag's.
  const auto list = [cmd](const char* flag, auto& values, const char* help, const char* field,
                          std::int64_t hi) {
    cmd->add_option(flag, values, help)
        ->delimiter(',')
        ->check(scenario::integer_field(field, 1, hi));
  };
  list("--block-m", lists->block_m, "BLOCK_M values, e.g. 64,128", "block_m", sim::kMaxBlock);
  list("--block-n", lists->block_n, "BLOCK_N values", "block_n", sim::kMaxBlock);
  list("--block-k", lists->block_k, "BLOCK_K values", "block_k", sim::kMaxBlock);
  list("--group-m", lists->group_m, "GROUP_SIZE_M values, e.g. 1,2,4,8", "group_size_m",
       sim::kMaxGroupSizeM);
  list("--stages", lists->stages, "Pipeline stages values", "stages", sim::kMaxStages);
  cmd->add_option("--order", lists->orders, "Launch orders, e.g. row-major,grouped")
      ->delimiter(',');
  cmd->add_option("--threads", lists->threads, "Worker threads (default: all cores)")
      ->check(scenario::integer_field("threads", 0, 1024));
  return [flags, lists]() {
    const auto s = flags->to_scenario();
    // Each row has its own problem and occupancy; the scenario's machine is refused once here.
    const sim::Machine m = scenario::resolve(s).machine;
    sim::SweepAxes axes;
    axes.block_m = lists->block_m;
    axes.block_n = lists->block_n;
    axes.block_k = lists->block_k;
    axes.stages = lists->stages;
    axes.group_size_m = lists->group_m;
    for (const auto& o : lists->orders) {
      axes.orders.push_back(sim::parse_field<sim::LaunchOrder>("order", o));
    }
    const auto specs = sim::sweep_specs(s.problem, axes);
    // The whole sweep must fit the budget: memory per configuration, time over all of them
    // spread on the worker threads.
    sim::check_replay_budget(sim::estimate_sweep_cost(specs, m, lists->threads), flags->budget());
    const auto rows = sim::run_sweep(specs, m, s.programs_per_sm, lists->threads, draw_progress,
                                     nullptr, flags->timing());
    if (flags->json) {
      auto out = nlohmann::json::array();
      for (const auto& row : rows) {
        // The swept fields, spelled by the problem codec.
        const auto problem = scenario::problem_to_json(row.spec);
        nlohmann::json j;
        for (const char* key : {"order", "group_size_m", "block_m", "block_n", "block_k", "stages"})
          j[key] = problem[key];
        if (!row.error.empty())
          j["error"] = row.error;
        else
          j.update(replay_json(sim::Problem(row.spec), m, row.result));
        out.push_back(j);
      }
      std::printf("%s\n", out.dump(2).c_str());
      return 0;
    }
    std::printf("%-14s %6s %5s %5s %5s %3s %4s %5s %11s %11s %7s %8s %10s %8s %s\n", "order",
                "GROUP", "BM", "BN", "BK", "st", "/SM", "waves", "DRAM read", "DRAM write",
                "L2 hit", "FLOP/B", "time", "TFLOP/s", "bound");
    for (const auto& row : rows) {
      const auto& sp = row.spec;
      // GROUP_SIZE_M means something only to the grouped orders.
      const bool grouped =
          sp.order == sim::LaunchOrder::grouped || sp.order == sim::LaunchOrder::grouped_legacy;
      std::printf("%-14s %6s %5d %5d %5d %3d ", std::string(sim::to_string(sp.order)).c_str(),
                  grouped ? std::to_string(sp.group_size_m).c_str() : "-", sp.block_m, sp.block_n,
                  sp.block_k, sp.stages);
      if (!row.error.empty()) {
        std::printf("-- %s\n", row.error.c_str());
        continue;
      }
      const auto& r = row.result;
      const auto& c = r.counters;
      std::printf("%4d %5lld %11s %11s %6.1f%% %8.1f %9.3gs %8.1f %s\n",
                  r.occupancy.programs_per_sm, (long long)r.waves,
                  format_bytes(c.dram_read_bytes).c_str(), format_bytes(c.dram_write_bytes).c_str(),
                  100 * c.l2_hit_rate(), c.arithmetic_intensity(), r.timing.time_s(),
                  tflops(sim::Problem(sp), r),
                  std::string(sim::to_string(r.timing.breakdown.bound())).c_str());
    }
    return 0;
  };
}

}  // namespace tilesim::cli
