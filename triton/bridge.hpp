// The bridge to sim/: what a Triton kernel file is in the simulator's terms. Each tl.load /
// tl.store is recognised as sim's compact TileSpan (sim/program/span_recognition.hpp), the
// pid -> (pid_m, pid_n) mapping as one of sim's launch orders, the whole kernel as a
// sim::ProblemSpec, and its steps as the file's own ProgramPlan — checked record by record
// against the built-in kernel sim times and against that plan, so that sim::Problem(spec, plan)
// replays the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/program/launch_order.hpp"
#include "sim/program/plan_from_records.hpp"
#include "sim/program/problem.hpp"
#include "sim/program/program_trace.hpp"
#include "sim/program/span_recognition.hpp"
#include "triton/evaluator.hpp"

namespace tilesim::triton {

struct InferOptions {
  // Programs evaluated to check the mapping and the records: all up to this many lanes of
  // accesses in total, else a deterministic sample (the first, the last and evenly spaced pids).
  std::int64_t lane_budget = std::int64_t{1} << 25;
};

struct Inference {
  sim::ProblemSpec spec;
  // The steps the file's programs follow, with its own lines and names: run a file as
  // sim::Problem(spec, plan).
  std::shared_ptr<const sim::ProgramPlan> plan;
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
