// A lesson's figures ({run.time}, {compare.dram_bytes.ratio}, {measured.h100....ms},
// {quote.003.t4_plain_ms}) resolved against the step's scenario: from the engine's whole-run
// replays (the same values `tilesim-cli run --json` prints, through scenario::replay_json), the
// snapshot at the step's position, the problem, the machine preset and its parameter table, the
// bundled bench files and the seed quotes. Each figure carries its kind and source, so a slide
// says where every number came from. Names: assets/lessons/README.md, "Figures".
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/bench_report.hpp"
#include "scenario/quotes.hpp"
#include "scenario/scenario.hpp"
#include "sim/replay/engine.hpp"
#include "sim/replay/timeline.hpp"

namespace tilesim::scenario {

enum class FigureKind { predicted, measured, quoted, computed, datasheet };
std::string_view to_string(FigureKind k);

struct Figure {
  std::string name;             // as written, without braces: "compare.dram_bytes.ratio"
  std::string text;             // as shown: "1.08x", "1.62 ms", "50 MiB"
  double value = std::nan("");  // NaN for a text figure (bound, machine name)
  std::string unit;             // s, B, fraction, x, count, TFLOP/s, B/s, text, or a quote's unit
  FigureKind kind = FigureKind::predicted;
  std::optional<FigureKind> kind_b;  // X / Y of two kinds: Y's
  std::string source;  // "timed engine, H100-SXM preset, timed event order", "seed 003", ...
  std::string
      detail;  // what sets it apart from others of that source: "grouped launch order, whole run"
  std::string kind_label() const;   // "predicted", or "predicted / measured"
  std::string full_source() const;  // source, then detail
};

// A bench file (tilesim-bench --json) and the GPU key it answers to in measured.GPU.*.
struct BenchFile {
  std::string gpu;  // "h100"
  std::filesystem::path path;
  BenchReport report;
};
// assets/measured/bench_h100.json and bench_h200.json, read once (missing files are left out).
const std::vector<BenchFile>& bundled_bench_files();

// What a step's figures resolve against. Pointers may be null where the step has no such thing
// (no compare order, no timeline): a figure that needs it is then an error naming what is missing.
struct FigureContext {
  const sim::Problem* problem = nullptr;  // the step's problem in its own launch order (side a)
  const sim::Machine* machine = nullptr;
  sim::EventOrderKind event_order = sim::kDefaultEventOrder;
  const sim::ReplayResult* run = nullptr;          // whole run of `problem` in event_order
  const sim::Problem* compare_problem = nullptr;   // the compare order (side b)
  const sim::ReplayResult* compare_run = nullptr;  // its whole run
  const sim::Snapshot* now = nullptr;              // at the step's position (side a)
  std::int64_t programs_started = 0;               // by the step's position (footprint.*)
  const std::vector<BenchFile>* bench = nullptr;
  const Quotes* quotes = nullptr;
};

// Resolves one figure; throws ScenarioError saying why ("measured.h100.x.ms: no record of
// variant x; variants: ..."), including the records that matched when not exactly one did.
Figure resolve_figure(std::string_view name, const FigureContext& c);

// The figure a panel shows in a compare table's cell, under the name a lesson would use, so the
// narration and the table are one value (compare.dram_bytes.a, ...).
Figure compare_figure(const FigureContext& c, std::string_view metric, std::string_view side);

// A step's scenario resolved and replayed in both orders, as the app's sessions do: for tests,
// the CLI and anything that needs a step's figures without the app.
struct StepReplays {
  sim::Problem problem{sim::ProblemSpec{}};
  std::optional<sim::Problem> compare_problem;
  sim::Machine machine;
  sim::ReplayResult run;
  std::optional<sim::ReplayResult> compare_run;
  sim::EventOrderKind order = sim::kDefaultEventOrder;
  // A context over these runs at the end of the run (now = none; every program started).
  FigureContext context(const std::vector<BenchFile>* bench, const Quotes* quotes) const;
};
StepReplays replay_step(const Scenario& s, sim::EventOrderKind order = sim::kDefaultEventOrder);

}  // namespace tilesim::scenario
