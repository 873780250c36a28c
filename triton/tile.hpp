// Tiles: the values a Triton program computes with — 0-d, 1-d or 2-d blocks of integers, booleans
// or floats, combined with NumPy's broadcasting (shape (4, 1) op shape (1, 4) -> (4, 4)).
// Integer and boolean lanes carry their values (offsets and masks are what the simulator needs);
// float lanes carry only shape and dtype: what a load returns is data the simulator never has.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
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

// A tile's integer lanes, shared between copies until one of them writes (copy on write).
// Reading a name copies its value, and the bridge reads pointer tiles of 128 x 64 lanes at every
// K step of every program it checks: without sharing, those copies were a quarter of its time.
// Reads never copy; any non-const access (operator[], data(), begin()) first makes the lanes
// this tile's own.
class Lanes {
 public:
  using value_type = std::int64_t;
  using iterator = std::int64_t*;
  using const_iterator = const std::int64_t*;

  Lanes() = default;
  Lanes(std::initializer_list<std::int64_t> v) { *this = v; }
  Lanes& operator=(std::initializer_list<std::int64_t> v) {
    fresh(v.size());
    std::copy(v.begin(), v.end(), m_p.get());
    return *this;
  }
  std::size_t size() const { return m_n; }
  bool empty() const { return m_n == 0; }
  const std::int64_t* data() const { return m_p.get(); }
  std::int64_t* data() { return own(); }
  const std::int64_t& operator[](std::size_t i) const { return m_p[i]; }
  std::int64_t& operator[](std::size_t i) { return own()[i]; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + m_n; }
  iterator begin() { return data(); }
  iterator end() { return data() + m_n; }
  // n lanes of this tile's own whose values the caller writes next (not zeroed: every lane of
  // a computed tile is written, and zeroing 64 KiB first cost a tenth of the front end's time).
  void fresh(std::size_t n) {
    m_p = n ? std::make_shared_for_overwrite<std::int64_t[]>(n) : nullptr;
    m_n = n;
  }
  void assign(std::size_t n, std::int64_t v) {
    fresh(n);
    std::fill(m_p.get(), m_p.get() + n, v);
  }
  void clear() { fresh(0); }
  friend bool operator==(const Lanes& a, const std::vector<std::int64_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const Lanes& a, const Lanes& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::int64_t* own() {
    if (m_p && m_p.use_count() > 1) {
      auto mine = std::make_shared_for_overwrite<std::int64_t[]>(m_n);
      std::copy(m_p.get(), m_p.get() + m_n, mine.get());
      m_p = std::move(mine);
    }
    return m_p.get();
  }
  std::shared_ptr<std::int64_t[]> m_p;
  std::size_t m_n = 0;
};
std::string to_string(const Shape& s);  // "(64, 32)", "()"

struct Tile {
  Shape shape;
  Elem elem = Elem::i32;
  bool known = true;        // integer/boolean lanes hold values; floats never do
  Lanes ints;               // one per lane, row-major, when known
  int origin = -1;          // the load record this data came from (kept by trans, .to)
  bool transposed = false;  // trans() applied an odd number of times since that load

  std::int64_t lanes() const;
  std::int64_t at(std::int64_t i) const { return ints[static_cast<std::size_t>(i)]; }
};

// The shape a op b broadcasts to in *out; false where the shapes do not broadcast.
bool broadcast_shape(const Shape& a, const Shape& b, Shape* out);
// Lane index in `src` of lane `i` of a tile of shape `to` that `src` broadcasts into.
std::int64_t broadcast_index(const Shape& src, const Shape& to, std::int64_t i);
std::int64_t lanes_of(const Shape& s);

}  // namespace tilesim::triton
