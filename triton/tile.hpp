// Tiles: the values a Triton program computes with — 0-d, 1-d or 2-d blocks of integers, booleans
// or floats, combined with NumPy's broadcasting (shape (4, 1) op shape (1, 4) -> (4, 4)).
// Integer and boolean lanes carry their values (offsets and masks are what the simulator needs);
// float lanes carry only shape and dtype: what a load returns is data the simulator never has.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::triton {

// Element types Triton names (tl.int1 ... tl.float64).
enum class Elem { i1, i8, i16, i32, i64, f16, bf16, f32, f64 };
std::string_view to_string(Elem e);  // "int32", "float16", ...
bool is_float(Elem e);
int elem_bytes(Elem e);
int promotion_rank(Elem e);  // int1 < int8 < ... < int64 < float16 = bfloat16 < float32 < float64

using Shape = std::vector<std::int64_t>;  // rank 0..2
std::string to_string(const Shape& s);    // "(64, 32)", "()"

struct Tile {
  Shape shape;
  Elem elem = Elem::i32;
  bool known = true;               // integer/boolean lanes hold values; floats never do
  std::vector<std::int64_t> ints;  // one per lane, row-major, when known
  int origin = -1;                 // the load record this data came from (kept by trans, .to)
  bool transposed = false;         // trans() applied an odd number of times since that load

  std::int64_t lanes() const;
  std::int64_t at(std::int64_t i) const { return ints[static_cast<std::size_t>(i)]; }
};

// The shape a op b broadcasts to in *out; false where the shapes do not broadcast.
bool broadcast_shape(const Shape& a, const Shape& b, Shape* out);
// Lane index in `src` of lane `i` of a tile of shape `to` that `src` broadcasts into.
std::int64_t broadcast_index(const Shape& src, const Shape& to, std::int64_t i);
std::int64_t lanes_of(const Shape& s);

}  // namespace tilesim::triton
