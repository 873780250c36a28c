// Compare mode: the same problem in two launch orders side by side, stepping together (both
// engine timelines at the same simulated time, or the same event for round orders). Shows the
// DRAM bytes and L2 hit rates each order has produced so far and over the whole run, the timed
// engine's predicted time, and their ratios — the figures grouped order improves.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/panels/panels.hpp"
#include "sim/memory/footprint.hpp"

namespace tilesim::app {
namespace {

constexpr int kCompareRows = 6;  // rows table() draws below its header

std::string ratio_text(double a, double b) {
  if (a <= 0 || b <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f x", a / b);
  return buf;
}

// narrow: a figure's parenthesis ("(268.44 MB)", "(math bound)") goes on a line of its own.
void table(FrameContext& f, const EngineFrame& a, const EngineFrame& b, float width, bool narrow) {
  const auto& p = f.model.problem;
  const auto& q = *f.model.compare;
  const std::string na(sim::to_string(p.order())), nb(sim::to_string(q.order()));
  // Timed orders are compared at the same simulated time, round orders at the same event.
  const bool timed = a.order && a.order->timed();
  const std::string when = timed ? "so far: t = " + format_seconds(a.snapshot.time_ps * 1e-12)
                                 : "so far: event " + format_count(a.position);
  struct Row {
    std::string what, x, y, ratio;
    bool hl;
  };
  std::vector<Row> rows;
  auto row = [&](const char* what, std::string x, std::string y, const std::string& ratio,
                 bool hl) {
    for (std::string* s : {&x, &y})
      if (const auto at = s->find(" ("); narrow && at != std::string::npos) s->replace(at, 1, "\n");
    rows.push_back({what, x, y, ratio, hl});
  };
  // Triton's tutorial figure: the distinct input tiles the programs started so far need
  // (9 x 9 tiles, first 9 programs: 90 row-major, 54 grouped with GROUP_SIZE_M = 3).
  const std::int64_t started = a.order ? a.order->programs_started(a.position) : p.programs();
  if (started > 0) {
    const auto fa = sim::footprint(p, started), fb = sim::footprint(q, started);
    const std::string what = "input tiles pids 0.." + format_count(started - 1) + " need";
    row(what.c_str(), format_count(fa.tiles) + " (" + format_bytes(double(fa.bytes)) + ")",
        format_count(fb.tiles) + " (" + format_bytes(double(fb.bytes)) + ")",
        ratio_text(double(fb.tiles), double(fa.tiles)), true);
  }
  const auto& ca = shown_counters(f, a);
  const auto& cb = shown_counters(f, b);
  const double da = double(ca.dram_bytes()), db = double(cb.dram_bytes());
  row("DRAM bytes so far (read + write)", format_bytes(da), format_bytes(db), ratio_text(db, da),
      true);
  row("L2 hit rate so far", format_percent(ca.l2_hit_rate()), format_percent(cb.l2_hit_rate()), "",
      false);
  const auto& fa = a.final_counters;
  const auto& fb = b.final_counters;
  const double ta = double(fa.dram_bytes()), tb = double(fb.dram_bytes());
  row("DRAM bytes, whole run", format_bytes(ta), format_bytes(tb), ratio_text(tb, ta), true);
  row("L2 hit rate, whole run", format_percent(fa.l2_hit_rate()), format_percent(fb.l2_hit_rate()),
      "", false);
  auto time = [](const sim::TimingSummary& t) {
    if (t.kernel_ps <= 0) return std::string("-");
    return format_seconds(t.time_s()) + " (" + std::string(sim::to_string(t.breakdown.bound())) +
           " bound)";
  };
  row("predicted time (timed engine)", time(a.timing), time(b.timing),
      ratio_text(b.timing.time_s(), a.timing.time_s()), true);
  // Figures never split or cut: each figure column is as wide as its widest text (header
  // included); the labels' column takes the rest, its text wrapping.
  const std::string headers[4] = {when, na, nb, "ratio"};
  float widths[4] = {0, 0, 0, 0};
  for (int c = 1; c < 4; ++c) widths[c] = ImGui::CalcTextSize(headers[c].c_str()).x;
  for (const Row& r : rows) {
    widths[1] = std::max(widths[1], ImGui::CalcTextSize(r.x.c_str()).x);
    widths[2] = std::max(widths[2], ImGui::CalcTextSize(r.y.c_str()).x);
    widths[3] = std::max(widths[3], ImGui::CalcTextSize(r.ratio.c_str()).x);
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("##cmp_table", 4, flags, ImVec2(width, 0))) return;
  ImGui::TableSetupColumn(when.c_str(), ImGuiTableColumnFlags_WidthStretch);
  for (int c = 1; c < 4; ++c)
    ImGui::TableSetupColumn(headers[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 4; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::PushTextWrapPos(0);  // the first header wraps with its column
    ImGui::TextUnformatted(headers[c].c_str());
    ImGui::PopTextWrapPos();
  }
  for (const Row& r : rows) {
    ImGui::TableNextRow();
    lesson_table_row(f, r.what.c_str());
    ImGui::TableNextColumn();
    text_words(r.what, palette::text);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.x.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.y.c_str());
    ImGui::TableNextColumn();
    text_colored(r.hl ? palette::highlight : palette::text, r.ratio.c_str());
  }
  ImGui::EndTable();
  text_words("ratio: " + nb + " / " + na, palette::text_dim);
}

}  // namespace

void draw_compare(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::compare, "Compare launch orders: same problem, same moment", r)) {
    center_tabs(f);
    const auto& p = f.model.problem;
    help_marker(f, "compare");
    if (!f.model.compare) {
      ImGui::TextWrapped(
          "Choose a compare order in the controls (\"compare with\") to see two "
          "launch orders side by side.");
      end_panel();
      return;
    }
    engine_status_line(f);
    const auto& q = *f.model.compare;
    GridView gq =
        make_grid_view(q, f.frame_compare, f.ui.coloring, f.model.sms(), f.model.wave_programs());
    // Both grids mark the same program: the one at the cursor of the left order. (At the same
    // moment the right order runs other programs; marking those would compare pid 8 with 79.)
    std::int64_t cursor_pid = -1;
    for (const GridCell& c : f.grid.cells)
      if (c.current) cursor_pid = c.pid;
    for (GridCell& c : gq.cells) c.current = c.pid == cursor_pid;
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    // The table: a header, kCompareRows rows (each a text line plus cell padding and border) and
    // the ratio's line.
    const float table_row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y + 1;
    const float table_h = table_row * (kCompareRows + 1) + lh + 8;
    // Below the grids while that leaves them half the panel; else (large text, a short panel)
    // the grids take the left 45 % at full height and the table sits on their right.
    // Large text in a short panel: the table beside the grids where the panel is wide enough
    // for both (the table at its natural width: 8 em of wrapped labels, two figures of 7 em
    // and a ratio of 4 em, with padding); otherwise the grids keep half the height and the
    // table below scrolls into view.
    const float em = ImGui::GetFontSize();
    const bool short_panel = avail.y - table_h - lh < 0.5f * avail.y;
    const bool beside = short_panel && avail.x >= 48 * em;
    const float grids_w = beside ? std::floor(avail.x - 28 * em) : avail.x;
    const float w = (grids_w - 20) / 2;
    const float h = beside        ? avail.y - lh
                    : short_panel ? std::floor(avail.y * 0.5f)
                                  : avail.y - table_h - lh;
    const sim::Problem* probs[2] = {&p, &q};
    const GridView* grids[2] = {&f.grid, &gq};
    const EngineFrame* frames[2] = {f.frame, f.frame_compare};
    for (int i = 0; i < 2; ++i) {
      const float x = pos.x + i * (w + 20);
      ImGui::SetCursorScreenPos(ImVec2(x, pos.y));
      ImGui::PushFont(f.fonts.title);
      ImGui::Text("%s", std::string(sim::to_string(probs[i]->order())).c_str());
      ImGui::PopFont();
      if (frames[i]) {
        // The grid's own figures where its column has room (the table below has them too).
        const auto& c = shown_counters(f, *frames[i]);
        const std::string figures = "DRAM " + format_bytes(double(c.dram_bytes())) + ", L2 hit " +
                                    format_percent(c.l2_hit_rate());
        ImGui::SameLine();
        if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(figures.c_str()).x <= x + w)
          ImGui::TextDisabled("%s", figures.c_str());
        else
          ImGui::NewLine();
      }
      draw_grid_canvas(f, *probs[i], *grids[i], x, pos.y + lh, w, h, i == 0,
                       i == 0 ? "##cmp0" : "##cmp1");
    }
    const ImVec2 table_at =
        beside ? ImVec2(pos.x + grids_w + 12, pos.y) : ImVec2(pos.x, pos.y + lh + h + 6);
    ImGui::SetCursorScreenPos(table_at);
    if (f.frame && f.frame_compare) {
      table(f, *f.frame, *f.frame_compare, beside ? avail.x - grids_w - 12 : avail.x, short_panel);
    } else if (f.model.engine_compare) {
      ImGui::ProgressBar(static_cast<float>(f.model.engine_compare->progress()), ImVec2(200, 0),
                         "replaying the compare order");
    }
  }
  end_panel();
}

}  // namespace tilesim::app
