// Triton's measured kernels and the lookup of a problem's (see triton_measured.hpp).
#include "scenario/triton_measured.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "scenario/file_io.hpp"
#include "scenario/measured.hpp"
#include "scenario/problem_identity.hpp"
#include "scenario/scenario.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

template <typename T>
T parsed(std::optional<T> v, const std::string& field, const std::string& value) {
  if (!v) throw std::runtime_error(field + " = '" + value + "' is not known");
  return *v;
}

// A whole number in 1..2^30 (sizes, blocks, warps, stages, GROUP_SIZE_M): a float or a value
// out of range would not convert to an integer safely.
std::int64_t count_of(const json& p, const char* field) {
  const json& v = p.at(field);
  if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > (1 << 30))
    throw std::runtime_error(std::string(field) + " = " + v.dump() +
                             " is not a whole number in 1..2^30");
  return v.get<std::int64_t>();
}

// The harness's problem as tilesim's (scripts/triton/compare.py's flags_of): seeds 000 and 003,
// copy and transpose launch a 2-D grid whose program_id(0) walks M fastest (column-major).
sim::ProblemSpec spec_of(const json& p) {
  sim::ProblemSpec s;
  const std::string kernel = p.at("kernel");
  s.kernel = kernel == "copy"        ? sim::Kernel::copy
             : kernel == "transpose" ? sim::Kernel::transpose
                                     : sim::Kernel::matmul;
  const bool mm = s.kernel == sim::Kernel::matmul;
  s.m = count_of(p, "m"), s.n = count_of(p, "n"), s.k = mm ? count_of(p, "k") : 1;
  const std::string dtype = p.at("dtype");
  s.dtype = parsed(sim::parse_dtype(dtype), "dtype", dtype);
  s.block_m = static_cast<int>(count_of(p, "block_m"));
  s.block_n = static_cast<int>(count_of(p, "block_n"));
  if (mm) s.block_k = static_cast<int>(count_of(p, "block_k"));
  s.num_warps = static_cast<int>(count_of(p, "num_warps"));
  const std::string order = p.at("order"), boundary = p.at("boundary");
  s.order = parsed(sim::parse_launch_order(order), "order", order);
  s.boundary = parsed(sim::parse_boundary(boundary), "boundary", boundary);
  if (mm) {
    s.group_size_m = count_of(p, "group_size_m");
    s.stages = static_cast<int>(count_of(p, "num_stages"));
    const std::string b = p.at("b_layout");
    s.b_layout = parsed(sim::parse_b_layout(b), "b_layout", b);
    if (s.dtype == sim::DType::fp32) {
      const std::string ip = p.at("input_precision");
      s.input_precision = parsed(sim::parse_input_precision(ip), "input_precision", ip);
    }
  }
  return s;
}

// Grouped order with one row per group walks the tiles row by row: the harness records it as
// row-major (the tutorial's G = 1).
sim::ProblemSpec normalised(sim::ProblemSpec s) {
  if (s.order == sim::LaunchOrder::grouped && s.group_size_m == 1)
    s.order = sim::LaunchOrder::row_major;
  return s;
}

bool is_matmul(const sim::ProblemSpec& s) {
  return s.kernel == sim::Kernel::matmul;
}

std::string sizes_of(const sim::ProblemSpec& s) {
  std::string out = std::to_string(s.m) + "x" + std::to_string(s.n);
  if (is_matmul(s)) out += "x" + std::to_string(s.k);
  return out;
}

std::string blocks_of(const sim::ProblemSpec& s) {
  std::string out = std::to_string(s.block_m) + "x" + std::to_string(s.block_n);
  if (is_matmul(s)) out += "x" + std::to_string(s.block_k);
  return out;
}

std::string precision_of(const sim::ProblemSpec& s) {
  std::string out(sim::to_string(s.dtype));
  if (is_matmul(s) && s.dtype == sim::DType::fp32)
    out += " (" + std::string(sim::to_string(s.input_precision)) + ")";
  return out;
}

std::string order_of(const sim::ProblemSpec& s) {
  std::string out(sim::to_string(s.order));
  if (s.order == sim::LaunchOrder::grouped || s.order == sim::LaunchOrder::grouped_legacy)
    out += " G" + std::to_string(s.group_size_m);
  return out;
}

// Which of M, N, K are multiples of 16: Triton specializes on nothing else (sim/compiler).
int divisibility_of(const sim::ProblemSpec& s) {
  return (s.m % 16 == 0) | (s.n % 16 == 0) << 1 | ((!is_matmul(s) || s.k % 16 == 0) << 2);
}

// How a measured configuration `r` differs from the problem `p`, phrase by phrase, and what
// that costs (the rule in triton_measured.hpp).
struct Difference {
  double cost = 0;
  std::vector<std::string> phrases;
};

Difference difference(const sim::ProblemSpec& p, const sim::ProblemSpec& r) {
  Difference d;
  const auto differs = [&d](bool differ, double cost, const std::string& measured) {
    if (!differ) return;
    d.cost += cost;
    d.phrases.push_back(measured);
  };
  const bool mm = is_matmul(p);
  differs(precision_of(p) != precision_of(r), 8, precision_of(r));
  const double log_sizes = std::fabs(std::log2(double(r.m) / double(p.m))) +
                           std::fabs(std::log2(double(r.n) / double(p.n))) +
                           (mm ? std::fabs(std::log2(double(r.k) / double(p.k))) : 0.0);
  if (sizes_of(p) != sizes_of(r)) {
    d.cost += log_sizes + (divisibility_of(p) != divisibility_of(r) ? 2 : 0);
    d.phrases.push_back("sizes " + sizes_of(r));
  }
  differs(blocks_of(p) != blocks_of(r), 2, "blocks " + blocks_of(r));
  differs(order_of(p) != order_of(r), 2, order_of(r) + " order");
  differs(mm && p.b_layout != r.b_layout, 2, "B " + std::string(sim::to_string(r.b_layout)));
  differs(p.boundary != r.boundary, 2, "boundary " + std::string(sim::to_string(r.boundary)));
  differs(p.num_warps != r.num_warps, 2, std::to_string(r.num_warps) + " warps");
  differs(mm && p.stages != r.stages, 2, std::to_string(r.stages) + " stages");
  return d;
}

}  // namespace

TritonMeasuredSet parse_triton_measured_json(std::string_view text, const std::string& source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
  if (!j.is_object() || !j.contains("records") || !j["records"].is_array() ||
      !j.contains("header") || !j["header"].is_object())
    throw std::runtime_error(source + ": expected an object with a header and a records[] array");
  TritonMeasuredSet s;
  s.source = source;
  const json& h = j["header"];
  try {
    s.gpu = h.value("gpu", "");
    s.date = h.value("date_utc", "").substr(0, 10);
    s.triton = h.value("triton", "");
  } catch (const json::exception& e) {
    throw std::runtime_error(source + ": header: " + e.what());
  }
  s.machine_key = machine_key_of_device(s.gpu);
  for (std::size_t i = 0; i < j["records"].size(); ++i) {
    const json& r = j["records"][i];
    const std::string where = source + ": records[" + std::to_string(i) + "]";
    try {
      if (!r.value("ok", false) || !r.value("correct", false)) continue;
      TritonRecord rec;
      rec.id = r.at("id");
      rec.kernel = r.at("problem").at("kernel");
      rec.spec = spec_of(r.at("problem"));
      rec.median_ms = r.at("median_ms").get<double>();
      rec.split = r.value("split", "");
      rec.source = source;
      rec.date = s.date;
      if (!(rec.median_ms > 0)) throw std::runtime_error("median_ms is not a positive time");
      s.records.push_back(std::move(rec));
    } catch (const std::exception& e) {  // json's type and out_of_range errors, and ours
      throw std::runtime_error(where + ": " + e.what());
    }
  }
  return s;
}

TritonMeasuredSet load_triton_measured(const std::filesystem::path& path) {
  return parse_triton_measured_json(read_file(path), path.string());
}

const TritonMeasuredSet* bundled_triton_measurements(const std::string& machine_key) {
  if (machine_key.empty()) return nullptr;
  static std::mutex mutex;
  static std::map<std::string, std::optional<TritonMeasuredSet>> cache;  // nullopt: none
  const std::lock_guard lock(mutex);
  auto [it, fresh] = cache.try_emplace(machine_key);
  if (fresh) {
    std::optional<TritonMeasuredSet> main;
    try {  // missing or damaged: none (the GPU panel says "not measured")
      main = load_triton_measured(assets_dir() / "measured" / ("triton_" + machine_key + ".json"));
    } catch (const std::exception&) {
    }
    if (main) {
      TritonMeasuredSet merged = std::move(*main);
      const std::string suffix = "_" + machine_key + ".json";
      std::vector<std::filesystem::path> supplements;
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(assets_dir() / "measured", ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("triton_supplement", 0) == 0 && name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
          supplements.push_back(e.path());
      }
      std::sort(supplements.begin(), supplements.end());
      for (const auto& path : supplements) try {
          auto more = load_triton_measured(path);
          if (more.machine_key != merged.machine_key) continue;  // another GPU's, misnamed
          merged.records.insert(merged.records.end(), std::make_move_iterator(more.records.begin()),
                                std::make_move_iterator(more.records.end()));
        } catch (const std::exception&) {  // a damaged supplement reads as none
        }
      it->second = std::move(merged);
    }
  }
  return it->second ? &*it->second : nullptr;
}

bool same_triton_configuration(const sim::ProblemSpec& a, const sim::ProblemSpec& b) {
  const sim::ProblemSpec x = normalised(a), y = normalised(b);
  const bool mm = is_matmul(x);
  return same_configuration(x, y) && x.num_warps == y.num_warps && x.boundary == y.boundary &&
         (!mm || (x.stages == y.stages && precision_of(x) == precision_of(y)));
}

TritonLookup find_triton_measurement(const TritonMeasuredSet& set, const sim::ProblemSpec& spec) {
  TritonLookup out;
  for (const auto& r : set.records)
    if (same_triton_configuration(r.spec, spec)) {
      out.exact = &r;
      return out;
    }
  double best = 0;
  const sim::ProblemSpec p = normalised(spec);
  for (const auto& r : set.records) {
    if (r.spec.kernel != spec.kernel) continue;
    Difference d = difference(p, normalised(r.spec));
    if (!out.nearest || d.cost < best) {
      best = d.cost;
      out.nearest = &r;
      out.differences = std::move(d.phrases);
    }
  }
  return out;
}

}  // namespace tilesim::scenario
