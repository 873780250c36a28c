// Command-line options of `tilesim` and the names of the figures it writes. Figures are named
// after the scenario, the step and the panel so a folder of them sorts in teaching order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/core/layout.hpp"
#include "app/core/recording_budget.hpp"
#include "sim/program/schedule.hpp"

namespace tilesim::app {

struct Options {
  std::optional<std::filesystem::path> scenario;
  // --triton FILE [--function NAME] [--arg NAME=VALUE ...] [--grid G]: a Triton kernel file as
  // the open problem, as tilesim-cli reads it (its "# launch:" comments, then these words).
  std::optional<std::filesystem::path> triton;
  std::string triton_function;
  std::vector<std::string> triton_args;
  // Where the timeline stands: --seek N = after N events (a position, as --from/--to); --event E
  // = the event with 0-based index E shown, as a lesson's {"event": E} (the same as --seek E+1).
  std::optional<std::int64_t> seek;
  std::optional<sim::EventOrderKind> event_order;  // --event-order (default: timed)
  // --pid N: the program whose pid -> tile formula is spelled out; without --seek/--event the
  // timeline also moves to that program's first event.
  std::optional<std::int64_t> pid;
  std::optional<PanelId> panel;
  int width = 1600, height = 900;
  float scale = 1.0f;
  std::optional<std::filesystem::path> screenshot;
  std::optional<int> frames;       // render N frames and report CPU ms per frame
  bool play = false;               // --frames while playing (60 Hz, simulated time advancing)
  std::optional<std::string> tab;  // centre tab: launch_grid | compare | memory | ... | compiler
  // The sweep tab's view: "group" (GROUP_SIZE_M, DRAM bytes: the default), "blocks" (block
  // sizes) or "measured" (the axis tilesim-bench --sweep measured at the open problem, as
  // throughput beside the prediction); figures for the gallery.
  std::optional<std::string> sweep_view;
  bool help = false;
  // Lessons (assets/lessons/): open one at a step (1-based, as "step 3 of 9" reads); write one
  // PNG per step into a folder.
  std::optional<std::string> lesson;
  std::optional<int> lesson_step;
  std::optional<std::filesystem::path> export_dir;
  // Recording an animation headless from engine position `from` to `to` (events executed).
  std::optional<std::filesystem::path> record;
  std::optional<std::int64_t> from, to;
  double fps = 12;
  // Refuse a recording whose estimated size passes this many megabytes (10^6 bytes); 0: no limit.
  double max_mb = kDefaultMaxRecordingMb;
  int max_frames = kDefaultMaxRecordingFrames;  // refuse a longer recording before rendering
  // Slow motion: each event lasts slow x 0.25 s of the recording (round orders); timed: slow x
  // the app's rate (1 us of GPU time per second), at least as long as the round recording.
  double slow = 1;
  // Presentation: fonts for projectors, a light theme for printed handouts.
  float font_scale = 1.0f;
  bool light = false;
  // --check-text: figures fail (exit 1) when a text line is cut by its panel (text_check.hpp).
  bool check_text = false;
  // --text-out FILE: with --screenshot, every line of text the figure shows, "PANEL: TEXT" a line
  // (text_check.hpp), so tests can read what a panel says.
  std::optional<std::filesystem::path> text_out;
  bool sms_by_wait =
      false;  // --sms-colour wait: the SM timeline coloured by what programs waited on
  // Test: the soak test's seed and its number of actions (soak_plan.hpp).
  std::optional<int> soak;
  std::optional<int> actions;
};

struct ParsedOptions {
  Options options;
  std::string error;  // empty when parsing succeeded
};
ParsedOptions parse_options(const std::vector<std::string>& args);  // args without argv[0]
std::string usage();

// "seed004_574_grouped-step000123-launch_grid.png"; unsafe characters become '_'; an empty
// scenario name becomes "tilesim"; no panel means the whole window ("window").
std::string figure_file_name(const std::string& scenario_name, std::int64_t position,
                             std::optional<PanelId> panel, float scale = 1.0f);

}  // namespace tilesim::app
