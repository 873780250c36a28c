// Records to plans (see plan_from_records.hpp). Tensor orientation: sim's A, C, in and out are
// row-major (rows = the tile's first axis); B may be stored transposed (seed 003's coalesced
// variant), recognised when the dot's K axis runs along the stored tensor's columns.
#include "sim/program/plan_from_records.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>

#include "sim/program/span_recognition.hpp"

namespace tilesim::sim {
namespace {

using triton::Evaluator;
using triton::Expr;
using triton::ExprKind;
using triton::Record;
using triton::RecordKind;
using triton::SourceError;
using triton::SourcePos;
using triton::Stmt;
using triton::StmtKind;
using triton::TensorDesc;

[[noreturn]] void refuse(const Evaluator& ev, SourcePos pos, const std::string& m) {
  throw SourceError(ev.kernel().file, pos, m);
}

const TensorDesc& tensor(const Evaluator& ev, int i) {
  return std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(i)].value);
}

// Where each operand's tensor sits: which of sim's matrices, and whether sim's rows are the
// stored tensor's columns (B stored N x K).
struct Layout {
  int tensor = -1;
  Operand op = Operand::a;
  bool swap = false;
};
std::vector<Layout> layouts_of(const KernelRoles& r) {
  std::vector<Layout> out{{r.a, Operand::a, false}, {r.c, Operand::c, false}};
  if (r.kernel == Kernel::matmul) out.push_back({r.b, Operand::b, r.b_k_on_cols});
  return out;
}

// The span in sim's coordinates of `op` (B transposed back to (K, N) where it is stored N x K).
std::optional<TileSpan> sim_span(const triton::AccessRecord& a, const TensorDesc& t, Operand op,
                                 bool swap_axes, std::string* why) {
  auto ts = recognize_span(a, t, why);
  if (!ts) return std::nullopt;
  TileSpan s = ts->span;
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
// it is called wrapped or masked.
bool same_span(const TileSpan& x, const TileSpan& y) {
  const auto axis_same = [](bool wx, bool wy, std::int64_t start, int n, std::int64_t extent) {
    return wx == wy || start + n <= extent;
  };
  return x.operand == y.operand && x.row0 == y.row0 && x.col0 == y.col0 && x.rows == y.rows &&
         x.cols == y.cols && x.row_extent == y.row_extent && x.col_extent == y.col_extent &&
         axis_same(x.wrap_rows, y.wrap_rows, x.row0, x.rows, x.row_extent) &&
         axis_same(x.wrap_cols, y.wrap_cols, x.col0, x.cols, x.col_extent);
}

std::string span_text(const TileSpan& s) {
  const auto axis = [](std::int64_t a, int n, bool wrap) {
    return std::to_string(a) + ".." + std::to_string(a + n - 1) + (wrap ? " (wrapped)" : "");
  };
  return "rows " + axis(s.row0, s.rows, s.wrap_rows) + ", cols " +
         axis(s.col0, s.cols, s.wrap_cols);
}

bool is_step(RecordKind kind, Kernel kernel) {
  return kind == RecordKind::load || kind == RecordKind::store || kind == RecordKind::dot ||
         (kind == RecordKind::trans && kernel != Kernel::matmul);
}

// ---- Reading names and lines from the function's syntax tree --------------------------------

void visit_exprs(const Expr& e, const std::function<void(const Expr&)>& f) {
  f(e);
  for (const auto& k : e.kids)
    if (k) visit_exprs(*k, f);
  for (const auto& [name, v] : e.kwargs)
    if (v) visit_exprs(*v, f);
}
void visit_stmts(const std::vector<triton::StmtPtr>& body,
                 const std::function<void(const Stmt&)>& f) {
  for (const auto& s : body) {
    f(*s);
    visit_stmts(s->body, f);
    visit_stmts(s->orelse, f);
  }
}

// The tl.load / tl.store call a record was made at: the call at its position, else the first
// load or store call on its line.
const Expr* access_call(const triton::Function& fn, SourcePos pos) {
  const Expr* exact = nullptr;
  const Expr* on_line = nullptr;
  visit_stmts(fn.body, [&](const Stmt& s) {
    const auto look = [&](const Expr& e) {
      if (e.kind != ExprKind::call || e.kids.empty() || !e.kids[0]) return;
      const Expr& callee = *e.kids[0];
      const std::string& name = callee.text;
      const bool access = (callee.kind == ExprKind::attribute || callee.kind == ExprKind::name) &&
                          (name == "load" || name == "store");
      if (!access) return;
      if (e.pos.line == pos.line && e.pos.col == pos.col && !exact) exact = &e;
      if (e.pos.line == pos.line && !on_line) on_line = &e;
    };
    for (const auto& t : s.targets)
      if (t) visit_exprs(*t, look);
    if (s.value) visit_exprs(*s.value, look);
    if (s.test) visit_exprs(*s.test, look);
  });
  return exact ? exact : on_line;
}

// The argument `index` (positional, 0-based) or keyword `keyword` of a call.
const Expr* call_arg(const Expr& call, std::size_t index, const std::string& keyword) {
  if (call.kids.size() > index + 1) return call.kids[index + 1].get();
  for (const auto& [name, v] : call.kwargs)
    if (name == keyword) return v.get();
  return nullptr;
}

// The last statement before line `before` assigning `name` (=, and += unless `plain_only`), with
// its value.
const Stmt* last_assignment(const triton::Function& fn, const std::string& name, int before,
                            bool plain_only = false) {
  const Stmt* found = nullptr;
  visit_stmts(fn.body, [&](const Stmt& s) {
    if (s.kind != StmtKind::assign && (plain_only || s.kind != StmtKind::aug_assign)) return;
    if (s.pos.line >= before) return;
    for (const auto& t : s.targets)
      if (t && t->kind == ExprKind::name && t->text == name &&
          (!found || s.pos.line >= found->pos.line))
        found = &s;
  });
  return found;
}

// The line building an access's pointers (or mask): where the name passed was assigned, or the
// access's own line where the expression is written in place; 0 where nothing is passed.
int building_line(const triton::Function& fn, const Expr* arg, int access_line) {
  if (!arg) return 0;
  if (arg->kind == ExprKind::name)
    if (const Stmt* s = last_assignment(fn, arg->text, access_line)) return s->pos.line;
  return access_line;
}

// The names an offsets expression broadcasts: base + x[:, None] * sx + y[None, :] * sy (in any
// order, either factor first). Empty names where a term is written otherwise.
struct Broadcast {
  std::string row_index, row_stride, col_index, col_stride;
};
std::string text_of(const Expr& e) {
  if (e.kind == ExprKind::name) return e.text;
  return {};
}
// x[:, None] -> (x, 0); x[None, :] -> (x, 1); else -1.
int broadcast_axis(const Expr& e, std::string* index) {
  if (e.kind != ExprKind::subscript || e.kids.size() < 2 || !e.kids[0] || !e.kids[1]) return -1;
  const Expr& ix = *e.kids[1];
  if (ix.kind != ExprKind::tuple || ix.kids.size() != 2 || !ix.kids[0] || !ix.kids[1]) return -1;
  const bool first_none = ix.kids[0]->kind == ExprKind::none;
  const bool second_none = ix.kids[1]->kind == ExprKind::none;
  if (first_none == second_none) return -1;
  *index = text_of(*e.kids[0]);
  return second_none ? 0 : 1;
}
void read_terms(const Expr& e, Broadcast* b) {
  if (e.kind == ExprKind::binary && e.text == "+" && e.kids.size() == 2) {
    read_terms(*e.kids[0], b);
    read_terms(*e.kids[1], b);
    return;
  }
  std::string index, stride;
  int axis = broadcast_axis(e, &index);
  if (axis < 0 && e.kind == ExprKind::binary && e.text == "*" && e.kids.size() == 2)
    for (int f = 0; f < 2 && axis < 0; ++f) {
      axis = broadcast_axis(*e.kids[f], &index);
      if (axis >= 0) stride = text_of(*e.kids[1 - f]);
    }
  if (axis == 0) b->row_index = index, b->row_stride = stride;
  if (axis == 1) b->col_index = index, b->col_stride = stride;
}
Broadcast broadcast_names(const triton::Function& fn, const Expr* ptr, int access_line) {
  Broadcast b;
  if (!ptr) return b;
  const Expr* e = ptr;
  // The pointers as built (ptrs = base + ...), not as last advanced (ptrs += BLOCK_K * s: a loop
  // that advances them at its top has that line just before the load).
  if (ptr->kind == ExprKind::name)
    if (const Stmt* s = last_assignment(fn, ptr->text, access_line, true); s && s->value)
      e = s->value.get();
  read_terms(*e, &b);
  return b;
}

}  // namespace

AccessSource access_source(const triton::Function& fn, SourcePos pos, bool store, bool has_mask) {
  AccessSource a;
  const Expr* call = access_call(fn, pos);
  if (!call) return a;
  const Expr* ptr = call_arg(*call, 0, "pointer");
  const Expr* mask = call_arg(*call, store ? 2 : 1, "mask");
  a.ptr_line = building_line(fn, ptr, pos.line);
  a.mask_line = has_mask ? building_line(fn, mask, pos.line) : 0;
  const Broadcast b = broadcast_names(fn, ptr, pos.line);
  a.row_index = b.row_index, a.row_stride = b.row_stride;
  a.col_index = b.col_index, a.col_stride = b.col_stride;
  return a;
}

namespace {

// "a_ptr" -> "A", "in_ptr" -> "in", "x" -> "X": the matrix as the curriculum names it.
std::string matrix_name(const std::string& arg) {
  std::string n = arg;
  if (n.size() > 4 && n.ends_with("_ptr")) n.resize(n.size() - 4);
  if (n.size() == 1) n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
  return n;
}

// ---- Axes --------------------------------------------------------------------------------------

// Does axis `a` of the problem give these facts for a program computing `t` at iteration `k`?
// (K only in a matmul, and only inside the loop.)
bool axis_fits(const ProblemSpec& s, Axis a, TileCoord t, std::int64_t k, const AxisRange& f) {
  if (a == Axis::k && (s.kernel != Kernel::matmul || k < 0)) return false;
  return axis_range(s, a, t, k) == f;
}

// The operand's own axes, preferred where several fit at this launch (they read the same).
std::array<Axis, 2> natural_axes(Operand op, Kernel kernel) {
  switch (op) {
    case Operand::a:
      return {Axis::m, kernel == Kernel::matmul ? Axis::k : Axis::n};
    case Operand::b:
      return {Axis::k, Axis::n};
    case Operand::c:
      return kernel == Kernel::transpose ? std::array{Axis::n, Axis::m}
                                         : std::array{Axis::m, Axis::n};
  }
  return {Axis::m, Axis::n};
}

// sim's matrices are distinct: a kernel reading and writing one tensor (in place), or reading
// one as both of tl.dot's operands, is no kernel sim models.
void refuse_aliases(const Evaluator& ev, const KernelRoles& r, SourcePos pos) {
  const auto name = [&](int i) { return ev.launch().args[static_cast<std::size_t>(i)].name; };
  const bool matmul = r.kernel == Kernel::matmul;
  const std::array<std::pair<int, const char*>, 3> roles{
      {{r.a, matmul ? "A" : "in"}, {matmul ? r.b : -1, "B"}, {r.c, matmul ? "C" : "out"}}};
  for (std::size_t i = 0; i < roles.size(); ++i)
    for (std::size_t j = i + 1; j < roles.size(); ++j)
      if (roles[i].first >= 0 && roles[i].first == roles[j].first)
        refuse(ev, pos,
               name(roles[i].first) + " is both " + roles[i].second + " and " + roles[j].second +
                   ": sim's kernels read and write distinct matrices");
}

}  // namespace

int map_line(const triton::Function& fn, const triton::ProgramRun& run) {
  for (const char* name : {"pid_n", "pid_m"}) {
    int line = 0;
    for (const Record& r : run.records)
      if (r.kind == RecordKind::scalar && r.name == name) line = r.pos.line;
    if (line) return line;
  }
  return fn.body.empty() ? 0 : fn.body.front()->pos.line;
}

KernelRoles recognise_roles(const Evaluator& ev, const triton::ProgramRun& run) {
  KernelRoles r;
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
    refuse_aliases(ev, r, dot->pos);
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
  r.kernel = trans > 0 ? Kernel::transpose : Kernel::copy;
  refuse_aliases(ev, r, store->pos);
  // A copy stores the loaded tile itself; a transpose, its transpose. Anything computed from
  // it (tl.exp, tl.sum, ...) has memory traffic sim could replay but work it does not model.
  const triton::AccessRecord& st = store->access;
  if (st.value_origin < 0 ||
      run.records[static_cast<std::size_t>(st.value_origin)].kind != RecordKind::load)
    refuse(ev, store->pos,
           "the stored tile is computed from the loaded one: sim models copy, transpose and "
           "matmul only");
  if (st.value_transposed != (r.kernel == Kernel::transpose))
    refuse(ev, store->pos, "the stored tile is the loaded one transposed an even number of times");
  return r;
}

SeenProgram see_program(const Evaluator& ev, const KernelRoles& roles, std::int64_t pid) {
  const std::vector<Layout> layouts = layouts_of(roles);
  struct Seen {
    std::optional<TileSpan> span;
    std::string why;
    bool operand = false;
  };
  std::vector<Seen> seen;
  triton::EvalOptions streamed;
  streamed.keep_access_tiles = false;
  streamed.on_access = [&](std::size_t index, const Record& r) {
    if (seen.size() <= index) seen.resize(index + 1);
    for (const Layout& l : layouts)
      if (l.tensor == r.access.tensor) {
        seen[index].operand = true;
        seen[index].span = sim_span(r.access, tensor(ev, l.tensor), l.op, l.swap, &seen[index].why);
      }
  };
  const triton::ProgramRun run = ev.run(pid, streamed);
  SeenProgram out;
  out.pid = pid;
  const std::string who = "pid " + std::to_string(pid) + ": ";
  for (std::size_t i = 0; i < run.records.size(); ++i) {
    const Record& r = run.records[i];
    if (!is_step(r.kind, roles.kernel)) continue;
    SeenStep st{r.kind, r.pos, r.loop, r.loop_depth, r.iteration, r.access.has_mask, {}};
    if (r.kind == RecordKind::load || r.kind == RecordKind::store) {
      if (i >= seen.size() || !seen[i].operand)
        refuse(ev, r.pos, who + "this access reads a tensor that is none of the kernel's operands");
      if (!seen[i].span)
        refuse(ev, r.pos, who + "this access is not a tile sim can model: " + seen[i].why);
      st.span = *seen[i].span;
    }
    out.steps.push_back(st);
  }
  return out;
}

TileCoord seen_tile(const Evaluator& ev, const SeenProgram& s, Kernel kernel, int block_m,
                    int block_n) {
  const RecordKind names = kernel == Kernel::matmul ? RecordKind::store : RecordKind::load;
  for (const SeenStep& st : s.steps)
    if (st.kind == names) return {st.span.row0 / block_m, st.span.col0 / block_n};
  refuse(ev, ev.kernel().fn.pos,
         "pid " + std::to_string(s.pid) + (kernel == Kernel::matmul ? " stores" : " loads") +
             " no tile: every program of sim's kernels does");
}

ProgramPlan derive_plan(const Evaluator& ev, const KernelRoles& roles, const ProblemSpec& spec,
                        const std::vector<SeenProgram>& programs,
                        const std::vector<TileCoord>& tiles) {
  const triton::KernelSource& src = ev.kernel();
  const triton::Function& fn = src.fn;
  ProgramPlan plan;
  plan.source = src.file;
  plan.lines = src.lines;
  plan.kernel = roles.kernel;
  if (programs.empty()) refuse(ev, fn.pos, "no program was evaluated");
  {
    // The first program again, for its scalar assignments only (its accesses' lanes dropped).
    triton::EvalOptions scalars;
    scalars.scalars = true;
    scalars.keep_access_tiles = false;
    scalars.on_access = [](std::size_t, const Record&) {};
    plan.map_line = map_line(fn, ev.run(programs.front().pid, scalars));
  }

  // The structure, from the first program: the steps before, in (iteration 0) and after the loop.
  const SeenProgram& first = programs.front();
  SourcePos loop_pos{};
  bool in_loop_seen = false, after_loop = false;
  struct Slot {
    const SeenStep* step;
    std::vector<PlanStep>* part;
  };
  std::vector<Slot> slots;
  // A matmul written without a loop (K within one block) runs its body once: the steps up to its
  // dot are the K loop's, at k = 0.
  const bool matmul = roles.kernel == Kernel::matmul;
  const bool no_loop = matmul && std::none_of(first.steps.begin(), first.steps.end(),
                                              [](const SeenStep& st) { return st.loop_depth > 0; });
  std::size_t last_dot = 0;
  for (std::size_t i = 0; i < first.steps.size(); ++i)
    if (first.steps[i].kind == RecordKind::dot) last_dot = i + 1;
  for (const SeenStep& st : first.steps) {
    if (no_loop) {
      const bool in_body = static_cast<std::size_t>(&st - first.steps.data()) < last_dot;
      slots.push_back({&st, in_body ? &plan.body : &plan.tail});
      continue;
    }
    if (st.loop_depth > 1)
      refuse(ev, st.pos, "this step is in a nested loop: sim models one loop, over K");
    if (st.loop_depth == 1) {
      if (after_loop ||
          (in_loop_seen && (st.loop.line != loop_pos.line || st.loop.col != loop_pos.col)))
        refuse(ev, st.pos, "a second loop with loads, stores or dots: sim models one, over K");
      if (!matmul)
        refuse(ev, st.pos, "a loop in a kernel without tl.dot: sim's copy and transpose have none");
      loop_pos = st.loop;
      in_loop_seen = true;
      if (st.iteration == 0) slots.push_back({&st, &plan.body});
      continue;
    }
    if (in_loop_seen) after_loop = true;
    slots.push_back({&st, in_loop_seen ? &plan.tail : &plan.head});
  }

  const std::vector<Layout> layouts = layouts_of(roles);
  for (const Slot& slot : slots) {
    const SeenStep& st = *slot.step;
    PlanStep ps;
    ps.line = st.pos.line;
    switch (st.kind) {
      case RecordKind::dot:
        ps.op = StepOp::dot;
        break;
      case RecordKind::trans:
        ps.op = StepOp::transpose;
        break;
      case RecordKind::store:
        ps.op = StepOp::store;
        break;
      default:
        ps.op = st.span.operand == Operand::b ? StepOp::load_b
                : matmul                      ? StepOp::load_a
                                              : StepOp::load;
        if (st.span.operand == Operand::c)
          refuse(ev, st.pos, "this load reads the output: sim's kernels only store it");
    }
    if (!is_memory_op(ps.op)) {
      slot.part->push_back(ps);
      continue;
    }
    ps.operand = st.span.operand;
    const Layout* layout = nullptr;
    for (const Layout& l : layouts)
      if (l.op == ps.operand) layout = &l;
    ps.matrix_name = matrix_name(ev.launch().args[static_cast<std::size_t>(layout->tensor)].name);
    AccessSource names = access_source(fn, st.pos, ps.op == StepOp::store, st.has_mask);
    ps.ptr_line = names.ptr_line;
    ps.mask_line = names.mask_line;
    ps.has_mask = st.has_mask;  // the evaluator's: mask=None passes none
    if (layout->swap) {
      std::swap(names.row_index, names.col_index);
      std::swap(names.row_stride, names.col_stride);
    }
    ps.row.index_name = names.row_index;
    ps.row.stride_name = names.row_stride;
    ps.col.index_name = names.col_index;
    ps.col.stride_name = names.col_stride;

    // Each axis: the problem axis that fits this step in every program and iteration seen.
    std::array<std::array<bool, 3>, 2> fits{{{true, true, true}, {true, true, true}}};
    bool wrap[2] = {false, false};
    for (std::size_t p = 0; p < programs.size(); ++p) {
      for (const SeenStep& o : programs[p].steps) {
        // The same access: same position (a program may skip none: check_programs counts).
        if (o.pos.line != st.pos.line || o.pos.col != st.pos.col || o.kind != st.kind) continue;
        const AxisRange facts[2] = {{o.span.row0, o.span.rows, o.span.row_extent},
                                    {o.span.col0, o.span.cols, o.span.col_extent}};
        wrap[0] = wrap[0] || o.span.wrap_rows;
        wrap[1] = wrap[1] || o.span.wrap_cols;
        const std::int64_t k = no_loop && slot.part == &plan.body ? 0 : o.iteration;
        for (int side = 0; side < 2; ++side)
          for (Axis a : {Axis::m, Axis::n, Axis::k})
            fits[side][static_cast<int>(a)] =
                fits[side][static_cast<int>(a)] && axis_fits(spec, a, tiles[p], k, facts[side]);
      }
    }
    const auto natural = natural_axes(ps.operand, roles.kernel);
    for (int side = 0; side < 2; ++side) {
      std::optional<Axis> pick;
      if (fits[side][static_cast<int>(natural[side])]) pick = natural[side];
      for (Axis a : {Axis::m, Axis::n, Axis::k})
        if (!pick && fits[side][static_cast<int>(a)]) pick = a;
      if (!pick)
        refuse(ev, st.pos,
               std::string("the ") + (side == 0 ? "rows" : "columns") + " of this " +
                   (ps.op == StepOp::store ? "store" : "load") + " of " + ps.matrix_name +
                   " are no block of M, N or K at pid_m * BLOCK_M, pid_n * BLOCK_N or k * "
                   "BLOCK_K: sim models tiles that move with the program and the K loop");
      PlanAxis& ax = side == 0 ? ps.row : ps.col;
      ax.axis = *pick;
      ax.wrap = wrap[side];
    }
    slot.part->push_back(ps);
  }
  return plan;
}

std::int64_t check_programs(const Evaluator& ev, const Problem& p,
                            const std::vector<SeenProgram>& programs, bool lines) {
  std::int64_t checked = 0;
  const std::int64_t steps = steps_per_program(p);
  const std::string kernel(to_string(p.kernel()));
  for (const SeenProgram& c : programs) {
    std::size_t i = 0;
    const std::string pid = "pid " + std::to_string(c.pid);
    for (std::int64_t step = 1; step < steps; ++step) {
      const Step want = program_step(p, c.pid, step);
      const StepOp op = want.op;
      if (i >= c.steps.size())
        refuse(ev, ev.kernel().fn.pos,
               pid + " ends after " + std::to_string(i) + " steps; sim's " + kernel + " has " +
                   std::to_string(steps - 1));
      const SeenStep& r = c.steps[i++];
      const bool is_dot = r.kind == RecordKind::dot, is_store = r.kind == RecordKind::store;
      const bool is_trans = r.kind == RecordKind::trans;
      if ((op == StepOp::dot) != is_dot || (op == StepOp::store) != is_store ||
          (op == StepOp::transpose) != is_trans)
        refuse(ev, r.pos,
               pid + ": sim's step " + std::to_string(step) + " is " + std::string(to_string(op)) +
                   " here");
      if (lines && r.pos.line != want.line)
        refuse(ev, r.pos,
               pid + ": sim's step " + std::to_string(step) + " (" + std::string(to_string(op)) +
                   ") is made on line " + std::to_string(want.line) +
                   " in the first program: sim models one source line per step");
      ++checked;
      if (!is_memory_op(op)) continue;
      if (!same_span(r.span, *want.span))
        refuse(ev, r.pos,
               pid + ": this " + (is_store ? "store" : "load") + " touches " + span_text(r.span) +
                   "; sim's " + std::string(to_string(op)) + " touches " + span_text(*want.span));
    }
    if (i != c.steps.size())
      refuse(ev, c.steps[i].pos, pid + ": a step more than sim's " + kernel + " has");
  }
  return checked;
}

}  // namespace tilesim::sim
