// An open lesson in the app: which step is shown, the step's position resolved on the timeline,
// the animation that carries the view from one step to the next, and the highlight marks the
// panels draw (so a headless run can check every highlighted item really is on screen).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/core/animation.hpp"
#include "app/core/app_model.hpp"
#include "app/core/layout.hpp"
#include "app/core/playback.hpp"
#include "app/core/step_figures.hpp"
#include "scenario/lesson.hpp"
#include "scenario/lesson_text.hpp"

namespace tilesim::app {

// Moving the view from one position to the next, event by event, on the animation clock.
struct LessonTransition {
  double t = 0, t_end = 0;  // clock time now and at the target
  std::int64_t target = 0;  // engine position at the end
};

struct LessonRun {
  scenario::Lesson lesson;
  int step = -1;                      // the step shown (0-based); -1 before the first
  int requested = 0;                  // the step to show next (buttons, keys, --lesson-step)
  std::optional<CursorPos> expected;  // (pid, step) the position names, when it names one
  std::optional<LessonTransition> transition;
  std::set<std::string> drawn;               // marks the panels drew this frame (highlight_marks)
  std::vector<scenario::LessonEntry> index;  // every lesson, for the index
  bool show_index = false;
  std::string error;  // a step whose position or highlights do not fit its problem
  // The requested step's problem is open and its timeline still being built: its position is
  // resolved (in the model's event order) once the timeline exists.
  bool waiting = false;
  // The shown step's figures, resolved this frame by the lesson panel (its footnotes, and the
  // JSON --export-dir writes); bare numbers of the lesson's texts (lesson_bare_numbers).
  StepText text;
  std::vector<scenario::BareNumber> bare_numbers;
};

// The first screen (tilesim with no arguments, scripts/run): the lesson index beside the
// curriculum's hook, Triton's 9 x 9 tiles where the first 9 programs need 90 input tiles in
// row-major order and 54 grouped, with a question the next step answers (is grouped then
// 1.67x faster?). The entry of lesson 08 in `all`, else the first good lesson, else end().
inline constexpr const char* kFirstScreenLesson = "08_when_grouping_matters";
std::vector<scenario::LessonEntry>::const_iterator first_screen_lesson(
    const std::vector<scenario::LessonEntry>& all);

// Opens lesson `name_or_path` (a stem in assets/lessons/ or a file); throws ScenarioError.
LessonRun open_lesson(const std::string& name_or_path);

// The engine position (events executed) a step's position names in `order` (the timeline's
// event order; null when only the end of a run exists: then only start and end resolve), and
// the (pid, step) shown there when it names one. Error text when it does not fit.
struct ResolvedPosition {
  std::int64_t position = 0;
  std::optional<CursorPos> cursor;
  std::string error;
};
ResolvedPosition resolve_position(const sim::Problem& p, const sim::EventOrder* order,
                                  const scenario::LessonPosition& pos);

// Problems of a step's highlights on problem `p` with the cursor at `at` (empty: all fit).
std::vector<std::string> check_highlights(const scenario::LessonHighlight& h, const sim::Problem& p,
                                          CursorPos at);
// The marks panels record when they draw a step's highlights ("tile:A:3:4", "pid:29", ...).
std::set<std::string> highlight_marks(const scenario::LessonHighlight& h);
std::string tile_mark(sim::Operand m, std::int64_t row, std::int64_t col);
std::string lane_mark(int row, int col);
// Marks of the current step that no panel drew this frame: its highlights, and "hidden:ROW" for
// each of its hide_rows that no table drew as "?".
std::vector<std::string> missing_marks(const LessonRun& run);

// The centre tab a step shows.
PanelId lesson_view(const scenario::LessonStep& s);

// Applies a requested step change to the model: a new scenario when the step names one (or on
// the first step), the view, and the position. With `animate`, a move within one scenario runs
// through the events in between (at most a few dozen; longer jumps animate the last event) at
// `seconds_per_event` wall seconds each; advance with `dt` seconds every frame. Returns the
// animation fraction of the event shown (1 at rest). `tab` receives the step's view.
double lesson_update(AppModel& m, LessonRun& run, PanelId& tab, double dt, bool animate,
                     double seconds_per_event);

}  // namespace tilesim::app
