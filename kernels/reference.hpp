// The float64 CPU reference for matmul: C = A @ B with every product and sum in double.
#pragma once

#include <cstdint>
#include <vector>

namespace tilesim::kernels::detail {

// a (M, K) row-major; b (K, N) row-major, or (N, K) when b_transposed; returns C (M, N) as float
// (the rounding of a float64 result to float is ~6e-8 relative, far under any tolerance used).
std::vector<float> matmul_reference_fp64(const std::vector<float>& a, const std::vector<float>& b,
                                         std::int64_t m, std::int64_t n, std::int64_t k,
                                         bool b_transposed);

}  // namespace tilesim::kernels::detail
