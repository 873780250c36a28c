// Element types and the broadcasting index arithmetic every elementwise operation shares.
#include "triton/tile.hpp"

#include <array>

#include "sim/base/enum_names.hpp"

namespace tilesim::triton {
namespace {

constexpr sim::enum_names::Table<Elem, 9> kElemNames{{{Elem::i1, "int1"},
                                                      {Elem::i8, "int8"},
                                                      {Elem::i16, "int16"},
                                                      {Elem::i32, "int32"},
                                                      {Elem::i64, "int64"},
                                                      {Elem::f16, "float16"},
                                                      {Elem::bf16, "bfloat16"},
                                                      {Elem::f32, "float32"},
                                                      {Elem::f64, "float64"}}};

// Bytes and promotion rank of each element type (the wider, or the float, wins a binary op).
struct ElemFacts {
  Elem elem;
  int bytes, rank;
};
constexpr std::array<ElemFacts, 9> kElemFacts{{{Elem::i1, 1, 0},
                                               {Elem::i8, 1, 1},
                                               {Elem::i16, 2, 2},
                                               {Elem::i32, 4, 3},
                                               {Elem::i64, 8, 4},
                                               {Elem::f16, 2, 5},
                                               {Elem::bf16, 2, 5},
                                               {Elem::f32, 4, 6},
                                               {Elem::f64, 8, 7}}};
constexpr const ElemFacts& facts(Elem e) {
  for (const auto& f : kElemFacts)
    if (f.elem == e) return f;
  return kElemFacts[3];
}

}  // namespace

std::string_view to_string(Elem e) {
  return sim::enum_names::name_of(kElemNames, e);
}
bool is_float(Elem e) {
  return facts(e).rank >= facts(Elem::f16).rank;
}
int elem_bytes(Elem e) {
  return facts(e).bytes;
}
int promotion_rank(Elem e) {
  return facts(e).rank;
}

std::string to_string(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

std::int64_t lanes_of(const Shape& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::int64_t Tile::lanes() const {
  return lanes_of(shape);
}

bool broadcast_shape(const Shape& a, const Shape& b, Shape* out) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape r(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    r[i] = da == 1 ? db : da;
  }
  *out = std::move(r);
  return true;
}

std::int64_t broadcast_index(const Shape& src, const Shape& to, std::int64_t i) {
  // Walk `to`'s axes from the last: the coordinate along each axis, kept where src has the
  // axis with its full length, dropped (0) where src has length 1 or lacks the axis.
  std::int64_t idx = 0, src_stride = 1;
  for (std::size_t a = to.size(); a-- > 0;) {
    const std::int64_t coord = i % to[a];
    i /= to[a];
    const std::size_t off = to.size() - src.size();
    if (a < off) continue;
    const std::int64_t len = src[a - off];
    if (len != 1) idx += coord * src_stride;
    src_stride *= len;
  }
  return idx;
}

}  // namespace tilesim::triton
