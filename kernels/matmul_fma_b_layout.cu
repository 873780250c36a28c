// Matmul, FP32 FMA: seed 003's pair, faithfully. One kernel, one 64 x 64 x 32 tile, 256 threads
// each owning a 4 x 4 block of C; the three rungs differ only in where B sits in shared memory:
// rung 1 matmul_fma_b_rowmajor: B (K, N) row-major, staged as Bs (BLOCK_K, BLOCK_N). The inner
//   product reads a row of Bs across lanes: 16 consecutive words, conflict-free.
// rung 2 matmul_fma_bt_conflicting: the seed's "coalesced" variant. B stored transposed, B^T
//   (N, K) row-major, loaded along K (coalesced) and staged as it comes, Bs (BLOCK_N, BLOCK_K).
//   The inner product then reads a column of it: lanes tx = 0..15 read Bs[tx + 16 j][kk], words
//   BLOCK_K = 32 apart, all in bank kk % 32: a 16-way bank conflict on every B load as written.
//   ptxas merges a thread's 4 reads of kk .. kk + 3 (contiguous, 16-byte aligned) into one
//   LDS.128, served in 4 phases of 8 lanes, each 8 rows in the same 4 banks: 8-way, 32
//   wavefronts per load (ncu at 2048^3: 83,886,080 shared loads, 603,979,776 wavefronts).
// rung 3 matmul_fma_bt_padded: the same with each Bs row one word longer (33 words): lane tx's
//   word lands in bank (tx + 16 j + kk) % 32, 16 lanes in 16 banks: conflict-free again.
// Why the conflict shows: per kk a warp issues 4 A and 4 B shared loads (32-bit) for 16 FFMA. An
// SM's shared memory serves one 128-byte wavefront a clock and its 4 schedulers issue 4 warp-FFMA
// a clock, so 16 FFMA take 4 clocks and 8 conflict-free loads already 8: the loop is bound by
// shared-memory wavefronts. Rung 2 needs 4 + 32 = 36 wavefronts per kk instead of 8 (4.5 x).
// Rungs 1 and 3 compile to 256 32-bit shared loads and 512 FFMA per K step, rung 2 to 128 32-bit
// and 32 128-bit loads; all in 64 registers (__launch_bounds__(256, 4)): 4 programs per SM,
// 16.5 KB of shared memory each.
// Launch order and GROUP_SIZE_M apply to the 64 x 64 grid; every edge (M, N, K) is masked.
#include "kernels/device_common.cuh"
#include "kernels/matmul_fma_b_layout.hpp"

namespace tilesim::kernels::detail {
namespace {

constexpr int kBM = fma_b_layout::kTile.block_m, kBN = fma_b_layout::kTile.block_n,
              kBK = fma_b_layout::kTile.block_k, kThreads = fma_b_layout::kThreads;
constexpr int kTX = 16, kTY = kThreads / kTX;    // the thread grid: tx along N, ty along M
constexpr int kTM = kBM / kTY, kTN = kBN / kTX;  // 4 x 4 outputs a thread
static_assert(kTM == 4 && kTN == 4 && kBK == 32, "the comments' conflict arithmetic assumes these");
// A is staged as As (BLOCK_M, BLOCK_K + 1) in every rung: a warp's two rows ty read words 33 apart
// (different banks), so A costs one wavefront a load and only B differs between the rungs.
constexpr int kALd = kBK + 1;

// Where B sits in shared memory: the one thing the three rungs change.
enum class BSmem {
  k_by_n,         // Bs (BLOCK_K, BLOCK_N), from B (K, N)
  n_by_k,         // Bs (BLOCK_N, BLOCK_K), from B^T (N, K): reading along N conflicts
  n_by_k_padded,  // Bs (BLOCK_N, BLOCK_K + 1), from B^T (N, K)
};
template <BSmem L>
constexpr bool kReadsBt = L != BSmem::k_by_n;
template <BSmem L>
constexpr int kBRows = kReadsBt<L> ? kBN : kBK;
template <BSmem L>
constexpr int kBLd = L == BSmem::k_by_n   ? kBN
                     : L == BSmem::n_by_k ? kBK
                                          : kBK + 1;
// The word of B[kk][nn] (tile-local) in Bs.
template <BSmem L>
__device__ __forceinline__ int b_word(int kk, int nn) {
  return kReadsBt<L> ? nn * kBLd<L> + kk : kk * kBLd<L> + nn;
}

// Global -> shared: 8 elements a thread per operand and K step. Every warp reads 32 consecutive
// floats of one row of A, B or B^T (128 bytes, coalesced) and stores 32 consecutive words.
constexpr int kLoads = kBM * kBK / kThreads;
static_assert(kLoads * kThreads == kBN * kBK);

template <BSmem L>
__global__ void __launch_bounds__(kThreads, 4)
    matmul_fma_b_layout_kernel(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, std::int64_t m, std::int64_t n,
                               std::int64_t k, GridMap g) {
  __shared__ float as[kBM * kALd];           // (BLOCK_M, BLOCK_K + 1)
  __shared__ float bs[kBRows<L> * kBLd<L>];  // see BSmem
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  const std::int64_t row0 = pid_m * kBM, col0 = pid_n * kBN;
  const int tid = threadIdx.x;
  // Thread (ty, tx) owns rows ty + 16 i and columns tx + 16 j (i, j < 4); a warp is 2 rows ty of
  // 16 lanes tx, so its B loads read 16 distinct n (each twice: a broadcast).
  const int tx = tid % kTX, ty = tid / kTX;

  float acc[kTM][kTN];
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) acc[i][j] = 0.f;

  // Global -> shared: thread tid loads rows r + u * step (u < 8) at column c of each operand's
  // tile, along its contiguous axis: A (M, K) and B^T (N, K) at r = tid / 32, c = tid % 32,
  // step 8; B (K, N) at r = tid / 64, c = tid % 64, step 4. p_a and p_b point at the thread's
  // first element and move BLOCK_K along K a step.
  constexpr int kAStep = kThreads / kBK, kBStep = kThreads / (kReadsBt<L> ? kBK : kBN);
  const int a_r = tid / kBK, a_c = tid % kBK;
  const int b_r = tid / (kReadsBt<L> ? kBK : kBN), b_c = tid % (kReadsBt<L> ? kBK : kBN);
  const std::int64_t ldb = kReadsBt<L> ? k : n;  // B^T (N, K) or B (K, N), row-major
  const float* p_a = a + (row0 + a_r) * k + a_c;
  const float* p_b = kReadsBt<L> ? b + (col0 + b_r) * ldb + b_c : b + b_r * ldb + col0 + b_c;
  // Past M, N or K an element is 0 (the pointer may point past the matrix; it is not read).
  const int rows = static_cast<int>(min(m - row0, std::int64_t{kBM}));
  const int cols = static_cast<int>(min(n - col0, std::int64_t{kBN}));
  for (std::int64_t k0 = 0; k0 < k; k0 += kBK) {
    const int k_left = static_cast<int>(min(k - k0, std::int64_t{kBK}));
    const float* pa = p_a;
#pragma unroll
    for (int u = 0; u < kLoads; ++u, pa += kAStep * k) {
      const int r = a_r + u * kAStep;
      as[r * kALd + a_c] = r < rows && a_c < k_left ? *pa : 0.f;
    }
    const float* pb = p_b;
#pragma unroll
    for (int u = 0; u < kLoads; ++u, pb += kBStep * ldb) {
      const int r = b_r + u * kBStep;  // a row of B^T (an n) or of B (a k)
      const int kk = kReadsBt<L> ? b_c : r, nn = kReadsBt<L> ? r : b_c;
      bs[b_word<L>(kk, nn)] = kk < k_left && nn < cols ? *pb : 0.f;  // B^T: stored as it comes
    }
    p_a += kBK;
    p_b += kReadsBt<L> ? kBK : kBK * n;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float av[kTM], bv[kTN];
#pragma unroll
      for (int i = 0; i < kTM; ++i) av[i] = as[(ty + i * kTY) * kALd + kk];
#pragma unroll
      for (int j = 0; j < kTN; ++j) bv[j] = bs[b_word<L>(kk, tx + j * kTX)];
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();  // the tiles are overwritten by the next step's loads
  }

#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const std::int64_t row = row0 + ty + i * kTY;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < kTN; ++j) {
      const std::int64_t col = col0 + tx + j * kTX;
      if (col < n) c[row * n + col] = acc[i][j];
    }
  }
}

template <BSmem L>
std::string launch_fma(const LaunchArgs& a) {
  if (a.dtype != sim::DType::fp32) return "the FMA B-layout rungs are FP32 only";
  if (a.b_transposed != kReadsBt<L>)
    return kReadsBt<L> ? "this rung reads B stored transposed, B^T (N, K)"
                       : "this rung reads B row-major (K, N)";
  // clang-format off
  matmul_fma_b_layout_kernel<L><<<grid_blocks(a.grid), kThreads, 0, a.stream>>>(
      static_cast<const float*>(a.a), static_cast<const float*>(a.b), static_cast<float*>(a.c),
      a.m, a.n, a.k, a.grid);
  // clang-format on
  TILESIM_CUDA_CHECK_LAUNCH();
  return "";
}

}  // namespace

std::string launch_matmul_fma_b_rowmajor(const LaunchArgs& a) {
  return launch_fma<BSmem::k_by_n>(a);
}
std::string launch_matmul_fma_bt_conflicting(const LaunchArgs& a) {
  return launch_fma<BSmem::n_by_k>(a);
}
std::string launch_matmul_fma_bt_padded(const LaunchArgs& a) {
  return launch_fma<BSmem::n_by_k_padded>(a);
}

}  // namespace tilesim::kernels::detail
