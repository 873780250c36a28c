// The values of a lesson's figures by source (see figure_values.hpp).
#include "scenario/figure_values.hpp"

#include <cstdio>
#include <map>

#include "sim/base/format.hpp"
#include "sim/machine/parameters.hpp"

namespace tilesim::scenario::figures {
namespace {
std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Machine sizes as the datasheet gives them: 50 MiB, 228 KiB (binary where exact).
std::string machine_bytes(double b) {
  const auto n = static_cast<long long>(b);
  if (n > 0 && n % (1ll << 20) == 0) return std::to_string(n >> 20) + " MiB";
  if (n > 0 && n % (1ll << 10) == 0) return std::to_string(n >> 10) + " KiB";
  return sim::format_bytes(b);
}

std::string record_text(const BenchRecord& r) {
  const auto& s = r.result.problem;
  const std::string shape =
      s.m == s.n && s.n == s.k
          ? std::to_string(s.m) + "\u00b3"
          : std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  return r.result.variant + " " + shape + " " + std::string(sim::to_string(s.dtype)) + " " +
         std::string(sim::to_string(s.order)) + ", blocks " + std::to_string(s.block_m) + "x" +
         std::to_string(s.block_n) + "x" + std::to_string(s.block_k) + ", B " +
         std::string(sim::to_string(s.b_layout));
}

bool matches(const BenchRecord& r, const std::string& f) {
  const auto& s = r.result.problem;
  const auto d = dims(f);
  if (d.size() == 1) return s.m == d[0] && s.n == d[0] && s.k == d[0];
  if (d.size() == 2) return s.block_m == d[0] && s.block_n == d[1];
  if (d.size() == 3)
    return (s.m == d[0] && s.n == d[1] && s.k == d[2]) ||
           (s.block_m == d[0] && s.block_n == d[1] && s.block_k == d[2]);
  if (const auto t = sim::parse_dtype(f)) return s.dtype == *t;
  if (const auto o = sim::parse_launch_order(f)) return s.order == *o;
  if (f == "b-row-major") return s.b_layout == sim::BLayout::row_major;
  if (f == "b-transposed") return s.b_layout == sim::BLayout::transposed;
  return false;
}

}  // namespace

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::vector<long long> dims(std::string_view s) {
  std::vector<long long> out;
  for (const auto& part : split(s, 'x')) {
    if (!all_digits(part) || part.size() > 12) return {};
    out.push_back(std::stoll(part));
  }
  return out;
}

Figure numeric(std::string name, double v, Unit u, FigureKind kind, std::string source) {
  Figure f;
  f.name = std::move(name);
  f.value = v;
  f.kind = kind;
  f.source = std::move(source);
  switch (u) {
    case Unit::seconds:
      f.text = sim::format_seconds(v), f.unit = "s";
      break;
    case Unit::bytes:
      f.text = sim::format_bytes(v), f.unit = "B";
      break;
    case Unit::fraction:
      f.text = sim::format_percent(v), f.unit = "fraction";
      break;
    case Unit::count:
      f.text = sim::format_count(static_cast<long long>(v)), f.unit = "count";
      break;
    case Unit::tflops:
      f.text = fmt("%.1f TFLOP/s", v), f.unit = "TFLOP/s";
      break;
    case Unit::text:
      break;
  }
  return f;
}

Figure text_figure(std::string name, std::string text, FigureKind kind, std::string source) {
  Figure f;
  f.name = std::move(name);
  f.text = std::move(text);
  f.unit = "text";
  f.kind = kind;
  f.source = std::move(source);
  return f;
}

void fail(std::string_view name, const std::string& why) {
  throw ScenarioError("{" + std::string(name) + "}: " + why);
}

Figure with_detail(Figure f, std::string detail) {
  f.detail = std::move(detail);
  return f;
}

Figure problem_figure(std::string_view name, const std::string& field, const sim::Problem& p) {
  const auto& s = p.spec();
  const std::string src = "from the problem";
  const double out_bytes =
      static_cast<double>(p.shape(sim::Operand::c).elements()) * p.elem_bytes();
  const std::map<std::string, double> ints = {{"m", double(s.m)},
                                              {"n", double(s.n)},
                                              {"k", double(s.k)},
                                              {"block_m", s.block_m},
                                              {"block_n", s.block_n},
                                              {"block_k", s.block_k},
                                              {"tiles_m", double(p.tiles_m())},
                                              {"tiles_n", double(p.tiles_n())},
                                              {"k_tiles", double(p.k_tiles())},
                                              {"programs", double(p.programs())},
                                              {"group_size_m", s.group_size_m},
                                              {"num_warps", p.num_warps()},
                                              {"stages", s.stages},
                                              {"dtype_bytes", p.elem_bytes()}};
  if (const auto it = ints.find(field); it != ints.end()) {
    Figure f = numeric(std::string(name), it->second, Unit::count, FigureKind::computed, src);
    f.text = std::to_string(static_cast<long long>(it->second));  // a size reads 8192, not 8,192
    return f;
  }
  if (field == "input_bytes")
    return numeric(std::string(name), p.compulsory_bytes() - out_bytes, Unit::bytes,
                   FigureKind::computed, src);
  if (field == "output_bytes")
    return numeric(std::string(name), out_bytes, Unit::bytes, FigureKind::computed, src);
  if (field == "dtype")
    return text_figure(std::string(name), std::string(sim::to_string(s.dtype)),
                       FigureKind::computed, src);
  // shape: 574³ for a cube, else 8192 × 4096 × 6144 (× 6144 only for matmul).
  const bool mm = p.kernel() == sim::Kernel::matmul;
  std::string shape;
  if (mm && s.m == s.n && s.n == s.k)
    shape = std::to_string(s.m) + "\u00b3";
  else
    shape = std::to_string(s.m) + " \u00d7 " + std::to_string(s.n) +
            (mm ? " \u00d7 " + std::to_string(s.k) : "");
  return text_figure(std::string(name), shape, FigureKind::computed, src);
}

Figure machine_figure(std::string_view name, const std::string& field, const sim::Machine& m) {
  // Aliases of the README onto the parameter table's fields.
  static const std::map<std::string, std::string> alias = {{"sm_count", "sms"},
                                                           {"smem_per_sm", "smem_per_sm_bytes"},
                                                           {"dram_bandwidth", "dram_bytes_per_s"}};
  const std::string preset = m.name + " preset";
  if (field == "name") return text_figure(std::string(name), m.name, FigureKind::datasheet, preset);
  if (field == "l2_effective_bytes") {
    Figure f = numeric(std::string(name), double(sim::effective_l2_bytes(m)), Unit::bytes,
                       FigureKind::datasheet,
                       preset + ": l2_bytes / l2_partitions (what shared data sees)");
    f.text = machine_bytes(f.value);
    return f;
  }
  const auto a = alias.find(field);
  const std::string key = a == alias.end() ? field : a->second;
  const sim::MachineParameter* row = sim::find_machine_parameter(key);
  if (!row)
    fail(name, "no machine field \"" + field + "\" (tilesim-cli machine-params lists them)");
  const sim::ParameterValue v = row->value(m);
  const sim::Evidence* e = row->evidence_for(m.key);
  const std::string src =
      preset + (e ? ", " + std::string(sim::to_string(e->kind)) + ": " + e->source : "");
  Figure f;
  f.name = std::string(name);
  f.value = v.number;
  f.unit = row->unit;
  // A preset's figure is labelled by its evidence: a reading (the T4's clock under load) is
  // measured, the rest stand as the preset's datasheet figures (their source says which kind).
  f.kind = e && e->kind == sim::ParameterKind::measured ? FigureKind::measured
                                                         : FigureKind::datasheet;
  f.source = src;
  if (row->unit == "bytes") {
    f.text = machine_bytes(v.number), f.unit = "B";
  } else if (row->unit == "bytes/s") {
    f.text = fmt("%.2f TB/s", v.number / 1e12), f.unit = "B/s";
  } else if (row->unit == "Hz" && v.number >= 1e8) {
    f.text = fmt("%.2f GHz", v.number / 1e9);
  } else if (row->unit == "FLOP/s" && v.number >= 1e11) {
    f.text = fmt("%.1f TFLOP/s", v.number / 1e12);
  } else if (v.is_integer) {
    f.text = std::to_string(static_cast<long long>(v.number)) +
             (row->unit.empty() ? "" : " " + row->unit);
  } else {
    f.text = sim::format_value(v) + (row->unit.empty() ? "" : " " + row->unit);
  }
  if (key == "sms") f.text = std::to_string(static_cast<long long>(v.number));  // "132"
  return f;
}

Figure measured_figure(std::string_view name, const std::vector<std::string>& parts,
                       const FigureContext& c) {
  // parts: measured, GPU, VARIANT, FILTER..., FIELD
  const std::string& gpu = parts[1];
  const std::string& variant = parts[2];
  const std::string& field = parts.back();
  if (!c.bench) fail(name, "no bench files loaded");
  const BenchFile* file = nullptr;
  for (const auto& b : *c.bench)
    if (b.gpu == gpu) file = &b;
  if (!file)
    fail(name, "no bench file for \"" + gpu + "\" (assets/measured/bench_" + gpu + ".json)");
  std::vector<const BenchRecord*> hits;
  for (const auto& r : file->report.records) {
    if (r.result.variant != variant || !r.result.ok || !(r.result.median_ms > 0)) continue;
    bool all = true;
    for (std::size_t i = 3; i + 1 < parts.size(); ++i) all = all && matches(r, parts[i]);
    if (all) hits.push_back(&r);
  }
  if (hits.size() != 1) {
    std::string why = hits.empty() ? "no timed record of " + variant + " matches"
                                   : std::to_string(hits.size()) +
                                         " records match (add a filter: shape, dtype, order, "
                                         "block or b-layout):";
    for (std::size_t i = 0; i < hits.size() && i < 8; ++i) why += "\n  " + record_text(*hits[i]);
    if (hits.empty()) {
      std::vector<std::string> shown;
      for (const auto& r : file->report.records)
        if (r.result.variant == variant && r.result.median_ms > 0 && shown.size() < 8)
          shown.push_back(record_text(r));
      why += shown.empty() ? " (no timed records of that variant in " + file->path.string() + ")"
                           : "; its timed records include:";
      for (const auto& s : shown) why += "\n  " + s;
    }
    fail(name, why);
  }
  const BenchRecord& r = *hits[0];
  const auto& s = r.result.problem;
  const std::string date = file->report.date.substr(0, 10);
  const std::string source = file->report.device.name + ", " + date + ", assets/measured/" +
                             file->path.filename().string();
  const std::string detail = record_text(r);
  if (field == "tflops") {
    const double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
    return with_detail(numeric(std::string(name), flops / (r.result.median_ms * 1e-3) / 1e12,
                               Unit::tflops, FigureKind::measured, source),
                       detail + ", 2mnk / median");
  }
  const double ms = field == "ms" ? r.result.median_ms : r.baseline_ms;
  if (!(ms > 0)) fail(name, "the record has no " + field + ": " + record_text(r));
  return with_detail(
      numeric(std::string(name), ms * 1e-3, Unit::seconds, FigureKind::measured, source),
      detail + (field == "baseline_ms" ? ", baseline " + r.baseline : ", median"));
}

}  // namespace tilesim::scenario::figures
