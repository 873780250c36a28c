// View model of the matrix views (A, B, C; in/out for copy and transpose): which rectangles of
// each matrix the current step touches, which lanes its mask turns off, and the zoom/pan maths.
// Teaches where a tile's lanes land in memory and what falls outside at the boundary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/core/layout.hpp"
#include "app/core/playback.hpp"
#include "sim/program/program_trace.hpp"

namespace tilesim::app {

// [r0, r1) x [c0, c1) in element coordinates (may lie outside the matrix for masked lanes).
struct ElemRect {
  double r0 = 0, c0 = 0, r1 = 0, c1 = 0;
  bool operator==(const ElemRect&) const = default;
};

// A tl.load / tl.store drawn on its matrix: the tile as issued (unwrapped; lanes outside the
// matrix are masked off) and the pieces of the matrix its valid lanes touch (up to 4 when wrapped).
struct SpanPieces {
  ElemRect tile;
  std::vector<ElemRect> on;
  bool has_off_lanes = false;
};
SpanPieces span_pieces(const sim::TileSpan& s);

struct MatrixPanelModel {
  sim::Operand operand = sim::Operand::a;
  std::string name;  // "A (M x K)", "in (M x N)"
  std::int64_t rows = 0, cols = 0;
  std::int64_t stride_row = 0, stride_col = 0;
  int tile_rows = 1, tile_cols = 1;   // tile grid drawn on this matrix
  std::optional<SpanPieces> current;  // the access at the cursor, if on this matrix
  bool current_is_store = false;
  std::optional<ElemRect> program_region;  // everything this program reads/writes here
  double acc_fraction = 0;                 // C: share of K accumulated in the current tile
};

// The matrices the problem's kernel touches, in reading order (A, B, C or in, out).
std::vector<MatrixPanelModel> make_matrix_models(const sim::Problem& p, CursorPos at);
// The tile (in element coordinates) that program `pid` writes on the output matrix.
ElemRect output_tile_rect(const sim::Problem& p, std::int64_t pid);

// Zoom and pan of one matrix view. zoom = pixels per element; fitted = follow the canvas size.
struct Viewport {
  bool fitted = true;
  double zoom = 1, center_r = 0, center_c = 0;
};
// screen = origin + element * scale (x from columns, y from rows).
struct ViewXform {
  double ox = 0, oy = 0, scale = 1;
  double x(double col) const { return ox + col * scale; }
  double y(double row) const { return oy + row * scale; }
  double col_at(double px) const { return (px - ox) / scale; }
  double row_at(double py) const { return (py - oy) / scale; }
};
ViewXform view_xform(const Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols);
// Zoom by `factor` keeping the element under (px, py) fixed; pan by screen pixels.
void zoom_at(Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols, double px,
             double py, double factor);
void pan_by(Viewport& v, const Rect& canvas, std::int64_t rows, std::int64_t cols, double dx,
            double dy);

// Level of detail: tiles only, element cells, or cells with their offsets written in.
enum class Detail { tiles, cells, values };
Detail detail_for(double pixels_per_element, double value_text_width);

// The index range [first, last) of rows (or cols) visible in [lo, hi) pixels, clamped to n.
struct IndexRange {
  std::int64_t first = 0, last = 0;
};
IndexRange visible_range(double origin, double scale, double lo, double hi, std::int64_t n);

}  // namespace tilesim::app
