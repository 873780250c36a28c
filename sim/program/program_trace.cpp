// Steps of one program, computed from (pid, step) and the problem's plan alone, so that any step
// of any program is cheap.
#include "sim/program/program_trace.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/base/enum_names.hpp"
#include "sim/program/launch_order.hpp"

namespace tilesim::sim {
namespace {

// The plan step behind step `step` (>= 1) of every program, and its K iteration in *k (-1 outside
// the loop); nullptr past the end.
const PlanStep* plan_step(const Problem& p, std::int64_t step, std::int64_t* k) {
  const ProgramPlan& plan = p.plan();
  *k = -1;
  auto i = static_cast<std::size_t>(step - 1);
  if (i < plan.head.size()) return &plan.head[i];
  i -= plan.head.size();
  if (!plan.body.empty()) {
    const auto in_loop = plan.body.size() * static_cast<std::size_t>(p.k_tiles());
    if (i < in_loop) {
      *k = static_cast<std::int64_t>(i / plan.body.size());
      return &plan.body[i % plan.body.size()];
    }
    i -= in_loop;
  }
  return i < plan.tail.size() ? &plan.tail[i] : nullptr;
}

// The plan's first step doing `op` (load, store: once per program; load_a, load_b: once per K
// iteration), or invalid_argument.
const PlanStep& plan_step_of(const Problem& p, StepOp op) {
  const ProgramPlan& plan = p.plan();
  for (const auto* part : {&plan.head, &plan.body, &plan.tail})
    for (const PlanStep& s : *part)
      if (s.op == op) return s;
  throw std::invalid_argument("step_span: " + std::string(to_string(op)) + " is no step of " +
                              plan.source);
}

}  // namespace

AxisRange axis_range(const ProblemSpec& s, Axis a, TileCoord t, std::int64_t k) {
  switch (a) {
    case Axis::m:
      return {t.pid_m * s.block_m, s.block_m, s.m};
    case Axis::n:
      return {t.pid_n * s.block_n, s.block_n, s.n};
    case Axis::k:
      return {std::max<std::int64_t>(k, 0) * s.block_k, s.block_k, s.k};
  }
  return {};
}

StepOp step_op(const Problem& p, std::int64_t step, std::int64_t* k) {
  *k = -1;
  if (step == 0) return StepOp::map;
  const PlanStep* s = plan_step(p, step, k);
  return s ? s->op : StepOp::map;
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
  const ProgramPlan& plan = p.plan();
  return 1 + static_cast<std::int64_t>(plan.head.size() + plan.tail.size()) +
         static_cast<std::int64_t>(plan.body.size()) * p.k_tiles();
}

TileSpan step_span(const Problem& p, const PlanStep& step, TileCoord t, std::int64_t k) {
  if (!is_memory_op(step.op)) throw std::invalid_argument("step_span: not a memory step");
  const AxisRange r = axis_range(p.spec(), step.row.axis, t, k),
                  c = axis_range(p.spec(), step.col.axis, t, k);
  TileSpan s;
  s.operand = step.operand;
  s.row0 = r.start;
  s.col0 = c.start;
  s.rows = r.lanes;
  s.cols = c.lanes;
  s.row_extent = r.extent;
  s.col_extent = c.extent;
  s.wrap_rows = step.row.wrap;
  s.wrap_cols = step.col.wrap;
  return s;
}

TileSpan step_span(const Problem& p, StepOp op, TileCoord t, std::int64_t k) {
  if (!is_memory_op(op)) throw std::invalid_argument("step_span: not a memory step");
  return step_span(p, plan_step_of(p, op), t, k);
}

TileCoord stored_tile_owner(const Problem& p, std::int64_t tile_row, std::int64_t tile_col) {
  // The store walks (pid_n, pid_m) where its rows are the problem's n axis (a transpose).
  if (plan_step_of(p, StepOp::store).row.axis == Axis::n) return {tile_col, tile_row};
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
  if (step == 0) {
    s.op = StepOp::map;
    s.line = p.plan().map_line;
    return s;
  }
  const PlanStep& ps = *plan_step(p, step, &s.k);
  s.op = ps.op;
  s.line = ps.line;
  s.ptr_line = ps.ptr_line;
  s.mask_line = ps.mask_line;
  if (is_memory_op(s.op)) {
    s.span = step_span(p, ps, tile_of(p, pid), s.k);
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
  const PlanStep& ps = plan_step_of(p, op);
  TileAccess a;
  a.span = step_span(p, ps, t, k);
  const MatrixShape shape = p.shape(a.span.operand);
  a.stride_row = shape.stride_row;
  a.stride_col = shape.stride_col;
  a.matrix_name = ps.matrix_name;
  a.row_expr = ps.row.index_name;
  a.col_expr = ps.col.index_name;
  a.row_stride_name = ps.row.stride_name;
  a.col_stride_name = ps.col.stride_name;
  a.has_mask = ps.has_mask;
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
