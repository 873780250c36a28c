// Matmul, register-blocked FP32 on CUDA cores: a fixed 128 x 128 tile of C per program, K steps of 8 (or 16).
// version 4 matmul_register_blocked: 256 threads, each owning an 8 x 8 block of C in registers
//   (as four 4 x 4 pieces, 64 rows/columns apart, so a warp's shared reads are broadcasts or
//   consecutive 16-byte words). Per K step a thread loads 8 A and 8 B values from shared memory
//   and does 64 FMAs: 4 FMAs per shared load instead of the smem-tiled rung's 1/2. A is stored
//   transposed in shared memory (BLOCK_K, BLOCK_M) so those 8 values are two float4 loads; the
//   next K step's tiles are fetched into registers while this one computes (double buffering).
// version 4b matmul_register_blocked_bk16: K steps of 16: half the barriers and loop overhead per
//   FMA, for 8 more prefetch registers a thread (the compiler's 128-register cap then spills a few).
// Launch order and GROUP_SIZE_M apply to this fixed 128 x 128 grid; every edge is masked.
#include "kernels/launchers.cuh"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = 128, kBN = 128, kThreads = 256;

// Load u of a thread (chunk = tid + 256 u): A row chunk / (BLOCK_K / 4), K columns
// (chunk % (BLOCK_K / 4)) * 4 .. + 3; B K row chunk / 32, columns (chunk % 32) * 4 .. + 3.
__device__ __forceinline__ float4 load4(const float* __restrict__ p, std::int64_t row,
                                        std::int64_t col, std::int64_t rows, std::int64_t cols,
                                        bool vec) {
  if (row >= rows) return make_float4(0.f, 0.f, 0.f, 0.f);
  const float* q = p + row * cols + col;
  if (vec && col + 4 <= cols) return __ldg(reinterpret_cast<const float4*>(q));
  float4 v;
  v.x = col + 0 < cols ? q[0] : 0.f;
  v.y = col + 1 < cols ? q[1] : 0.f;
  v.z = col + 2 < cols ? q[2] : 0.f;
  v.w = col + 3 < cols ? q[3] : 0.f;
  return v;
}

template <int kBK>
__global__ void __launch_bounds__(kThreads, 2)
    matmul_register_blocked_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, std::int64_t m, std::int64_t n,
                                   std::int64_t k, GridMap g, bool vec_a, bool vec_b, bool vec_c) {
  constexpr int kLoads = kBK / 8;  // float4 loads of A (and of B) per thread per K step
  __shared__ __align__(16) float as[2][kBK][kBM];  // A tile transposed: (BLOCK_K, BLOCK_M)
  __shared__ __align__(16) float bs[2][kBK][kBN];  // (BLOCK_K, BLOCK_N)
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int tid = threadIdx.x;
  // Load u's row (A) or K row (B) is the u = 0 one plus a compile-time step.
  constexpr int kAStep = kThreads / (kBK / 4), kBStep = kThreads / 32;
  const int a_r = tid / (kBK / 4), a_k = (tid % (kBK / 4)) * 4;
  const int b_k = tid >> 5, b_c = (tid & 31) * 4;
  const int tx = tid & 15, ty = tid >> 4;

  float4 a_next[kLoads], b_next[kLoads];
  auto fetch = [&](std::int64_t k0) {
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      a_next[u] = load4(a, row0 + a_r + u * kAStep, k0 + a_k, m, k, vec_a);
      b_next[u] = load4(b, k0 + b_k + u * kBStep, col0 + b_c, k, n, vec_b);
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
  fetch(0);
  stage(0);
  __syncthreads();

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  int buf = 0;
  for (std::int64_t k0 = 0; k0 < k; k0 += kBK) {
    const bool has_next = k0 + kBK < k;
    if (has_next) fetch(k0 + kBK);
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[buf][kk][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[buf][kk][ty * 4 + 64]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[buf][kk][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[buf][kk][tx * 4 + 64]);
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
    const std::int64_t row = row0 + ty * 4 + (i & 3) + (i >> 2) * 64;
    if (row >= m) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t col = col0 + tx * 4 + h * 64;
      float* q = c + row * n + col;
      if (vec_c && col + 4 <= n) {
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
  const bool vec_a = a.k % 4 == 0, vec_bc = a.n % 4 == 0;  // 16-byte aligned rows
  matmul_register_blocked_kernel<kBK><<<grid_blocks(a.grid), kThreads, 0, a.stream>>>(
      static_cast<const float*>(a.a), static_cast<const float*>(a.b), static_cast<float*>(a.c), a.m,
      a.n, a.k, a.grid, vec_a, vec_bc, vec_bc);
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_matmul_register_blocked(const LaunchArgs& a) { return launch_rb<8>(a); }
std::string launch_matmul_register_blocked_bk16(const LaunchArgs& a) { return launch_rb<16>(a); }

}  // namespace tilesim::kernels::detail
