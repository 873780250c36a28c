// Compare mode: the same problem in two launch orders side by side, stepping together (both
// engine timelines at the same simulated time, or the same event for round orders). Shows the
// DRAM bytes and L2 hit rates each order has produced so far and over the whole run, the timed
// engine's predicted time, and their ratios — the figures grouped order improves.
#include <imgui.h>

#include <string>

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

void table(FrameContext& f, const EngineFrame& a, const EngineFrame& b, float width) {
  const auto& p = f.model.problem;
  const auto& q = *f.model.compare;
  const std::string na(sim::to_string(p.order())), nb(sim::to_string(q.order()));
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##cmp_table", 4, flags, ImVec2(width, 0))) return;
  // Timed orders are compared at the same simulated time, round orders at the same event.
  const bool timed = a.order && a.order->timed();
  const std::string when = timed ? "so far: t = " + format_seconds(a.snapshot.time_ps * 1e-12)
                                 : "so far: event " + format_count(a.position);
  ImGui::TableSetupColumn(when.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn(na.c_str());
  ImGui::TableSetupColumn(nb.c_str());
  ImGui::TableSetupColumn((nb + " / " + na).c_str());
  ImGui::TableHeadersRow();
  auto row = [&](const char* what, const std::string& x, const std::string& y,
                 const std::string& ratio, bool hl) {
    ImGui::TableNextRow();
    lesson_table_row(f, what);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    if (lesson_row_hidden(f, what)) {  // the step asks before the table answers
      for (int i = 0; i < 3; ++i) {
        ImGui::TableNextColumn();
        hidden_cell();
      }
      return;
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(x.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(y.c_str());
    ImGui::TableNextColumn();
    if (hl)
      text_colored(palette::highlight, ratio.c_str());
    else
      ImGui::TextUnformatted(ratio.c_str());
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
    const std::string x = tiles("a"), y = tiles("b");
    row(what.c_str(), x, y,
        cell(f, scenario::resolve_figure("footprint.b.tiles / footprint.a.tiles", c)), true);
  }
  // So far: the snapshots of both sessions at the same moment.
  const auto& ca = a.snapshot.counters;
  const auto& cb = b.snapshot.counters;
  const std::string src = "timed engine, " + f.model.machine.name + " preset, " +
                          std::string(sim::to_string(f.model.event_order)) + " event order, so far";
  const double da = double(ca.dram_bytes()), db = double(cb.dram_bytes());
  row("DRAM bytes so far (read + write)",
      cell(f, so_far("now.dram_bytes", da, true, src + " (" + na + ")")),
      cell(f, so_far("now.dram_bytes.b", db, true, src + " (" + nb + ")")), ratio_text(db, da),
      true);
  row("L2 hit rate so far",
      cell(f, so_far("now.l2_hit_rate", ca.l2_hit_rate(), false, src + " (" + na + ")")),
      cell(f, so_far("now.l2_hit_rate.b", cb.l2_hit_rate(), false, src + " (" + nb + ")")), "",
      false);
  // Whole run: the figures a lesson names (compare.METRIC.SIDE), so narration and table agree.
  auto whole = [&](const char* metric, const char* side) {
    return cell(f, scenario::compare_figure(c, metric, side));
  };
  row("DRAM bytes, whole run", whole("dram_bytes", "a"), whole("dram_bytes", "b"),
      whole("dram_bytes", "ratio"), true);
  row("L2 hit rate, whole run", whole("l2_hit_rate", "a"), whole("l2_hit_rate", "b"), "", false);
  auto time = [&](const char* side, const EngineFrame& e) {
    if (e.timing.kernel_ps <= 0) return std::string("-");
    return whole("time", side) + " (" + std::string(sim::to_string(e.timing.breakdown.bound())) +
           " bound)";
  };
  row("predicted time (timed engine)", time("a", a), time("b", b), whole("time", "ratio"), true);
  ImGui::EndTable();
  // What kind of figure each row is (the first row is computed from the problem, the others are
  // the engine's prediction): the rows keep their names, which lessons refer to.
  text_colored(palette::figure_computed, "computed");
  ImGui::SameLine();
  ImGui::TextDisabled("first row, from the problem;");
  ImGui::SameLine();
  text_colored(palette::figure_predicted, "predicted");
  ImGui::SameLine();
  ImGui::TextDisabled("the others: timed engine, %s preset", f.model.machine.name.c_str());
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
    const GridView gq =
        make_grid_view(q, f.frame_compare, f.ui.coloring, f.model.sms(), f.model.wave_programs());
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    // The table: a header and kCompareRows rows, each a text line plus cell padding and border.
    const float table_row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y + 1;
    const float table_h = table_row * (kCompareRows + 1) + 8;
    // Below the table, one line says which rows are computed and which predicted.
    const float w = (avail.x - 20) / 2, h = avail.y - table_h - 2 * lh;
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
        ImGui::SameLine();
        const auto& c = frames[i]->snapshot.counters;
        ImGui::TextDisabled("DRAM %s, L2 hit %s", format_bytes(double(c.dram_bytes())).c_str(),
                            format_percent(c.l2_hit_rate()).c_str());
      }
      draw_grid_canvas(f, *probs[i], *grids[i], x, pos.y + lh, w, h, i == 0,
                       i == 0 ? "##cmp0" : "##cmp1");
    }
    ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + lh + h + 6));
    if (f.frame && f.frame_compare) {
      table(f, *f.frame, *f.frame_compare, avail.x);
    } else if (f.model.engine_compare) {
      ImGui::ProgressBar(static_cast<float>(f.model.engine_compare->progress()), ImVec2(200, 0),
                         "replaying the compare order");
    }
  }
  end_panel();
}

}  // namespace tilesim::app
