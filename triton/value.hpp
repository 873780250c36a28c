// What a name can hold while a Triton program runs: Python scalars and tuples, tiles, pointer
// tiles (a tensor argument plus element offsets), block pointers, dtypes, and the modules and
// functions of `tl` the subset knows.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "triton/tile.hpp"

namespace tilesim::triton {

struct NoneV {};
struct EllipsisV {};
struct Module {
  std::string name;  // "tl" (triton.language, tl.math), "triton"
};
struct Builtin {
  std::string name;  // "tl.load", "triton.cdiv", "min"
};
struct DTypeV {
  Elem elem = Elem::f32;
  bool pointer = false;  // a pointer's .dtype: its .element_ty is the element type
};
// A tile of pointers into tensor argument `tensor`: lane i points at element offsets.at(i).
struct PtrTile {
  int tensor = -1;
  Tile offsets;  // integer lanes, the tile's shape
};
// tl.make_block_ptr: a (rows, cols) window at `offsets` of a tensor seen with shape and strides.
struct BlockPtr {
  int tensor = -1;
  int rank = 2;
  std::array<std::int64_t, 2> shape{}, strides{}, offsets{}, block{};
};
struct RangeV {
  std::int64_t start = 0, stop = 0, step = 1;
};
struct Value;
using Tuple = std::shared_ptr<const std::vector<Value>>;
// x.to, x.trans: a method of a value, bound when called.
struct Method {
  std::string name;
  std::shared_ptr<const Value> self;
};

struct Value {
  std::variant<NoneV, std::int64_t, double, bool, std::string, Tuple, Tile, PtrTile, BlockPtr,
               DTypeV, Module, Builtin, RangeV, Method, EllipsisV>
      v;
  template <class T>
  const T* get() const {
    return std::get_if<T>(&v);
  }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(v);
  }
};

// "int", "tile (64, 64) of int32", "pointer tile (64, 64) into a_ptr": for messages.
std::string describe(const Value& v);

}  // namespace tilesim::triton
