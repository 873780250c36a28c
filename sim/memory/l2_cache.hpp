// L2 cache model: 128-byte lines of four 32-byte sectors, LRU replacement over lines (fully
// associative, or N-way set associative), write-back: stores leave dirty sectors that reach DRAM
// when their line is evicted or at the final flush.
// Teaches: a line is tagged once but filled sector by sector, so a 32-byte row costs one sector.
// Fully associative capacity is limited to 2^22 lines (512 MiB) by the 24-bit queue positions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace tilesim::sim {

// The allocator of the cache's large arrays (line states, queue, bitmap: 12-20 MiB at 8192^3,
// read at random): 64-byte aligned (the line states are laid out 16 to a host cache line), and
// from 2 MiB on, on 2 MiB boundaries with a request for transparent huge pages, so that the
// random accesses do not miss the TLB at every 4 KiB page. Performance only: the contents and
// results do not depend on it.
void* allocate_cache_array(std::size_t bytes);
void free_cache_array(void* p, std::size_t bytes);
template <class T>
struct CacheArrayAllocator {
  using value_type = T;
  CacheArrayAllocator() = default;
  template <class U>
  CacheArrayAllocator(const CacheArrayAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_cache_array(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { free_cache_array(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const CacheArrayAllocator<U>&) const {
    return true;
  }
};
template <class T>
using CacheArray = std::vector<T, CacheArrayAllocator<T>>;

// What one access (or a batch of them) did, in sectors: the Ripes-style record.
struct AccessResult {
  std::int32_t hit_sectors = 0;        // requested and already resident
  std::int32_t miss_sectors = 0;       // requested and not resident (loads: fetched from DRAM)
  std::int32_t evicted_lines = 0;      // lines dropped to make room
  std::int32_t evicted_sectors = 0;    // valid sectors in those lines
  std::int32_t writeback_sectors = 0;  // dirty sectors among them (written to DRAM)
  AccessResult& operator+=(const AccessResult& o);
  bool operator==(const AccessResult&) const = default;
};

// One resident line as a checkpoint stores it: LRU order is the order of the list.
struct L2LineState {
  std::uint32_t line = 0;  // byte address / 128
  std::uint8_t valid = 0;  // 4-bit sector mask
  std::uint8_t dirty = 0;  // 4-bit sector mask, subset of valid
  bool operator==(const L2LineState&) const = default;
};

// A matrix in the address space: `rows` rows of `pitch_bytes` each from `base_bytes`. Used only to
// lay out the cache's per-line state (L2Cache's constructor), never for what the cache does.
struct L2Region {
  std::uint64_t base_bytes = 0, pitch_bytes = 0, rows = 0;
};

class L2Cache {
 public:
  static constexpr int kLineBytes = 128, kSectorBytes = 32, kSectorsPerLine = 4;

  // address_space_bytes: every address accessed is below it (Problem::address_space_bytes()).
  // capacity_bytes is rounded down to whole lines; ways = 0 means fully associative.
  // layout: the matrices the accesses read and write (optional; the results are the same with
  // or without it). A fully associative cache stores the state of 16 consecutive rows' lines of
  // the same column side by side, so a tile's rows share cache lines of the host CPU: a tile
  // load of 128 rows touches 8 of them instead of 128. Regions that are not line-aligned
  // (base or pitch not a multiple of 128 bytes), overlap or leave the address space are ignored.
  L2Cache(std::uint64_t address_space_bytes, std::int64_t capacity_bytes, int ways = 0,
          const std::vector<L2Region>& layout = {});

  std::int64_t capacity_lines() const { return m_capacity_lines; }
  std::int64_t resident_lines() const { return m_resident; }
  int ways() const { return m_ways; }

  // Access bytes [begin, end) (end > begin): a load (write = false) or a store (write = true).
  // Adds what happened to *r. Stores allocate without fetching (the L2 keeps byte masks).
  void access(std::uint64_t begin, std::uint64_t end, bool write, AccessResult* r);

  // The same for `rows` runs of `run_bytes` bytes each, the first at `first` and each next one
  // `row_stride` bytes further: one tile row after another (the replay's hot path).
  void access_rows(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
                   std::uint64_t run_bytes, bool write, AccessResult* r);

  // Resident and dirty sector masks of a line (0 when the line is not resident).
  std::uint8_t valid_mask(std::uint64_t line) const {
    return static_cast<std::uint8_t>(m_state[slot_of(line)] & 0xF);
  }
  std::uint8_t dirty_mask(std::uint64_t line) const {
    return static_cast<std::uint8_t>((m_state[slot_of(line)] >> 4) & 0xF);
  }
  // Lines a fully associative cache may hold (positions are 24 bits: see m_state).
  static constexpr std::int64_t kMaxAssociativeLines = std::int64_t{1} << 22;
  // Hint that bytes at `address` will be accessed soon (the replay prefetches rows ahead).
  void prefetch(std::uint64_t address) const {
#if defined(__GNUC__)
    if (address / kLineBytes < m_state.size())
      __builtin_prefetch(&m_state[slot_of(address / kLineBytes)], 1);
#else
    (void)address;
#endif
  }
  // Hint that access_rows(first, row_stride, rows, run_bytes, ...) comes soon: prefetches the
  // host cache lines of those lines' states (laid out: one per 16 rows and line column; else
  // one per row, at most 64 rows). Changes nothing but the host's caches.
  void prefetch_rows(std::uint64_t first, std::uint64_t row_stride, std::int64_t rows,
                     std::uint64_t run_bytes) const;
  // Resident sectors within bytes [begin, end) (sectors partly inside count).
  std::int64_t resident_sectors(std::uint64_t begin, std::uint64_t end) const;

  // Write every dirty sector back (end of the kernel); returns the sectors written.
  std::int64_t flush();

  // The resident lines, least recently used first (per set, sets interleaved by recency).
  std::vector<L2LineState> save() const;
  // Replace the contents with `lines` (as save() returned them); the state then behaves exactly
  // as the one saved.
  void restore(const std::vector<L2LineState>& lines);

 private:
  // The state layout of one L2Region, in lines: line first + r * pitch + c (row r, column c) has
  // its state at slot first + (r / 16) * 16 * pitch + c * w + r % 16, w = 16 rows per group
  // (the last group: rows % 16). A bijection on [first, first + rows * pitch).
  struct Layout {
    std::uint64_t first = 0, lines = 0, pitch = 0, rows = 0;
    std::uint64_t full_groups = 0, last_rows = 0;  // rows / 16, rows % 16
    std::uint64_t row_slot(std::uint64_t r, std::uint64_t c) const {
      const std::uint64_t g = r / kGroupRows;
      return first + g * kGroupRows * pitch + c * rows_in_group(g) + r % kGroupRows;
    }
    std::uint64_t rows_in_group(std::uint64_t g) const {
      return g < full_groups ? kGroupRows : last_rows;
    }
  };
  static constexpr std::uint64_t kGroupRows = 16;  // 16 states of 4 bytes: one 64-byte line
  const Layout* layout_of(std::uint64_t line) const {
    for (const Layout& l : m_layout)
      if (line - l.first < l.lines) return &l;
    return nullptr;
  }
  // Where line `line`'s state is in m_state (the identity outside the layout's regions), and
  // back. The queue and the set-associative ways hold slots: with ways > 0 there is no layout,
  // so there a slot is the line (set_of hashes the line).
  std::uint64_t slot_of(std::uint64_t line) const {
    const Layout* l = m_layout.empty() ? nullptr : layout_of(line);
    if (l == nullptr) return line;
    const std::uint64_t rel = line - l->first;
    return l->row_slot(rel / l->pitch, rel % l->pitch);
  }
  std::uint64_t line_of(std::uint64_t slot) const;
  // Returns hit sectors + (missed sectors << 16); evictions are added to *r.
  unsigned touch_line(std::uint64_t slot, unsigned mask, bool write, AccessResult* r);
  // access_rows for the fully associative cache: the loop the replay spends its time in.
  // layout null: row i's line j is at slot line0 + i * stride + j; else the rows r0 + i of
  // column c0 + j of that region (stride == its pitch).
  template <int kLines, bool kLaidOut>
  void access_rows_lru(std::uint64_t line0, std::uint64_t stride, std::int64_t rows,
                       const unsigned* masks, int lines, bool write, AccessResult* r,
                       const Layout* layout);
  std::vector<std::uint64_t> lru_slots() const;  // resident slots, least recently used first
  void make_room(AccessResult* r);  // a line is about to become resident: evict if full
  void evict_from_queue(AccessResult* r);
  void evict_from_set(std::uint64_t set, AccessResult* r, std::uint32_t* way_out);
  void compact_queue();
  // masks: the line's m_state bits 0-7 (valid, dirty), which the caller already holds.
  void evict_line(std::uint64_t slot, unsigned masks, AccessResult* r);

  std::uint64_t first_live(std::size_t from) const;  // first live queue position >= from

  std::int64_t m_capacity_lines = 0;
  std::int64_t m_resident = 0;
  int m_ways = 0;
  std::uint64_t m_sets = 1;
  std::uint64_t m_clock = 0;  // set associative: LRU stamp, +1 per line touch
  // Per line of the address space, 4 bytes (so the hot array is half the size): bits 0-3 valid
  // sectors, 4-7 dirty sectors, 8-31 the line's place: its queue position (fully associative)
  // or its way (set associative).
  CacheArray<std::uint32_t> m_state;  // indexed by slot_of(line)
  std::vector<Layout> m_layout;        // fully associative only; empty: slot = line
  // Fully associative: every touch appends the line; a bitmap marks the one live entry of each
  // resident line (a touch clears the old entry's bit), so the oldest live entry is the LRU line
  // and compaction reads the queue and bitmap sequentially, touching m_state only to move the
  // survivors' positions.
  // The queue is allocated once at its limit; entries [head, tail) are the ones still to scan.
  CacheArray<std::uint32_t> m_queue;  // (queue_limit,) the lines' slots
  // (queue_limit,) the line's bits 0-7 (valid, dirty) as this entry left them. The live entry of a
  // line always has its current masks (a change of masks is a touch, which appends an entry; flush
  // and restore update it), so eviction and compaction need not read m_state: its reads are the
  // random accesses that stall.
  CacheArray<std::uint8_t> m_queue_masks;
  CacheArray<std::uint64_t> m_live;  // (queue_limit / 64,) bit i: entry i is live
  std::size_t m_queue_head = 0;
  std::size_t m_queue_tail = 0;
  std::size_t m_queue_limit = 0;  // compact when the queue reaches this many entries
  // Set associative: the lines held by each set's ways (kNoLine when empty) and their stamps.
  std::vector<std::uint32_t> m_way_line;
  std::vector<std::uint64_t> m_way_stamp;
};

}  // namespace tilesim::sim
