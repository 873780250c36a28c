// Matmul on tensor cores through mma.sync (sm_80+), the data-movement rung: same instructions as
// matmul_mma_sync.cu, laid out so that shared memory never makes the tensor cores wait.
// version 5e matmul_mma_sync_swizzled: a 128 x 256 tile, K steps of 32, 8 warps as 2 x 4 with
//   64 x 64 warp tiles, one CTA per SM. Shared tiles are unpadded and XOR-swizzled per 16-byte
//   chunk (A: chunk ^ ((row / 2) % 4), B: chunk ^ (row % 8)), so both the cp.async writes and
//   ldmatrix's 8-row reads hit 8 distinct bank groups. Every thread precomputes its 32-bit shared
//   offsets once; a 4-stage cp.async pipeline with one barrier per K step; fragments
//   double-buffered across k16 steps (as in 5d). The epilogue goes through shared memory (swizzled
//   the same way) and leaves as 16-byte row stores instead of 4-byte fragment pairs.
//   K or N not a multiple of 8: element-wise loads and stores, same layout. The kernel also takes
//   BLOCK_K = 64 (128-byte A rows, key row % 8): measured slower in 4 stages (docs/PERFORMANCE.md).
#include "kernels/device_common.cuh"
#include "kernels/matmul_mma_sync_swizzled.hpp"
#include "kernels/mma_sync_ptx.cuh"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = mma_sync_swizzled::kTile.block_m, kBN = mma_sync_swizzled::kTile.block_n,
              kThreads = 256;
template <int kBK>
constexpr unsigned stage_bytes() {
  return (kBM * kBK + kBK * kBN) * 2;
}
template <int kBK, int kStages>
constexpr std::size_t smem_bytes() {
  return std::size_t{kStages} * stage_bytes<kBK>();
}

template <class T, bool kAligned, int kBK, int kStages>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_mma_sync_swizzled_kernel(const T* __restrict__ a, const T* __restrict__ b,
                                    T* __restrict__ c, std::int64_t m, std::int64_t n,
                                    std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // A (BLOCK_M, BLOCK_K): rows of kChunksA 16-byte chunks; B (BLOCK_K, BLOCK_N): 512-byte rows.
  constexpr int kChunksA = kBK / 8, kRowStepA = kThreads / kChunksA, kLoadsA = kBM / kRowStepA;
  constexpr int kLoadsB = kBK / 8;
  constexpr unsigned kStageBytesA = kBM * kBK * 2, kStageBytes = stage_bytes<kBK>();
  static_assert(kBM * kBN * 2 <= smem_bytes<kBK, kStages>(),
                "the epilogue's C tile reuses the stages");
  static_assert(kChunksA == 4 || kChunksA == 8, "BLOCK_K of 32 or 64");
  // A's swizzle key: which 128-byte line the chunk's row shares (two 64-byte rows, or one).
  auto key_a = [](int row) { return kChunksA == 4 ? (row >> 1) & 3 : row & 7; };
  extern __shared__ __align__(128) unsigned char smem_raw[];
  const unsigned smem0 = smem_addr(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warp_m = warp >> 2, warp_n = warp & 3;

  // Copy slots. A: rows a_r + u * kRowStepA, chunk a_c; B: rows b_r + 8u, chunk b_c. The
  // swizzle key depends only on the row's low bits, which those steps keep.
  const int a_r = tid / kChunksA, a_c = tid % kChunksA, b_r = tid >> 5, b_c = tid & 31;
  const unsigned a_st = a_r * kBK * 2 + ((a_c ^ key_a(a_r)) << 4);
  const unsigned b_st = kStageBytesA + b_r * 512 + ((b_c ^ b_r) << 4);
  const bool b_ok = col0 + b_c * 8 < n;
  const T* a_src = a + (row0 + a_r) * k + a_c * 8;              // advances BLOCK_K per K step
  const T* b_src = b + std::int64_t{b_r} * n + col0 + b_c * 8;  // advances BLOCK_K rows
  auto load_stage = [&](int s, int kt) {
    const unsigned base = smem0 + s * kStageBytes;
    const std::int64_t k0 = std::int64_t{kt} * kBK;
    if constexpr (kAligned) {
      const T* pa = a_src + k0;
      const bool ka = k0 + a_c * 8 < k;
#pragma unroll
      for (int u = 0; u < kLoadsA; ++u) {
        const bool ok = ka && row0 + a_r + u * kRowStepA < m;
        cp_async_16_at(base + a_st + u * kRowStepA * kBK * 2, ok ? pa + u * kRowStepA * k : a, ok);
      }
      const T* pb = b_src + k0 * n;
#pragma unroll
      for (int u = 0; u < kLoadsB; ++u) {
        const bool ok = b_ok && k0 + b_r + 8 * u < k;
        cp_async_16_at(base + b_st + u * 8 * 512, ok ? pb + 8 * u * n : b, ok);
      }
    } else {
#pragma unroll
      for (int u = 0; u < kLoadsA; ++u) {
        const std::int64_t row = row0 + a_r + kRowStepA * u, kk = k0 + a_c * 8;
        T* dst = reinterpret_cast<T*>(smem_raw + s * kStageBytes + a_st + u * kRowStepA * kBK * 2);
#pragma unroll
        for (int e = 0; e < 8; ++e)
          dst[e] = (row < m && kk + e < k) ? a[row * k + kk + e] : from_float<T>(0.f);
      }
#pragma unroll
      for (int u = 0; u < kLoadsB; ++u) {
        const std::int64_t kk = k0 + b_r + 8 * u, col = col0 + b_c * 8;
        T* dst = reinterpret_cast<T*>(smem_raw + s * kStageBytes + b_st + u * 8 * 512);
#pragma unroll
        for (int e = 0; e < 8; ++e)
          dst[e] = (kk < k && col + e < n) ? b[kk * n + col + e] : from_float<T>(0.f);
      }
    }
  };

  // ldmatrix rows. A (x4): row warp_m*64 + mt*16 + lane%16, chunk 2 ks + lane/16; the k16 step
  // flips chunk bit 1 (byte bit 5). B (x4.trans): row 16 ks + lane%16, chunk
  // warp_n*8 + 2 np + lane/16; the n16 pair np flips chunk bits 1-2 (byte bits 5-6).
  const unsigned a_ld =
      (warp_m * 64 + (lane & 15)) * kBK * 2 + (((lane >> 4) ^ key_a(lane & 15)) << 4);
  const unsigned b_ld =
      kStageBytesA + (lane & 15) * 512 + warp_n * 128 + (((lane >> 4) ^ (lane & 7)) << 4);

  float acc[4][8][4];  // (m16 tile, n8 tile, fragment): 64 x 64 per warp
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
  unsigned af[2][4][4], bf[2][8][2];  // (buffer, m16 tile, regs), (buffer, n8 tile, regs)
  auto load_fragments = [&](int buf, int s, int ks) {
    const unsigned base = smem0 + s * kStageBytes;
#pragma unroll
    for (int mt = 0; mt < 4; ++mt)
      ldmatrix_x4_at(af[buf][mt], base + (a_ld ^ (ks << 5)) + mt * 16 * kBK * 2);
#pragma unroll
    for (int np = 0; np < 4; ++np) {
      unsigned r[4];
      ldmatrix_x4_trans_at(r, base + (b_ld ^ (np << 5)) + ks * 16 * 512);
      bf[buf][2 * np][0] = r[0];
      bf[buf][2 * np][1] = r[1];
      bf[buf][2 * np + 1][0] = r[2];
      bf[buf][2 * np + 1][1] = r[3];
    }
  };

  constexpr int kSteps = kBK / 16;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();
  load_fragments(0, 0, 0);
  int stage = 0;
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int next_stage = stage + 1 == kStages ? 0 : stage + 1;
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      const bool last = ks == kSteps - 1;
      if (last) {
        // Stage kt + 1 landed for everyone, and nobody reads stage kt any more (its last
        // fragments are in registers): the copies issued at the next step 0 may overwrite it.
        cp_async_wait<kStages - 2>();
        __syncthreads();
      }
      if (!last || kt + 1 < k_tiles)
        load_fragments((ks + 1) & 1, last ? next_stage : stage, last ? 0 : ks + 1);
      if (ks == 0) {
        const int next = kt + kStages - 1;  // into the stage that kt - 1 used
        if (next < k_tiles) load_stage(stage == 0 ? kStages - 1 : stage - 1, next);
        cp_async_commit();
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt)
#pragma unroll
        for (int nt = 0; nt < 8; ++nt) MmaOp<T>::run(acc[mt][nt], af[ks & 1][mt], bf[ks & 1][nt]);
    }
    stage = next_stage;
  }
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with the stages: C (BLOCK_M, BLOCK_N) takes their place

  // Fragment (mt, nt, h): row warp_m*64 + mt*16 + lane/4 + 8h, 4 bytes at column
  // warp_n*64 + nt*8 + 2 (lane%4), i.e. chunk warp_n*8 + nt stored at chunk ^ (lane/4).
  const unsigned c_st =
      (warp_m * 64 + (lane >> 2)) * 512 + warp_n * 128 + ((lane >> 2) << 4) + (lane & 3) * 4;
#pragma unroll
  for (int mt = 0; mt < 4; ++mt)
#pragma unroll
    for (int nt = 0; nt < 8; ++nt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const T v0 = from_float<T>(acc[mt][nt][2 * h]), v1 = from_float<T>(acc[mt][nt][2 * h + 1]);
        const unsigned pair =
            *reinterpret_cast<const unsigned short*>(&v0) |
            (static_cast<unsigned>(*reinterpret_cast<const unsigned short*>(&v1)) << 16);
        asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(smem0 + (c_st ^ (nt << 4)) + mt * 16 * 512 +
                                                       h * 8 * 512),
                     "r"(pair));
      }
  __syncthreads();
  // A warp stores one 512-byte row of C per pass: row warp + 8i, chunk lane.
#pragma unroll 4
  for (int i = 0; i < kBM / 8; ++i) {
    const int r = warp + 8 * i;
    const std::int64_t row = row0 + r, col = col0 + lane * 8;
    if (row >= m || col >= n) continue;
    const unsigned src = smem0 + r * 512 + ((lane ^ warp) << 4);
    uint4 v;
    asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(src));
    T* dst = c + row * n + col;
    if (kAligned) {
      *reinterpret_cast<uint4*>(dst) = v;
    } else {
      const T* e = reinterpret_cast<const T*>(&v);
      for (int j = 0; j < 8 && col + j < n; ++j) dst[j] = e[j];
    }
  }
#endif
}

template <class T, bool kAligned, int kBK, int kStages>
void launch_typed(const LaunchArgs& a) {
  constexpr std::size_t kSmemBytes = smem_bytes<kBK, kStages>();
  auto* kernel = matmul_mma_sync_swizzled_kernel<T, kAligned, kBK, kStages>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSmemBytes)));
  kernel<<<grid_blocks(a.grid), kThreads, kSmemBytes, a.stream>>>(
      static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n, a.k,
      a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
}

template <int kBK, int kStages>
std::string launch_swizzled(const LaunchArgs& a) {
  if (a.dtype == sim::DType::fp32) return "mma.sync rung takes FP16 or BF16 inputs";
  if (a.b_transposed) return "mma.sync rung reads B row-major (K, N)";
  int dev = 0, major = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8) return "mma.sync m16n8k16 and cp.async need compute capability 8.0 or newer";
  const bool aligned = a.k % 8 == 0 && a.n % 8 == 0;  // every 16-byte chunk starts aligned
  if (a.dtype == sim::DType::fp16)
    aligned ? launch_typed<__half, true, kBK, kStages>(a)
            : launch_typed<__half, false, kBK, kStages>(a);
  else
    aligned ? launch_typed<__nv_bfloat16, true, kBK, kStages>(a)
            : launch_typed<__nv_bfloat16, false, kBK, kStages>(a);
  return "";
}

}  // namespace

std::string launch_matmul_mma_sync_swizzled(const LaunchArgs& a) {
  return launch_swizzled<mma_sync_swizzled::kTile.block_k, mma_sync_swizzled::kStages>(a);
}

}  // namespace tilesim::kernels::detail
