// Transpose, version 3b transpose_smem_padded_pipelined: version 3's padded shared tile and
// scalar (4-byte) global accesses, with the bytes in flight that version 3 lacks.
// Version 3 (transpose.cu) loads each element in a loop whose trip count is the tile's rows left:
// its SASS issues LDG, STS, branch, so a thread waits for one 4-byte load before it issues the
// next. Memory throughput is bytes in flight / latency (Little's law), and 4 bytes a thread do not
// cover DRAM's latency. Here, with the same accesses and the same +1-word padding:
//   1. every thread issues all of its 16 loads of a tile (a fully unrolled, compile-time loop over
//      the 64 x 64 tile, each access masked at the edges) into registers before the first shared
//      store: 64 bytes in flight a thread, as copy_vectorized keeps with four 16-byte loads;
//   2. a persistent grid: each block walks tiles pid, pid + gridDim.x, ... (the launch order still
//      maps each pid to its tile) and issues the next tile's loads right after the barrier, before
//      this tile's stores, so loads stay in flight while the stores drain (two padded shared
//      buffers, one barrier per tile);
//   3. streaming cache hints (ld.global.cs / st.global.cs): each byte is touched once.
// Shared accesses are those of version 3: rows written along the tile (consecutive banks), columns
// read with a row stride of BLOCK_N + 1 words (lane r in bank (r + c) % 32): conflict-free.
#include "kernels/device_common.cuh"
#include "kernels/launcher.hpp"
#include "kernels/transpose_pipelined.hpp"

#if defined(TILESIM_TRANSPOSE_EXPERIMENT)
#include <cstdlib>
#endif

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = transpose_pipelined::kTile.block_m, kBN = transpose_pipelined::kTile.block_n;

template <bool kHints, class W>
__device__ __forceinline__ W load(const W* p) {
  if constexpr (kHints)
    return __ldcs(p);
  else
    return *p;
}
template <bool kHints, class W>
__device__ __forceinline__ void store(W* p, W v) {
  if constexpr (kHints)
    __stcs(p, v);
  else
    *p = v;
}

template <class W, int kThreads, bool kHints>
__global__ void __launch_bounds__(kThreads)
    transpose_pipelined_kernel(const W* __restrict__ in, W* __restrict__ out, std::int64_t m,
                               std::int64_t n, GridMap g) {
  constexpr int kLd = kBN + 4 / static_cast<int>(sizeof(W));  // padded row: one 4-byte word more
  constexpr int kRowsPerPass = kThreads / kBN, kLoads = kBM / kRowsPerPass;
  constexpr int kColsPerPass = kThreads / kBM, kStores = kBN / kColsPerPass;
  static_assert(kThreads % kBN == 0 && kThreads % kBM == 0 && kLoads * kRowsPerPass == kBM);
  __shared__ W tile[2][kBM * kLd];
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  const std::int64_t programs = g.tiles_m * g.tiles_n;
  // Load: thread t reads column lc of rows lr, lr + kRowsPerPass, ... (a warp: 32 consecutive
  // columns of one row of `in`). Store: column sc, rows sr.. of the tile = a row of `out`.
  const int lc = threadIdx.x % kBN, lr = threadIdx.x / kBN;
  const int sr = threadIdx.x % kBM, sc = threadIdx.x / kBM;
  W v[kLoads];
  std::int64_t row0 = 0, col0 = 0;
  int rows_left = 0, cols_left = 0;
  // Issue the loads of tile `pid` into v (the elements outside the matrix stay unloaded).
  const auto issue_loads = [&](std::int64_t pid) {
    std::int64_t pid_m, pid_n;
    tile_of(g, pid, pid_m, pid_n);
    row0 = pid_m * kBM;
    col0 = pid_n * kBN;
    rows_left = static_cast<int>(m - row0 < kBM ? m - row0 : kBM);
    cols_left = static_cast<int>(n - col0 < kBN ? n - col0 : kBN);
    const W* src = in + (row0 + lr) * n + col0 + lc;
    const std::int64_t step = kRowsPerPass * n;
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      if (lc < cols_left && lr + k * kRowsPerPass < rows_left) v[k] = load<kHints>(src + k * step);
  };
  std::int64_t pid = blockIdx.x;
  if (pid >= programs) return;
  issue_loads(pid);
  for (int buf = 0;; buf ^= 1) {
    W* t = tile[buf];
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      if (lc < cols_left && lr + k * kRowsPerPass < rows_left)
        t[(lr + k * kRowsPerPass) * kLd + lc] = v[k];
    // The one barrier per tile: this buffer is written; the other one, which the next tile's
    // shared stores will fill, was last read before this barrier (in the previous iteration).
    __syncthreads();
    span.mark();
    const std::int64_t this_row0 = row0, this_col0 = col0;
    const int this_rows = rows_left, this_cols = cols_left;
    const std::int64_t next = pid + gridDim.x;
    if (next < programs) issue_loads(next);  // in flight while this tile's stores go out
    W* dst = out + (this_col0 + sc) * m + this_row0 + sr;
    const std::int64_t step = kColsPerPass * m;
#pragma unroll
    for (int k = 0; k < kStores; ++k)
      if (sr < this_rows && sc + k * kColsPerPass < this_cols)
        store<kHints>(dst + k * step, t[sr * kLd + sc + k * kColsPerPass]);
    if (next >= programs) break;
    pid = next;
  }
}

template <class W, int kThreads, bool kHints>
std::string launch(const LaunchArgs& a, int blocks_per_sm) {
  const auto kernel = transpose_pipelined_kernel<W, kThreads, kHints>;
  const std::int64_t programs = a.grid.programs();
  if (programs > 0x7fffffff) return "more programs than a 1-D grid holds";
  int dev = 0, sms = 0, fit = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kThreads, 0));
  if (fit < 1) return "no block of this kernel fits an SM";
  // Persistent: as many blocks as stay resident together (0: one block per tile).
  const std::int64_t resident =
      static_cast<std::int64_t>(sms) * (blocks_per_sm > 0 ? std::min(fit, blocks_per_sm) : fit);
  const std::int64_t blocks = blocks_per_sm == 0 ? programs : std::min(programs, resident);
  kernel<<<static_cast<unsigned>(blocks), kThreads, 0, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

template <class W>
std::string launch_w(const LaunchArgs& a) {
  if (a.block_m != kBM || a.block_n != kBN)
    return "runs its own " + std::to_string(kBM) + "x" + std::to_string(kBN) + " tile";
#if defined(TILESIM_TRANSPOSE_EXPERIMENT)
  // TILESIM_TR="threads hints blocks_per_sm" (experiments only; blocks_per_sm -1: all that fit).
  int threads = 256, hints = 1, bps = -1;
  if (const char* e = std::getenv("TILESIM_TR")) std::sscanf(e, "%d %d %d", &threads, &hints, &bps);
  if (threads == 512)
    return hints ? launch<W, 512, true>(a, bps) : launch<W, 512, false>(a, bps);
  if (threads == 128)
    return hints ? launch<W, 128, true>(a, bps) : launch<W, 128, false>(a, bps);
  return hints ? launch<W, 256, true>(a, bps) : launch<W, 256, false>(a, bps);
#else
  return launch<W, transpose_pipelined::kThreads, true>(a, -1);
#endif
}

}  // namespace

std::string launch_transpose_smem_padded_pipelined(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch_w<std::uint32_t>(a) : launch_w<std::uint16_t>(a);
}

}  // namespace tilesim::kernels::detail
