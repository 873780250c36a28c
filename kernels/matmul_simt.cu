// Matmul on CUDA cores, the problem's own tiles: C (M, N) = A (M, K) @ B (K, N), FP32 arithmetic.
// version 1 matmul_naive: one thread per output element (looping over the tile's elements), every
//   A and B operand read from global memory: 2 loads per FMA, so the L1/L2 bandwidth sets the pace.
// version 2 matmul_smem_tiled: the seeds' K loop. Per step a (BLOCK_M, BLOCK_K) tile of A and a
//   (BLOCK_K, BLOCK_N) tile of B go to shared memory, each then used BLOCK_N (or BLOCK_M) times.
// version 3 matmul_smem_tiled_b_transposed (same kernel, kBT): seed 003's variant, B stored as
//   B^T (N, K). Reading it along K is coalesced, but writing it into the (BLOCK_K, BLOCK_N) shared
//   tile transposes it, and those stores fall BLOCK_N words apart: bank conflicts on every step.
// Inputs FP32, FP16 or BF16 (converted on load); C in the input type; masked at every edge.
#include "kernels/device_common.cuh"
#include "kernels/matmul_simt.hpp"

namespace tilesim::kernels::detail {
namespace {

template <class T, bool kBT>
__device__ __forceinline__ float load_b(const T* b, std::int64_t kk, std::int64_t col,
                                        std::int64_t n, std::int64_t k) {
  return to_float(kBT ? b[col * k + kk] : b[kk * n + col]);
}

template <class T, bool kBT>
__global__ void matmul_naive_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                    T* __restrict__ c, std::int64_t m, std::int64_t n,
                                    std::int64_t k, int block_m, int block_n_shift, GridMap g) {
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int tile = block_m << block_n_shift;
  for (int i = threadIdx.x; i < tile; i += blockDim.x) {
    const std::int64_t row = pid_m * block_m + (i >> block_n_shift);
    const std::int64_t col = (pid_n << block_n_shift) + (i & ((1 << block_n_shift) - 1));
    if (row >= m || col >= n) continue;
    float acc = 0.f;
    for (std::int64_t kk = 0; kk < k; ++kk)
      acc += to_float(a[row * k + kk]) * load_b<T, kBT>(b, kk, col, n, k);
    c[row * n + col] = from_float<T>(acc);
  }
}

constexpr int kMaxOutputsPerThread = 16;

// Shared memory: As (BLOCK_M, BLOCK_K) then Bs (BLOCK_K, BLOCK_N), FP32. Thread t owns outputs
// t, t + blockDim, ... of the tile (`outputs` of them, at most 16), accumulated in registers.
template <class T, bool kBT>
__global__ void matmul_smem_tiled_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                         T* __restrict__ c, std::int64_t m, std::int64_t n,
                                         std::int64_t k, int bm_shift, int bn_shift, int bk_shift,
                                         int outputs, GridMap g) {
  extern __shared__ float smem[];
  const int bm = 1 << bm_shift, bn = 1 << bn_shift, bk = 1 << bk_shift;
  float* as = smem;            // (bm, bk)
  float* bs = smem + bm * bk;  // (bk, bn)
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * bm, col0 = pid_n * bn;
  float acc[kMaxOutputsPerThread];
#pragma unroll
  for (int o = 0; o < kMaxOutputsPerThread; ++o) acc[o] = 0.f;

  for (std::int64_t k0 = 0; k0 < k; k0 += bk) {
    for (int i = threadIdx.x; i < bm * bk; i += blockDim.x) {
      const std::int64_t row = row0 + (i >> bk_shift), kk = k0 + (i & (bk - 1));
      as[i] = (row < m && kk < k) ? to_float(a[row * k + kk]) : 0.f;
    }
    for (int i = threadIdx.x; i < bk * bn; i += blockDim.x) {
      // Row-major B: consecutive threads walk N. B^T: consecutive threads walk K (its contiguous
      // axis), so the shared store index jumps by bn between neighbours.
      const int kk_local = kBT ? (i & (bk - 1)) : (i >> bn_shift);
      const int col_local = kBT ? (i >> bk_shift) : (i & (bn - 1));
      const std::int64_t kk = k0 + kk_local, col = col0 + col_local;
      bs[kk_local * bn + col_local] = (kk < k && col < n) ? load_b<T, kBT>(b, kk, col, n, k) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int o = 0; o < kMaxOutputsPerThread; ++o) {
      const int idx = threadIdx.x + o * blockDim.x;
      if (o >= outputs || idx >= bm * bn) break;
      const int r = idx >> bn_shift, cc = idx & (bn - 1);
      float s = acc[o];
      for (int kk = 0; kk < bk; ++kk) s += as[r * bk + kk] * bs[kk * bn + cc];
      acc[o] = s;
    }
    __syncthreads();
  }
#pragma unroll
  for (int o = 0; o < kMaxOutputsPerThread; ++o) {
    const int idx = threadIdx.x + o * blockDim.x;
    if (o >= outputs || idx >= bm * bn) break;
    const std::int64_t row = row0 + (idx >> bn_shift), col = col0 + (idx & (bn - 1));
    if (row < m && col < n) c[row * n + col] = from_float<T>(acc[o]);
  }
}

template <class T, bool kBT>
std::string naive_typed(const LaunchArgs& a) {
  const int threads = std::min(256, std::max(32, a.block_m * a.block_n));
  matmul_naive_kernel<T, kBT><<<grid_blocks(a.grid), threads, 0, a.stream>>>(
      static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n, a.k,
      a.block_m, log2_exact(a.block_n), a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class T, bool kBT>
std::string smem_typed(const LaunchArgs& a) {
  const int tile = a.block_m * a.block_n;
  const int threads = std::min(1024, std::max(32, tile / kMaxOutputsPerThread));
  const int outputs = (tile + threads - 1) / threads;
  if (outputs > kMaxOutputsPerThread)
    return "BLOCK_M x BLOCK_N = " + std::to_string(tile) +
           " outputs is more than 1024 threads x 16 registers hold";
  const std::size_t bytes =
      sizeof(float) * (static_cast<std::size_t>(a.block_m) * a.block_k + a.block_k * a.block_n);
  int dev = 0, optin = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (bytes > static_cast<std::size_t>(optin))
    return "the A and B tiles need " + std::to_string(bytes) + " bytes of shared memory, over " +
           std::to_string(optin);
  if (bytes > 48 * 1024)
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(matmul_smem_tiled_kernel<T, kBT>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  matmul_smem_tiled_kernel<T, kBT><<<grid_blocks(a.grid), threads, bytes, a.stream>>>(
      static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n, a.k,
      log2_exact(a.block_m), log2_exact(a.block_n), log2_exact(a.block_k), outputs, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class T>
std::string naive_bt(const LaunchArgs& a) {
  return a.b_transposed ? naive_typed<T, true>(a) : naive_typed<T, false>(a);
}
template <class T>
std::string smem_bt(const LaunchArgs& a) {
  return a.b_transposed ? smem_typed<T, true>(a) : smem_typed<T, false>(a);
}

}  // namespace

std::string launch_matmul_naive(const LaunchArgs& a) {
  switch (a.dtype) {
    case sim::DType::fp32:
      return naive_bt<float>(a);
    case sim::DType::fp16:
      return naive_bt<__half>(a);
    case sim::DType::bf16:
      return naive_bt<__nv_bfloat16>(a);
  }
  return "unknown dtype";
}

std::string launch_matmul_smem_tiled(const LaunchArgs& a) {
  switch (a.dtype) {
    case sim::DType::fp32:
      return smem_bt<float>(a);
    case sim::DType::fp16:
      return smem_bt<__half>(a);
    case sim::DType::bf16:
      return smem_bt<__nv_bfloat16>(a);
  }
  return "unknown dtype";
}

}  // namespace tilesim::kernels::detail
