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
// A tile whose every lane is f(lanes...) after broadcasting a and b together (known lanes only).
Tile zip(const Tile& a, const Tile& b, Elem out,
         const std::function<std::int64_t(std::int64_t, std::int64_t)>& f);
// The tile broadcast to `shape` (materialised), or OpError.
Tile broadcast_to(const Tile& t, const Shape& shape);
// A new tile of `shape` filled with `v` (known) or unknown floats.
Tile filled(const Shape& shape, Elem e, std::int64_t v = 0);
void check_lanes(const Shape& s);
Elem promote(Elem a, Elem b);

}  // namespace tilesim::triton
