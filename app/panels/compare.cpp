// Compare mode: the same problem in two launch orders side by side, stepping together (both
// engine timelines at the same simulated time, or the same event for round orders). Shows the
// DRAM bytes and L2 hit rates each order has produced so far and over the whole run, the timed
// engine's predicted time, and their ratios — the figures grouped order improves.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "app/core/step_figures.hpp"
#include "app/panels/panels.hpp"
#include "sim/base/format.hpp"
#include "sim/memory/footprint.hpp"

namespace tilesim::app {
namespace {

constexpr int kCompareRows = 6;  // rows table() draws below its header

std::string ratio_text(double a, double b) {
  if (a <= 0 || b <= 0) return "-";
  return sim::format_ratio(a / b);
}

// A cell's figure, registered as drawn (for --export-dir's JSON); its text is the cell's.
std::string cell(FrameContext& f, scenario::Figure fig) {
  figure_drawn(f, fig);
  return fig.text;
}
scenario::Figure so_far(std::string name, double v, bool bytes, const std::string& source) {
  scenario::Figure fig;
  fig.name = std::move(name);
  fig.value = v;
  fig.text = bytes ? format_bytes(v) : format_percent(v);
  fig.unit = bytes ? "B" : "fraction";
  fig.kind = scenario::FigureKind::predicted;
  fig.source = source;
  return fig;
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
    bool hidden;  // the lesson step asks before the table answers (hide_rows)
  };
  std::vector<Row> rows;
  // Every row's figures are computed first and registered only when shown: a hidden row's
  // figures are on no slide, so they are in no export JSON either.
  auto row = [&](const char* what, const std::function<std::string()>& x,
                 const std::function<std::string()>& y, const std::function<std::string()>& ratio,
                 bool hl) {
    if (lesson_row_hidden(f, what)) {
      rows.push_back({what, "?", "?", "?", hl, true});
      return;
    }
    std::string sx = x(), sy = y();
    for (std::string* s : {&sx, &sy})
      if (const auto at = s->find(" ("); narrow && at != std::string::npos) s->replace(at, 1, "\n");
    rows.push_back({what, sx, sy, ratio(), hl, false});
  };
  // Triton's tutorial figure: the distinct input tiles the programs started so far need
  // (9 x 9 tiles, first 9 programs: 90 row-major, 54 grouped with GROUP_SIZE_M = 3).
  AppFigureContext figs;
  make_figure_context(f.model, &a, &b, figs);
  const auto& c = figs.ctx;
  const std::int64_t started = c.programs_started;
  if (started > 0) {
    auto tiles = [&](const char* side) {
      const auto t = scenario::resolve_figure(std::string("footprint.") + side + ".tiles", c);
      const auto by = scenario::resolve_figure(std::string("footprint.") + side + ".bytes", c);
      return cell(f, t) + " (" + cell(f, by) + ")";
    };
    const std::string what = "input tiles pids 0.." + format_count(started - 1) + " need";
    row(
        what.c_str(), [&] { return tiles("a"); }, [&] { return tiles("b"); },
        [&] {
          return cell(f, scenario::resolve_figure("footprint.b.tiles / footprint.a.tiles", c));
        },
        true);
  }
  // So far: both sessions at the same moment (the counters before the event while its tile is
  // still travelling).
  const auto& ca = shown_counters(f, a);
  const auto& cb = shown_counters(f, b);
  const std::string src = "timed engine, " + f.model.machine.name + " preset, " +
                          std::string(sim::to_string(f.model.event_order)) + " event order, so far";
  const double da = double(ca.dram_bytes()), db = double(cb.dram_bytes());
  row(
      "DRAM bytes so far (read + write)",
      [&] { return cell(f, so_far("now.dram_bytes", da, true, src + " (" + na + ")")); },
      [&] { return cell(f, so_far("now.dram_bytes.b", db, true, src + " (" + nb + ")")); },
      [&] { return ratio_text(db, da); }, true);
  row(
      "L2 hit rate so far",
      [&] {
        return cell(f, so_far("now.l2_hit_rate", ca.l2_hit_rate(), false, src + " (" + na + ")"));
      },
      [&] {
        return cell(f, so_far("now.l2_hit_rate.b", cb.l2_hit_rate(), false, src + " (" + nb + ")"));
      },
      [] { return std::string(); }, false);
  // Whole run: the figures a lesson names (compare.METRIC.SIDE), so narration and table agree.
  auto whole = [&](const char* metric, const char* side) {
    return [&f, &c, metric, side] { return cell(f, scenario::compare_figure(c, metric, side)); };
  };
  row("DRAM bytes, whole run", whole("dram_bytes", "a"), whole("dram_bytes", "b"),
      whole("dram_bytes", "ratio"), true);
  row(
      "L2 hit rate, whole run", whole("l2_hit_rate", "a"), whole("l2_hit_rate", "b"),
      [] { return std::string(); }, false);
  auto time = [&](const char* side, const EngineFrame& e) {
    return [&, side] {
      if (e.timing.kernel_ps <= 0) return std::string("-");
      return whole("time", side)() + " (" +
             std::string(sim::to_string(e.timing.breakdown.bound())) + " bound)";
    };
  };
  row("predicted time (timed engine)", time("a", a), time("b", b), whole("time", "ratio"), true);
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
    if (r.hidden) {
      for (int i = 0; i < 3; ++i) {
        ImGui::TableNextColumn();
        hidden_cell();
      }
      continue;
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.x.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.y.c_str());
    ImGui::TableNextColumn();
    text_colored(r.hl ? palette::highlight : palette::text, r.ratio.c_str());
  }
  ImGui::EndTable();
  // What kind of figure each row is (the first row is computed from the problem, the others are
  // the engine's prediction): the rows keep their names, which lessons refer to.
  text_words("ratio: " + nb + " / " + na + ". First row computed from the problem; the others " +
                 "predicted (timed engine, " + f.model.machine.name + " preset).",
             palette::text_dim);
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
    // the note under it (what the ratio is, which rows are computed and which predicted).
    const float table_row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y + 1;
    const float table_h = table_row * (kCompareRows + 1) + 2 * lh + 8;
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
      if (frames[i] && !lesson_hides_row(f, "DRAM bytes so far (read + write)")) {
        // The grid's own figures where its column has room (the table below has them too); not
        // while the lesson step hides the table's so-far rows.
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
      // A group: the note under the table wraps within the table's column, not back under the
      // grids when the table stands beside them.
      ImGui::BeginGroup();
      table(f, *f.frame, *f.frame_compare, beside ? avail.x - grids_w - 12 : avail.x, short_panel);
      ImGui::EndGroup();
    } else if (f.model.engine_compare) {
      ImGui::ProgressBar(static_cast<float>(f.model.engine_compare->progress()), ImVec2(200, 0),
                         "replaying the compare order");
    }
  }
  end_panel();
}

}  // namespace tilesim::app
