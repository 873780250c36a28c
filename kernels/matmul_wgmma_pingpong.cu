// Matmul, Hopper rung 6f matmul_wgmma_pingpong (sm_90a only): ping-pong consumers.
// In 6c (matmul_wgmma_tma.cu) both consumer warpgroups share one 128 x 256 tile: they finish its K
// loop together and then both convert and store C, so the tensor cores idle for the length of
// every epilogue. Here each consumer warpgroup owns a whole 128 x 128 tile of C (128 FP32
// accumulators a thread, as in 6c: two wgmma.m64n128k16 per k16 step, one per 64-row half) and
// the two consumers take turns: a persistent CTA's tiles go to consumer 0, 1, 0, 1, ... and the
// producer warpgroup loads them into one ring of 6 stages (128 x 64 A + 128 x 64 B^T, 128-byte
// swizzled) in that order, so while one consumer converts and stores its tile, the other runs its
// K loop on the tensor cores.
// Ordering: a consumer starts a tile's K loop only once the other consumer has passed every
// "full" wait of the previous tile (a named barrier, bar.arrive by the one that finished, bar.sync
// by the one that starts). Besides keeping the mainloops in turn, this keeps the mbarrier parity
// waits sound: a consumer skips the other's K steps in the ring, and without the order it could
// wait on a stage two phases ahead of the barrier and pass on the wrong phase.
// Each stage is consumed by one warpgroup, so its "empty" mbarrier counts one arrival. C leaves by
// TMA store from a 64 x 128 shared panel per consumer (two 64 x 64 boxes, two passes a tile); the
// stores drain under the other consumer's K loop. N % 8 != 0: 4-byte stores from registers.
// Trials (docs/PERFORMANCE.md, Follow-up 6): matmul_wgmma_pingpong_n256, the same with a (64, 256)
// tile per consumer and one wgmma m64n256k16 per k16 step (one warpgroup issuing two n128 chains
// kept the tensor pipe 67 % busy, one n256 chain 86 %), 4 stages of 40 KB beside 16 KB C panels;
// matmul_wgmma_pingpong_n256_s5, 5 stages beside 8 KB panels; matmul_wgmma_pingpong_n256_mc, the
// 4-stage one in clusters of two with B^T multicast, as 6d does for 6c.
#include "kernels/device_common.cuh"
#include "kernels/matmul_wgmma_pingpong.hpp"

#if !defined(TILESIM_NO_HOPPER)
#include "kernels/wgmma_common.cuh"
#endif

namespace tilesim::kernels::detail {

#if defined(TILESIM_NO_HOPPER)
std::string launch_matmul_wgmma_pingpong(const LaunchArgs&) {
  return "built without sm_90 in CMAKE_CUDA_ARCHITECTURES: no sm_90a code for the wgmma rung";
}
std::string launch_matmul_wgmma_pingpong_n256(const LaunchArgs& a) {
  return launch_matmul_wgmma_pingpong(a);
}
std::string launch_matmul_wgmma_pingpong_n256_mc(const LaunchArgs& a) {
  return launch_matmul_wgmma_pingpong(a);
}
std::string launch_matmul_wgmma_pingpong_n256_s5(const LaunchArgs& a) {
  return launch_matmul_wgmma_pingpong(a);
}
#else
namespace {

constexpr int kBK = 64, kThreads = 384;
// One consumer's tile: kBM x kBN = (128, 128) (6f: two wgmma m64n128k16 a k16 step, one per
// 64-row half) or (64, 256) (trials: one m64n256k16). Either way 128 accumulators a thread. Each
// consumer has a C panel of kBoxes (64, 64) boxes: 2 for 6f (6 stages fit beside them); the
// (64, 256) trials take 2 (beside 4 stages of 40 KB) or 1 (beside 5 stages).
template <int kBM, int kBoxes_>
struct Shape {
  static constexpr int kBN = kBM == 128 ? 128 : 256;
  static constexpr int kMB = kBM / 64;  // 64-row blocks, one wgmma chain each
  static constexpr int kBoxes = kBoxes_;
  static constexpr int kPanelBytes = kBoxes * 64 * 64 * 2;
  static constexpr int kStageBytesA = kBM * kBK * 2, kStageBytesB = kBN * kBK * 2;
  static constexpr int kS = (227 * 1024 - 1024 - 2 * kPanelBytes - 256) /
                            (kStageBytesA + kStageBytesB);  // as many stages as fit: 6 or 5
  static constexpr std::size_t kSmemBytes =
      1024 + kS * (kStageBytesA + kStageBytesB) + 2 * kPanelBytes + 2 * kS * 8;
  static_assert(kSmemBytes <= 227 * 1024, "one CTA per SM");
};
static_assert(Shape<128, 2>::kS == wgmma_pingpong::kStages &&
              Shape<64, 2>::kS == wgmma_pingpong::kStagesN256 && Shape<64, 1>::kS == 5);
static_assert(wgmma_pingpong::kTile.block_m == 128 && wgmma_pingpong::kTile.block_n == 128 &&
              wgmma_pingpong::kTileN256.block_m == 64 && wgmma_pingpong::kTileN256.block_n == 256);

template <class T, int kN>
__device__ __forceinline__ void wgmma_n(float* d, std::uint64_t da, std::uint64_t db) {
  if constexpr (kN == 128)
    wgmma_m64n128k16<T>(d, da, db);
  else
    wgmma_m64n256k16<T>(d, da, db);
}
// Named barriers: 0 is __syncthreads; 1 + c: consumer c's own warpgroup; 3 + c: "consumer c may
// start its next K loop" (128 threads arrive, 128 sync).
constexpr int kBarWarpgroup = 1, kBarTurn = 3;

// kCluster = 2 (trial): clusters of two CTAs on vertically adjacent tiles (2 i, j), (2 i + 1, j)
// of the same (64, 256) shape, which share their B^T tile: each CTA's producer loads its own A and
// one 128-row half of B^T, multicast into the same stage of both CTAs (as 6d does); a stage is
// refilled once the owning consumers of both CTAs have freed it. g is then the grid of tile pairs,
// and both CTAs of a cluster walk the same pairs, so their consumers own the same ring positions.
template <class T, int kBM, int kBoxes, int kCluster, bool kTmaStore>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_pingpong_kernel(const __grid_constant__ CUtensorMap map_a,
                                 const __grid_constant__ CUtensorMap map_b,
                                 const __grid_constant__ CUtensorMap map_c, T* __restrict__ c,
                                 std::int64_t m, std::int64_t n, std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using S = Shape<kBM, kBoxes>;
  constexpr int kBN = S::kBN, kS = S::kS, kStageBytesA = S::kStageBytesA,
                kStageBytesB = S::kStageBytesB, kPanelBytes = S::kPanelBytes;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  T* as = reinterpret_cast<T*>(base);                             // (stages, BM, BK)
  T* bs = reinterpret_cast<T*>(base + kS * kStageBytesA);         // (stages, BN, BK)
  unsigned char* cs = base + kS * (kStageBytesA + kStageBytesB);  // (2 consumers, boxes, 64, 64)
  auto* full = reinterpret_cast<std::uint64_t*>(cs + 2 * kPanelBytes);
  std::uint64_t* empty = full + kS;

  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
  const std::int64_t tiles = g.tiles_m * g.tiles_n;  // tile pairs when kCluster = 2
  const unsigned rank = kCluster > 1 ? cluster_rank() : 0;
  const std::int64_t first = blockIdx.x / kCluster, stride = gridDim.x / kCluster;
  auto tile_origin = [&](std::int64_t p, int& row0, int& col0) {
    std::int64_t pid_m, pid_n;
    tile_of(g, p, pid_m, pid_n);
    row0 = static_cast<int>((pid_m * kCluster + rank) * kBM);
    col0 = static_cast<int>(pid_n * kBN);
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < kS; ++s) {
      mbar_init(&full[s], 1);
      // The one consumer warpgroup that owns the stage's K step, in each CTA of the cluster.
      mbar_init(&empty[s], kCluster);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  if constexpr (kCluster > 1)
    cluster_sync();  // the peer's barriers exist before anything is multicast into them
  else
    __syncthreads();

  if (wg == 0) {  // producer: one thread fills the ring with every tile's K steps, in tile order
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 0) {
      std::int64_t it = 0;  // K steps issued by this CTA so far
      for (std::int64_t tile = first; tile < tiles; tile += stride) {
        int row0, col0;
        tile_origin(tile, row0, col0);
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          const int s = static_cast<int>(it % kS);
          if (it >= kS) mbar_wait(&empty[s], static_cast<unsigned>((it / kS - 1) & 1));
          mbar_expect_tx(&full[s], kStageBytesA + kStageBytesB);
          tma_load(as + s * kBM * kBK, &map_a, kt * kBK, row0, &full[s]);
          if constexpr (kCluster > 1) {  // this CTA's half of B^T, into both CTAs
            constexpr int kHalf = kBN / kCluster;
            tma_load_multicast(bs + s * kBN * kBK + rank * kHalf * kBK, &map_b, kt * kBK,
                               col0 + static_cast<int>(rank) * kHalf, &full[s],
                               static_cast<unsigned short>((1u << kCluster) - 1));
          } else {
            tma_load(bs + s * kBN * kBK, &map_b, kt * kBK, col0, &full[s]);
          }
        }
      }
    }
  } else {  // consumer cw = wg - 1 takes the CTA's tiles cw, cw + 2, cw + 4, ...
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int cw = wg - 1, warp = t / 32, lane = t % 32;
    unsigned char* panel = cs + cw * kPanelBytes;
    // Frees stage s: in this CTA, and with a cluster in the peer, which multicasts its half of B^T
    // into this CTA's stage.
    auto release = [&](std::int64_t s) {
      mbar_arrive(&empty[s]);
      if constexpr (kCluster > 1) mbar_arrive_cluster(&empty[s], rank ^ 1u);
    };
    std::int64_t local = cw;  // the tile's index among this CTA's tiles
    for (std::int64_t tile = first + cw * stride; tile < tiles; tile += 2 * stride, local += 2) {
      int row0, col0;
      tile_origin(tile, row0, col0);
      // Wait for the other consumer to have passed all of the previous tile's "full" waits.
      if (local > 0) asm volatile("bar.sync %0, 256;\n" ::"r"(kBarTurn + cw) : "memory");
      float acc[S::kMB][kBN / 2];
#pragma unroll
      for (int h = 0; h < S::kMB; ++h)
#pragma unroll
        for (int e = 0; e < kBN / 2; ++e) acc[h][e] = 0.f;
      std::int64_t it = local * k_tiles;  // the ring position of this tile's first K step
      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = static_cast<int>(it % kS);
        mbar_wait(&full[s], static_cast<unsigned>((it / kS) & 1));
        const T* a_tile = as + s * kBM * kBK;
        const T* b_tile = bs + s * kBN * kBK;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk)
#pragma unroll
          for (int h = 0; h < S::kMB; ++h)
            wgmma_n<T, kBN>(acc[h], smem_desc(a_tile + h * 64 * kBK + kk * 16),
                            smem_desc(b_tile + kk * 16));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        // Keep this step's wgmma in flight; the previous step's has finished reading its stage.
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        if (t == 0 && kt > 0) release((it - 1) % kS);
      }
      // Every full wait of this tile is behind us: the other consumer may start the next tile's
      // K loop (its wgmmas queue behind this tile's last one). Only when that tile exists, so that
      // every arrival has its sync.
      if (tile + stride < tiles)
        asm volatile("bar.arrive %0, 256;\n" ::"r"(kBarTurn + (1 - cw)) : "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      if (t == 0 && k_tiles > 0) release((it - 1) % kS);
      // Accumulator layout (each n8 chunk q of a 64-row half h): rows 16 * warp + lane / 4 (+ 8),
      // columns 8 q + 2 (lane % 4) (+ 1).
      if constexpr (kTmaStore) {
        constexpr int kCols = S::kBoxes * 64, kPerRow = kBN / kCols;  // a pass: 64 x kCols
#pragma unroll
        for (int pass = 0; pass < S::kMB * kPerRow; ++pass) {
          // Pass: 64 rows (block h) x kCols columns (from c0) of the tile.
          const int h = pass / kPerRow, c0 = (pass % kPerRow) * kCols;
          // The panel is free once the stores that last read it have done so.
          if (t == 0) asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
          asm volatile("bar.sync %0, 128;\n" ::"r"(kBarWarpgroup + cw) : "memory");
#pragma unroll
          for (int q = 0; q < kCols / 8; ++q)
#pragma unroll
            for (int hh = 0; hh < 2; ++hh) {
              // Box cb = q / 8 (64 columns, 128-byte rows); 16-byte chunk q % 8 of row r sits at
              // chunk (q % 8) ^ (r % 8) (the 128-byte swizzle the tensor map names).
              const int r = warp * 16 + lane / 4 + hh * 8, cb = q / 8;
              const int qa = c0 / 8 + q;  // the n8 chunk within the accumulators
              const T v0 = from_float<T>(acc[h][4 * qa + 2 * hh]),
                      v1 = from_float<T>(acc[h][4 * qa + 2 * hh + 1]);
              const unsigned pair =
                  *reinterpret_cast<const unsigned short*>(&v0) |
                  (static_cast<unsigned>(*reinterpret_cast<const unsigned short*>(&v1)) << 16);
              *reinterpret_cast<unsigned*>(panel + cb * 8192 + r * 128 +
                                           (((q % 8) ^ (r % 8)) << 4) + (lane % 4) * 4) = pair;
            }
          asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // -> copy engine
          asm volatile("bar.sync %0, 128;\n" ::"r"(kBarWarpgroup + cw) : "memory");
          if (t == 0) {
#pragma unroll
            for (int cb = 0; cb < S::kBoxes; ++cb)
              tma_store(&map_c, col0 + c0 + cb * 64, row0 + h * 64, panel + cb * 8192);
            asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
          }
        }
      } else {
        const bool pairs = n % 2 == 0;
#pragma unroll
        for (int h = 0; h < S::kMB; ++h)
#pragma unroll
          for (int q = 0; q < kBN / 8; ++q)
#pragma unroll
            for (int hh = 0; hh < 2; ++hh) {
              const std::int64_t row = row0 + h * 64 + warp * 16 + lane / 4 + hh * 8;
              const std::int64_t col = col0 + q * 8 + (lane % 4) * 2;
              if (row >= m) continue;
              const T v0 = from_float<T>(acc[h][4 * q + 2 * hh]),
                      v1 = from_float<T>(acc[h][4 * q + 2 * hh + 1]);
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

template <class T, int kBM, int kBoxes, int kCluster, bool kTmaStore>
void launch_pingpong(const LaunchArgs& a) {
  using S = Shape<kBM, kBoxes>;
  constexpr int kBN = S::kBN;
  constexpr std::size_t kSmemBytes = S::kSmemBytes;
  const CUtensorMap map_a = make_map(a.a, a.dtype, a.m, a.k, kBM);
  const CUtensorMap map_b = make_map(a.b, a.dtype, a.n, a.k, kBN / kCluster);
  // C (M, N) in (64, 64) boxes; 64 columns of 2 bytes = the 128-byte swizzle span.
  const CUtensorMap map_c = kTmaStore ? make_map(a.c, a.dtype, a.m, a.n, 64) : map_a;
  auto* kernel = matmul_wgmma_pingpong_kernel<T, kBM, kBoxes, kCluster, kTmaStore>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSmemBytes)));
  int dev = 0, sms = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GridMap g = a.grid;  // with clusters: the grid of tile pairs (2 i, j), (2 i + 1, j)
  if (kCluster > 1) {
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
  cfg.dynamicSmemBytes = kSmemBytes;
  cfg.stream = a.stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  // One CTA per SM, as many as can be resident at once (a CTA that starts late would take a whole
  // share of the tiles after the others finish); with fewer tiles than SMs, one tile a CTA.
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
    // A plain launch: with a cluster-dimension attribute of 1 the (64, 256) trial ran at 54 % in
    // grouped G = 8 (calls 3 and 4) where the plain launch of call 2 gave 85 %.
    // clang-format off
    kernel<<<cfg.gridDim, kThreads, kSmemBytes, a.stream>>>(map_a, map_b, map_c,
                                                            static_cast<T*>(a.c), a.m, a.n, a.k, g);
    // clang-format on
  }
  TILESIM_CUDA_CHECK_LAUNCH();
}

template <int kBM, int kBoxes, int kCluster>
std::string launch_shape(const LaunchArgs& a) {
  return launch_wgmma_checked(a, [](auto tag, const LaunchArgs& p) {
    using T = decltype(tag);
    // The TMA store needs C's row stride (N * 2 bytes) to be a multiple of 16.
    if (p.n % 8 == 0)
      launch_pingpong<T, kBM, kBoxes, kCluster, true>(p);
    else
      launch_pingpong<T, kBM, kBoxes, kCluster, false>(p);
  });
}

}  // namespace

std::string launch_matmul_wgmma_pingpong(const LaunchArgs& a) {
  return launch_shape<128, 2, 1>(a);
}
std::string launch_matmul_wgmma_pingpong_n256(const LaunchArgs& a) {
  return launch_shape<64, 2, 1>(a);
}
std::string launch_matmul_wgmma_pingpong_n256_s5(const LaunchArgs& a) {
  return launch_shape<64, 1, 1>(a);
}
std::string launch_matmul_wgmma_pingpong_n256_mc(const LaunchArgs& a) {
  return launch_shape<64, 2, 2>(a);
}
#endif  // TILESIM_NO_HOPPER

}  // namespace tilesim::kernels::detail
