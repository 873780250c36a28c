// The templated mma.sync kernel (version 5t, matmul_mma_sync_tiles.cu): the kernel, its launcher
// and its resource query for one (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages), instantiated by the
// .cu files that list the configurations (each file one share of them, so they compile in
// parallel: the spilling 256-wide tiles take ptxas long).
#pragma once

#include "kernels/device_common.cuh"
#include "kernels/matmul_mma_sync_tiles.hpp"
#include "kernels/mma_sync_padded.cuh"
#include "kernels/mma_sync_ptx.cuh"

namespace tilesim::kernels::detail::mma_tiles {

// One configuration's entry points (fp16; B row-major (K, N)).
struct Entry {
  mma_sync_tiles::Config config;
  std::string (*launch)(const LaunchArgs&);
  KernelResources (*resources)();
};
const std::vector<Entry>& entries_small();  // matmul_mma_sync_tiles.cu
const std::vector<Entry>& entries_large();  // matmul_mma_sync_tiles_large.cu

// The K step copy (load_padded_stage) and the paired C store (store_pair): mma_sync_padded.cuh.

// A (BLOCK_M, BLOCK_K) tile, rows padded to BLOCK_K + 8 elements, then B (BLOCK_K, BLOCK_N),
// rows padded to BLOCK_N + 8, per stage.
template <int BM, int BN, int BK, int W, int S>
struct Shape {
  static constexpr int kThreads = 32 * W;
  static constexpr int kWarpsM = mma_sync_tiles::warps_m(W), kWarpsN = W / kWarpsM;
  static constexpr int kWarpTileM = BM / kWarpsM, kWarpTileN = BN / kWarpsN;
  static constexpr int kMT = kWarpTileM / 16, kNT = kWarpTileN / 8;  // m16 and n8 tiles a warp
  static constexpr int kLdA = BK + 8, kLdB = BN + 8;
  static constexpr int kStageElems = BM * kLdA + BK * kLdB;
  static constexpr std::size_t kSmemBytes = sizeof(std::uint16_t) * kStageElems * S;
  static_assert(kWarpsM * kWarpsN == W, "warps form a grid over the tile");
  static_assert(kWarpTileM % 16 == 0 && kWarpTileN % 16 == 0 && BK % 16 == 0,
                "a warp tile is whole m16 x n16 fragments, a K step whole k16 steps");
  static_assert(S >= 2, "a pipeline of at least two stages");
  static_assert(kSmemBytes == std::size_t(mma_sync_tiles::shared_bytes({BM, BN, BK, W, S})));
};

// Version 5's K loop for any tile: an S-stage cp.async pipeline, one barrier per K step, each warp
// a (BM / warps_m) x (BN / warps_n) warp tile of m16n8k16 mma fed by ldmatrix.
template <class T, bool kAligned, int BM, int BN, int BK, int W, int S>
__global__ void __launch_bounds__(32 * W)
    matmul_mma_sync_tiles_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                 T* __restrict__ c, std::int64_t m, std::int64_t n, std::int64_t k,
                                 GridMap g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using Sh = Shape<BM, BN, BK, W, S>;
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * BM, col0 = pid_n * std::int64_t{BN};
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int warp_m = warp / Sh::kWarpsN, warp_n = warp % Sh::kWarpsN;
  auto stage_a = [&](int s) { return smem + s * Sh::kStageElems; };
  auto stage_b = [&](int s) { return smem + s * Sh::kStageElems + BM * Sh::kLdA; };

  float acc[Sh::kMT][Sh::kNT][4];  // (m16 tile, n8 tile, fragment)
#pragma unroll
  for (int i = 0; i < Sh::kMT; ++i)
#pragma unroll
    for (int j = 0; j < Sh::kNT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

  const int k_tiles = static_cast<int>((k + BK - 1) / BK);
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles)
      load_padded_stage<T, kAligned, BM, BN, BK, Sh::kThreads>(stage_a(s), stage_b(s), a, b, m, n,
                                                               k, row0, col0, std::int64_t{s} * BK);
    cp_async_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<S - 2>();
    __syncthreads();  // stage kt landed for everyone; stage kt - 1 is read by no one any more
    const int next = kt + S - 1;
    if (next < k_tiles)
      load_padded_stage<T, kAligned, BM, BN, BK, Sh::kThreads>(
          stage_a(next % S), stage_b(next % S), a, b, m, n, k, row0, col0, std::int64_t{next} * BK);
    cp_async_commit();
    const T* as = stage_a(kt % S);
    const T* bs = stage_b(kt % S);
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned af[Sh::kMT][4], bf[Sh::kNT][2];
#pragma unroll
      for (int mt = 0; mt < Sh::kMT; ++mt)
        ldmatrix_x4(af[mt], as + (warp_m * Sh::kWarpTileM + mt * 16 + (lane & 15)) * Sh::kLdA + kk +
                                (lane >> 4) * 8);
#pragma unroll
      for (int np = 0; np < Sh::kNT / 2; ++np) {
        unsigned r[4];
        ldmatrix_x4_trans(r, bs + (kk + (lane & 15)) * Sh::kLdB + warp_n * Sh::kWarpTileN +
                                 np * 16 + (lane >> 4) * 8);
        bf[2 * np][0] = r[0];
        bf[2 * np][1] = r[1];
        bf[2 * np + 1][0] = r[2];
        bf[2 * np + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < Sh::kMT; ++mt)
#pragma unroll
        for (int nt = 0; nt < Sh::kNT; ++nt) MmaOp<T>::run(acc[mt][nt], af[mt], bf[nt]);
    }
  }
  cp_async_wait<0>();

  // Accumulator fragment: lane holds rows lane/4 and lane/4 + 8, columns (lane%4)*2 and +1.
  const bool pairs = (n % 2) == 0;
#pragma unroll
  for (int mt = 0; mt < Sh::kMT; ++mt)
#pragma unroll
    for (int nt = 0; nt < Sh::kNT; ++nt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const std::int64_t row = row0 + warp_m * Sh::kWarpTileM + mt * 16 + (lane >> 2) + h * 8;
        const std::int64_t col = col0 + warp_n * Sh::kWarpTileN + nt * 8 + (lane & 3) * 2;
        if (row < m) store_pair(c, n, row, col, acc[mt][nt][2 * h], acc[mt][nt][2 * h + 1], pairs);
      }
#endif
}

template <int BM, int BN, int BK, int W, int S>
struct Instance {
  using Sh = Shape<BM, BN, BK, W, S>;
  template <bool kAligned>
  static void launch_typed(const LaunchArgs& a) {
    auto* kernel = matmul_mma_sync_tiles_kernel<__half, kAligned, BM, BN, BK, W, S>;
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(Sh::kSmemBytes)));
    kernel<<<grid_blocks(a.grid), Sh::kThreads, Sh::kSmemBytes, a.stream>>>(
        static_cast<const __half*>(a.a), static_cast<const __half*>(a.b), static_cast<__half*>(a.c),
        a.m, a.n, a.k, a.grid);
    TILESIM_CUDA_CHECK_LAUNCH();
  }
  static std::string launch(const LaunchArgs& a) {
    const bool aligned = a.k % 8 == 0 && a.n % 8 == 0;  // every 16-byte chunk starts aligned
    aligned ? launch_typed<true>(a) : launch_typed<false>(a);
    return "";
  }
  static KernelResources resources() {
    KernelResources r;
    auto* kernel = matmul_mma_sync_tiles_kernel<__half, true, BM, BN, BK, W, S>;
    cudaFuncAttributes fa{};
    TILESIM_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(Sh::kSmemBytes)));
    int blocks = 0;
    TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, Sh::kThreads,
                                                                     Sh::kSmemBytes));
    r.registers = fa.numRegs;
    r.spill_bytes = static_cast<int>(fa.localSizeBytes);
    r.shared_bytes = static_cast<std::int64_t>(Sh::kSmemBytes + fa.sharedSizeBytes);
    r.threads = Sh::kThreads;
    r.programs_per_sm = blocks;
    r.fits = blocks > 0;
    if (!r.fits) r.error = "no program fits an SM (registers or shared memory)";
    return r;
  }
  static Entry entry() { return {{BM, BN, BK, W, S}, &launch, &resources}; }
};

}  // namespace tilesim::kernels::detail::mma_tiles
