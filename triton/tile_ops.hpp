// Elementwise arithmetic on values with Python's and Triton's rules: Python integers divide and
// take remainders with floor semantics, tiles (and runtime scalars, which are 0-d tiles) with C's
// truncation, as Triton's lowering does; integer overflow is refused rather than wrapped.
#pragma once

#include <functional>
#include <string>

#include "triton/value.hpp"

namespace tilesim::triton {

// Refusals raised below carry no position; the caller attaches the expression's.
struct OpError {
  std::string message;
};

// op: + - * / // % ** & | ^ << >> < > <= >= == !=
Value binary_op(const std::string& op, const Value& a, const Value& b);
Value unary_op(const std::string& op, const Value& a);
// ptr + offset, ptr - offset: the pointer tile moved by known integer offsets (broadcast).
Value pointer_op(const std::string& op, const PtrTile& p, const Value& offset);
// A Python scalar (or a tile) as a tile: int -> int32 (int64 if it does not fit), float ->
// float32, bool -> int1.
Tile as_tile(const Value& v);
bool is_scalar(const Value& v);  // a Python int/float/bool or a 0-d tile
// Python truthiness of a scalar whose value is known; OpError otherwise.
bool truth(const Value& v);
// The integer of a Python int or a known 0-d integer tile; OpError otherwise.
std::int64_t as_int(const Value& v, const char* what);
// The tile a op b produces before its lanes are filled: the broadcast shape, `out`, known when
// both are; (*rows, *cols) its lanes as a matrix and each source's (row, col) steps into it.
struct ZipPlan {
  std::int64_t rows = 1, cols = 1;
  std::int64_t a_rs = 0, a_cs = 0, b_rs = 0, b_cs = 0;
};
Tile zip_shape(const Tile& a, const Tile& b, Elem out, ZipPlan* plan);
// A tile whose every lane is f(lanes...) after broadcasting a and b together (known lanes only).
// A template so that the per-lane call inlines: offsets of 128 x 64 tiles are computed every
// K step of every program the bridge checks.
template <class F>
Tile zip(const Tile& a, const Tile& b, Elem out, F&& f) {
  ZipPlan z;
  Tile r = zip_shape(a, b, out, &z);
  if (!r.known) return r;
  r.ints.fresh(static_cast<std::size_t>(z.rows * z.cols));
  std::int64_t* o = r.ints.data();
  for (std::int64_t i = 0; i < z.rows; ++i) {
    const std::int64_t* pa = a.ints.data() + i * z.a_rs;
    const std::int64_t* pb = b.ints.data() + i * z.b_rs;
    if (z.a_cs == 1 && z.b_cs == 1)
      for (std::int64_t j = 0; j < z.cols; ++j) *o++ = f(pa[j], pb[j]);
    else
      for (std::int64_t j = 0; j < z.cols; ++j) *o++ = f(pa[j * z.a_cs], pb[j * z.b_cs]);
  }
  return r;
}
// The tile broadcast to `shape` (materialised), or OpError.
Tile broadcast_to(const Tile& t, const Shape& shape);
// A new tile of `shape` filled with `v` (known) or unknown floats.
Tile filled(const Shape& shape, Elem e, std::int64_t v = 0);
void check_lanes(const Shape& s);
Elem promote(Elem a, Elem b);

}  // namespace tilesim::triton
