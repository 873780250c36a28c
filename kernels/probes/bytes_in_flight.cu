// Probe: DRAM throughput against the bytes each SM keeps in flight (Little's law: throughput =
// bytes in flight / latency, until the DRAM saturates). A persistent grid of exactly
// `blocks_per_sm` x SMs blocks of 256 threads streams a 512 MiB buffer into another; each thread
// issues U independent loads of W bytes (4 or 16), then stores them, so an SM holds
// 256 x blocks_per_sm x U x W bytes of reads in flight. The curve calibrates the timed engine's
// loaded DRAM latency (docs/MODEL.md) without touching any kernel it is checked against.
// Build (from the repo root) and run:
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o bytes_in_flight
//   kernels/probes/bytes_in_flight.cu && ./bytes_in_flight > bytes_in_flight.csv
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>

#include "kernels/probes/probe_support.cuh"

using tilesim::probes::DeviceBuffer;

constexpr int kThreads = 256;
constexpr size_t kBytes = size_t{512} << 20;  // per buffer: 10x the L2

// n_vec: vectors of V in the buffer, a multiple of U x (grid threads).
template <int U, class V>
__global__ void __launch_bounds__(kThreads)
    stream(const V* __restrict__ in, V* __restrict__ out, size_t n_vec) {
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t base = size_t{blockIdx.x} * blockDim.x + threadIdx.x; base < n_vec;
       base += U * stride) {
    V v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldcs(in + base + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) __stcs(out + base + u * stride, v[u]);
  }
}

template <int U, class V>
void measure(const void* in, void* out, int sms, int blocks_per_sm) {
  const int blocks = sms * blocks_per_sm;
  const size_t per_round = size_t{U} * blocks * kThreads;
  const size_t n_vec = kBytes / sizeof(V) / per_round * per_round;
  const float best = tilesim::probes::best_ms(5, [&] {
    stream<U, V><<<blocks, kThreads>>>(static_cast<const V*>(in), static_cast<V*>(out), n_vec);
  });
  const double bytes = 2.0 * n_vec * sizeof(V);
  const double in_flight = double{kThreads} * blocks_per_sm * U * sizeof(V);  // reads per SM
  std::printf("%d,%d,%d,%zu,%.0f,%.4f,%.1f\n", sms, blocks_per_sm, U, sizeof(V), in_flight, best,
              bytes / best / 1e6);
}

template <class V>
void sweep(const void* in, void* out, int sms) {
  for (int bps : {1, 2, 4, 8}) {
    measure<1, V>(in, out, sms, bps);
    measure<2, V>(in, out, sms, bps);
    measure<4, V>(in, out, sms, bps);
    measure<8, V>(in, out, sms, bps);
  }
}

int run() {
  cudaDeviceProp prop{};
  TILESIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  DeviceBuffer in(kBytes), out(kBytes);
  TILESIM_CUDA_CHECK(cudaMemset(in.p, 1, kBytes));
  std::printf("# %s\n", prop.name);
  std::printf(
      "sms,blocks_per_sm,loads_per_thread,load_bytes,read_bytes_in_flight_per_sm,ms,gb_s\n");
  sweep<float>(in.p, out.p, prop.multiProcessorCount);
  sweep<float4>(in.p, out.p, prop.multiProcessorCount);
  // cudaMemcpy D2D of the same buffer: the ceiling.
  const float best = tilesim::probes::best_ms(5, [&] {
    TILESIM_CUDA_CHECK(cudaMemcpyAsync(out.p, in.p, kBytes, cudaMemcpyDeviceToDevice));
  });
  std::printf("# memcpy_d2d,%.4f ms,%.1f GB/s\n", best, 2.0 * kBytes / best / 1e6);
  return 0;
}

int main() {
  return tilesim::probes::run_probe("bytes_in_flight", [&] { return run(); });
}
