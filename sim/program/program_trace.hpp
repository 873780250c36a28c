// Program trace: the ordered steps one program (pid) performs, each tied to its listing line,
// with the offset matrix broadcasting builds (offs_m[:, None] * stride_am + offs_k[None, :] *
// stride_ak) and the mask that turns boundary lanes off. Any step is computed on demand from the
// problem's ProgramPlan (program_plan.hpp), the same for every kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/launch_order.hpp"
#include "sim/program/problem.hpp"
#include "sim/program/program_plan.hpp"

namespace tilesim::sim {

// Which rectangle of which matrix one tl.load / tl.store touches, in compact form.
// Lane (i, j) touches element (row(i), col(j)); its mask is on iff row_on(i) && col_on(j).
struct TileSpan {
  Operand operand = Operand::a;
  std::int64_t row0 = 0, col0 = 0;              // unwrapped index of lane (0, 0)
  int rows = 0, cols = 0;                       // tile shape, e.g. (BLOCK_M, BLOCK_K)
  std::int64_t row_extent = 0, col_extent = 0;  // the matrix's rows and cols
  bool wrap_rows = false, wrap_cols = false;    // index % extent instead of a mask
  std::int64_t row(int i) const { return wrap_rows ? (row0 + i) % row_extent : row0 + i; }
  std::int64_t col(int j) const { return wrap_cols ? (col0 + j) % col_extent : col0 + j; }
  bool row_on(int i) const { return wrap_rows || row0 + i < row_extent; }
  bool col_on(int j) const { return wrap_cols || col0 + j < col_extent; }
  // Lanes whose mask is on: rows_on() * cols_on().
  std::int64_t rows_on() const;
  std::int64_t cols_on() const;
  std::int64_t lanes() const { return static_cast<std::int64_t>(rows) * cols; }
  std::int64_t lanes_on() const { return rows_on() * cols_on(); }
};

// A TileSpan expanded for display: the two broadcast vectors, their strides and names, and the
// offset matrix and mask they produce. Shapes: row_index (rows,), col_index (cols,).
struct TileAccess {
  TileSpan span;
  std::string matrix_name;                       // "A", "B", "C", "in", "out"
  std::string row_expr, col_expr;                // "offs_m", "offs_k"
  std::string row_stride_name, col_stride_name;  // "stride_am", "stride_ak"
  std::int64_t stride_row = 0, stride_col = 0;   // elements
  bool has_mask = true;  // false where the listing loads without a mask (wrap on both axes)
  std::vector<std::int64_t> row_index, col_index;  // as used in the offsets (after % when wrapped)
  std::vector<std::uint8_t> row_valid, col_valid;  // mask = row_valid[:, None] & col_valid[None, :]

  int rows() const { return span.rows; }
  int cols() const { return span.cols; }
  std::int64_t offset(int i, int j) const {
    return row_index[i] * stride_row + col_index[j] * stride_col;
  }
  bool valid(int i, int j) const { return row_valid[i] && col_valid[j]; }
};

struct Step {
  StepOp op = StepOp::map;
  int line = 0;                  // the listing line of the operation (1-based)
  int ptr_line = 0;              // the line building its pointers (0 if none)
  int mask_line = 0;             // the line building its mask (0 if none)
  std::int64_t k = -1;           // K-iteration (matmul load_a, load_b, dot), else -1
  std::optional<TileSpan> span;  // memory operations only
  std::int64_t bytes = 0;        // bytes the valid lanes move
  double flops = 0;              // dot: 2 * BLOCK_M * BLOCK_N * BLOCK_K (full tiles, as issued)
};

// The operation of step `step` (same for every program) and, for matmul, its K-iteration in *k
// (-1 otherwise); cheap enough for the replay's inner loop.
StepOp step_op(const Problem& p, std::int64_t step, std::int64_t* k);
// Number of steps every program has: 1 (the map) + head + k_tiles * body + tail of the plan
// (copy 3, transpose 4, matmul 2 + 3 * k_tiles for the built-in listings).
std::int64_t steps_per_program(const Problem& p);
// Step `step` of program `pid`; throws std::out_of_range outside [0, steps_per_program).
Step program_step(const Problem& p, std::int64_t pid, std::int64_t step);
std::vector<Step> program_trace(const Problem& p, std::int64_t pid);
// Where axis `a` of the problem runs for the program computing tile `t` at K-iteration `k` (a
// step outside the loop: k < 0, read as 0): its first index, its lanes (the block) and the
// matrix's extent along it. The one rule for a plan's rectangles, in the replay
// (step_span) and in reading a kernel's records into a plan (plan_from_records).
struct AxisRange {
  std::int64_t start = 0;
  int lanes = 0;
  std::int64_t extent = 0;
  bool operator==(const AxisRange&) const = default;
};
AxisRange axis_range(const ProblemSpec& s, Axis a, TileCoord t, std::int64_t k);

// The span a memory step touches, for a program computing `tile`, without building a Step.
TileSpan step_span(const Problem& p, StepOp op, TileCoord tile, std::int64_t k);
TileSpan step_span(const Problem& p, const PlanStep& step, TileCoord tile, std::int64_t k);
// The output tile (pid_m, pid_n) whose store writes tile (tile_row, tile_col) of C, counted in
// the store's (rows, cols) tiles: itself, but transpose writes (pid_n, pid_m) of its (N, M) out.
TileCoord stored_tile_owner(const Problem& p, std::int64_t tile_row, std::int64_t tile_col);
// Expand a memory step for display.
TileAccess tile_access(const Problem& p, StepOp op, TileCoord tile, std::int64_t k);

// Store lanes of one program: all lanes of the output tile, and those the mask keeps.
struct StoreLanes {
  std::int64_t lanes = 0, valid = 0;
};
StoreLanes store_lanes(const Problem& p, std::int64_t pid);

}  // namespace tilesim::sim
