// Matrix view model and zoom/pan maths (see matrix_view.hpp).
#include "app/core/matrix_view.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::app {
namespace {

// Pieces of [x0, x0+len) on an axis of length `extent`, wrapped (% extent) or clipped.
std::vector<std::pair<double, double>> axis_pieces(std::int64_t x0, int len, std::int64_t extent,
                                                   bool wrap) {
  std::vector<std::pair<double, double>> out;
  if (!wrap) {
    const auto hi = std::min<std::int64_t>(x0 + len, extent);
    if (hi > x0) out.push_back({double(x0), double(hi)});
    return out;
  }
  std::int64_t remaining = len, x = x0 % extent;
  while (remaining > 0) {
    const std::int64_t run = std::min(remaining, extent - x);
    out.push_back({double(x), double(x + run)});
    remaining -= run;
    x = 0;
    if (out.size() > 2) break;  // a tile longer than twice the matrix: the rest overlaps
  }
  return out;
}

std::string shape_name(const std::string& n, const char* r, const char* c) {
  return n + " (" + r + " x " + c + ")";
}

}  // namespace

SpanPieces span_pieces(const sim::TileSpan& s) {
  SpanPieces out;
  out.tile = {double(s.row0), double(s.col0), double(s.row0 + s.rows), double(s.col0 + s.cols)};
  for (auto [r0, r1] : axis_pieces(s.row0, s.rows, s.row_extent, s.wrap_rows))
    for (auto [c0, c1] : axis_pieces(s.col0, s.cols, s.col_extent, s.wrap_cols))
      out.on.push_back({r0, c0, r1, c1});
  out.has_off_lanes = s.lanes_on() < s.lanes();
  return out;
}

ElemRect output_tile_rect(const sim::Problem& p, std::int64_t pid) {
  const auto t = sim::tile_of(p, pid);
  const auto span = sim::step_span(p, sim::StepOp::store, t, -1);
  return span_pieces(span).tile;
}

std::vector<MatrixPanelModel> make_matrix_models(const sim::Problem& p, CursorPos at) {
  using sim::Operand;
  std::vector<MatrixPanelModel> out;
  const bool mm = p.kernel() == sim::Kernel::matmul;
  const bool tr = p.kernel() == sim::Kernel::transpose;
  const std::vector<Operand> ops = mm ? std::vector<Operand>{Operand::a, Operand::b, Operand::c}
                                      : std::vector<Operand>{Operand::a, Operand::c};
  const sim::Step step = sim::program_step(p, at.pid, at.step);
  const auto tile = sim::tile_of(p, at.pid);
  for (Operand op : ops) {
    MatrixPanelModel m;
    m.operand = op;
    const auto shape = p.shape(op);
    m.rows = shape.rows;
    m.cols = shape.cols;
    m.stride_row = shape.stride_row;
    m.stride_col = shape.stride_col;
    if (mm) {
      m.name = op == Operand::a   ? shape_name("A", "M", "K")
               : op == Operand::b ? shape_name("B", "K", "N")
                                  : shape_name("C", "M", "N");
      m.tile_rows = op == Operand::b ? p.block_k() : p.block_m();
      m.tile_cols = op == Operand::a ? p.block_k() : p.block_n();
    } else {
      m.name = op == Operand::a ? shape_name("in", "M", "N")
                                : (tr ? shape_name("out", "N", "M") : shape_name("out", "M", "N"));
      const bool flip = tr && op == Operand::c;
      m.tile_rows = flip ? p.block_n() : p.block_m();
      m.tile_cols = flip ? p.block_m() : p.block_n();
    }
    if (step.span && step.span->operand == op) {
      m.current = span_pieces(*step.span);
      m.current_is_store = step.op == sim::StepOp::store;
    }
    // The program's whole region: A's row panel, B's column panel, the output tile.
    if (mm && op != Operand::c) {
      const auto first = span_pieces(
          sim::step_span(p, op == Operand::a ? sim::StepOp::load_a : sim::StepOp::load_b, tile, 0));
      ElemRect r = first.tile;
      if (op == Operand::a)
        r.c1 = double(p.k_tiles()) * p.block_k();
      else
        r.r1 = double(p.k_tiles()) * p.block_k();
      m.program_region = r;
    } else {
      const auto sop =
          op == Operand::c ? sim::StepOp::store : (mm ? sim::StepOp::load_a : sim::StepOp::load);
      m.program_region = span_pieces(sim::step_span(p, sop, tile, 0)).tile;
    }
    if (mm && op == Operand::c) {
      const std::int64_t k_done = step.op == sim::StepOp::store ? p.k_tiles()
                                  : step.op == sim::StepOp::dot ? step.k + 1
                                                                : std::max<std::int64_t>(0, step.k);
      m.acc_fraction = double(k_done) / double(std::max<std::int64_t>(1, p.k_tiles()));
    }
    out.push_back(std::move(m));
  }
  return out;
}

ViewXform view_xform(const Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols) {
  ViewXform x;
  if (v.fitted) {
    const double margin = 0.04;  // leave room for hatched lanes past the edge
    const double s =
        std::min(canvas.w / (cols * (1 + 2 * margin)), canvas.h / (rows * (1 + 2 * margin)));
    x.scale = s;
    x.ox = canvas.x + (canvas.w - cols * s) / 2;
    x.oy = canvas.y + (canvas.h - rows * s) / 2;
    return x;
  }
  x.scale = v.zoom;
  x.ox = canvas.x + canvas.w / 2 - v.center_c * v.zoom;
  x.oy = canvas.y + canvas.h / 2 - v.center_r * v.zoom;
  return x;
}

namespace {
void unfit(Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols) {
  if (!v.fitted) return;
  const auto x = view_xform(v, canvas, rows, cols);
  v.fitted = false;
  v.zoom = x.scale;
  v.center_c = x.col_at(canvas.x + canvas.w / 2);
  v.center_r = x.row_at(canvas.y + canvas.h / 2);
}
}  // namespace

void zoom_at(Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols, double px,
             double py, double factor) {
  unfit(v, canvas, rows, cols);
  const auto before = view_xform(v, canvas, rows, cols);
  const double c = before.col_at(px), r = before.row_at(py);
  v.zoom = std::clamp(v.zoom * factor, 1e-4, 200.0);
  // Keep (r, c) under the mouse: centre moves by the change of the offset from the centre.
  v.center_c = c - (px - (canvas.x + canvas.w / 2)) / v.zoom;
  v.center_r = r - (py - (canvas.y + canvas.h / 2)) / v.zoom;
}

void pan_by(Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols, double dx,
            double dy) {
  unfit(v, canvas, rows, cols);
  v.center_c -= dx / v.zoom;
  v.center_r -= dy / v.zoom;
}

Detail detail_for(double ppe, double value_text_width) {
  if (ppe >= value_text_width + 6) return Detail::values;
  if (ppe >= 5) return Detail::cells;
  return Detail::tiles;
}

IndexRange visible_range(double origin, double scale, double lo, double hi, std::int64_t n) {
  IndexRange r;
  r.first =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((lo - origin) / scale)), 0, n);
  r.last =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil((hi - origin) / scale)), 0, n);
  return r;
}

}  // namespace tilesim::app
