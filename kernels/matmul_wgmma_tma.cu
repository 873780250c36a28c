// Matmul, Hopper rung (sm_90a only): TMA bulk tensor copies + wgmma + a pipelined K loop.
// version 6 matmul_wgmma_tma: a 128 x 256 tile of C per program, K steps of 64, 4 shared stages.
//   Warpgroup 0 is the producer: one thread issues cp.async.bulk.tensor for the A (128, 64) and
//   B^T (256, 64) tiles of a stage, which land 128-byte swizzled and signal a "full" mbarrier.
//   Warpgroups 1 and 2 consume: each issues wgmma.m64n128k16 (twice per k16, for the two halves of
//   N) straight from shared memory, FP32 accumulators in registers, and frees a stage on an
//   "empty" mbarrier once the next step's wgmma is issued (one wgmma group stays in flight). The
//   copy engine fills stage s + 3 while the tensor cores work on stage s. B is read as B^T (N, K),
//   K-major like A: the layout wgmma takes without transposition. TMA zero-fills out-of-range boxes
//   (the mask); the epilogue stores masked. K % 8 != 0 takes a zero-padded copy of A and B^T first
//   (TMA row strides must be multiples of 16 bytes).
// version 6b matmul_wgmma_tma_store: the same K loop; the epilogue writes each consumer's 64 x 256
//   half of C into shared memory (into its own A rows of the four stages, 128-byte swizzled, so
//   the fragment stores are conflict-free and no other warpgroup needs to wait), then one thread
//   hands the four 64 x 64 boxes to the copy engine (cp.async.bulk.tensor store, which clips at
//   the matrix edge) instead of 64 4-byte stores per thread. N % 8 != 0: version 6's epilogue.
// version 6c matmul_wgmma_persistent: the same warpgroups and K loop in a persistent grid of
//   min(tiles, SMs) CTAs, each walking pids blockIdx.x, + gridDim.x, ... in the launch order. The
//   stage ring and its mbarrier phases run on across tiles, so the producer loads the next tile's
//   first stages while the consumers are still in this tile's epilogue, and no CTA pays a launch,
//   barrier set-up or an empty pipeline per tile. C gets shared memory of its own (a 64 x 128
//   panel per consumer warpgroup, two 128-byte swizzled (64, 64) boxes) and leaves by TMA store;
//   a consumer waits for its previous stores to have read the panel only when it next writes it,
//   so the stores drain under the next K loop. N % 8 != 0: 4-byte stores from registers.
// version 6d matmul_wgmma_persistent_mc: 6c in clusters of two CTAs on vertically adjacent tiles
//   (2 i, j) and (2 i + 1, j), which share their B^T tile: each CTA's producer loads its own A
//   tile and one 128-row half of B^T, multicast into the same stage of both CTAs, so L2 serves
//   each B^T byte once per pair. A stage is refilled only when the consumers of both CTAs have
//   freed it (its "empty" mbarrier counts four arrivals, two of them from the peer). The launch
//   order applies to the grid of tile pairs (GROUP_SIZE_M halved), and the grid holds as many
//   clusters as can be resident at once (cudaOccupancyMaxActiveClusters).
// versions 6h-6j matmul_wgmma_persistent_turned(_mc, _mcb): 6c's kernel (templated on its tile)
//   with 256 x 128 tiles, cuBLAS's at 4096^3: each consumer warpgroup owns 128 rows x 128 columns,
//   two wgmma m64n128k16 per k16 step on two 64-row blocks of A against one B^T block (still 128
//   FP32 accumulators a thread); a stage is 32 KB of A + 16 KB of B^T, shared memory as 6c's.
//   6i: in clusters of two on tiles (i, 2 j) and (i, 2 j + 1), sharing A (each CTA multicasts
//   one 128-row half); 6j: clusters on (2 i, j), (2 i + 1, j) sharing B^T, as 6d.
#include "kernels/device_common.cuh"
#include "kernels/device_resources.cuh"
#include "kernels/matmul_wgmma_tma.hpp"

#if !defined(TILESIM_NO_HOPPER)
#include "kernels/wgmma_common.cuh"
#endif

namespace tilesim::kernels::detail {

#if defined(TILESIM_NO_HOPPER)
std::string launch_matmul_wgmma_tma(const LaunchArgs&) {
  return "built without sm_90 in CMAKE_CUDA_ARCHITECTURES: no sm_90a code for the wgmma rung";
}
std::string launch_matmul_wgmma_tma_store(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
std::string launch_matmul_wgmma_persistent(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
std::string launch_matmul_wgmma_persistent_mc(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
std::string launch_matmul_wgmma_persistent_turned(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
std::string launch_matmul_wgmma_persistent_turned_mc(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
std::string launch_matmul_wgmma_persistent_turned_mcb(const LaunchArgs& a) {
  return launch_matmul_wgmma_tma(a);
}
#else
namespace {

constexpr int kBM = wgmma_tma::kTile.block_m, kBN = wgmma_tma::kTile.block_n,
              kBK = wgmma_tma::kTile.block_k, kStages = wgmma_tma::kStages, kThreads = 384;
constexpr int kNSub = kBN / 128;  // wgmma n128 instructions per k16 step
constexpr int kStageBytesA = kBM * kBK * 2, kStageBytesB = kBN * kBK * 2;
constexpr std::size_t kSmemBytes = 1024 + kStages * (kStageBytesA + kStageBytesB) + 2 * kStages * 8;

template <class T, bool kTmaStore>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_tma_kernel(const __grid_constant__ CUtensorMap map_a,
                            const __grid_constant__ CUtensorMap map_b,
                            const __grid_constant__ CUtensorMap map_c, T* __restrict__ c,
                            std::int64_t m, std::int64_t n, std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  extern __shared__ unsigned char smem_raw[];
  // 128-byte swizzled tiles must start on 1024-byte boundaries.
  unsigned char* base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  T* as = reinterpret_cast<T*>(base);                           // (stages, BM, BK)
  T* bs = reinterpret_cast<T*>(base + kStages * kStageBytesA);  // (stages, BN, BK)
  auto* full = reinterpret_cast<std::uint64_t*>(base + kStages * (kStageBytesA + kStageBytesB));
  std::uint64_t* empty = full + kStages;

  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const int row0 = static_cast<int>(pid_m * kBM), col0 = static_cast<int>(pid_n * kBN);
  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 2);  // one arrival per consumer warpgroup
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {  // producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 0) {
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % kStages;
        if (kt >= kStages) mbar_wait(&empty[s], ((kt / kStages) - 1) & 1);
        mbar_expect_tx(&full[s], kStageBytesA + kStageBytesB);
        tma_load(as + s * kBM * kBK, &map_a, kt * kBK, row0, &full[s]);
        tma_load(bs + s * kBN * kBK, &map_b, kt * kBK, col0, &full[s]);
      }
    }
  } else {  // consumers: warpgroup wg owns rows (wg - 1) * 64 .. + 63 of the tile
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    float acc[kNSub][64];
#pragma unroll
    for (int j = 0; j < kNSub; ++j)
#pragma unroll
      for (int e = 0; e < 64; ++e) acc[j][e] = 0.f;
    for (int kt = 0; kt < k_tiles; ++kt) {
      const int s = kt % kStages;
      mbar_wait(&full[s], (kt / kStages) & 1);
      const T* a_tile = as + s * kBM * kBK + (wg - 1) * 64 * kBK;
      const T* b_tile = bs + s * kBN * kBK;
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < kBK / 16; ++kk)
#pragma unroll
        for (int j = 0; j < kNSub; ++j)
          wgmma_m64n128k16<T>(acc[j], smem_desc(a_tile + kk * 16),
                              smem_desc(b_tile + j * 128 * kBK + kk * 16));
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
      // Keep this step's wgmma in flight; the previous step's has finished reading its stage.
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
      if (t == 0 && kt > 0) mbar_arrive(&empty[(kt - 1) % kStages]);
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    // Accumulator layout (per n8 chunk q of each n128 half): rows 16 * warp + lane / 4 (+ 8),
    // columns 8 q + 2 (lane % 4) (+ 1).
    const int warp = t / 32, lane = t % 32;
    if constexpr (kTmaStore) {
      // Column block cb (64 columns) of this warpgroup's half goes to stage cb's A rows
      // (wg - 1) * 64.. (a (64, 64) box, 128-byte rows): only this warpgroup's wgmma read them,
      // and all of those have completed. 16-byte chunk q % 8 of row r sits at chunk (q % 8) ^ (r %
      // 8).
      unsigned char* half = base + (wg - 1) * 64 * kBK * 2;
#pragma unroll
      for (int j = 0; j < kNSub; ++j)
#pragma unroll
        for (int q = 0; q < 16; ++q)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = warp * 16 + lane / 4 + h * 8, cb = j * 2 + q / 8;
            const T v0 = from_float<T>(acc[j][4 * q + 2 * h]),
                    v1 = from_float<T>(acc[j][4 * q + 2 * h + 1]);
            const unsigned pair =
                *reinterpret_cast<const unsigned short*>(&v0) |
                (static_cast<unsigned>(*reinterpret_cast<const unsigned short*>(&v1)) << 16);
            *reinterpret_cast<unsigned*>(half + cb * kStageBytesA + r * 128 +
                                         (((q % 8) ^ (r % 8)) << 4) + (lane % 4) * 4) = pair;
          }
      asm volatile("fence.proxy.async.shared::cta;\n" ::
                       : "memory");                              // generic writes -> copy engine
      asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");  // this warpgroup only
      if (t == 0) {
#pragma unroll
        for (int cb = 0; cb < kBN / 64; ++cb)
          tma_store(&map_c, col0 + cb * 64, row0 + (wg - 1) * 64, half + cb * kStageBytesA);
        asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;\n" ::
                         : "memory");  // shared memory stays until read
      }
      return;
    }
    const bool pairs = n % 2 == 0;
#pragma unroll
    for (int j = 0; j < kNSub; ++j)
#pragma unroll
      for (int q = 0; q < 16; ++q)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const std::int64_t row = row0 + (wg - 1) * 64 + warp * 16 + lane / 4 + h * 8;
          const std::int64_t col = col0 + j * 128 + q * 8 + (lane % 4) * 2;
          if (row >= m) continue;
          const T v0 = from_float<T>(acc[j][4 * q + 2 * h]),
                  v1 = from_float<T>(acc[j][4 * q + 2 * h + 1]);
          T* p = c + row * n + col;
          if (pairs && col + 1 < n) {
            const unsigned short lo = *reinterpret_cast<const unsigned short*>(&v0);
            const unsigned short hi = *reinterpret_cast<const unsigned short*>(&v1);
            *reinterpret_cast<unsigned*>(p) = lo | (static_cast<unsigned>(hi) << 16);
          } else {
            if (col < n) p[0] = v0;
            if (col + 1 < n) p[1] = v1;
          }
        }
  }
#endif
}

// Version 6c: persistent. A (kTM, kTN) tile of C per CTA: (128, 256) for 6c / 6d, (256, 128) for
// the turned trials 6h / 6i. Each consumer warpgroup owns kTM / 2 rows of it as two (64, 128)
// sub-tiles (6c: one row block, two column halves; turned: two row blocks, one column block), so
// it holds 128 FP32 accumulators and issues two wgmma m64n128k16 per k16 step in both shapes.
// kS stages of (A, B^T); C panels of kCPass sub-tiles per consumer (kCPass = 1: 16 KB each, two
// passes per tile; 2: 32 KB, one pass). kCluster = 2: clusters of two CTAs on neighbouring tiles,
// each loading half of the operand tile they share and multicasting it into both; g is then the
// grid of tile pairs. kAlongN = false (6d): tiles (2 i, j) and (2 i + 1, j) share B^T; true
// (6i, cuBLAS's "1x2"): tiles (i, 2 j) and (i, 2 j + 1) share A.
template <int kTM, int kTN, int kS, int kCPass>
struct PersistentLayout {
  static constexpr int kStageA = kTM * kBK * 2, kStageB = kTN * kBK * 2;
  static constexpr int kCBytes = kCPass * 64 * 128 * 2;  // one consumer's panel
  static constexpr std::size_t kBytes = 1024 + kS * (kStageA + kStageB) + 2 * kCBytes + 2 * kS * 8;
};

template <class T, int kTM, int kTN, int kS, int kCPass, int kCluster, bool kAlongN, bool kTmaStore>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_persistent_kernel(const __grid_constant__ CUtensorMap map_a,
                                   const __grid_constant__ CUtensorMap map_b,
                                   const __grid_constant__ CUtensorMap map_c, T* __restrict__ c,
                                   std::int64_t m, std::int64_t n, std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // The block timeline probe's hook (empty otherwise): a CTA here walks many tiles, so its span
  // and cycles are the CTA's whole life, recorded at its block index.
  [[maybe_unused]] const BlockSpan span;
  using L = PersistentLayout<kTM, kTN, kS, kCPass>;
  constexpr int kRows = kTM / 2;    // rows of the tile per consumer warpgroup
  constexpr int kSubN = kTN / 128;  // (64, 128) sub-tiles of a consumer: kRows / 64 x kSubN
  constexpr int kSubs = kRows / 64 * kSubN;
  static_assert(kSubs == 2 && kSubs % kCPass == 0, "two (64, 128) sub-tiles per consumer");
  extern __shared__ unsigned char smem_raw[];
  unsigned char* base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  T* as = reinterpret_cast<T*>(base);                         // (stages, kTM, BK)
  T* bs = reinterpret_cast<T*>(base + kS * L::kStageA);       // (stages, kTN, BK)
  unsigned char* cs = base + kS * (L::kStageA + L::kStageB);  // (2, kCPass * 2, 64, 64)
  auto* full = reinterpret_cast<std::uint64_t*>(cs + 2 * L::kCBytes);
  std::uint64_t* empty = full + kS;

  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
  const int tiles = static_cast<int>(g.tiles_m * g.tiles_n);  // tile pairs when kCluster = 2
  const unsigned rank = kCluster > 1 ? cluster_rank() : 0;
  const int first = blockIdx.x / kCluster, stride = gridDim.x / kCluster;
  // The tile this CTA computes for pid p of g.
  auto tile_origin = [&](int p, int& row0, int& col0) {
    std::int64_t pid_m, pid_n;
    tile_of(g, p, pid_m, pid_n);
    if constexpr (kAlongN) {
      row0 = static_cast<int>(pid_m * kTM);
      col0 = static_cast<int>((pid_n * kCluster + rank) * kTN);
    } else {
      row0 = static_cast<int>((pid_m * kCluster + rank) * kTM);
      col0 = static_cast<int>(pid_n * kTN);
    }
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < kS; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 2 * kCluster);  // one arrival per consumer warpgroup of the cluster
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  if constexpr (kCluster > 1)
    cluster_sync();  // the peer's barriers exist before anything is multicast into them
  else
    __syncthreads();

  if (wg == 0) {  // producer: one thread runs the stage ring through every tile of this CTA
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 0) {
      int it = 0;  // K steps issued by this CTA so far, over all its tiles
      for (int tile = first; tile < tiles; tile += stride) {
        int row0, col0;
        tile_origin(tile, row0, col0);
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          const int s = it % kS;
          if (it >= kS) mbar_wait(&empty[s], ((it / kS) - 1) & 1);
          mbar_expect_tx(&full[s], L::kStageA + L::kStageB);
          constexpr auto mask = static_cast<unsigned short>((1u << kCluster) - 1);
          if constexpr (kCluster > 1 && kAlongN) {  // this CTA's half of A, into both CTAs
            constexpr int kHalf = kTM / kCluster;
            tma_load_multicast(as + s * kTM * kBK + rank * kHalf * kBK, &map_a, kt * kBK,
                               row0 + static_cast<int>(rank) * kHalf, &full[s], mask);
          } else {
            tma_load(as + s * kTM * kBK, &map_a, kt * kBK, row0, &full[s]);
          }
          if constexpr (kCluster > 1 && !kAlongN) {  // this CTA's half of B^T, into both CTAs
            constexpr int kHalf = kTN / kCluster;
            tma_load_multicast(bs + s * kTN * kBK + rank * kHalf * kBK, &map_b, kt * kBK,
                               col0 + static_cast<int>(rank) * kHalf, &full[s], mask);
          } else {
            tma_load(bs + s * kTN * kBK, &map_b, kt * kBK, col0, &full[s]);
          }
        }
      }
    }
  } else {  // consumers: warpgroup wg owns rows (wg - 1) * kRows .. + kRows - 1 of every tile
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int warp = t / 32, lane = t % 32;
    unsigned char* panel = cs + (wg - 1) * L::kCBytes;
    // Frees stage s for the producers: this CTA's, and with a cluster also the peer's, which
    // multicasts its half of the shared operand into this CTA's stage.
    auto release = [&](int s) {
      if constexpr (kCluster > 1) {
        mbar_arrive(&empty[s]);
#pragma unroll
        for (int r = 1; r < kCluster; ++r) mbar_arrive_cluster(&empty[s], (rank + r) % kCluster);
      } else {
        mbar_arrive(&empty[s]);
      }
    };
    // A consumer's sub-tile j: rows (wg - 1) * kRows + 64 (j / kSubN), columns 128 (j % kSubN).
    int it = 0;
    for (int tile = first; tile < tiles; tile += stride) {
      int row0, col0;
      tile_origin(tile, row0, col0);
      float acc[kSubs][64];
#pragma unroll
      for (int j = 0; j < kSubs; ++j)
#pragma unroll
        for (int e = 0; e < 64; ++e) acc[j][e] = 0.f;
      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = it % kS;
        mbar_wait(&full[s], (it / kS) & 1);
        const T* a_tile = as + s * kTM * kBK + (wg - 1) * kRows * kBK;
        const T* b_tile = bs + s * kTN * kBK;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk)
#pragma unroll
          for (int j = 0; j < kSubs; ++j)
            wgmma_m64n128k16<T>(acc[j], smem_desc(a_tile + (j / kSubN) * 64 * kBK + kk * 16),
                                smem_desc(b_tile + (j % kSubN) * 128 * kBK + kk * 16));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        if (t == 0 && kt > 0) release((it - 1) % kS);
      }
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      // The tile's last stage (the producer is already in the next tile's loads).
      if (t == 0 && k_tiles > 0) release((it - 1) % kS);
      const int wrow0 = row0 + (wg - 1) * kRows;
      if constexpr (kTmaStore) {
#pragma unroll
        for (int p = 0; p < kSubs / kCPass; ++p) {
          // The panel is free once the stores that last read it have done so.
          if (t == 0) asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
#pragma unroll
          for (int jj = 0; jj < kCPass; ++jj)
#pragma unroll
            for (int q = 0; q < 16; ++q)
#pragma unroll
              for (int h = 0; h < 2; ++h) {
                const int j = p * kCPass + jj;
                const int r = warp * 16 + lane / 4 + h * 8, cb = jj * 2 + q / 8;
                const T v0 = from_float<T>(acc[j][4 * q + 2 * h]),
                        v1 = from_float<T>(acc[j][4 * q + 2 * h + 1]);
                const unsigned pair =
                    *reinterpret_cast<const unsigned short*>(&v0) |
                    (static_cast<unsigned>(*reinterpret_cast<const unsigned short*>(&v1)) << 16);
                *reinterpret_cast<unsigned*>(panel + cb * 8192 + r * 128 +
                                             (((q % 8) ^ (r % 8)) << 4) + (lane % 4) * 4) = pair;
              }
          asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
          if (t == 0) {
#pragma unroll
            for (int jj = 0; jj < kCPass; ++jj) {
              const int j = p * kCPass + jj;
#pragma unroll
              for (int cb = 0; cb < 2; ++cb)
                tma_store(&map_c, col0 + (j % kSubN) * 128 + cb * 64, wrow0 + (j / kSubN) * 64,
                          panel + (jj * 2 + cb) * 8192);
            }
            asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
          }
        }
      } else {
        const bool pairs = n % 2 == 0;
#pragma unroll
        for (int j = 0; j < kSubs; ++j)
#pragma unroll
          for (int q = 0; q < 16; ++q)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const std::int64_t row = wrow0 + (j / kSubN) * 64 + warp * 16 + lane / 4 + h * 8;
              const std::int64_t col = col0 + (j % kSubN) * 128 + q * 8 + (lane % 4) * 2;
              if (row >= m) continue;
              const T v0 = from_float<T>(acc[j][4 * q + 2 * h]),
                      v1 = from_float<T>(acc[j][4 * q + 2 * h + 1]);
              T* p = c + row * n + col;
              if (pairs && col + 1 < n) {
                const unsigned short lo = *reinterpret_cast<const unsigned short*>(&v0);
                const unsigned short hi = *reinterpret_cast<const unsigned short*>(&v1);
                *reinterpret_cast<unsigned*>(p) = lo | (static_cast<unsigned>(hi) << 16);
              } else {
                if (col < n) p[0] = v0;
                if (col + 1 < n) p[1] = v1;
              }
            }
      }
    }
    if constexpr (kTmaStore)
      if (t == 0) asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
  }
  // No CTA leaves while its peer may still arrive on its barriers.
  if constexpr (kCluster > 1) cluster_sync();
#endif
}

template <class T, bool kTmaStore>
void launch_kernel(const LaunchArgs& a) {
  const CUtensorMap map_a = make_map(a.a, a.dtype, a.m, a.k, kBM);
  const CUtensorMap map_b = make_map(a.b, a.dtype, a.n, a.k, kBN);
  // C (M, N) in (64, 64) boxes; 64 columns of 2 bytes = the 128-byte swizzle span.
  const CUtensorMap map_c = kTmaStore ? make_map(a.c, a.dtype, a.m, a.n, 64) : map_a;
  auto* kernel = matmul_wgmma_tma_kernel<T, kTmaStore>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSmemBytes)));
  // clang-format 14 splits the launch's closing >>> after a template kernel.
  // clang-format off
  kernel<<<grid_blocks(a.grid), kThreads, kSmemBytes, a.stream>>>(
      map_a, map_b, map_c, static_cast<T*>(a.c), a.m, a.n, a.k, a.grid);
  // clang-format on
  TILESIM_CUDA_CHECK_LAUNCH();
}
template <class T, int kTM, int kTN, int kS, int kCPass, int kCluster, bool kAlongN, bool kTmaStore>
void launch_persistent(const LaunchArgs& a) {
  // With a cluster, each CTA loads half of the shared operand's tile (A along N, B^T along M).
  const CUtensorMap map_a = make_map(a.a, a.dtype, a.m, a.k, kAlongN ? kTM / kCluster : kTM);
  const CUtensorMap map_b = make_map(a.b, a.dtype, a.n, a.k, kAlongN ? kTN : kTN / kCluster);
  const CUtensorMap map_c = kTmaStore ? make_map(a.c, a.dtype, a.m, a.n, 64) : map_a;
  auto* kernel =
      matmul_wgmma_persistent_kernel<T, kTM, kTN, kS, kCPass, kCluster, kAlongN, kTmaStore>;
  constexpr auto bytes = PersistentLayout<kTM, kTN, kS, kCPass>::kBytes;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  int dev = 0, sms = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GridMap g = a.grid;             // with clusters: the grid of tile pairs
  if (kCluster > 1 && kAlongN) {  // (i, 2 j), (i, 2 j + 1)
    g.tiles_n = (a.grid.tiles_n + kCluster - 1) / kCluster;
  } else if (kCluster > 1) {  // (2 i, j), (2 i + 1, j)
    g.tiles_m = (a.grid.tiles_m + kCluster - 1) / kCluster;
    g.group_size_m = std::max<std::int64_t>(1, a.grid.group_size_m / kCluster);
  }
  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute attr[1]{};
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = kCluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = bytes;
  cfg.stream = a.stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  // As many CTAs (clusters) as can run at once: a persistent CTA that starts late would take a
  // whole share of the tiles after the others finish.
  unsigned resident = static_cast<unsigned>(sms);
  if (kCluster > 1) {
    int clusters = 0;
    cfg.gridDim = dim3(static_cast<unsigned>(sms / kCluster * kCluster));
    TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
    resident = static_cast<unsigned>(std::max(1, clusters) * kCluster);
  }
  cfg.gridDim = dim3(std::min(grid_blocks(g) * kCluster, resident));
  if constexpr (kCluster > 1) {
    TILESIM_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, map_a, map_b, map_c, static_cast<T*>(a.c),
                                          a.m, a.n, a.k, g));
  } else {
    // A plain launch: with a cluster-dimension attribute of 1 the ping-pong trial with 64-row
    // tiles (matmul_wgmma_pingpong.cu) ran at 54 % of cuBLAS in grouped G = 8 instead of 84 %
    // (docs/PERFORMANCE.md, Follow-up 6).
    // clang-format off
    kernel<<<cfg.gridDim, kThreads, bytes, a.stream>>>(map_a, map_b, map_c, static_cast<T*>(a.c),
                                                       a.m, a.n, a.k, g);
    // clang-format on
  }
  TILESIM_CUDA_CHECK_LAUNCH();
}
// Which kernel: 0 = version 6, 1 = 6b (TMA store), 2 = 6c (persistent, 128 x 256 tiles, 4 stages,
// 16 KB C panels), 3 = 6d (6c in clusters of 2 with B^T multicast), 4 = 6h (6c with 256 x 128
// tiles), 5 = 6i (6h in clusters of 2 along N with A multicast), 6 = 6j (6h in clusters of 2
// along M with B^T multicast). The TMA store needs C's row stride (N * 2 bytes) to be a multiple
// of 16.
template <class T, int kTM, int kTN, int kCluster, bool kAlongN>
void launch_persistent_any(const LaunchArgs& a) {
  if (a.n % 8 == 0)
    launch_persistent<T, kTM, kTN, 4, 1, kCluster, kAlongN, true>(a);
  else
    launch_persistent<T, kTM, kTN, 4, 1, kCluster, kAlongN, false>(a);
}
template <class T>
void launch_typed(const LaunchArgs& a, int which) {
  constexpr int kTM6h = wgmma_tma::kTileTurned.block_m, kTN6h = wgmma_tma::kTileTurned.block_n;
  static_assert(wgmma_tma::kTileTurned.block_k == kBK);
  switch (which) {
    case 2:
      return launch_persistent_any<T, kBM, kBN, 1, false>(a);
    case 3:
      return launch_persistent_any<T, kBM, kBN, 2, false>(a);
    case 4:
      return launch_persistent_any<T, kTM6h, kTN6h, 1, false>(a);
    case 5:
      return launch_persistent_any<T, kTM6h, kTN6h, 2, true>(a);
    case 6:
      return launch_persistent_any<T, kTM6h, kTN6h, 2, false>(a);
    default:
      if (which == 1 && a.n % 8 == 0)
        launch_kernel<T, true>(a);
      else
        launch_kernel<T, false>(a);
  }
}

}  // namespace

static std::string launch_wgmma(const LaunchArgs& a, int which) {
  return launch_wgmma_checked(
      a, [which](auto tag, const LaunchArgs& p) { launch_typed<decltype(tag)>(p, which); });
}

std::string launch_matmul_wgmma_tma(const LaunchArgs& a) {
  return launch_wgmma(a, 0);
}
std::string launch_matmul_wgmma_tma_store(const LaunchArgs& a) {
  return launch_wgmma(a, 1);
}
std::string launch_matmul_wgmma_persistent(const LaunchArgs& a) {
  return launch_wgmma(a, 2);
}
std::string launch_matmul_wgmma_persistent_mc(const LaunchArgs& a) {
  return launch_wgmma(a, 3);
}
std::string launch_matmul_wgmma_persistent_turned(const LaunchArgs& a) {
  return launch_wgmma(a, 4);
}
std::string launch_matmul_wgmma_persistent_turned_mc(const LaunchArgs& a) {
  return launch_wgmma(a, 5);
}
std::string launch_matmul_wgmma_persistent_turned_mcb(const LaunchArgs& a) {
  return launch_wgmma(a, 6);
}
#endif  // TILESIM_NO_HOPPER

}  // namespace tilesim::kernels::detail
