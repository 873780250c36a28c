// The memory path's pipes (see memory_path.hpp): the order of the checks in load() decides the
// cause of a tie (the latency, then DRAM, the L2, the fill path: the later one wins only when it
// is strictly later).
#include "sim/timing/memory_path.hpp"

#include <algorithm>
#include <cmath>

#include "sim/memory/l2_cache.hpp"

namespace tilesim::sim {

std::int64_t ps_of_bytes(std::int64_t bytes, double ps_per_byte) {
  return static_cast<std::int64_t>(static_cast<double>(bytes) * ps_per_byte + 0.5);
}

std::int64_t MemoryPath::to_dram(std::int64_t read_sectors, std::int64_t write_sectors,
                                 std::int64_t t) {
  m_reads.traffic(read_sectors * L2Cache::kSectorBytes, write_sectors * L2Cache::kSectorBytes);
  const std::int64_t bytes = (read_sectors + write_sectors) * L2Cache::kSectorBytes;
  if (bytes <= 0) return t;
  return m_dram.hold(t, ps_of_bytes(bytes, m_c->dram_ps_per_byte));
}

Arrival MemoryPath::load(const AccessResult& r, std::int64_t issue, Pipe* fill, Arrival* filled,
                         double l2_weight) {
  const StepCosts& c = *m_c;
  const std::int64_t bytes = (std::int64_t{r.hit_sectors} + r.miss_sectors) * L2Cache::kSectorBytes;
  // A miss is back after the DRAM's latency, and the tile after its slowest warp's share of it
  // (StepCosts::tile_slowest_warp_ps); when the DRAM's queue is longer, after the queue.
  Arrival a{issue + (r.miss_sectors > 0 ? c.dram_latency_ps + c.tile_slowest_warp_ps
                                        : c.l2_hit_latency_ps),
            TimeCause::latency};
  const auto later = [&](std::int64_t t, TimeCause cause) {
    if (t > a.at) a = {t, cause};
  };
  const std::int64_t dram = to_dram(r.miss_sectors, r.writeback_sectors, issue);
  if (r.miss_sectors > 0) later(dram + c.l2_hit_latency_ps, TimeCause::dram);
  // DRAM's fills go into the L2 on its write side, which the SMs' stores share (charged at issue,
  // as the other pipes, so its requests come in time order). Its rate is the L2's own, not the
  // SM clock's.
  if (r.miss_sectors > 0 && c.l2_write_ps_per_byte > 0)
    later(m_l2_write.hold(issue, ps_of_bytes(std::int64_t{r.miss_sectors} * L2Cache::kSectorBytes,
                                             c.l2_write_ps_per_byte)),
          TimeCause::l2);
  if (r.hit_sectors > 0) later(filled->at, filled->cause);
  // The L2 and the fill path run on the SM clock: their rates follow its fall under load.
  const double clock = c.clock_rate(issue);
  later(m_l2.hold(issue, ps_of_bytes(bytes, l2_weight * c.l2_ps_per_byte / clock)), TimeCause::l2);
  later(fill->hold(issue, ps_of_bytes(bytes, c.fill_ps_per_byte / clock)), TimeCause::sm_load);
  // What another SM's hit on these sectors waits for: the fill, held back by a queue (DRAM,
  // as such a wait always read) or by nothing (latency). The filling SM's own fill path or its
  // share of the L2's output are not the other SM's to wait on, so they read as DRAM too.
  if (r.miss_sectors > 0 && a.at > filled->at)
    *filled = {a.at, a.cause == TimeCause::latency ? TimeCause::latency : TimeCause::dram};
  return a;
}

// The program retires once its bytes are out of the SM; the kernel ends when the last store
// reaches the L2 (write-backs queue on DRAM).
StoreDone MemoryPath::store(const AccessResult& r, std::int64_t t, Pipe* fill) {
  const StepCosts& c = *m_c;
  const std::int64_t bytes = (std::int64_t{r.hit_sectors} + r.miss_sectors) * L2Cache::kSectorBytes;
  StoreDone s;
  const double clock = c.clock_rate(t);
  s.out = fill->hold(t, ps_of_bytes(bytes, c.fill_ps_per_byte / clock));
  const std::int64_t l2 = ps_of_bytes(bytes, c.l2_ps_per_byte / clock);
  s.cause = s.out - t >= l2 ? TimeCause::sm_load : TimeCause::l2;
  // The L2's write side takes the bytes no faster than its rate (partial sectors weigh more):
  // until it has, they have not left the SM.
  if (c.l2_write_ps_per_byte > 0) {
    const auto weighted =
        static_cast<std::int64_t>(std::llround(static_cast<double>(bytes) * c.store_sector_weight));
    const std::int64_t written = m_l2_write.hold(t, ps_of_bytes(weighted, c.l2_write_ps_per_byte));
    if (written > s.out) s.out = written, s.cause = TimeCause::l2;
  }
  s.done = std::max(s.out, m_l2.hold(t, l2)) + c.l2_hit_latency_ps;
  const std::int64_t dram = to_dram(0, r.writeback_sectors, t);
  if (r.writeback_sectors > 0 && dram > s.done) s.done = dram, s.cause = TimeCause::dram;
  return s;
}

std::int64_t smem_write_ps(const StepCosts& c, StepOp op) {
  return op == StepOp::load_a ? c.load_a_smem_ps : op == StepOp::load_b ? c.load_b_smem_ps : 0;
}

double l2_load_weight(const StepCosts& c, StepOp op) {
  return op == StepOp::load_a   ? c.l2_weight_a
         : op == StepOp::load_b ? c.l2_weight_b
                                : c.l2_weight_load;
}

std::int64_t smem_write_free_ps(const StepCosts& c, StepOp op) {
  return op == StepOp::load_a   ? c.load_a_smem_free_ps
         : op == StepOp::load_b ? c.load_b_smem_free_ps
                                : 0;
}

}  // namespace tilesim::sim
