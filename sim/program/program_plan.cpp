// Built-in plans, read by the front end from the listings themselves (see program_plan.hpp).
#include "sim/program/program_plan.hpp"

#include <array>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "sim/base/enum_names.hpp"
#include "sim/program/launch_order.hpp"
#include "sim/program/listing.hpp"
#include "sim/program/plan_from_records.hpp"
#include "triton/parser.hpp"

namespace tilesim::sim {
namespace {

constexpr enum_names::Table<Axis, 3> kAxisNames{{{Axis::m, "m"}, {Axis::n, "n"}, {Axis::k, "k"}}};

// The probe: three tiles on every axis, the last one partial (so masks and % show), blocks that
// differ on every axis (so no axis can be taken for another) and tl.dot's minimum of 16.
ProblemSpec probe_spec(Kernel kernel, Boundary boundary, LaunchOrder order) {
  ProblemSpec s;
  s.kernel = kernel;
  s.boundary = boundary;
  s.order = order;
  s.m = 80;                                 // BLOCK_M 32: tiles of 32, 32, 16
  s.n = 144;                                // BLOCK_N 64: 64, 64, 16
  s.k = kernel == Kernel::matmul ? 40 : 1;  // BLOCK_K 16: 16, 16, 8
  s.block_m = 32;
  s.block_n = 64;
  s.block_k = kernel == Kernel::matmul ? 16 : 1;
  s.group_size_m = 2;
  return s;
}

// The launch of a built-in listing for problem `p`, by the listings' parameter names: the
// pointers (..._ptr) are the problem's matrices in order (A, B, C; in, out); the stride_...
// parameters come in (row, column) pairs, one pair per pointer in order, or one pair for all.
triton::Launch probe_launch(const triton::KernelSource& k, const Problem& p) {
  std::vector<Operand> operands{Operand::a, Operand::c};
  if (p.kernel() == Kernel::matmul) operands = {Operand::a, Operand::b, Operand::c};
  std::vector<std::string> strides;
  for (const auto& param : k.fn.params)
    if (param.name.starts_with("stride_")) strides.push_back(param.name);
  triton::Launch l;
  std::size_t pointer = 0;
  const auto fail = [&](const std::string& why) -> void {
    throw std::logic_error(k.file + ": " + why);
  };
  for (const auto& param : k.fn.params) {
    const std::string& n = param.name;
    if (n.ends_with("_ptr")) {
      if (pointer >= operands.size()) fail("more pointer parameters than matrices");
      const MatrixShape m = p.shape(operands[pointer++]);
      l.args.push_back(
          {n, triton::TensorDesc{m.rows, m.cols, m.stride_row, m.stride_col, triton::Elem::f16}});
    } else if (n.starts_with("stride_")) {
      std::size_t i = 0;
      while (strides[i] != n) ++i;
      const std::size_t pair = strides.size() == 2 ? 0 : i / 2;
      if (pair >= operands.size()) fail("more stride pairs than matrices");
      const MatrixShape m = p.shape(operands[pair]);
      l.args.push_back({n, i % 2 == 0 ? m.stride_row : m.stride_col});
    } else {
      const std::array<std::pair<const char*, std::int64_t>, 7> values{
          {{"M", p.m()},
           {"N", p.n()},
           {"K", p.k()},
           {"BLOCK_M", p.block_m()},
           {"BLOCK_N", p.block_n()},
           {"BLOCK_K", p.block_k()},
           {"GROUP_SIZE_M", p.group_size_m()}}};
      bool known = false;
      for (const auto& [name, v] : values)
        if (n == name) l.args.push_back({n, v}), known = true;
      if (!known) fail("parameter " + n + " is none of the problem's");
    }
  }
  l.grid = {p.programs(), 1, 1};
  return l;
}

std::shared_ptr<const ProgramPlan> read_builtin(Kernel kernel, Boundary boundary,
                                                LaunchOrder order) {
  const Listing& listing = kernel_listing(kernel, boundary, order);
  const triton::KernelSource src = triton::parse_kernel(listing.text(), listing.name);
  const ProblemSpec spec = probe_spec(kernel, boundary, order);
  // Shapes and the pid -> tile table come from the problem; its plan is what is being read (a
  // Problem built here without a plan would ask builtin_plan for this very key).
  auto reading = std::make_shared<ProgramPlan>();
  reading->kernel = kernel;
  const Problem shape_only(spec, reading);
  const triton::Evaluator ev(src, probe_launch(src, shape_only));
  const KernelRoles roles = recognise_roles(ev, ev.run(0));
  if (roles.kernel != kernel)
    throw std::logic_error(listing.name + " reads as a " + std::string(to_string(roles.kernel)));
  std::vector<SeenProgram> seen;
  std::vector<TileCoord> tiles;
  for (std::int64_t pid = 0; pid < shape_only.programs(); ++pid) {
    seen.push_back(see_program(ev, roles, pid));
    tiles.push_back(tile_of(shape_only, pid));
  }
  auto plan = std::make_shared<ProgramPlan>(derive_plan(ev, roles, spec, seen, tiles));
  plan->source = listing.name;
  plan->lines = listing.lines;  // the listing's own lines (the parsed text ends with a newline)
  check_programs(ev, Problem(spec, plan), seen, /*lines=*/true);
  return plan;
}

}  // namespace

std::string_view to_string(Axis a) {
  return enum_names::name_of(kAxisNames, a);
}

std::optional<std::string> same_steps(const ProgramPlan& plan, const ProgramPlan& built_in) {
  if (plan.kernel != built_in.kernel)
    return "it is a " + std::string(to_string(plan.kernel)) + ", not a " +
           std::string(to_string(built_in.kernel));
  const std::array<
      std::pair<const char*, std::pair<const std::vector<PlanStep>*, const std::vector<PlanStep>*>>,
      3>
      parts{{{"before the loop", {&plan.head, &built_in.head}},
             {"in the K loop", {&plan.body, &built_in.body}},
             {"after the loop", {&plan.tail, &built_in.tail}}}};
  for (const auto& [where, pair] : parts) {
    const auto& [mine, theirs] = pair;
    for (std::size_t i = 0; i < std::max(mine->size(), theirs->size()); ++i) {
      const std::string at = std::string(where) + ", step " + std::to_string(i + 1) + ": ";
      if (i >= mine->size())
        return at + "sim's " + std::string(to_string(built_in.kernel)) + " has a " +
               std::string(to_string((*theirs)[i].op)) + " more";
      if (i >= theirs->size())
        return at + "a " + std::string(to_string((*mine)[i].op)) + " more than sim's " +
               std::string(to_string(built_in.kernel)) + " has";
      const PlanStep &x = (*mine)[i], &y = (*theirs)[i];
      if (x.op != y.op)
        return at + std::string(to_string(x.op)) + " where sim's has " +
               std::string(to_string(y.op));
      if (!is_memory_op(x.op)) continue;
      // Wraps may differ: an axis reads the same wrapped or masked until it crosses its extent,
      // and each step's own wraps are replayed.
      if (x.operand != y.operand || x.row.axis != y.row.axis || x.col.axis != y.col.axis)
        return at + "its rectangle walks (" + std::string(to_string(x.row.axis)) + ", " +
               std::string(to_string(x.col.axis)) + ") where sim's walks (" +
               std::string(to_string(y.row.axis)) + ", " + std::string(to_string(y.col.axis)) + ")";
    }
  }
  return std::nullopt;
}

std::shared_ptr<const ProgramPlan> builtin_plan(Kernel kernel, Boundary boundary,
                                                LaunchOrder order) {
  // Read under the lock, once per key (about 2 ms). read_builtin never builds a Problem without
  // a plan (that would come back here for the same key).
  static std::mutex mu;
  static std::map<std::tuple<Kernel, Boundary, LaunchOrder>, std::shared_ptr<const ProgramPlan>>
      plans;
  std::lock_guard lock(mu);
  auto& plan = plans[{kernel, boundary, order}];
  if (!plan) plan = read_builtin(kernel, boundary, order);
  return plan;
}

}  // namespace tilesim::sim
