// The `tl` functions of the subset and Python's min/max/range, evaluated on tiles. Memory
// operations and dots append their record; float data is never computed (shapes and dtypes
// only), integer and boolean lanes always are.
#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <set>

#include "triton/interp.hpp"

namespace tilesim::triton {
namespace {

// Arguments bound to a function's parameter names (positional first, then keywords).
struct Bound {
  std::vector<std::optional<Value>> v;
  const Value* get(std::size_t i) const {
    return i < v.size() && v[i] && !v[i]->is<NoneV>() ? &*v[i] : nullptr;
  }
};

const std::set<std::string_view>& ignored_keywords() {
  // Hints that change code generation, not which elements a program touches.
  static const std::set<std::string_view> k{
      "cache_modifier",        "eviction_policy",           "volatile", "num_stages",
      "loop_unroll_factor",    "disallow_acc_multi_buffer", "flatten",  "warp_specialize",
      "max_num_imprecise_acc", "fp_downcast_rounding",      "bitcast",  "keep_dims_dummy"};
  return k;
}

Elem elem_of(const Value& v) {
  if (const auto* d = v.get<DTypeV>()) return d->elem;
  throw OpError{"expected a dtype such as tl.float32, found " + describe(v)};
}

Shape shape_of(const Value& v) {
  Shape s;
  if (const auto* t = v.get<Tuple>()) {
    for (const auto& x : **t) s.push_back(as_int(x, "a tile size"));
  } else {
    s.push_back(as_int(v, "a tile size"));
  }
  check_lanes(s);
  return s;
}

std::array<std::int64_t, 2> pair_of(const Value& v, const char* what, int* rank) {
  std::array<std::int64_t, 2> out{0, 0};
  const auto* t = v.get<Tuple>();
  if (!t || (*t)->empty() || (*t)->size() > 2)
    throw OpError{std::string(what) + " must be a tuple of 1 or 2 integers"};
  for (std::size_t i = 0; i < (*t)->size(); ++i) out[i] = as_int((**t)[i], what);
  if (rank) *rank = static_cast<int>((*t)->size());
  return out;
}

Tile as_mask(const Value& v, const Shape& shape) {
  Tile m = broadcast_to(as_tile(v), shape);
  if (is_float(m.elem)) throw OpError{"a mask must be boolean, not " + describe(v)};
  if (m.elem != Elem::i1 && m.known)
    for (auto& x : m.ints) x = x != 0;
  m.elem = Elem::i1;
  m.origin = -1;
  return m;
}

Tile unknown_like(const Tile& t, Elem e) {
  Tile r;
  r.shape = t.shape;
  r.elem = e;
  r.known = false;
  return r;
}

}  // namespace

Value Interp::call_method(const std::string& name, const Value& self, CallArgs args,
                          const Expr& call) {
  if (name == "trans") return transpose(self, call.pos);
  args.pos.insert(args.pos.begin(), self);
  return call_builtin("tl.cast", std::move(args), call);  // .to(dtype)
}

Value Interp::call_builtin(const std::string& name, CallArgs a, const Expr& call) {
  const auto bind = [&](std::initializer_list<const char*> names, std::size_t required) {
    Bound b;
    b.v.resize(names.size());
    if (a.pos.size() > names.size())
      fail(call.pos, name + " takes at most " + std::to_string(names.size()) + " arguments");
    for (std::size_t i = 0; i < a.pos.size(); ++i) b.v[i] = a.pos[i];
    for (const auto& kv : a.kw) {
      const std::string& k = kv.first;  // not a structured binding: clang 14 cannot capture one
      const Value& v = kv.second;
      const auto it =
          std::find_if(names.begin(), names.end(), [&](const char* n) { return k == n; });
      if (it == names.end()) {
        if (ignored_keywords().count(k)) continue;
        fail(call.pos, name + " has no argument named " + k + " in the subset");
      }
      auto& slot = b.v[static_cast<std::size_t>(it - names.begin())];
      if (slot) fail(call.pos, name + " got " + k + " twice");
      slot = v;
    }
    for (std::size_t i = 0; i < required; ++i)
      if (!b.v[i]) fail(call.pos, name + " needs its argument " + *(names.begin() + i));
    return b;
  };
  const auto tile_arg = [&](const Bound& b, std::size_t i) { return as_tile(*b.v[i]); };

  if (name == "tl.program_id" || name == "tl.num_programs") {
    const Bound b = bind({"axis"}, 1);
    const std::int64_t axis = as_int(*b.v[0], "axis");
    if (axis < 0 || axis > 2) fail(call.pos, "axis must be 0, 1 or 2");
    const auto v = name == "tl.program_id" ? m_out.pids[axis] : m_l.grid[axis];
    return Value{as_tile(Value{v})};
  }
  if (name == "tl.cdiv") {
    const Bound b = bind({"x", "div"}, 2);
    return binary_op("//", binary_op("-", binary_op("+", *b.v[0], *b.v[1]), Value{std::int64_t{1}}),
                     *b.v[1]);
  }
  if (name == "tl.arange") {
    const Bound b = bind({"start", "end"}, 2);
    const std::int64_t lo = as_int(*b.v[0], "start"), hi = as_int(*b.v[1], "end");
    std::int64_t n = 0;
    if (hi <= lo || __builtin_sub_overflow(hi, lo, &n) || n > kMaxTileLanes)
      fail(call.pos, "tl.arange(" + std::to_string(lo) + ", " + std::to_string(hi) +
                         ") must have 1.." + std::to_string(kMaxTileLanes) + " lanes");
    if (!std::has_single_bit(static_cast<std::uint64_t>(hi - lo)))
      fail(call.pos, "tl.arange's range must be a power of two, not " + std::to_string(hi - lo));
    Tile t = filled({hi - lo}, Elem::i32);
    for (std::int64_t i = 0; i < hi - lo; ++i) t.ints[i] = lo + i;
    return Value{t};
  }
  if (name == "tl.zeros" || name == "tl.full") {
    const bool full = name == "tl.full";
    const Bound b = full ? bind({"shape", "value", "dtype"}, 3) : bind({"shape", "dtype"}, 2);
    const Elem e = elem_of(*b.v[full ? 2 : 1]);
    std::int64_t v = 0;
    if (full && !is_float(e)) v = as_int(*b.v[1], "the fill value");
    return Value{filled(shape_of(*b.v[0]), e, v)};
  }
  if (name == "tl.zeros_like") {
    const Bound b = bind({"input", "dtype"}, 1);
    const Tile t = tile_arg(b, 0);
    return Value{filled(t.shape, b.get(1) ? elem_of(*b.v[1]) : t.elem)};
  }
  if (name == "tl.load" || name == "tl.store") {
    const bool load = name == "tl.load";
    const Bound b = load ? bind({"pointer", "mask", "other", "boundary_check", "padding_option"}, 1)
                         : bind({"pointer", "value", "mask", "boundary_check"}, 2);
    Record rec;
    rec.kind = load ? RecordKind::load : RecordKind::store;
    rec.pos = call.pos;
    AccessRecord& acc = rec.access;
    const Value& ptr = *b.v[0];
    const Value* mask = b.get(load ? 1 : 2);
    const Value* check = b.get(load ? 3 : 3);
    if (const auto* p = ptr.get<PtrTile>()) {
      if (check) fail(call.pos, "boundary_check applies to block pointers (tl.make_block_ptr)");
      acc.tensor = p->tensor;
      acc.offsets = p->offsets;
      if (mask) {
        acc.has_mask = true;
        acc.mask = as_mask(*mask, p->offsets.shape);
      }
    } else if (const auto* bp = ptr.get<BlockPtr>()) {
      if (mask) fail(call.pos, "a block pointer takes boundary_check, not mask");
      acc.tensor = bp->tensor;
      const Shape s = bp->rank == 1 ? Shape{bp->block[0]} : Shape{bp->block[0], bp->block[1]};
      acc.offsets = filled(s, Elem::i64);
      std::vector<int> axes;
      if (check) {
        const auto* t = check->get<Tuple>();
        if (!t) fail(call.pos, "boundary_check is a tuple of axes");
        for (const auto& x : **t) {
          const std::int64_t ax = as_int(x, "a boundary_check axis");
          if (ax < 0 || ax >= bp->rank) fail(call.pos, "boundary_check axis out of range");
          axes.push_back(static_cast<int>(ax));
        }
      }
      acc.has_mask = !axes.empty();
      if (acc.has_mask) acc.mask = filled(s, Elem::i1, 1);
      const std::int64_t cols = bp->rank == 1 ? 1 : bp->block[1];
      for (std::int64_t i = 0; i < bp->block[0]; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          const std::int64_t idx[2] = {bp->offsets[0] + i, bp->offsets[1] + j};
          std::int64_t off = 0;
          bool on = true;
          for (int ax = 0; ax < bp->rank; ++ax) {
            std::int64_t term = 0;
            if (__builtin_mul_overflow(idx[ax], bp->strides[ax], &term) ||
                __builtin_add_overflow(off, term, &off))
              fail(call.pos, "integer overflow in the block pointer's offsets");
            if (std::find(axes.begin(), axes.end(), ax) != axes.end())
              on = on && idx[ax] >= 0 && idx[ax] < bp->shape[ax];
          }
          acc.offsets.ints[i * cols + j] = off;
          if (acc.has_mask) acc.mask.ints[i * cols + j] = on;
        }
    } else {
      fail(call.pos, name + " needs a pointer, found " + describe(ptr));
    }
    const ArgValue& arg = m_l.args[static_cast<std::size_t>(acc.tensor)];
    acc.tensor_name = arg.name;
    acc.elem = std::get<TensorDesc>(arg.value).elem;
    if (!load) {
      const Tile value = broadcast_to(as_tile(*b.v[1]), acc.offsets.shape);
      acc.value_origin = value.origin;
      acc.value_transposed = value.transposed;
    }
    Tile result = unknown_like(acc.offsets, acc.elem);
    result.origin = static_cast<int>(m_out.records.size());
    if (m_opt.on_access) {
      stamp(rec);
      m_opt.on_access(m_out.records.size(), rec);
      if (!m_opt.keep_access_tiles) {
        acc.offsets.ints = {};
        acc.mask.ints = {};
      }
    }
    push_record(std::move(rec));
    if (!load) return Value{NoneV{}};
    return Value{result};
  }
  if (name == "tl.dot") {
    const Bound b =
        bind({"input", "other", "acc", "input_precision", "allow_tf32", "out_dtype"}, 2);
    const Tile x = tile_arg(b, 0), y = tile_arg(b, 1);
    if (x.shape.size() != 2 || y.shape.size() != 2 || x.shape[1] != y.shape[0])
      fail(call.pos, "tl.dot needs (M, K) and (K, N) tiles, found " + to_string(x.shape) + " and " +
                         to_string(y.shape));
    for (auto d : {x.shape[0], x.shape[1], y.shape[1]})
      if (d < 16) fail(call.pos, "tl.dot needs every dimension >= 16, found " + std::to_string(d));
    Record rec;
    rec.kind = RecordKind::dot;
    rec.pos = call.pos;
    DotRecord& d = rec.dot;
    d.a = x.shape;
    d.b = y.shape;
    d.a_elem = x.elem;
    d.b_elem = y.elem;
    d.a_origin = x.origin;
    d.b_origin = y.origin;
    d.a_transposed = x.transposed;
    d.b_transposed = y.transposed;
    if (const Value* p = b.get(3)) {
      const auto* s = p->get<std::string>();
      if (!s) fail(call.pos, "input_precision is a string (\"ieee\", \"tf32\", \"tf32x3\")");
      d.input_precision = *s;
    } else if (const Value* t = b.get(4)) {
      d.input_precision = truth(*t) ? "tf32" : "ieee";
    }
    d.out_elem = b.get(5) ? elem_of(*b.v[5]) : (is_float(x.elem) ? Elem::f32 : Elem::i32);
    const Shape out{x.shape[0], y.shape[1]};
    if (const Value* c = b.get(2)) {
      const Tile acc = as_tile(*c);
      if (acc.shape != out)
        fail(call.pos,
             "tl.dot's acc has shape " + to_string(acc.shape) + ", not " + to_string(out));
      d.out_elem = acc.elem;
    }
    push_record(std::move(rec));
    Tile r;
    r.shape = out;
    r.elem = d.out_elem;
    r.known = false;
    return Value{r};
  }
  if (name == "tl.trans") {
    const Bound b = bind({"input"}, 1);
    return transpose(*b.v[0], call.pos);
  }
  if (name == "tl.where") {
    const Bound b = bind({"condition", "x", "y"}, 3);
    const Tile c = tile_arg(b, 0), x = tile_arg(b, 1), y = tile_arg(b, 2);
    Shape s;
    if (!broadcast_shape(c.shape, x.shape, &s) || !broadcast_shape(s, y.shape, &s))
      fail(call.pos, "tl.where's arguments do not broadcast together");
    const Elem e = promote(x.elem, y.elem);
    const Tile cc = broadcast_to(c, s), xx = broadcast_to(x, s), yy = broadcast_to(y, s);
    Tile r = filled(s, e);
    if (!(cc.known && xx.known && yy.known) || is_float(e)) return Value{unknown_like(r, e)};
    for (std::int64_t i = 0; i < r.lanes(); ++i) r.ints[i] = cc.ints[i] ? xx.ints[i] : yy.ints[i];
    return Value{r};
  }
  if (name == "tl.minimum" || name == "tl.maximum") {
    const Bound b = bind({"x", "y", "propagate_nan"}, 2);
    const Tile x = tile_arg(b, 0), y = tile_arg(b, 1);
    const bool lo = name == "tl.minimum";
    return Value{zip(x, y, promote(x.elem, y.elem), [lo](std::int64_t p, std::int64_t q) {
      return lo ? std::min(p, q) : std::max(p, q);
    })};
  }
  if (name == "tl.sum" || name == "tl.max" || name == "tl.min") {
    const Bound b = bind({"input", "axis", "keep_dims", "return_indices"}, 1);
    const Tile x = tile_arg(b, 0);
    if (b.get(3) && truth(*b.v[3])) fail(call.pos, "return_indices is not supported yet");
    const bool keep = b.get(2) && truth(*b.v[2]);
    std::optional<std::int64_t> axis;
    if (b.get(1)) axis = as_int(*b.v[1], "axis");
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    if (axis && *axis < 0) *axis += rank;
    if (axis && (*axis < 0 || *axis >= rank))
      fail(call.pos, "axis out of range for " + to_string(x.shape));
    Shape s;
    for (std::int64_t i = 0; i < rank; ++i) {
      if (!axis || *axis == i) {
        if (keep) s.push_back(1);
      } else {
        s.push_back(x.shape[i]);
      }
    }
    Tile r = filled(s, x.elem == Elem::i1 ? Elem::i32 : x.elem);
    if (!r.known || !x.known) return Value{unknown_like(r, r.elem)};
    const std::int64_t cols = rank == 2 ? x.shape[1] : 1;
    std::vector<bool> seen(r.ints.size(), false);
    for (std::int64_t i = 0; i < x.lanes(); ++i) {
      std::int64_t o = 0;
      if (axis && rank == 2) o = *axis == 0 ? i % cols : i / cols;
      auto& slot = r.ints[static_cast<std::size_t>(o)];
      const std::int64_t v = x.ints[i];
      if (!seen[o])
        slot = v;
      else if (name == "tl.sum")
        slot = binary_op("+", Value{slot}, Value{v}).get<std::int64_t>()[0];
      else
        slot = name == "tl.max" ? std::max(slot, v) : std::min(slot, v);
      seen[o] = true;
    }
    return Value{r};
  }
  if (name == "tl.assume") {  // a hint to the compiler's integer analysis: no effect here
    (void)bind({"cond"}, 1);
    return Value{NoneV{}};
  }
  if (name == "tl.multiple_of" || name == "tl.max_contiguous") {
    const Bound b = bind({"input", "values"}, 2);
    return *b.v[0];
  }
  if (name == "tl.cast") {
    const Bound b = bind({"input", "dtype"}, 2);
    Tile t = tile_arg(b, 0);
    const Elem e = elem_of(*b.v[1]);
    if (is_float(e) || !t.known) {
      t.known = false;
      t.ints.clear();
    } else if (e == Elem::i1) {
      for (auto& x : t.ints) x = x != 0;
    }
    t.elem = e;
    return Value{t};
  }
  if (name == "tl.make_block_ptr") {
    const Bound b = bind({"base", "shape", "strides", "offsets", "block_shape", "order"}, 6);
    const auto* p = b.v[0]->get<PtrTile>();
    if (!p || !p->offsets.shape.empty())
      fail(call.pos, "tl.make_block_ptr's base is a pointer argument");
    BlockPtr bp;
    bp.tensor = p->tensor;
    int r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    bp.shape = pair_of(*b.v[1], "shape", &r1);
    bp.strides = pair_of(*b.v[2], "strides", &r2);
    bp.offsets = pair_of(*b.v[3], "offsets", &r3);
    bp.block = pair_of(*b.v[4], "block_shape", &r4);
    if (r1 != r2 || r1 != r3 || r1 != r4)
      fail(call.pos, "tl.make_block_ptr's shape, strides, offsets and block_shape differ in rank");
    bp.rank = r1;
    check_lanes(bp.rank == 1 ? Shape{bp.block[0]} : Shape{bp.block[0], bp.block[1]});
    if (p->offsets.ints[0] != 0)
      fail(call.pos, "tl.make_block_ptr on a moved pointer is not supported yet");
    return Value{bp};
  }
  if (name == "tl.advance") {
    const Bound b = bind({"base", "offsets"}, 2);
    const auto* bp = b.v[0]->get<BlockPtr>();
    if (!bp) fail(call.pos, "tl.advance needs a block pointer");
    int rank = 0;
    const auto d = pair_of(*b.v[1], "offsets", &rank);
    if (rank != bp->rank) fail(call.pos, "tl.advance's offsets have the wrong rank");
    BlockPtr r = *bp;
    for (int i = 0; i < rank; ++i)
      r.offsets[i] = binary_op("+", Value{r.offsets[i]}, Value{d[i]}).get<std::int64_t>()[0];
    return Value{r};
  }
  if (name == "range" || name == "tl.range" || name == "tl.static_range") {
    const Bound b = bind({"arg1", "arg2", "step"}, 1);
    RangeV r;
    if (b.get(1)) {
      r.start = as_int(*b.v[0], "range's start");
      r.stop = as_int(*b.v[1], "range's stop");
    } else {
      r.stop = as_int(*b.v[0], "range's stop");
    }
    if (b.get(2)) r.step = as_int(*b.v[2], "range's step");
    if (r.step == 0) fail(call.pos, "range's step must not be zero");
    return Value{r};
  }
  if (name == "min" || name == "max") {
    std::vector<Value> xs = a.pos;
    if (xs.size() == 1 && xs[0].is<Tuple>()) xs = **xs[0].get<Tuple>();
    if (xs.empty() || !a.kw.empty()) fail(call.pos, name + "() takes scalars");
    Value best = xs[0];
    for (std::size_t i = 1; i < xs.size(); ++i) {
      if (!is_scalar(xs[i]) || !is_scalar(best))
        fail(call.pos, name + "() of tiles: use tl.minimum / tl.maximum");
      const bool less = truth(binary_op("<", xs[i], best));
      if (name == "min" ? less : truth(binary_op(">", xs[i], best))) best = xs[i];
    }
    return best;
  }
  if (name == "len") {
    const Bound b = bind({"obj"}, 1);
    const auto* t = b.v[0]->get<Tuple>();
    if (!t) fail(call.pos, "len() of " + describe(*b.v[0]));
    return Value{static_cast<std::int64_t>((*t)->size())};
  }
  if (name == "int" || name == "float" || name == "abs") {
    const Bound b = bind({"x"}, 1);
    if (name == "int") return Value{as_int(*b.v[0], "int()")};
    if (name == "abs") {
      const Value& x = *b.v[0];
      return truth(binary_op("<", x, Value{std::int64_t{0}})) ? unary_op("-", x) : x;
    }
    if (const auto* d = b.v[0]->get<double>()) return Value{*d};
    if (const auto* text = b.v[0]->get<std::string>()) {  // float('inf'), float('-inf')
      if (*text == "inf" || *text == "-inf" || *text == "nan")
        return Value{*text == "-inf" ? -HUGE_VAL : *text == "inf" ? HUGE_VAL : NAN};
      fail(call.pos, "float() of \"" + *text + "\"");
    }
    return Value{static_cast<double>(as_int(*b.v[0], "float()"))};
  }
  static const std::set<std::string_view> kFloatMath{"tl.exp",  "tl.exp2",  "tl.log", "tl.log2",
                                                     "tl.sqrt", "tl.rsqrt", "tl.abs", "tl.sigmoid",
                                                     "tl.sin",  "tl.cos",   "tl.erf", "tl.fma"};
  if (kFloatMath.count(name)) {
    if (a.pos.empty()) fail(call.pos, name + " needs an argument");
    Tile t = as_tile(a.pos[0]);
    for (std::size_t i = 1; i < a.pos.size(); ++i) {
      Shape s;
      if (!broadcast_shape(t.shape, as_tile(a.pos[i]).shape, &s))
        fail(call.pos, name + "'s arguments do not broadcast");
      t.shape = s;
    }
    if (name == "tl.abs" && t.known && a.pos.size() == 1) {
      for (auto& x : t.ints)
        if (x < 0) x = as_int(unary_op("-", Value{x}), "abs");
      t.origin = -1;
      return Value{t};
    }
    return Value{unknown_like(t, is_float(t.elem) ? t.elem : Elem::f32)};
  }
  fail(call.pos, name + " is not supported yet");
}

}  // namespace tilesim::triton
