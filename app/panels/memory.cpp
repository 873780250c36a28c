// Memory hierarchy panel, in the spirit of Nsight Compute's memory chart: DRAM -> L2 -> shared
// memory -> registers with the bytes the engine has moved so far and the L2 hit rate; the hit
// rate over the whole run with the cursor on it; and which input tiles sit in L2 now and how
// often each was loaded. Everything comes from the engine snapshot at the cursor.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

#include "app/core/memory_view.hpp"
#include "app/panels/memory_parts.hpp"
#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

void box(ImDrawList* dl, float x, float y, float w, float h, const char* title,
         const std::string& line1, const std::string& line2, Rgba accent) {
  dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), palette::box_bg.packed(), 6);
  dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), accent.packed(), 6, 0, 2);
  const float lh = ImGui::GetTextLineHeight();
  dl->AddText(ImVec2(x + 8, y + 6), palette::text.packed(), title);
  dl->AddText(ImVec2(x + 8, y + 9 + lh), palette::text_dim.packed(), line1.c_str());
  dl->AddText(ImVec2(x + 8, y + 11 + 2 * lh), palette::text_dim.packed(), line2.c_str());
}

// A horizontal arrow from x0 to x1 (right) or back (left), its label above or below.
void arrow(ImDrawList* dl, float x0, float x1, float y, const std::string& label, Rgba c,
           bool right, bool label_above) {
  const float tip = right ? x1 : x0, tail = right ? x0 : x1, d = right ? -9.f : 9.f;
  dl->AddLine(ImVec2(tail, y), ImVec2(tip + d, y), c.packed(), 3);
  dl->AddTriangleFilled(ImVec2(tip, y), ImVec2(tip + d, y - 5), ImVec2(tip + d, y + 5), c.packed());
  const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
  const float ty = label_above ? y - ts.y - 3 : y + 4;
  dl->AddText(ImVec2((x0 + x1 - ts.x) / 2, ty), palette::text.packed(), label.c_str());
}

void chart(FrameContext& f, const EngineFrame& fr, float x, float y, float w) {
  const sim::Counters& c = shown_counters(f, fr);
  const auto& p = f.model.problem;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = ImGui::CalcTextSize("000.00 MiB").x + 14;
  const float gap = std::max(label_w, w * 0.08f);
  const float bw = (w - 3 * gap) / 4;
  const float bh = ImGui::GetTextLineHeight() * 3 + 18;
  const L2Fill l2 = l2_fill(f.model.machine, fr.snapshot.l2_resident_lines);
  box(dl, x, y, bw, bh, "DRAM (HBM)", "read " + format_bytes(double(c.dram_read_bytes)),
      "write " + format_bytes(double(c.dram_write_bytes)), palette::l2_miss);
  box(dl, x + (bw + gap), y, bw, bh, l2.title.c_str(),
      "hit rate " + format_percent(c.l2_hit_rate()), l2.line, palette::l2_hit);
  box(dl, x + 2 * (bw + gap), y, bw, bh, "shared memory",
      "write " + format_bytes(double(c.smem_write_bytes)),
      "read " + format_bytes(double(c.smem_read_bytes)), palette::a);
  box(dl, x + 3 * (bw + gap), y, bw, bh, "registers", format_bytes(double(c.register_bytes)),
      p.kernel() == sim::Kernel::matmul ? "fp32 acc." : "one tile", palette::c);
  const float ay = y + bh * 0.5f;
  arrow(dl, x + bw, x + bw + gap, ay - 7, format_bytes(double(c.dram_read_bytes)), palette::l2_miss,
        true, true);
  arrow(dl, x + bw, x + bw + gap, ay + 7, format_bytes(double(c.dram_write_bytes)),
        palette::text_dim, false, false);
  arrow(dl, x + 2 * bw + gap, x + 2 * (bw + gap), ay - 7, format_bytes(double(c.l2_read_bytes)),
        palette::l2_hit, true, true);
  arrow(dl, x + 2 * bw + gap, x + 2 * (bw + gap), ay + 7, format_bytes(double(c.l2_write_bytes)),
        palette::text_dim, false, false);
  arrow(dl, x + 3 * bw + 2 * gap, x + 3 * (bw + gap), ay - 7,
        format_bytes(double(c.smem_read_bytes)), palette::a, true, true);
  // The current event's tile travelling along the hierarchy (animation.hpp).
  // At slide size: at least 1.6 lines and 6 % of the panel's height.
  const float token = std::max(ImGui::GetTextLineHeight() * 1.6f, ImGui::GetWindowHeight() * 0.06f);
  float centres[kMemLevels];
  for (int i = 0; i < kMemLevels; ++i) centres[i] = x + i * (bw + gap) + bw / 2;
  draw_motion_token(current_motion(f), centres, y + bh + 4 + token / 2, token);
  ImGui::SetCursorScreenPos(ImVec2(x, y + bh + 8 + token));
}

// The chart as a column (slides: boxes too narrow for their figures side by side): each level a
// box of the column's width, the bytes between two levels written beside a downward arrow.
// Returns the height used.
float chart_stacked(FrameContext& f, const EngineFrame& fr, float x, float y, float w) {
  const sim::Counters& c = shown_counters(f, fr);
  const auto& p = f.model.problem;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float lh = ImGui::GetTextLineHeight();
  const float bh = lh * 3 + 18, gap = lh + 10;
  const L2Fill l2 = l2_fill(f.model.machine, fr.snapshot.l2_resident_lines);
  struct Level {
    const char* name;
    std::string line1, line2;
    Rgba accent;
  };
  const Level levels[kMemLevels] = {
      {"DRAM (HBM)", "read " + format_bytes(double(c.dram_read_bytes)),
       "write " + format_bytes(double(c.dram_write_bytes)), palette::l2_miss},
      {l2.title.c_str(), "hit rate " + format_percent(c.l2_hit_rate()), l2.line, palette::l2_hit},
      {"shared memory", "write " + format_bytes(double(c.smem_write_bytes)),
       "read " + format_bytes(double(c.smem_read_bytes)), palette::a},
      {"registers", format_bytes(double(c.register_bytes)),
       p.kernel() == sim::Kernel::matmul ? "fp32 acc." : "one tile", palette::c}};
  // Bytes down (and back up) between level i and i + 1.
  const std::string between[kMemLevels - 1] = {
      "\u2193 " + format_bytes(double(c.dram_read_bytes)) + ", back " +
          format_bytes(double(c.dram_write_bytes)),
      "\u2193 " + format_bytes(double(c.l2_read_bytes)) + ", back " +
          format_bytes(double(c.l2_write_bytes)),
      "\u2193 " + format_bytes(double(c.smem_read_bytes))};
  float at = y;
  for (int i = 0; i < kMemLevels; ++i) {
    // Name and first figure on one line where they fit, else the box grows a line.
    box(dl, x, at, w, bh, levels[i].name, levels[i].line1, levels[i].line2, levels[i].accent);
    at += bh;
    if (i + 1 < kMemLevels) {
      dl->AddText(ImVec2(x + 8, at + 5), palette::text.packed(), between[i].c_str());
      at += gap;
    }
  }
  ImGui::SetCursorScreenPos(ImVec2(x, at + 6));
  return at + 6 - y;
}

// Does the side-by-side chart have room for its boxes' text across `w`?
bool chart_fits(const EngineFrame& fr, float w) {
  const float label_w = ImGui::CalcTextSize("000.00 MiB").x + 14;
  const float gap = std::max(label_w, w * 0.08f);
  const float bw = (w - 3 * gap) / 4;
  const sim::Counters& c = fr.snapshot.counters;
  const std::string widest[] = {"shared memory", "read " + format_bytes(double(c.dram_read_bytes)),
                                "hit rate 100.0 %",
                                "write " + format_bytes(double(c.smem_write_bytes))};
  for (const auto& s : widest)
    if (ImGui::CalcTextSize(s.c_str()).x + 16 > bw) return false;
  return true;
}

}  // namespace

void draw_memory(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::memory, "Memory hierarchy: bytes moved so far", r)) {
    center_tabs(f);
    help_marker(f, "memory");
    const bool have = engine_status_line(f);
    if (!have || !f.frame) {
      end_panel();
      return;
    }
    const EngineFrame& fr = *f.frame;
    const sim::Counters& c = shown_counters(f, fr);
    text_words("After " + format_count(fr.position) + " of " + format_count(fr.events) +
                   " events: " + format_count(c.tile_loads) + " tile loads, " +
                   format_count(c.tile_stores) + " stores; L2 hit rate " +
                   format_percent(c.l2_hit_rate()) + " (whole run " +
                   format_percent(fr.final_counters.l2_hit_rate()) + ")",
               palette::text);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (!chart_fits(fr, avail.x)) {
      // Slides: the chart as a column on the left, the hit rate over the run on its right
      // (the residency view needs more room than a slide's panel has).
      const float col_w = std::floor(avail.x * 0.5f);
      const float used = chart_stacked(f, fr, pos.x, pos.y, col_w);
      hit_rate_plot(f, fr,
                    Rect{pos.x + col_w + 16, pos.y, avail.x - col_w - 16, std::min(used, avail.y)});
      end_panel();
      return;
    }
    chart(f, fr, pos.x, pos.y + ImGui::GetTextLineHeight() + 2, avail.x);
    // The counters drawn above, registered with their source (--export-dir's JSON).
    const std::string so_far = "so far (event " + format_count(fr.position) + ")";
    for (const auto& [name, v, how] :
         {std::tuple{"now.dram_read_bytes", double(c.dram_read_bytes), Shown::bytes},
          {"now.dram_write_bytes", double(c.dram_write_bytes), Shown::bytes},
          {"now.l2_read_bytes", double(c.l2_read_bytes), Shown::bytes},
          {"now.l2_hit_rate", c.l2_hit_rate(), Shown::fraction},
          {"now.smem_read_bytes", double(c.smem_read_bytes), Shown::bytes},
          {"now.smem_write_bytes", double(c.smem_write_bytes), Shown::bytes},
          {"now.register_bytes", double(c.register_bytes), Shown::bytes},
          {"now.tile_loads", double(c.tile_loads), Shown::count}})
      figure_drawn(f, engine_figure(f.model, name, v, how, so_far));
    figure_drawn(f, engine_figure(f.model, "run.l2_hit_rate", fr.final_counters.l2_hit_rate(),
                                  Shown::fraction, "whole run"));
    measured_line(f);
    const ImVec2 low = ImGui::GetCursorScreenPos();
    const float low_h = r.y + r.h - low.y - ImGui::GetStyle().WindowPadding.y;
    const float plot_w = avail.x * 0.42f;
    hit_rate_plot(f, fr, Rect{low.x, low.y, plot_w, low_h});
    residency_view(f, fr, Rect{low.x + plot_w + 16, low.y, avail.x - plot_w - 16, low_h});
  }
  end_panel();
}

}  // namespace tilesim::app
