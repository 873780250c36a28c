// Attribute access (tl.float16, x.T, x.shape, ptr.dtype.element_ty), subscripts that add axes
// (offs[:, None]) and calls: the parts of the walker that look inside values.
#include <set>

#include "triton/interp.hpp"

namespace tilesim::triton {
namespace {

const std::set<std::string, std::less<>> kTileMethods{"to", "trans"};

std::optional<Elem> dtype_named(std::string_view n) {
  for (Elem e : {Elem::i1, Elem::i8, Elem::i16, Elem::i32, Elem::i64, Elem::f16, Elem::bf16,
                 Elem::f32, Elem::f64})
    if (to_string(e) == n) return e;
  return std::nullopt;
}

}  // namespace

Value Interp::transpose(const Value& v, SourcePos p) {
  const Tile* t = v.get<Tile>();
  if (!t) fail(p, "trans() needs a tile, found " + describe(v));
  if (t->shape.size() < 2) return v;
  Tile r = *t;
  r.shape = {t->shape[1], t->shape[0]};
  r.transposed = !t->transposed;
  if (t->known)
    for (std::int64_t i = 0; i < t->shape[0]; ++i)
      for (std::int64_t j = 0; j < t->shape[1]; ++j)
        r.ints[j * t->shape[0] + i] = t->ints[i * t->shape[1] + j];
  Record rec;
  rec.kind = RecordKind::trans;
  rec.pos = p;
  push_record(std::move(rec));
  return Value{r};
}

Value Interp::eval_attribute(const Expr& e) {
  const Value base = eval(*e.kids[0]);
  const std::string& n = e.text;
  if (const auto* m = base.get<Module>()) {
    if (const auto d = dtype_named(n)) return Value{DTypeV{*d}};
    if (m->name == "triton" && n == "language") return Value{Module{"tl"}};
    if (m->name == "tl" && n == "math") return Value{Module{"tl"}};
    if (m->name == "triton") {
      if (n == "cdiv") return Value{Builtin{"tl.cdiv"}};
      fail(e.pos, "triton." + n + " is not supported yet");
    }
    return Value{Builtin{"tl." + n}};
  }
  if (const auto* t = base.get<Tile>()) {
    if (n == "T") return transpose(base, e.pos);
    if (n == "dtype") return Value{DTypeV{t->elem}};
    if (n == "shape") {
      auto out = std::make_shared<std::vector<Value>>();
      for (auto d : t->shape) out->push_back(Value{d});
      return Value{Tuple(std::move(out))};
    }
    if (kTileMethods.count(n)) return Value{Method{n, std::make_shared<const Value>(base)}};
    fail(e.pos, "tile." + n + " is not supported yet");
  }
  if (const auto* p = base.get<PtrTile>()) {
    if (n == "dtype") {
      const auto& t = std::get<TensorDesc>(m_l.args[static_cast<std::size_t>(p->tensor)].value);
      return Value{DTypeV{t.elem, true}};
    }
    fail(e.pos, "pointer." + n + " is not supported yet");
  }
  if (const auto* d = base.get<DTypeV>()) {
    if (n == "element_ty") return Value{DTypeV{d->elem}};
    fail(e.pos, "dtype." + n + " is not supported yet");
  }
  fail(e.pos, describe(base) + " has no attribute " + n);
}

Value Interp::eval_subscript(const Expr& e) {
  const Value base = eval(*e.kids[0]);
  const Expr& index = *e.kids[1];
  if (const auto* t = base.get<Tuple>()) {
    std::int64_t i = as_int(eval(index), "a tuple index");
    const auto n = static_cast<std::int64_t>((*t)->size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail(index.pos, "tuple index out of range");
    return (**t)[static_cast<std::size_t>(i)];
  }
  const Tile* tile = base.get<Tile>();
  const PtrTile* ptr = base.get<PtrTile>();
  if (!tile && !ptr) fail(e.pos, "cannot subscript " + describe(base));
  const Shape& in = tile ? tile->shape : ptr->offsets.shape;
  std::vector<const Expr*> items;
  if (index.kind == ExprKind::tuple)
    for (const auto& k : index.kids) items.push_back(k.get());
  else
    items.push_back(&index);
  // Only new axes (None) and whole axes (:) — the broadcasting idiom; picking lanes by
  // position has no counterpart in a tile program.
  Shape out;
  std::size_t axis = 0;
  for (const Expr* it : items) {
    if (it->kind == ExprKind::none) {
      out.push_back(1);
    } else if (it->kind == ExprKind::slice && !it->kids[0] && !it->kids[1] && !it->kids[2]) {
      if (axis >= in.size()) fail(it->pos, "too many indices for a tile of shape " + to_string(in));
      out.push_back(in[axis++]);
    } else if (it->kind == ExprKind::ellipsis) {
      while (axis < in.size()) out.push_back(in[axis++]);
    } else {
      fail(it->pos,
           "indexing a tile by position is not supported: only None and : (new and "
           "whole axes)");
    }
  }
  while (axis < in.size()) out.push_back(in[axis++]);
  try {
    check_lanes(out);
  } catch (const OpError& err) {
    fail(e.pos, err.message);
  }
  if (tile) {
    Tile r = *tile;
    r.shape = out;
    return Value{r};
  }
  PtrTile r = *ptr;
  r.offsets.shape = out;
  return Value{r};
}

Value Interp::eval_call(const Expr& e) {
  const Value callee = eval(*e.kids[0]);
  CallArgs args;
  for (std::size_t i = 1; i < e.kids.size(); ++i) args.pos.push_back(eval(*e.kids[i]));
  for (const auto& [name, x] : e.kwargs) args.kw.emplace_back(name, eval(*x));
  if (const auto* b = callee.get<Builtin>()) return call_builtin(b->name, std::move(args), e);
  if (const auto* m = callee.get<Method>())
    return call_method(m->name, *m->self, std::move(args), e);
  fail(e.pos, describe(callee) + " is not callable here (only tl functions and min, max, range)");
}

}  // namespace tilesim::triton
