// L2 model: per-line state in a flat array of 4-byte words indexed by line number (addresses are
// dense, so no hashing). Fully associative LRU: an append-only queue of touched lines plus a
// bitmap of live entries; the oldest live entry is the LRU line (amortised O(1), one random
// memory access per touch instead of the three a linked list needs). Set associative: per-way
// stamps.
#include "sim/memory/l2_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tilesim::sim {
namespace {

constexpr std::uint32_t kNoLine = 0xFFFFFFFFu;
constexpr int kPop[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
constexpr std::size_t kMaxQueue = std::size_t{1} << 24;  // queue positions fit 24 bits

inline std::uint64_t set_of(std::uint64_t line, std::uint64_t sets) {
  return ((line * 0x9E3779B97F4A7C15ull) >> 32) % sets;
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
    m_way_stamp.assign(m_sets * m_ways, 0);
  } else {
    const std::uint64_t live = std::min<std::uint64_t>(m_capacity_lines, lines);
    if (live > static_cast<std::uint64_t>(kMaxAssociativeLines))
      throw std::invalid_argument(
          "L2Cache: a fully associative L2 holds at most 2^22 lines "
          "(512 MiB) of a problem this large; use l2_ways");
    // Compaction moves the live entries: leave room for ~8 touches per resident line between two
    // compactions so that it costs about one extra (sequential) pass per 7 touches.
    m_queue_limit = std::min<std::size_t>(8 * static_cast<std::size_t>(live) + 4096, kMaxQueue);
    m_queue.assign(m_queue_limit, 0);
    m_queue_masks.assign(m_queue_limit, 0);
    m_live.assign(m_queue_limit / 64 + 2, 0);
  }
}

void L2Cache::evict_line(std::uint64_t line, unsigned masks, AccessResult* r) {
  r->evicted_lines += 1;
  r->evicted_sectors += kPop[masks & 0xF];
  r->writeback_sectors += kPop[(masks >> 4) & 0xF];
  m_state[line] = 0;
  --m_resident;
}

std::uint64_t L2Cache::first_live(std::size_t from) const {
  std::size_t w = from / 64;
  std::uint64_t bits = m_live[w] & (~std::uint64_t{0} << (from % 64));
  while (bits == 0) bits = m_live[++w];
  return w * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits));
}

void L2Cache::make_room(AccessResult* r) {
  if (m_resident == m_capacity_lines) evict_from_queue(r);
  ++m_resident;
}

void L2Cache::evict_from_queue(AccessResult* r) {
  const std::uint64_t pos = first_live(m_queue_head);
  m_live[pos / 64] &= ~(std::uint64_t{1} << (pos % 64));
  m_queue_head = pos + 1;
  evict_line(m_queue[pos], m_queue_masks[pos], r);
}

void L2Cache::compact_queue() {
  std::uint32_t out = 0;
  const std::size_t n = m_queue_tail;
  for (std::size_t w = m_queue_head / 64; w * 64 < n; ++w) {
    std::uint64_t bits = m_live[w];
    if (w == m_queue_head / 64) bits &= ~std::uint64_t{0} << (m_queue_head % 64);
    while (bits) {
      const std::size_t pos = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
      const std::uint32_t line = m_queue[pos];
      const std::uint8_t masks = m_queue_masks[pos];
      bits &= bits - 1;
      m_queue[out] = line;
      m_queue_masks[out] = masks;
      m_state[line] = masks | (out << 8);
      ++out;
    }
  }
  m_queue_tail = out;
  m_queue_head = 0;
  std::fill(m_live.begin(), m_live.end(), 0);
  for (std::uint32_t w = 0; w < out / 64; ++w) m_live[w] = ~std::uint64_t{0};
  if (out % 64) m_live[out / 64] = (std::uint64_t{1} << (out % 64)) - 1;
}

void L2Cache::evict_from_set(std::uint64_t set, AccessResult* r, std::uint32_t* way_out) {
  std::uint32_t* ways = &m_way_line[set * m_ways];
  const std::uint64_t* stamps = &m_way_stamp[set * m_ways];
  int victim = 0;
  std::uint64_t oldest = ~std::uint64_t{0};
  for (int w = 0; w < m_ways; ++w) {
    if (ways[w] == kNoLine) {
      *way_out = static_cast<std::uint32_t>(w);
      return;
    }
    if (stamps[w] < oldest) oldest = stamps[w], victim = w;
  }
  evict_line(ways[victim], m_state[ways[victim]] & 0xFF, r);
  ways[victim] = kNoLine;
  *way_out = static_cast<std::uint32_t>(victim);
}

inline unsigned L2Cache::touch_line(std::uint64_t line, unsigned mask, bool write,
                                    AccessResult* r) {
  const std::uint32_t st = m_state[line];
  unsigned valid = st & 0xF, dirty = (st >> 4) & 0xF;
  unsigned out;
  std::uint32_t place;
  if (m_ways == 0) {
    if (valid != 0) {
      out = kPop[mask & valid] | (kPop[mask & ~valid & 0xF] << 16);
      const std::uint32_t old = st >> 8;
      m_live[old / 64] &= ~(std::uint64_t{1} << (old % 64));
    } else {
      out = kPop[mask] << 16;
      if (m_resident == m_capacity_lines) evict_from_queue(r);
      ++m_resident;
    }
    place = static_cast<std::uint32_t>(m_queue_tail++);
    m_queue[place] = static_cast<std::uint32_t>(line);
    m_live[place / 64] |= std::uint64_t{1} << (place % 64);
  } else {
    const std::uint64_t set = set_of(line, m_sets);
    if (valid != 0) {
      out = kPop[mask & valid] | (kPop[mask & ~valid & 0xF] << 16);
      place = st >> 8;
    } else {
      out = kPop[mask] << 16;
      evict_from_set(set, r, &place);
      m_way_line[set * m_ways + place] = static_cast<std::uint32_t>(line);
      ++m_resident;
    }
    m_way_stamp[set * m_ways + place] = ++m_clock;
  }
  valid |= mask;
  if (write) dirty |= mask;
  m_state[line] = (place << 8) | (dirty << 4) | valid;
  if (m_ways == 0) {
    m_queue_masks[place] = static_cast<std::uint8_t>((dirty << 4) | valid);
    if (m_queue_tail >= m_queue_limit) compact_queue();
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
  if (m_ways == 0) {
    if (lines == 1)
      access_rows_lru<1>(line0, stride, rows, masks, lines, write, r);
    else if (lines == 2)
      access_rows_lru<2>(line0, stride, rows, masks, lines, write, r);
    else
      access_rows_lru<0>(line0, stride, rows, masks, lines, write, r);
    return;
  }
  // Rows are far apart: prefetch the line state of row i + kAhead while row i is processed.
  constexpr std::int64_t kAhead = 12;
  for (std::int64_t i = 0; i < std::min(kAhead, rows); ++i)
    prefetch((line0 + i * stride) * kLineBytes);
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

template <int kLines>
void L2Cache::access_rows_lru(std::uint64_t line0, std::uint64_t stride, std::int64_t rows,
                              const unsigned* masks, int lines, bool write, AccessResult* r) {
  // touch_line's fully associative case, written for the common case (a hit) with everything in
  // locals: stores into the bitmap (64-bit words) may alias the size_t members as far as the
  // compiler knows, so it would otherwise reload them on every touch. A miss (the rare case)
  // takes the out-of-line path; it does not use the tail, which goes back to m_queue_tail before
  // a compaction and at the end. kLines > 0: the lines per row are known at compile time (tiles
  // of 1 or 2 lines per row: the inner loop unrolls and the masks stay in registers).
  const int n = kLines > 0 ? kLines : lines;
  std::uint32_t* const queue = m_queue.data();
  std::uint8_t* const queue_masks = m_queue_masks.data();
  std::uint64_t* const live = m_live.data();
  const std::size_t limit = m_queue_limit;
  std::size_t tail = m_queue_tail;
  // (lines,) what a touch ORs into the line's state: the requested sectors, and for a store the
  // same sectors dirty (bits 4-7).
  unsigned set_bits[64];
  std::uint64_t requested = 0;  // sectors per row
  for (int j = 0; j < n; ++j) {
    set_bits[j] = masks[j] | (write ? masks[j] << 4 : 0);
    requested += static_cast<std::uint64_t>(kPop[masks[j]]);
  }
  // Rows are far apart: prefetch the state of row i + kAhead while row i is processed.
  constexpr std::int64_t kAhead = 12;
  std::uint32_t* row = &m_state[line0];  // (lines,) the state of row i's lines
  for (std::int64_t i = 0; i < std::min(kAhead, rows); ++i)
    __builtin_prefetch(row + static_cast<std::uint64_t>(i) * stride, 1);
  const std::uint64_t ahead = kAhead * stride;
  std::uint64_t misses = 0;
  std::uint32_t line = static_cast<std::uint32_t>(line0);  // row i's first line
  for (std::int64_t i = 0; i < rows;
       ++i, row += stride, line += static_cast<std::uint32_t>(stride)) {
    if (i + kAhead < rows) __builtin_prefetch(row + ahead, 1);
    for (int j = 0; j < n; ++j) {
      const std::uint32_t st = row[j];
      if ((st & 0xF) != 0) {
        // Resident: requested sectors not yet valid miss (a line fills sector by sector); the
        // line's old queue entry dies.
        const unsigned missing = masks[j] & ~st & 0xF;
        if (missing != 0) misses += static_cast<std::uint64_t>(kPop[missing]);
        const std::uint32_t old = st >> 8;
        live[old / 64] &= ~(std::uint64_t{1} << (old % 64));
      } else {
        misses += static_cast<std::uint64_t>(kPop[masks[j]]);
        make_room(r);
      }
      const std::uint32_t masks_now = (st & 0xFF) | set_bits[j];
      queue[tail] = line + static_cast<std::uint32_t>(j);
      queue_masks[tail] = static_cast<std::uint8_t>(masks_now);
      live[tail / 64] |= std::uint64_t{1} << (tail % 64);
      row[j] = static_cast<std::uint32_t>(tail << 8) | masks_now;
      if (++tail == limit) {
        m_queue_tail = tail;
        compact_queue();
        tail = m_queue_tail;
      }
    }
  }
  m_queue_tail = tail;
  const std::uint64_t hits = requested * static_cast<std::uint64_t>(rows) - misses;
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
    const std::uint32_t st = m_state[line];
    out.push_back({static_cast<std::uint32_t>(line), static_cast<std::uint8_t>(st & 0xF),
                   static_cast<std::uint8_t>((st >> 4) & 0xF)});
  };
  if (m_ways == 0) {
    const std::size_t n = m_queue_tail;
    for (std::size_t w = m_queue_head / 64; w * 64 < n; ++w) {
      std::uint64_t bits = m_live[w];
      if (w == m_queue_head / 64) bits &= ~std::uint64_t{0} << (m_queue_head % 64);
      for (; bits; bits &= bits - 1)
        add(m_queue[w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))]);
    }
  } else {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> lines;  // (stamp, line)
    for (std::size_t i = 0; i < m_way_line.size(); ++i)
      if (m_way_line[i] != kNoLine) lines.emplace_back(m_way_stamp[i], m_way_line[i]);
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) add(l.second);
  }
  return out;
}

void L2Cache::restore(const std::vector<L2LineState>& lines) {
  for (const auto& l : save()) m_state[l.line] = 0;
  m_resident = 0;
  m_clock = 0;
  m_queue_tail = 0;
  m_queue_head = 0;
  std::fill(m_live.begin(), m_live.end(), 0);
  std::fill(m_way_line.begin(), m_way_line.end(), kNoLine);
  std::fill(m_way_stamp.begin(), m_way_stamp.end(), 0);
  AccessResult ignored;
  for (const auto& l : lines) {
    // Re-touch in LRU order: the same lines, masks and recency order as when saved.
    touch_line(l.line, l.valid, false, &ignored);
    m_state[l.line] |= static_cast<std::uint32_t>(l.dirty) << 4;
    if (m_ways == 0) m_queue_masks[m_state[l.line] >> 8] |= static_cast<std::uint8_t>(l.dirty << 4);
  }
}

std::int64_t L2Cache::flush() {
  std::int64_t n = 0;
  for (const auto& l : save()) {
    n += kPop[l.dirty];
    m_state[l.line] &= ~std::uint32_t{0xF0};
    if (m_ways == 0) m_queue_masks[m_state[l.line] >> 8] &= 0x0F;
  }
  return n;
}

}  // namespace tilesim::sim
