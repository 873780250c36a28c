// L2 hit rate over time and L2 residency of the input tiles (see memory_parts.hpp).
#include "app/panels/memory_parts.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/warps/nsight_metrics.hpp"

namespace tilesim::app {
namespace {

// One grid of input tiles: cell colour = share of the tile resident in L2; number = loads so far.
void tile_grid(FrameContext& f, const std::vector<sim::TileView>& tiles, std::int64_t rows,
               std::int64_t cols, std::optional<std::pair<std::int64_t, std::int64_t>> now,
               const char* name, Rgba accent, float x, float y, float w, float h, const char* id) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float lh = ImGui::GetTextLineHeight();
  dl->AddText(ImVec2(x, y), accent.packed(), name);
  y += lh + 2;
  h -= lh + 2;
  if (rows <= 0 || cols <= 0 || h < 4) return;
  const float cell = std::max(0.5f, std::min(w / float(cols), h / float(rows)));
  const float gap = cell >= 8 ? 1.f : 0.f;
  const bool numbers = cell >= ImGui::CalcTextSize("00").x + 4 && cell >= lh;
  dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cols * cell, y + rows * cell),
                    palette::matrix_bg.packed());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const auto& t = tiles[static_cast<std::size_t>(i * cols + j)];
      if (t.reuse.loads == 0 && t.resident_fraction <= 0) continue;
      const Rgba base = t.reuse.loads ? Rgba{66, 72, 86} : palette::matrix_bg;
      const Rgba col = mix(base, palette::l2_hit, std::clamp(t.resident_fraction, 0.f, 1.f));
      const ImVec2 a(x + j * cell + gap, y + i * cell + gap),
          b(x + (j + 1) * cell - gap, y + (i + 1) * cell - gap);
      dl->AddRectFilled(a, b, col.packed());
      if (numbers) {
        const std::string s = std::to_string(t.reuse.loads);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2), palette::text.packed(),
                    s.c_str());
      }
    }
  if (now) {
    const auto [i, j] = *now;
    const float grow = std::max(0.f, 6.f - cell) / 2;
    dl->AddRect(ImVec2(x + j * cell - 1 - grow, y + i * cell - 1 - grow),
                ImVec2(x + (j + 1) * cell + 1 + grow, y + (i + 1) * cell + 1 + grow),
                palette::highlight.packed(), 0, 0, 2.f);
  }
  dl->AddRect(ImVec2(x, y), ImVec2(x + cols * cell, y + rows * cell), palette::grid_line.packed());
  ImGui::SetCursorScreenPos(ImVec2(x, y));
  ImGui::InvisibleButton(id, ImVec2(std::max(1.f, cols * cell), std::max(1.f, rows * cell)));
  if (ImGui::IsItemHovered()) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const auto i = std::int64_t((mp.y - y) / cell), j = std::int64_t((mp.x - x) / cell);
    if (i >= 0 && j >= 0 && i < rows && j < cols) {
      const auto& t = tiles[static_cast<std::size_t>(i * cols + j)];
      ImGui::SetTooltip(
          "%s tile (%lld, %lld): loaded %lld times so far\n%s of its sectors in L2 now\n"
          "sectors served by L2: %s, fetched from DRAM: %s",
          name, (long long)i, (long long)j, (long long)t.reuse.loads,
          format_percent(t.resident_fraction).c_str(), format_count(t.reuse.hit_sectors).c_str(),
          format_count(t.reuse.dram_sectors).c_str());
    }
  }
  (void)f;
}

}  // namespace

void hit_rate_plot(FrameContext& f, const EngineFrame& fr, const Rect& r) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float lh = ImGui::GetTextLineHeight();
  // Title and caption wrap to the plot's width (slides); the plot takes the height left.
  const char* title = "L2 hit rate over the run";
  const char* caption = fr.counters_only ? "(counters-only replay: no curve)"
                                         : "line: so far   teal: per interval   yellow: now";
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, r.w).y;
  const float caption_h = ImGui::CalcTextSize(caption, nullptr, false, r.w).y;
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(r.x, r.y), palette::text.packed(),
              title, nullptr, r.w);
  const auto series = f.model.engine->series();
  const float axis_w = ImGui::CalcTextSize("100%").x + 6;
  // The axis labels (0 %, 100 %) stand half a line above the top and below the bottom.
  const float x0 = r.x + axis_w, y0 = r.y + title_h + lh / 2 + 4, w = r.w - axis_w - 4,
              h = r.h - title_h - caption_h - lh - 12;
  if (h < 20 || w < 20) return;
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + w, y0 + h), palette::matrix_bg.packed());
  for (int pct : {0, 50, 100}) {
    const float y = y0 + h * (1 - pct / 100.f);
    dl->AddLine(ImVec2(x0, y), ImVec2(x0 + w, y), palette::grid_line.packed());
    const std::string s = std::to_string(pct) + "%";
    dl->AddText(ImVec2(r.x, y - lh / 2), palette::text_dim.packed(), s.c_str());
  }
  if (series && !series->cumulative.empty()) {
    const auto n = series->cumulative.size();
    const float bw = w / float(n);
    for (std::size_t i = 0; i < n; ++i) {
      const float v = series->window[i];
      if (std::isnan(v)) continue;
      dl->AddRectFilled(ImVec2(x0 + i * bw, y0 + h * (1 - v)), ImVec2(x0 + (i + 1) * bw, y0 + h),
                        palette::l2_hit.with_alpha(90).packed());
    }
    for (std::size_t i = 1; i < n; ++i)
      dl->AddLine(ImVec2(x0 + (i - 0.5f) * bw, y0 + h * (1 - series->cumulative[i - 1])),
                  ImVec2(x0 + (i + 0.5f) * bw, y0 + h * (1 - series->cumulative[i])),
                  palette::text.packed(), 2.f);
  }
  if (fr.events > 0) {
    const float cx = x0 + w * float(double(fr.position) / double(fr.events));
    dl->AddLine(ImVec2(cx, y0 - 2), ImVec2(cx, y0 + h + 2), palette::highlight.packed(), 2.f);
  }
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(r.x, y0 + h + lh / 2 + 3),
              palette::text_dim.packed(), caption, nullptr, r.w);
}

void residency_view(FrameContext& f, const EngineFrame& fr, const Rect& r) {
  const auto& s = fr.snapshot;
  const auto& p = f.model.problem;
  const bool mm = p.kernel() == sim::Kernel::matmul;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const char* title = "Input tiles: teal = in L2 now, number = loads so far";
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, r.w).y;
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(r.x, r.y), palette::text.packed(),
              title, nullptr, r.w);
  const Rect g{r.x, r.y + title_h + 6, r.w, r.h - title_h - 6};
  std::optional<std::pair<std::int64_t, std::int64_t>> now_a, now_b;
  if (has_current_event(f.frame)) {
    const auto& e = s.current->info;
    if (e.op == sim::StepOp::load_a) now_a = {{e.tile.pid_m, e.k}};
    if (e.op == sim::StepOp::load_b) now_b = {{e.k, e.tile.pid_n}};
    if (e.op == sim::StepOp::load) now_a = {{e.tile.pid_m, e.tile.pid_n}};
  }
  if (mm) {
    const float half = (g.w - 14) / 2;
    tile_grid(f, s.a_tiles, s.a_rows, s.a_cols, now_a, "A tiles (pid_m, k)", palette::a, g.x, g.y,
              half, g.h, "##resA");
    tile_grid(f, s.b_tiles, s.b_rows, s.b_cols, now_b, "B tiles (k, pid_n)", palette::b,
              g.x + half + 14, g.y, half, g.h, "##resB");
  } else {
    tile_grid(f, s.a_tiles, s.a_rows, s.a_cols, now_a, "input tiles", palette::a, g.x, g.y, g.w,
              g.h, "##resA");
  }
}

std::vector<scenario::MeasuredMatch> measured_matches(const FrameContext& f) {
  if (!f.measured) return {};
  return scenario::find_measured(*f.measured, f.model.problem.spec(), f.model.machine.key);
}

void measured_line(FrameContext& f) {
  const auto matches = measured_matches(f);
  if (matches.empty() || !f.frame) return;
  // Model and measurement in the same units, each measured figure read as docs/MODEL.md says.
  const sim::MemoryFigures pred = sim::predicted_memory(f.frame->final_counters);
  for (const auto& m : matches) {
    const auto& r = *m.record;
    const sim::MemoryFigures meas = sim::measured_memory(r.measured);
    auto rel = [](double predicted, double measured) {
      char b[32];
      std::snprintf(b, sizeof b, "%+.0f %%", 100.0 * sim::relative_error(predicted, measured));
      return std::string(b);
    };
    char line[512];
    std::snprintf(
        line, sizeof line,
        "Measured (%s, %s, %s): DRAM read %s / write %s; model, whole run: %s (%s) / %s "
        "(%s), writes until the kernel ends. L2 hit rate measured %s, model %s.",
        m.set->device.substr(0, m.set->device.find(',')).c_str(), m.set->date.c_str(),
        r.variant.c_str(), format_bytes(meas.dram_read_bytes).c_str(),
        format_bytes(meas.dram_write_bytes).c_str(), format_bytes(pred.dram_read_bytes).c_str(),
        rel(pred.dram_read_bytes, meas.dram_read_bytes).c_str(),
        format_bytes(pred.dram_write_bytes).c_str(),
        rel(pred.dram_write_bytes, meas.dram_write_bytes).c_str(),
        format_percent(meas.l2_hit_rate).c_str(), format_percent(pred.l2_hit_rate).c_str());
    ImGui::PushTextWrapPos(0);
    text_colored(palette::highlight, line);
    if (r.programs_per_sm && r.programs_per_sm != f.model.programs_per_sm())
      ImGui::TextDisabled(
          "(the measurement's prediction used %d programs per SM; this model uses %lld)",
          r.programs_per_sm, (long long)f.model.programs_per_sm());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tilesim::app
