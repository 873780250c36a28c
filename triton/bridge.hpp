// The bridge to sim/: what a Triton kernel's records mean in the simulator's terms.
// Each tl.load / tl.store is recognised as sim's compact TileSpan (a rectangle of one matrix,
// each axis masked or wrapped with %), the pid -> (pid_m, pid_n) mapping as one of sim's launch
// orders, and the whole kernel as a sim::ProblemSpec — checked record by record against the
// steps sim's engine replays for that problem, so a run of the spec *is* a run of the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/program/launch_order.hpp"
#include "sim/program/problem.hpp"
#include "sim/program/program_trace.hpp"
#include "triton/evaluator.hpp"

namespace tilesim::triton {

// An access seen in the coordinates of the tensor it reads: lane (i, j) of the tile touches
// element (row0 + i, col0 + j) of the tensor (each % extent where wrapped), or (row0 + j,
// col0 + i) where `swapped` (the tile's first axis walks the tensor's columns).
struct TensorSpan {
  sim::TileSpan span;  // operand left as a; rows x cols in the tensor's orientation
  bool swapped = false;
};
// The rectangle an access touches, or nullopt with *why saying what breaks the pattern (lanes
// that are no rectangle, a mask that is not the boundary's, masked-in lanes outside the tensor).
std::optional<TensorSpan> recognize_span(const AccessRecord& a, const TensorDesc& t,
                                         std::string* why);

struct InferOptions {
  // Programs evaluated to check the mapping and the records: all up to this many lanes of
  // accesses in total, else a deterministic sample (the first, the last and evenly spaced pids).
  std::int64_t lane_budget = std::int64_t{1} << 25;
};

struct Inference {
  sim::ProblemSpec spec;
  std::vector<sim::LaunchOrder> also_matching;  // other orders with the same pid -> tile table
  std::int64_t programs = 0, programs_checked = 0;
  std::int64_t records_checked = 0;
  std::vector<std::string> notes;  // how operands and orders were recognised, for reports
};

// Evaluates the kernel over the grid (or a sample), recognises it and checks every evaluated
// record against sim's steps for the inferred problem. Throws SourceError at the first record
// or construct that sim cannot model, naming its line and column.
Inference infer_problem(const Evaluator& ev, const InferOptions& opt = {});

// The output tile (pid_m, pid_n) program `pid` computes, read from its records (its C store for
// matmul, its input load for copy and transpose) at the inferred problem's blocks.
sim::TileCoord evaluated_tile(const Evaluator& ev, const sim::ProblemSpec& spec, std::int64_t pid);

}  // namespace tilesim::triton
