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

namespace {

// The file's evaluated access in place of sim's: its offsets and mask tiles (transposed where
// the tile's first axis walks the tensor's columns), its line and argument texts. Leaves `v`
// as sim built it where the record does not line up with sim's access.
void use_file_record(BroadcastView& v, const KernelFileState& kf,
                     const scenario::KernelFileStep& st, std::int64_t pid, std::int64_t k) {
  if (!st.record) return;
  const triton::Record& r = *st.record;
  if (r.kind != triton::RecordKind::load && r.kind != triton::RecordKind::store) return;
  const triton::Tile& off = r.access.offsets;
  if (!off.known || off.shape.size() != 2) return;
  const int rows = v.access.rows(), cols = v.access.cols();
  bool swapped = false;
  if (off.shape[0] == rows && off.shape[1] == cols)
    swapped = false;
  else if (off.shape[0] == cols && off.shape[1] == rows)
    swapped = true;
  else
    return;
  const auto lane = [&](int i, int j) -> std::int64_t {
    return swapped ? std::int64_t(j) * rows + i : std::int64_t(i) * cols + j;
  };
  const triton::Tile* mask = r.access.has_mask && r.access.mask.known ? &r.access.mask : nullptr;
  v.file_offsets.resize(std::size_t(rows) * cols);
  v.file_mask.assign(std::size_t(rows) * cols, 1);
  v.lanes_on = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::int64_t l = lane(i, j);
      v.file_offsets[std::size_t(i) * cols + j] = off.at(l);
      if (mask && mask->lanes() == off.lanes())
        v.file_mask[std::size_t(i) * cols + j] = mask->at(l) != 0;
      v.lanes_on += v.file_mask[std::size_t(i) * cols + j];
    }
  v.from_file = true;
  v.lanes = std::int64_t(rows) * cols;
  const auto& lines = kf.lines();
  v.file_line = kf.path.filename().string() + ":" + std::to_string(r.pos.line);
  const std::string text = scenario::source_line(lines, r.pos.line);
  v.step_label =
      "pid " + std::to_string(pid) + (k >= 0 ? ", k = " + std::to_string(k) : "") + ":  " + text;
  // The pointer argument as written, less the tensor's base: the element offsets.
  std::string ptr = scenario::call_argument(lines, r.pos.line, r.pos.col, 0);
  const std::string base = r.access.tensor_name.empty() ? "base" : r.access.tensor_name;
  v.sum_header = (ptr.empty() ? "pointers" : ptr) + " - " + base;
  // The index vectors' own names where the pointers' expression spells them out.
  const sim::AccessSource src = kf.access_source(st);
  if (!src.row_index.empty() && !src.col_index.empty()) {
    // x[:, None] walks the tile's first axis: the access's rows unless the tile is swapped.
    v.access.row_expr = swapped ? src.col_index : src.row_index;
    v.access.col_expr = swapped ? src.row_index : src.col_index;
    const std::string& rs = swapped ? src.col_stride : src.row_stride;
    const std::string& cs = swapped ? src.row_stride : src.col_stride;
    if (!rs.empty()) v.access.row_stride_name = rs;
    if (!cs.empty()) v.access.col_stride_name = cs;
    v.sum_header += " = " + v.access.row_expr + "[:, None] * " + v.access.row_stride_name +
                    " + " + v.access.col_expr + "[None, :] * " + v.access.col_stride_name;
  }
  if (r.access.has_mask) {
    const std::string m = scenario::call_argument(lines, r.pos.line, r.pos.col,
                                                  r.kind == triton::RecordKind::store ? 2 : 1,
                                                  "mask");
    const int ml = src.mask_line;
    v.mask_header = ml > 0 && ml != r.pos.line ? scenario::source_line(lines, ml)
                    : m.empty()                ? "mask"
                                               : "mask=" + m;
  } else {
    v.mask_header = "no mask (every lane on)";
  }
}

}  // namespace

BroadcastView make_broadcast_view(const sim::Problem& p, CursorPos at, int max_rows, int max_cols,
                                  const KernelFileState* kernel, bool playing) {
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
  // The plan's own text: the built-in listing, or the kernel file the problem was read from.
  const std::vector<std::string>& lines = p.plan().lines;
  const auto line_at = [&](int n) {
    return n > 0 && n <= static_cast<int>(lines.size()) ? lines[n - 1] : std::string{};
  };
  std::string line = line_at(s.line);
  line.erase(0, line.find_first_not_of(' '));
  if (const auto hash = line.find("  #"); hash != std::string::npos) line.resize(hash);
  v.step_label = "pid " + std::to_string(at.pid) +
                 (s.k >= 0 ? ", k = " + std::to_string(s.k) : std::string{}) + ":  " + line;
  v.sum_header = v.access.row_expr + "[:, None] * " + v.access.row_stride_name + " + " +
                 v.access.col_expr + "[None, :] * " + v.access.col_stride_name;
  v.mask_header = "no mask (indices wrap with %)";
  if (s.mask_line > 0) {
    std::string ml = line_at(s.mask_line);
    ml.erase(0, ml.find_first_not_of(' '));
    v.mask_header = ml.substr(0, ml.find(" ="));
  }
  if (s.ptr_line > 0) {
    std::string pl = line_at(s.ptr_line);
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
  if (kernel) {
    bool exact = true;
    const auto& steps = kernel->steps_while(p.spec(), at.pid, playing, &exact);
    if (!exact)
      v.file_deferred = true;
    else if (step >= 0 && step < static_cast<std::int64_t>(steps.size()))
      use_file_record(v, *kernel, steps[step], at.pid, s.k);
  }
  return v;
}

std::string cell_text(const BroadcastView& v, int i, int j, bool mask) {
  if (i < 0 || j < 0) return "\xE2\x80\xA6";  // U+2026 horizontal ellipsis
  if (mask) return v.valid(i, j) ? "T" : "F";
  return std::to_string(v.offset(i, j));
}

}  // namespace tilesim::app
