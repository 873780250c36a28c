// The correctness sweep and the timing ladder of tilesim-bench, and the targets.
// Sizes: odd ones (574, 1000 x 777 x 333, 37 x 45 x 29) where every edge is masked, 320 x 544 x 96
// (whole and edge tiles side by side, K a multiple of 32), then the sizes of the targets (8192^2
// copies, 4096^3 and 8192^3 products).
#include "bench/tilesim_bench_ladder.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

namespace tilesim::bench {
namespace {

using sim::DType;
using sim::Kernel;
using sim::LaunchOrder;
constexpr LaunchOrder kOrders[] = {LaunchOrder::row_major, LaunchOrder::column_major,
                                   LaunchOrder::grouped, LaunchOrder::grouped_legacy};

sim::ProblemSpec spec(Kernel kernel, std::int64_t m, std::int64_t n, std::int64_t k, DType d,
                      int bm, int bn, int bk, std::int64_t g, LaunchOrder o) {
  return {.kernel = kernel,
          .m = m,
          .n = n,
          .k = k,
          .dtype = d,
          .block_m = bm,
          .block_n = bn,
          .block_k = bk,
          .group_size_m = g,
          .order = o};
}

std::string describe(const sim::ProblemSpec& p) {
  char buf[160];
  if (p.kernel == Kernel::matmul)
    std::snprintf(buf, sizeof buf, "%lldx%lldx%lld %s %s G=%lld blk %dx%dx%d%s", (long long)p.m,
                  (long long)p.n, (long long)p.k, std::string(sim::to_string(p.dtype)).c_str(),
                  std::string(sim::to_string(p.order)).c_str(), (long long)p.group_size_m,
                  p.block_m, p.block_n, p.block_k,
                  p.b_layout == sim::BLayout::transposed ? " B^T" : "");
  else
    std::snprintf(buf, sizeof buf, "%lldx%lld %s %s G=%lld blk %dx%d", (long long)p.m,
                  (long long)p.n, std::string(sim::to_string(p.dtype)).c_str(),
                  std::string(sim::to_string(p.order)).c_str(), (long long)p.group_size_m,
                  p.block_m, p.block_n);
  return buf;
}

bool wanted(const kernels::Variant& v, const LadderOptions& o) {
  return v.implemented && !v.sweep_only &&
         (o.only.empty() || v.name.find(o.only) != std::string::npos);
}

void print_header() {
  std::printf("%-32s %-52s %9s %12s %8s %9s %s\n", "variant", "problem", "ms", "throughput",
              "%base", "rel_err", "ok");
}

void print_row(const scenario::BenchRecord& b) {
  const auto& r = b.result;
  char thr[32] = "-", pct[16] = "-";
  if (r.timed_runs)
    std::snprintf(thr, sizeof thr, "%.1f %s", r.throughput,
                  r.throughput_unit == "GB/s" ? "GB/s" : "TF/s");
  if (b.baseline_ms > 0) std::snprintf(pct, sizeof pct, "%.1f%%", b.pct_of_baseline);
  std::printf("%-32s %-52s %9.4f %12s %8s %9.2e %s%s%s\n", r.variant.c_str(),
              describe(r.problem).c_str(), r.median_ms, thr, pct, r.rel_error, r.ok ? "yes" : "NO",
              r.error.empty() ? "" : "  ", r.error.c_str());
}

}  // namespace

int run_check_ladder(const LadderOptions& o, scenario::BenchReport& report) {
  struct Case {
    Kernel kernel;
    std::int64_t m, n, k;
    int bm, bn, bk;
    std::int64_t g;
  };
  const std::vector<Case> cases = {
      {Kernel::copy, 574, 574, 1, 64, 64, 1, 3},
      {Kernel::copy, 1000, 777, 1, 64, 128, 1, 5},
      {Kernel::copy, 37, 45, 1, 16, 32, 1, 2},
      {Kernel::transpose, 574, 574, 1, 64, 64, 1, 3},
      {Kernel::transpose, 1000, 777, 1, 32, 64, 1, 5},
      {Kernel::transpose, 37, 45, 1, 16, 32, 1, 2},
      {Kernel::matmul, 574, 574, 574, 64, 64, 64, 3},
      {Kernel::matmul, 1000, 777, 333, 64, 64, 32, 5},
      {Kernel::matmul, 37, 45, 29, 16, 32, 16, 2},
      // K a multiple of 32 with whole and edge tiles side by side: the mma.sync rungs' unmasked
      // and masked K loops in one launch, small enough for the sanitizers.
      {Kernel::matmul, 320, 544, 96, 64, 64, 32, 3},
      {Kernel::matmul, 1000, 1000, 1000, 64, 64, 32, 3},
      {Kernel::matmul, 2000, 1000, 1504, 64, 64, 32, 4},
  };
  kernels::RunOptions ro = o.run;
  ro.time = false;
  int failures = 0;
  std::printf(
      "\n== correctness: odd sizes x 4 launch orders, fresh random inputs, poisoned outputs ==\n");
  print_header();
  for (const auto& v : kernels::variants()) {
    if (!wanted(v, o)) continue;
    int runs = 0, passed = 0;
    for (const auto& c : cases) {
      if (c.kernel != v.kernel) continue;
      if (o.check_max_elems > 0 && double(c.m) * c.n * c.k > o.check_max_elems) continue;
      for (DType d : v.dtypes)
        for (LaunchOrder order : kOrders) {
          const sim::Problem p(spec(c.kernel, c.m, c.n, c.k, d, c.bm, c.bn, c.bk, c.g, order));
          scenario::BenchRecord b;
          b.result = kernels::run(p, v.name, ro);
          ++runs;
          if (b.result.ok)
            ++passed;
          else {
            ++failures;
            print_row(b);
          }
          report.records.push_back(std::move(b));
        }
    }
    std::printf("%-32s %d/%d correct\n", v.name.c_str(), passed, runs);
    std::fflush(stdout);
  }
  return failures;
}

int run_timing_ladder(const LadderOptions& o, bool full, scenario::BenchReport& report) {
  struct Item {
    std::string variant;
    sim::ProblemSpec p;
  };
  std::vector<Item> items;
  const auto R = LaunchOrder::row_major, G = LaunchOrder::grouped, C = LaunchOrder::column_major;
  const std::int64_t big = full ? 8192 : 4096, mid = full ? 4096 : 2048;
  // copy and transpose, FP32, cold L2
  for (auto [bm, bn] : {std::pair{64, 64}, std::pair{32, 128}})
    items.push_back({"copy_tiled", spec(Kernel::copy, big, big, 1, DType::fp32, bm, bn, 1, 1, R)});
  for (auto [bm, bn] : {std::pair{64, 64}, std::pair{32, 128}, std::pair{128, 128},
                        std::pair{64, 256}, std::pair{256, 256}})
    items.push_back(
        {"copy_vectorized", spec(Kernel::copy, big, big, 1, DType::fp32, bm, bn, 1, 1, R)});
  for (std::int64_t s :
       full ? std::vector<std::int64_t>{8192, 16384} : std::vector<std::int64_t>{4096})
    for (auto [bm, bn] : {std::pair{64, 64}, std::pair{32, 32}})
      for (const char* v : {"transpose_naive", "transpose_smem_tiled", "transpose_smem_padded",
                            "transpose_smem_padded_batched", "transpose_smem_padded_vectorized"})
        items.push_back({v, spec(Kernel::transpose, s, s, 1, DType::fp32, bm, bn, 1, 1, R)});
  // FP32 matmul at mid^3
  items.push_back({"matmul_naive",
                   spec(Kernel::matmul, mid / 2, mid / 2, mid / 2, DType::fp32, 32, 32, 32, 8, G)});
  items.push_back(
      {"matmul_smem_tiled", spec(Kernel::matmul, mid, mid, mid, DType::fp32, 64, 64, 16, 8, G)});
  items.push_back({"matmul_smem_tiled_b_transposed",
                   spec(Kernel::matmul, mid, mid, mid, DType::fp32, 64, 64, 16, 8, G)});
  // Seed 003's pair and its fix (one 64 x 64 x 32 FMA kernel, B staged three ways) at mid^3 and
  // in the seed's shape, its X (8192, 6144) @ Y (6144, 4096): M = 8192, K = 6144, N = 4096 here
  // (quick: halved). Each size's cuBLAS SGEMM row comes first.
  for (auto [m, n, k] : {std::tuple{mid, mid, mid}, std::tuple{big, big / 2, big * 3 / 4}})
    for (const char* v :
         {"matmul_fma_b_rowmajor", "matmul_fma_bt_conflicting", "matmul_fma_bt_padded"})
      items.push_back({v, spec(Kernel::matmul, m, n, k, DType::fp32, 64, 64, 32, 8, G)});
  for (const char* v : {"matmul_register_blocked", "matmul_register_blocked_bk16"})
    for (auto order : {R, G})
      items.push_back({v, spec(Kernel::matmul, mid, mid, mid, DType::fp32, 128, 128, 8, 8, order)});
  items.push_back(
      {"cublas_tf32", spec(Kernel::matmul, mid, mid, mid, DType::fp32, 128, 128, 32, 8, G)});
  // FP16 / BF16 matmul
  items.push_back(
      {"matmul_smem_tiled", spec(Kernel::matmul, mid, mid, mid, DType::fp16, 64, 64, 16, 8, G)});
  for (const char* v : {"matmul_mma_sync", "matmul_mma_sync_bk64", "matmul_mma_sync_128x256",
                        "matmul_mma_sync_warp64", "matmul_mma_sync_swizzled",
                        "matmul_mma_sync_lean", "matmul_wgmma_tma", "matmul_wgmma_tma_store",
                        "matmul_wgmma_persistent", "matmul_wgmma_persistent_mc"}) {
    for (DType d : {DType::fp16, DType::bf16})
      for (auto order : {R, G})
        items.push_back({v, spec(Kernel::matmul, mid, mid, mid, d, 128, 128, 32, 8, order)});
    for (auto order : {R, C, G})
      items.push_back(
          {v, spec(Kernel::matmul, big, big, big, DType::fp16, 128, 128, 32, 8, order)});
  }
  // The Hopper target is stated for bf16 too at big^3 (issue 27): grouped, the rungs' best order.
  for (const char* v :
       {"matmul_wgmma_tma_store", "matmul_wgmma_persistent", "matmul_wgmma_persistent_mc"})
    items.push_back({v, spec(Kernel::matmul, big, big, big, DType::bf16, 128, 128, 32, 8, G)});

  std::map<std::string, double> baseline_ms;  // key: baseline + sizes + dtype
  int failures = 0;
  std::printf("\n== timing: median of CUDA-event times after warm-up%s ==\n",
              o.run.cold_l2 ? ", L2 flushed before each" : "");
  print_header();
  for (auto& it : items) {
    const kernels::Variant* v = kernels::find_variant(it.variant);
    if (!v || !wanted(*v, o)) continue;
    const std::string base = kernels::baseline_for(*v, it.p.dtype);
    scenario::BenchRecord b;
    if (!base.empty()) {
      // The baseline runs the same sizes (a transpose's baseline is a copy of the same matrix).
      sim::ProblemSpec bp = it.p;
      if (bp.kernel == Kernel::transpose) bp.kernel = Kernel::copy;
      bp.b_layout = sim::BLayout::row_major;
      const std::string key = base + "/" + describe(bp);
      const std::string key_sizes = base + "/" + std::to_string(bp.m) + "x" + std::to_string(bp.n) +
                                    "x" + std::to_string(bp.k) +
                                    std::string(sim::to_string(bp.dtype));
      if (!baseline_ms.count(key_sizes)) {
        scenario::BenchRecord bb;
        bb.result = kernels::run(sim::Problem(bp), base, o.run);
        print_row(bb);
        if (!bb.result.ok) ++failures;
        baseline_ms[key_sizes] = bb.result.ok ? bb.result.median_ms : 0;
        report.records.push_back(std::move(bb));
      }
      b.baseline = base;
      b.baseline_ms = baseline_ms[key_sizes];
    }
    b.result = kernels::run(sim::Problem(it.p), it.variant, o.run);
    if (b.baseline_ms > 0 && b.result.median_ms > 0)
      b.pct_of_baseline = 100.0 * b.baseline_ms / b.result.median_ms;
    if (!b.result.ok) ++failures;
    print_row(b);
    std::fflush(stdout);
    report.records.push_back(std::move(b));
  }
  return failures;
}

void print_targets(const scenario::BenchReport& report) {
  auto best = [&](const std::string& variant, Kernel k, std::int64_t m, DType d,
                  std::optional<LaunchOrder> order = std::nullopt) -> const scenario::BenchRecord* {
    const scenario::BenchRecord* out = nullptr;
    for (const auto& b : report.records) {
      const auto& r = b.result;
      if (r.variant != variant || r.problem.kernel != k || r.problem.m != m ||
          r.problem.dtype != d || !r.ok || r.timed_runs == 0 ||
          (order && r.problem.order != *order))
        continue;
      if (!out || r.median_ms < out->result.median_ms) out = &b;
    }
    return out;
  };
  std::printf("\n== targets (issue 5) ==\n");
  auto line = [](const char* what, const scenario::BenchRecord* x, double pct, double target) {
    if (!x) {
      std::printf("%-58s not measured\n", what);
      return;
    }
    std::printf("%-58s %6.1f%% (target >= %.0f%%): %s\n", what, pct, target,
                pct >= target ? "met" : "MISSED");
  };
  for (std::int64_t s : {8192, 4096}) {
    const auto* cv = best("copy_vectorized", Kernel::copy, s, DType::fp32);
    if (!cv) continue;
    line(("copy_vectorized vs cudaMemcpy D2D, " + std::to_string(s) + "^2 fp32").c_str(), cv,
         cv->pct_of_baseline, 95);
    for (const char* v : {"transpose_smem_padded", "transpose_smem_padded_batched",
                          "transpose_smem_padded_vectorized"})
      if (const auto* tp = best(v, Kernel::transpose, s, DType::fp32))
        line((std::string(v) + " vs copy_vectorized, " + std::to_string(s) + "^2").c_str(), tp,
             100.0 * cv->result.median_ms / tp->result.median_ms, 90);
    break;
  }
  for (const char* v : {"transpose_smem_padded", "transpose_smem_padded_batched",
                        "transpose_smem_padded_vectorized"})
    if (const auto* t16 = best(v, Kernel::transpose, 16384, DType::fp32))
      std::printf("%-58s %6.0f GB/s (PyTorch t().contiguous() on an H200: ~1160 GB/s)\n",
                  (std::string(v) + ", 16384^2 fp32").c_str(), t16->result.throughput);
  for (std::int64_t s : {4096, 2048}) {
    const auto* rb = best("matmul_register_blocked", Kernel::matmul, s, DType::fp32);
    if (const auto* w = best("matmul_register_blocked_bk16", Kernel::matmul, s, DType::fp32);
        w && (!rb || w->result.median_ms < rb->result.median_ms))
      rb = w;
    const auto* mm = best("matmul_mma_sync", Kernel::matmul, s, DType::fp16);
    for (const char* v :
         {"matmul_mma_sync_bk64", "matmul_mma_sync_128x256", "matmul_mma_sync_warp64",
          "matmul_mma_sync_swizzled", "matmul_mma_sync_lean"})
      if (const auto* w = best(v, Kernel::matmul, s, DType::fp16);
          w && (!mm || w->result.median_ms < mm->result.median_ms))
        mm = w;
    if (!rb && !mm) continue;
    const std::string n = std::to_string(s) + "^3";
    line(((rb ? rb->result.variant : std::string("matmul_register_blocked")) +
          " vs cuBLAS SGEMM, " + n)
             .c_str(),
         rb, rb ? rb->pct_of_baseline : 0, 80);
    line(((mm ? mm->result.variant : std::string("matmul_mma_sync")) + " fp16 vs cuBLAS fp16, " + n)
             .c_str(),
         mm, mm ? mm->pct_of_baseline : 0, 60);
    break;
  }
  for (std::int64_t s : {4096, 8192}) {
    // The best Hopper rung in its best order (issue 27: at or above cuBLAS, fp16 and bf16).
    for (DType d : {DType::fp16, DType::bf16}) {
      const scenario::BenchRecord* w = nullptr;
      for (const char* v : {"matmul_wgmma_tma", "matmul_wgmma_tma_store", "matmul_wgmma_persistent",
                            "matmul_wgmma_persistent_mc"})
        if (const auto* x = best(v, Kernel::matmul, s, d);
            x && (!w || x->result.median_ms < w->result.median_ms))
          w = x;
      const std::string dt(sim::to_string(d));
      line(((w ? w->result.variant : std::string("matmul_wgmma_tma")) + " " + dt + " vs cuBLAS " +
            dt + ", " + std::to_string(s) + "^3")
               .c_str(),
           w, w ? w->pct_of_baseline : 0, 100);
    }
  }
  // Seed 003 (issue 12): the conflicting B^T rung at least 2x slower than row-major B, the padded
  // one within 10 % of it, at the seed's shape (or the quick ladder's halved one) and at 4096^3.
  const auto timed = [&](const char* variant, std::int64_t m, std::int64_t n,
                         std::int64_t k) -> const scenario::BenchRecord* {
    const scenario::BenchRecord* out = nullptr;
    for (const auto& b : report.records) {
      const auto& r = b.result;
      if (r.variant == variant && r.problem.m == m && r.problem.n == n && r.problem.k == k &&
          r.ok && r.timed_runs > 0 && (!out || r.median_ms < out->result.median_ms))
        out = &b;
    }
    return out;
  };
  for (auto [m, n, k] :
       {std::tuple{8192, 4096, 6144}, std::tuple{4096, 2048, 3072}, std::tuple{4096, 4096, 4096}}) {
    const auto* row = timed("matmul_fma_b_rowmajor", m, n, k);
    if (!row) continue;
    const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    if (const auto* c = timed("matmul_fma_bt_conflicting", m, n, k)) {
      const double slower = c->result.median_ms / row->result.median_ms;
      std::printf("%-58s %6.2fx (target >= 2x): %s\n",
                  ("matmul_fma_bt_conflicting slower than _b_rowmajor, " + shape).c_str(), slower,
                  slower >= 2 ? "met" : "MISSED");
    }
    if (const auto* p = timed("matmul_fma_bt_padded", m, n, k))
      line(("matmul_fma_bt_padded vs matmul_fma_b_rowmajor, " + shape).c_str(), p,
           100.0 * row->result.median_ms / p->result.median_ms, 90);
  }
  for (const char* v : {"matmul_mma_sync", "matmul_mma_sync_bk64", "matmul_mma_sync_128x256",
                        "matmul_mma_sync_warp64", "matmul_mma_sync_swizzled",
                        "matmul_mma_sync_lean", "matmul_wgmma_tma", "matmul_wgmma_tma_store",
                        "matmul_wgmma_persistent", "matmul_wgmma_persistent_mc"})
    for (std::int64_t s : {8192, 4096}) {
      const auto* g = best(v, Kernel::matmul, s, DType::fp16, LaunchOrder::grouped);
      const auto* r = best(v, Kernel::matmul, s, DType::fp16, LaunchOrder::row_major);
      if (!g || !r) continue;
      std::printf(
          "%-58s %.3fx (row-major %.3f ms, grouped %.3f ms)\n",
          ("grouped vs row-major, " + std::string(v) + " " + std::to_string(s) + "^3 fp16").c_str(),
          r->result.median_ms / g->result.median_ms, r->result.median_ms, g->result.median_ms);
      break;
    }
}

}  // namespace tilesim::bench
