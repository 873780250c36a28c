// From records to a sim::ProblemSpec, and the record-by-record check against sim's steps.
// Tensor orientation: sim's A, C, in and out are row-major (rows = the tile's first axis); B
// may be stored transposed (seed 003's coalesced variant), which the bridge recognises when the
// dot's K axis runs along the stored tensor's columns.
#include "triton/bridge.hpp"

#include <algorithm>

namespace tilesim::triton {
namespace {

using sim::Operand;

struct Roles {
  sim::Kernel kernel = sim::Kernel::matmul;
  int a = -1, b = -1, c = -1;  // tensor argument indices (copy/transpose: in = a, out = c)
  bool b_k_on_cols = false;    // B's K axis runs along the stored tensor's columns
  std::string input_precision;
};

[[noreturn]] void refuse(const Evaluator& ev, SourcePos pos, const std::string& m) {
  throw SourceError(ev.kernel().file, pos, m);
}

const TensorDesc& tensor(const Evaluator& ev, int i) {
  return std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(i)].value);
}

std::vector<const Record*> steps_of(const ProgramRun& run) {
  std::vector<const Record*> out;
  for (const auto& r : run.records)
    if (r.kind == RecordKind::load || r.kind == RecordKind::store || r.kind == RecordKind::dot)
      out.push_back(&r);
  return out;
}

Roles recognise_roles(const Evaluator& ev, const ProgramRun& run) {
  Roles r;
  const Record* store = nullptr;
  const Record* dot = nullptr;
  int loads = 0, trans = 0;
  for (const auto& rec : run.records) {
    if (rec.kind == RecordKind::store) {
      if (store) refuse(ev, rec.pos, "a second tl.store: sim's kernels store one output tile");
      store = &rec;
    }
    if (rec.kind == RecordKind::dot && !dot) dot = &rec;
    if (rec.kind == RecordKind::load) ++loads;
    if (rec.kind == RecordKind::trans) ++trans;
  }
  const SourcePos fn = ev.kernel().fn.pos;
  if (!store) refuse(ev, fn, "the program stores nothing: sim's kernels store one output tile");
  r.c = store->access.tensor;
  if (dot) {
    const auto& d = dot->dot;
    if (d.a_origin < 0 || d.b_origin < 0)
      refuse(ev, dot->pos, "tl.dot's operands are not tiles loaded from memory");
    const Record& la = run.records[static_cast<std::size_t>(d.a_origin)];
    const Record& lb = run.records[static_cast<std::size_t>(d.b_origin)];
    r.a = la.access.tensor;
    r.b = lb.access.tensor;
    r.input_precision = d.input_precision;
    std::string why;
    const auto sa = recognize_span(la.access, tensor(ev, r.a), &why);
    if (!sa) refuse(ev, la.pos, "this load is not a tile sim can model: " + why);
    const auto sb = recognize_span(lb.access, tensor(ev, r.b), &why);
    if (!sb) refuse(ev, lb.pos, "this load is not a tile sim can model: " + why);
    if (sa->swapped != d.a_transposed)
      refuse(ev, la.pos,
             "A is read transposed: sim models a row-major A (only B may be "
             "stored transposed)");
    // The dot's K axis is the loaded tile's first axis unless the tile was transposed; that
    // axis walks the tensor's columns when the load itself was swapped.
    r.b_k_on_cols = sb->swapped != d.b_transposed;
    return r;
  }
  if (loads != 1)
    refuse(ev, store->pos, "without tl.dot, sim models copy and transpose: one load and one store");
  for (const auto& rec : run.records)
    if (rec.kind == RecordKind::load) r.a = rec.access.tensor;
  r.kernel = trans > 0 ? sim::Kernel::transpose : sim::Kernel::copy;
  // A copy stores the loaded tile itself; a transpose, its transpose. Anything computed from
  // it (tl.exp, tl.sum, ...) has memory traffic sim could replay but work it does not model.
  const AccessRecord& st = store->access;
  if (st.value_origin < 0 ||
      run.records[static_cast<std::size_t>(st.value_origin)].kind != RecordKind::load)
    refuse(ev, store->pos,
           "the stored tile is computed from the loaded one: sim models copy, transpose and "
           "matmul only");
  if (st.value_transposed != (r.kernel == sim::Kernel::transpose))
    refuse(ev, store->pos, "the stored tile is the loaded one transposed an even number of times");
  return r;
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

// The span in sim's coordinates of `op` (B transposed back to (K, N) where it is stored N x K).
std::optional<sim::TileSpan> sim_span(const AccessRecord& a, const TensorDesc& t, Operand op,
                                      bool swap_axes, std::string* why) {
  auto ts = recognize_span(a, t, why);
  if (!ts) return std::nullopt;
  sim::TileSpan s = ts->span;
  if (swap_axes) {
    std::swap(s.row0, s.col0);
    std::swap(s.rows, s.cols);
    std::swap(s.row_extent, s.col_extent);
    std::swap(s.wrap_rows, s.wrap_cols);
  }
  s.operand = op;
  return s;
}

// Same elements, same lanes on: an axis that never crosses its extent reads the same whether
// sim calls it wrapped or masked.
bool same_span(const sim::TileSpan& x, const sim::TileSpan& y) {
  const auto axis_same = [](bool wx, bool wy, std::int64_t start, int n, std::int64_t extent) {
    return wx == wy || start + n <= extent;
  };
  return x.operand == y.operand && x.row0 == y.row0 && x.col0 == y.col0 && x.rows == y.rows &&
         x.cols == y.cols && x.row_extent == y.row_extent && x.col_extent == y.col_extent &&
         axis_same(x.wrap_rows, y.wrap_rows, x.row0, x.rows, x.row_extent) &&
         axis_same(x.wrap_cols, y.wrap_cols, x.col0, x.cols, x.col_extent);
}

std::string span_text(const sim::TileSpan& s) {
  const auto axis = [](std::int64_t a, int n, bool wrap) {
    return std::to_string(a) + ".." + std::to_string(a + n - 1) + (wrap ? " (wrapped)" : "");
  };
  return "rows " + axis(s.row0, s.rows, s.wrap_rows) + ", cols " +
         axis(s.col0, s.cols, s.wrap_cols);
}

struct Layout {
  Operand op;
  bool swap;
};

// What the check keeps of one evaluated program: each load, dot and store with its span in
// sim's coordinates (dots: none), and the output tile it computes.
struct CheckedStep {
  RecordKind kind;
  SourcePos pos;
  sim::TileSpan span;
};
struct CheckedProgram {
  std::int64_t pid = 0;
  sim::TileCoord seen;
  std::vector<CheckedStep> steps;
};

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
  const ProgramRun run = ev.run(pid);
  for (const auto& r : run.records) {
    const bool take = spec.kernel == sim::Kernel::matmul ? r.kind == RecordKind::store
                                                         : r.kind == RecordKind::load;
    if (!take) continue;
    std::string why;
    const auto s = recognize_span(r.access, tensor(ev, r.access.tensor), &why);
    if (!s) refuse(ev, r.pos, "this access is not a tile sim can model: " + why);
    return {s->span.row0 / spec.block_m, s->span.col0 / spec.block_n};
  }
  refuse(ev, ev.kernel().fn.pos, "program " + std::to_string(pid) + " stores no tile");
}

Inference infer_problem(const Evaluator& ev, const InferOptions& opt) {
  Inference inf;
  const Launch& launch = ev.launch();
  const ProgramRun first = ev.run(0);
  const Roles roles = recognise_roles(ev, first);
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
  std::vector<std::pair<int, Layout>> layouts{{roles.a, {Operand::a, false}},
                                              {roles.c, {Operand::c, false}}};
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
    layouts.push_back({roles.b, {Operand::b, roles.b_k_on_cols}});
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
  const auto layout_of = [&](int tensor_index, SourcePos pos) {
    for (const auto& [i, l] : layouts)
      if (i == tensor_index) return l;
    refuse(ev, pos, "this access reads a tensor that is none of the kernel's operands");
  };

  // Blocks from program 0's first accesses.
  const auto steps0 = steps_of(first);
  bool boundary_wrap = false;
  std::int64_t lanes0 = 0;
  for (const Record* r : steps0) {
    if (r->kind == RecordKind::dot) continue;
    lanes0 += r->access.offsets.lanes();
  }
  for (const Record* r : steps0) {
    if (r->kind == RecordKind::dot) continue;
    const Layout l = layout_of(r->access.tensor, r->pos);
    std::string why;
    const auto span = sim_span(r->access, tensor(ev, r->access.tensor), l.op, l.swap, &why);
    if (!span) refuse(ev, r->pos, "pid 0: this access is not a tile sim can model: " + why);
    if (l.op == Operand::a && r->kind == RecordKind::load) {
      s.block_m = span->rows;
      if (matmul)
        s.block_k = span->cols;
      else
        s.block_n = span->cols;
    }
    if (l.op == Operand::b) s.block_n = span->cols;
  }
  if (!matmul) s.k = 1, s.block_k = 1;

  // Every checked program, kept as its steps' spans only (its tiles are dropped at once, so
  // memory stays one program's whatever the sample): wrap seen anywhere makes the boundary
  // sim's "wrap"; the tile each stored (matmul) or loaded (copy, transpose) names its pid's tile.
  inf.programs = launch.programs();
  const auto pids = pids_to_check(inf.programs, lanes0, opt.lane_budget);
  std::vector<CheckedProgram> runs;
  runs.reserve(pids.size());
  // Programs after the first are read access by access as the evaluator makes them, their lanes
  // dropped at once (EvalOptions::on_access): the check's memory and time stay those of spans.
  struct SeenSpan {
    bool operand = false;  // the access reads one of the kernel's operands
    std::optional<sim::TileSpan> span;
    std::string why;
  };
  std::vector<SeenSpan> seen;
  EvalOptions streamed;
  streamed.keep_access_tiles = false;
  streamed.on_access = [&](std::size_t index, const Record& r) {
    if (seen.size() <= index) seen.resize(index + 1);
    SeenSpan& x = seen[index];
    for (const auto& [i, l] : layouts)
      if (i == r.access.tensor) {
        x.operand = true;
        x.span = sim_span(r.access, tensor(ev, r.access.tensor), l.op, l.swap, &x.why);
      }
  };
  for (std::int64_t pid : pids) {
    seen.clear();
    const ProgramRun run = pid == 0 ? first : ev.run(pid, streamed);
    CheckedProgram c;
    c.pid = pid;
    for (const Record* r : steps_of(run)) {
      CheckedStep st{r->kind, r->pos, {}};
      if (r->kind != RecordKind::dot) {
        std::optional<sim::TileSpan> span;
        std::string why;
        const auto index = static_cast<std::size_t>(r - run.records.data());
        if (pid != 0 && index < seen.size() && seen[index].operand) {
          span = seen[index].span;
          why = seen[index].why;
        } else {
          const Layout l = layout_of(r->access.tensor, r->pos);
          span = sim_span(r->access, tensor(ev, r->access.tensor), l.op, l.swap, &why);
        }
        if (!span)
          refuse(
              ev, r->pos,
              "pid " + std::to_string(pid) + ": this access is not a tile sim can model: " + why);
        boundary_wrap = boundary_wrap || span->wrap_rows || span->wrap_cols;
        st.span = *span;
        if (matmul ? r->kind == RecordKind::store : r->kind == RecordKind::load)
          c.seen = {span->row0 / s.block_m, span->col0 / s.block_n};
      }
      c.steps.push_back(st);
    }
    runs.push_back(std::move(c));
  }
  s.boundary = boundary_wrap ? sim::Boundary::wrap : sim::Boundary::mask;
  s.order = sim::LaunchOrder::row_major;
  const sim::Problem probe(s);  // throws InvalidField naming the first field sim refuses
  if (probe.programs() != inf.programs)
    refuse(ev, {},
           "the grid launches " + std::to_string(inf.programs) + " programs but the " +
               "problem has " + std::to_string(probe.tiles_m()) + " x " +
               std::to_string(probe.tiles_n()) + " tiles");

  // The launch order: every order whose formula gives each checked pid its evaluated tile.
  std::vector<sim::LaunchOrder> matching;
  const sim::GridShape g = sim::grid_of(probe);
  for (auto order : {sim::LaunchOrder::row_major, sim::LaunchOrder::column_major,
                     sim::LaunchOrder::grouped, sim::LaunchOrder::grouped_legacy}) {
    const bool ok = std::all_of(runs.begin(), runs.end(), [&](const CheckedProgram& c) {
      return sim::tile_of(order, g, c.pid) == c.seen;
    });
    if (ok) matching.push_back(order);
  }
  if (matching.empty()) {
    const CheckedProgram& c = runs.size() > 1 ? runs[1] : runs[0];
    refuse(ev, ev.kernel().fn.pos,
           "custom launch order: the pid -> (pid_m, pid_n) mapping is none of sim's orders "
           "(row-major, column-major, grouped, grouped-legacy at GROUP_SIZE_M = " +
               std::to_string(s.group_size_m) + "); pid " + std::to_string(c.pid) +
               " computes tile (" + std::to_string(c.seen.pid_m) + ", " +
               std::to_string(c.seen.pid_n) + ")");
  }
  s.order = matching.front();
  inf.also_matching.assign(matching.begin() + 1, matching.end());
  if (launch.grid[1] > 1)
    inf.notes.push_back("a " + std::string(launch.grid[2] > 1 ? "3" : "2") +
                        "-d grid: programs launch with axis 0 fastest (pid = pid0 + grid0 * pid1)");

  // Step by step against what sim replays for this problem.
  const sim::Problem p(s);
  const std::int64_t steps = sim::steps_per_program(p);
  for (const CheckedProgram& c : runs) {
    std::size_t i = 0;
    const sim::TileCoord tile = sim::tile_of(p, c.pid);
    const std::string pid = "pid " + std::to_string(c.pid);
    for (std::int64_t step = 1; step < steps; ++step) {
      std::int64_t k = -1;
      const sim::StepOp op = sim::step_op(p, step, &k);
      if (op == sim::StepOp::transpose) continue;  // no memory: the trans record is enough
      if (i >= c.steps.size())
        refuse(ev, ev.kernel().fn.pos,
               pid + " ends after " + std::to_string(i) + " steps; sim's " +
                   std::string(sim::to_string(p.kernel())) + " has " + std::to_string(steps - 1));
      const CheckedStep& r = c.steps[i++];
      const bool is_dot = r.kind == RecordKind::dot, is_store = r.kind == RecordKind::store;
      if ((op == sim::StepOp::dot) != is_dot || (op == sim::StepOp::store) != is_store)
        refuse(ev, r.pos,
               pid + ": sim's step " + std::to_string(step) + " is " +
                   std::string(sim::to_string(op)) + " here");
      ++inf.records_checked;
      if (is_dot) continue;
      const sim::TileSpan want = sim::step_span(p, op, tile, k);
      if (!same_span(r.span, want))
        refuse(ev, r.pos,
               pid + ": this " + (is_store ? "store" : "load") + " touches " + span_text(r.span) +
                   "; sim's " + std::string(sim::to_string(op)) + " touches " + span_text(want));
    }
    if (i != c.steps.size())
      refuse(ev, c.steps[i].pos,
             pid + ": a step more than sim's " + std::string(sim::to_string(p.kernel())) + " has");
  }
  inf.programs_checked = static_cast<std::int64_t>(runs.size());
  return inf;
}

}  // namespace tilesim::triton
