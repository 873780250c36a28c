// From the front end's records to a ProgramPlan: which pointer argument is A, B, C (or in, out),
// what each evaluated program touched in sim's coordinates, the plan those programs follow, and
// the check that every evaluated program follows it. One path for the built-in listings
// (program_plan.cpp reads them at a probe launch) and a user's kernel file (triton/bridge.cpp).
// Every refusal is a triton::SourceError naming the file, line and column of what breaks it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/program/launch_order.hpp"
#include "sim/program/program_plan.hpp"
#include "sim/program/program_trace.hpp"
#include "triton/evaluator.hpp"

namespace tilesim::sim {

// What a kernel's pointer arguments are in sim's terms, read from one program's records: the
// store writes C (out); tl.dot's operands were loaded from A and B; without tl.dot, the one
// load reads in, and a tl.trans between load and store makes it a transpose.
struct KernelRoles {
  Kernel kernel = Kernel::matmul;
  int a = -1, b = -1, c = -1;   // indices into Launch::args (copy, transpose: in = a, out = c)
  bool b_k_on_cols = false;     // B's K axis runs along the stored tensor's columns
  std::string input_precision;  // tl.dot's, as written ("" when not given)
};
KernelRoles recognise_roles(const triton::Evaluator& ev, const triton::ProgramRun& run);

// One evaluated load, store, dot or trans (a trans only where the kernel has no tl.dot: there it
// is the transpose step) with its loop, and for loads and stores the rectangle in sim's
// coordinates of its operand (B as (K, N) however it is stored).
struct SeenStep {
  triton::RecordKind kind = triton::RecordKind::load;
  triton::SourcePos pos, loop;
  int loop_depth = 0;
  std::int64_t iteration = -1;
  bool has_mask = false;  // the access passed a mask (mask=None passes none)
  TileSpan span;
};
struct SeenProgram {
  std::int64_t pid = 0;
  std::vector<SeenStep> steps;
};
// Evaluates program `pid`, reading each access as it is made (its lanes dropped at once, so
// memory stays one access's), and throws SourceError at the first access sim cannot model.
SeenProgram see_program(const triton::Evaluator& ev, const KernelRoles& roles, std::int64_t pid);
// The output tile a seen program computes: where its store (matmul) or its load (copy,
// transpose) starts, over the blocks; SourceError where it has none.
TileCoord seen_tile(const triton::Evaluator& ev, const SeenProgram& s, Kernel kernel, int block_m,
                    int block_n);

// Where a tl.load or tl.store (the call at `pos`) built its arguments: the line that assigned the
// name passed as its pointers (or mask), or the call's own line where the expression is written
// in place; 0 where nothing is passed, and for the mask where `has_mask` is false (mask=None).
// The mask is the keyword or the positional argument after the pointers (a load) or the value
// (a store). And the names its pointers' expression broadcasts, base + x[:, None] * sx +
// y[None, :] * sy as written (in any order), rows first as written; empty where a term is
// written otherwise. The one rule for a plan's steps and the app's panels on a kernel file.
struct AccessSource {
  int ptr_line = 0, mask_line = 0;
  std::string row_index, row_stride, col_index, col_stride;
};
AccessSource access_source(const triton::Function& fn, triton::SourcePos pos, bool store,
                           bool has_mask);

// The line of the map step (pid -> (pid_m, pid_n)) in a program run with EvalOptions::scalars:
// the last line that assigned pid_n outside loops, else pid_m, else the function's first
// statement. The one rule for a file's plan and the app's code panel.
int map_line(const triton::Function& fn, const triton::ProgramRun& run_with_scalars);

// The plan the seen programs follow at `spec`'s problem, each program computing tiles[i]: every
// access's rows and columns as one of the problem's axes (the one that matches in every program;
// where several do at this launch, the operand's own: A (m, k), B (k, n), C (m, n)), its lines
// and the names the source gives them. Throws SourceError where no axis matches or the loops are
// not one loop over K.
ProgramPlan derive_plan(const triton::Evaluator& ev, const KernelRoles& roles,
                        const ProblemSpec& spec, const std::vector<SeenProgram>& programs,
                        const std::vector<TileCoord>& tiles);

// Checks each seen program step by step against what `p` (whose plan it is) replays for it;
// throws SourceError at the first difference. `lines`: each step must also be made at its plan
// step's line (one source site per step: a file's own plan). Returns the steps checked.
std::int64_t check_programs(const triton::Evaluator& ev, const Problem& p,
                            const std::vector<SeenProgram>& programs, bool lines = false);

}  // namespace tilesim::sim
