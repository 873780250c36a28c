// tilesim: the desktop app. Each frame draws a snapshot of the model (panels/), then applies the
// commands the panels pushed. Headless figures: --screenshot renders offscreen and exits, so
// scripts/gallery can regenerate docs/gallery/ under Xvfb.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "app/core/commands.hpp"
#include "app/core/options.hpp"
#include "app/panels/panels.hpp"
#include "app/platform/platform.hpp"
#include "scenario/resolve.hpp"

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
  ui.layout = compute_layout(plat.width(), plat.height(), ui.focus, ui.center_tab, ui.scale);
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
  std::optional<Rect> area;
  if (c.panel && !ui.focus && ui.layout.is_visible(*c.panel)) area = ui.layout.rect(*c.panel);
  const std::string err = plat.write_png(path, area);
  ui.last_figure = err.empty() ? path : "error: " + err;
  return err;
}

}  // namespace

int main(int argc, char** argv) {
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
  const bool headless = o.screenshot.has_value() || o.frames.has_value();
  if (!display_available()) {
    std::fprintf(stderr,
                 "tilesim: no display found; to render headless run it under Xvfb with a figure "
                 "to write, e.g. xvfb-run -a -s \"-screen 0 1600x900x24\" tilesim --screenshot "
                 "out.png\n");
    return 2;
  }

  scenario::Scenario sc = default_scenario();
  std::filesystem::path sc_path;
  try {
    if (o.scenario) {
      sc = scenario::load_scenario(*o.scenario);
      sc_path = *o.scenario;
    } else {
      const auto def = scenario::assets_dir() / "scenarios" / "seed004_574_grouped.json";
      if (std::filesystem::exists(def)) {
        sc = scenario::load_scenario(def);
        sc_path = def;
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
  if (const auto err = plat.open(o.width, o.height, o.scale, headless); !err.empty()) {
    std::fprintf(stderr, "tilesim: %s\n", err.c_str());
    return 1;
  }
  AppModel model = make_model(sc, sc_path);
  UiState ui;
  ui.scale = o.scale;
  ui.focus = o.panel;
  if (o.tab)
    ui.center_tab = *parse_panel(*o.tab);
  else if (o.panel &&
           (*o.panel == PanelId::compare || *o.panel == PanelId::memory ||
            *o.panel == PanelId::sweep || *o.panel == PanelId::warps || *o.panel == PanelId::gpu))
    ui.center_tab = *o.panel;
  else if (!o.scenario)  // the default start: seed 004, grouped beside row-major
    ui.center_tab = PanelId::compare;
  if (o.seek) model.engine->seek(*o.seek);
  const HelpText help = load_help();
  const auto measured = scenario::load_measured_dir(scenario::assets_dir() / "measured");
  CommandQueue q;

  if (o.screenshot || o.frames) {
    // Headless: let worker results arrive (bounded), then time or capture.
    const auto t0 = std::chrono::steady_clock::now();
    int frames = 0, settled_frames = 0;
    while (true) {
      plat.begin_frame();
      draw_frame(plat, model, ui, q, help, measured);
      plat.render();
      q.pending.clear();  // headless figures show the state as given
      ++frames;
      if (ui.center_tab == PanelId::compare || ui.focus == PanelId::compare) sync_sessions(model);
      const bool engines_busy =
          !model.engine->settled() ||
          (model.engine_compare &&
           (!model.engine_compare->settled() ||
            ((ui.center_tab == PanelId::compare || ui.focus == PanelId::compare) &&
             model.engine_compare->position() != model.engine->position())));
      const bool busy = ui.sweep_job.pending() || ui.warps_job.pending() || engines_busy;
      const double waited =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // ImGui sizes table columns and wrapped text from the previous frame's content, so keep
      // drawing a few frames after the last worker result arrives before capturing.
      if (busy)
        settled_frames = 0;
      else
        ++settled_frames;
      if (frames >= 3 && (settled_frames >= 3 || waited > 120)) break;
      if (busy) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (o.frames) {
      // Each frame steps the cursor by one event (as when playing), so view models are rebuilt.
      std::vector<double> ms, ui_ms;
      for (int i = 0; i < *o.frames; ++i) {
        const auto a = std::chrono::steady_clock::now();
        plat.begin_frame();
        draw_frame(plat, model, ui, q, help, measured);
        ImGui::EndFrame();
        const auto b = std::chrono::steady_clock::now();
        plat.render();
        q.pending.clear();
        model.engine->seek(model.position() + 1);
        const auto c = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(c - a).count());
        ui_ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
      }
      auto report = [&](const char* what, std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const double mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
        std::printf("  %-34s mean %6.2f  p50 %6.2f  p95 %6.2f  max %6.2f\n", what, mean,
                    v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)], v.back());
      };
      std::printf("tilesim --frames %d (%dx%d, scale %.0f, scenario %s), CPU ms per frame:\n",
                  *o.frames, o.width, o.height, o.scale, model.scenario.name.c_str());
      report("panels + view models (app code)", ui_ms);
      report("whole frame incl. GL submit", ms);
    }
    if (o.screenshot) {
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

  auto last = std::chrono::steady_clock::now();
  while (!plat.should_close() && !ui.quit) {
    plat.begin_frame();
    draw_frame(plat, model, ui, q, help, measured);
    plat.render();
    if (ui.capture) {
      capture(plat, model, ui, *ui.capture);
      ui.capture.reset();
    }
    plat.present();
    const auto now = std::chrono::steady_clock::now();
    q.push(Advance{std::chrono::duration<double>(now - last).count()});
    last = now;
    q.apply_all(model);
  }
  return 0;
}
