// BenchReport <-> JSON (nlohmann_json). Field names are those listed in kernels/README.md.
#include "scenario/bench_report.hpp"

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "scenario/bundled_asset.hpp"
#include "scenario/file_io.hpp"
#include "scenario/problem_json.hpp"

namespace tilesim::scenario {

using nlohmann::json;

namespace {

// The integer `key` of object `o`, or `fallback` when absent. A fraction or a number past T's
// range is refused with the range: converting one to an integer is undefined behaviour (the fuzzer
// found l2_bytes = 6e47, which json::value() would have cast).
template <class T>
T integer_or(const json& o, const char* key, T fallback, const std::string& where) {
  const json v = o.value(key, json());  // a non-object throws json's type_error, as value() did
  if (v.is_null()) return fallback;
  constexpr auto lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const bool fits =
      v.is_number_integer() &&
      (v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(hi)
                              : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi);
  if (!fits)
    throw std::runtime_error(where + ": " + key + " must be an integer from " + std::to_string(lo) +
                             " to " + std::to_string(hi) + ", got " + v.dump());
  return static_cast<T>(v.get<std::int64_t>());
}

}  // namespace

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
    if (!b.sweep.empty()) recs.back()["sweep"] = b.sweep;
    if (!b.run_date.empty()) recs.back()["run_date"] = b.run_date;
    if (!b.run_commit.empty()) recs.back()["run_commit"] = b.run_commit;
    if (b.resources) {
      const KernelResources& k = *b.resources;
      recs.back()["resources"] = {{"fits", k.fits},
                                  {"error", k.error},
                                  {"registers", k.registers},
                                  {"spill_bytes", k.spill_bytes},
                                  {"shared_bytes", k.shared_bytes},
                                  {"shared_limit_bytes", k.shared_limit_bytes},
                                  {"threads", k.threads},
                                  {"programs_per_sm", k.programs_per_sm}};
    }
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
    (void)j.at("format_version");  // required
    r.format_version = integer_or(j, "format_version", 0, where);
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
    r.device.sm_count = integer_or(d, "sm_count", 0, where);
    r.device.l2_bytes = integer_or(d, "l2_bytes", std::int64_t{0}, where);
    r.device.global_mem_bytes = integer_or(d, "global_mem_bytes", std::int64_t{0}, where);
    r.device.sm_clock_mhz = integer_or(d, "sm_clock_mhz", 0, where);
    r.device.mem_clock_mhz = integer_or(d, "mem_clock_mhz", 0, where);
    r.device.mem_bus_bits = integer_or(d, "mem_bus_bits", 0, where);
    r.device.peak_dram_gbs = d.value("peak_dram_gbs", 0.0);
    r.device.driver_version = integer_or(d, "driver_version", 0, where);
    r.device.runtime_version = integer_or(d, "runtime_version", 0, where);
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
      res.programs = integer_or(x, "programs", std::int64_t{0}, where);
      res.ok = x.at("ok").get<bool>();
      res.error = x.value("error", "");
      res.median_ms = x.at("median_ms").get<double>();
      res.min_ms = x.value("min_ms", 0.0);
      res.max_ms = x.value("max_ms", 0.0);
      res.timed_runs = integer_or(x, "timed_runs", 0, where);
      res.throughput = x.at("throughput").get<double>();
      res.throughput_unit = x.value("throughput_unit", "");
      res.checked = x.value("checked", false);
      res.correct = x.value("correct", false);
      res.rel_error = x.value("rel_error", 0.0);
      res.tolerance = x.value("tolerance", 0.0);
      res.unwritten = integer_or(x, "unwritten", std::int64_t{0}, where);
      res.reference = x.value("reference", "");
      res.note = x.value("note", "");
      b.baseline = x.value("baseline", "");
      b.baseline_ms = x.value("baseline_ms", 0.0);
      b.pct_of_baseline = x.value("pct_of_baseline", 0.0);
      b.sweep = x.value("sweep", "");
      b.run_date = x.value("run_date", "");
      b.run_commit = x.value("run_commit", "");
      if (b.sweep != "" && b.sweep != "blocks" && b.sweep != "group")
        throw std::runtime_error(where + ".sweep: \"" + b.sweep +
                                 "\" is not \"blocks\" or \"group\"");
      if (x.contains("resources")) {
        const std::string at = where + ".resources";
        const json& k = x.at("resources");
        if (!k.is_object()) throw std::runtime_error(at + ": not an object");
        KernelResources res;
        res.fits = k.value("fits", false);
        res.error = k.value("error", "");
        res.registers = integer_or(k, "registers", 0, at);
        res.spill_bytes = integer_or(k, "spill_bytes", 0, at);
        res.shared_bytes = integer_or(k, "shared_bytes", std::int64_t{0}, at);
        res.shared_limit_bytes = integer_or(k, "shared_limit_bytes", std::int64_t{0}, at);
        res.threads = integer_or(k, "threads", 0, at);
        res.programs_per_sm = integer_or(k, "programs_per_sm", 0, at);
        b.resources = res;
      }
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

const std::string& record_date(const BenchReport& report, const BenchRecord& record) {
  return record.run_date.empty() ? report.date : record.run_date;
}

const std::string& record_commit(const BenchReport& report, const BenchRecord& record) {
  return record.run_commit.empty() ? report.commit : record.run_commit;
}

namespace {
BenchReport parse_bench_asset(std::string_view text, const std::string&) {
  return parse_bench_json(text);
}
}  // namespace

const BenchReport* bundled_sweep_report(const std::string& machine_key) {
  return bundled_asset<parse_bench_asset>("measured/bench_sweep_" + machine_key + ".json");
}

}  // namespace tilesim::scenario
