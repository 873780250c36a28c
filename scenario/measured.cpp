// Loading measurement files and matching them to problems (see measured.hpp).
#include "scenario/measured.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/machine.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::string text_of(const json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::int64_t int_of(const json& v, const std::string& where) {
  try {
    return v.is_number_integer() ? v.get<std::int64_t>() : std::stoll(text_of(v));
  } catch (const std::exception&) {
    throw std::runtime_error(where + ": not an integer: " + text_of(v));
  }
}

sim::ProblemSpec spec_of(const json& p, const std::string& where) {
  if (!p.is_object()) throw std::runtime_error(where + ": not an object");
  sim::ProblemSpec s;
  for (const auto& [key, v] : p.items()) {
    const std::string w = where + "." + key;
    const std::string t = text_of(v);
    if (key == "kernel") {
      const auto k = sim::parse_kernel(t);
      if (!k) throw std::runtime_error(w + ": unknown kernel " + t);
      s.kernel = *k;
    } else if (key == "dtype") {
      const auto d = sim::parse_dtype(t);
      if (!d) throw std::runtime_error(w + ": unknown dtype " + t);
      s.dtype = *d;
    } else if (key == "order") {
      const auto o = sim::parse_launch_order(t);
      if (!o) throw std::runtime_error(w + ": unknown order " + t);
      s.order = *o;
    } else if (key == "b_layout") {
      const auto b = sim::parse_b_layout(t);
      if (!b) throw std::runtime_error(w + ": unknown b_layout " + t);
      s.b_layout = *b;
    } else if (key == "m")
      s.m = int_of(v, w);
    else if (key == "n")
      s.n = int_of(v, w);
    else if (key == "k")
      s.k = int_of(v, w);
    else if (key == "block_m")
      s.block_m = int(int_of(v, w));
    else if (key == "block_n")
      s.block_n = int(int_of(v, w));
    else if (key == "block_k")
      s.block_k = int(int_of(v, w));
    else if (key == "group_m" || key == "group_size_m")
      s.group_size_m = int_of(v, w);
    else if (key == "stages")
      s.stages = int(int_of(v, w));
    // other keys (machine, schedule, ...) do not change the configuration compared
  }
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

double MeasuredRecord::metric(const std::string& name, double fallback) const {
  const auto it = measured.find(name);
  return it == measured.end() ? fallback : it->second;
}

MeasuredSet parse_measured_json(std::string_view text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
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
  const std::string dev = lower(s.device);
  for (const auto& m : sim::machine_presets())
    if (dev.find(lower(m.key)) != std::string::npos) s.machine_key = m.key;
  for (std::size_t i = 0; i < j["records"].size(); ++i) {
    const json& r = j["records"][i];
    const std::string where = source + ": records[" + std::to_string(i) + "]";
    if (!r.is_object() || !r.contains("problem")) throw std::runtime_error(where + ": no problem");
    MeasuredRecord rec;
    rec.id = r.value("id", "");
    rec.variant = r.value("variant", "");
    rec.spec = spec_of(r["problem"], where + ".problem");
    if (r.contains("programs_per_sm"))
      rec.programs_per_sm = int(int_of(r["programs_per_sm"], where + ".programs_per_sm"));
    if (r.contains("measured")) rec.measured = numbers_of(r["measured"]);
    if (r.contains("predicted")) rec.predicted = numbers_of(r["predicted"]);
    s.records.push_back(std::move(rec));
  }
  return s;
}

MeasuredSet load_measured(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_measured_json(ss.str(), path.string());
}

std::vector<MeasuredSet> load_measured_dir(const std::filesystem::path& dir,
                                           std::vector<std::string>* errors) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
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

bool same_configuration(const sim::ProblemSpec& a, const sim::ProblemSpec& b) {
  const bool mm = a.kernel == sim::Kernel::matmul;
  const auto grouped = [](sim::LaunchOrder o) {
    return o == sim::LaunchOrder::grouped || o == sim::LaunchOrder::grouped_legacy;
  };
  return a.kernel == b.kernel && a.m == b.m && a.n == b.n && (!mm || a.k == b.k) &&
         a.dtype == b.dtype && a.block_m == b.block_m && a.block_n == b.block_n &&
         (!mm || a.block_k == b.block_k) && a.order == b.order &&
         (!grouped(a.order) || a.group_size_m == b.group_size_m) &&
         (!mm || a.b_layout == b.b_layout);
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
