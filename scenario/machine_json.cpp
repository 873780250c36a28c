// Custom machines from scenario JSON: a preset with some fields replaced.
#include "scenario/machine_json.hpp"

#include <nlohmann/json.hpp>
#include <type_traits>

namespace tilesim::scenario {
namespace {

using nlohmann::json;

std::string field(const std::string& key) {
  return "custom_machine." + key;
}

double number(const json& v, const std::string& key) {
  if (!v.is_number()) throw sim::InvalidField(field(key), field(key) + " must be a number");
  return v.get<double>();
}

std::int64_t integer(const json& v, const std::string& key) {
  if (!v.is_number_integer())
    throw sim::InvalidField(field(key), field(key) + " must be an integer, got " + v.dump());
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > (std::uint64_t{1} << 62))
    throw sim::InvalidField(field(key), field(key) + " = " + v.dump() + " is far out of range");
  const auto x = v.get<std::int64_t>();
  if (x < -(std::int64_t{1} << 62) || x > (std::int64_t{1} << 62))
    throw sim::InvalidField(field(key), field(key) + " = " + v.dump() + " is far out of range");
  return x;
}

int small(const json& v, const std::string& key) {
  const auto x = integer(v, key);
  if (x < 0 || x > (1 << 30))
    throw sim::InvalidField(field(key),
                            field(key) + " = " + std::to_string(x) + " is out of range");
  return static_cast<int>(x);
}

std::string text(const json& v, const std::string& key) {
  if (!v.is_string()) throw sim::InvalidField(field(key), field(key) + " must be a string");
  return v.get<std::string>();
}

bool flag(const json& v, const std::string& key) {
  if (!v.is_boolean()) throw sim::InvalidField(field(key), field(key) + " must be true/false");
  return v.get<bool>();
}

// One value by the type of the field it goes to: int fields are small counts, int64 fields sizes.
template <class T>
void read(const json& v, const std::string& key, T& out) {
  if constexpr (std::is_same_v<T, int>)
    out = small(v, key);
  else if constexpr (std::is_same_v<T, std::int64_t>)
    out = integer(v, key);
  else if constexpr (std::is_same_v<T, double>)
    out = number(v, key);
  else if constexpr (std::is_same_v<T, bool>)
    out = flag(v, key);
  else
    out = text(v, key);
}

// Every key a custom machine may set, with the field it sets (sim/machine/machine.hpp). The line
// and sector sizes are not among them: the L2 model needs 128 and 32.
template <class F>
void for_each_machine_field(sim::Machine& m, F&& f) {
  f("name", m.name);
  f("source", m.source);
  f("sms", m.sms);
  f("l2_bytes", m.l2_bytes);
  f("l2_ways", m.l2_ways);
  f("l2_partitions", m.l2_partitions);
  f("dram_bytes_per_s", m.dram_bytes_per_s);
  f("fp32_flops_per_s", m.fp32_flops_per_s);
  f("fp32_peak_clock_hz", m.fp32_peak_clock_hz);
  f("fp16_tensor_flops_per_s", m.fp16_tensor_flops_per_s);
  f("smem_per_sm_bytes", m.smem_per_sm_bytes);
  f("smem_per_block_bytes", m.smem_per_block_bytes);
  f("smem_reserved_per_program_bytes", m.smem_reserved_per_program_bytes);
  f("l1_smem_bytes", m.l1_smem_bytes);
  f("registers_per_sm", m.registers_per_sm);
  f("max_threads_per_sm", m.max_threads_per_sm);
  f("max_programs_per_sm", m.max_programs_per_sm);
  f("has_wgmma", m.has_wgmma);
  f("has_cp_async", m.has_cp_async);
  f("smem_wide_loads_in_passes", m.smem_wide_loads_in_passes);
  // The timed engine's figures.
  f("sm_clock_hz", m.sm_clock_hz);
  f("fma_clock_hz", m.fma_clock_hz);
  f("tensor_clock_hz", m.tensor_clock_hz);
  f("tf32_tensor_flops_per_s", m.tf32_tensor_flops_per_s);
  f("mma_sync_fraction", m.mma_sync_fraction);
  f("l2_bytes_per_s", m.l2_bytes_per_s);
  f("l2_ld_global_bytes_per_s", m.l2_ld_global_bytes_per_s);
  f("dram_efficiency", m.dram_efficiency);
  f("fma_efficiency", m.fma_efficiency);
  f("tensor_efficiency", m.tensor_efficiency);
  f("warp_issue_cycles", m.warp_issue_cycles);
  f("issue_ceiling", m.issue_ceiling);
  f("schedulers_per_sm", m.schedulers_per_sm);
  f("dot_time_diffusion_s", m.dot_time_diffusion_s);
  f("dot_time_diffusion_miss_s", m.dot_time_diffusion_miss_s);
  f("load_round_cv", m.load_round_cv);
  f("warp_load_cv", m.warp_load_cv);
  f("l2_write_share_of_dram", m.l2_write_share_of_dram);
  f("partial_sector_store_cost", m.partial_sector_store_cost);
  f("stream_issue_cycles", m.stream_issue_cycles);
  f("older_program_share", m.older_program_share);
  f("tensor_start_fraction", m.tensor_start_fraction);
  f("tensor_sustained_fraction", m.tensor_sustained_fraction);
  f("tensor_throttle_after_s", m.tensor_throttle_after_s);
  f("tensor_throttle_tau_s", m.tensor_throttle_tau_s);
  f("l2_hit_latency_cycles", m.l2_hit_latency_cycles);
  f("l1_hit_latency_cycles", m.l1_hit_latency_cycles);
  f("dram_latency_cycles", m.dram_latency_cycles);
  f("sm_l2_bytes_per_cycle", m.sm_l2_bytes_per_cycle);
  f("smem_bytes_per_cycle", m.smem_bytes_per_cycle);
  f("program_launch_cycles", m.program_launch_cycles);
  f("program_dispatch_cycles", m.program_dispatch_cycles);
}

}  // namespace

sim::Machine parse_machine_json(std::string_view json_text) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::exception& e) {
    throw sim::InvalidField("custom_machine",
                            std::string("custom_machine is not JSON: ") + e.what());
  }
  if (!j.is_object())
    throw sim::InvalidField("custom_machine", "custom_machine must be a JSON object");
  std::string base = "h100";
  if (j.contains("base")) base = text(j["base"], "base");
  auto preset = sim::find_machine(base);
  if (!preset)
    throw sim::InvalidField(field("base"), field("base") + " = \"" + base +
                                               "\" is unknown: allowed " + sim::machine_names());
  sim::Machine m = *preset;
  m.key = "custom";
  m.name = "custom (" + preset->name + ")";
  for (const auto& item : j.items()) {
    // Named copies, not structured bindings: the lambda below captures them (clang 14).
    const std::string& key = item.key();
    const json& v = item.value();
    if (key == "base") continue;
    bool known = false;
    for_each_machine_field(m, [&](const char* name, auto& to) {
      if (known || key != name) return;
      read(v, key, to);
      known = true;
    });
    if (!known) throw sim::InvalidField(field(key), field(key) + " is not a machine field");
  }
  sim::validate_machine(m);
  return m;
}

std::vector<std::string> machine_json_keys() {
  std::vector<std::string> keys;
  sim::Machine m;
  for_each_machine_field(m, [&](const char* name, auto&) { keys.emplace_back(name); });
  return keys;
}

std::string machine_key(const sim::Machine& m) {
  sim::Machine copy = m;  // for_each_machine_field hands out references to write through
  json j = json::object();
  j["key"] = copy.key;
  j["l2_line_bytes"] = copy.l2_line_bytes;  // fixed (128, 32) for now, but a replay reads them
  j["l2_sector_bytes"] = copy.l2_sector_bytes;
  for_each_machine_field(copy, [&](const char* name, const auto& v) { j[name] = v; });
  return j.dump();
}

sim::Machine machine_of(const Scenario& s) {
  if (!s.custom_machine_json.empty()) return parse_machine_json(s.custom_machine_json);
  if (auto m = sim::find_machine(s.machine)) return *m;
  throw sim::InvalidField(
      "machine", "machine = \"" + s.machine + "\" is unknown: allowed " + sim::machine_names());
}

}  // namespace tilesim::scenario
