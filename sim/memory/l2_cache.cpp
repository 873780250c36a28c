// L2 model: per-line state in a flat array of 4-byte words indexed by line number (addresses are
// dense, so no hashing). Fully associative LRU: an append-only queue of touched lines plus a
// bitmap of live entries; the oldest live entry is the LRU line (amortised O(1), one random
// memory access per touch instead of the three a linked list needs). Set associative: per-way
// stamps.
#include "sim/memory/l2_cache.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tilesim::sim {
namespace {

constexpr std::uint32_t kNoLine = 0xFFFFFFFFu;
constexpr int kPop[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
constexpr std::size_t kMaxQueue = std::size_t{1} << 24;  // queue positions fit 24 bits

inline std::uint64_t set_of(std::uint64_t line, std::uint64_t sets) {
  return ((line * 0x9E3779B97F4A7C15ull) >> 32) % sets;
}

}  // namespace

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Large arrays are mapped fresh (the heap may hand back pages already touched as 4 KiB pages,
// which a later request for huge pages does not change).
bool mapped(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  return bytes >= kHugePage;
#else
  (void)bytes;
  return false;
#endif
}
}  // namespace

void* allocate_cache_array(std::size_t bytes) {
  if (!mapped(bytes)) return ::operator new(bytes, std::align_val_t{64});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Map one huge page more than needed and unmap the ends, so the array starts on a 2 MiB
  // boundary; then ask for huge pages before anything touches it.
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* m = mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const auto at = reinterpret_cast<std::uintptr_t>(m);
  const std::uintptr_t start = (at + kHugePage - 1) / kHugePage * kHugePage;
  if (start > at) munmap(m, start - at);
  if (start + rounded < at + rounded + kHugePage)
    munmap(reinterpret_cast<void*>(start + rounded), at + rounded + kHugePage - start - rounded);
  void* p = reinterpret_cast<void*>(start);
  madvise(p, rounded, MADV_HUGEPAGE);  // a hint: ignored where huge pages are off
  return p;
#else
  return nullptr;
#endif
}

void free_cache_array(void* p, std::size_t bytes) {
  if (!mapped(bytes)) {
    ::operator delete(p, std::align_val_t{64});
    return;
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  munmap(p, (bytes + kHugePage - 1) / kHugePage * kHugePage);
#endif
}

AccessResult& AccessResult::operator+=(const AccessResult& o) {
  hit_sectors += o.hit_sectors;
  miss_sectors += o.miss_sectors;
  evicted_lines += o.evicted_lines;
  evicted_sectors += o.evicted_sectors;
  writeback_sectors += o.writeback_sectors;
  return *this;
}

L2Cache::L2Cache(std::uint64_t address_space_bytes, std::int64_t capacity_bytes, int ways,
                 const std::vector<L2Region>& layout)
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
    for (const L2Region& g : layout) {
      if (g.base_bytes % kLineBytes != 0 || g.pitch_bytes % kLineBytes != 0 || g.rows == 0 ||
          g.pitch_bytes == 0)
        continue;
      Layout l;
      l.first = g.base_bytes / kLineBytes;
      l.pitch = g.pitch_bytes / kLineBytes;
      l.rows = g.rows;
      l.lines = l.pitch * l.rows;
      l.full_groups = l.rows / kGroupRows;
      l.last_rows = l.rows % kGroupRows;
      if (l.first + l.lines > lines || l.lines / l.rows != l.pitch) continue;
      const bool overlaps = std::any_of(m_layout.begin(), m_layout.end(), [&](const Layout& o) {
        return l.first < o.first + o.lines && o.first < l.first + l.lines;
      });
      if (!overlaps) m_layout.push_back(l);
    }
  }
}

std::uint64_t L2Cache::line_of(std::uint64_t slot) const {
  // Slots and lines of a region cover the same range, so the region is found the same way.
  const Layout* l = m_layout.empty() ? nullptr : layout_of(slot);
  if (l == nullptr) return slot;
  const std::uint64_t rel = slot - l->first, group_slots = kGroupRows * l->pitch;
  const std::uint64_t g = rel / group_slots, within = rel % group_slots;
  const std::uint64_t w = l->rows_in_group(g);
  return l->first + (g * kGroupRows + within % w) * l->pitch + within / w;
}

void L2Cache::evict_line(std::uint64_t slot, unsigned masks, AccessResult* r) {
  r->evicted_lines += 1;
  r->evicted_sectors += kPop[masks & 0xF];
  r->writeback_sectors += kPop[(masks >> 4) & 0xF];
  m_state[slot] = 0;
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

// The head of the queue was written about one compaction ago (~1.4 M touches at 8192^3), so it
// is out of the CPU's caches and each eviction stalled on its reads (perf: 12 % of the timed
// replay): the queue (16 entries per 64-byte line), its masks and the bitmap are prefetched
// kAheadEntries on (an eviction passes ~(tail - head) / resident <= 8 entries, so ~64 evictions
// early). Prefetching does not change what is evicted. (The prefetches are written here, not in a
// function of their own: GCC deletes calls to a function that only prefetches as side-effect free.)
void L2Cache::evict_from_queue(AccessResult* r) {
  const std::uint64_t pos = first_live(m_queue_head);
  m_live[pos / 64] &= ~(std::uint64_t{1} << (pos % 64));
  m_queue_head = pos + 1;
  constexpr std::size_t kAheadEntries = 512;
  const std::size_t ahead = std::min<std::size_t>(pos + kAheadEntries, m_queue_limit - 1);
  __builtin_prefetch(m_queue.data() + ahead, 0);
  __builtin_prefetch(m_queue_masks.data() + ahead, 0);
  __builtin_prefetch(m_live.data() + ahead / 64, 1);
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
      bits &= bits - 1;
      m_queue[out] = m_queue[pos];
      m_queue_masks[out] = m_queue_masks[pos];
      ++out;
    }
  }
  // Then the survivors' new places, in a second (sequential) pass over the compacted queue, so
  // that the random writes into m_state can be prefetched a fixed distance ahead (in the first
  // pass the next survivor is not known in advance).
  constexpr std::uint32_t kAhead = 16;
  for (std::uint32_t i = 0; i < out; ++i) {
    if (i + kAhead < out) __builtin_prefetch(m_state.data() + m_queue[i + kAhead], 1);
    m_state[m_queue[i]] = m_queue_masks[i] | (i << 8);
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
  // `line` is the line's slot (slot_of): with ways > 0 the two are the same (no layout).
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
    const unsigned hm = touch_line(slot_of(line), sector_mask(lb, le), write, r);
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
    const Layout* l = m_layout.empty() ? nullptr : layout_of(line0);
    // The fast paths need every row inside one region (one row of the matrix each, its lines in
    // that row), or every line outside all regions; anything else goes line by line.
    bool line_by_line = false;
    if (l != nullptr) {
      const std::uint64_t rel = line0 - l->first, r0 = rel / l->pitch, c0 = rel % l->pitch;
      line_by_line = stride != l->pitch || c0 + static_cast<std::uint64_t>(lines) > l->pitch ||
                     r0 + static_cast<std::uint64_t>(rows) > l->rows;
    } else {
      const std::uint64_t end = line0 + static_cast<std::uint64_t>(rows - 1) * stride + lines;
      for (const Layout& o : m_layout)
        line_by_line = line_by_line || (line0 < o.first + o.lines && o.first < end);
    }
    if (line_by_line) {
      for (std::int64_t i = 0; i < rows; ++i)
        access(first + static_cast<std::uint64_t>(i) * row_stride,
               first + static_cast<std::uint64_t>(i) * row_stride + run_bytes, write, r);
      return;
    }
    if (l != nullptr) {
      if (lines == 1)
        access_rows_lru<1, true>(line0, stride, rows, masks, lines, write, r, l);
      else if (lines == 2)
        access_rows_lru<2, true>(line0, stride, rows, masks, lines, write, r, l);
      else
        access_rows_lru<0, true>(line0, stride, rows, masks, lines, write, r, l);
    } else {
      if (lines == 1)
        access_rows_lru<1, false>(line0, stride, rows, masks, lines, write, r, l);
      else if (lines == 2)
        access_rows_lru<2, false>(line0, stride, rows, masks, lines, write, r, l);
      else
        access_rows_lru<0, false>(line0, stride, rows, masks, lines, write, r, l);
    }
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

template <int kLines, bool kLaidOut>
void L2Cache::access_rows_lru(std::uint64_t line0, std::uint64_t stride, std::int64_t rows,
                              const unsigned* masks, int lines, bool write, AccessResult* r,
                              const Layout* layout) {
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
  std::uint32_t* const state = m_state.data();
  std::uint64_t misses = 0;
  // A miss in a full cache evicts the LRU line here, evict_from_queue's work with the queue's
  // head, the resident count and the eviction counts in locals (the out-of-line call and its
  // reloads were ~15 % of the replay). They go back to the members before a compaction and at
  // the end.
  const std::int64_t capacity = m_capacity_lines;
  std::int64_t resident = m_resident;
  std::size_t head = m_queue_head;
  std::uint64_t evicted = 0, evicted_sectors = 0, writebacks = 0;
  const auto make_room_here = [&] {
    if (resident < capacity) {
      ++resident;
      return;
    }
    std::size_t w = head / 64;
    std::uint64_t bits = live[w] & (~std::uint64_t{0} << (head % 64));
    while (bits == 0) bits = live[++w];
    const std::size_t pos = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
    live[w] &= ~(std::uint64_t{1} << (pos % 64));
    head = pos + 1;
    const std::size_t ahead = std::min<std::size_t>(pos + 512, limit - 1);
    __builtin_prefetch(queue + ahead, 0);
    __builtin_prefetch(queue_masks + ahead, 0);
    __builtin_prefetch(live + ahead / 64, 1);
    const unsigned vm = queue_masks[pos];
    ++evicted;
    evicted_sectors += static_cast<std::uint64_t>(kPop[vm & 0xF]);
    writebacks += static_cast<std::uint64_t>(kPop[(vm >> 4) & 0xF]);
    state[queue[pos]] = 0;
  };
  // One row's lines (the states of line j at base + j * col_step).
  const auto touch_row = [&](std::uint64_t base, std::uint64_t col_step) {
    for (int j = 0; j < n; ++j) {
      const std::uint64_t slot = base + static_cast<std::uint64_t>(j) * col_step;
      const std::uint32_t st = state[slot];
      if ((st & 0xF) != 0) {
        // Resident: requested sectors not yet valid miss (a line fills sector by sector); the
        // line's old queue entry dies.
        const unsigned missing = masks[j] & ~st & 0xF;
        if (missing != 0) misses += static_cast<std::uint64_t>(kPop[missing]);
        const std::uint32_t old = st >> 8;
        live[old / 64] &= ~(std::uint64_t{1} << (old % 64));
      } else {
        misses += static_cast<std::uint64_t>(kPop[masks[j]]);
        make_room_here();
      }
      const std::uint32_t masks_now = (st & 0xFF) | set_bits[j];
      queue[tail] = static_cast<std::uint32_t>(slot);
      queue_masks[tail] = static_cast<std::uint8_t>(masks_now);
      live[tail / 64] |= std::uint64_t{1} << (tail % 64);
      state[slot] = static_cast<std::uint32_t>(tail << 8) | masks_now;
      if (++tail == limit) {
        m_queue_tail = tail;
        m_queue_head = head;
        m_resident = resident;
        compact_queue();
        tail = m_queue_tail;
        head = m_queue_head;
      }
    }
  };
  if constexpr (kLaidOut) {
    // The region's layout: rows in groups of 16 whose states of one column are side by side,
    // so within a group row i + 1's state follows row i's (the layout is read once per group).
    // Each group's host cache lines are prefetched two groups ahead (~32 rows of work).
    const Layout l = *layout;  // a copy: the stores below cannot alias it
    const std::uint64_t rel = line0 - l.first, r0 = rel / l.pitch, c0 = rel % l.pitch;
    const std::uint64_t r_end = r0 + static_cast<std::uint64_t>(rows);
    const std::uint64_t group_slots = kGroupRows * l.pitch;
    const auto prefetch_group = [&](std::uint64_t g) {
      if (g * kGroupRows >= r_end) return;
      const std::uint64_t w = l.rows_in_group(g);
      const std::uint64_t b = l.first + g * group_slots + c0 * w;
      for (int j = 0; j < n; ++j) __builtin_prefetch(state + b + static_cast<std::uint64_t>(j) * w, 1);
    };
    const std::uint64_t g0 = r0 / kGroupRows;
    prefetch_group(g0);
    prefetch_group(g0 + 1);
    for (std::uint64_t rr = r0; rr < r_end;) {
      const std::uint64_t g = rr / kGroupRows;
      prefetch_group(g + 2);
      const std::uint64_t w = l.rows_in_group(g);
      const std::uint64_t group_end = std::min(r_end, (g + 1) * kGroupRows);
      std::uint64_t base = l.first + g * group_slots + c0 * w + rr % kGroupRows;
      for (; rr < group_end; ++rr, ++base) touch_row(base, w);
    }
  } else {
    // Rows are far apart: prefetch the state of row i + kAhead while row i is processed.
    constexpr std::int64_t kAhead = 12;
    std::uint32_t* row = state + line0;
    for (std::int64_t i = 0; i < std::min(kAhead, rows); ++i)
      __builtin_prefetch(row + static_cast<std::uint64_t>(i) * stride, 1);
    const std::uint64_t ahead = kAhead * stride;
    std::uint64_t base = line0;
    for (std::int64_t i = 0; i < rows; ++i, row += stride, base += stride) {
      if (i + kAhead < rows) __builtin_prefetch(row + ahead, 1);
      touch_row(base, 1);
    }
  }
  m_queue_tail = tail;
  m_queue_head = head;
  m_resident = resident;
  r->evicted_lines += static_cast<std::int32_t>(evicted);
  r->evicted_sectors += static_cast<std::int32_t>(evicted_sectors);
  r->writeback_sectors += static_cast<std::int32_t>(writebacks);
  const std::uint64_t hits = requested * static_cast<std::uint64_t>(rows) - misses;
  r->hit_sectors += static_cast<std::int32_t>(hits);
  r->miss_sectors += static_cast<std::int32_t>(misses);
}

void L2Cache::prefetch_rows(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
                            std::uint64_t run_bytes) const {
#if defined(__GNUC__)
  if (rows <= 0 || run_bytes == 0 || row_stride % kLineBytes != 0) return;
  const std::uint64_t line0 = first / kLineBytes, stride = row_stride / kLineBytes;
  const std::uint64_t lines = (first % kLineBytes + run_bytes - 1) / kLineBytes + 1;
  const std::uint32_t* const state = m_state.data();
  const Layout* l = m_layout.empty() ? nullptr : layout_of(line0);
  if (l != nullptr && stride == l->pitch) {
    const std::uint64_t rel = line0 - l->first, r0 = rel / l->pitch, c0 = rel % l->pitch;
    const std::uint64_t r_end = std::min<std::uint64_t>(l->rows, r0 + rows);
    if (c0 + lines > l->pitch) return;
    for (std::uint64_t g = r0 / kGroupRows; g * kGroupRows < r_end; ++g)
      for (std::uint64_t j = 0; j < lines; ++j) {
        const std::uint64_t r = std::max(r0, g * kGroupRows);
        __builtin_prefetch(state + l->row_slot(r, c0 + j), 1);
      }
    return;
  }
  if (l != nullptr || line0 + (static_cast<std::uint64_t>(rows) - 1) * stride >= m_state.size())
    return;
  for (std::int64_t i = 0; i < std::min<std::int64_t>(rows, 64); ++i)
    __builtin_prefetch(state + line0 + static_cast<std::uint64_t>(i) * stride, 1);
#else
  (void)first, (void)row_stride, (void)rows, (void)run_bytes;
#endif
}

std::int64_t L2Cache::resident_sectors(std::uint64_t begin, std::uint64_t end) const {
  std::int64_t n = 0;
  const std::uint64_t first = begin / kLineBytes, last = (end - 1) / kLineBytes;
  // The slot of `first` once (a division), then each next line of the same row one column on.
  const Layout* l = m_layout.empty() ? nullptr : layout_of(first);
  std::uint64_t slot = first, step = 1, col = 0;
  if (l != nullptr) {
    const std::uint64_t rel = first - l->first, r = rel / l->pitch;
    col = rel % l->pitch;
    step = l->rows_in_group(r / kGroupRows);
    slot = l->row_slot(r, col);
  }
  for (std::uint64_t line = first; line <= last; ++line, ++col, slot += step) {
    if (l != nullptr && col == l->pitch) {  // the next row (or past the region)
      slot = slot_of(line);
      l = m_layout.empty() ? nullptr : layout_of(line);
      step = 1, col = 0;
      if (l != nullptr) {
        const std::uint64_t rel = line - l->first;
        col = rel % l->pitch;
        step = l->rows_in_group(rel / l->pitch / kGroupRows);
      }
    } else if (l == nullptr) {
      slot = slot_of(line);
    }
    const unsigned valid = m_state[slot] & 0xF;
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
  for (const std::uint64_t slot : lru_slots()) {
    const std::uint32_t st = m_state[slot];
    out.push_back({static_cast<std::uint32_t>(line_of(slot)), static_cast<std::uint8_t>(st & 0xF),
                   static_cast<std::uint8_t>((st >> 4) & 0xF)});
  }
  return out;
}

std::vector<std::uint64_t> L2Cache::lru_slots() const {
  std::vector<std::uint64_t> out;
  out.reserve(static_cast<std::size_t>(m_resident));
  const auto add = [&](std::uint64_t slot) { out.push_back(slot); };
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
  for (const std::uint64_t slot : lru_slots()) m_state[slot] = 0;
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
    const std::uint64_t slot = slot_of(l.line);
    touch_line(slot, l.valid, false, &ignored);
    m_state[slot] |= static_cast<std::uint32_t>(l.dirty) << 4;
    if (m_ways == 0) m_queue_masks[m_state[slot] >> 8] |= static_cast<std::uint8_t>(l.dirty << 4);
  }
}

std::int64_t L2Cache::flush() {
  std::int64_t n = 0;
  for (const std::uint64_t slot : lru_slots()) {
    n += kPop[(m_state[slot] >> 4) & 0xF];
    m_state[slot] &= ~std::uint32_t{0xF0};
    if (m_ways == 0) m_queue_masks[m_state[slot] >> 8] &= 0x0F;
  }
  return n;
}

}  // namespace tilesim::sim
