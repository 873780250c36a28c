// The panels of the window, one file each (as Tracy's TracyView_*.cpp). A panel reads the model
// and the frame's view models, draws with ImGui, and pushes commands; it never edits the model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/core/animation.hpp"
#include "app/core/commands.hpp"
#include "app/core/grid_view.hpp"
#include "app/core/layout.hpp"
#include "app/core/palette.hpp"
#include "app/core/ui_state.hpp"
#include "app/platform/platform.hpp"
#include "scenario/measured.hpp"

struct ImDrawList;
struct ImVec2;

namespace tilesim::app {

// Learner-facing help from assets/help/<key>.md (panel names and "legend").
using HelpText = std::map<std::string, std::string>;
HelpText load_help();

struct FrameContext {
  const AppModel& model;
  UiState& ui;
  CommandQueue& cmds;
  const Fonts& fonts;
  const HelpText& help;
  const GridView& grid;                        // launch grid of the model's problem at the cursor
  const EngineFrame* frame = nullptr;          // engine snapshot at the cursor (null: building)
  const EngineFrame* frame_compare = nullptr;  // the compare order's, same position
  CursorPos at;                                // program and step of the event at the cursor
  const std::vector<scenario::MeasuredSet>* measured = nullptr;  // assets/measured/*.json
};
// Measurements of this problem on this machine (may be empty).
std::vector<scenario::MeasuredMatch> measured_matches(const FrameContext& f);

void draw_controls(FrameContext& f, const Rect& r);
void draw_launch_grid(FrameContext& f, const Rect& r);
void draw_matrices(FrameContext& f, const Rect& r);
void draw_broadcast(FrameContext& f, const Rect& r);
void draw_code(FrameContext& f, const Rect& r);
void draw_memory(FrameContext& f, const Rect& r);
void draw_sms(FrameContext& f, const Rect& r);
void draw_compare(FrameContext& f, const Rect& r);
void draw_sweep(FrameContext& f, const Rect& r);
void draw_warps(FrameContext& f, const Rect& r);
void draw_gpu(FrameContext& f, const Rect& r);
void draw_compiler(FrameContext& f, const Rect& r);
void draw_lesson(FrameContext& f, const Rect& r);
void draw_panel(FrameContext& f, PanelId id, const Rect& r);

// Lesson highlights (lesson.cpp): what the open lesson's step points at (null: no lesson). A
// panel that draws a highlighted item outlines it and records its mark (lesson_run.hpp), so a
// headless run can check every highlight is on screen.
const scenario::LessonHighlight* lesson_highlight(const FrameContext& f);
void lesson_mark(FrameContext& f, const std::string& mark);
void lesson_outline(ImDrawList* dl, const ImVec2& a, const ImVec2& b);
// Right after ImGui::TableNextRow(): tints the row when the step points at `label`.
void lesson_table_row(FrameContext& f, const char* label);
// Does the step hide the figures of row `label` (its hide_rows: the next steps answer them)?
// Records the mark "hidden:LABEL" when it does; draw the row's values with hidden_cell().
bool lesson_row_hidden(FrameContext& f, const char* label);
// The same question without recording the mark (for figures elsewhere that repeat the row's).
bool lesson_hides_row(const FrameContext& f, const char* label);
// A table cell whose figure the step hides: "?" with the tooltip "the next steps answer this".
void hidden_cell();
// A lesson's figures (rich_text.cpp): the colour of a kind; a figure a panel draws, registered
// for --export-dir's JSON; narration, question or answer as wrapped tokens (figures unbreakable,
// with footnote marks) after `label`; the step's "Sources" footer; the glossary window.
Rgba figure_color(scenario::FigureKind k);
void figure_drawn(FrameContext& f, const scenario::Figure& fig);
void draw_rich_text(const std::string& label, const std::string& text, Rgba color,
                    const StepText& st);
void draw_sources(FrameContext& f, const StepText& st);
void draw_glossary(FrameContext& f);
// The current event's tile in motion (motion.cpp), for the memory chart and the lesson panel.
Motion current_motion(const FrameContext& f);
// The legend state of the access at the cursor: a load's L2 hit or miss (a partial hit counts as
// a miss: DRAM was read), a store in progress "now", and "stored" once the run has ended.
palette::TileState current_access_state(const FrameContext& f);
// The counters a view shows of `fr`: those before its event while the event's tile is still on
// its way (animation fraction < 1), so figures change when the tile arrives; else the counters.
const sim::Counters& shown_counters(const FrameContext& f, const EngineFrame& fr);
// centres: x of DRAM, L2, shared memory, registers; y: the line the tile travels on.
void draw_motion_token(const Motion& m, const float centres[kMemLevels], float y, float size);
void draw_hierarchy_strip(FrameContext& f, float width);

// Shared drawing helpers (common.cpp).
bool begin_panel(FrameContext& f, PanelId id, const char* title, const Rect& r);
void end_panel();
void help_marker(FrameContext& f, const std::string& key);
// ImGui::SameLine, or a new line where the next item (`width` pixels) would pass the panel's
// edge: short items of one line that wrap whole at slide size instead of being cut.
void same_line_if_fits(float width);
float text_width(const char* text);  // CalcTextSize(text).x
// Text wrapped at spaces only, to the panel's (or table cell's) right edge: ImGui's own wrapping
// also breaks after '.' and ',', splitting "1.675 ms" or "3,200" across lines.
void text_words(const std::string& text, Rgba colour);
// The lines text_words draws `text` in at `width` pixels (a word wider than that: a line alone).
std::vector<std::string> wrap_words(const std::string& text, float width);
// The slide layout is on (large text for the window: layout.hpp's uses_slide_layout).
bool slide_layout(const FrameContext& f);
void center_tabs(FrameContext& f);  // launch grid | compare | memory | ... | compiler
void draw_hatch(ImDrawList* dl, const ImVec2& a, const ImVec2& b, Rgba color, float spacing);
void draw_legend(FrameContext& f, bool with_l2);
// One line saying the timeline is being built (progress bar + Cancel) or why it fell back.
// Returns true when a frame is available to draw.
bool engine_status_line(FrameContext& f);
std::string format_percent(double fraction);  // 0.4567 -> "45.7 %"
std::string format_seconds(double s);         // 0.0000123 -> "12.3 us", 0.0123 -> "12.30 ms"
void text_colored(Rgba c, const char* text);
std::string format_bytes(double bytes);
std::string format_count(std::int64_t n);  // 1234567 -> "1,234,567"
Rgba class_color(std::int64_t cls);
Rgba operand_color(sim::Operand op);
// The launch grid drawn in a box (launch grid and compare panels). Hovering explains the pid ->
// (pid_m, pid_n) formula; clicking (when interactive) moves the cursor to that program.
void draw_grid_canvas(FrameContext& f, const sim::Problem& p, const GridView& g, float x, float y,
                      float w, float h, bool interactive, const char* id);

}  // namespace tilesim::app
