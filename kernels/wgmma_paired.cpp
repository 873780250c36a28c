// wgmma_paired: a Hopper rung against cuBLAS GemmEx when their difference is smaller than the
// drift of either between runs (issue 27: at 8192^3 cuBLAS itself moved by 4-10 % between two
// runs of one process, so "first run / rung" could not separate them). Each contender is checked
// once against the reference (the size given, in its order, fresh inputs, poisoned output); then
// ROUNDS rounds, each timing cuBLAS and every rung back to back (10 launches each, median
// of CUDA-event times, L2 flushed before each launch, the order within a round rotated so that no
// one always runs first). Per rung: the round-by-round ratio cuBLAS ms / rung ms, its median and
// quartiles over the rounds, the rounds it won, and the medians of each side. A drift slower than
// a round moves both sides of it alike and drops out of the ratio; a faster one (within a round)
// does not, and widens the ratio's spread (at 8192^3 on an H100 the rounds' ratios span about
// 88-114 %), so a count of rounds won treats rounds as more independent than they are.
// Not part of the CMake build: linked like kernels/wgmma_orders.cpp; kernels/device_paired.sh
// runs it.
// Usage: wgmma_paired SIZE DTYPE ORDER G ROUNDS RUNG...   e.g. wgmma_paired 8192 fp16 grouped
//        16 15 matmul_wgmma_persistent matmul_wgmma_persistent_mc
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"

namespace {

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilesim;
  if (argc < 7) {
    std::fprintf(stderr, "usage: wgmma_paired SIZE DTYPE ORDER G ROUNDS RUNG...\n");
    return 2;
  }
  const std::int64_t n = std::atoll(argv[1]);
  const std::string ds = argv[2], os = argv[3];
  const std::int64_t g = std::atoll(argv[4]);
  const int rounds = std::atoi(argv[5]);
  const std::vector<std::string> rungs(argv + 6, argv + argc);
  if (n <= 0 || g <= 0 || rounds <= 0 || (ds != "fp16" && ds != "bf16")) {
    std::fprintf(stderr, "wgmma_paired: SIZE, G, ROUNDS > 0; DTYPE fp16 | bf16\n");
    return 2;
  }
  if (os != "row-major" && os != "column-major" && os != "grouped" && os != "grouped-legacy") {
    std::fprintf(stderr,
                 "wgmma_paired: ORDER \"%s\" is unknown: row-major | column-major | grouped | "
                 "grouped-legacy\n",
                 os.c_str());
    return 2;
  }
  const auto order = os == "row-major"      ? sim::LaunchOrder::row_major
                     : os == "column-major" ? sim::LaunchOrder::column_major
                     : os == "grouped"      ? sim::LaunchOrder::grouped
                                            : sim::LaunchOrder::grouped_legacy;
  auto problem = [&](sim::LaunchOrder o, std::int64_t gm) {
    return sim::Problem(
        sim::ProblemSpec{.kernel = sim::Kernel::matmul,
                         .m = n,
                         .n = n,
                         .k = n,
                         .dtype = ds == "bf16" ? sim::DType::bf16 : sim::DType::fp16,
                         .block_m = 128,
                         .block_n = 128,
                         .block_k = 32,
                         .group_size_m = gm,
                         .order = o});
  };
  // The contenders: cuBLAS (its own choice of everything; row-major in sim's terms) and the rungs
  // in the order asked for.
  std::vector<std::string> names{"cublas_gemmex"};
  names.insert(names.end(), rungs.begin(), rungs.end());
  auto problem_of = [&](std::size_t i) {
    return i == 0 ? problem(sim::LaunchOrder::row_major, 1) : problem(order, g);
  };
  kernels::RunOptions check;
  check.time = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto r = kernels::run(problem_of(i), names[i], check);
    std::printf("check %-30s %s%s\n", names[i].c_str(),
                r.ok ? "correct" : "FAILED: ", r.ok ? "" : r.error.c_str());
    if (!r.ok) return 1;
  }
  kernels::RunOptions timed;
  timed.check = false;
  timed.repeats = 10;
  timed.max_seconds = 2.0;
  std::vector<std::vector<double>> ms(names.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t j = 0; j < names.size(); ++j) {
      const std::size_t i = (j + static_cast<std::size_t>(round)) % names.size();
      const auto r = kernels::run(problem_of(i), names[i], timed);
      if (!r.ok) {
        std::printf("round %d %s FAILED: %s\n", round, names[i].c_str(), r.error.c_str());
        return 1;
      }
      ms[i].push_back(r.median_ms);
    }
  const double flops =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  std::printf("%lld^3 %s, %s G=%lld, %d rounds (median / quartiles over rounds)\n",
              static_cast<long long>(n), ds.c_str(), os.c_str(), static_cast<long long>(g), rounds);
  std::printf("%-30s %9s %9s %9s %9s  %s\n", "variant", "ms", "TF/s", "min ms", "max ms",
              "cuBLAS/rung per round: median [q1, q3] min..max; rounds the rung won");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double med = quantile(ms[i], 0.5);
    std::printf("%-30s %9.4f %9.1f %9.4f %9.4f", names[i].c_str(), med, flops / (med * 1e-3) / 1e12,
                quantile(ms[i], 0), quantile(ms[i], 1));
    if (i > 0) {
      std::vector<double> ratio;
      for (int k = 0; k < rounds; ++k) ratio.push_back(ms[0][k] / ms[i][k]);
      const auto ahead = std::count_if(ratio.begin(), ratio.end(), [](double x) { return x > 1; });
      std::printf("  %.1f %% [%.1f, %.1f] %.1f..%.1f; rung faster in %d of %d",
                  100 * quantile(ratio, 0.5), 100 * quantile(ratio, 0.25),
                  100 * quantile(ratio, 0.75), 100 * quantile(ratio, 0), 100 * quantile(ratio, 1),
                  static_cast<int>(ahead), rounds);
    }
    std::printf("\n");
  }
  return 0;
}
