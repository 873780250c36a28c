// GPU panel view model (see gpu_view.hpp).
#include "app/core/gpu_view.hpp"

#include <algorithm>
#include <filesystem>

#include "kernels/rung_timing.hpp"
#include "scenario/scenario.hpp"

namespace tilesim::app {

std::vector<const kernels::Variant*> gpu_variants(const sim::Problem& p) {
  std::vector<const kernels::Variant*> out;
  for (const auto& v : kernels::variants()) {
    if (v.kernel != p.kernel() || !v.implemented) continue;
    if (std::find(v.dtypes.begin(), v.dtypes.end(), p.spec().dtype) == v.dtypes.end()) continue;
    out.push_back(&v);
  }
  std::stable_sort(
      out.begin(), out.end(), [](const kernels::Variant* a, const kernels::Variant* b) {
        return a->kind == kernels::VariantKind::rung && b->kind != kernels::VariantKind::rung;
      });
  return out;
}

std::string no_device_sentence(const kernels::DeviceInfo& d) {
  if (d.available) return {};
  if (!kernels::cuda_built())
    return "This build cannot run kernels here, " + d.reason +
           ", so the table shows a tilesim-bench --json file measured on a GPU.";
  return "No GPU to run on here (" + d.reason +
         "), so the table shows a tilesim-bench --json file measured on a GPU.";
}

double GpuRun::pct_of_baseline() const {
  if (!baseline.ok || result.median_ms <= 0) return 0;
  return 100.0 * baseline.median_ms / result.median_ms;
}

GpuRun run_on_gpu(const sim::Problem& p, const std::string& variant, const kernels::RunOptions& o) {
  GpuRun r;
  r.result = kernels::run(p, variant, o);
  const bool cancelled = o.cancel && o.cancel->load();
  if (const auto* v = kernels::find_variant(variant); v && r.result.ok && !cancelled) {
    const std::string base = kernels::baseline_for(*v, p.spec().dtype);
    if (!base.empty() && base != variant) r.baseline = kernels::run(p, base, o);
  }
  return r;
}

std::vector<const scenario::BenchRecord*> bench_matches(const scenario::BenchReport& report,
                                                        const sim::ProblemSpec& spec) {
  std::vector<const scenario::BenchRecord*> out;
  for (const auto& rec : report.records) {
    // The ladder's correctness sweep records results it checked but did not time: no time to show.
    if (rec.result.timed_runs == 0) continue;
    // The record ran `spec` as its rung runs it (its own tile and B layout, if it fixes them).
    const auto* v = kernels::find_variant(rec.result.variant);
    if (scenario::same_configuration(rec.result.problem, v ? kernels::as_run_by(*v, spec) : spec))
      out.push_back(&rec);
  }
  return out;
}

std::string bench_label(const scenario::BenchReport& report) {
  std::string s = report.device.name.empty() ? "unknown device" : report.device.name;
  if (!report.date.empty()) s += ", " + report.date;
  if (!report.commit.empty()) s += ", commit " + report.commit;
  // Records merged in from later runs (scripts/merge_bench.py) carry their own date: say so.
  std::string latest;
  int merged = 0;
  for (const auto& r : report.records)
    if (!r.run_date.empty()) {
      ++merged;
      latest = std::max(latest, r.run_date);
    }
  if (merged)
    s += "; " + std::to_string(merged) + (merged == 1 ? " record" : " records") +
         " from later runs, up to " + latest.substr(0, 10);
  return s;
}

std::string bench_source(const scenario::BenchReport& report, const std::string& path, bool bundled,
                         const scenario::BenchRecord* record) {
  const std::string file =
      bundled ? "assets/measured/" + std::filesystem::path(path).filename().string() : path;
  const std::string& date = record ? scenario::record_date(report, *record) : report.date;
  return report.device.name + ", " + date.substr(0, 10) + ", " + file;
}

std::string bundled_bench_path(const std::string& machine_key) {
  const auto path = scenario::assets_dir() / "measured" / ("bench_" + machine_key + ".json");
  return std::filesystem::exists(path) ? path.string() : std::string();
}

}  // namespace tilesim::app
