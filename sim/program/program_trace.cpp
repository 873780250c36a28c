// Steps of one program, computed from (pid, step) alone so that any step of any program is cheap.
#include "sim/program/program_trace.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/base/enum_names.hpp"
#include "sim/program/listing.hpp"

namespace tilesim::sim {
namespace {

struct Anchors {
  const char* op = nullptr;
  const char* ptr = nullptr;
  const char* mask = nullptr;
};

// Listing prefixes for each step; they must stay in step with assets/kernels/*.py
// (tests/sim/listing_test.cpp checks every one resolves).
Anchors anchors_for(Kernel kernel, Boundary boundary, StepOp op) {
  const bool wrap = boundary == Boundary::wrap;
  switch (op) {
    case StepOp::map:
      return {"pid_n =", nullptr, nullptr};
    case StepOp::load_a:
      return {"a = tl.load(", "a_ptrs =", "a_mask ="};
    case StepOp::load_b:
      return {"b = tl.load(", "b_ptrs =", "b_mask ="};
    case StepOp::dot:
      return {"acc += tl.dot(", nullptr, nullptr};
    case StepOp::transpose:
      return {"tile_t = tl.trans(", nullptr, nullptr};
    case StepOp::load:
      if (wrap) return {"tile = tl.load(", "in_ptrs =", nullptr};
      return {"tile = tl.load(", "in_ptrs =", kernel == Kernel::copy ? "mask =" : "in_mask ="};
    case StepOp::store:
      if (kernel == Kernel::matmul) return {"tl.store(", "c_ptrs =", "c_mask ="};
      return {"tl.store(", "out_ptrs =", kernel == Kernel::copy && !wrap ? "mask =" : "out_mask ="};
  }
  return {};
}

}  // namespace

StepOp step_op(const Problem& p, std::int64_t step, std::int64_t* k) {
  *k = -1;
  if (step == 0) return StepOp::map;
  switch (p.kernel()) {
    case Kernel::copy:
      return step == 1 ? StepOp::load : StepOp::store;
    case Kernel::transpose:
      return step == 1 ? StepOp::load : step == 2 ? StepOp::transpose : StepOp::store;
    case Kernel::matmul: {
      if (step == 1 + 3 * p.k_tiles()) return StepOp::store;
      *k = (step - 1) / 3;
      const auto r = (step - 1) % 3;
      return r == 0 ? StepOp::load_a : r == 1 ? StepOp::load_b : StepOp::dot;
    }
  }
  return StepOp::map;
}

constexpr enum_names::Table<StepOp, 7> kStepOpNames{{{StepOp::map, "map"},
                                                     {StepOp::load_a, "load_a"},
                                                     {StepOp::load_b, "load_b"},
                                                     {StepOp::dot, "dot"},
                                                     {StepOp::load, "load"},
                                                     {StepOp::transpose, "transpose"},
                                                     {StepOp::store, "store"}}};

std::string_view to_string(StepOp op) {
  return enum_names::name_of(kStepOpNames, op);
}

std::int64_t TileSpan::rows_on() const {
  if (wrap_rows) return rows;
  return std::clamp<std::int64_t>(row_extent - row0, 0, rows);
}
std::int64_t TileSpan::cols_on() const {
  if (wrap_cols) return cols;
  return std::clamp<std::int64_t>(col_extent - col0, 0, cols);
}

std::int64_t steps_per_program(const Problem& p) {
  switch (p.kernel()) {
    case Kernel::copy:
      return 3;
    case Kernel::transpose:
      return 4;
    case Kernel::matmul:
      return 2 + 3 * p.k_tiles();
  }
  return 0;
}

TileSpan step_span(const Problem& p, StepOp op, TileCoord t, std::int64_t k) {
  const bool wrap = p.boundary() == Boundary::wrap;
  const std::int64_t M = p.m(), N = p.n(), K = p.k();
  const int BM = p.block_m(), BN = p.block_n(), BK = p.block_k();
  TileSpan s;
  switch (op) {
    case StepOp::load_a:
      s = {Operand::a, t.pid_m * BM, k * BK, BM, BK, M, K, wrap, false};
      break;
    case StepOp::load_b:
      s = {Operand::b, k * BK, t.pid_n * BN, BK, BN, K, N, false, wrap};
      break;
    case StepOp::load:
      s = {Operand::a, t.pid_m * BM, t.pid_n * BN, BM, BN, M, N, wrap, wrap};
      break;
    case StepOp::store:
      if (p.kernel() == Kernel::transpose)
        s = {Operand::c, t.pid_n * BN, t.pid_m * BM, BN, BM, N, M, false, false};
      else
        s = {Operand::c, t.pid_m * BM, t.pid_n * BN, BM, BN, M, N, false, false};
      break;
    default:
      throw std::invalid_argument("step_span: not a memory step");
  }
  return s;
}

TileCoord stored_tile_owner(const Problem& p, std::int64_t tile_row, std::int64_t tile_col) {
  if (p.kernel() == Kernel::transpose) return {tile_col, tile_row};
  return {tile_row, tile_col};
}

Step program_step(const Problem& p, std::int64_t pid, std::int64_t step) {
  if (pid < 0 || pid >= p.programs())
    throw std::out_of_range("pid = " + std::to_string(pid) + " is out of range: allowed 0.." +
                            std::to_string(p.programs() - 1));
  if (step < 0 || step >= steps_per_program(p))
    throw std::out_of_range("step = " + std::to_string(step) + " is out of range: allowed 0.." +
                            std::to_string(steps_per_program(p) - 1));
  Step s;
  s.op = step_op(p, step, &s.k);
  const Listing& listing = kernel_listing(p);
  const Anchors a = anchors_for(p.kernel(), p.boundary(), s.op);
  s.line = listing.find(a.op);
  if (a.ptr) s.ptr_line = listing.find(a.ptr);
  if (a.mask) s.mask_line = listing.find(a.mask);
  if (is_memory_op(s.op)) {
    s.span = step_span(p, s.op, tile_of(p, pid), s.k);
    s.bytes = s.span->lanes_on() * p.elem_bytes();
  }
  if (s.op == StepOp::dot)
    s.flops = 2.0 * p.block_m() * p.block_n() * static_cast<double>(p.block_k());
  return s;
}

std::vector<Step> program_trace(const Problem& p, std::int64_t pid) {
  std::vector<Step> out;
  const auto n = steps_per_program(p);
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out.push_back(program_step(p, pid, i));
  return out;
}

TileAccess tile_access(const Problem& p, StepOp op, TileCoord t, std::int64_t k) {
  TileAccess a;
  a.span = step_span(p, op, t, k);
  const bool wrap = p.boundary() == Boundary::wrap;
  const MatrixShape shape = p.shape(a.span.operand);
  a.stride_row = shape.stride_row;
  a.stride_col = shape.stride_col;
  struct Names {
    const char *matrix, *row, *col, *srow, *scol;
  };
  Names n{};
  switch (p.kernel()) {
    case Kernel::matmul:
      if (op == StepOp::load_a)
        n = {"A", wrap ? "offs_am" : "offs_m", "offs_k", "stride_am", "stride_ak"};
      else if (op == StepOp::load_b)
        n = {"B", "offs_k", wrap ? "offs_bn" : "offs_n", "stride_bk", "stride_bn"};
      else
        n = {"C", wrap ? "offs_cm" : "offs_m", wrap ? "offs_cn" : "offs_n", "stride_cm",
             "stride_cn"};
      break;
    case Kernel::copy:
      if (op == StepOp::load)
        n = {"in", wrap ? "rows" : "offs_m", wrap ? "cols" : "offs_n", "stride_row", "stride_col"};
      else
        n = {"out", "offs_m", "offs_n", "stride_row", "stride_col"};
      break;
    case Kernel::transpose:
      if (op == StepOp::load)
        n = {"in", wrap ? "rows" : "offs_m", wrap ? "cols" : "offs_n", "stride_ir", "stride_ic"};
      else
        n = {"out", "offs_n", "offs_m", "stride_or", "stride_oc"};
      break;
  }
  a.matrix_name = n.matrix;
  a.row_expr = n.row;
  a.col_expr = n.col;
  a.row_stride_name = n.srow;
  a.col_stride_name = n.scol;
  a.has_mask = !(a.span.wrap_rows && a.span.wrap_cols);
  for (int i = 0; i < a.span.rows; ++i) {
    a.row_index.push_back(a.span.row(i));
    a.row_valid.push_back(a.span.row_on(i) ? 1 : 0);
  }
  for (int j = 0; j < a.span.cols; ++j) {
    a.col_index.push_back(a.span.col(j));
    a.col_valid.push_back(a.span.col_on(j) ? 1 : 0);
  }
  return a;
}

StoreLanes store_lanes(const Problem& p, std::int64_t pid) {
  const auto span = step_span(p, StepOp::store, tile_of(p, pid), -1);
  return {span.lanes(), span.lanes_on()};
}

}  // namespace tilesim::sim
