// `tilesim-cli run`: the full replay of a problem on a machine preset: counters and the timed
// engine's predicted time with its breakdown.
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "cli/problem_flags.hpp"
#include "cli/run_report.hpp"
#include "scenario/file_io.hpp"
#include "scenario/kernel_file.hpp"
#include "scenario/program_spans.hpp"
#include "scenario/resolve.hpp"
#include "sim/base/format.hpp"
#include "sim/replay/replay.hpp"

namespace tilesim::cli {
Action add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run", "Replay every program on a machine (SM waves, L2) and print the counters");
  auto flags = std::make_shared<ProblemFlags>();
  flags->add_to(*cmd, /*with_machine=*/true);
  auto order = std::make_shared<std::string>(sim::to_string(sim::kDefaultEventOrder));
  cmd->add_option("--event-order", *order,
                  "Event order: timed (programs run in simulated time, the default), or rounds "
                  "for teaching: lockstep (every wave in step) or staggered (slot s starts "
                  "s * steps / slots rounds late). The time is always the timed engine's. "
                  "Allowed: " +
                      sim::enum_names::join_names(sim::kEventOrderNames));
  auto programs_csv = std::make_shared<std::string>();
  cmd->add_option("--programs-csv", *programs_csv,
                  "Also write the timed engine's per-program spans to FILE (pid, tile, SM, slot, "
                  "start and end in ns): the columns kernels/probes/block_timeline.cu measures "
                  "on a GPU");
  return [flags, order, programs_csv]() {
    const sim::EventOrderKind kind = sim::parse_event_order(*order);
    const sim::TimingOptions timing = flags->timing();
    const scenario::Scenario sc = flags->to_scenario();
    const auto resolved = scenario::resolve(sc, timing);
    if (resolved.launch_error) throw *resolved.launch_error;
    const sim::Problem& p = resolved.problem;
    const sim::Machine& m = resolved.machine;
    const sim::Occupancy& occ = resolved.occupancy;
    const sim::ReplayCost cost = sim::estimate_replay_cost(p, m);
    sim::check_replay_budget(cost, flags->budget());
    // Long replays show progress on stderr (Ctrl+C cancels: nothing is written until the end).
    const auto progress = [last = -1](double f) mutable {
      const int percent = static_cast<int>(100 * f);
      if (percent == last) return;
      last = percent;
      std::fprintf(stderr, "\rreplaying: %3d%%", percent);
      std::fflush(stderr);
    };
    // Drawn only on a terminal: piped output gets no carriage returns.
    const bool draw = cost.seconds > 2 && isatty(fileno(stderr));
    const auto report = draw ? progress : std::function<void(double)>{};
    std::vector<sim::ProgramSpan> spans;
    sim::ReplayOptions opt;
    opt.order = kind;
    opt.timing = timing;
    opt.progress = report;
    if (!programs_csv->empty()) opt.programs = &spans;
    const sim::ReplayResult r = sim::replay(p, m, occ, opt);
    if (!programs_csv->empty())
      scenario::write_file_atomic(*programs_csv, scenario::program_spans_csv(p, spans));
    if (draw) std::fprintf(stderr, "\r                \r");
    // A Triton file says how it was recognised (sim's kernel, order, programs checked).
    // The same file run with real Triton at this launch on the preset's GPU, where it was.
    const bool triton = !flags->triton_file.empty();
    const scenario::TritonFileRuns* runs =
        triton ? scenario::bundled_triton_file_runs(m.key) : nullptr;
    const std::optional<scenario::TritonFileRun> run =
        runs ? scenario::find_triton_file_run(*runs, flags->triton_file, flags->triton_function,
                                              flags->launch_words())
             : std::nullopt;
    if (flags->json) {
      auto j = replay_json(p, m, r);
      if (triton) j["triton_file"] = sc.description;
      if (run)
        j["measured"] = {{"median_s", run->median_ms * 1e-3},
                         {"gpu", runs->gpu},
                         {"date", runs->date},
                         {"triton", runs->triton},
                         {"checked", run->checked},
                         {"correct", run->correct},
                         {"reference", run->reference},
                         {"source", runs->source}};
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      if (triton) std::printf("Triton kernel %s\n", sc.description.c_str());
      if (triton && run)
        std::printf(
            "measured        %s on %s (%s, Triton %s, do_bench median: "
            "scripts/triton/run_file.py%s)\n",
            sim::format_seconds(run->median_ms * 1e-3).c_str(), runs->gpu.c_str(),
            runs->date.c_str(), runs->triton.c_str(),
            !run->checked  ? ""
            : run->correct ? ", correct against float64"
                           : ", WRONG against float64");
      else if (triton)
        std::printf(
            "measured        not at this launch on %s (scripts/triton/run_file.py runs it)\n",
            m.name.c_str());
      if (triton) std::printf("\n");
      std::printf("%s", replay_text(p, m, r).c_str());
    }
    return 0;
  };
}

}  // namespace tilesim::cli
