// Counter arithmetic and the roofline estimate.
#include "sim/memory/counters.hpp"

#include <algorithm>

namespace tilesim::sim {
namespace {

// Apply f to every pair of fields, so += and - cannot miss one.
template <class C, class F>
void each_field(C& a, const Counters& b, F f) {
  f(a.events, b.events);
  f(a.tile_loads, b.tile_loads);
  f(a.tile_stores, b.tile_stores);
  f(a.l2_load_sectors, b.l2_load_sectors);
  f(a.l2_load_hit_sectors, b.l2_load_hit_sectors);
  f(a.l2_store_sectors, b.l2_store_sectors);
  f(a.l2_store_hit_sectors, b.l2_store_hit_sectors);
  f(a.l2_evicted_lines, b.l2_evicted_lines);
  f(a.l2_evicted_sectors, b.l2_evicted_sectors);
  f(a.dram_read_bytes, b.dram_read_bytes);
  f(a.dram_write_bytes, b.dram_write_bytes);
  f(a.dram_flush_bytes, b.dram_flush_bytes);
  f(a.l2_read_bytes, b.l2_read_bytes);
  f(a.l2_write_bytes, b.l2_write_bytes);
  f(a.load_lane_bytes, b.load_lane_bytes);
  f(a.store_lane_bytes, b.store_lane_bytes);
  f(a.smem_write_bytes, b.smem_write_bytes);
  f(a.smem_read_bytes, b.smem_read_bytes);
  f(a.register_bytes, b.register_bytes);
  f(a.flops, b.flops);
  f(a.store_lanes, b.store_lanes);
  f(a.valid_store_lanes, b.valid_store_lanes);
}

double ratio(std::int64_t num, std::int64_t den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

}  // namespace

static_assert(sizeof(Counters) == 22 * 8, "each_field() must list every Counters field");

double Counters::l2_hit_rate() const {
  return ratio(l2_load_hit_sectors + l2_store_sectors, l2_sectors());
}
double Counters::l2_load_hit_rate() const {
  return ratio(l2_load_hit_sectors, l2_load_sectors);
}
double Counters::arithmetic_intensity() const {
  const auto bytes = dram_bytes();
  return bytes == 0 ? 0.0 : flops / static_cast<double>(bytes);
}

void count_l2_sectors(Counters& c, bool write, std::int64_t hit, std::int64_t miss) {
  if (write) {
    c.l2_store_sectors += hit + miss;
    c.l2_store_hit_sectors += hit;
  } else {
    c.l2_load_sectors += hit + miss;
    c.l2_load_hit_sectors += hit;
  }
}

Counters& Counters::operator+=(const Counters& o) {
  each_field(*this, o, [](auto& x, const auto& y) { x += y; });
  return *this;
}

Counters Counters::operator-(const Counters& o) const {
  Counters d = *this;
  each_field(d, o, [](auto& x, const auto& y) { x -= y; });
  return d;
}

std::string_view to_string(Bound b) {
  return b == Bound::dram ? "dram" : "compute";
}

Roofline roofline(const Counters& c, const Problem& p, const Machine& m) {
  Roofline r;
  r.peak_flops_per_s =
      p.spec().dtype == DType::fp32 ? m.fp32_flops_per_s : m.fp16_tensor_flops_per_s;
  r.dram_time_s = static_cast<double>(c.dram_bytes()) / m.dram_bytes_per_s;
  r.compute_time_s = c.flops / r.peak_flops_per_s;
  r.ridge_flops_per_byte = r.peak_flops_per_s / m.dram_bytes_per_s;
  r.bound = r.compute_time_s > r.dram_time_s ? Bound::compute : Bound::dram;
  r.time_s = std::max(r.dram_time_s, r.compute_time_s);
  return r;
}

}  // namespace tilesim::sim
