// What one program did, in the order it did it: every tl.load / tl.store with the offset tile
// and mask tile it used, every tl.dot with its operand shapes and dtypes, every transpose, and
// (on request) each scalar assignment — the evidence the bridge to sim/ reads.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "triton/source_error.hpp"
#include "triton/tile.hpp"

namespace tilesim::triton {

enum class RecordKind { load, store, dot, trans, scalar };

struct AccessRecord {
  int tensor = -1;  // index of the pointer argument in Launch::args
  std::string tensor_name;
  Tile offsets;  // element offsets, the access's shape
  bool has_mask = false;
  Tile mask;  // int1 lanes, broadcast to the offsets' shape (when has_mask)
  Elem elem = Elem::f16;
  // store: the load record whose data the stored tile is (-1 when it was computed), and whether
  // it was transposed since — what tells a copy or transpose from other elementwise kernels.
  int value_origin = -1;
  bool value_transposed = false;
};

struct DotRecord {
  Shape a, b;  // (M, K), (K, N)
  Elem a_elem = Elem::f16, b_elem = Elem::f16, out_elem = Elem::f32;
  int a_origin = -1, b_origin = -1;  // the load records the operands came from
  bool a_transposed = false, b_transposed = false;
  std::string input_precision;  // as written ("" when not given)
};

struct Record {
  RecordKind kind = RecordKind::load;
  SourcePos pos;
  // The innermost for loop the record was made in (its `for` statement) and that loop's
  // iteration, counted from 0; loop_depth 0 and iteration -1 outside every loop. What tells a
  // kernel's prologue, K loop and epilogue apart (sim/program/program_plan.hpp).
  SourcePos loop;
  int loop_depth = 0;
  std::int64_t iteration = -1;
  AccessRecord access;     // load, store
  DotRecord dot;           // dot
  std::string name;        // scalar: the variable
  std::int64_t value = 0;  // scalar: its value
};

struct ProgramRun {
  std::int64_t pid = 0;                // linear: pid0 + grid0 * (pid1 + grid1 * pid2)
  std::array<std::int64_t, 3> pids{};  // tl.program_id(0), (1), (2)
  std::vector<Record> records;
  std::int64_t loop_iterations = 0;
};

}  // namespace tilesim::triton
