// wgmma_orders: the Hopper rungs in every launch order beside cuBLAS GemmEx, in one process
// (issue 27). For each size and dtype: cuBLAS first, then each rung in row-major, column-major,
// grouped (GROUP_SIZE_M = G for each G given) and grouped_legacy (the first G) order, then cuBLAS
// again; every run checked against
// the reference first (kernels::run), then timed (median of CUDA-event times, L2 flushed before
// each launch). Not part of the CMake build: kernels/device_wgmma_persistent.sh links it against
// the built libraries (its header gives the command).
// Usage: wgmma_orders SIZES DTYPES GROUPS RUNG...   e.g. wgmma_orders 4096,8192 fp16,bf16 8,16
//        matmul_wgmma_tma_store matmul_wgmma_persistent
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) out.push_back(x);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilesim;
  if (argc < 5) {
    std::fprintf(stderr, "usage: wgmma_orders SIZES DTYPES GROUPS RUNG...\n");
    return 2;
  }
  const auto sizes = split(argv[1]), dtypes = split(argv[2]), groups = split(argv[3]);
  std::vector<std::string> rungs(argv + 4, argv + argc);
  kernels::RunOptions opt;
  opt.repeats = 30;
  opt.max_seconds = 4.0;
  int failures = 0;
  std::printf("%-28s %-6s %-6s %-14s %9s %9s %8s  %s\n", "variant", "size", "dtype", "order", "ms",
              "TF/s", "%cuBLAS", "check");
  for (const auto& s : sizes)
    for (const auto& ds : dtypes) {
      const std::int64_t n = std::atoll(s.c_str());
      const sim::DType d = ds == "bf16" ? sim::DType::bf16 : sim::DType::fp16;
      auto problem = [&](sim::LaunchOrder o, std::int64_t g) {
        return sim::Problem(sim::ProblemSpec{.kernel = sim::Kernel::matmul,
                                             .m = n,
                                             .n = n,
                                             .k = n,
                                             .dtype = d,
                                             .block_m = 128,
                                             .block_n = 128,
                                             .block_k = 32,
                                             .group_size_m = g,
                                             .order = o});
      };
      double base_ms = 0;
      auto row = [&](const kernels::RunResult& r, const std::string& order) {
        if (!r.ok) {
          ++failures;
          std::printf("%-28s %-6s %-6s %-14s FAILED: %s\n", r.variant.c_str(), s.c_str(),
                      ds.c_str(), order.c_str(), r.error.c_str());
          return;
        }
        std::printf("%-28s %-6s %-6s %-14s %9.4f %9.1f %7.1f%%  rel %.1e\n", r.variant.c_str(),
                    s.c_str(), ds.c_str(), order.c_str(), r.median_ms, r.throughput,
                    base_ms > 0 ? 100.0 * base_ms / r.median_ms : 0.0, r.rel_error);
        std::fflush(stdout);
      };
      auto blas = [&](const char* when) {
        const auto r = kernels::run(problem(sim::LaunchOrder::row_major, 1), "cublas_gemmex", opt);
        if (r.ok && base_ms == 0) base_ms = r.median_ms;
        row(r, when);
        return r.ok ? r.median_ms : 0.0;
      };
      const double first = blas("first");
      for (const auto& v : rungs) {
        row(kernels::run(problem(sim::LaunchOrder::row_major, 1), v, opt), "row_major");
        row(kernels::run(problem(sim::LaunchOrder::column_major, 1), v, opt), "column_major");
        for (const auto& g : groups)
          row(kernels::run(problem(sim::LaunchOrder::grouped, std::atoll(g.c_str())), v, opt),
              "grouped G=" + g);
        row(kernels::run(problem(sim::LaunchOrder::grouped_legacy, std::atoll(groups[0].c_str())),
                         v, opt),
            "legacy G=" + groups[0]);
      }
      const double last = blas("last");
      std::printf("cuBLAS %s %s: first %.4f ms, last %.4f ms (the rungs' %%cuBLAS: vs first)\n",
                  s.c_str(), ds.c_str(), first, last);
    }
  return failures ? 1 : 0;
}
