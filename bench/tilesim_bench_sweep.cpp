// The sweeps of tilesim-bench (see tilesim_bench_sweep.hpp). Each sweep first checks every
// setting at odd sizes in every launch order (kernels::run: fresh random inputs, poisoned output,
// relative error against a float64 or strict-FP32 reference), then times it beside cuBLAS GemmEx
// on the same sizes.
#include "bench/tilesim_bench_sweep.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "kernels/matmul_mma_sync_tiles.hpp"

namespace tilesim::bench {
namespace {

namespace tiles = kernels::mma_sync_tiles;
using sim::DType;
using sim::Kernel;
using sim::LaunchOrder;
constexpr LaunchOrder kOrders[] = {LaunchOrder::row_major, LaunchOrder::column_major,
                                   LaunchOrder::grouped, LaunchOrder::grouped_legacy};
constexpr const char* kTiles = "matmul_mma_sync_tiles";
// The fastest matmul rung on the H100 and H200 ladders (docs/PERFORMANCE.md).
constexpr const char* kBestRung = "matmul_wgmma_tma_store";

sim::ProblemSpec matmul(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t g,
                        LaunchOrder order) {
  sim::ProblemSpec p;
  p.kernel = Kernel::matmul;
  p.m = m;
  p.n = n;
  p.k = k;
  p.dtype = DType::fp16;
  p.group_size_m = g;
  p.order = order;
  return p;
}

// Odd sizes (every edge masked, K and N not multiples of 8: the element-wise load path; at least
// half of the largest tile, 256 x 256 x 64, as sim::Problem requires) and one aligned size over
// the CPU reference's limit (cp.async, cuBLAS SGEMM reference).
const std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t> kCheckSizes[] = {
    {147, 139, 45, 2}, {1000, 777, 333, 5}, {2000, 1000, 1504, 4}};

// Checks `variant` on spec_of(each check size, order) in every order; records tagged `sweep`.
template <class SpecOf>
int check(const LadderOptions& o, const std::string& variant, const std::string& what,
          const char* sweep, SpecOf spec_of, scenario::BenchReport& report,
          bool grouped_only = false) {
  kernels::RunOptions ro = o.run;
  ro.time = false;
  int runs = 0, passed = 0;
  for (auto [m, n, k, g] : kCheckSizes)
    for (LaunchOrder order : kOrders) {
      if (grouped_only && order != LaunchOrder::grouped && order != LaunchOrder::grouped_legacy)
        continue;
      scenario::BenchRecord b;
      b.sweep = sweep;
      b.result = kernels::run(sim::Problem(spec_of(matmul(m, n, k, g, order))), variant, ro);
      ++runs;
      if (b.result.ok)
        ++passed;
      else
        std::printf("  FAILED %s %lldx%lldx%lld %s: %s (rel_error %.2e)\n", what.c_str(),
                    (long long)m, (long long)n, (long long)k,
                    std::string(sim::to_string(order)).c_str(), b.result.error.c_str(),
                    b.result.rel_error);
      report.records.push_back(std::move(b));
    }
  std::printf("  %-34s %d/%d correct\n", what.c_str(), passed, runs);
  std::fflush(stdout);
  return runs - passed;
}

// cuBLAS GemmEx on the same sizes, once per size (its record goes into the report).
double baseline_ms(const LadderOptions& o, std::int64_t s, const char* sweep,
                   scenario::BenchReport& report, int& failures) {
  static std::map<std::pair<std::string, std::int64_t>, double> cache;
  const auto key = std::pair{report.date + report.commit, s};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  scenario::BenchRecord b;
  b.sweep = sweep;
  sim::ProblemSpec p = matmul(s, s, s, 8, LaunchOrder::grouped);
  p.block_m = p.block_n = 128;
  p.block_k = 32;
  b.result = kernels::run(sim::Problem(p), "cublas_gemmex", o.run);
  if (!b.result.ok) ++failures;
  std::printf("  %-34s %5lld^3 %9.4f ms %7.1f TFLOP/s\n", "cublas_gemmex (baseline)", (long long)s,
              b.result.median_ms, b.result.throughput);
  const double ms = b.result.ok ? b.result.median_ms : 0;
  report.records.push_back(std::move(b));
  return cache[key] = ms;
}

void finish(scenario::BenchRecord& b, double base_ms) {
  b.baseline = "cublas_gemmex";
  b.baseline_ms = base_ms;
  if (base_ms > 0 && b.result.median_ms > 0)
    b.pct_of_baseline = 100.0 * base_ms / b.result.median_ms;
}

std::vector<tiles::Config> block_configs() {
  std::vector<tiles::Config> c(std::begin(tiles::kConfigs), std::end(tiles::kConfigs));
  c.push_back({256, 256, 64, 4, 4});  // one stage more than the seed's: over the shared memory
  return c;
}

}  // namespace

int run_block_sweep(const LadderOptions& o, bool full, scenario::BenchReport& report) {
  int failures = 0;
  const auto configs = block_configs();
  std::printf("\n== sweep blocks: %s, fp16, B row-major ==\n", kTiles);
  std::printf("  %-20s %5s %6s %8s %8s %7s  %s\n", "config", "regs", "spill", "smem KiB", "threads",
              "per SM", "");
  std::map<std::string, kernels::KernelResources> resources;
  for (const auto& c : configs) {
    const auto r = kernels::mma_sync_tiles_resources(c);
    resources[tiles::label(c)] = r;
    std::printf("  %-20s %5d %6d %8.1f %8d %7d  %s\n", tiles::label(c).c_str(), r.registers,
                r.spill_bytes, r.shared_bytes / 1024.0, r.threads, r.programs_per_sm,
                r.fits ? "" : r.error.c_str());
  }
  std::printf("  correctness (odd sizes x 4 launch orders):\n");
  for (const auto& c : configs) {
    if (!resources[tiles::label(c)].fits) continue;
    failures += check(
        o, kTiles, tiles::label(c), "blocks",
        [&](sim::ProblemSpec p) { return tiles::with_config(p, c); }, report);
  }
  std::printf("  timing (grouped, GROUP_SIZE_M = 8, median of CUDA-event times):\n");
  for (std::int64_t s :
       full ? std::vector<std::int64_t>{4096, 8192} : std::vector<std::int64_t>{2048, 4096}) {
    const double base = baseline_ms(o, s, "blocks", report, failures);
    std::optional<scenario::BenchRecord> best;  // a copy: report.records grows below
    for (const auto& c : configs) {
      const auto& res = resources[tiles::label(c)];
      scenario::BenchRecord b;
      b.sweep = "blocks";
      b.resources = res;
      const sim::ProblemSpec p = tiles::with_config(matmul(s, s, s, 8, LaunchOrder::grouped), c);
      if (!res.fits) {  // reported, not run
        b.result.variant = kTiles;
        b.result.problem = p;
        b.result.device = report.device.name;
        b.result.error = res.error;
        std::printf("  %-34s %5lld^3 does not fit: %s\n", tiles::label(c).c_str(), (long long)s,
                    res.error.c_str());
        report.records.push_back(std::move(b));
        continue;
      }
      b.result = kernels::run(sim::Problem(p), kTiles, o.run);
      finish(b, base);
      if (!b.result.ok) ++failures;
      std::printf("  %-34s %5lld^3 %9.4f ms %7.1f TFLOP/s %6.1f%% of cuBLAS  rel_err %.1e %s\n",
                  tiles::label(c).c_str(), (long long)s, b.result.median_ms, b.result.throughput,
                  b.pct_of_baseline, b.result.rel_error, b.result.ok ? "" : b.result.error.c_str());
      std::fflush(stdout);
      report.records.push_back(std::move(b));
      const auto& last = report.records.back();
      if (last.result.ok && (!best || last.result.median_ms < best->result.median_ms)) best = last;
    }
    if (best)
      std::printf("  best at %lld^3: %s, %.1f TFLOP/s (%.1f%% of cuBLAS)\n", (long long)s,
                  tiles::label(tiles::config_of(best->result.problem)).c_str(),
                  best->result.throughput, best->pct_of_baseline);
  }
  return failures;
}

int run_group_sweep(const LadderOptions& o, bool full, scenario::BenchReport& report) {
  int failures = 0;
  const tiles::Config seed_tile{128, 128, 32, 4, 4};
  struct Rung {
    std::string variant, what;
    std::optional<tiles::Config> config;
  };
  const Rung rungs[] = {{kBestRung, kBestRung, std::nullopt},
                        {kTiles, std::string(kTiles) + " " + tiles::label(seed_tile), seed_tile}};
  const std::int64_t groups[] = {1, 2, 4, 8, 16};
  std::printf("\n== sweep group: row-major and GROUP_SIZE_M 1..16, fp16 ==\n");
  std::printf("  correctness (odd sizes x 4 launch orders, then each GROUP_SIZE_M grouped):\n");
  for (const auto& r : rungs) {
    const auto as_rung = [&](sim::ProblemSpec p) {
      return r.config ? tiles::with_config(p, *r.config) : p;
    };
    failures += check(o, r.variant, r.what, "group", as_rung, report);
    for (std::int64_t g : groups)
      failures += check(
          o, r.variant, r.what + " G=" + std::to_string(g), "group",
          [&](sim::ProblemSpec p) {
            p.group_size_m = g;
            return as_rung(p);
          },
          report, true);
  }
  std::printf("  timing (median of CUDA-event times, L2 flushed before each):\n");
  for (std::int64_t s :
       full ? std::vector<std::int64_t>{8192, 6144} : std::vector<std::int64_t>{4096, 3072}) {
    const double base = baseline_ms(o, s, "group", report, failures);
    for (const auto& r : rungs) {
      std::vector<sim::ProblemSpec> settings;
      settings.push_back(matmul(s, s, s, 8, LaunchOrder::row_major));
      for (std::int64_t g : groups) settings.push_back(matmul(s, s, s, g, LaunchOrder::grouped));
      double row_major_ms = 0;
      for (sim::ProblemSpec p : settings) {
        p.block_m = p.block_n = 128;
        p.block_k = 32;
        if (r.config) p = tiles::with_config(p, *r.config);
        scenario::BenchRecord b;
        b.sweep = "group";
        b.result = kernels::run(sim::Problem(p), r.variant, o.run);
        finish(b, base);
        if (!b.result.ok) ++failures;
        const bool rm = p.order == LaunchOrder::row_major;
        if (rm) row_major_ms = b.result.median_ms;
        const std::string label = rm ? "row-major" : "G=" + std::to_string(p.group_size_m);
        std::printf("  %-34s %5lld^3 %-9s %9.4f ms %7.1f TFLOP/s %6.1f%% of cuBLAS %6.3fx %s\n",
                    r.what.c_str(), (long long)s, label.c_str(), b.result.median_ms,
                    b.result.throughput, b.pct_of_baseline,
                    b.result.median_ms > 0 ? row_major_ms / b.result.median_ms : 0.0,
                    b.result.ok ? "" : b.result.error.c_str());
        std::fflush(stdout);
        report.records.push_back(std::move(b));
      }
    }
  }
  return failures;
}

}  // namespace tilesim::bench
