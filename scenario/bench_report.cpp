// BenchReport <-> JSON (nlohmann_json). Field names are those listed in kernels/README.md.
#include "scenario/bench_report.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "scenario/file_io.hpp"
#include "scenario/problem_json.hpp"

namespace tilesim::scenario {

using nlohmann::json;

std::string to_json(const BenchReport& r, int indent) {
  json j;
  j["format_version"] = r.format_version;
  j["tool"] = r.tool;
  j["date"] = r.date;
  j["commit"] = r.commit;
  const DeviceInfo& d = r.device;
  j["device"] = {
      {"available", d.available},
      {"reason", d.reason},
      {"name", d.name},
      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
      {"sm_count", d.sm_count},
      {"l2_bytes", d.l2_bytes},
      {"global_mem_bytes", d.global_mem_bytes},
      {"sm_clock_mhz", d.sm_clock_mhz},
      {"mem_clock_mhz", d.mem_clock_mhz},
      {"mem_bus_bits", d.mem_bus_bits},
      {"peak_dram_gbs", d.peak_dram_gbs},
      {"driver_version", d.driver_version},
      {"runtime_version", d.runtime_version}};
  j["options"] = {{"warmup", r.options.warmup},
                  {"repeats", r.options.repeats},
                  {"cold_l2", r.options.cold_l2},
                  {"check", r.options.check}};
  json recs = json::array();
  for (const auto& b : r.records) {
    const RunResult& x = b.result;
    recs.push_back({{"variant", x.variant},
                    {"problem", problem_to_json(x.problem)},
                    {"programs", x.programs},
                    {"ok", x.ok},
                    {"error", x.error},
                    {"median_ms", x.median_ms},
                    {"min_ms", x.min_ms},
                    {"max_ms", x.max_ms},
                    {"timed_runs", x.timed_runs},
                    {"throughput", x.throughput},
                    {"throughput_unit", x.throughput_unit},
                    {"checked", x.checked},
                    {"correct", x.correct},
                    {"rel_error", x.rel_error},
                    {"tolerance", x.tolerance},
                    {"unwritten", x.unwritten},
                    {"reference", x.reference},
                    {"note", x.note},
                    {"baseline", b.baseline},
                    {"baseline_ms", b.baseline_ms},
                    {"pct_of_baseline", b.pct_of_baseline}});
  }
  j["records"] = std::move(recs);
  return j.dump(indent);
}

BenchReport parse_bench_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  BenchReport r;
  std::string where = "top level";
  try {
    r.format_version = j.at("format_version").get<int>();
    if (r.format_version != 1)
      throw std::runtime_error("format_version " + std::to_string(r.format_version) + " is not 1");
    r.tool = j.value("tool", "");
    r.date = j.value("date", "");
    r.commit = j.value("commit", "");
    where = "device";
    const json& d = j.at("device");
    r.device.available = d.value("available", false);
    r.device.reason = d.value("reason", "");
    r.device.name = d.value("name", "");
    const std::string cc = d.value("compute_capability", "0.0");
    r.device.cc_major = std::atoi(cc.c_str());
    r.device.cc_minor =
        cc.find('.') == std::string::npos ? 0 : std::atoi(cc.c_str() + cc.find('.') + 1);
    r.device.sm_count = d.value("sm_count", 0);
    r.device.l2_bytes = d.value("l2_bytes", std::int64_t{0});
    r.device.global_mem_bytes = d.value("global_mem_bytes", std::int64_t{0});
    r.device.sm_clock_mhz = d.value("sm_clock_mhz", 0);
    r.device.mem_clock_mhz = d.value("mem_clock_mhz", 0);
    r.device.mem_bus_bits = d.value("mem_bus_bits", 0);
    r.device.peak_dram_gbs = d.value("peak_dram_gbs", 0.0);
    r.device.driver_version = d.value("driver_version", 0);
    r.device.runtime_version = d.value("runtime_version", 0);
    const json& recs = j.at("records");
    for (std::size_t i = 0; i < recs.size(); ++i) {
      where = "records[" + std::to_string(i) + "]";
      const json& x = recs[i];
      BenchRecord b;
      RunResult& res = b.result;
      res.variant = x.at("variant").get<std::string>();
      try {
        res.problem = problem_from_json(x.at("problem"));
      } catch (const sim::InvalidField& e) {
        throw std::runtime_error(where + ".problem: " + e.what());
      }
      res.device = r.device.name;
      res.programs = x.value("programs", std::int64_t{0});
      res.ok = x.at("ok").get<bool>();
      res.error = x.value("error", "");
      res.median_ms = x.at("median_ms").get<double>();
      res.min_ms = x.value("min_ms", 0.0);
      res.max_ms = x.value("max_ms", 0.0);
      res.timed_runs = x.value("timed_runs", 0);
      res.throughput = x.at("throughput").get<double>();
      res.throughput_unit = x.value("throughput_unit", "");
      res.checked = x.value("checked", false);
      res.correct = x.value("correct", false);
      res.rel_error = x.value("rel_error", 0.0);
      res.tolerance = x.value("tolerance", 0.0);
      res.unwritten = x.value("unwritten", std::int64_t{0});
      res.reference = x.value("reference", "");
      res.note = x.value("note", "");
      b.baseline = x.value("baseline", "");
      b.baseline_ms = x.value("baseline_ms", 0.0);
      b.pct_of_baseline = x.value("pct_of_baseline", 0.0);
      r.records.push_back(std::move(b));
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
  return r;
}

BenchReport load_bench_file(const std::filesystem::path& path) {
  return parse_bench_json(read_file(path));
}

}  // namespace tilesim::scenario
