// Probe: how fast the L2 serves reads to the SMs, all of them together and one SM alone. The
// grid is every SM x `blocks_per_sm` blocks of 256 threads, all resident at once; the blocks on
// the first `sms` SMs (by %smid) read an 8 MiB buffer that sits in the L2 (warmed first; far
// below the 50 / 60 MiB of an H100 / H200) `passes` times between them, 16 bytes a load through
// `ld.global.cg` (cached in the L2 only, not the L1), U independent loads in flight per thread,
// and fold what they read into one word per thread (so nothing is optimized away); the others
// exit. Bytes read over the best of 6 timed launches: the L2 -> SM bandwidth the timed engine's
// `l2_bytes_per_s` (all SMs) and `sm_l2_bytes_per_cycle` (one SM, over its clock) stand for
// (sim/machine/parameters.cpp). The SM counts between show where the slices, not the SMs,
// become the bound.
// Build (from the repo root) and run:
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o l2_bandwidth
//   kernels/probes/l2_bandwidth.cu && ./l2_bandwidth > l2_bandwidth.csv
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "kernels/probes/probe_support.cuh"

using tilesim::probes::CudaEvent;
using tilesim::probes::DeviceBuffer;

constexpr int kThreads = 256;
constexpr size_t kBytes = size_t{8} << 20;  // the buffer: L2-resident

__device__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// n_vec: 16-byte vectors in the buffer, a multiple of U x (the reading threads). A reading block
// takes the next rank (`ranks`, zeroed before each launch) and starts at its own offset, so the
// reads of one pass spread over the whole buffer (all slices).
template <int U>
__global__ void __launch_bounds__(kThreads)
    read_l2(const uint4* __restrict__ in, size_t n_vec, int passes, unsigned sms, unsigned readers,
            unsigned* __restrict__ ranks, unsigned* __restrict__ out) {
  if (smid() >= sms) return;
  __shared__ unsigned rank;
  if (threadIdx.x == 0) rank = atomicAdd(ranks, 1u);
  __syncthreads();
  if (rank >= readers) return;  // more blocks on those SMs than expected: they sit out
  const size_t stride = size_t{readers} * blockDim.x;
  unsigned acc = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t base = size_t{rank} * blockDim.x + threadIdx.x; base < n_vec; base += U * stride) {
      uint4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = __ldcg(in + base + u * stride);
#pragma unroll
      for (int u = 0; u < U; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  }
  out[size_t{blockIdx.x} * blockDim.x + threadIdx.x] = acc;
}

template <int U>
void measure(const uint4* in, unsigned* ranks, unsigned* out, int sm_count, int sms,
             int blocks_per_sm, double clock_hz) {
  const int grid = sm_count * blocks_per_sm;
  const unsigned readers = static_cast<unsigned>(sms * blocks_per_sm);
  const size_t per_round = size_t{U} * readers * kThreads;
  const size_t n_vec = kBytes / sizeof(uint4) / per_round * per_round;
  if (n_vec == 0) return;
  // About 2 ms a launch at the rate expected (40 B/cycle an SM at 2 GHz, 8 TB/s at most).
  const double expect = std::min(8e12, 80e9 * sms);
  const int passes = std::max(4, static_cast<int>(expect * 2e-3 / (n_vec * sizeof(uint4))));
  const auto launch = [&] {
    TILESIM_CUDA_CHECK(cudaMemsetAsync(ranks, 0, sizeof(unsigned)));
    read_l2<U>
        <<<grid, kThreads>>>(in, n_vec, passes, static_cast<unsigned>(sms), readers, ranks, out);
    TILESIM_CUDA_CHECK_LAUNCH();
  };
  CudaEvent a, b;
  float best = 1e30f;
  launch();  // warm: the buffer into the L2
  for (int rep = 0; rep < 6; ++rep) {
    TILESIM_CUDA_CHECK(cudaMemsetAsync(ranks, 0, sizeof(unsigned)));
    TILESIM_CUDA_CHECK(cudaEventRecord(a.get()));
    read_l2<U>
        <<<grid, kThreads>>>(in, n_vec, passes, static_cast<unsigned>(sms), readers, ranks, out);
    TILESIM_CUDA_CHECK_LAUNCH();
    TILESIM_CUDA_CHECK(cudaEventRecord(b.get()));
    TILESIM_CUDA_CHECK(cudaEventSynchronize(b.get()));
    float ms = 0;
    TILESIM_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
    if (ms < best) best = ms;
  }
  // Every reader rank taken in the last launch? A rank nobody took (fewer blocks on those SMs
  // than expected, or SM ids not 0..sms-1) would leave its share unread but counted: flagged.
  unsigned taken = 0;
  TILESIM_CUDA_CHECK(cudaMemcpy(&taken, ranks, sizeof(unsigned), cudaMemcpyDeviceToHost));
  const double bytes = static_cast<double>(n_vec) * sizeof(uint4) * passes;
  const double bps = bytes / (best * 1e-3);
  const double in_flight = static_cast<double>(kThreads) * blocks_per_sm * U * sizeof(uint4);
  std::printf("%d,%d,%d,%.0f,%.0f,%.4f,%.1f,%.2f,%d\n", sms, blocks_per_sm, U, in_flight, bytes,
              best, bps / 1e9, bps / sms / clock_hz, taken >= readers ? 1 : 0);
}

int run() {
  int dev = 0, sm_count = 0, clock_khz = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  cudaDeviceProp prop{};
  TILESIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  const double clock_hz = clock_khz * 1e3;  // the boost clock: bytes/cycle at that clock
  std::fprintf(stderr, "%s, %d SMs, L2 %d bytes, clock %.0f MHz\n", prop.name, sm_count,
               prop.l2CacheSize, clock_hz / 1e6);
  DeviceBuffer ranks_buf(sizeof(unsigned)), in_buf(kBytes);
  TILESIM_CUDA_CHECK(cudaMemset(in_buf.p, 0x5a, kBytes));
  DeviceBuffer out_buf(static_cast<size_t>(sm_count) * 8 * kThreads * sizeof(unsigned));
  const auto* in = static_cast<const uint4*>(in_buf.p);
  auto* ranks = static_cast<unsigned*>(ranks_buf.p);
  auto* out = static_cast<unsigned*>(out_buf.p);
  std::printf(
      "sms,blocks_per_sm,loads_per_thread,bytes_in_flight_per_sm,bytes,best_ms,GB_per_s,"
      "bytes_per_sm_cycle,all_readers\n");
  const int sms_list[] = {1, 2, 4, 8, 16, 33, 66, 99, sm_count};
  for (const int sms : sms_list) {
    if (sms > sm_count) continue;
    for (const int bps : {1, 2, 4, 8}) {
      measure<4>(in, ranks, out, sm_count, sms, bps, clock_hz);
      measure<8>(in, ranks, out, sm_count, sms, bps, clock_hz);
    }
  }
  return 0;
}

int main() {
  return tilesim::probes::run_probe("l2_bandwidth", [&] { return run(); });
}
