// Matmul on tensor cores through mma.sync (sm_80+): FP16 or BF16 in, FP32 accumulation, C in the
// input type. A fixed 128 x BLOCK_N tile of C per program (BLOCK_N = 128 or 256), K steps of 32,
// 8 warps as 2 x 4, each owning 64 x (BLOCK_N / 4) of C.
// version 5 matmul_mma_sync: each warp issues mma.m16n8k16 on fragments it loads with ldmatrix
//   (B with .trans, since B is row-major (K, N) and the instruction wants it K-major). Shared rows
//   are padded by 16 bytes so ldmatrix's 8 row addresses hit 8 different bank groups. A 4-stage
//   cp.async pipeline keeps three K steps of A and B in flight while the tensor cores work.
//   When K or N is not a multiple of 8 the 16-byte copies cannot be aligned: those problems take
//   the same kernel with element-wise (masked) loads instead of cp.async.
// version 5b matmul_mma_sync_bk64: K steps of 64 in 3 stages: four k16 steps (64 mma per warp)
//   between barriers instead of two, for the same 2 blocks per SM.
// version 5c matmul_mma_sync_128x256: the same with a 128 x 256 tile, warp tiles of 64 x 64: each
//   ldmatrix feeds more mma (8 loads per 32 mma instead of 6 per 16), at 128 accumulators a thread.
// version 5d matmul_mma_sync_warp64: the 128 x 128 tile with 4 warps, each a 64 x 64 warp tile, and
//   two register sets of fragments: step s + 1's ldmatrix is issued before step s's mma, across
//   the stage barrier too, so the tensor cores do not wait on shared memory. 2 CTAs per SM.
// version 5e matmul_mma_sync_swizzled: in matmul_mma_sync_swizzled.cu (XOR-swizzled shared tiles).
// version 5f matmul_mma_sync_lean: in matmul_mma_sync_lean.cu (5e with an unmasked K loop and one
//   global pointer per operand: fewer instructions beside the mma).
#include "kernels/device_common.cuh"
#include "kernels/matmul_mma_sync.hpp"
#include "kernels/mma_sync_padded.cuh"
#include "kernels/mma_sync_ptx.cuh"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = 128, kThreads = 256;
static_assert(mma_sync::kTile.block_m == kBM && mma_sync::kTileBk64.block_m == kBM &&
              mma_sync::kTile128x256.block_m == kBM && mma_sync::kTileWarp64.block_m == kBM);
static_assert(mma_sync::kTileWarp64.block_n == 128, "version 5d's warp layout covers 128 columns");
// Shared row strides, in elements: BLOCK_K + 8 for A (80 or 144 bytes) and BLOCK_N + 8 for B
// (272 or 528 bytes): consecutive rows start 4 banks apart, so ldmatrix's 8 rows hit 32 banks.
template <int kBK>
constexpr int ld_a() {
  return kBK + 8;
}
template <int kBN>
constexpr int ld_b() {
  return kBN + 8;
}
template <int kBN, int kBK>
constexpr int stage_elems() {
  return kBM * ld_a<kBK>() + kBK * ld_b<kBN>();
}
template <int kBN, int kBK, int kStages>
constexpr std::size_t smem_bytes() {
  return sizeof(std::uint16_t) * stage_elems<kBN, kBK>() * kStages;
}

// The K step copy (load_padded_stage) and the paired C store (store_pair): mma_sync_padded.cuh.

template <class T, bool kAligned, int kBN, int kBK, int kStages>
__global__ void __launch_bounds__(kThreads, kBN == 128 ? 2 : 1)
    matmul_mma_sync_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                           std::int64_t m, std::int64_t n, std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * std::int64_t{kBN};
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int kWarpN = kBN / 4, kNT = kWarpN / 8;  // warp tile 64 x kWarpN: kNT n8 tiles
  constexpr int kLdB = ld_b<kBN>(), kLdA = ld_a<kBK>();
  const int warp_m = warp >> 2, warp_n = warp & 3;
  auto stage_a = [&](int s) { return smem + s * stage_elems<kBN, kBK>(); };
  auto stage_b = [&](int s) { return smem + s * stage_elems<kBN, kBK>() + kBM * kLdA; };

  float acc[4][kNT][4];  // (m16 tile, n8 tile, fragment)
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles)
      load_padded_stage<T, kAligned, kBM, kBN, kBK, kThreads>(stage_a(s), stage_b(s), a, b, m, n, k,
                                                              row0, col0, std::int64_t{s} * kBK);
    cp_async_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // stage kt landed for everyone; stage kt - 1 is no longer read by anyone
    span.k_step(kt);  // the probe's K-step time (nothing in other builds)
    const int next = kt + kStages - 1;
    if (next < k_tiles)
      load_padded_stage<T, kAligned, kBM, kBN, kBK, kThreads>(
          stage_a(next % kStages), stage_b(next % kStages), a, b, m, n, k, row0, col0,
          std::int64_t{next} * kBK);
    cp_async_commit();
    const T* as = stage_a(kt % kStages);
    const T* bs = stage_b(kt % kStages);
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 16) {
      unsigned af[4][4], bf[kNT][2];
#pragma unroll
      for (int mt = 0; mt < 4; ++mt)
        ldmatrix_x4(af[mt],
                    as + (warp_m * 64 + mt * 16 + (lane & 15)) * kLdA + kk + (lane >> 4) * 8);
#pragma unroll
      for (int np = 0; np < kNT / 2; ++np) {
        unsigned r[4];
        ldmatrix_x4_trans(
            r, bs + (kk + (lane & 15)) * kLdB + warp_n * kWarpN + np * 16 + (lane >> 4) * 8);
        bf[2 * np][0] = r[0];
        bf[2 * np][1] = r[1];
        bf[2 * np + 1][0] = r[2];
        bf[2 * np + 1][1] = r[3];
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) MmaOp<T>::run(acc[mt][nt], af[mt], bf[nt]);
    }
  }
  cp_async_wait<0>();

  // Accumulator fragment: lane holds rows lane/4 and lane/4 + 8, columns (lane%4)*2 and +1.
  const bool pairs = (n % 2) == 0;
#pragma unroll
  for (int mt = 0; mt < 4; ++mt)
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const std::int64_t row = row0 + warp_m * 64 + mt * 16 + (lane >> 2) + h * 8;
        const std::int64_t col = col0 + warp_n * kWarpN + nt * 8 + (lane & 3) * 2;
        if (row < m) store_pair(c, n, row, col, acc[mt][nt][2 * h], acc[mt][nt][2 * h + 1], pairs);
      }
#endif
}

// Version 5d: 4 warps as 2 x 2, each owning a 64 x 64 warp tile of the 128 x 128 tile (8
// ldmatrix.x4 feed 32 mma per k16 step), and two register sets of fragments: the ldmatrix of k16
// step s + 1 (of the next stage, across the barrier, at a stage's last step) is issued before the
// mma of step s, so the tensor cores never wait on shared memory. 2 CTAs (8 warps) per SM.
constexpr int kThreads64 = 128;

template <class T, bool kAligned, int kBK, int kStages>
__global__ void __launch_bounds__(kThreads64, 2)
    matmul_mma_sync_warp64_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                  T* __restrict__ c, std::int64_t m, std::int64_t n, std::int64_t k,
                                  GridMap g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int kBN = 128, kSteps = kBK / 16;
  static_assert(kSteps % 2 == 0,
                "fragment buffers alternate per k16 step, and each stage starts on buffer 0");
  extern __shared__ __align__(128) unsigned char smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * std::int64_t{kBN};
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int warp_m = warp >> 1, warp_n = warp & 1;
  constexpr int kLdB = ld_b<kBN>(), kLdA = ld_a<kBK>();
  auto stage_a = [&](int s) { return smem + s * stage_elems<kBN, kBK>(); };
  auto stage_b = [&](int s) { return smem + s * stage_elems<kBN, kBK>() + kBM * kLdA; };

  float acc[4][8][4];  // (m16 tile, n8 tile, fragment): 64 x 64 per warp
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
  unsigned af[2][4][4], bf[2][8][2];  // (buffer, m16 tile, regs), (buffer, n8 tile, regs)
  auto load_fragments = [&](int buf, int s, int kk) {
    const T* as = stage_a(s);
    const T* bs = stage_b(s);
#pragma unroll
    for (int mt = 0; mt < 4; ++mt)
      ldmatrix_x4(af[buf][mt],
                  as + (warp_m * 64 + mt * 16 + (lane & 15)) * kLdA + kk + (lane >> 4) * 8);
#pragma unroll
    for (int np = 0; np < 4; ++np) {
      unsigned r[4];
      ldmatrix_x4_trans(r,
                        bs + (kk + (lane & 15)) * kLdB + warp_n * 64 + np * 16 + (lane >> 4) * 8);
      bf[buf][2 * np][0] = r[0];
      bf[buf][2 * np][1] = r[1];
      bf[buf][2 * np + 1][0] = r[2];
      bf[buf][2 * np + 1][1] = r[3];
    }
  };

  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles)
      load_padded_stage<T, kAligned, kBM, kBN, kBK, kThreads64>(
          stage_a(s), stage_b(s), a, b, m, n, k, row0, col0, std::int64_t{s} * kBK);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();
  load_fragments(0, 0, 0);
  for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      const bool last = ks == kSteps - 1;
      if (last) {
        // Stage kt + 1 landed for everyone, and nobody reads stage kt any more (its last
        // fragments are in registers): the loads issued at the next step 0 may overwrite it.
        cp_async_wait<kStages - 2>();
        __syncthreads();
      }
      if (!last || kt + 1 < k_tiles)
        load_fragments((ks + 1) & 1, last ? (kt + 1) % kStages : kt % kStages,
                       last ? 0 : (ks + 1) * 16);
      if (ks == 0) {
        const int next = kt + kStages - 1;
        if (next < k_tiles)
          load_padded_stage<T, kAligned, kBM, kBN, kBK, kThreads64>(
              stage_a(next % kStages), stage_b(next % kStages), a, b, m, n, k, row0, col0,
              std::int64_t{next} * kBK);
        cp_async_commit();
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt)
#pragma unroll
        for (int nt = 0; nt < 8; ++nt) MmaOp<T>::run(acc[mt][nt], af[ks & 1][mt], bf[ks & 1][nt]);
    }
  }
  cp_async_wait<0>();

  const bool pairs = (n % 2) == 0;
#pragma unroll
  for (int mt = 0; mt < 4; ++mt)
#pragma unroll
    for (int nt = 0; nt < 8; ++nt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const std::int64_t row = row0 + warp_m * 64 + mt * 16 + (lane >> 2) + h * 8;
        const std::int64_t col = col0 + warp_n * 64 + nt * 8 + (lane & 3) * 2;
        if (row < m) store_pair(c, n, row, col, acc[mt][nt][2 * h], acc[mt][nt][2 * h + 1], pairs);
      }
#endif
}

template <class T, bool kAligned, int kBK, int kStages>
void launch_warp64_typed(const LaunchArgs& a) {
  constexpr std::size_t bytes = smem_bytes<128, kBK, kStages>();
  auto* kernel = matmul_mma_sync_warp64_kernel<T, kAligned, kBK, kStages>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  kernel<<<grid_blocks(a.grid), kThreads64, bytes, a.stream>>>(
      static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n, a.k,
      a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
}

template <class T, bool kAligned, int kBN, int kBK, int kStages>
void launch_typed(const LaunchArgs& a) {
  constexpr std::size_t bytes = smem_bytes<kBN, kBK, kStages>();
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(matmul_mma_sync_kernel<T, kAligned, kBN, kBK, kStages>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  matmul_mma_sync_kernel<T, kAligned, kBN, kBK, kStages>
      <<<grid_blocks(a.grid), kThreads, bytes, a.stream>>>(
          static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n,
          a.k, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
}

// kWarp64: version 5d's kernel (kBN must be 128), else version 5's with a 128 x kBN tile.
template <int kBN, int kBK, int kStages, bool kWarp64 = false>
std::string launch_mma(const LaunchArgs& a) {
  if (a.dtype == sim::DType::fp32) return "mma.sync rung takes FP16 or BF16 inputs";
  if (a.b_transposed) return "mma.sync rung reads B row-major (K, N)";
  int dev = 0, major = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8) return "mma.sync m16n8k16 and cp.async need compute capability 8.0 or newer";
  const bool aligned = a.k % 8 == 0 && a.n % 8 == 0;  // every 16-byte chunk starts aligned
  auto go = [&]<class T>() {
    if constexpr (kWarp64)
      aligned ? launch_warp64_typed<T, true, kBK, kStages>(a)
              : launch_warp64_typed<T, false, kBK, kStages>(a);
    else
      aligned ? launch_typed<T, true, kBN, kBK, kStages>(a)
              : launch_typed<T, false, kBN, kBK, kStages>(a);
  };
  if (a.dtype == sim::DType::fp16)
    go.template operator()<__half>();
  else
    go.template operator()<__nv_bfloat16>();
  return "";
}

}  // namespace

std::string launch_matmul_mma_sync(const LaunchArgs& a) {
  return launch_mma<mma_sync::kTile.block_n, mma_sync::kTile.block_k, mma_sync::kStages>(a);
}
std::string launch_matmul_mma_sync_bk64(const LaunchArgs& a) {
  return launch_mma<mma_sync::kTileBk64.block_n, mma_sync::kTileBk64.block_k,
                    mma_sync::kStagesBk64>(a);
}
std::string launch_matmul_mma_sync_128x256(const LaunchArgs& a) {
  return launch_mma<mma_sync::kTile128x256.block_n, mma_sync::kTile128x256.block_k,
                    mma_sync::kStages>(a);
}
std::string launch_matmul_mma_sync_warp64(const LaunchArgs& a) {
  return launch_mma<mma_sync::kTileWarp64.block_n, mma_sync::kTileWarp64.block_k, mma_sync::kStages,
                    true>(a);
}

}  // namespace tilesim::kernels::detail
