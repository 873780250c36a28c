// Transpose: in (M, N) row-major -> out (N, M) row-major, one program per (BLOCK_M, BLOCK_N) tile
// of in. version 1 transpose_naive: reads along a row of `in` (coalesced), writes down a column of
// `out`:
//   a warp's 32 stores land M elements apart, 32 memory transactions for 128 useful bytes.
// version 2 transpose_smem_tiled: the tile is staged in shared memory, so both the global reads and
//   the global writes run along rows; the column read of the shared tile puts a warp's 32 lanes
//   in one bank (a 32-way conflict when BLOCK_N words is a multiple of 32).
// version 3 transpose_smem_padded: each shared row padded by one 4-byte word: the column read walks
//   33 words per lane, which spreads the warp over all 32 banks (conflict-free).
//   Its element loop keeps one 4-byte load in flight a thread (LDG, STS, branch): version 3b,
//   transpose_smem_padded_batched (transpose_batched.cu), is this kernel with the loop unrolled
//   at a fixed 64x64 tile, its 16 loads a thread issued before the first shared store.
// version 4 transpose_smem_padded_vectorized: the padded tile, but global memory moves 16 bytes
//   per access both ways (a row of 4 FP32 read, and 4 tile elements down a column gathered into one
//   16-byte store), as copy_vectorized does: scalar 4-byte accesses cap the other versions near
//   copy_tiled's bandwidth. Shared accesses stay scalar (2-way conflicts at most).
#include "kernels/device_common.cuh"
#include "kernels/launcher.hpp"
#include "kernels/transpose.hpp"

namespace tilesim::kernels::detail {
namespace {

template <class W>
__global__ void transpose_naive_kernel(const W* __restrict__ in, W* __restrict__ out,
                                       std::int64_t m, std::int64_t n, int block_m,
                                       int block_n_shift, GridMap g) {
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int tile = block_m << block_n_shift;
  const std::int64_t row0 = pid_m * block_m, col0 = pid_n << block_n_shift;
#pragma unroll 4
  for (int i = threadIdx.x; i < tile; i += blockDim.x) {
    const std::int64_t row = row0 + (i >> block_n_shift);
    const std::int64_t col = col0 + (i & ((1 << block_n_shift) - 1));
    if (row < m && col < n) out[col * m + row] = in[row * n + col];
  }
}

// shared tile: (BLOCK_M, BLOCK_N + pad) words; pad = 0 (tiled) or one 4-byte word (padded).
// Thread t keeps one column of the tile (t % BLOCK_N) and steps down rows by blockDim / BLOCK_N,
// so the loop carries one pointer increment per element instead of index arithmetic.
template <class W>
__global__ void transpose_smem_kernel(const W* __restrict__ in, W* __restrict__ out, std::int64_t m,
                                      std::int64_t n, int block_m_shift, int block_n_shift, int pad,
                                      GridMap g) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  W* tile = reinterpret_cast<W*>(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int block_m = 1 << block_m_shift, block_n = 1 << block_n_shift;
  const int ld = block_n + pad;  // shared row stride, in elements
  const std::int64_t row0 = pid_m * block_m, col0 = pid_n * block_n;
  const int rows_left = static_cast<int>(m - row0 < block_m ? m - row0 : block_m);
  const int cols_left = static_cast<int>(n - col0 < block_n ? n - col0 : block_n);
  // Load: consecutive threads walk a row of `in` (coalesced), and a row of the shared tile.
  {
    const int c = threadIdx.x & (block_n - 1), step = blockDim.x >> block_n_shift;
    if (c < cols_left) {
      const W* src = in + (row0 + (threadIdx.x >> block_n_shift)) * n + col0 + c;
      const std::int64_t src_step = step * n;
#pragma unroll 8
      for (int r = threadIdx.x >> block_n_shift; r < rows_left; r += step, src += src_step)
        tile[r * ld + c] = *src;
    }
  }
  __syncthreads();
  span.mark();
  // Store: consecutive threads walk a row of `out` (= a column of `in`) and a column of the tile.
  {
    const int r = threadIdx.x & (block_m - 1), step = blockDim.x >> block_m_shift;
    if (r < rows_left) {
      W* dst = out + (col0 + (threadIdx.x >> block_m_shift)) * m + row0 + r;
      const std::int64_t dst_step = step * m;
#pragma unroll 8
      for (int c = threadIdx.x >> block_m_shift; c < cols_left; c += step, dst += dst_step)
        *dst = tile[r * ld + c];
    }
  }
}

template <class W>
union Vec16 {
  uint4 v;
  W e[16 / sizeof(W)];
};

template <class W>
__global__ void transpose_smem_vectorized_kernel(const W* __restrict__ in, W* __restrict__ out,
                                                 std::int64_t m, std::int64_t n, int block_m_shift,
                                                 int block_n_shift, GridMap g) {
  constexpr int V = 16 / sizeof(W), kVShift = sizeof(W) == 4 ? 2 : 3, pad = 4 / sizeof(W);
  extern __shared__ __align__(16) unsigned char smem_raw[];
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  W* tile = reinterpret_cast<W*>(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int block_m = 1 << block_m_shift, block_n = 1 << block_n_shift;
  const int ld = block_n + pad;
  const std::int64_t row0 = pid_m * block_m, col0 = pid_n * block_n;
  const int rows_left = static_cast<int>(m - row0 < block_m ? m - row0 : block_m);
  const int cols_left = static_cast<int>(n - col0 < block_n ? n - col0 : block_n);
  const bool vec_in = n % V == 0, vec_out = m % V == 0;  // 16-byte aligned rows of in / out
  // Load: chunk i covers tile row i / (BLOCK_N / V), columns (i % (BLOCK_N / V)) * V .. + V - 1.
  const int in_shift = block_n_shift - kVShift;
#pragma unroll 4
  for (int i = threadIdx.x; i < (block_m << in_shift); i += blockDim.x) {
    const int r = i >> in_shift, c = (i & ((1 << in_shift) - 1)) << kVShift;
    if (r >= rows_left || c >= cols_left) continue;
    const W* src = in + (row0 + r) * n + col0 + c;
    W* dst = tile + r * ld + c;
    if (vec_in && c + V <= cols_left) {
      Vec16<W> u;
      u.v = __ldcs(reinterpret_cast<const uint4*>(src));
#pragma unroll
      for (int j = 0; j < V; ++j) dst[j] = u.e[j];
    } else {
      for (int j = 0; j < V && c + j < cols_left; ++j) dst[j] = src[j];
    }
  }
  __syncthreads();
  span.mark();
  // Store: chunk i covers out row (tile column) i / (BLOCK_M / V), tile rows (i % ...) * V .. + V
  // - 1.
  const int out_shift = block_m_shift - kVShift;
#pragma unroll 4
  for (int i = threadIdx.x; i < (block_n << out_shift); i += blockDim.x) {
    const int c = i >> out_shift, r = (i & ((1 << out_shift) - 1)) << kVShift;
    if (c >= cols_left || r >= rows_left) continue;
    W* dst = out + (col0 + c) * m + row0 + r;
    if (vec_out && r + V <= rows_left) {
      Vec16<W> u;
#pragma unroll
      for (int j = 0; j < V; ++j) u.e[j] = tile[(r + j) * ld + c];
      __stcs(reinterpret_cast<uint4*>(dst), u.v);
    } else {
      for (int j = 0; j < V && r + j < rows_left; ++j) dst[j] = tile[(r + j) * ld + c];
    }
  }
}

template <class W>
std::string launch_vectorized(const LaunchArgs& a) {
  constexpr int V = 16 / sizeof(W), pad = 4 / sizeof(W);
  if (a.block_m < V || a.block_n < V)
    return "BLOCK_M and BLOCK_N must each hold one 16-byte access (" + std::to_string(V) +
           " elements)";
  const std::size_t bytes = static_cast<std::size_t>(a.block_m) * (a.block_n + pad) * sizeof(W);
  int dev = 0, optin = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (bytes > static_cast<std::size_t>(optin))
    return "the shared tile needs " + std::to_string(bytes) + " bytes, over the " +
           std::to_string(optin) + " a block may have";
  if (bytes > 48 * 1024)
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(transpose_smem_vectorized_kernel<W>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  const int threads = element_loop_threads(a.block_m * a.block_n / V);
  transpose_smem_vectorized_kernel<W><<<grid_blocks(a.grid), threads, bytes, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, log2_exact(a.block_m),
      log2_exact(a.block_n), a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class W>
std::string launch_naive(const LaunchArgs& a) {
  const int threads = element_loop_threads(a.block_m * a.block_n);
  transpose_naive_kernel<W><<<grid_blocks(a.grid), threads, 0, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, a.block_m, log2_exact(a.block_n),
      a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class W>
std::string launch_smem(const LaunchArgs& a, bool padded) {
  const int pad = padded ? static_cast<int>(4 / sizeof(W)) : 0;
  const std::size_t bytes = static_cast<std::size_t>(a.block_m) * (a.block_n + pad) * sizeof(W);
  int dev = 0, optin = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (bytes > static_cast<std::size_t>(optin))
    return "the shared tile needs " + std::to_string(bytes) + " bytes, over the " +
           std::to_string(optin) + " a block may have";
  if (bytes > 48 * 1024)
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(transpose_smem_kernel<W>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  // A multiple of BLOCK_M and of BLOCK_N (both powers of two up to 256).
  const int threads =
      element_loop_threads(a.block_m * a.block_n, std::max({32, a.block_m, a.block_n}));
  transpose_smem_kernel<W><<<grid_blocks(a.grid), threads, bytes, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, log2_exact(a.block_m),
      log2_exact(a.block_n), pad, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_transpose_smem_padded_vectorized(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_vectorized<std::uint32_t>(a)
                                     : launch_vectorized<std::uint16_t>(a);
}
std::string launch_transpose_naive(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_naive<std::uint32_t>(a)
                                     : launch_naive<std::uint16_t>(a);
}
std::string launch_transpose_smem_tiled(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_smem<std::uint32_t>(a, false)
                                     : launch_smem<std::uint16_t>(a, false);
}
std::string launch_transpose_smem_padded(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_smem<std::uint32_t>(a, true)
                                     : launch_smem<std::uint16_t>(a, true);
}

}  // namespace tilesim::kernels::detail
