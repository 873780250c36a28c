// From records to a sim::ProblemSpec, and the record-by-record check against sim's steps.
// Tensor orientation: sim's A, C, in and out are row-major (rows = the tile's first axis); B
// may be stored transposed (seed 003's coalesced variant), which the bridge recognises when the
// dot's K axis runs along the stored tensor's columns.
#include "triton/bridge.hpp"

#include <algorithm>

namespace tilesim::triton {
namespace {

using sim::Operand;

[[noreturn]] void refuse(const Evaluator& ev, SourcePos pos, const std::string& m) {
  throw SourceError(ev.kernel().file, pos, m);
}

const TensorDesc& tensor(const Evaluator& ev, int i) {
  return std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(i)].value);
}

sim::DType dtype_of(const Evaluator& ev, Elem e, const std::string& name) {
  switch (e) {
    case Elem::f16:
      return sim::DType::fp16;
    case Elem::bf16:
      return sim::DType::bf16;
    case Elem::f32:
      return sim::DType::fp32;
    default:
      refuse(ev, {},
             name + " holds " + std::string(to_string(e)) +
                 ": sim models float16, bfloat16 and float32 matrices");
  }
}

// The pids checked: all of them within the lane budget, else the first, the last (where the
// grouped orders differ) and evenly spaced ones.
std::vector<std::int64_t> pids_to_check(std::int64_t programs, std::int64_t lanes_per_program,
                                        std::int64_t budget) {
  const std::int64_t n =
      std::clamp<std::int64_t>(budget / std::max<std::int64_t>(lanes_per_program, 1), 8, programs);
  std::vector<std::int64_t> out;
  if (n >= programs) {
    for (std::int64_t p = 0; p < programs; ++p) out.push_back(p);
    return out;
  }
  const std::int64_t edge = n / 3;
  for (std::int64_t p = 0; p < edge; ++p) out.push_back(p);
  for (std::int64_t p = programs - edge; p < programs; ++p) out.push_back(p);
  const std::int64_t mid = n - 2 * edge;
  for (std::int64_t i = 0; i < mid; ++i) out.push_back(edge + i * (programs - 2 * edge) / mid);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

sim::TileCoord evaluated_tile(const Evaluator& ev, const sim::ProblemSpec& spec, std::int64_t pid) {
  // sim's one rule for a program's tile (sim::seen_tile), on the program as sim reads it.
  const sim::KernelRoles roles = sim::recognise_roles(ev, ev.run(0));
  return sim::seen_tile(ev, sim::see_program(ev, roles, pid), spec.kernel, spec.block_m,
                        spec.block_n);
}

Inference infer_problem(const Evaluator& ev, const InferOptions& opt) {
  Inference inf;
  const Launch& launch = ev.launch();
  const ProgramRun first = ev.run(0);
  const sim::KernelRoles roles = sim::recognise_roles(ev, first);
  const bool matmul = roles.kernel == sim::Kernel::matmul;
  const TensorDesc& ta = tensor(ev, roles.a);
  const TensorDesc& tc = tensor(ev, roles.c);
  const std::string& a_name = launch.args[static_cast<std::size_t>(roles.a)].name;
  const std::string& c_name = launch.args[static_cast<std::size_t>(roles.c)].name;
  for (const auto* t : {&ta, &tc})
    if (t->stride_col != 1 || t->stride_row != t->cols)
      refuse(ev, {},
             (t == &ta ? a_name : c_name) +
                 " is not a row-major contiguous matrix: sim models those (and B^T)");
  sim::ProblemSpec& s = inf.spec;
  s.kernel = roles.kernel;
  s.dtype = dtype_of(ev, ta.elem, a_name);
  s.m = ta.rows;
  s.n = ta.cols;
  s.num_warps = launch.num_warps;
  s.stages = launch.num_stages;
  s.group_size_m = 1;
  if (const ArgValue* g = launch.find("GROUP_SIZE_M"))
    if (const auto* v = std::get_if<std::int64_t>(&g->value)) s.group_size_m = *v;
  if (matmul) {
    const TensorDesc& tb = tensor(ev, roles.b);
    const std::string& b_name = launch.args[static_cast<std::size_t>(roles.b)].name;
    const bool col_major = tb.stride_row == 1 && tb.rows > 1 && tb.stride_col == tb.rows;
    if (!col_major && (tb.stride_col != 1 || tb.stride_row != tb.cols))
      refuse(ev, {}, b_name + " is neither row- nor column-major contiguous");
    if (dtype_of(ev, tb.elem, b_name) != s.dtype)
      refuse(ev, {}, b_name + "'s dtype differs from " + a_name + "'s: sim models one dtype");
    // B's logical (K, N): the stored tensor itself, or its transpose where K runs along it
    // columns; stored transposed when exactly one of "K on the columns" and "column-major".
    s.b_layout =
        roles.b_k_on_cols != col_major ? sim::BLayout::transposed : sim::BLayout::row_major;
    s.k = ta.cols;
    s.n = roles.b_k_on_cols ? tb.rows : tb.cols;
    const std::int64_t b_k = roles.b_k_on_cols ? tb.cols : tb.rows;
    if (b_k != s.k)
      refuse(ev, {},
             b_name + " has K = " + std::to_string(b_k) + " but " + a_name +
                 " has K = " + std::to_string(s.k));
    if (tc.rows != s.m || tc.cols != s.n)
      refuse(ev, {},
             c_name + " is " + std::to_string(tc.rows) + "x" + std::to_string(tc.cols) +
                 ", not M x N = " + std::to_string(s.m) + "x" + std::to_string(s.n));
    if (tc.elem != ta.elem)
      refuse(ev, {}, c_name + "'s dtype differs from " + a_name + "'s: sim models one dtype");
    const std::string& ip = roles.input_precision;
    if (ip == "ieee")
      s.input_precision = sim::InputPrecision::ieee;
    else if (ip == "tf32" || ip == "tf32x3")
      s.input_precision = sim::InputPrecision::tf32;
    else if (ip.empty())  // Triton's own default for fp32 inputs is TF32
      s.input_precision =
          s.dtype == sim::DType::fp32 ? sim::InputPrecision::tf32 : sim::InputPrecision::ieee;
    else
      refuse(ev, {}, "input_precision \"" + ip + "\" is unknown: allowed ieee | tf32 | tf32x3");
    if (s.b_layout == sim::BLayout::transposed)
      inf.notes.push_back(b_name + " holds B transposed (N x K): seed 003's coalesced B");
  } else {
    const std::int64_t orows = roles.kernel == sim::Kernel::transpose ? ta.cols : ta.rows;
    const std::int64_t ocols = roles.kernel == sim::Kernel::transpose ? ta.rows : ta.cols;
    if (tc.rows != orows || tc.cols != ocols || tc.elem != ta.elem)
      refuse(ev, {},
             c_name + " is not the " + std::string(sim::to_string(roles.kernel)) + " of " + a_name +
                 " (shape or dtype)");
  }
  // Every checked program, kept as its steps' spans only (its tiles are dropped as the evaluator
  // makes them, so memory stays one access's whatever the sample). The blocks are program 0's.
  std::int64_t lanes0 = 0;
  for (const Record& r : first.records)
    if (r.kind == RecordKind::load || r.kind == RecordKind::store)
      lanes0 += r.access.offsets.lanes();
  inf.programs = launch.programs();
  const auto pids = pids_to_check(inf.programs, lanes0, opt.lane_budget);
  std::vector<sim::SeenProgram> seen;
  seen.reserve(pids.size());
  for (std::int64_t pid : pids) seen.push_back(sim::see_program(ev, roles, pid));
  for (const sim::SeenStep& st : seen.front().steps) {
    if (st.kind != RecordKind::load) continue;
    if (st.span.operand == Operand::a) {
      s.block_m = st.span.rows;
      if (matmul)
        s.block_k = st.span.cols;
      else
        s.block_n = st.span.cols;
    }
    if (st.span.operand == Operand::b) s.block_n = st.span.cols;
  }
  if (!matmul) s.k = 1, s.block_k = 1;
  // Wrap seen anywhere makes the boundary sim's "wrap".
  bool boundary_wrap = false;
  for (const auto& c : seen)
    for (const auto& st : c.steps)
      boundary_wrap = boundary_wrap || st.span.wrap_rows || st.span.wrap_cols;
  s.boundary = boundary_wrap ? sim::Boundary::wrap : sim::Boundary::mask;
  s.order = sim::LaunchOrder::row_major;
  const sim::Problem probe(s);  // throws InvalidField naming the first field sim refuses
  if (probe.programs() != inf.programs)
    refuse(ev, {},
           "the grid launches " + std::to_string(inf.programs) + " programs but the " +
               "problem has " + std::to_string(probe.tiles_m()) + " x " +
               std::to_string(probe.tiles_n()) + " tiles");

  // The launch order: every order whose formula gives each checked pid its evaluated tile (the
  // one its store, or for copy and transpose its load, starts at).
  std::vector<sim::TileCoord> tiles;
  for (const auto& c : seen) tiles.push_back(sim::seen_tile(ev, c, s.kernel, s.block_m, s.block_n));
  std::vector<sim::LaunchOrder> matching;
  const sim::GridShape g = sim::grid_of(probe);
  for (auto order : {sim::LaunchOrder::row_major, sim::LaunchOrder::column_major,
                     sim::LaunchOrder::grouped, sim::LaunchOrder::grouped_legacy}) {
    bool ok = true;
    for (std::size_t i = 0; i < seen.size() && ok; ++i)
      ok = sim::tile_of(order, g, seen[i].pid) == tiles[i];
    if (ok) matching.push_back(order);
  }
  if (matching.empty()) {
    const std::size_t i = seen.size() > 1 ? 1 : 0;
    refuse(ev, ev.kernel().fn.pos,
           "custom launch order: the pid -> (pid_m, pid_n) mapping is none of sim's orders "
           "(row-major, column-major, grouped, grouped-legacy at GROUP_SIZE_M = " +
               std::to_string(s.group_size_m) + "); pid " + std::to_string(seen[i].pid) +
               " computes tile (" + std::to_string(tiles[i].pid_m) + ", " +
               std::to_string(tiles[i].pid_n) + ")");
  }
  s.order = matching.front();
  inf.also_matching.assign(matching.begin() + 1, matching.end());
  if (launch.grid[1] > 1)
    inf.notes.push_back("a " + std::string(launch.grid[2] > 1 ? "3" : "2") +
                        "-d grid: programs launch with axis 0 fastest (pid = pid0 + grid0 * pid1)");

  // Step by step against the built-in kernel sim times for this problem (what sim can model),
  // then the file's own plan — its lines and names, the steps the engine replays — against the
  // same programs.
  const sim::Problem built_in(s);
  sim::check_programs(ev, built_in, seen);
  auto plan = std::make_shared<sim::ProgramPlan>(sim::derive_plan(ev, roles, s, seen, tiles));
  if (const auto differs = sim::same_steps(*plan, built_in.plan()))
    refuse(ev, ev.kernel().fn.pos, "the kernel's steps differ from sim's: " + *differs);
  inf.records_checked = sim::check_programs(ev, sim::Problem(s, plan), seen, /*lines=*/true);
  inf.plan = std::move(plan);
  inf.programs_checked = static_cast<std::int64_t>(seen.size());
  return inf;
}

}  // namespace tilesim::triton
