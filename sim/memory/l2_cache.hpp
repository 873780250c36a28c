// L2 cache model: 128-byte lines of four 32-byte sectors, LRU replacement over lines (fully
// associative, or N-way set associative), write-back: stores leave dirty sectors that reach DRAM
// when their line is evicted or at the final flush.
// Teaches: a line is tagged once but filled sector by sector, so a 32-byte row costs one sector.
// Fully associative capacity is limited to 2^22 lines (512 MiB) by the 24-bit queue positions.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tilesim::sim {

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

class L2Cache {
 public:
  static constexpr int kLineBytes = 128, kSectorBytes = 32, kSectorsPerLine = 4;

  // address_space_bytes: every address accessed is below it (Problem::address_space_bytes()).
  // capacity_bytes is rounded down to whole lines; ways = 0 means fully associative.
  L2Cache(std::uint64_t address_space_bytes, std::int64_t capacity_bytes, int ways = 0);

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
    return static_cast<std::uint8_t>(m_state[line] & 0xF);
  }
  std::uint8_t dirty_mask(std::uint64_t line) const {
    return static_cast<std::uint8_t>((m_state[line] >> 4) & 0xF);
  }
  // Lines a fully associative cache may hold (positions are 24 bits: see m_state).
  static constexpr std::int64_t kMaxAssociativeLines = std::int64_t{1} << 22;
  // Hint that bytes at `address` will be accessed soon (the replay prefetches rows ahead).
  void prefetch(std::uint64_t address) const {
#if defined(__GNUC__)
    if (address / kLineBytes < m_state.size())
      __builtin_prefetch(&m_state[address / kLineBytes], 1);
#else
    (void)address;
#endif
  }
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
  // Returns hit sectors + (missed sectors << 16); evictions are added to *r.
  unsigned touch_line(std::uint64_t line, unsigned mask, bool write, AccessResult* r);
  // access_rows for the fully associative cache: the loop the replay spends its time in.
  template <int kLines>
  void access_rows_lru(std::uint64_t line0, std::uint64_t stride, std::int64_t rows,
                       const unsigned* masks, int lines, bool write, AccessResult* r);
  void make_room(AccessResult* r);  // a line is about to become resident: evict if full
  void evict_from_queue(AccessResult* r);
  void evict_from_set(std::uint64_t set, AccessResult* r, std::uint32_t* way_out);
  void compact_queue();
  // masks: the line's m_state bits 0-7 (valid, dirty), which the caller already holds.
  void evict_line(std::uint64_t line, unsigned masks, AccessResult* r);

  std::uint64_t first_live(std::size_t from) const;  // first live queue position >= from

  std::int64_t m_capacity_lines = 0;
  std::int64_t m_resident = 0;
  int m_ways = 0;
  std::uint64_t m_sets = 1;
  std::uint64_t m_clock = 0;  // set associative: LRU stamp, +1 per line touch
  // Per line of the address space, 4 bytes (so the hot array is half the size): bits 0-3 valid
  // sectors, 4-7 dirty sectors, 8-31 the line's place: its queue position (fully associative)
  // or its way (set associative).
  std::vector<std::uint32_t> m_state;
  // Fully associative: every touch appends the line; a bitmap marks the one live entry of each
  // resident line (a touch clears the old entry's bit), so the oldest live entry is the LRU line
  // and compaction reads the queue and bitmap sequentially, touching m_state only to move the
  // survivors' positions.
  // The queue is allocated once at its limit; entries [head, tail) are the ones still to scan.
  std::vector<std::uint32_t> m_queue;  // (queue_limit,) line numbers
  // (queue_limit,) the line's bits 0-7 (valid, dirty) as this entry left them. The live entry of a
  // line always has its current masks (a change of masks is a touch, which appends an entry; flush
  // and restore update it), so eviction and compaction need not read m_state: its reads are the
  // random accesses that stall.
  std::vector<std::uint8_t> m_queue_masks;
  std::vector<std::uint64_t> m_live;  // (queue_limit / 64,) bit i: entry i is live
  std::size_t m_queue_head = 0;
  std::size_t m_queue_tail = 0;
  std::size_t m_queue_limit = 0;  // compact when the queue reaches this many entries
  // Set associative: the lines held by each set's ways (kNoLine when empty) and their stamps.
  std::vector<std::uint32_t> m_way_line;
  std::vector<std::uint64_t> m_way_stamp;
};

}  // namespace tilesim::sim
