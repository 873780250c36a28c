// Custom machines from scenario JSON: a preset with some fields replaced.
#include "scenario/machine_json.hpp"

#include <nlohmann/json.hpp>

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

// The timed engine's figures (sim/machine.hpp), by key; nullptr for any other key.
double* timing_number(sim::Machine& m, const std::string& key) {
  const std::pair<const char*, double*> fields[] = {
      {"sm_clock_hz", &m.sm_clock_hz},
      {"tf32_tensor_flops_per_s", &m.tf32_tensor_flops_per_s},
      {"mma_sync_fraction", &m.mma_sync_fraction},
      {"l2_bytes_per_s", &m.l2_bytes_per_s},
      {"dram_efficiency", &m.dram_efficiency},
      {"fma_efficiency", &m.fma_efficiency},
      {"tensor_efficiency", &m.tensor_efficiency},
      {"program_jitter", &m.program_jitter}};
  for (const auto& [name, ptr] : fields)
    if (key == name) return ptr;
  return nullptr;
}

int* timing_integer(sim::Machine& m, const std::string& key) {
  const std::pair<const char*, int*> fields[] = {
      {"l2_hit_latency_cycles", &m.l2_hit_latency_cycles},
      {"dram_latency_cycles", &m.dram_latency_cycles},
      {"sm_l2_bytes_per_cycle", &m.sm_l2_bytes_per_cycle},
      {"smem_bytes_per_cycle", &m.smem_bytes_per_cycle},
      {"program_launch_cycles", &m.program_launch_cycles}};
  for (const auto& [name, ptr] : fields)
    if (key == name) return ptr;
  return nullptr;
}

std::string text(const json& v, const std::string& key) {
  if (!v.is_string()) throw sim::InvalidField(field(key), field(key) + " must be a string");
  return v.get<std::string>();
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
  for (const auto& [key, v] : j.items()) {
    if (key == "base")
      continue;
    else if (key == "name")
      m.name = text(v, key);
    else if (key == "source")
      m.source = text(v, key);
    else if (key == "sms")
      m.sms = small(v, key);
    else if (key == "l2_bytes")
      m.l2_bytes = integer(v, key);
    else if (key == "l2_ways")
      m.l2_ways = small(v, key);
    else if (key == "l2_partitions")
      m.l2_partitions = small(v, key);
    else if (key == "dram_bytes_per_s")
      m.dram_bytes_per_s = number(v, key);
    else if (key == "fp32_flops_per_s")
      m.fp32_flops_per_s = number(v, key);
    else if (key == "fp16_tensor_flops_per_s")
      m.fp16_tensor_flops_per_s = number(v, key);
    else if (key == "smem_per_sm_bytes")
      m.smem_per_sm_bytes = integer(v, key);
    else if (key == "smem_per_block_bytes")
      m.smem_per_block_bytes = integer(v, key);
    else if (key == "registers_per_sm")
      m.registers_per_sm = integer(v, key);
    else if (key == "max_threads_per_sm")
      m.max_threads_per_sm = small(v, key);
    else if (key == "max_programs_per_sm")
      m.max_programs_per_sm = small(v, key);
    else if (key == "has_wgmma") {
      if (!v.is_boolean()) throw sim::InvalidField(field(key), field(key) + " must be true/false");
      m.has_wgmma = v.get<bool>();
    } else if (double* d = timing_number(m, key))
      *d = number(v, key);
    else if (int* i = timing_integer(m, key))
      *i = small(v, key);
    else
      throw sim::InvalidField(field(key), field(key) + " is not a machine field");
  }
  sim::validate_machine(m);
  return m;
}

sim::Machine machine_of(const Scenario& s) {
  if (!s.custom_machine_json.empty()) return parse_machine_json(s.custom_machine_json);
  if (auto m = sim::find_machine(s.machine)) return *m;
  throw sim::InvalidField(
      "machine", "machine = \"" + s.machine + "\" is unknown: allowed " + sim::machine_names());
}

}  // namespace tilesim::scenario
