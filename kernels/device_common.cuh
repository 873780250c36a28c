// What every kernel file shares: error checks, element types, and the device copy of sim::tile_of.
// Teaches: the pid -> (pid_m, pid_n) formula is the same arithmetic on the GPU as in the simulator;
// a 1-D grid launches pids in order, and the formula decides which tiles run side by side.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/program/problem.hpp"

namespace tilesim::kernels::detail {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw CudaError(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorString(e));
}
#define TILESIM_CUDA_CHECK(expr) \
  ::tilesim::kernels::detail::check_cuda((expr), #expr, __FILE__, __LINE__)
// After every launch: a bad configuration shows here, a fault at the next synchronisation.
#define TILESIM_CUDA_CHECK_LAUNCH() TILESIM_CUDA_CHECK(cudaGetLastError())

// The grid the formulas see; `order` is static_cast<int>(sim::LaunchOrder).
struct GridMap {
  std::int64_t tiles_m = 1, tiles_n = 1, group_size_m = 1;
  int order = 0;
  std::int64_t programs() const { return tiles_m * tiles_n; }
};
static_assert(static_cast<int>(sim::LaunchOrder::row_major) == 0);
static_assert(static_cast<int>(sim::LaunchOrder::column_major) == 1);
static_assert(static_cast<int>(sim::LaunchOrder::grouped) == 2);
static_assert(static_cast<int>(sim::LaunchOrder::grouped_legacy) == 3);

// sim::tile_of, line for line (sim/program/launch_order.cpp). Tested exhaustively against it on
// small grids.
__host__ __device__ inline void tile_of(const GridMap& g, std::int64_t pid, std::int64_t& pid_m,
                                        std::int64_t& pid_n) {
  switch (g.order) {
    case 0:
      pid_m = pid / g.tiles_n;
      pid_n = pid % g.tiles_n;
      return;
    case 1:
      pid_m = pid % g.tiles_m;
      pid_n = pid / g.tiles_m;
      return;
    default: {
      const std::int64_t num_pid_in_group = g.group_size_m * g.tiles_n;
      const std::int64_t group_id = pid / num_pid_in_group;
      const std::int64_t first_pid_m = group_id * g.group_size_m;
      const std::int64_t rest = g.tiles_m - first_pid_m;
      const std::int64_t group_size_m = rest < g.group_size_m ? rest : g.group_size_m;
      const std::int64_t local = pid % num_pid_in_group;
      const std::int64_t row = g.order == 2 ? local % group_size_m : pid % group_size_m;
      pid_m = first_pid_m + row;
      pid_n = local / group_size_m;
      return;
    }
  }
}

// Block timeline (kernels/probes/block_timeline.cu compiles the kernel files with
// TILESIM_BLOCK_TRACE defined): a kernel that declares a BlockSpan at its start has thread 0 of
// each block record its SM and start, and every warp's lane 0 its end (the latest), on the
// global timer (ns) and on its SM's cycle counter (clock64, so a program's clock is its cycles
// over its nanoseconds), at g_block_trace[kBlockTraceWords * blockIdx.x ...]: {sm, start ns,
// end ns, mid ns, start cycle, end cycle}. What the timed engine's per-program spans are checked
// against. In every other build a BlockSpan is empty and costs nothing.
#if defined(TILESIM_BLOCK_TRACE)
inline constexpr int kBlockTraceWords = 6;
static __device__ unsigned long long* g_block_trace = nullptr;
// With TILESIM_KSTEP_TRACE as well, and the pointer set: (programs, g_kstep_tiles) times at which
// each K step may start (its stage has landed, every warp is past the barrier), from thread 0.
// That hook perturbs what it measures: on an H100 (2026-11-24) its one global load and branch
// per K step, even with the pointer null, moved FP16 8192^3 row-major from 6.5-7.0 GB of DRAM
// reads to 2.8-2.9 GB, and a first wave's older / younger pair from 211 / 274 us to 248 / 255 us
// (docs/MODEL_HISTORY.md). Spans are measured without it.
static __device__ unsigned long long* g_kstep_trace = nullptr;
static __device__ int g_kstep_tiles = 0;
__device__ inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
struct BlockSpan {
  __device__ BlockSpan() {
    if (g_block_trace && threadIdx.x == 0) {
      unsigned sm;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
      unsigned long long* w = g_block_trace + kBlockTraceWords * blockIdx.x;
      w[0] = sm;
      w[1] = global_ns();
      w[4] = clock64();
    }
  }
  // The block ends with its last warp (each warp's lane 0 raises the end; the buffer starts at 0).
  // Data in assets/measured/block_timeline_* before 2026-11-24 took thread 0's end: a warp's
  // epilogue earlier, well under a microsecond on 200-1,400 us programs.
  __device__ ~BlockSpan() {
    if (g_block_trace && threadIdx.x % 32 == 0) {
      unsigned long long* w = g_block_trace + kBlockTraceWords * blockIdx.x;
      atomicMax(&w[2], global_ns());
      atomicMax(&w[5], static_cast<unsigned long long>(clock64()));  // one counter per SM
    }
  }
  // Thread 0 notes a mid-point (a transpose: past its barrier, the tile in shared memory) at
  // word 3 of its block's record.
  __device__ void mark() const {
    if (g_block_trace && threadIdx.x == 0)
      g_block_trace[kBlockTraceWords * blockIdx.x + 3] = global_ns();
  }
  __device__ void k_step([[maybe_unused]] int kt) const {
#if defined(TILESIM_KSTEP_TRACE)
    if (g_kstep_trace && threadIdx.x == 0 && kt < g_kstep_tiles)
      g_kstep_trace[static_cast<unsigned long long>(blockIdx.x) * g_kstep_tiles + kt] = global_ns();
#endif
  }
};
#else
struct BlockSpan {
  __device__ void mark() const {}
  __device__ void k_step(int) const {}
};
#endif

class CublasHandle;  // baselines_cublas.cuh

// Everything a launcher needs. Matrices are dense row-major with the strides sim::Problem gives
// (copy/transpose: in = a (M, N), out = c; matmul: A (M, K), B (K, N) or B^T (N, K), C (M, N)).
struct LaunchArgs {
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  std::int64_t m = 0, n = 0, k = 0;
  int block_m = 64, block_n = 64, block_k = 64;
  int num_warps = 4, stages = 2;  // the problem's: only rungs templated on them read these
  GridMap grid;
  sim::DType dtype = sim::DType::fp32;
  bool b_transposed = false;
  cudaStream_t stream = nullptr;
  const CublasHandle* blas = nullptr;  // the run's cuBLAS handle (matmul runs only)
};

// Element types: fp16/bf16 stored, FP32 arithmetic.
__device__ __forceinline__ float to_float(float x) {
  return x;
}
__device__ __forceinline__ float to_float(__half x) {
  return __half2float(x);
}
__device__ __forceinline__ float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <class T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) {
  return x;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

inline int log2_exact(int v) {  // blocks are powers of two (sim::Problem checks)
  int s = 0;
  while ((1 << s) < v) ++s;
  if ((1 << s) != v)
    throw std::invalid_argument("block size " + std::to_string(v) + " is not a power of two");
  return s;
}

inline unsigned grid_blocks(const GridMap& g) {
  if (g.programs() > 0x7fffffff) throw std::invalid_argument("more programs than a 1-D grid holds");
  return static_cast<unsigned>(g.programs());
}

}  // namespace tilesim::kernels::detail
