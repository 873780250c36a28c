// Matmul, register-blocked FP32 on CUDA cores: a 128 x 128 tile of C per program, K steps of 8/16.
// version 4 matmul_register_blocked: 256 threads, each owning an 8 x 8 block of C in registers
//   (as 2 x 2 pieces of 4 x 4). A warp is 4 x 8 threads over a 32 x 64 warp tile, so each of its
//   16-byte shared reads touches 4 (A) or 8 (B) consecutive float4s: one wavefront, no conflict.
//   Per K step a thread loads 8 A and 8 B values from shared memory and does 64 FMAs: 4 FMAs per
//   shared load instead of the smem-tiled rung's 1/2. A is stored transposed in shared memory
//   (BLOCK_K, BLOCK_M) so those 8 values are two float4 loads; the next K step's tiles are fetched
//   into registers while this one computes, into the other of two shared buffers (one barrier a
//   step).
// version 4b matmul_register_blocked_bk16: K steps of 16: half the barriers and loop overhead per
//   FMA, for 8 more prefetch registers a thread (ptxas spills 24 bytes of them at the 128 cap).
// Launch order and GROUP_SIZE_M apply to this fixed 128 x 128 grid; every edge is masked.
#include "kernels/device_common.cuh"
#include "kernels/matmul_register_blocked.hpp"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = register_blocked::kTile.block_m, kBN = register_blocked::kTile.block_n,
              kThreads = 256;
static_assert(register_blocked::kTileBk16.block_m == kBM &&
              register_blocked::kTileBk16.block_n == kBN);

// Element-wise, masked load of 4 floats (rows whose length is not a multiple of 4).
__device__ __forceinline__ float4 load4_masked(const float* __restrict__ p, std::int64_t row,
                                               std::int64_t col, std::int64_t rows,
                                               std::int64_t cols) {
  if (row >= rows) return make_float4(0.f, 0.f, 0.f, 0.f);
  const float* q = p + row * cols + col;
  float4 v;
  v.x = col + 0 < cols ? q[0] : 0.f;
  v.y = col + 1 < cols ? q[1] : 0.f;
  v.z = col + 2 < cols ? q[2] : 0.f;
  v.w = col + 3 < cols ? q[3] : 0.f;
  return v;
}

// kVec: K and N are multiples of 4, so every float4 of A and B is 16-byte aligned and lies wholly
// inside or outside its row. Then rows of A past M and columns of B past N are read clamped to the
// last valid ones (they only feed outputs that are never stored) and only K is masked, with zeros.
template <int kBK, bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    matmul_register_blocked_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, std::int64_t m, std::int64_t n,
                                   std::int64_t k, GridMap g) {
  constexpr int kLoads = kBK / 8;  // float4 loads of A (and of B) per thread per K step
  __shared__ __align__(16) float as[2][kBK][kBM];  // A tile transposed: (BLOCK_K, BLOCK_M)
  __shared__ __align__(16) float bs[2][kBK][kBN];  // (BLOCK_K, BLOCK_N)
  [[maybe_unused]] const BlockSpan span;  // the block timeline probe's hook (empty otherwise)
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int tid = threadIdx.x;
  // Load u: A row a_r + u * kAStep, K columns a_k .. + 3; B K row b_k + u * kBStep, columns b_c ..
  // + 3.
  constexpr int kAStep = kThreads / (kBK / 4), kBStep = kThreads / 32;
  const int a_r = tid / (kBK / 4), a_k = (tid % (kBK / 4)) * 4;
  const int b_k = tid >> 5, b_c = (tid & 31) * 4;
  // Compute layout: warp (warp_m, warp_n) of 4 x 2 warps; lane (lane_m, lane_n) of 4 x 8. Rows
  // warp_m*32 + lane_m*4 + {0..3, 16..19}, columns warp_n*64 + lane_n*4 + {0..3, 32..35}.
  const int warp = tid >> 5, lane = tid & 31;
  const int tm = (warp >> 1) * 32 + (lane >> 3) * 4, tn = (warp & 1) * 64 + (lane & 7) * 4;

  const float* pa[kLoads];
  const float* pb = nullptr;
  if constexpr (kVec) {
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const std::int64_t row = min(row0 + a_r + u * kAStep, m - 1);
      pa[u] = a + row * k + a_k;
    }
    pb = b + std::int64_t{b_k} * n + min(col0 + b_c, n - 4);
  }
  float4 a_next[kLoads], b_next[kLoads];
  // kVec: pa[u] and pb walk K (BLOCK_K columns, BLOCK_K rows per step); k_left = K - k0.
  const std::int64_t b_step = std::int64_t{kBStep} * n;
  auto fetch = [&](std::int64_t k0, int k_left) {
    if constexpr (kVec) {
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        a_next[u] = a_k < k_left ? __ldg(reinterpret_cast<const float4*>(pa[u]))
                                 : make_float4(0.f, 0.f, 0.f, 0.f);
        b_next[u] = b_k + u * kBStep < k_left
                        ? __ldg(reinterpret_cast<const float4*>(pb + u * b_step))
                        : make_float4(0.f, 0.f, 0.f, 0.f);
        pa[u] += kBK;
      }
      pb += kBK * b_step / kBStep;
    } else {
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        a_next[u] = load4_masked(a, row0 + a_r + u * kAStep, k0 + a_k, m, k);
        b_next[u] = load4_masked(b, k0 + b_k + u * kBStep, col0 + b_c, k, n);
      }
    }
  };
  auto stage = [&](int buf) {
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int r = a_r + u * kAStep;
      as[buf][a_k + 0][r] = a_next[u].x;
      as[buf][a_k + 1][r] = a_next[u].y;
      as[buf][a_k + 2][r] = a_next[u].z;
      as[buf][a_k + 3][r] = a_next[u].w;
      *reinterpret_cast<float4*>(&bs[buf][b_k + u * kBStep][b_c]) = b_next[u];
    }
  };
  fetch(0, static_cast<int>(min(k, std::int64_t{kBK})));
  stage(0);
  __syncthreads();

  float acc[8][8];  // rows tm + {0..3, 16..19}, columns tn + {0..3, 32..35}
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  int buf = 0;
  for (std::int64_t k0 = 0; k0 < k; k0 += kBK) {
    const bool has_next = k0 + kBK < k;
    if (has_next) fetch(k0 + kBK, static_cast<int>(min(k - k0 - kBK, std::int64_t{kBK})));
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[buf][kk][tm]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[buf][kk][tm + 16]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[buf][kk][tn]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[buf][kk][tn + 32]);
      const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += av[i] * bv[j];
    }
    // The other buffer was last read before the previous barrier, so it is free to overwrite.
    if (has_next) stage(buf ^ 1);
    __syncthreads();
    buf ^= 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const std::int64_t row = row0 + tm + (i & 3) + (i >> 2) * 16;
    if (row >= m) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t col = col0 + tn + h * 32;
      float* q = c + row * n + col;
      if (kVec && col + 4 <= n) {
        *reinterpret_cast<float4*>(q) =
            make_float4(acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) q[j] = acc[i][h * 4 + j];
      }
    }
  }
}

template <int kBK>
std::string launch_rb(const LaunchArgs& a) {
  if (a.dtype != sim::DType::fp32) return "register-blocked rung is FP32 only";
  if (a.b_transposed) return "register-blocked rung reads B row-major (K, N)";
  const bool vec = a.k % 4 == 0 && a.n % 4 == 0;  // 16-byte aligned rows of A, B and C
  auto* kernel =
      vec ? matmul_register_blocked_kernel<kBK, true> : matmul_register_blocked_kernel<kBK, false>;
  kernel<<<grid_blocks(a.grid), kThreads, 0, a.stream>>>(
      static_cast<const float*>(a.a), static_cast<const float*>(a.b), static_cast<float*>(a.c), a.m,
      a.n, a.k, a.grid);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_matmul_register_blocked(const LaunchArgs& a) {
  return launch_rb<register_blocked::kTile.block_k>(a);
}
std::string launch_matmul_register_blocked_bk16(const LaunchArgs& a) {
  return launch_rb<register_blocked::kTileBk16.block_k>(a);
}

}  // namespace tilesim::kernels::detail
