// Launch grid panel: the output tiles labelled with the pid that computes each, coloured by
// launch group, wave or SM, with group boundaries drawn and the resident wave outlined. Teaches
// seed 004: the launch order decides which tiles are computed together.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "app/panels/panels.hpp"
#include "sim/program/launch_order.hpp"

namespace tilesim::app {
namespace {

// The formula column needs this many font heights (its long lines wrap below that); it takes
// only room the square grid leaves, never shrinking the grid.
constexpr float kFormulaEm = 24;

// Width draw_grid_canvas fills of (w, h): pid_m labels plus square cells.
float grid_used_width(const GridView& g, float w, float h) {
  if (g.tiles_m <= 0 || g.tiles_n <= 0) return 0;
  const float label_w = ImGui::CalcTextSize("000").x + 6;
  const float label_h = ImGui::GetTextLineHeight() + 2;
  const float cell = std::max(0.5f, std::min((w - label_w) / g.tiles_n, (h - label_h) / g.tiles_m));
  return label_w + cell * g.tiles_n;
}

// The choice of colouring: radio buttons to click, or one line of text in a figure.
void draw_coloring_choice(FrameContext& f) {
  const char* names[] = {"launch group", "wave", "SM"};
  int mode = static_cast<int>(f.ui.coloring);
  if (f.ui.figure) {
    ImGui::Text("Colour: %s", names[mode]);
  } else {
    ImGui::TextUnformatted("Colour by:");
    for (int i = 0; i < 3; ++i) {
      ImGui::SameLine();
      ImGui::RadioButton(names[i], &mode, i);
    }
    f.ui.coloring = static_cast<GridColoring>(mode);
  }
}

// What the colours and lines mean for this order: row-major's "groups" are rows of tiles, and
// the palette repeats, so a colour names no quantity; say so.
std::string legend_line(const sim::Problem& p, GridColoring c) {
  const auto order = p.order();
  const std::string every = std::to_string(palette::class_count);
  std::string colour;
  if (c == GridColoring::group) {
    if (order == sim::LaunchOrder::row_major)
      colour = "colour: one per row of tiles (row-major launches a row of " +
               std::to_string(p.tiles_n()) + " pids, then the next), repeating every " + every +
               " rows";
    else if (order == sim::LaunchOrder::column_major)
      colour = "colour: one per column of tiles (" + std::to_string(p.tiles_m()) +
               " consecutive pids), repeating every " + every + " columns";
    else
      colour = "colour: one per launch group of GROUP_SIZE_M x " + std::to_string(p.tiles_n()) +
               " pids, repeating every " + every + " groups";
  } else if (c == GridColoring::wave) {
    colour = "colour: the wave that runs the tile";
  } else {
    colour = "colour: the SM that runs the tile";
  }
  return colour + "; thick lines: group boundaries; white outline: resident now; green: stored";
}

// The pid -> tile formula evaluated for one pid, as `tilesim-cli map --pid N` prints it: the
// hovered pid, else the chosen one (--pid N, a click), else the program at the cursor.
void draw_formula(FrameContext& f, const sim::Problem& p, ImVec2 at, float width) {
  const std::int64_t pid = std::clamp<std::int64_t>(
      f.ui.hovered_pid.value_or(f.ui.formula_pid.value_or(f.at.pid)), 0, p.programs() - 1);
  const auto g = sim::grid_of(p);
  const auto tile = sim::tile_of(p.order(), g, pid);
  ImGui::SetCursorScreenPos(at);
  ImGui::BeginGroup();
  ImGui::PushFont(f.fonts.title);
  ImGui::Text("pid %lld -> tile (pid_m = %lld, pid_n = %lld)", (long long)pid,
              (long long)tile.pid_m, (long long)tile.pid_n);
  ImGui::PopFont();
  ImGui::TextDisabled("%s order, step by step:", std::string(sim::to_string(p.order())).c_str());
  ImGui::PushFont(f.fonts.mono);
  ImGui::PushTextWrapPos(at.x + width - ImGui::GetWindowPos().x);  // window-local x
  for (const auto& line : sim::explain_tile_of(p.order(), g, pid))
    ImGui::TextWrapped("%s", line.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  if (!f.ui.figure) ImGui::TextDisabled("hover a tile to evaluate it; click to jump there");
  ImGui::EndGroup();
}

}  // namespace

void draw_grid_canvas(FrameContext& f, const sim::Problem& p, const GridView& g, float x, float y,
                      float w, float h, bool interactive, const char* id) {
  if (g.tiles_m <= 0 || g.tiles_n <= 0) return;  // not drawn (kMaxGridPrograms)
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_w = ImGui::CalcTextSize("000").x + 6;  // room for pid_m labels on the left
  const float label_h = ImGui::GetTextLineHeight() + 2;
  const float cell = std::max(0.5f, std::min((w - label_w) / g.tiles_n, (h - label_h) / g.tiles_m));
  const float gx = x + label_w, gy = y + label_h;
  const float gw = cell * g.tiles_n, gh = cell * g.tiles_m;
  ImGui::SetCursorScreenPos(ImVec2(x, y));
  ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, label_w + gw), std::max(1.0f, label_h + gh)));
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();

  // Axis labels: pid_n across the top, pid_m down the side, where they fit.
  const float digit_w = ImGui::CalcTextSize("0").x;
  const std::int64_t every_n =
      std::max<std::int64_t>(1, std::int64_t(std::ceil(digit_w * 4 / cell)));
  const std::int64_t every_m =
      std::max<std::int64_t>(1, std::int64_t(std::ceil(label_h * 1.2f / cell)));
  for (std::int64_t n = 0; n < g.tiles_n; n += every_n) {
    const std::string s = std::to_string(n);
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(gx + (n + 0.5f) * cell - tw / 2, y), palette::text_dim.packed(), s.c_str());
  }
  for (std::int64_t m = 0; m < g.tiles_m; m += every_m) {
    const std::string s = std::to_string(m);
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(gx - tw - 4, gy + (m + 0.5f) * cell - label_h / 2 + 1),
                palette::text_dim.packed(), s.c_str());
  }

  // Cells: only those inside the clip rectangle (a 128 x 128 grid is 16k cells).
  const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
  const auto m0 = std::clamp<std::int64_t>(std::int64_t((clip_min.y - gy) / cell), 0, g.tiles_m);
  const auto m1 =
      std::clamp<std::int64_t>(std::int64_t((clip_max.y - gy) / cell) + 1, 0, g.tiles_m);
  const auto n0 = std::clamp<std::int64_t>(std::int64_t((clip_min.x - gx) / cell), 0, g.tiles_n);
  const auto n1 =
      std::clamp<std::int64_t>(std::int64_t((clip_max.x - gx) / cell) + 1, 0, g.tiles_n);
  const float gap = cell >= 8 ? 1.0f : 0.0f;
  // pid labels at the UI font where they fit, else shrunk down to a still legible size (at
  // --scale 2 the font doubles but a grid's cells need not).
  ImFont* font = ImGui::GetFont();
  const float full_w = ImGui::CalcTextSize("000").x;
  const float label_size = ImGui::GetFontSize() * std::min(1.0f, (cell - 4) / full_w);
  const bool labels = label_size >= 9.0f;
  for (std::int64_t m = m0; m < m1; ++m)
    for (std::int64_t n = n0; n < n1; ++n) {
      const GridCell& c = g.at(m, n);
      Rgba col = class_color(c.group);
      if (c.done) col = mix(col, palette::c, 0.6f);
      if (c.current) col = palette::highlight;
      const ImVec2 a(gx + n * cell + gap, gy + m * cell + gap);
      const ImVec2 b(gx + (n + 1) * cell - gap, gy + (m + 1) * cell - gap);
      dl->AddRectFilled(a, b, col.packed());
      if (c.resident && !c.current && cell >= 6)
        dl->AddRect(a, b, Rgba{255, 255, 255, 110}.packed());
      if (labels) {
        const std::string s = std::to_string(c.pid);
        const ImVec2 ts = font->CalcTextSizeA(label_size, FLT_MAX, 0, s.c_str());
        const Rgba tc = palette::label_on(col);
        dl->AddText(font, label_size, ImVec2((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2),
                    tc.packed(), s.c_str());
      }
    }
  // Launch-group boundaries: merged runs of edges between cells of different groups.
  const ImU32 edge = Rgba{235, 238, 245, 230}.packed();
  const float thick = std::clamp(cell * 0.12f, 1.0f, 3.0f);
  for (std::int64_t m = 0; m + 1 < g.tiles_m; ++m) {
    std::int64_t run = -1;
    for (std::int64_t n = 0; n <= g.tiles_n; ++n) {
      const bool differs = n < g.tiles_n && g.launch_group[m * g.tiles_n + n] !=
                                                g.launch_group[(m + 1) * g.tiles_n + n];
      if (differs && run < 0) run = n;
      if (!differs && run >= 0) {
        dl->AddLine(ImVec2(gx + run * cell, gy + (m + 1) * cell),
                    ImVec2(gx + n * cell, gy + (m + 1) * cell), edge, thick);
        run = -1;
      }
    }
  }
  for (std::int64_t n = 0; n + 1 < g.tiles_n; ++n) {
    std::int64_t run = -1;
    for (std::int64_t m = 0; m <= g.tiles_m; ++m) {
      const bool differs = m < g.tiles_m && g.launch_group[m * g.tiles_n + n] !=
                                                g.launch_group[m * g.tiles_n + n + 1];
      if (differs && run < 0) run = m;
      if (!differs && run >= 0) {
        dl->AddLine(ImVec2(gx + (n + 1) * cell, gy + run * cell),
                    ImVec2(gx + (n + 1) * cell, gy + m * cell), edge, thick);
        run = -1;
      }
    }
  }
  dl->AddRect(ImVec2(gx, gy), ImVec2(gx + gw, gy + gh), edge, 0, 0, 1.5f);

  // The current program: outlined again on top so group lines never hide it.
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(g.cells.size()); ++i)
    if (g.cells[i].current) {
      const std::int64_t m = i / g.tiles_n, n = i % g.tiles_n;
      dl->AddRect(ImVec2(gx + n * cell - 1, gy + m * cell - 1),
                  ImVec2(gx + (n + 1) * cell + 1, gy + (m + 1) * cell + 1),
                  palette::highlight.packed(), 0, 0, 2.0f);
    }
  // Programs a lesson step points at.
  if (const auto* hl = lesson_highlight(f))
    for (const std::int64_t pid : hl->pids)
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(g.cells.size()); ++i)
        if (g.cells[i].pid == pid) {
          const std::int64_t m = i / g.tiles_n, n = i % g.tiles_n;
          lesson_outline(dl, ImVec2(gx + n * cell, gy + m * cell),
                         ImVec2(gx + (n + 1) * cell, gy + (m + 1) * cell));
          lesson_mark(f, "pid:" + std::to_string(pid));
        }

  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    const auto m = std::int64_t(std::floor((mp.y - gy) / cell));
    const auto n = std::int64_t(std::floor((mp.x - gx) / cell));
    if (m >= 0 && n >= 0 && m < g.tiles_m && n < g.tiles_n) {
      const std::int64_t pid = g.at(m, n).pid;
      f.ui.hovered_pid = pid;
      ImGui::BeginTooltip();
      ImGui::PushFont(f.fonts.title);
      ImGui::Text("pid %lld computes tile (pid_m = %lld, pid_n = %lld)", (long long)pid,
                  (long long)m, (long long)n);
      ImGui::PopFont();
      ImGui::PushFont(f.fonts.mono);
      for (const auto& line : sim::explain_tile_of(p.order(), sim::grid_of(p), pid))
        ImGui::TextUnformatted(line.c_str());
      ImGui::PopFont();
      if (interactive) ImGui::TextDisabled("click: jump to this program");
      ImGui::EndTooltip();
      if (clicked && interactive) {
        f.cmds.push(SeekPid{pid});
        f.ui.formula_pid = pid;
      }
    }
  }
}

void draw_launch_grid(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::launch_grid, "Launch grid: which program computes which tile", r)) {
    center_tabs(f);
    const auto& p = f.model.problem;
    const bool grouped =
        p.order() == sim::LaunchOrder::grouped || p.order() == sim::LaunchOrder::grouped_legacy;
    text_words(std::to_string(p.tiles_m()) + " x " + std::to_string(p.tiles_n()) +
                   " tiles = " + std::to_string(p.programs()) + " programs, " +
                   std::string(sim::to_string(p.order())) + " order" +
                   (grouped ? ", GROUP_SIZE_M = " + std::to_string(p.group_size_m()) : ""),
               palette::text);
    help_marker(f, "launch_grid");
    if (p.programs() > kMaxGridPrograms)
      text_colored(palette::l2_miss, ("Too many programs to draw one cell each (more than " +
                                      format_count(kMaxGridPrograms) + "): use larger blocks.")
                                         .c_str());
    // A slide's legend line names the colouring already; its height goes to the grid.
    if (!(f.ui.figure && slide_layout(f))) draw_coloring_choice(f);
    f.ui.hovered_pid.reset();  // set again below while the mouse is over a tile
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The legend below wraps to as many lines as the panel's width needs.
    const std::string legend = legend_line(p, f.ui.coloring);
    const float legend_h = ImGui::CalcTextSize(legend.c_str(), nullptr, false, avail.x).y +
                           ImGui::GetStyle().ItemSpacing.y;
    const float grid_h = avail.y - legend_h - ImGui::GetStyle().ItemSpacing.y;
    // The formula column takes the room a square grid leaves on the right of a wide panel.
    const float em = ImGui::GetFontSize();
    draw_grid_canvas(f, p, f.grid, pos.x, pos.y, avail.x, grid_h, true, "##grid");
    const float used = grid_used_width(f.grid, avail.x, grid_h);
    if (avail.x - used - em >= kFormulaEm * em)
      draw_formula(f, p, ImVec2(pos.x + used + em, pos.y), avail.x - used - em);
    ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + grid_h + ImGui::GetStyle().ItemSpacing.y));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", legend.c_str());
    ImGui::PopStyleColor();
  }
  end_panel();
}

}  // namespace tilesim::app
