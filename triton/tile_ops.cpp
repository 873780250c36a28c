// Elementwise operations. Every integer result is checked for overflow (the fuzzer's UBSan build
// would otherwise find signed wrap-around), every new tile for its lane count.
#include "triton/tile_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "triton/source_error.hpp"

namespace tilesim::triton {
namespace {

[[noreturn]] void refuse(const std::string& m) {
  throw OpError{m};
}

inline std::int64_t checked(bool overflow, std::int64_t v) {
  if (overflow) [[unlikely]]
    refuse("integer overflow (the simulator refuses values past 64 bits)");
  return v;
}
inline std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_add_overflow(a, b, &r);
  return checked(overflow, r);
}
inline std::int64_t sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_sub_overflow(a, b, &r);
  return checked(overflow, r);
}
inline std::int64_t mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  const bool overflow = __builtin_mul_overflow(a, b, &r);
  return checked(overflow, r);
}
void check_div(std::int64_t a, std::int64_t b) {
  if (b == 0) refuse("integer division by zero");
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) refuse("integer overflow");
}
// Python's floor division and modulo (constexpr arithmetic)...
std::int64_t floordiv(std::int64_t a, std::int64_t b) {
  check_div(a, b);
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
std::int64_t pymod(std::int64_t a, std::int64_t b) {
  check_div(a, b);
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// ...and C's, as Triton lowers // and % on tensors (sdiv / srem).
std::int64_t cdivide(std::int64_t a, std::int64_t b) {
  check_div(a, b);
  return a / b;
}
std::int64_t cmod(std::int64_t a, std::int64_t b) {
  check_div(a, b);
  return a % b;
}
std::int64_t shift(std::int64_t a, std::int64_t b, bool left) {
  if (b < 0 || b > 62) refuse("shift count out of range 0..62");
  if (!left) return a >> b;
  if (a < 0 || a > (std::numeric_limits<std::int64_t>::max() >> b)) refuse("integer overflow");
  return a << b;
}
// Exponentiation by squaring: at most 63 steps whatever b, every product checked.
std::int64_t ipow(std::int64_t a, std::int64_t b) {
  if (a == 0 || a == 1) return b == 0 ? 1 : a;
  if (a == -1) return b % 2 == 0 ? 1 : -1;
  std::int64_t r = 1;
  while (b > 0) {
    if (b & 1) r = mul(r, a);
    b >>= 1;
    if (b > 0) a = mul(a, a);
  }
  return r;
}

bool is_compare(const std::string& op) {
  return op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=";
}

// The six comparisons, one home for integers and floats (true as 1).
template <class T>
std::int64_t compare(const std::string& op, T a, T b) {
  if (op == "<") return a < b;
  if (op == ">") return a > b;
  if (op == "<=") return a <= b;
  if (op == ">=") return a >= b;
  if (op == "==") return a == b;
  return a != b;
}

std::int64_t int_op(const std::string& op, std::int64_t a, std::int64_t b, bool python) {
  if (op == "+") return add(a, b);
  if (op == "-") return sub(a, b);
  if (op == "*") return mul(a, b);
  if (op == "//") return python ? floordiv(a, b) : cdivide(a, b);
  if (op == "%") return python ? pymod(a, b) : cmod(a, b);
  if (op == "&") return a & b;
  if (op == "|") return a | b;
  if (op == "^") return a ^ b;
  if (op == "<<") return shift(a, b, true);
  if (op == ">>") return shift(a, b, false);
  if (op == "**") {
    if (b < 0) refuse("a negative integer power");
    return ipow(a, b);
  }
  if (is_compare(op)) return compare(op, a, b);
  refuse("the operator " + op + " is not supported on integers");
}

double float_op(const std::string& op, double a, double b) {
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/") return a / b;
  if (op == "//") return std::floor(a / b);
  if (op == "%") return a - std::floor(a / b) * b;
  if (op == "**") return std::pow(a, b);
  if (is_compare(op)) return compare(op, a, b);
  refuse("the operator " + op + " is not supported on floats");
}

bool is_py_scalar(const Value& v) {
  return v.is<std::int64_t>() || v.is<double>() || v.is<bool>();
}

}  // namespace

void check_lanes(const Shape& s) {
  if (s.size() > 2) refuse("tiles of rank " + std::to_string(s.size()) + " are not supported yet");
  std::int64_t n = 1;
  for (auto d : s) {
    if (d < 1) refuse("tile of shape " + to_string(s) + ": every size must be at least 1");
    if (d > kMaxTileLanes) refuse("tile of shape " + to_string(s) + " is too large");
    n *= d;
    if (n > kMaxTileLanes)
      refuse("tile of shape " + to_string(s) + " has more than " + std::to_string(kMaxTileLanes) +
             " lanes");
  }
}

Elem promote(Elem a, Elem b) {
  if ((a == Elem::f16 && b == Elem::bf16) || (a == Elem::bf16 && b == Elem::f16)) return Elem::f32;
  return promotion_rank(a) >= promotion_rank(b) ? a : b;
}

Tile filled(const Shape& shape, Elem e, std::int64_t v) {
  check_lanes(shape);
  Tile t;
  t.shape = shape;
  t.elem = e;
  t.known = !is_float(e);
  if (t.known) t.ints.assign(static_cast<std::size_t>(t.lanes()), v);
  return t;
}

Tile as_tile(const Value& v) {
  if (const auto* t = v.get<Tile>()) return *t;
  Tile t;
  if (const auto* i = v.get<std::int64_t>()) {
    const bool fits = *i >= std::numeric_limits<std::int32_t>::min() &&
                      *i <= std::numeric_limits<std::int32_t>::max();
    t.elem = fits ? Elem::i32 : Elem::i64;
    t.ints = {*i};
  } else if (const auto* b = v.get<bool>()) {
    t.elem = Elem::i1;
    t.ints = {*b ? 1 : 0};
  } else if (v.is<double>()) {
    t.elem = Elem::f32;
    t.known = false;
  } else {
    refuse("expected a number or a tile, found " + describe(v));
  }
  return t;
}

bool is_scalar(const Value& v) {
  if (is_py_scalar(v)) return true;
  const auto* t = v.get<Tile>();
  return t && t->shape.empty();
}

bool truth(const Value& v) {
  if (const auto* b = v.get<bool>()) return *b;
  if (const auto* i = v.get<std::int64_t>()) return *i != 0;
  if (const auto* d = v.get<double>()) return *d != 0;
  if (v.is<NoneV>()) return false;
  if (const auto* t = v.get<Tile>()) {
    if (!t->shape.empty() && t->lanes() != 1)
      refuse("the truth value of a tile of shape " + to_string(t->shape) + " is ambiguous");
    if (!t->known) refuse("this condition depends on loaded data, which the simulator never has");
    return t->ints[0] != 0;
  }
  refuse("the truth value of " + describe(v) + " is not defined here");
}

std::int64_t as_int(const Value& v, const char* what) {
  if (const auto* i = v.get<std::int64_t>()) return *i;
  if (const auto* b = v.get<bool>()) return *b;
  if (const auto* t = v.get<Tile>(); t && t->shape.empty() && t->known && !is_float(t->elem))
    return t->ints[0];
  refuse(std::string(what) + " must be an integer known at this point, found " + describe(v));
}

namespace {

// A source tile's steps along the (rows, cols) of a rank <= 2 output it broadcasts into: 0 on
// an axis it lacks or has length 1 on, so lane (i, j) of the output reads i * rs + j * cs.
std::pair<std::int64_t, std::int64_t> steps_into(const Shape& src, const Shape& out) {
  const std::int64_t rows = src.size() == 2 ? src[0] : 1;
  const std::int64_t cols = src.empty() ? 1 : src.back();
  const bool out2 = out.size() == 2;
  const std::int64_t cs = cols == 1 ? 0 : 1;
  const std::int64_t rs = out2 && rows != 1 ? cols : 0;
  return {rs, cs};
}

}  // namespace

Tile broadcast_to(const Tile& t, const Shape& shape) {
  Shape s;
  if (!broadcast_shape(t.shape, shape, &s) || s != shape)
    refuse("a tile of shape " + to_string(t.shape) + " does not broadcast to " + to_string(shape));
  if (t.shape == shape) return t;
  check_lanes(shape);
  Tile r = t;
  r.shape = shape;
  if (t.known) {
    // Rank <= 2: lane (i, j) reads the source at i * rs + j * cs (0 on a broadcast axis).
    const std::int64_t rows = shape.size() == 2 ? shape[0] : 1;
    const std::int64_t cols = lanes_of(shape) / std::max<std::int64_t>(rows, 1);
    const auto [rs, cs] = steps_into(t.shape, shape);
    r.ints.fresh(static_cast<std::size_t>(rows * cols));
    std::int64_t* o = r.ints.data();
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        *o++ = t.ints[static_cast<std::size_t>(i * rs + j * cs)];
  }
  return r;
}

Tile zip_shape(const Tile& a, const Tile& b, Elem out, ZipPlan* plan) {
  Shape s;
  if (!broadcast_shape(a.shape, b.shape, &s))
    refuse("shapes " + to_string(a.shape) + " and " + to_string(b.shape) + " do not broadcast");
  check_lanes(s);
  Tile r;
  r.shape = s;
  r.elem = out;
  r.known = a.known && b.known && !is_float(out);
  const std::int64_t n = lanes_of(s);
  plan->rows = s.size() == 2 ? s[0] : 1;
  plan->cols = n / std::max<std::int64_t>(plan->rows, 1);
  std::tie(plan->a_rs, plan->a_cs) = steps_into(a.shape, s);
  std::tie(plan->b_rs, plan->b_cs) = steps_into(b.shape, s);
  return r;
}

Value binary_op(const std::string& op, const Value& a, const Value& b) {
  if (op == "@") refuse("the @ operator is not supported: use tl.dot");
  if (is_py_scalar(a) && is_py_scalar(b)) {
    const bool floats = a.is<double>() || b.is<double>();
    if (floats || op == "/") {
      const auto f = [](const Value& v) {
        if (const auto* d = v.get<double>()) return *d;
        if (const auto* i = v.get<std::int64_t>()) return static_cast<double>(*i);
        return *v.get<bool>() ? 1.0 : 0.0;
      };
      if (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>")
        refuse("the operator " + op + " is not defined on floats");
      const double r = float_op(op, f(a), f(b));
      if (is_compare(op)) return Value{r != 0};
      return Value{r};
    }
    const std::int64_t x = as_int(a, "operand"), y = as_int(b, "operand");
    if (op == "**" && y < 0) return Value{std::pow(double(x), double(y))};
    const std::int64_t r = int_op(op, x, y, /*python=*/true);
    if (is_compare(op)) return Value{r != 0};
    if (a.is<bool>() && b.is<bool>() && (op == "&" || op == "|" || op == "^")) return Value{r != 0};
    return Value{r};
  }
  if (!(a.is<Tile>() || is_py_scalar(a)) || !(b.is<Tile>() || is_py_scalar(b)))
    refuse("the operator " + op + " is not defined between " + describe(a) + " and " + describe(b));
  const Tile ta = as_tile(a), tb = as_tile(b);
  // A Python scalar takes the tile's integer type (Triton's weak typing of literals).
  Elem e;
  if (is_py_scalar(a) && !is_float(tb.elem) && !a.is<double>())
    e = tb.elem == Elem::i1 ? promote(ta.elem, tb.elem) : tb.elem;
  else if (is_py_scalar(b) && !is_float(ta.elem) && !b.is<double>())
    e = ta.elem == Elem::i1 ? promote(ta.elem, tb.elem) : ta.elem;
  else
    e = promote(ta.elem, tb.elem);
  const bool flt = is_float(e);
  if (flt && (op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>"))
    refuse("the operator " + op + " is not defined on float tiles");
  if (op == "/" && !flt) e = Elem::f32;
  const Elem out = is_compare(op) ? Elem::i1 : e;
  if (flt || op == "/") {
    ZipPlan z;
    Tile r = zip_shape(ta, tb, out, &z);  // unknown lanes: only the shape is computed
    r.known = false;
    r.ints.clear();
    return Value{r};
  }
  // The common operators as their own loops; the rest through int_op (string dispatch).
  if (op == "+")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return add(x, y); })};
  if (op == "-")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return sub(x, y); })};
  if (op == "*")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return mul(x, y); })};
  if (op == "<")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return x < y; })};
  if (op == "&")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return x & y; })};
  if (op == "%")
    return Value{zip(ta, tb, out, [](std::int64_t x, std::int64_t y) { return cmod(x, y); })};
  return Value{zip(ta, tb, out, [&](std::int64_t x, std::int64_t y) {
    return int_op(op, x, y, /*python=*/false);
  })};
}

Value pointer_op(const std::string& op, const PtrTile& p, const Value& offset) {
  if (op != "+" && op != "-")
    refuse("the operator " + op + " is not defined on a pointer: only + and - an offset");
  if (!(offset.is<Tile>() || offset.is<std::int64_t>() || offset.is<bool>()))
    refuse("a pointer moves by integer offsets, not by " + describe(offset));
  const Tile o = as_tile(offset);
  if (is_float(o.elem)) refuse("a pointer moves by integer offsets, not by floats");
  if (!o.known) refuse("this address depends on loaded data, which the simulator never has");
  PtrTile r;  // not a copy of p: its lanes would be overwritten at once
  r.tensor = p.tensor;
  r.offsets =
      op == "+"
          ? zip(p.offsets, o, Elem::i64, [](std::int64_t x, std::int64_t y) { return add(x, y); })
          : zip(p.offsets, o, Elem::i64, [](std::int64_t x, std::int64_t y) { return sub(x, y); });
  return Value{r};
}

Value unary_op(const std::string& op, const Value& a) {
  if (op == "not") return Value{!truth(a)};
  if (op == "+") {
    if (is_py_scalar(a) || a.is<Tile>()) return a;
  }
  if (const auto* i = a.get<std::int64_t>()) {
    if (op == "-") return Value{sub(0, *i)};
    if (op == "~") return Value{~*i};
  }
  if (const auto* b = a.get<bool>()) {
    if (op == "-") return Value{std::int64_t{*b ? -1 : 0}};
    if (op == "~") return Value{std::int64_t{*b ? -2 : -1}};
  }
  if (const auto* d = a.get<double>()) {
    if (op == "-") return Value{-*d};
  }
  if (const auto* t = a.get<Tile>()) {
    Tile r = *t;
    r.origin = -1;
    if (!r.known) return Value{r};
    if (op == "~" && is_float(t->elem)) refuse("~ is not defined on float tiles");
    for (auto& x : r.ints) x = op == "-" ? sub(0, x) : (t->elem == Elem::i1 ? !x : ~x);
    return Value{r};
  }
  refuse("the operator " + op + " is not defined on " + describe(a));
}

}  // namespace tilesim::triton
