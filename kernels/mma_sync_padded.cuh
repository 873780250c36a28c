// What the padded-tile mma.sync kernels share (matmul_mma_sync.cu, versions 5 to 5d, and the
// templated matmul_mma_sync_tiles.cuh, 5t): one K step of A and B copied into shared tiles whose
// rows are padded by 8 elements (16 bytes, so ldmatrix's 8 row addresses hit 8 bank groups), and
// the 4-byte store of two neighbouring outputs of an accumulator fragment. Present only where
// cp.async exists (sm_80+, and the host pass).
#pragma once

#include "kernels/device_common.cuh"
#include "kernels/mma_sync_ptx.cuh"

namespace tilesim::kernels::detail {

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// A (BM, BK) into `as` (rows of BK + 8 elements) and B (BK, BN) into `bs` (rows of BN + 8), from
// K offset k0, by kLoaders threads in 8-element (16-byte) chunks: chunk threadIdx.x + u kLoaders,
// row-major over the tile. Out-of-range chunks are zero-filled. kAligned (K and N multiples of 8):
// cp.async; otherwise element-wise masked loads.
template <class T, bool kAligned, int BM, int BN, int BK, int kLoaders>
__device__ __forceinline__ void load_padded_stage(T* as, T* bs, const T* __restrict__ a,
                                                  const T* __restrict__ b, std::int64_t m,
                                                  std::int64_t n, std::int64_t k, std::int64_t row0,
                                                  std::int64_t col0, std::int64_t k0) {
  constexpr int kLdA = BK + 8, kLdB = BN + 8;
  constexpr int kChunksA = BM * BK / 8, kChunksB = BK * BN / 8;
#pragma unroll
  for (int u = 0; u < (kChunksA + kLoaders - 1) / kLoaders; ++u) {
    const int chunk = threadIdx.x + u * kLoaders;
    if (kChunksA % kLoaders != 0 && chunk >= kChunksA) break;
    const int r = chunk / (BK / 8), kc = (chunk % (BK / 8)) * 8;
    const std::int64_t row = row0 + r, kk = k0 + kc;
    T* dst = as + r * kLdA + kc;
    if constexpr (kAligned) {
      const bool ok = row < m && kk < k;
      cp_async_16(dst, ok ? a + row * k + kk : a, ok);
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e)
        dst[e] = (row < m && kk + e < k) ? a[row * k + kk + e] : from_float<T>(0.f);
    }
  }
#pragma unroll
  for (int u = 0; u < (kChunksB + kLoaders - 1) / kLoaders; ++u) {
    const int chunk = threadIdx.x + u * kLoaders;
    if (kChunksB % kLoaders != 0 && chunk >= kChunksB) break;
    const int r = chunk / (BN / 8), nc = (chunk % (BN / 8)) * 8;
    const std::int64_t kk = k0 + r, col = col0 + nc;
    T* dst = bs + r * kLdB + nc;
    if constexpr (kAligned) {
      const bool ok = kk < k && col < n;
      cp_async_16(dst, ok ? b + kk * n + col : b, ok);
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e)
        dst[e] = (kk < k && col + e < n) ? b[kk * n + col + e] : from_float<T>(0.f);
    }
  }
}

// Two neighbouring outputs (row, col) and (row, col + 1) of an accumulator fragment, as one 4-byte
// store when N is even (col is even, so the pair is aligned) and both are in range.
template <class T>
__device__ __forceinline__ void store_pair(T* __restrict__ c, std::int64_t n, std::int64_t row,
                                           std::int64_t col, float x0, float x1, bool pairs) {
  const T v0 = from_float<T>(x0), v1 = from_float<T>(x1);
  T* q = c + row * n + col;
  if (pairs && col + 1 < n) {
    const unsigned short lo = *reinterpret_cast<const unsigned short*>(&v0);
    const unsigned short hi = *reinterpret_cast<const unsigned short*>(&v1);
    *reinterpret_cast<unsigned*>(q) = lo | (static_cast<unsigned>(hi) << 16);
  } else {
    if (col < n) q[0] = v0;
    if (col + 1 < n) q[1] = v1;
  }
}
#endif  // sm_80+

}  // namespace tilesim::kernels::detail
