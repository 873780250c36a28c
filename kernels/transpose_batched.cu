// Transpose, version 3b transpose_smem_padded_batched: version 3's padded shared tile and scalar
// (4-byte) global accesses, with the bytes in flight that version 3 lacks.
// Version 3 (transpose_smem_padded, transpose.cu) loads its elements in a loop whose trip count is
// the tile's rows left: its SASS is LDG, STS, branch per element, so a thread waits for one 4-byte
// load before it issues the next. DRAM throughput is bytes in flight / latency (Little's law),
// and 4 bytes a thread do not cover the latency: Nsight Compute shows its warps stalled on the
// load (long scoreboard) 41 cycles per instruction issued, DRAM at 70 % of peak (H100, 8192^2).
// Here the tile is fixed at compile time (64 x 64, 256 threads), so the load loop is fully
// unrolled: every thread issues its 16 loads (each masked at the matrix's edges) into registers
// before its first shared store, 64 bytes in flight a thread, as copy_vectorized keeps with four
// 16-byte loads. Nothing else changes: one tile per block, rows of `in` read along the tile
// (a warp: 32 consecutive words of one row), the padded tile written along its rows and read
// down its columns (row stride BLOCK_N + 1 words: lane r in bank (r + c) % 32, conflict-free),
// rows of `out` written along the tile. Plain loads and stores: the streaming hints that
// copy_vectorized uses (ld/st.global.cs) cost this kernel 6 % (docs/PERFORMANCE.md).
#include "kernels/device_common.cuh"
#include "kernels/launcher.hpp"
#include "kernels/transpose_batched.hpp"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = transpose_batched::kTile.block_m, kBN = transpose_batched::kTile.block_n;
constexpr int kThreads = transpose_batched::kThreads;

template <class W>
__global__ void __launch_bounds__(kThreads)
    transpose_batched_kernel(const W* __restrict__ in, W* __restrict__ out, std::int64_t m,
                             std::int64_t n, GridMap g) {
  constexpr int kLd = kBN + 4 / static_cast<int>(sizeof(W));  // padded row: one 4-byte word more
  constexpr int kRowsPerPass = kThreads / kBN, kLoads = kBM / kRowsPerPass;
  constexpr int kColsPerPass = kThreads / kBM, kStores = kBN / kColsPerPass;
  static_assert(kThreads % kBN == 0 && kThreads % kBM == 0);
  __shared__ W tile[kBM * kLd];
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int rows_left = static_cast<int>(m - row0 < kBM ? m - row0 : kBM);
  const int cols_left = static_cast<int>(n - col0 < kBN ? n - col0 : kBN);
  // Load: thread t reads column lc of tile rows lr, lr + kRowsPerPass, ...; all kLoads loads are
  // issued before the first shared store below.
  const int lc = threadIdx.x % kBN, lr = threadIdx.x / kBN;
  W v[kLoads];
  {
    const W* src = in + (row0 + lr) * n + col0 + lc;
    const std::int64_t step = kRowsPerPass * n;
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      if (lc < cols_left && lr + k * kRowsPerPass < rows_left) v[k] = src[k * step];
  }
#pragma unroll
  for (int k = 0; k < kLoads; ++k)
    if (lc < cols_left && lr + k * kRowsPerPass < rows_left)
      tile[(lr + k * kRowsPerPass) * kLd + lc] = v[k];
  __syncthreads();
  span.mark();
  // Store: thread t writes tile row sr of columns sc, sc + kColsPerPass, ... (a warp: 32
  // consecutive words of one row of `out`, read down one column of the tile).
  const int sr = threadIdx.x % kBM, sc = threadIdx.x / kBM;
  W* dst = out + (col0 + sc) * m + row0 + sr;
  const std::int64_t step = kColsPerPass * m;
#pragma unroll
  for (int k = 0; k < kStores; ++k)
    if (sr < rows_left && sc + k * kColsPerPass < cols_left)
      dst[k * step] = tile[sr * kLd + sc + k * kColsPerPass];
}

template <class W>
std::string launch(const LaunchArgs& a) {
  if (a.block_m != kBM || a.block_n != kBN)
    return "runs its own " + std::to_string(kBM) + "x" + std::to_string(kBN) + " tile";
  transpose_batched_kernel<W><<<grid_blocks(a.grid), kThreads, 0, a.stream>>>(
      static_cast<const W*>(a.a), static_cast<W*>(a.c), a.m, a.n, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_transpose_smem_padded_batched(const LaunchArgs& a) {
  return a.dtype == sim::DType::fp32 ? launch<std::uint32_t>(a) : launch<std::uint16_t>(a);
}

}  // namespace tilesim::kernels::detail
