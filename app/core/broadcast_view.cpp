// Broadcast inspector view model: picks the lanes to show and names the expressions.
#include "app/core/broadcast_view.hpp"

#include <algorithm>

#include "sim/program/listing.hpp"

namespace tilesim::app {

std::vector<int> shown_lanes(int count, int max_shown, int tail) {
  std::vector<int> out;
  if (count <= max_shown) {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  tail = std::clamp(tail, 1, std::max(1, max_shown - 2));
  const int head = max_shown - tail - 1;  // one slot for the ellipsis
  for (int i = 0; i < head; ++i) out.push_back(i);
  out.push_back(-1);
  for (int i = count - tail; i < count; ++i) out.push_back(i);
  return out;
}

std::int64_t inspected_step(const sim::Problem& p, std::int64_t step) {
  const auto op = sim::program_step(p, 0, step).op;
  switch (op) {
    case sim::StepOp::map:
      return 1;
    case sim::StepOp::dot:
      return step - 1;
    case sim::StepOp::transpose:
      return step - 1;
    default:
      return step;
  }
}

BroadcastView make_broadcast_view(const sim::Problem& p, CursorPos at, int max_rows, int max_cols) {
  BroadcastView v;
  const std::int64_t step = inspected_step(p, at.step);
  const sim::Step s = sim::program_step(p, at.pid, step);
  if (!s.span) return v;
  v.available = true;
  v.op = s.op;
  const auto tile = sim::tile_of(p, at.pid);
  v.access = sim::tile_access(p, s.op, tile, s.k);
  v.rows = shown_lanes(v.access.rows(), max_rows);
  v.cols = shown_lanes(v.access.cols(), max_cols);
  v.row_header = v.access.row_expr + "[:, None]";
  v.col_header = v.access.col_expr + "[None, :]";
  const auto& listing = sim::kernel_listing(p);
  std::string line = s.line > 0 ? listing.lines[s.line - 1] : std::string{};
  line.erase(0, line.find_first_not_of(' '));
  if (const auto hash = line.find("  #"); hash != std::string::npos) line.resize(hash);
  v.step_label = "pid " + std::to_string(at.pid) +
                 (s.k >= 0 ? ", k = " + std::to_string(s.k) : std::string{}) + ":  " + line;
  v.sum_header = v.access.row_expr + "[:, None] * " + v.access.row_stride_name + " + " +
                 v.access.col_expr + "[None, :] * " + v.access.col_stride_name;
  v.mask_header = "no mask (indices wrap with %)";
  if (s.mask_line > 0) {
    std::string ml = listing.lines[s.mask_line - 1];
    ml.erase(0, ml.find_first_not_of(' '));
    v.mask_header = ml.substr(0, ml.find(" ="));
  }
  if (s.ptr_line > 0) {
    std::string pl = listing.lines[s.ptr_line - 1];
    pl.erase(0, pl.find_first_not_of(' '));
    const auto eq = pl.find(" = ");
    if (eq != std::string::npos) {
      const auto plus = pl.find(" + ", eq);
      v.sum_header = pl.substr(0, eq) + " - " + pl.substr(eq + 3, plus - eq - 3) + " = " +
                     v.access.row_expr + "[:, None] * " + v.access.row_stride_name + " + " +
                     v.access.col_expr + "[None, :] * " + v.access.col_stride_name;
    }
  }
  v.lanes = v.access.span.lanes();
  v.lanes_on = v.access.span.lanes_on();
  return v;
}

std::string cell_text(const BroadcastView& v, int i, int j, bool mask) {
  if (i < 0 || j < 0) return "\xE2\x80\xA6";  // U+2026 horizontal ellipsis
  if (mask) return v.access.valid(i, j) ? "T" : "F";
  return std::to_string(v.access.offset(i, j));
}

}  // namespace tilesim::app
