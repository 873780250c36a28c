// Loading measurement files and matching them to problems (see measured.hpp).
#include "scenario/measured.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "scenario/file_io.hpp"
#include "scenario/problem_json.hpp"
#include "sim/machine/machine.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::map<std::string, double> numbers_of(const json& o) {
  std::map<std::string, double> out;
  if (!o.is_object()) return out;
  for (const auto& [k, v] : o.items())
    if (v.is_number()) out[k] = v.get<double>();
  return out;
}

}  // namespace

std::string machine_key_of_device(std::string_view device) {
  const std::string dev = lower(std::string(device));
  std::string key;
  for (const auto& m : sim::machine_presets())
    if (dev.find(lower(m.key)) != std::string::npos) key = m.key;
  return key;
}

double MeasuredRecord::metric(const std::string& name, double fallback) const {
  const auto it = measured.find(name);
  return it == measured.end() ? fallback : it->second;
}

MeasuredSet parse_measured_json(std::string_view text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e400
    throw std::runtime_error(source + ": " + e.what());
  }
  if (!j.is_object() || !j.contains("records") || !j["records"].is_array())
    throw std::runtime_error(source + ": expected an object with a records[] array");
  MeasuredSet s;
  s.source = source;
  s.device = j.value("device", "");
  s.date = j.value("date", "");
  s.commit = j.value("commit", "");
  s.tool = j.value("tool", "");
  s.machine_key = machine_key_of_device(s.device);
  for (std::size_t i = 0; i < j["records"].size(); ++i) {
    const json& r = j["records"][i];
    const std::string where = source + ": records[" + std::to_string(i) + "]";
    if (!r.is_object() || !r.contains("problem")) throw std::runtime_error(where + ": no problem");
    MeasuredRecord rec;
    rec.id = r.value("id", "");
    rec.variant = r.value("variant", "");
    try {
      rec.spec = problem_from_json(r["problem"], Dialect::legacy);
      if (r.contains("programs_per_sm"))
        rec.programs_per_sm = read_int(r["programs_per_sm"], "programs_per_sm", Dialect::legacy);
    } catch (const sim::InvalidField& e) {
      throw std::runtime_error(where + ": " + e.what());
    }
    if (r.contains("measured")) rec.measured = numbers_of(r["measured"]);
    if (r.contains("predicted")) rec.predicted = numbers_of(r["predicted"]);
    s.records.push_back(std::move(rec));
  }
  return s;
}

MeasuredSet load_measured(const std::filesystem::path& path) {
  return parse_measured_json(read_file(path), path.string());
}

MeasuredFileKind measured_file_kind(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (name.rfind("bench_", 0) == 0) return MeasuredFileKind::bench;
  if (name.rfind("triton_", 0) == 0) return MeasuredFileKind::triton;
  return MeasuredFileKind::nsight;
}

std::vector<MeasuredSet> load_measured_dir(const std::filesystem::path& dir,
                                           std::vector<std::string>* errors) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && measured_file_kind(e.path()) == MeasuredFileKind::nsight)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<MeasuredSet> out;
  for (const auto& f : files) {
    try {
      out.push_back(load_measured(f));
    } catch (const std::exception& e) {
      if (errors) errors->push_back(e.what());
    }
  }
  return out;
}

std::vector<MeasuredMatch> find_measured(const std::vector<MeasuredSet>& sets,
                                         const sim::ProblemSpec& spec,
                                         std::string_view machine_key) {
  std::vector<MeasuredMatch> out;
  for (const auto& s : sets) {
    if (lower(s.machine_key) != lower(std::string(machine_key))) continue;
    for (const auto& r : s.records)
      if (same_configuration(r.spec, spec)) out.push_back({&s, &r});
  }
  return out;
}

}  // namespace tilesim::scenario
