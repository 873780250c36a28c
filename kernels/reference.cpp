// The float64 CPU reference for matmul, rows split over the host's threads.
#include "kernels/reference.hpp"

#include <algorithm>
#include <thread>

namespace tilesim::kernels::detail {

std::vector<float> matmul_reference_fp64(const std::vector<float>& a, const std::vector<float>& b,
                                         std::int64_t m, std::int64_t n, std::int64_t k,
                                         bool b_transposed) {
  std::vector<float> c(static_cast<std::size_t>(m * n));
  auto rows = [&](std::int64_t r0, std::int64_t r1) {
    std::vector<double> acc(static_cast<std::size_t>(n));
    for (std::int64_t i = r0; i < r1; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const double av = a[i * k + kk];
        if (b_transposed)
          for (std::int64_t j = 0; j < n; ++j) acc[j] += av * b[j * k + kk];
        else
          for (std::int64_t j = 0; j < n; ++j) acc[j] += av * b[kk * n + j];
      }
      for (std::int64_t j = 0; j < n; ++j) c[i * n + j] = static_cast<float>(acc[j]);
    }
  };
  const std::int64_t threads = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1,
                                                        std::max<std::int64_t>(1, m));
  std::vector<std::thread> pool;
  for (std::int64_t t = 0; t < threads; ++t)
    pool.emplace_back(rows, m * t / threads, m * (t + 1) / threads);
  for (auto& th : pool) th.join();
  return c;
}

}  // namespace tilesim::kernels::detail
