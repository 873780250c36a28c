// Recognising an access as a rectangle: the offset tile must be a sum of a row vector and a
// column vector (what offs_m[:, None] * stride + offs_n[None, :] builds), each walking
// consecutive rows or columns of the tensor, straight or wrapped with % extent; and the mask
// must switch off exactly the lanes past the tensor's edge on the axes that are not wrapped.
#include "sim/program/span_recognition.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tilesim::sim {
namespace {

std::int64_t floordiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct AxisRun {
  std::int64_t start = 0;
  bool wrap = false;
};

// Consecutive indices x[0], x[0] + 1, ... straight or modulo `extent`.
std::optional<AxisRun> consecutive(const std::vector<std::int64_t>& x, std::int64_t extent) {
  bool straight = true, wrapped = x[0] >= 0 && x[0] < extent;
  for (std::size_t i = 0; i < x.size(); ++i) {
    straight = straight && x[i] == x[0] + static_cast<std::int64_t>(i);
    wrapped = wrapped && x[i] == (x[0] + static_cast<std::int64_t>(i)) % extent;
  }
  if (straight) return AxisRun{x[0], false};
  if (wrapped) return AxisRun{x[0], true};
  return std::nullopt;
}

}  // namespace

std::optional<TensorSpan> recognize_span(const triton::AccessRecord& a, const triton::TensorDesc& t,
                                         std::string* why) {
  const triton::Tile& o = a.offsets;
  const std::int64_t p = o.shape.size() == 2 ? o.shape[0] : 1;
  const std::int64_t q = o.shape.size() == 2 ? o.shape[1] : o.shape.size() == 1 ? o.shape[0] : 1;
  const auto off = [&](std::int64_t i, std::int64_t j) { return o.ints[i * q + j]; };
  if (!o.known) {
    *why = "its addresses depend on loaded data";
    return std::nullopt;
  }
  const std::int64_t base = off(0, 0);
  // Lane (i, j) - lane (i, 0) must be row 0's step d[j] in every row. Compared modulo 2^64
  // (unsigned: a loop the compiler vectorises), which is exact once row 0 and column 0 lie
  // within +-2^62: then lane (i, 0) + d[j] is an int64, the only one of its residue.
  constexpr std::int64_t kSafe = std::int64_t{1} << 62;
  const auto safe = [&](std::int64_t v) { return v > -kSafe && v < kSafe; };
  std::vector<std::uint64_t> d(static_cast<std::size_t>(q));
  bool in_range = true;
  for (std::int64_t j = 0; j < q; ++j) {
    in_range = in_range && safe(off(0, j));
    d[j] = static_cast<std::uint64_t>(off(0, j)) - static_cast<std::uint64_t>(base);
  }
  for (std::int64_t i = 0; i < p; ++i) in_range = in_range && safe(off(i, 0));
  for (std::int64_t i = 0; i < p && in_range; ++i) {
    const std::int64_t* row = o.ints.data() + i * q;
    const auto first = static_cast<std::uint64_t>(row[0]);
    std::uint64_t differ =
        0;  // any bit set: some lane is off the pattern (branch-free, vectorised)
    for (std::int64_t j = 0; j < q; ++j)
      differ |= (static_cast<std::uint64_t>(row[j]) - first) ^ d[j];
    if (differ == 0) continue;
    for (std::int64_t j = 0; j < q; ++j)
      if (static_cast<std::uint64_t>(row[j]) - first != d[j]) {
        *why = "its offsets are not a row vector plus a column vector (lane (" + std::to_string(i) +
               ", " + std::to_string(j) + "))";
        return std::nullopt;
      }
  }
  if (!in_range) {
    *why = "its offsets are beyond +-2^62 elements";
    return std::nullopt;
  }
  // The tensor's element (r, c) is at r * sr + c * sc; one of the strides must be 1 and the
  // other cover the contiguous axis, or offsets would not decompose uniquely.
  const std::int64_t sr = t.rows == 1 ? t.cols : t.stride_row;
  const std::int64_t sc = t.cols == 1 ? (t.rows == 1 ? 1 : t.rows) : t.stride_col;
  std::int64_t r0 = 0, c0 = 0;
  if (sc == 1 && sr >= t.cols) {
    r0 = floordiv(base, sr);
    c0 = base - r0 * sr;
  } else if (sr == 1 && sc >= t.rows) {
    c0 = floordiv(base, sc);
    r0 = base - c0 * sc;
  } else {
    *why = "the tensor's strides (" + std::to_string(t.stride_row) + ", " +
           std::to_string(t.stride_col) + ") are neither row- nor column-contiguous";
    return std::nullopt;
  }
  // Which tensor axis each tile axis walks, from its first step.
  enum Role { unknown, rows, cols };
  const auto role_of = [&](std::int64_t step) {
    if (step == sr && sr != sc) return rows;
    if (step == sc && sr != sc) return cols;
    return unknown;
  };
  Role r_ax0 = p > 1 ? role_of(off(1, 0) - base) : unknown;
  Role r_ax1 = q > 1 ? role_of(off(0, 1) - base) : unknown;
  if ((p > 1 && r_ax0 == unknown) || (q > 1 && r_ax1 == unknown) ||
      (r_ax0 != unknown && r_ax0 == r_ax1)) {
    *why = "its lanes do not walk consecutive rows and columns of " + a.tensor_name;
    return std::nullopt;
  }
  if (r_ax0 == unknown) r_ax0 = r_ax1 == rows ? cols : rows;
  if (r_ax1 == unknown) r_ax1 = r_ax0 == rows ? cols : rows;
  const bool swapped = r_ax0 == cols;
  const std::int64_t nr = swapped ? q : p, nc = swapped ? p : q;
  std::vector<std::int64_t> ri(static_cast<std::size_t>(nr)), ci(static_cast<std::size_t>(nc));
  for (std::int64_t i = 0; i < nr; ++i) {
    const std::int64_t d = (swapped ? off(0, i) : off(i, 0)) - base;
    if (d % sr != 0) {
      *why = "its row offsets are not whole rows of " + a.tensor_name;
      return std::nullopt;
    }
    ri[i] = r0 + d / sr;
  }
  for (std::int64_t j = 0; j < nc; ++j) {
    const std::int64_t d = (swapped ? off(j, 0) : off(0, j)) - base;
    if (d % sc != 0) {
      *why = "its column offsets are not whole columns of " + a.tensor_name;
      return std::nullopt;
    }
    ci[j] = c0 + d / sc;
  }
  const auto ra = consecutive(ri, t.rows), ca = consecutive(ci, t.cols);
  if (!ra || !ca) {
    *why = std::string("its ") + (!ra ? "rows" : "columns") +
           " are not consecutive (straight or wrapped with %)";
    return std::nullopt;
  }
  if (ra->start < 0 || ca->start < 0) {
    *why = "it starts before the first element of " + a.tensor_name;
    return std::nullopt;
  }
  TensorSpan out;
  out.swapped = swapped;
  TileSpan& s = out.span;
  s.row0 = ra->start;
  s.col0 = ca->start;
  s.rows = static_cast<int>(nr);
  s.cols = static_cast<int>(nc);
  s.row_extent = t.rows;
  s.col_extent = t.cols;
  s.wrap_rows = ra->wrap;
  s.wrap_cols = ca->wrap;
  if (!a.has_mask) {
    if (s.lanes_on() != s.lanes()) {
      *why = std::to_string(s.lanes() - s.lanes_on()) + " lanes " + "fall outside " +
             a.tensor_name + " and no mask turns them off";
      return std::nullopt;
    }
    return out;
  }
  if (!a.mask.known) {
    *why = "its mask depends on loaded data";
    return std::nullopt;
  }
  // The mask lane (i, j) must be on exactly where both of its axes are inside the tensor.
  std::vector<std::uint64_t> on0(static_cast<std::size_t>(p)), on1(static_cast<std::size_t>(q));
  for (std::int64_t i = 0; i < p; ++i)
    on0[i] = swapped ? s.col_on(static_cast<int>(i)) : s.row_on(static_cast<int>(i));
  for (std::int64_t j = 0; j < q; ++j)
    on1[j] = swapped ? s.row_on(static_cast<int>(j)) : s.col_on(static_cast<int>(j));
  for (std::int64_t i = 0; i < p; ++i) {
    const std::int64_t* row = a.mask.ints.data() + i * q;
    std::uint64_t differ = 0;
    const std::uint64_t row_on = on0[i];
    for (std::int64_t j = 0; j < q; ++j)
      differ |= static_cast<std::uint64_t>(row[j] != 0) ^ (row_on & on1[j]);
    if (differ == 0) continue;
    for (std::int64_t j = 0; j < q; ++j) {
      const bool expect = on0[i] && on1[j];
      if ((a.mask.ints[i * q + j] != 0) != expect) {
        *why = "its mask is not the tensor's boundary: lane (" + std::to_string(i) + ", " +
               std::to_string(j) + ") is " + (expect ? "off" : "on") +
               (expect ? " inside " : " outside ") + a.tensor_name;
        return std::nullopt;
      }
    }
  }
  return out;
}

}  // namespace tilesim::sim
