// `tilesim-cli run --json`'s object (see run_report.hpp).
#include "scenario/run_report.hpp"

#include "scenario/triton_choices_report.hpp"
#include "sim/compiler/triton_choices.hpp"
#include "sim/memory/counters.hpp"

namespace tilesim::scenario {

nlohmann::json replay_json(const sim::Problem& p, const sim::Machine& m,
                           const sim::ReplayResult& r) {
  const auto& c = r.counters;
  return nlohmann::json{
      {"machine", m.key},
      {"dram_read_bytes", c.dram_read_bytes},
      {"dram_write_bytes", c.dram_write_bytes},
      {"dram_write_bytes_in_kernel", c.dram_write_bytes_in_kernel()},
      {"l2_partitions", m.l2_partitions},
      {"l2_effective_bytes", sim::effective_l2_bytes(m)},
      {"event_order", sim::to_string(r.order)},
      {"l2_read_bytes", c.l2_read_bytes},
      {"l2_write_bytes", c.l2_write_bytes},
      {"l2_hit_rate", c.l2_hit_rate()},
      {"l2_load_hit_rate", c.l2_load_hit_rate()},
      {"flops", c.flops},
      {"events", c.events},
      {"tile_loads", c.tile_loads},
      {"waves", r.waves},
      {"programs_per_sm", r.occupancy.programs_per_sm},
      {"occupancy", r.occupancy.reason},
      {"store_lanes", c.store_lanes},
      {"valid_store_lanes", c.valid_store_lanes},
      {"smem_read_bytes", c.smem_read_bytes},
      {"smem_write_bytes", c.smem_write_bytes},
      {"register_bytes", c.register_bytes},
      {"compulsory_bytes", p.compulsory_bytes()},
      {"arithmetic_intensity", c.arithmetic_intensity()},
      {"num_warps", p.num_warps()},
      {"input_precision", sim::to_string(p.spec().input_precision)},
      {"predicted_time_s", r.timing.time_s()},
      {"tflops", tflops(p, r)},
      {"dram_bytes_per_s", dram_bytes_per_s(r)},
      {"bound", sim::to_string(r.timing.breakdown.bound())},
      {"time_breakdown", breakdown_json(r.timing)},
      {"math_path", sim::to_string(r.timing.costs.path)},
      {"smem_layout", sim::to_string(r.timing.costs.layout)},
      {"busy", nlohmann::json{{"dram", r.timing.dram_busy},
                              {"l2", r.timing.l2_busy},
                              {"sm_fill", r.timing.fill_busy},
                              {"dot", r.timing.dot_busy}}},
      {"roofline_time_s", r.roofline.time_s},
      {"roofline_bound", sim::to_string(r.roofline.bound)},
      // What Triton's compiler makes of the problem (rules, no replay): why a shape is slow.
      {"triton", triton_choices_json(sim::triton_choices(p, m))},
  };
}

nlohmann::json breakdown_json(const sim::TimingSummary& t) {
  nlohmann::json j = nlohmann::json::object();
  for (int c = 0; c < sim::kTimeCauses; ++c)
    j[std::string(sim::to_string(static_cast<sim::TimeCause>(c)))] =
        t.breakdown.seconds[static_cast<std::size_t>(c)];
  return j;
}

double tflops(const sim::Problem& p, const sim::ReplayResult& r) {
  return p.kernel() == sim::Kernel::matmul ? sim::throughput(p, r.timing.time_s()).value : 0.0;
}

double dram_bytes_per_s(const sim::ReplayResult& r) {
  const double t = r.timing.time_s();
  const auto& c = r.counters;
  return t > 0 ? static_cast<double>(c.dram_read_bytes + c.dram_write_bytes_in_kernel()) / t : 0.0;
}

}  // namespace tilesim::scenario
