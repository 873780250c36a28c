// L2 model: per-line state in a flat array indexed by line number (addresses are dense, so no
// hashing), LRU by stamps. Fully associative: an append-only queue of (line, stamp) touches; the
// oldest entry whose stamp still matches its line is the LRU line (amortised O(1), one random
// memory access per touch instead of the three a linked list needs).
#include "sim/l2_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tilesim::sim {
namespace {

constexpr std::uint32_t kNoLine = 0xFFFFFFFFu;
constexpr int kPop[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

inline std::uint64_t stamp_of(std::uint64_t st) { return st >> 8; }
inline std::uint64_t queue_entry(std::uint64_t line, std::uint64_t stamp) {
  return line | (stamp << 32);  // low 32 bits of the stamp; stale entries die long before wrap
}

}  // namespace

AccessResult& AccessResult::operator+=(const AccessResult& o) {
  hit_sectors += o.hit_sectors;
  miss_sectors += o.miss_sectors;
  evicted_lines += o.evicted_lines;
  evicted_sectors += o.evicted_sectors;
  writeback_sectors += o.writeback_sectors;
  return *this;
}

L2Cache::L2Cache(std::uint64_t address_space_bytes, std::int64_t capacity_bytes, int ways)
    : m_capacity_lines(capacity_bytes / kLineBytes), m_ways(ways) {
  const std::uint64_t lines = (address_space_bytes + kLineBytes - 1) / kLineBytes;
  if (lines >= kNoLine) throw std::invalid_argument("L2Cache: address space over 512 GiB");
  if (m_capacity_lines < 1) throw std::invalid_argument("L2Cache: capacity below one line");
  m_state.assign(lines, 0);
  if (m_ways > 0) {
    m_sets = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(m_capacity_lines) / m_ways);
    m_capacity_lines = static_cast<std::int64_t>(m_sets) * m_ways;
    m_way_line.assign(m_sets * m_ways, kNoLine);
  } else {
    // Compaction reads the state of every entry: leave room for ~8 touches per resident line
    // between two compactions so that it costs about one extra look-up per 7 touches.
    m_queue_limit = 8 * static_cast<std::size_t>(std::min<std::uint64_t>(m_capacity_lines, lines)) + 4096;
    m_queue.reserve(m_queue_limit);
  }
}

void L2Cache::evict_line(std::uint64_t line, AccessResult* r) {
  const std::uint64_t st = m_state[line];
  r->evicted_lines += 1;
  r->evicted_sectors += kPop[st & 0xF];
  r->writeback_sectors += kPop[(st >> 4) & 0xF];
  m_state[line] = 0;
  --m_resident;
}

void L2Cache::evict_from_queue(AccessResult* r) {
  for (;;) {
    const std::uint64_t e = m_queue[m_queue_head++];
    const std::uint64_t line = e & 0xFFFFFFFFu;
    const std::uint64_t st = m_state[line];
    if ((st & 0xF) != 0 && static_cast<std::uint32_t>(stamp_of(st)) == (e >> 32)) {
      evict_line(line, r);
      return;
    }
  }
}

void L2Cache::compact_queue() {
  std::size_t out = 0;
  const std::size_t n = m_queue.size();
  for (std::size_t i = m_queue_head; i < n; ++i) {
    if (i + 16 < n) prefetch((m_queue[i + 16] & 0xFFFFFFFFu) * kLineBytes);
    const std::uint64_t e = m_queue[i];
    const std::uint64_t st = m_state[e & 0xFFFFFFFFu];
    if ((st & 0xF) != 0 && static_cast<std::uint32_t>(stamp_of(st)) == (e >> 32))
      m_queue[out++] = e;
  }
  m_queue.resize(out);
  m_queue_head = 0;
}

void L2Cache::evict_from_set(std::uint64_t set, AccessResult* r, std::uint32_t* way_out) {
  std::uint32_t* ways = &m_way_line[set * m_ways];
  int victim = 0;
  std::uint64_t oldest = ~std::uint64_t{0};
  for (int w = 0; w < m_ways; ++w) {
    if (ways[w] == kNoLine) {
      *way_out = static_cast<std::uint32_t>(w);
      return;
    }
    const std::uint64_t s = stamp_of(m_state[ways[w]]);
    if (s < oldest) oldest = s, victim = w;
  }
  evict_line(ways[victim], r);
  ways[victim] = kNoLine;
  *way_out = static_cast<std::uint32_t>(victim);
}

inline unsigned L2Cache::touch_line(std::uint64_t line, unsigned mask, bool write,
                                    AccessResult* r) {
  const std::uint64_t st = m_state[line];
  unsigned valid = st & 0xF, dirty = (st >> 4) & 0xF;
  unsigned out;
  if (valid != 0) {
    out = kPop[mask & valid] | (kPop[mask & ~valid & 0xF] << 16);
  } else {
    out = kPop[mask] << 16;
    if (m_ways == 0) {
      if (m_resident == m_capacity_lines) evict_from_queue(r);
    } else {
      const std::uint64_t set = ((line * 0x9E3779B97F4A7C15ull) >> 32) % m_sets;
      std::uint32_t way = 0;
      evict_from_set(set, r, &way);
      m_way_line[set * m_ways + way] = static_cast<std::uint32_t>(line);
    }
    ++m_resident;
  }
  valid |= mask;
  if (write) dirty |= mask;
  ++m_clock;
  m_state[line] = (m_clock << 8) | (dirty << 4) | valid;
  if (m_ways == 0) {
    m_queue.push_back(queue_entry(line, m_clock));
    if (m_queue.size() >= m_queue_limit) compact_queue();
  }
  return out;
}

namespace {
// Sector mask of bytes [lb, le) inside one line (1 <= le - lb <= 128).
inline unsigned sector_mask(std::uint64_t lb, std::uint64_t le) {
  const unsigned s0 = (lb / 32) & 3, s1 = ((le - 1) / 32) & 3;
  return ((2u << s1) - 1) & ~((1u << s0) - 1);
}
}  // namespace

void L2Cache::access(std::uint64_t begin, std::uint64_t end, bool write, AccessResult* r) {
  const std::uint64_t first = begin / kLineBytes, last = (end - 1) / kLineBytes;
  std::uint64_t hits = 0, misses = 0;
  for (std::uint64_t line = first; line <= last; ++line) {
    const std::uint64_t lb = std::max(begin, line * kLineBytes);
    const std::uint64_t le = std::min(end, (line + 1) * kLineBytes);
    const unsigned hm = touch_line(line, sector_mask(lb, le), write, r);
    hits += hm & 0xFFFF;
    misses += hm >> 16;
  }
  r->hit_sectors += static_cast<std::int32_t>(hits);
  r->miss_sectors += static_cast<std::int32_t>(misses);
}

void L2Cache::access_rows(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
                          std::uint64_t run_bytes, bool write, AccessResult* r) {
  if (rows <= 0 || run_bytes == 0) return;
  if (row_stride % kLineBytes != 0 || run_bytes > 64 * kLineBytes) {
    for (std::int64_t i = 0; i < rows; ++i)
      access(first + static_cast<std::uint64_t>(i) * row_stride,
             first + static_cast<std::uint64_t>(i) * row_stride + run_bytes, write, r);
    return;
  }
  // Every row has the same lines (relative to its first) and the same sector masks.
  const std::uint64_t off = first % kLineBytes;
  const int lines = static_cast<int>((off + run_bytes - 1) / kLineBytes + 1);
  unsigned masks[64];
  for (int j = 0; j < lines; ++j) {
    const std::uint64_t lb = std::max<std::uint64_t>(off, j * kLineBytes);
    const std::uint64_t le = std::min<std::uint64_t>(off + run_bytes, (j + 1) * kLineBytes);
    masks[j] = sector_mask(lb, le);
  }
  const std::uint64_t line0 = first / kLineBytes, stride = row_stride / kLineBytes;
  // Rows are far apart: prefetch the line state of row i + kAhead while row i is processed.
  constexpr std::int64_t kAhead = 12;
  for (std::int64_t i = 0; i < std::min(kAhead, rows); ++i) prefetch((line0 + i * stride) * kLineBytes);
  std::uint64_t hits = 0, misses = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    if (i + kAhead < rows) prefetch((line0 + (i + kAhead) * stride) * kLineBytes);
    const std::uint64_t row_line = line0 + static_cast<std::uint64_t>(i) * stride;
    for (int j = 0; j < lines; ++j) {
      const unsigned hm = touch_line(row_line + j, masks[j], write, r);
      hits += hm & 0xFFFF;
      misses += hm >> 16;
    }
  }
  r->hit_sectors += static_cast<std::int32_t>(hits);
  r->miss_sectors += static_cast<std::int32_t>(misses);
}

std::int64_t L2Cache::resident_sectors(std::uint64_t begin, std::uint64_t end) const {
  std::int64_t n = 0;
  const std::uint64_t first = begin / kLineBytes, last = (end - 1) / kLineBytes;
  for (std::uint64_t line = first; line <= last; ++line) {
    const unsigned valid = m_state[line] & 0xF;
    if (valid == 0) continue;
    const std::uint64_t lb = std::max(begin, line * kLineBytes);
    const std::uint64_t le = std::min(end, (line + 1) * kLineBytes);
    const unsigned s0 = (lb / kSectorBytes) & 3, s1 = ((le - 1) / kSectorBytes) & 3;
    n += kPop[valid & ((2u << s1) - 1) & ~((1u << s0) - 1)];
  }
  return n;
}

std::vector<L2LineState> L2Cache::save() const {
  std::vector<L2LineState> out;
  out.reserve(static_cast<std::size_t>(m_resident));
  const auto add = [&](std::uint64_t line) {
    const std::uint64_t st = m_state[line];
    out.push_back({static_cast<std::uint32_t>(line), static_cast<std::uint8_t>(st & 0xF),
                   static_cast<std::uint8_t>((st >> 4) & 0xF)});
  };
  if (m_ways == 0) {
    for (std::size_t i = m_queue_head; i < m_queue.size(); ++i) {
      const std::uint64_t e = m_queue[i], line = e & 0xFFFFFFFFu;
      const std::uint64_t st = m_state[line];
      if ((st & 0xF) != 0 && static_cast<std::uint32_t>(stamp_of(st)) == (e >> 32)) add(line);
    }
  } else {
    std::vector<std::uint32_t> lines;
    for (const auto l : m_way_line)
      if (l != kNoLine) lines.push_back(l);
    std::sort(lines.begin(), lines.end(), [&](std::uint32_t a, std::uint32_t b) {
      return stamp_of(m_state[a]) < stamp_of(m_state[b]);
    });
    for (const auto l : lines) add(l);
  }
  return out;
}

void L2Cache::restore(const std::vector<L2LineState>& lines) {
  for (const auto& l : save()) m_state[l.line] = 0;
  m_resident = 0;
  m_clock = 0;
  m_queue.clear();
  m_queue_head = 0;
  std::fill(m_way_line.begin(), m_way_line.end(), kNoLine);
  AccessResult ignored;
  for (const auto& l : lines) {
    // Re-touch in LRU order: the same lines, masks and recency order as when saved.
    const bool write = l.dirty != 0;
    touch_line(l.line, l.valid, false, &ignored);
    if (write) m_state[l.line] |= static_cast<std::uint64_t>(l.dirty) << 4;
  }
}

std::int64_t L2Cache::flush() {
  std::int64_t n = 0;
  for (const auto& l : save()) {
    n += kPop[l.dirty];
    m_state[l.line] &= ~std::uint64_t{0xF0};
  }
  return n;
}

}  // namespace tilesim::sim
