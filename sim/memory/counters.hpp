// Counters: what a replay measured, as plain value structs (ChampSim style): take them at any
// step, subtract two of them (operator-) to get what happened in between.
// Teaches: DRAM bytes, L2 bytes and hit rate, FLOPs and arithmetic intensity, and the roofline
// bound they imply for a machine.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::sim {

// Everything is a running total since the start of the replay.
struct Counters {
  std::int64_t events = 0;       // program steps executed (map, loads, dot, store, ...)
  std::int64_t tile_loads = 0;   // tl.load steps (load_a, load_b, load)
  std::int64_t tile_stores = 0;  // tl.store steps

  // L2, in 32-byte sectors. A sector touched by any valid lane counts once per access.
  std::int64_t l2_load_sectors = 0, l2_load_hit_sectors = 0;
  std::int64_t l2_store_sectors = 0, l2_store_hit_sectors = 0;  // store hit: sector was resident
  std::int64_t l2_evicted_lines = 0, l2_evicted_sectors = 0;

  // Bytes. DRAM reads are load misses (whole sectors); DRAM writes are dirty sectors written
  // back on eviction, plus the final flush once the replay has finished.
  std::int64_t dram_read_bytes = 0;
  std::int64_t dram_write_bytes = 0;
  std::int64_t dram_flush_bytes = 0;  // part of dram_write_bytes written by the final flush
  std::int64_t l2_read_bytes = 0;     // bytes L2 served to SMs for loads (sector granularity)
  std::int64_t l2_write_bytes = 0;    // bytes SMs stored into L2 (sector granularity)
  std::int64_t load_lane_bytes = 0, store_lane_bytes = 0;  // bytes of valid lanes (no rounding)

  // On-chip traffic (model): loads write tiles to shared memory (matmul, transpose) or registers
  // (copy); tl.dot reads A and B tiles from shared memory and reads + writes the fp32
  // accumulator in registers; stores read the output tile from registers.
  std::int64_t smem_write_bytes = 0, smem_read_bytes = 0;
  std::int64_t register_bytes = 0;

  double flops = 0;                    // tl.dot as issued: 2 * BM * BN * BK per dot
  std::int64_t store_lanes = 0;        // lanes of stored tiles
  std::int64_t valid_store_lanes = 0;  // lanes the store mask keeps (adds up to M * N)

  // DRAM bytes read and written, the final flush included (what the roofline charges).
  std::int64_t dram_bytes() const { return dram_read_bytes + dram_write_bytes; }
  std::int64_t l2_sectors() const { return l2_load_sectors + l2_store_sectors; }
  std::int64_t l2_hit_sectors() const { return l2_load_hit_sectors + l2_store_hit_sectors; }
  // Sector hits / sector accesses (loads and stores), 0 when nothing was accessed. Every store
  // sector counts as a hit: the L2 allocates on write with byte masks and never waits for DRAM,
  // which is also what ncu's lts__t_sector_hit_rate reports (docs/MODEL.md).
  double l2_hit_rate() const;
  // Bytes written to DRAM while the kernel runs: what ncu's dram__bytes_write.sum sees (dirty
  // lines still in L2 at the end are written back after the kernel).
  std::int64_t dram_write_bytes_in_kernel() const { return dram_write_bytes - dram_flush_bytes; }
  double l2_load_hit_rate() const;
  // FLOPs per DRAM byte (0 when no DRAM traffic).
  double arithmetic_intensity() const;

  Counters& operator+=(const Counters& o);
  Counters operator-(const Counters& o) const;
  bool operator==(const Counters&) const = default;
};

// Counts one L2 access of `hit` + `miss` sectors as a load or a store (write) into the sector
// counters that l2_hit_rate() reads: the engine counts every access through it, and a series
// built from per-event records (sim/replay/hit_rate_series.hpp) does too, so both apply one hit
// rule.
void count_l2_sectors(Counters& c, bool write, std::int64_t hit, std::int64_t miss);

enum class Bound { dram, compute };
std::string_view to_string(Bound b);

// Roofline estimate: time = max(DRAM bytes / DRAM bandwidth, FLOPs / peak rate). The peak is the
// FP16/BF16 tensor rate for fp16/bf16 matmul and the FP32 rate for fp32.
struct Roofline {
  double dram_time_s = 0, compute_time_s = 0;
  double time_s = 0;  // the larger of the two
  Bound bound = Bound::dram;
  double peak_flops_per_s = 0;
  double ridge_flops_per_byte = 0;  // arithmetic intensity where the two bounds meet
};
Roofline roofline(const Counters& c, const Problem& p, const Machine& m);

}  // namespace tilesim::sim
