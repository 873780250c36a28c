// UI-only state (zoom, selection, chosen colouring, pending figure), kept apart from the model
// as in Tracy's viewer: none of it changes what the simulation says.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/core/async_job.hpp"
#include "app/core/gpu_view.hpp"
#include "app/core/grid_view.hpp"
#include "app/core/layout.hpp"
#include "app/core/lesson_run.hpp"
#include "app/core/matrix_view.hpp"
#include "app/core/sweep.hpp"
#include "app/core/warps_view.hpp"
#include "scenario/lesson_figures.hpp"

namespace tilesim::app {

struct CaptureRequest {
  std::optional<PanelId> panel;  // nullopt: the whole window
  std::string path;              // empty: figure_file_name in the current folder
};

struct UiState {
  GridColoring coloring = GridColoring::group;
  PanelId center_tab = PanelId::launch_grid;
  std::optional<PanelId> focus;  // one panel fills the window
  float scale = 1.0f;
  float font_scale = 1.0f;  // --font-scale: with scale, picks the slide layout (layout.hpp)
  std::array<Viewport, 3> viewports{};  // matrix views, in make_matrix_models order
  std::optional<std::int64_t> hovered_pid;
  // The pid whose pid -> tile formula the launch grid spells out (--pid N, or a click); unset:
  // the program of the event at the cursor.
  std::optional<std::int64_t> formula_pid;
  // A headless figure (--screenshot, --export-dir, --record): no "(?)" markers or radio buttons,
  // which mean nothing on a slide.
  bool figure = false;
  bool check_text = false;  // --check-text: headless figures report text their panel cuts
  SweepAxis sweep_axis = SweepAxis::group_size_m;
  bool sweep_rate = false;   // sweep plots predicted (and measured) throughput, not DRAM bytes
  bool sms_by_wait = false;  // SM timeline: colour programs by what they waited on, not wave
  std::optional<CaptureRequest> capture;
  std::string open_path, save_path;
  // File -> Open kernel: the .py path typed; seconds since the open kernel file was last looked
  // at for a save (main.cpp polls it twice a second).
  std::string kernel_path;
  double kernel_poll_s = 0;
  // What the controls show: the learner's edits, possibly invalid (the model keeps the last
  // valid spec). Re-synced whenever the model's spec changes from elsewhere (open, sweep click).
  sim::ProblemSpec edit_spec;
  std::optional<sim::ProblemSpec> synced_spec;
  StepUnit step_unit = StepUnit::event;
  std::optional<PanelId> figure_panel;  // what the "Save PNG" button captures
  std::string last_figure;              // path of the last PNG written
  bool show_help = false;
  Layout layout;
  AsyncJob<std::vector<WarpRow>> warps_job;
  // GPU panel (its device query and live runs are jobs of the model): the chosen variant and a
  // loaded bench file.
  std::string gpu_variant;  // chosen variant ("" = the first that fits)
  std::string bench_path;   // the tilesim-bench --json file to load
  bool bench_bundled =
      true;  // bench_path is assets/measured/bench_<preset>.json: follow the preset
  std::optional<scenario::BenchReport> bench_report;
  std::string bench_error;
  bool quit = false;
  // Lessons and animation: the open lesson, how far the event shown has progressed (1 at rest;
  // see animation.hpp) and the slow-motion factor of step-to-step animations.
  std::optional<LessonRun> lesson;
  double anim_fraction = 1.0;
  double slow_motion = 1.0;  // 1 = a quarter second per event; 4 = four times slower
  // Every figure a panel drew this frame (the compare table's cells, the memory counters, the
  // GPU panel's measured and predicted numbers), with its kind and source: --export-dir writes
  // them beside each PNG. Cleared at the start of each frame, like LessonRun::drawn.
  std::vector<scenario::Figure> figures_drawn;
  bool show_glossary = false;
  std::string glossary_filter;
};

}  // namespace tilesim::app
