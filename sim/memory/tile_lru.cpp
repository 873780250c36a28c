// TileLru: a touch of tile X with its first `a` lines evicted (lines [a, n) resident) and f free
// lines in the cache, as the line-by-line LRU does it: lines 0..a-1 miss, the first f of them
// take free places, the others each evict the LRU line; lines a..n-1 hit. The evictions take
// whole tiles from the old end of the list, then the front of the next one. If they reach X's
// own lines before its misses are done (X was the LRU tile), each further miss evicts X's next
// resident line, ahead of the touch, so every one of its n lines misses: X's old lines go, then
// newer tiles' lines, n - f evictions in all. (A tile never evicts the lines it has just
// appended: it has at most `capacity` lines.)
#include "sim/memory/tile_lru.hpp"

#include <algorithm>

namespace tilesim::sim {
namespace {

constexpr int kPop[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
constexpr std::uint64_t kLine = L2Cache::kLineBytes;

}  // namespace

TileLru::TileLru(std::uint64_t address_space_bytes, std::int64_t capacity_bytes)
    : m_capacity(capacity_bytes / L2Cache::kLineBytes) {
  m_owner.assign((address_space_bytes + kLine - 1) / kLine, kNone);
}

std::int64_t TileLru::sectors(const Tile& t, std::int64_t begin, std::int64_t end) const {
  if (end <= begin) return 0;
  if (t.per_row == 1) return (end - begin) * kPop[t.masks[0]];
  std::int64_t per_row = 0;
  for (int j = 0; j < t.per_row; ++j) per_row += kPop[t.masks[j]];
  const std::int64_t full = (end - begin) / t.per_row, rest = (end - begin) % t.per_row;
  std::int64_t n = full * per_row;
  for (std::int64_t q = 0; q < rest; ++q) n += kPop[t.masks[(begin + q) % t.per_row]];
  return n;
}

void TileLru::unlink(std::uint32_t i) {
  Tile& t = m_tiles[i];
  (t.older == kNone ? m_oldest : m_tiles[t.older].newer) = t.newer;
  (t.newer == kNone ? m_newest : m_tiles[t.newer].older) = t.older;
  t.older = t.newer = kNone;
}

void TileLru::link_newest(std::uint32_t i) {
  Tile& t = m_tiles[i];
  t.older = m_newest;
  t.newer = kNone;
  (m_newest == kNone ? m_oldest : m_tiles[m_newest].newer) = i;
  m_newest = i;
}

void TileLru::evict_front(std::uint32_t victim, std::int64_t k, AccessResult* r) {
  Tile& t = m_tiles[victim];
  const std::int64_t s = sectors(t, t.first_resident, t.first_resident + k);
  r->evicted_lines += static_cast<std::int32_t>(k);
  r->evicted_sectors += static_cast<std::int32_t>(s);
  if (t.store) r->writeback_sectors += static_cast<std::int32_t>(s);  // stores: all dirty
  t.first_resident += k;
  m_resident -= k;
  if (t.first_resident == t.lines) unlink(victim);
}

bool TileLru::touch(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
                    std::uint64_t run_bytes, bool write, AccessResult* r) {
  if (rows <= 0 || run_bytes == 0) return true;  // L2Cache::access_rows does nothing either
  if (m_flushed || first % kLine != 0 || row_stride % kLine != 0) return false;
  const std::uint64_t per_row = (run_bytes - 1) / kLine + 1;
  if (per_row > kMaxLinesPerRow) return false;
  const std::uint64_t line0 = first / kLine, stride = row_stride / kLine;
  if (rows > 1 && stride < per_row) return false;  // rows sharing lines
  const std::int64_t lines = rows * static_cast<std::int64_t>(per_row);
  if (lines > m_capacity) return false;
  std::uint8_t masks[kMaxLinesPerRow] = {};
  for (std::uint64_t j = 0; j < per_row; ++j) {
    const std::uint64_t lb = j * kLine, le = std::min(run_bytes, (j + 1) * kLine);
    const unsigned s0 = static_cast<unsigned>(lb / 32) & 3,
                   s1 = static_cast<unsigned>((le - 1) / 32) & 3;
    masks[j] = static_cast<std::uint8_t>(((2u << s1) - 1) & ~((1u << s0) - 1));
  }
  std::uint32_t x;
  const auto found = m_tile_of_first.find(line0);
  if (found == m_tile_of_first.end()) {
    // A new tile: none of its lines may belong to another one.
    const std::uint64_t last = line0 + static_cast<std::uint64_t>(rows - 1) * stride + per_row - 1;
    if (last >= m_owner.size()) return false;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::uint64_t j = 0; j < per_row; ++j)
        if (m_owner[line0 + static_cast<std::uint64_t>(i) * stride + j] != kNone) return false;
    x = static_cast<std::uint32_t>(m_tiles.size());
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::uint64_t j = 0; j < per_row; ++j)
        m_owner[line0 + static_cast<std::uint64_t>(i) * stride + j] = x;
    Tile t;
    t.first_line = line0;
    t.stride = stride;
    t.rows = rows;
    t.per_row = static_cast<int>(per_row);
    t.lines = lines;
    t.first_resident = lines;
    t.store = write;
    std::copy(masks, masks + kMaxLinesPerRow, t.masks);
    m_tiles.push_back(t);
    m_tile_of_first.emplace(line0, x);
  } else {
    x = found->second;
    const Tile& t = m_tiles[x];
    if (t.stride != stride || t.rows != rows || t.per_row != static_cast<int>(per_row) ||
        t.store != write || !std::equal(masks, masks + kMaxLinesPerRow, t.masks))
      return false;
  }
  const std::int64_t n = lines, a = m_tiles[x].first_resident;
  const std::int64_t free = m_capacity - m_resident;
  std::int64_t need = std::max<std::int64_t>(0, a - free), evicted = 0;
  bool self = false;
  while (need > 0) {
    const std::uint32_t v = m_oldest;
    if (v == x) {
      self = true;
      break;
    }
    const std::int64_t k = std::min(need, m_tiles[v].lines - m_tiles[v].first_resident);
    evict_front(v, k, r);
    need -= k;
    evicted += k;
  }
  std::int64_t missed = a;  // lines [0, missed) miss, the rest hit
  if (self) {
    missed = n;
    const std::int64_t own = n - a;
    evict_front(x, own, r);
    need = n - free - evicted - own;
    while (need > 0) {
      const std::uint32_t v = m_oldest;
      const std::int64_t k = std::min(need, m_tiles[v].lines - m_tiles[v].first_resident);
      evict_front(v, k, r);
      need -= k;
    }
  }
  Tile& t = m_tiles[x];
  r->hit_sectors += static_cast<std::int32_t>(sectors(t, missed, n));
  r->miss_sectors += static_cast<std::int32_t>(sectors(t, 0, missed));
  m_resident += missed;
  if (t.first_resident < t.lines) unlink(x);
  t.first_resident = 0;
  link_newest(x);
  return true;
}

std::int64_t TileLru::flush() {
  std::int64_t n = 0;
  if (!m_flushed)
    for (std::uint32_t i = m_oldest; i != kNone; i = m_tiles[i].newer) {
      const Tile& t = m_tiles[i];
      if (t.store) n += sectors(t, t.first_resident, t.lines);
    }
  m_flushed = true;
  return n;
}

std::vector<L2LineState> TileLru::save() const {
  std::vector<L2LineState> out;
  out.reserve(static_cast<std::size_t>(m_resident));
  for (std::uint32_t i = m_oldest; i != kNone; i = m_tiles[i].newer) {
    const Tile& t = m_tiles[i];
    for (std::int64_t l = t.first_resident; l < t.lines; ++l) {
      const std::uint64_t row = static_cast<std::uint64_t>(l / t.per_row);
      const int j = static_cast<int>(l % t.per_row);
      const std::uint8_t valid = t.masks[j];
      out.push_back({static_cast<std::uint32_t>(t.first_line + row * t.stride +
                                                static_cast<std::uint64_t>(j)),
                     valid, static_cast<std::uint8_t>(t.store && !m_flushed ? valid : 0)});
    }
  }
  return out;
}

}  // namespace tilesim::sim
