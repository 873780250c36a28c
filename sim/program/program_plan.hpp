// Program plan: the steps every program of a kernel performs, in order, written in the problem's
// symbols — what program_trace expands for any pid and K iteration. A plan is never written by
// hand: the front end reads it from a Triton file's own records (plan_from_records.hpp), the
// built-in listings of assets/kernels/ included, so one path serves the curriculum's kernels and
// a user's file.
// Teaches: a tiled kernel is a prologue, a loop over K and an epilogue; each load or store is a
// rectangle whose corner is (tile index) * (block size) on each axis.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::sim {

// map: pid -> (pid_m, pid_n). load_a/load_b/dot: one K-iteration of matmul. load/transpose:
// copy and transpose. store: the output tile.
enum class StepOp { map, load_a, load_b, dot, load, transpose, store };
std::string_view to_string(StepOp op);
inline bool is_memory_op(StepOp op) {
  return op == StepOp::load_a || op == StepOp::load_b || op == StepOp::load || op == StepOp::store;
}

// An axis of the problem that one axis of a tile walks: its lanes start at index * block and run
// for block lanes, inside 0..extent. m: pid_m, BLOCK_M, M. n: pid_n, BLOCK_N, N. k: the K loop's
// iteration, BLOCK_K, K.
enum class Axis : std::uint8_t { m, n, k };
std::string_view to_string(Axis a);

struct PlanAxis {
  Axis axis = Axis::m;
  bool wrap = false;        // the index is taken % extent (no lane is masked on this axis)
  std::string index_name;   // what the source broadcasts along it: "offs_m", "rows"
  std::string stride_name;  // the stride it is multiplied by: "stride_am"
  bool operator==(const PlanAxis&) const = default;
};

struct PlanStep {
  StepOp op = StepOp::map;
  int line = 0;       // the source line of the operation (1-based)
  int ptr_line = 0;   // the line building its pointers (0 if none)
  int mask_line = 0;  // the line building its mask (0 if none)
  // Memory steps: which matrix, and its rows and columns in sim's orientation of it (A (M, K),
  // B (K, N), C (M, N); copy and transpose read in = a and write out = c, transpose's out (N, M)).
  Operand operand = Operand::a;
  PlanAxis row, col;
  bool has_mask = false;    // the access passes a mask
  std::string matrix_name;  // "A", "B", "C", "in", "out": the pointer argument's name
  bool operator==(const PlanStep&) const = default;
};

struct ProgramPlan {
  std::string source;  // the listing ("matmul_mask.py + launch_orders/grouped.py") or file
  std::vector<std::string>
      lines;  // its text: line i + 1 is lines[i] (what every step's line names)
  Kernel kernel = Kernel::matmul;  // the class sim times it as
  int map_line = 0;                // the line assigning pid_n (else pid_m): the map step's
  // head once, body once per K iteration (k_tiles() times; empty without a K loop), tail once.
  std::vector<PlanStep> head, body, tail;
  bool operator==(const ProgramPlan&) const = default;
};

// Steps sim replays in the same order over the same rectangles as `built_in`'s: what the engine
// can time (lines and names may differ). nullopt when they do, else the first difference.
std::optional<std::string> same_steps(const ProgramPlan& plan, const ProgramPlan& built_in);

// The plan of the built-in listing kernel_listing(kernel, boundary, order), read from it by the
// front end at a small probe launch; computed once per process (thread-safe).
std::shared_ptr<const ProgramPlan> builtin_plan(Kernel kernel, Boundary boundary,
                                                LaunchOrder order);

}  // namespace tilesim::sim
