// Sustained runs (see sustained_runs.hpp): a small CSV, read strictly.
#include "scenario/sustained_runs.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include "scenario/bundled_asset.hpp"

namespace tilesim::scenario {
namespace {

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t e; (e = line.find(sep, b)) != std::string_view::npos; b = e + 1)
    out.push_back(line.substr(b, e - b));
  out.push_back(line.substr(b));
  return out;
}

double number(std::string_view s, const std::string& where) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
    throw std::runtime_error(where + ": \"" + std::string(s) + "\" is not a number >= 0");
  return v;
}

}  // namespace

SustainedRuns parse_sustained_runs(std::string_view csv, const std::string& source) {
  SustainedRuns out;
  std::map<std::string, std::size_t> col;
  int line_no = 0;
  for (std::string_view rest = csv; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string at = source + ":" + std::to_string(line_no);
    if (line.empty()) continue;
    if (line.front() == '#') {
      if (line.substr(0, 7) == "# gpu: ") out.gpu = std::string(line.substr(7));
      if (line.substr(0, 8) == "# date: ") out.date = std::string(line.substr(8));
      continue;
    }
    const auto cells = split(line, ',');
    if (col.empty()) {  // the header
      for (std::size_t i = 0; i < cells.size(); ++i) col[std::string(cells[i])] = i;
      for (const char* need : {"variant", "problem", "dtype", "order", "median_ms", "sm_mhz_median",
                               "power_w_median", "clean"})
        if (!col.count(need)) throw std::runtime_error(at + ": no column " + need);
      continue;
    }
    if (cells.size() != col.size())
      throw std::runtime_error(at + ": " + std::to_string(cells.size()) +
                               " fields, the header has " + std::to_string(col.size()));
    const auto cell = [&](const char* name) { return cells[col.at(name)]; };
    if (cell("clean") == "0") continue;
    SustainedRun r;
    r.variant = std::string(cell("variant"));
    const auto mnk = split(cell("problem"), 'x');
    if (mnk.size() != 3) throw std::runtime_error(at + ".problem: not MxNxK");
    r.m = static_cast<std::int64_t>(number(mnk[0], at + ".problem"));
    r.n = static_cast<std::int64_t>(number(mnk[1], at + ".problem"));
    r.k = static_cast<std::int64_t>(number(mnk[2], at + ".problem"));
    const auto dtype = sim::parse_dtype(cell("dtype"));
    if (!dtype) throw std::runtime_error(at + ".dtype: \"" + std::string(cell("dtype")) + "\"");
    r.dtype = *dtype;
    const auto order = sim::parse_launch_order(cell("order"));
    if (!order) throw std::runtime_error(at + ".order: \"" + std::string(cell("order")) + "\"");
    r.order = *order;
    r.median_ms = number(cell("median_ms"), at + ".median_ms");
    r.sm_mhz = number(cell("sm_mhz_median"), at + ".sm_mhz_median");
    r.power_w = number(cell("power_w_median"), at + ".power_w_median");
    out.runs.push_back(std::move(r));
  }
  if (col.empty()) throw std::runtime_error(source + ": no header line");
  if (out.gpu.empty()) throw std::runtime_error(source + ": no \"# gpu:\" line");
  return out;
}

namespace {
SustainedRuns parse_asset(std::string_view text, const std::string& path) {
  return parse_sustained_runs(text, path);
}
}  // namespace

const SustainedRuns* bundled_sustained_runs(const std::string& machine_key) {
  return bundled_asset<parse_asset>("measured/power_ladder_" + machine_key + ".csv");
}

const SustainedRun* find_sustained(const SustainedRuns& runs, const std::string& variant,
                                   const sim::ProblemSpec& spec) {
  for (const auto& r : runs.runs)
    if (r.variant == variant && r.m == spec.m && r.n == spec.n && r.k == spec.k &&
        r.dtype == spec.dtype && r.order == spec.order &&
        (spec.order != sim::LaunchOrder::grouped || spec.group_size_m == 8))
      return &r;
  return nullptr;
}

}  // namespace tilesim::scenario
