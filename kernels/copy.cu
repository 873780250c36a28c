// Copy: the seed's 2-D tiled copy of an (M, N) row-major matrix, one program per tile.
// version 1 copy_tiled: one element per access; offsets rows[:, None] * N + cols[None, :] and the
//   mask (rows < M) & (cols < N), exactly seed 000's program. Teaches the tile, pid and mask.
// version 2 copy_vectorized: the same tile in 16-byte accesses (4 FP32 or 8 FP16), four loads in
//   flight per thread before the first store. Teaches access width and memory-level parallelism.
// baseline copy_memcpy_d2d (runtime.cu): cudaMemcpyAsync device to device.
#include "kernels/copy.hpp"
#include "kernels/device_common.cuh"
#include "kernels/launcher.hpp"

namespace tilesim::kernels::detail {
namespace {

// Element-agnostic: a copy moves bits, so fp16 and bf16 travel as 2-byte words.
template <class W>
__global__ void copy_tiled_kernel(const W* __restrict__ in, W* __restrict__ out, std::int64_t m,
                                  std::int64_t n, int block_m, int block_n_shift, GridMap g) {
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int tile = block_m << block_n_shift;
  const std::int64_t row0 = pid_m * block_m, col0 = pid_n << block_n_shift;
  for (int i = threadIdx.x; i < tile; i += blockDim.x) {
    const std::int64_t row = row0 + (i >> block_n_shift);
    const std::int64_t col = col0 + (i & ((1 << block_n_shift) - 1));
    if (row < m && col < n) out[row * n + col] = in[row * n + col];
  }
}

// Each thread moves chunks of V words (16 bytes); a tile row of block_n words is
// block_n / V chunks. Rows start 16-byte aligned only when N % V == 0 (`aligned`); otherwise the
// chunk falls back to masked word copies.
template <class W>
__global__ void copy_vectorized_kernel(const W* __restrict__ in, W* __restrict__ out,
                                       std::int64_t m, std::int64_t n, int block_m,
                                       int chunks_per_row_shift, GridMap g, bool aligned) {
  constexpr int V = 16 / sizeof(W);
  constexpr int kInFlight = 4;
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int chunks = block_m << chunks_per_row_shift;
  const std::int64_t row0 = pid_m * block_m;
  const std::int64_t col0 = (pid_n << chunks_per_row_shift) * V;
  const int stride = blockDim.x;
  for (int base = threadIdx.x; base < chunks; base += kInFlight * stride) {
    uint4 v[kInFlight];
    std::int64_t off[kInFlight];
    bool full[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const int i = base + u * stride;
      const std::int64_t row = row0 + (i >> chunks_per_row_shift);
      const std::int64_t col =
          col0 + static_cast<std::int64_t>(i & ((1 << chunks_per_row_shift) - 1)) * V;
      off[u] = row * n + col;
      full[u] = aligned && i < chunks && row < m && col + V <= n;
      if (full[u])
        v[u] = __ldcs(reinterpret_cast<const uint4*>(in + off[u]));
      else if (i < chunks && row < m)
        for (int e = 0; e < V; ++e)
          if (col + e < n) out[off[u] + e] = in[off[u] + e];
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      if (full[u]) __stcs(reinterpret_cast<uint4*>(out + off[u]), v[u]);
  }
}

template <class W>
std::string launch_tiled(const LaunchArgs& a) {
  const int threads = element_loop_threads(a.block_m * a.block_n);
  copy_tiled_kernel<W><<<grid_blocks(a.grid), threads, 0, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, a.block_m, log2_exact(a.block_n),
      a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class W>
std::string launch_vectorized(const LaunchArgs& a) {
  constexpr int V = 16 / sizeof(W);
  if (a.block_n < V)
    return "BLOCK_N = " + std::to_string(a.block_n) + " is under one 16-byte access (" +
           std::to_string(V) + " elements)";
  const int chunks = a.block_m * (a.block_n / V);
  const int threads = element_loop_threads(chunks);
  copy_vectorized_kernel<W><<<grid_blocks(a.grid), threads, 0, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, a.block_m,
      log2_exact(a.block_n / V), a.grid, a.n % V == 0);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_copy_tiled(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_tiled<std::uint32_t>(a)
                                     : launch_tiled<std::uint16_t>(a);
}

std::string launch_copy_vectorized(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_vectorized<std::uint32_t>(a)
                                     : launch_vectorized<std::uint16_t>(a);
}

// The baseline: the same bytes moved by the copy engine, no kernel of ours.
std::string launch_copy_memcpy_d2d(const LaunchArgs& a) {
  const std::size_t bytes =
      static_cast<std::size_t>(a.m * a.n) * (a.dtype == sim::DType::fp32 ? 4 : 2);
  TILESIM_CUDA_CHECK(cudaMemcpyAsync(a.c, a.a, bytes, cudaMemcpyDeviceToDevice, a.stream));
  return "";
}

}  // namespace tilesim::kernels::detail
