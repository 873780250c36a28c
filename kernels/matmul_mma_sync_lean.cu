// Matmul on tensor cores through mma.sync (sm_80+), the instruction-count rung: the same tile,
// warps, pipeline and swizzled shared memory as matmul_mma_sync_swizzled.cu (5e), with fewer
// instructions beside the mma.
// version 5f matmul_mma_sync_lean: with one CTA of 8 warps per SM (2 warps a scheduler) nothing
//   hides a warp's own dependent instructions, so every instruction that is not an mma lengthens
//   the K loop (Nsight Compute on 5e: "wait", the fixed-latency dependency stall, is the largest
//   share of a warp's time). The copies are what 5f trims:
//   - one global pointer per operand and thread, advanced once per K step; a thread's copies are
//     that pointer plus constant offsets (A: chunks c and c + 2 of one row, 32 bytes apart; B:
//     chunks c, c + 8, c + 16, c + 24 of one row, 128 bytes apart), so no 64-bit address
//     arithmetic per copy;
//   - a CTA whose tiles are wholly inside the matrices (every CTA but the edges, when K is a
//     multiple of 32) runs a K loop with no mask at all: no predicate, no zero-fill operand, no
//     address select. The K loop exists twice for this, masked and unmasked: as one loop with a
//     branch per copy, the compiler predicated both sides and issued the masked side's ~90
//     compares and selects every K step (ncu source counters, 2026-11-27);
//   - A's swizzle key is chosen so that these copies stay conflict-free: 16-byte chunk c of row r
//     sits at c ^ key(r), key(r) = 2 * (r / 2 % 2) + r / 4 % 2 (ldmatrix's 8 rows still see 8
//     distinct bank groups, and so do the copies' 4 rows of 2 chunks); B keeps chunk ^ (row % 8).
//   The K loop, fragments double-buffered across k16 steps, and the epilogue through shared memory
//   (16-byte row stores) are 5e's; the mma walk the n8 tiles back and forth (serpentine) so
//   consecutive mma share an operand.
//   K or N not a multiple of 8: element-wise loads and stores, same layout.
#include <type_traits>

#include "kernels/device_common.cuh"
#include "kernels/matmul_mma_sync_lean.hpp"
#include "kernels/mma_sync_ptx.cuh"

namespace tilesim::kernels::detail {
namespace {

constexpr int kLeanBM = mma_sync_lean::kTile.block_m, kLeanBN = mma_sync_lean::kTile.block_n,
              kLeanThreads = 256;
template <int kBK>
constexpr unsigned lean_stage_bytes() {
  return (kLeanBM * kBK + kBK * kLeanBN) * 2;
}
template <int kBK, int kStages>
constexpr std::size_t lean_smem_bytes() {
  return std::size_t{kStages} * lean_stage_bytes<kBK>();
}

template <class T, bool kAligned, int kBK, int kStages>
__global__ void __launch_bounds__(kLeanThreads, 1)
    matmul_mma_sync_lean_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                                std::int64_t m, std::int64_t n, std::int64_t k, GridMap g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int kBM = kLeanBM, kBN = kLeanBN;
  // A: kChunksA 16-byte chunks a row, a thread copies every other one of its row (kCopiesA);
  // B: 32 chunks a row, a thread copies 4 of its row, in kPassesB passes of 32 rows.
  constexpr int kChunksA = kBK / 8, kCopiesA = kChunksA / 2, kPassesB = kBK / 32;
  constexpr unsigned kStageBytesA = kBM * kBK * 2, kStageBytes = lean_stage_bytes<kBK>();
  static_assert((kBK == 32 || kBK == 64) && kBN == 256, "copy slots laid out for 256-wide B");
  static_assert(kBM * kBN * 2 <= lean_smem_bytes<kBK, kStages>(),
                "the epilogue's C tile reuses the stages");
  // A's swizzle key. BLOCK_K 32: 64-byte rows, two to a 128-byte line, key 2 (r/2 % 2) + r/4 % 2;
  // BLOCK_K 64: 128-byte rows, key 2 (r % 4) + r/4 % 2. Either way the 8 rows of an ldmatrix and
  // the 4 rows x 2 chunks of 8 copying threads land in 8 distinct bank groups.
  auto key_a = [](int row) {
    return kChunksA == 4 ? (((row >> 1) & 1) << 1) | ((row >> 2) & 1)
                         : ((row & 3) << 1) | ((row >> 2) & 1);
  };
  extern __shared__ __align__(128) unsigned char smem_raw[];
  const unsigned smem0 = smem_addr(smem_raw);
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int warp_m = warp >> 2, warp_n = warp & 3;

  // Copy slots. A: row a_r, chunks a_c + 2i (a_c = 0 or 1), stored at (a_c ^ key) ^ 2i; B: rows
  // b_r + 32p, chunks b_c + 8u (b_c < 8), stored at (b_c ^ b_r % 8) + 8u.
  const int a_r = tid >> 1, a_c = tid & 1, b_r = tid >> 3, b_c = tid & 7;
  const unsigned a_st = a_r * kBK * 2 + ((a_c ^ key_a(a_r)) << 4);  // chunk a_c + 2i: ^ 32i
  const unsigned b_st = kStageBytesA + b_r * kBN * 2 + ((b_c ^ (b_r & 7)) << 4);
  const T* pa = a + (row0 + a_r) * k + a_c * 8;  // + BLOCK_K per K step
  const T* pb[kPassesB];                         // + BLOCK_K rows per K step
#pragma unroll
  for (int p = 0; p < kPassesB; ++p) pb[p] = b + std::int64_t{b_r + 32 * p} * n + col0 + b_c * 8;
  const std::int64_t b_step = kBK * n;
  // Every copy of this CTA is whole: no masks anywhere in its K loop (see the loop's two copies).
  const bool unmasked = kAligned && row0 + kBM <= m && col0 + kBN <= n && k % kBK == 0;
  auto load_stage = [&](int s, int kt, auto masked) {
    [[maybe_unused]] const unsigned base = smem0 + s * kStageBytes;
    const std::int64_t k0 = std::int64_t{kt} * kBK;
    if constexpr (kAligned) {
      if constexpr (!decltype(masked)::value) {
#pragma unroll
        for (int i = 0; i < kCopiesA; ++i) cp_async_16_full(base + (a_st ^ (32 * i)), pa + 16 * i);
#pragma unroll
        for (int p = 0; p < kPassesB; ++p)
#pragma unroll
          for (int u = 0; u < 4; ++u)
            cp_async_16_full(base + b_st + p * 32 * kBN * 2 + u * 128, pb[p] + 64 * u);
      } else {
        const bool ra = row0 + a_r < m;
#pragma unroll
        for (int i = 0; i < kCopiesA; ++i) {
          const bool ok = ra && k0 + (a_c + 2 * i) * 8 < k;
          cp_async_16_at(base + (a_st ^ (32 * i)), ok ? pa + 16 * i : a, ok);
        }
#pragma unroll
        for (int p = 0; p < kPassesB; ++p) {
          const bool rb = k0 + b_r + 32 * p < k;
#pragma unroll
          for (int u = 0; u < 4; ++u) {
            const bool ok = rb && col0 + (b_c + 8 * u) * 8 < n;
            cp_async_16_at(base + b_st + p * 32 * kBN * 2 + u * 128, ok ? pb[p] + 64 * u : b, ok);
          }
        }
      }
      pa += kBK;
#pragma unroll
      for (int p = 0; p < kPassesB; ++p) pb[p] += b_step;
    } else {
      const std::int64_t ra = row0 + a_r;
#pragma unroll
      for (int i = 0; i < kCopiesA; ++i) {
        const std::int64_t kk = k0 + (a_c + 2 * i) * 8;
        T* dst = reinterpret_cast<T*>(smem_raw + s * kStageBytes + (a_st ^ (32 * i)));
#pragma unroll
        for (int e = 0; e < 8; ++e)
          dst[e] = (ra < m && kk + e < k) ? a[ra * k + kk + e] : from_float<T>(0.f);
      }
#pragma unroll
      for (int p = 0; p < kPassesB; ++p) {
        const std::int64_t kb = k0 + b_r + 32 * p;
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          const std::int64_t col = col0 + (b_c + 8 * u) * 8;
          T* dst =
              reinterpret_cast<T*>(smem_raw + s * kStageBytes + b_st + p * 32 * kBN * 2 + u * 128);
#pragma unroll
          for (int e = 0; e < 8; ++e)
            dst[e] = (kb < k && col + e < n) ? b[kb * n + col + e] : from_float<T>(0.f);
        }
      }
    }
  };

  // ldmatrix rows, as in 5e. A (x4): row warp_m*64 + mt*16 + lane%16, chunk 2 ks + lane/16 (the
  // k16 step flips chunk bit 1, byte bit 5). B (x4.trans): row 16 ks + lane%16, chunk
  // warp_n*8 + 2 np + lane/16 (the n16 pair np flips chunk bits 1-2, byte bits 5-6).
  const unsigned a_ld =
      (warp_m * 64 + (lane & 15)) * kBK * 2 + (((lane >> 4) ^ key_a(lane & 15)) << 4);
  const unsigned b_ld =
      kStageBytesA + (lane & 15) * kBN * 2 + warp_n * 128 + (((lane >> 4) ^ (lane & 7)) << 4);

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
      ldmatrix_x4_trans_at(r, base + (b_ld ^ (np << 5)) + ks * 16 * kBN * 2);
      bf[buf][2 * np][0] = r[0];
      bf[buf][2 * np][1] = r[1];
      bf[buf][2 * np + 1][0] = r[2];
      bf[buf][2 * np + 1][1] = r[3];
    }
  };

  constexpr int kSteps = kBK / 16;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
  // The K loop, in two copies: `masked` (std::true_type) checks every copy against the matrix
  // edges; std::false_type, taken by CTAs whose every copy is whole, has no check at all. One
  // loop with a branch per copy is not enough: the compiler turns both sides into predicated
  // instructions, and the masked side's ~90 (64-bit compares and selects) then issue every K step.
  auto k_loop = [&](auto masked) {
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles) load_stage(s, s, masked);
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
          if (next < k_tiles) load_stage(stage == 0 ? kStages - 1 : stage - 1, next, masked);
          cp_async_commit();
        }
#pragma unroll
        for (int mt = 0; mt < 4; ++mt)
#pragma unroll
          for (int j = 0; j < 8; ++j) {
            const int nt = mt % 2 ? 7 - j : j;  // serpentine: the next mma reuses this B or A
            MmaOp<T>::run(acc[mt][nt], af[ks & 1][mt], bf[ks & 1][nt]);
          }
      }
      stage = next_stage;
    }
  };
  if (kAligned && unmasked)
    k_loop(std::bool_constant<!kAligned>{});  // std::false_type where it can be taken
  else
    k_loop(std::true_type{});
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
void launch_lean_typed(const LaunchArgs& a) {
  constexpr std::size_t kSmemBytes = lean_smem_bytes<kBK, kStages>();
  auto* kernel = matmul_mma_sync_lean_kernel<T, kAligned, kBK, kStages>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSmemBytes)));
  kernel<<<grid_blocks(a.grid), kLeanThreads, kSmemBytes, a.stream>>>(
      static_cast<const T*>(a.a), static_cast<const T*>(a.b), static_cast<T*>(a.c), a.m, a.n, a.k,
      a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
}

}  // namespace

std::string launch_matmul_mma_sync_lean(const LaunchArgs& a) {
  if (a.dtype == sim::DType::fp32) return "mma.sync rung takes FP16 or BF16 inputs";
  if (a.b_transposed) return "mma.sync rung reads B row-major (K, N)";
  int dev = 0, major = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8) return "mma.sync m16n8k16 and cp.async need compute capability 8.0 or newer";
  constexpr int K = mma_sync_lean::kTile.block_k, S = mma_sync_lean::kStages;
  const bool aligned = a.k % 8 == 0 && a.n % 8 == 0;  // every 16-byte chunk starts aligned
  if (a.dtype == sim::DType::fp16)
    aligned ? launch_lean_typed<__half, true, K, S>(a) : launch_lean_typed<__half, false, K, S>(a);
  else
    aligned ? launch_lean_typed<__nv_bfloat16, true, K, S>(a)
            : launch_lean_typed<__nv_bfloat16, false, K, S>(a);
  return "";
}

}  // namespace tilesim::kernels::detail
