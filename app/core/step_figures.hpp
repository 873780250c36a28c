// The figures of the lesson step on screen: the narration's {NAME}s resolved against the app's
// own sessions (the whole-run counters and time the compare table shows, the snapshot at the
// cursor), and the list of every figure drawn this frame (the step's text and the panels'), which
// --export-dir writes beside each PNG. Window-free, so tests/app can check it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/core/app_model.hpp"
#include "scenario/lesson.hpp"
#include "scenario/lesson_figures.hpp"
#include "scenario/sustained_runs.hpp"

namespace tilesim::app {

// A figure context over the model's sessions: side a is the model's launch order, side b its
// compare order; `now` and footprint.* are at the frame's position. Owns the whole-run results
// it points into (keep it alive while resolving).
struct AppFigureContext {
  sim::ReplayResult run, compare_run;
  scenario::FigureContext ctx;
};
// Fills `out` from the frames (either may be null: figures that need it then fail, naming why).
void make_figure_context(const AppModel& m, const EngineFrame* a, const EngineFrame* b,
                         AppFigureContext& out);
// The whole run of a session as sim::replay would return it (the counters, waves and time the
// frame carries; the roofline from the counters): what replay_json reads.
sim::ReplayResult whole_run(const AppModel& m, const sim::Problem& p, const EngineFrame& f);

// A figure a panel draws from the model's own session (a counter so far, a whole-run value), for
// the registry of figures on screen: kind predicted, source the timed engine on the preset.
enum class Shown { bytes, fraction, count, seconds };
scenario::Figure engine_figure(const AppModel& m, std::string name, double value, Shown how,
                               std::string detail);
// A GPU measurement or the engine's prediction for it, as the GPU panel's table shows them.
scenario::Figure measured_run_figure(const kernels::RunResult& r, const std::string& where);
// A rung's time held under seconds of load (assets/measured/power_ladder_KEY.csv), measured.
scenario::Figure sustained_run_figure(const scenario::SustainedRun& r, const std::string& where);

// A step's text resolved: each figure once, numbered in order of first use (its footnote), and
// the errors of figures that did not resolve.
struct StepText {
  std::vector<scenario::Figure> figures;        // footnote i + 1 is figures[i]
  std::vector<std::string> errors;              // "{run.speed}: unknown metric ..."
  int footnote(const std::string& name) const;  // 1-based; 0 when not resolved
  const scenario::Figure* find(const std::string& name) const;
  // `text` with its figures filled in and formulas without backticks: what the screen shows.
  std::string shown(const std::string& text) const;
};
// Resolves every figure of the step's texts (title, narration, question; and the previous step's
// answer, shown at this step).
StepText resolve_step_text(const scenario::Lesson& l, int step, const scenario::FigureContext& c);

// What --export-dir writes beside NAME-stepNN.png: lesson, step, title, narration (and question,
// answer) as shown, and every figure on that step with name, text, value, unit, kind and source.
std::string step_figures_json(const scenario::Lesson& l, int step, const StepText& text,
                              const std::vector<scenario::Figure>& panel_figures);

}  // namespace tilesim::app
