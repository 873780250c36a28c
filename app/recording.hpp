// The pieces headless runs share (main.cpp) and --record (recording.cpp): one session's window,
// model and UI; drawing frames until the view is settled; the part of the window a figure shows.
#pragma once

#include <optional>
#include <vector>

#include "app/core/commands.hpp"
#include "app/core/options.hpp"
#include "app/core/ui_state.hpp"
#include "app/panels/panels.hpp"
#include "app/platform/platform.hpp"
#include "scenario/measured.hpp"

namespace tilesim::app {

// Everything one headless frame needs.
struct Session {
  Platform& plat;
  AppModel& model;
  UiState& ui;
  CommandQueue& q;
  const HelpText& help;
  const std::vector<scenario::MeasuredSet>& measured;
};

// Draws frames until worker results have arrived and the layout is stable (main.cpp).
void settle(Session& s);

// The part of the window a figure shows: the --panel panel, else `panel`, else all (nullopt).
std::optional<Rect> figure_area(const UiState& ui, std::optional<PanelId> panel);

// --record: the animation from --from to --to, each frame settled, read back (the --panel
// panel only) and encoded; refused past --max-frames or --max-mb. Returns the exit code.
int record(Session& s, const Options& o);

}  // namespace tilesim::app
