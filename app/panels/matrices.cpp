// Matrix views: A, B and C (in and out for copy and transpose) side by side. The tile the
// current step loads or stores is filled in its operand's colour and outlined in yellow; lanes
// its mask turns off are hatched; C fills in as K advances; input tiles resident in the engine's
// L2 now are tinted teal. Zoomed out, only tiles are drawn; zoomed in, element cells, then
// their offsets (the numbers of the broadcast inspector).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

ImVec2 to_screen(const ViewXform& x, double r, double c) {
  return ImVec2(static_cast<float>(x.x(c)), static_cast<float>(x.y(r)));
}

// The launch-grid cell of the program that stores tile (tr, tc) of the output matrix.
const GridCell* output_cell(const sim::Problem& p, const GridView& g, std::int64_t tr,
                            std::int64_t tc) {
  const sim::TileCoord t = sim::stored_tile_owner(p, tr, tc);
  if (t.pid_m < 0 || t.pid_n < 0 || t.pid_m >= g.tiles_m || t.pid_n >= g.tiles_n) return nullptr;
  return &g.at(t.pid_m, t.pid_n);
}

void draw_matrix(FrameContext& f, const MatrixPanelModel& m, Viewport& vp, const Rect& canvas,
                 const char* id) {
  const auto& p = f.model.problem;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::SetCursorScreenPos(ImVec2(canvas.x, canvas.y));
  ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, canvas.w), std::max(1.0f, canvas.h)));
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered()) {
    if (io.MouseWheel != 0)
      zoom_at(vp, canvas, (m.rows + m.tile_rows - 1) / m.tile_rows * m.tile_rows,
              (m.cols + m.tile_cols - 1) / m.tile_cols * m.tile_cols, io.MousePos.x, io.MousePos.y,
              std::pow(1.2, io.MouseWheel));
    if (ImGui::IsMouseDoubleClicked(0)) vp.fitted = true;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(0, 1.0f))
    pan_by(vp, canvas, (m.rows + m.tile_rows - 1) / m.tile_rows * m.tile_rows,
           (m.cols + m.tile_cols - 1) / m.tile_cols * m.tile_cols, io.MouseDelta.x,
           io.MouseDelta.y);
  // Fit whole tiles: lanes a mask turns off past the edge stay on screen.
  const std::int64_t fit_rows = (m.rows + m.tile_rows - 1) / m.tile_rows * m.tile_rows;
  const std::int64_t fit_cols = (m.cols + m.tile_cols - 1) / m.tile_cols * m.tile_cols;
  const ViewXform x = view_xform(vp, canvas, fit_rows, fit_cols);
  const ImVec2 cmin(canvas.x, canvas.y), cmax(canvas.x + canvas.w, canvas.y + canvas.h);
  dl->PushClipRect(cmin, cmax, true);
  const Rgba opc = operand_color(m.operand);

  dl->AddRectFilled(to_screen(x, 0, 0), to_screen(x, double(m.rows), double(m.cols)),
                    palette::matrix_bg.packed());
  const auto rr = visible_range(x.oy, x.scale, cmin.y, cmax.y, m.rows);
  const auto cr = visible_range(x.ox, x.scale, cmin.x, cmax.x, m.cols);

  // Input tiles in L2 now (engine snapshot): teal, stronger the more of the tile is resident.
  if (f.frame && m.operand != sim::Operand::c) {
    const auto& snap = f.frame->snapshot;
    const bool is_b = m.operand == sim::Operand::b;
    const auto& tiles = is_b ? snap.b_tiles : snap.a_tiles;
    const std::int64_t trows = is_b ? snap.b_rows : snap.a_rows,
                       tcols = is_b ? snap.b_cols : snap.a_cols;
    const std::int64_t t0 = rr.first / m.tile_rows,
                       t1 = std::min(trows, (rr.last + m.tile_rows - 1) / m.tile_rows);
    const std::int64_t u0 = cr.first / m.tile_cols,
                       u1 = std::min(tcols, (cr.last + m.tile_cols - 1) / m.tile_cols);
    for (std::int64_t tr = t0; tr < t1; ++tr)
      for (std::int64_t tc = u0; tc < u1; ++tc) {
        const float frac = tiles[static_cast<std::size_t>(tr * tcols + tc)].resident_fraction;
        if (frac <= 0) continue;
        const double r1 = std::min<double>(double(m.rows), double(tr + 1) * m.tile_rows);
        const double c1 = std::min<double>(double(m.cols), double(tc + 1) * m.tile_cols);
        dl->AddRectFilled(
            to_screen(x, double(tr) * m.tile_rows, double(tc) * m.tile_cols), to_screen(x, r1, c1),
            palette::l2_hit.with_alpha(static_cast<std::uint8_t>(50 + 150 * std::min(1.f, frac)))
                .packed());
      }
  }

  // The output: tiles already stored (green), drawn per visible tile.
  if (m.operand == sim::Operand::c) {
    const std::int64_t t0 = rr.first / m.tile_rows, t1 = (rr.last + m.tile_rows - 1) / m.tile_rows;
    const std::int64_t u0 = cr.first / m.tile_cols, u1 = (cr.last + m.tile_cols - 1) / m.tile_cols;
    for (std::int64_t tr = t0; tr < t1; ++tr)
      for (std::int64_t tc = u0; tc < u1; ++tc) {
        const GridCell* c = output_cell(p, f.grid, tr, tc);
        if (!c || !c->done || c->current) continue;
        const double r1 = std::min<double>(double(m.rows), double(tr + 1) * m.tile_rows);
        const double c1 = std::min<double>(double(m.cols), double(tc + 1) * m.tile_cols);
        dl->AddRectFilled(to_screen(x, double(tr) * m.tile_rows, double(tc) * m.tile_cols),
                          to_screen(x, r1, c1), opc.with_alpha(120).packed());
      }
  }

  const double text_w = ImGui::CalcTextSize("000000").x;
  const Detail detail = detail_for(x.scale, text_w);
  // Element cells when zoomed in, tile lines always (if they are at least 4 px apart).
  if (detail != Detail::tiles) {
    const ImU32 fine = Rgba{70, 76, 90}.packed();
    for (std::int64_t r = rr.first; r <= rr.last; ++r)
      dl->AddLine(to_screen(x, double(r), double(cr.first)),
                  to_screen(x, double(r), double(cr.last)), fine);
    for (std::int64_t c = cr.first; c <= cr.last; ++c)
      dl->AddLine(to_screen(x, double(rr.first), double(c)),
                  to_screen(x, double(rr.last), double(c)), fine);
  }
  const ImU32 tile_line = palette::grid_line.packed();
  if (m.tile_rows * x.scale >= 4)
    for (std::int64_t r = (rr.first / m.tile_rows) * m.tile_rows; r <= rr.last; r += m.tile_rows)
      dl->AddLine(to_screen(x, double(r), double(cr.first)),
                  to_screen(x, double(r), double(cr.last)), tile_line, 1.2f);
  if (m.tile_cols * x.scale >= 4)
    for (std::int64_t c = (cr.first / m.tile_cols) * m.tile_cols; c <= cr.last; c += m.tile_cols)
      dl->AddLine(to_screen(x, double(rr.first), double(c)),
                  to_screen(x, double(rr.last), double(c)), tile_line, 1.2f);

  // Everything this program touches on this matrix (A's row panel, B's column panel, its tile).
  if (m.program_region) {
    const auto& g = *m.program_region;
    dl->AddRectFilled(to_screen(x, g.r0, g.c0),
                      to_screen(x, std::min(g.r1, double(m.rows)), std::min(g.c1, double(m.cols))),
                      opc.with_alpha(45).packed());
    dl->AddRect(to_screen(x, g.r0, g.c0), to_screen(x, g.r1, g.c1), opc.with_alpha(200).packed(), 0,
                0, 1.5f);
    // Lanes past the matrix edge are the ones the mask turns off: hatched, as the legend says.
    const float spacing = std::max(5.0f, static_cast<float>(x.scale * 0.7));
    const double rows = double(m.rows), cols = double(m.cols);
    if (g.c1 > cols)
      draw_hatch(dl, to_screen(x, g.r0, std::max(g.c0, cols)), to_screen(x, g.r1, g.c1),
                 palette::mask_off, spacing);
    if (g.r1 > rows && g.c0 < cols)
      draw_hatch(dl, to_screen(x, std::max(g.r0, rows), g.c0),
                 to_screen(x, g.r1, std::min(g.c1, cols)), palette::mask_off, spacing);
  }
  // C's accumulator: the share of K summed so far (a dot in motion fills it as it runs).
  const Motion motion = current_motion(f);
  if (m.operand == sim::Operand::c && p.kernel() == sim::Kernel::matmul && m.program_region) {
    const auto& g = *m.program_region;
    const double acc = motion.kind == Motion::Kind::dot ? motion.acc : m.acc_fraction;
    const auto alpha = static_cast<std::uint8_t>(40 + 200 * acc);
    dl->AddRectFilled(to_screen(x, g.r0, g.c0),
                      to_screen(x, std::min(g.r1, double(m.rows)), std::min(g.c1, double(m.cols))),
                      opc.with_alpha(alpha).packed());
  }
  // The access at the cursor: the tile as issued (masked-off part hatched), its valid lanes.
  if (m.current) {
    const auto& t = m.current->tile;
    if (m.current->has_off_lanes)
      draw_hatch(dl, to_screen(x, t.r0, t.c0), to_screen(x, t.r1, t.c1), palette::mask_off,
                 std::max(5.0f, static_cast<float>(x.scale * 0.7)));
    // A load or store in motion arrives row by row: the share that has arrived is solid.
    const bool moving = motion.kind == Motion::Kind::load || motion.kind == Motion::Kind::store;
    const double arrived = moving ? motion.arrived : 1.0;
    for (const auto& on : m.current->on) {
      const double r_mid = on.r0 + (on.r1 - on.r0) * arrived;
      dl->AddRectFilled(to_screen(x, on.r0, on.c0), to_screen(x, r_mid, on.c1),
                        opc.with_alpha(215).packed());
      if (arrived < 1.0)
        dl->AddRectFilled(to_screen(x, r_mid, on.c0), to_screen(x, on.r1, on.c1),
                          opc.with_alpha(60).packed());
    }
    for (const auto& on : m.current->on) {
      // Never smaller than a few pixels: on an 8192 x 8192 matrix a tile is 3 px wide.
      ImVec2 a = to_screen(x, on.r0, on.c0), b = to_screen(x, on.r1, on.c1);
      const float grow_x = std::max(0.0f, 8.0f - (b.x - a.x)) / 2,
                  grow_y = std::max(0.0f, 8.0f - (b.y - a.y)) / 2;
      a = ImVec2(a.x - grow_x, a.y - grow_y);
      b = ImVec2(b.x + grow_x, b.y + grow_y);
      dl->AddRect(a, b, palette::tile_state_color(current_access_state(f)).packed(), 0, 0, 3.0f);
    }
    if (m.current->has_off_lanes)
      dl->AddRect(to_screen(x, t.r0, t.c0), to_screen(x, t.r1, t.c1), palette::mask_off.packed(), 0,
                  0, 1.5f);
  }
  // Offsets written in each cell when there is room: row * stride_row + col * stride_col.
  if (detail == Detail::values && (rr.last - rr.first) * (cr.last - cr.first) < 4000) {
    for (std::int64_t r = rr.first; r < rr.last; ++r)
      for (std::int64_t c = cr.first; c < cr.last; ++c) {
        const std::string s = std::to_string(r * m.stride_row + c * m.stride_col);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        const ImVec2 a = to_screen(x, double(r) + 0.5, double(c) + 0.5);
        dl->AddText(ImVec2(a.x - ts.x / 2, a.y - ts.y / 2), palette::text.packed(), s.c_str());
      }
  }
  dl->AddRect(to_screen(x, 0, 0), to_screen(x, double(m.rows), double(m.cols)),
              Rgba{200, 205, 215}.packed(), 0, 0, 1.5f);
  // Tiles a lesson step points at (recorded as drawn only when on screen).
  if (const auto* h = lesson_highlight(f))
    for (const auto& t : h->tiles) {
      if (t.matrix != m.operand) continue;
      const ImVec2 a = to_screen(x, double(t.row) * m.tile_rows, double(t.col) * m.tile_cols);
      const ImVec2 b =
          to_screen(x, std::min<double>(double(m.rows), double(t.row + 1) * m.tile_rows),
                    std::min<double>(double(m.cols), double(t.col + 1) * m.tile_cols));
      if (b.x < cmin.x || a.x > cmax.x || b.y < cmin.y || a.y > cmax.y) continue;
      lesson_outline(dl, a, b);
      lesson_mark(f, tile_mark(t.matrix, t.row, t.col));
    }
  dl->PopClipRect();

  if (ImGui::IsItemHovered()) {
    const auto r = std::int64_t(std::floor(x.row_at(io.MousePos.y)));
    const auto c = std::int64_t(std::floor(x.col_at(io.MousePos.x)));
    if (r >= 0 && c >= 0 && r < m.rows && c < m.cols) {
      ImGui::BeginTooltip();
      ImGui::Text("%s[%lld, %lld]: offset %lld elements",
                  m.name.substr(0, m.name.find(' ')).c_str(), (long long)r, (long long)c,
                  (long long)(r * m.stride_row + c * m.stride_col));
      ImGui::Text("tile (%lld, %lld)", (long long)(r / m.tile_rows), (long long)(c / m.tile_cols));
      ImGui::TextDisabled("wheel: zoom, drag: pan, double-click: fit");
      ImGui::EndTooltip();
    }
  }
}

}  // namespace

void draw_matrices(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::matrices, "Matrices: the tiles this step loads and stores", r)) {
    const auto at = f.at;
    const auto models = make_matrix_models(f.model.problem, at);
    draw_legend(f, true);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = 12;
    const float w = (avail.x - gap * (models.size() - 1)) / models.size();
    const float title_h = ImGui::GetTextLineHeightWithSpacing();
    for (std::size_t i = 0; i < models.size(); ++i) {
      const auto& m = models[i];
      const float x0 = pos.x + i * (w + gap);
      ImGui::SetCursorScreenPos(ImVec2(x0, pos.y));
      ImGui::PushFont(f.fonts.title);
      text_colored(operand_color(m.operand), m.name.c_str());
      ImGui::PopFont();
      if (w > ImGui::CalcTextSize("A (M x K) 8192 x 8192 acc 128/128").x) {
        ImGui::SameLine();
        ImGui::TextDisabled("%lld x %lld", (long long)m.rows, (long long)m.cols);
      }
      std::string caption;
      if (m.current) {
        caption = m.current_is_store ? "store" : "load";
        if (has_current_event(f.frame)) {
          const auto& l2 = f.frame->snapshot.current->l2;
          const std::int32_t all = l2.hit_sectors + l2.miss_sectors;
          if (all > 0 && !m.current_is_store)
            caption += l2.miss_sectors == 0 ? ": L2 hit"
                       : l2.hit_sectors == 0
                           ? ": L2 miss"
                           : ": " + std::to_string(100 * l2.hit_sectors / all) + "% hit";
        }
      } else if (m.operand == sim::Operand::c && f.model.problem.kernel() == sim::Kernel::matmul)
        caption = "acc " +
                  std::to_string(
                      static_cast<int>(std::lround(m.acc_fraction * f.model.problem.k_tiles()))) +
                  "/" + std::to_string(f.model.problem.k_tiles());
      const auto fits = [&] {
        return ImGui::GetItemRectMax().x - x0 + 12 + ImGui::CalcTextSize(caption.c_str()).x <= w;
      };
      if (!caption.empty() && !fits()) caption = caption.substr(0, caption.find(':'));
      if (!caption.empty() && !fits()) caption.clear();  // never cut: the outline says it
      if (!caption.empty()) {
        ImGui::SameLine();
        text_colored(
            m.current ? palette::tile_state_color(current_access_state(f)) : palette::text_dim,
            caption.c_str());
      }
      const Rect canvas{x0, pos.y + title_h, w, avail.y - title_h};
      const std::string id = "##matrix" + std::to_string(i);
      draw_matrix(f, m, f.ui.viewports[i], canvas, id.c_str());
    }
  }
  end_panel();
}

}  // namespace tilesim::app
