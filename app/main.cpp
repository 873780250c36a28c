// tilesim: the desktop app. Each frame draws a snapshot of the model (panels/), then applies the
// commands the panels pushed. Headless figures: --screenshot renders offscreen and exits, so
// scripts/gallery can regenerate docs/gallery/ under Xvfb.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "app/core/commands.hpp"
#include "app/core/options.hpp"
#include "app/core/sweep.hpp"
#include "app/panels/panels.hpp"
#include "app/platform/platform.hpp"
#include "app/platform/record.hpp"
#include "app/platform/text_check.hpp"
#include "app/recording.hpp"
#include "app/soak.hpp"
#include "scenario/bench_report.hpp"
#include "scenario/file_io.hpp"
#include "scenario/resolve.hpp"
#include "triton/heap_reuse.hpp"

using namespace tilesim;
using namespace tilesim::app;

namespace {

void handle_keys(AppModel& m, UiState& ui, CommandQueue& q) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const bool shift = io.KeyShift;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space))) q.push(TogglePlay{});
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
    q.push(StepBy{shift ? StepUnit::program : ui.step_unit, +1});
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
    q.push(StepBy{shift ? StepUnit::program : ui.step_unit, -1});
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) q.push(SeekHome{});
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) q.push(SeekEnd{});
  if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S))
    ui.capture = CaptureRequest{ui.figure_panel, {}};
  (void)m;
}

// One frame: layout, view models, panels. Returns nothing; commands wait in `q`.
void draw_frame(Platform& plat, AppModel& m, UiState& ui, CommandQueue& q, const HelpText& help,
                const std::vector<scenario::MeasuredSet>& measured) {
  handle_keys(m, ui, q);
  // A slide keeps the code and broadcast panels only where the lesson step points into them.
  SlideNeeds needs;
  if (ui.lesson && !ui.lesson->lesson.steps.empty()) {
    const int n = static_cast<int>(ui.lesson->lesson.steps.size());
    const int i =
        std::clamp(ui.lesson->step >= 0 ? ui.lesson->step : ui.lesson->requested, 0, n - 1);
    const auto& h = ui.lesson->lesson.steps[i].highlight;
    needs = {!h.code_lines.empty(), !h.lanes.empty()};
  }
  ui.layout = compute_layout(plat.width(), plat.height(), ui.focus, ui.center_tab, ui.scale,
                             ui.lesson.has_value(), ui.font_scale, needs);
  if (ui.lesson) ui.lesson->drawn.clear();  // the panels record the highlights they draw
  ui.figures_drawn.clear();                 // and the figures they show
  // The compare timeline follows only while it is on screen: its snapshots cost a core.
  if (ui.center_tab == PanelId::compare || ui.focus == PanelId::compare) sync_sessions(m);
  const auto frame = m.engine->frame();
  const auto frame_cmp = m.engine_compare ? m.engine_compare->frame() : nullptr;
  const GridView grid =
      make_grid_view(m.problem, frame.get(), ui.coloring, m.sms(), m.wave_programs());
  FrameContext f{m,
                 ui,
                 q,
                 plat.fonts(),
                 help,
                 grid,
                 frame.get(),
                 frame_cmp.get(),
                 cursor_of(frame.get()),
                 &measured};
  for (int i = 0; i < kPanelCount; ++i) {
    const auto id = static_cast<PanelId>(i);
    if (ui.layout.is_visible(id)) draw_panel(f, id, ui.layout.rect(id));
  }
}

std::string capture(Platform& plat, const AppModel& m, UiState& ui, const CaptureRequest& c) {
  const std::string path =
      c.path.empty() ? figure_file_name(m.scenario.name, m.position(), c.panel, ui.scale) : c.path;
  const std::string err = plat.write_png(path, figure_area(ui, c.panel));
  ui.last_figure = err.empty() ? path : "error: " + err;
  return err;
}

// Applies the job requests of a frame (the sweep panel asks for its sweep) and drops the rest.
void drop_all_but_jobs(CommandQueue& q, AppModel& m) {
  for (const auto& c : q.pending)
    if (is_job_request(c)) apply_command(m, c);
  q.pending.clear();
}

// One frame of the interactive loop, `dt` seconds after the last; `inject` feeds test input.
// Returns what a kernel file read on the worker did when it landed after the frame.
KernelLanding window_frame(Session& s, double dt,
                           const std::function<void(ImGuiIO&)>& inject = {}) {
  AppModel& model = s.model;
  UiState& ui = s.ui;
  // The fraction of the event shown: a lesson's step-to-step animation, else playback's.
  if (ui.lesson)
    ui.anim_fraction =
        lesson_update(model, *ui.lesson, ui.center_tab, dt, true, 0.25 * ui.slow_motion);
  else
    ui.anim_fraction = model.playing ? model.play_accum : 1.0;
  s.plat.begin_frame(inject);
  draw_frame(s.plat, model, ui, s.q, s.help, s.measured);
  s.plat.render();
  if (ui.capture) {
    capture(s.plat, model, ui, *ui.capture);
    ui.capture.reset();
  }
  s.plat.present();
  s.q.push(Advance{dt});
  // Edits reload on save: the open kernel file's time and size, looked at twice a second.
  ui.kernel_poll_s += dt;
  if (model.kernel_file && ui.kernel_poll_s >= 0.5) {
    ui.kernel_poll_s = 0;
    if (kernel_file_changed(*model.kernel_file)) s.q.push(ReloadKernel{});
  }
  // The frame's commands act on the model it drew; a kernel file read meanwhile lands after.
  s.q.apply_all(model);
  return land_kernel_open(model);
}

}  // namespace

namespace tilesim::app {

// The part of the window a figure shows: the --panel panel, else the requested panel, else all.
std::optional<Rect> figure_area(const UiState& ui, std::optional<PanelId> panel) {
  if (ui.focus) panel = ui.focus;
  if (panel && ui.layout.is_visible(*panel)) return ui.layout.rect(*panel);
  return std::nullopt;
}

// Draws frames until worker results have arrived and the layout is stable (ImGui sizes table
// columns and wrapped text from the previous frame's content), bounded by two minutes. A lesson
// step requested before is applied (without animation) on the first frame.
void settle(Session& s) {
  const auto t0 = std::chrono::steady_clock::now();
  int frames = 0, settled_frames = 0;
  while (true) {
    if (s.ui.lesson) lesson_update(s.model, *s.ui.lesson, s.ui.center_tab, 0, false, 1);
    s.plat.begin_frame();
    draw_frame(s.plat, s.model, s.ui, s.q, s.help, s.measured);
    s.plat.render();
    drop_all_but_jobs(s.q, s.model);  // headless figures show the state as given
    land_kernel_open(s.model);
    ++frames;
    const bool cmp = s.ui.center_tab == PanelId::compare || s.ui.focus == PanelId::compare;
    if (cmp) sync_sessions(s.model);
    const auto& m = s.model;
    const bool engines_busy =
        !m.engine->settled() ||
        (m.engine_compare && (!m.engine_compare->settled() ||
                              (cmp && m.engine_compare->position() != compare_target(m))));
    const bool lesson_pending = s.ui.lesson && s.ui.lesson->step != s.ui.lesson->requested;
    const bool busy = lesson_pending || m.jobs->sweep.pending() || m.jobs->device.pending() ||
                      m.jobs->gpu.pending() || m.jobs->rungs.pending() ||
                      m.jobs->kernel.pending() || s.ui.warps_job.pending() || engines_busy;
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (busy)
      settled_frames = 0;
    else
      ++settled_frames;
    if (frames >= 3 && (settled_frames >= 3 || waited > 120)) break;
    if (busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace tilesim::app

namespace {

// Is a figure more than a blank window? (a few distinct colours in a coarse sample)
bool looks_blank(const Pixels& p) {
  std::vector<std::uint32_t> seen;
  for (int y = 0; y < p.h; y += 7)
    for (int x = 0; x < p.w; x += 7) {
      const unsigned char* c = p.rgba.data() + (std::size_t(y) * p.w + x) * 4;
      const std::uint32_t v = (c[0] >> 3) << 10 | (c[1] >> 3) << 5 | (c[2] >> 3);
      if (std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v);
      if (seen.size() > 8) return false;
    }
  return true;
}

// --check-text: the cut text of the frame last rendered, as "cut text in 'PANEL': \"TEXT\""
// clauses (empty when none).
std::string cut_text_problems() {
  std::string out;
  std::map<std::string, int> per_panel;  // at most 3 lines named per panel, then a count
  const auto cuts = find_cut_text(ImGui::GetDrawData());
  for (const CutText& c : cuts)
    if (++per_panel[c.panel] <= 3)
      out += (out.empty() ? "" : "; ") + ("cut text in '" + c.panel + "': \"" + c.text + "\"");
  for (const auto& [panel, n] : per_panel)
    if (n > 3) out += "; " + std::to_string(n - 3) + " more cut lines in '" + panel + "'";
  return out;
}

// --export-dir: one PNG per lesson step, each checked (its position and highlights resolved,
// every highlighted item drawn, the figure not blank). Returns the exit code.
int export_lesson(Session& s, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  LessonRun& run = *s.ui.lesson;
  const int n = static_cast<int>(run.lesson.steps.size());
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    run.requested = i;
    settle(s);
    std::string problem = run.error;
    const auto missing = missing_marks(run);
    for (const auto& k : missing) problem += (problem.empty() ? "" : "; ") + ("not drawn: " + k);
    const CursorPos at = cursor_of(s.model.engine->frame().get());
    if (run.expected && !(at == *run.expected))
      problem += (problem.empty() ? "" : "; ") + std::string("the view shows pid ") +
                 std::to_string(at.pid) + " step " + std::to_string(at.step) + ", not pid " +
                 std::to_string(run.expected->pid) + " step " + std::to_string(run.expected->step);
    char name[64];
    std::snprintf(name, sizeof name, "-step%02d%s.png", i + 1, s.ui.scale != 1.0f ? "@2x" : "");
    const auto path = dir / (run.lesson.name + name);
    if (const auto cut = s.ui.check_text ? cut_text_problems() : ""; !cut.empty())
      problem += (problem.empty() ? "" : "; ") + cut;
    Pixels px;
    std::string err = s.plat.read_pixels(std::nullopt, px);
    if (err.empty() && looks_blank(px)) err = "the figure is blank";
    if (err.empty()) err = capture(s.plat, s.model, s.ui, CaptureRequest{std::nullopt, path});
    if (!err.empty()) problem += (problem.empty() ? "" : "; ") + err;
    // Beside the PNG, the step's figures with their sources (the frame just drawn registered
    // them): NAME-stepNN.json.
    for (const auto& e : run.text.errors) problem += (problem.empty() ? "" : "; ") + e;
    auto json_path = path;
    json_path.replace_extension(".json");
    try {
      scenario::write_file_atomic(json_path,
                                  step_figures_json(run.lesson, i, run.text, s.ui.figures_drawn));
    } catch (const std::exception& e) {
      problem += (problem.empty() ? "" : "; ") + std::string(e.what());
    }
    if (!problem.empty()) {
      ++failures;
      std::fprintf(stderr, "tilesim: lesson %s, step %d of %d: %s\n", run.lesson.name.c_str(),
                   i + 1, n, problem.c_str());
    }
    std::printf("wrote %s\n", path.string().c_str());
  }
  return failures ? 1 : 0;
}

// The text of the help pages and lessons, whose characters beyond Latin and Cyrillic (the seeds'
// Chinese words) the fonts must draw.
std::string glyph_text() {
  std::string all;
  for (const char* dir : {"help", "lessons"}) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(scenario::assets_dir() / dir, ec)) {
      std::ifstream in(e.path(), std::ios::binary);
      all.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  return all;
}

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// --frames N: N frames, each timed. Without --play each frame seeks one event further (a new
// snapshot every frame, frames back to back). With --play the model plays as in the window
// (TogglePlay, then Advance by 1/60 s per frame: simulated time at the app's rate) and frames are
// paced at 60 Hz, so the engine's worker gets the time between frames that vsync gives it. The
// UI thread's CPU time is what a frame costs the app; wall time adds waiting for a core (the
// worker and llvmpipe share two cores here).
void frame_bench(Session& s, const Options& o) {
  AppModel& model = s.model;
  constexpr double kFrameSeconds = 1.0 / 60;
  if (o.play) apply_command(model, TogglePlay{});
  const std::int64_t first = model.position();
  std::vector<double> cpu_ms, frame_cpu_ms, ui_ms, ms;
  std::int64_t shown = -1, snapshots = 0;  // distinct positions drawn
  double vertices = 0;                     // ImGui's vertices, summed over the frames
  for (int i = 0; i < *o.frames; ++i) {
    const auto a = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_ms();
    s.plat.begin_frame();
    draw_frame(s.plat, model, s.ui, s.q, s.help, s.measured);
    ImGui::EndFrame();
    cpu_ms.push_back(thread_cpu_ms() - c0);
    const auto b = std::chrono::steady_clock::now();
    s.plat.render();
    vertices += ImGui::GetDrawData()->TotalVtxCount;
    drop_all_but_jobs(s.q, model);
    if (const auto f = model.engine->frame(); f && f->position != shown)
      shown = f->position, ++snapshots;
    if (o.play)
      apply_command(model, Advance{kFrameSeconds});
    else
      model.engine->seek(model.position() + 1);
    const auto c = std::chrono::steady_clock::now();
    frame_cpu_ms.push_back(thread_cpu_ms() - c0);
    ms.push_back(std::chrono::duration<double, std::milli>(c - a).count());
    ui_ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    if (o.play) std::this_thread::sleep_until(a + std::chrono::duration<double>(kFrameSeconds));
  }
  const auto report = [](const char* what, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    const auto at = [&v](std::size_t pct) {
      return v[std::min(v.size() - 1, v.size() * pct / 100)];
    };
    std::printf("  %-34s mean %6.2f  p50 %6.2f  p95 %6.2f  p99 %6.2f  max %6.2f\n", what, mean,
                at(50), at(95), at(99), v.back());
  };
  std::printf("tilesim --frames %d%s (%dx%d, scale %.0f, scenario %s), ms per frame:\n", *o.frames,
              o.play ? " --play" : "", o.width, o.height, o.scale, model.scenario.name.c_str());
  report("draw_frame, UI thread CPU time", cpu_ms);
  report("draw_frame, wall (app code)", ui_ms);
  report("whole frame, UI thread CPU time", frame_cpu_ms);
  report("whole frame incl. GL submit, wall", ms);
  std::printf(
      "  positions %lld .. %lld of %lld, %lld distinct snapshots drawn, %.0f vertices per "
      "frame\n",
      (long long)first, (long long)model.position(), (long long)model.events(),
      (long long)snapshots, vertices / *o.frames);
}

// The start's positions and views that depend on the problem (--sweep-view, --pid, --seek):
// returns the exit code of a refusal (0: none).
int apply_start_view(AppModel& model, UiState& ui, const Options& o) {
  if (o.sweep_view == "blocks") {
    ui.sweep_axis = SweepAxis::block_size;
    ui.sweep_rate = true;
  } else if (o.sweep_view == "measured") {
    // The axis the preset's bundled sweep file measured at these sizes (block sizes if none).
    const auto* rep = scenario::bundled_sweep_report(model.machine.key);
    const auto axis = rep ? measured_sweep_axis(model.problem.spec(), *rep) : std::nullopt;
    ui.sweep_axis = axis.value_or(SweepAxis::block_size);
    ui.sweep_rate = true;
  }
  if (o.pid) {
    if (*o.pid >= model.problem.programs()) {
      std::fprintf(stderr, "tilesim: --pid %lld is out of range: allowed 0..%lld\n",
                   (long long)*o.pid, (long long)model.problem.programs() - 1);
      return 2;
    }
    ui.formula_pid = *o.pid;
    if (!o.seek) model.engine->seek_pid(*o.pid);
  }
  if (o.seek) model.engine->seek(*o.seek);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  triton::keep_freed_heap_memory();  // kernel files are evaluated on open and on every save
  const auto parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.error.empty()) {
    std::fprintf(stderr, "tilesim: %s\n%s", parsed.error.c_str(), usage().c_str());
    return 2;
  }
  const Options& o = parsed.options;
  if (o.help) {
    std::printf("%s", usage().c_str());
    return 0;
  }
  const bool headless = o.screenshot || o.frames || o.export_dir || o.record;
  if (!display_available()) {
    std::fprintf(stderr,
                 "tilesim: no display found; to render headless run it under Xvfb with a figure "
                 "to write, e.g. xvfb-run -a -s \"-screen 0 1600x900x24\" tilesim --screenshot "
                 "out.png\n");
    return 2;
  }
  if (o.record)
    if (const auto why = Recorder::check(*o.record); !why.empty()) {
      std::fprintf(stderr, "tilesim: %s\n", why.c_str());
      return 2;
    }

  scenario::Scenario sc = default_scenario();
  std::filesystem::path sc_path;
  std::optional<LessonRun> lesson;
  try {
    if (o.lesson) {
      lesson = open_lesson(*o.lesson);
      const int steps = static_cast<int>(lesson->lesson.steps.size());
      if (o.lesson_step && *o.lesson_step > steps) {
        std::fprintf(stderr, "tilesim: lesson %s has %d steps; --lesson-step %d is past the end\n",
                     lesson->lesson.name.c_str(), steps, *o.lesson_step);
        return 2;
      }
      lesson->requested = o.lesson_step.value_or(1) - 1;
      sc = lesson->lesson.scenario;
    } else if (o.scenario) {
      sc = scenario::load_scenario(*o.scenario);
      sc_path = *o.scenario;
    } else if (o.triton) {
      // Read on a worker once the model exists (below); the default problem stands in meanwhile.
    } else {
      const auto all = scenario::list_lessons(scenario::assets_dir() / "lessons");
      const auto start = first_screen_lesson(all);
      if (start != all.end() && !o.frames) {
        lesson = open_lesson(start->path.string());
        lesson->show_index = true;
        sc = lesson->lesson.scenario;
      } else {
        const auto def = scenario::assets_dir() / "scenarios" / "seed004_574_grouped.json";
        if (std::filesystem::exists(def)) {
          sc = scenario::load_scenario(def);
          sc_path = def;
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilesim: %s\n", e.what());
    return 1;
  }
  try {
    (void)scenario::resolve(sc);  // a bad machine is refused here, as tilesim-cli refuses it
  } catch (const sim::InvalidField& e) {
    std::fprintf(stderr, "tilesim: %s: %s\n", sc_path.string().c_str(), e.what());
    return 2;
  }

  Platform plat;
  if (const auto err = plat.open(o.width, o.height, o.scale, headless,
                                 PlatformStyle{o.font_scale, o.light, glyph_text()});
      !err.empty()) {
    std::fprintf(stderr, "tilesim: %s\n", err.c_str());
    return 1;
  }
  AppModel model = make_model(sc, sc_path, o.event_order.value_or(sim::kDefaultEventOrder));
  UiState ui;
  ui.sms_by_wait = o.sms_by_wait;
  ui.scale = o.scale;
  ui.font_scale = o.font_scale;
  ui.check_text = o.check_text;
  ui.focus = o.panel;
  if (o.panel == PanelId::lesson && !lesson) {
    std::fprintf(stderr, "tilesim: --panel lesson needs a lesson open (--lesson NAME)\n");
    return 2;
  }
  ui.lesson = std::move(lesson);
  if (o.tab)
    ui.center_tab = *parse_panel(*o.tab);
  else if (o.panel && is_center_panel(*o.panel))
    ui.center_tab = *o.panel;
  else if (!o.scenario && !o.triton && !ui.lesson)  // --frames: seed 004, grouped beside row-major
    ui.center_tab = PanelId::compare;
  if (ui.lesson) lesson_update(model, *ui.lesson, ui.center_tab, 0, false, 1);
  if (o.tab) ui.center_tab = *parse_panel(*o.tab);  // an explicit tab wins over the lesson's view
  // --triton: as File -> Open kernel, read on a worker. The window draws meanwhile ("Opening
  // kernel...") and takes the positions below once it lands; a figure or the soak has nothing to
  // draw before it, so they wait for it (a refusal: exit 2, as tilesim-cli run --triton).
  bool start_view_pending = false;
  if (o.triton) {
    ui.kernel_path = o.triton->string();  // a refused file can be fixed and opened again
    apply_command(model, OpenKernel{*o.triton, o.triton_function, o.triton_args});
    if (headless || o.soak) {
      constexpr double kReadAsLongAsItTakes = 24 * 3600.0;  // the front end's own limits bound it
      if (const auto landed = finish_kernel_open(model, kReadAsLongAsItTakes);
          !landed.error.empty()) {
        std::fprintf(stderr, "tilesim: %s\n", landed.error.c_str());
        return 2;
      }
    } else {
      start_view_pending = true;
    }
  }
  if (!start_view_pending)
    if (const int rc = apply_start_view(model, ui, o)) return rc;
  ui.figure = headless && (o.screenshot || o.export_dir || o.record);
  const HelpText help = load_help();
  const auto measured = scenario::load_measured_dir(scenario::assets_dir() / "measured");
  CommandQueue q;
  Session session{plat, model, ui, q, help, measured};

  if (headless) {
    settle(session);
    if (o.export_dir) return export_lesson(session, *o.export_dir);
    if (o.record) return record(session, o);
    if (o.frames) frame_bench(session, o);
    if (o.screenshot) {
      if (const auto cut = o.check_text ? cut_text_problems() : ""; !cut.empty()) {
        std::fprintf(stderr, "tilesim: %s: %s\n", o.screenshot->string().c_str(), cut.c_str());
        return 1;
      }
      if (o.text_out) {
        std::string text;
        for (const CutText& line : find_text_lines(ImGui::GetDrawData()))
          text += line.panel + ": " + line.text + "\n";
        try {
          scenario::write_file_atomic(*o.text_out, text);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "tilesim: %s\n", e.what());
          return 1;
        }
      }
      const auto err =
          capture(plat, model, ui, CaptureRequest{std::nullopt, o.screenshot->string()});
      if (!err.empty()) {
        std::fprintf(stderr, "tilesim: could not write %s: %s\n", o.screenshot->string().c_str(),
                     err.c_str());
        return 1;
      }
      std::printf("wrote %s\n", o.screenshot->string().c_str());
    }
    return 0;
  }

  if (o.soak) {
    SoakTarget target{plat, model, ui, q, [&](const std::function<void(ImGuiIO&)>& inject) {
                        window_frame(session, 1.0 / 60, inject);
                      }};
    SoakOptions so;
    so.seed = static_cast<std::uint64_t>(*o.soak);
    so.actions = o.actions.value_or(so.actions);
    return run_soak(target, so);
  }
  auto last = std::chrono::steady_clock::now();
  while (!plat.should_close() && !ui.quit) {
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    const KernelLanding landed = window_frame(session, dt);
    if (start_view_pending && landed.landed) {
      start_view_pending = false;
      if (!landed.error.empty()) std::fprintf(stderr, "tilesim: %s\n", landed.error.c_str());
      // Not when the learner opened another file before this one landed.
      const bool start_file =
          landed.error.empty() && model.kernel_file && model.kernel_file->path == *o.triton;
      if (const int rc = start_file ? apply_start_view(model, ui, o) : 0) {
        shut_down(model);
        ui.warps_job.stop_and_join();
        return rc;
      }
    }
  }
  // Jobs in flight are cancelled and joined before the window and the model go away.
  shut_down(model);
  ui.warps_job.stop_and_join();
  return 0;
}
