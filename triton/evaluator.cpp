// The statement and expression walker. Python's scoping is one flat namespace per program (a
// kernel has no nested functions); `for` runs its body once per value of a range.
#include "triton/evaluator.hpp"

#include "triton/interp.hpp"

namespace tilesim::triton {
namespace {}  // namespace

std::string describe(const Value& v) {
  struct V {
    std::string operator()(const NoneV&) const { return "None"; }
    std::string operator()(const EllipsisV&) const { return "..."; }
    std::string operator()(std::int64_t i) const { return "the integer " + std::to_string(i); }
    std::string operator()(double) const { return "a float"; }
    std::string operator()(bool) const { return "a bool"; }
    std::string operator()(const std::string&) const { return "a string"; }
    std::string operator()(const Tuple& t) const {
      return "a tuple of " + std::to_string(t->size());
    }
    std::string operator()(const Tile& t) const {
      if (t.shape.empty()) return std::string("a scalar of ") + std::string(to_string(t.elem));
      return "a tile " + to_string(t.shape) + " of " + std::string(to_string(t.elem));
    }
    std::string operator()(const PtrTile& p) const {
      return p.offsets.shape.empty() ? "a pointer" : "a pointer tile " + to_string(p.offsets.shape);
    }
    std::string operator()(const BlockPtr&) const { return "a block pointer"; }
    std::string operator()(const DTypeV& d) const {
      return "the dtype " + std::string(to_string(d.elem));
    }
    std::string operator()(const Module& m) const { return "the module " + m.name; }
    std::string operator()(const Builtin& b) const { return b.name; }
    std::string operator()(const RangeV&) const { return "a range"; }
    std::string operator()(const Method& m) const { return "the method ." + m.name; }
  };
  return std::visit(V{}, v.v);
}

Evaluator::Evaluator(const KernelSource& k, Launch launch) : m_k(k), m_launch(std::move(launch)) {
  check_launch(m_k, m_launch);
}

ProgramRun Evaluator::run(std::int64_t pid, const EvalOptions& opt) const {
  if (pid < 0 || pid >= m_launch.programs())
    throw SourceError(m_k.file, {},
                      "pid = " + std::to_string(pid) + " is out of range: allowed 0.." +
                          std::to_string(m_launch.programs() - 1));
  return Interp(m_k, m_launch, pid, opt).run();
}

Interp::Interp(const KernelSource& k, const Launch& l, std::int64_t pid, const EvalOptions& opt)
    : m_k(k), m_l(l), m_opt(opt) {
  m_out.pid = pid;
  m_out.pids = {pid % l.grid[0], (pid / l.grid[0]) % l.grid[1], pid / (l.grid[0] * l.grid[1])};
}

void Interp::fail(SourcePos p, const std::string& msg) const {
  throw SourceError(m_k.file, p, msg);
}

ProgramRun Interp::run() {
  for (const auto& p : m_k.fn.params) {
    const ArgValue* a = m_l.find(p.name);
    if (!a) {
      m_env[p.name] = eval(*p.default_value);
      continue;
    }
    Value v;
    if (const auto* t = std::get_if<TensorDesc>(&a->value)) {
      PtrTile ptr;
      ptr.tensor = static_cast<int>(a - m_l.args.data());
      ptr.offsets.elem = Elem::i64;
      ptr.offsets.ints = {0};
      (void)t;
      v.v = ptr;
    } else if (const auto* i = std::get_if<std::int64_t>(&a->value)) {
      // A runtime integer is an int32 scalar tensor in Triton (C division rules); a constexpr
      // is a Python int.
      if (p.constexpr_)
        v.v = *i;
      else
        v.v = as_tile(Value{*i});
    } else if (const auto* d = std::get_if<double>(&a->value)) {
      v.v = *d;
    } else if (const auto* b = std::get_if<bool>(&a->value)) {
      v.v = *b;
    } else {
      v.v = std::get<std::string>(a->value);
    }
    m_env[p.name] = std::move(v);
  }
  exec_block(m_k.fn.body);
  return std::move(m_out);
}

void Interp::exec_block(const std::vector<StmtPtr>& body) {
  for (const auto& s : body) {
    if (m_returned) return;
    exec(*s);
  }
}

void Interp::stamp(Record& r) const {
  r.loop = m_loop_pos;
  r.loop_depth = m_loop_depth;
  r.iteration = m_loop_iteration;
}

void Interp::push_record(Record r) {
  stamp(r);
  m_out.records.push_back(std::move(r));
}

void Interp::assign(const Expr& target, const Value& v, SourcePos p) {
  if (target.kind == ExprKind::name) {
    if (m_opt.scalars && m_loop_depth == 0) {
      std::int64_t x = 0;
      bool is_int = false;
      try {
        x = as_int(v, "");
        is_int = !v.is<bool>();
      } catch (const OpError&) {
      }
      if (is_int) {
        Record r;
        r.kind = RecordKind::scalar;
        r.pos = target.pos;
        r.name = target.text;
        r.value = x;
        push_record(std::move(r));
      }
    }
    m_env[target.text] = v;
    return;
  }
  const Tuple* t = v.get<Tuple>();
  if (!t)
    fail(p,
         "cannot unpack " + describe(v) + " into " + std::to_string(target.kids.size()) + " names");
  if ((*t)->size() != target.kids.size())
    fail(p, "cannot unpack a tuple of " + std::to_string((*t)->size()) + " into " +
                std::to_string(target.kids.size()) + " names");
  for (std::size_t i = 0; i < target.kids.size(); ++i) assign(*target.kids[i], (**t)[i], p);
}

void Interp::exec(const Stmt& s) {
  if (++m_statements > kMaxStatementsPerProgram)
    fail(s.pos, "this program runs more than " + std::to_string(kMaxStatementsPerProgram) +
                    " statements: refused");
  try {
    switch (s.kind) {
      case StmtKind::pass:
        return;
      case StmtKind::ret:
        if (s.value) (void)eval(*s.value);
        m_returned = true;
        return;
      case StmtKind::expr:
        (void)eval(*s.value);
        return;
      case StmtKind::assign: {
        const Value v = eval(*s.value);
        for (const auto& t : s.targets) assign(*t, v, s.pos);
        return;
      }
      case StmtKind::aug_assign: {
        const Expr& t = *s.targets[0];
        const Value old = lookup(t);
        Value v;
        const Value rhs = eval(*s.value);
        if (const auto* p = old.get<PtrTile>()) {
          if (s.op != "+" && s.op != "-") fail(s.pos, "only += and -= move a pointer");
          v = pointer_op(s.op, *p, rhs);
        } else {
          v = binary_op(s.op, old, rhs);
        }
        assign(t, v, s.pos);
        return;
      }
      case StmtKind::if_stmt:
        if (truth(eval(*s.test)))
          exec_block(s.body);
        else
          exec_block(s.orelse);
        return;
      case StmtKind::for_loop: {
        const Value it = eval(*s.value);
        std::vector<Value> items;
        RangeV r{};
        bool is_range = false;
        if (const auto* rv = it.get<RangeV>()) {
          r = *rv;
          is_range = true;
        } else if (const auto* t = it.get<Tuple>()) {
          items = **t;
        } else {
          fail(s.value->pos,
               "for loops run over range(...), tl.range(...) or a tuple, not " + describe(it));
        }
        ++m_loop_depth;
        const SourcePos outer_pos = m_loop_pos;
        const std::int64_t outer_iteration = m_loop_iteration;
        m_loop_pos = s.pos;
        m_loop_iteration = -1;
        const auto body = [&](const Value& v) {
          if (++m_out.loop_iterations > kMaxLoopIterations)
            fail(s.pos, "more than " + std::to_string(kMaxLoopIterations) +
                            " loop iterations in one program: refused");
          ++m_loop_iteration;
          assign(*s.targets[0], v, s.pos);
          exec_block(s.body);
        };
        if (is_range) {
          for (std::int64_t i = r.start; r.step > 0 ? i < r.stop : i > r.stop;) {
            body(Value{i});
            // The next value past the 64-bit range ends the range (Python would go on, but
            // no program runs 2^63 iterations: the iteration cap stops it long before).
            if (m_returned || __builtin_add_overflow(i, r.step, &i)) break;
          }
        } else {
          for (const auto& v : items) {
            body(v);
            if (m_returned) break;
          }
        }
        --m_loop_depth;
        m_loop_pos = outer_pos;
        m_loop_iteration = outer_iteration;
        return;
      }
    }
  } catch (const OpError& e) {
    fail(s.pos, e.message);
  }
}

Value Interp::lookup(const Expr& e) const {
  const auto it = m_env.find(e.text);
  if (it != m_env.end()) return it->second;
  if (e.text == "tl") return Value{Module{"tl"}};
  if (e.text == "triton") return Value{Module{"triton"}};
  if (e.text == "min" || e.text == "max" || e.text == "range" || e.text == "len" ||
      e.text == "int" || e.text == "float" || e.text == "abs")
    return Value{Builtin{e.text}};
  fail(e.pos, "the name " + e.text + " is not defined");
}

Value Interp::eval(const Expr& e) {
  try {
    switch (e.kind) {
      case ExprKind::name:
        return lookup(e);
      case ExprKind::integer:
        return Value{e.ival};
      case ExprKind::real:
        return Value{e.fval};
      case ExprKind::string:
        return Value{e.text};
      case ExprKind::boolean:
        return Value{e.bval};
      case ExprKind::none:
        return Value{NoneV{}};
      case ExprKind::ellipsis:
        return Value{EllipsisV{}};
      case ExprKind::tuple: {
        auto t = std::make_shared<std::vector<Value>>();
        for (const auto& k : e.kids) t->push_back(eval(*k));
        return Value{Tuple(std::move(t))};
      }
      case ExprKind::unary:
        return unary_op(e.text, eval(*e.kids[0]));
      case ExprKind::binary: {
        const Value a = eval(*e.kids[0]);
        const Value b = eval(*e.kids[1]);
        if (const auto* p = a.get<PtrTile>()) return pointer_op(e.text, *p, b);
        if (const auto* p = b.get<PtrTile>()) {
          if (e.text != "+") fail(e.pos, "only an offset can be added to a pointer");
          return pointer_op("+", *p, a);
        }
        return binary_op(e.text, a, b);
      }
      case ExprKind::compare: {
        Value left = eval(*e.kids[0]);
        Value result;
        for (std::size_t i = 0; i < e.ops.size(); ++i) {
          const Value right = eval(*e.kids[i + 1]);
          const std::string& op = e.ops[i];
          Value r;
          if (op == "is" || op == "is not") {
            const bool same = left.is<NoneV>() && right.is<NoneV>();
            if (!left.is<NoneV>() && !right.is<NoneV>())
              fail(e.pos, "\"is\" compares with None only");
            r = Value{op == "is" ? same : !same};
          } else if (left.is<std::string>() && right.is<std::string>() &&
                     (op == "==" || op == "!=")) {
            const bool eq = *left.get<std::string>() == *right.get<std::string>();
            r = Value{op == "==" ? eq : !eq};
          } else if (op == "in" || op == "not in") {
            fail(e.pos, "\"" + op + "\" is not supported yet");
          } else {
            r = binary_op(op, left, right);
          }
          result = i == 0 ? r : binary_op("&", result, r);
          left = right;
        }
        return result;
      }
      case ExprKind::bool_op: {
        const Value a = eval(*e.kids[0]);
        if (!is_scalar(a)) fail(e.pos, "\"" + e.text + "\" on tiles: use & or | instead");
        const bool t = truth(a);
        if ((e.text == "and" && !t) || (e.text == "or" && t)) return a;
        return eval(*e.kids[1]);
      }
      case ExprKind::if_exp:
        return truth(eval(*e.kids[1])) ? eval(*e.kids[0]) : eval(*e.kids[2]);
      case ExprKind::call:
        return eval_call(e);
      case ExprKind::attribute:
        return eval_attribute(e);
      case ExprKind::subscript:
        return eval_subscript(e);
      case ExprKind::slice:
        fail(e.pos, "a slice outside a subscript");
    }
  } catch (const OpError& err) {
    fail(e.pos, err.message);
  }
  fail(e.pos, "this expression is not supported");
}

}  // namespace tilesim::triton
