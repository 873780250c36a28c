// Probe: which shared-memory carveout the driver gives a launch, and what a load that hits the
// L1 costs against one that goes to the L2.
//
// Part 1 (carveout) launches a kernel whose registers per thread (kept live: `hold<N>`), threads
// per block and dynamic shared memory a block are swept, the way Triton launches its kernels: no
// attribute at or under 48 KiB; above it the launcher asks for the largest dynamic size and
// prefers shared memory (Triton's driver.c). Run it under Nsight Compute to read the driver's
// choice: launch__shared_mem_config_size beside the occupancy limits. It prints one line a launch
// (launch index, N, threads, dynamic bytes) to join with ncu's rows in launch order.
//
// Part 2 (latency) chases pointers with one thread: a random cycle over a footprint that stays in
// the L1 (global loads cached in the L1, and a thread's local array: the path a spilled register
// takes), and one of 64 MiB that misses the L1 (a 128-byte stride, beyond any carveout's L1) and
// hits the 50 MiB+ L2 only in part, so the L2 figure is read from a 16 MiB chase. Cycles a
// dependent load, clock64.
//
// Build (from the repo root) and run (no ncu for part 2):
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o carveout
//   kernels/probes/carveout.cu
//   ./carveout latency > latency.csv
//   ncu --metrics launch__shared_mem_config_size,... ./carveout carveout > launches.csv
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <utility>
#include <vector>

#include "kernels/probes/probe_support.cuh"

using tilesim::probes::DeviceBuffer;

// N floats a thread kept live across a dependent loop, so ptxas gives it about N registers.
template <int N>
__global__ void hold(const float* __restrict__ in, float* __restrict__ out, int iters) {
  extern __shared__ float smem[];
  float v[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = in[threadIdx.x + i * blockDim.x];
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = v[i] * v[(i + 1) % N] + 1.0f;
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s += v[i];
  smem[threadIdx.x] = s;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem[(threadIdx.x + 1) % blockDim.x];
}

template <int N>
void launch_hold(int index, int threads, int dyn_bytes, const float* in, float* out) {
  auto k = hold<N>;
  if (dyn_bytes > (48 << 10)) {
    int optin = 0;
    TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    TILESIM_CUDA_CHECK(cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared));
  }
  // The shared array holds one float a thread: the dynamic size asked for is at least that.
  const int bytes = dyn_bytes < threads * 4 ? threads * 4 : dyn_bytes;
  k<<<264, threads, bytes>>>(in, out, 2);
  TILESIM_CUDA_CHECK_LAUNCH();
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("%d,%d,%d,%d\n", index, N, threads, bytes);
}

int carveout() {
  DeviceBuffer in_buf(sizeof(float) * 1024 * 256), out_buf(sizeof(float) * 1024 * 264);
  TILESIM_CUDA_CHECK(cudaMemset(in_buf.p, 0, sizeof(float) * 1024 * 256));
  const auto* in = static_cast<const float*>(in_buf.p);
  auto* out = static_cast<float*>(out_buf.p);
  std::printf("index,live_floats,threads,dynamic_bytes\n");
  const int kb[] = {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 64, 96};
  const int threads[] = {128, 256, 384, 512};
  int index = 0;
  // Sizes outermost: the launches above 48 KiB set attributes that stay with the function, so
  // they come last (a Triton kernel has one size, set or not).
  for (int s : kb)
    for (int t : threads) {
      // (ptxas: about 26, 124, 168 and 248 registers; a block past the SM's 64 K registers
      // cannot launch, so the larger ones run at fewer threads.)
      launch_hold<8>(index++, t, s << 10, in, out);
      launch_hold<100>(index++, t, s << 10, in, out);
      if (t <= 384) launch_hold<160>(index++, t, s << 10, in, out);
      if (t <= 256) launch_hold<220>(index++, t, s << 10, in, out);
    }
  return 0;
}

// One thread follows next[] `steps` times after one warm pass; cycles a load.
__global__ void chase_global(const unsigned* __restrict__ next, unsigned steps, unsigned start,
                             long long* cycles, unsigned* sink) {
  unsigned p = start;
  for (unsigned i = 0; i < steps; ++i) p = __ldca(next + p);
  const long long t0 = clock64();
  for (unsigned i = 0; i < steps; ++i) p = __ldca(next + p);
  const long long t1 = clock64();
  *cycles = t1 - t0;
  *sink = p;
}

// The same through a thread's own local array (4-byte words, stride in words).
template <int Words>
__global__ void chase_local(unsigned steps, unsigned stride, long long* cycles, unsigned* sink) {
  unsigned loc[Words];
  for (unsigned i = 0; i < Words; ++i) loc[i] = (i + stride) % Words;
  unsigned p = 0;
  for (unsigned i = 0; i < steps; ++i) p = loc[p];
  const long long t0 = clock64();
  for (unsigned i = 0; i < steps; ++i) p = loc[p];
  const long long t1 = clock64();
  *cycles = t1 - t0;
  *sink = p;
}

// A random single cycle through `lines` 128-byte lines (one word used a line).
std::vector<unsigned> cycle(size_t lines) {
  std::vector<unsigned> order(lines), next(lines * 32, 0);
  for (size_t i = 0; i < lines; ++i) order[i] = static_cast<unsigned>(i);
  unsigned long long x = 88172645463325252ull;
  for (size_t i = lines - 1; i > 0; --i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    std::swap(order[i], order[x % (i + 1)]);
  }
  for (size_t i = 0; i < lines; ++i) next[order[i] * 32] = order[(i + 1) % lines] * 32;
  return next;
}

int latency() {
  DeviceBuffer cycles_buf(sizeof(long long)), sink_buf(sizeof(unsigned));
  auto* cycles = static_cast<long long*>(cycles_buf.p);
  auto* sink = static_cast<unsigned*>(sink_buf.p);
  std::printf("path,footprint_bytes,steps,cycles_per_load\n");
  const unsigned steps = 4096;
  for (size_t bytes : {size_t{16} << 10, size_t{64} << 10, size_t{16} << 20, size_t{64} << 20}) {
    const std::vector<unsigned> next = cycle(bytes / 128);
    DeviceBuffer d(next.size() * sizeof(unsigned));
    TILESIM_CUDA_CHECK(
        cudaMemcpy(d.p, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    chase_global<<<1, 1>>>(static_cast<const unsigned*>(d.p), steps, 0, cycles, sink);
    TILESIM_CUDA_CHECK_LAUNCH();
    long long c = 0;
    TILESIM_CUDA_CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
    std::printf("global,%zu,%u,%.1f\n", bytes, steps, static_cast<double>(c) / steps);
  }
  // 256 words, stride 33: a thread's consecutive local words lie 128 bytes apart (the warp's
  // lanes interleave), so every load is a new line of a 32 KiB frame.
  chase_local<256><<<1, 1>>>(steps, 33, cycles, sink);
  TILESIM_CUDA_CHECK_LAUNCH();
  long long c = 0;
  TILESIM_CUDA_CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
  std::printf("local,%d,%u,%.1f\n", 256 * 128, steps, static_cast<double>(c) / steps);
  return 0;
}

int run(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "carveout") == 0) return carveout();
  if (argc == 2 && std::strcmp(argv[1], "latency") == 0) return latency();
  std::fprintf(stderr, "usage: carveout carveout|latency\n");
  return 2;
}

int main(int argc, char** argv) {
  return tilesim::probes::run_probe("carveout", [&] { return run(argc, argv); });
}
