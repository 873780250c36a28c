// Probe: how long an SM takes to retire a thread block and start the next one (the timed
// engine's program_launch_cycles). A grid of N blocks of 256 threads, each spinning W cycles
// (clock64) and nothing else, with the dynamic shared memory of a 32 x 33 FP32 transpose tile
// (4,224 bytes) so that as many blocks fit an SM as in the transposes (8 on an H100/H200). If
// each slot of an SM runs its blocks back to back, a block occupies its slot for
// slot_ns = time x (blocks resident per SM) x SMs / N = W / clock + the turnaround; the
// turnaround is the intercept of slot_ns against W. Build (from the repo root) and run:
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o block_launch
//   kernels/probes/block_launch.cu && ./block_launch
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>

#include "kernels/probes/probe_support.cuh"

using tilesim::probes::DeviceBuffer;

constexpr int kThreads = 256;

// Spins `cycles` on thread 0's clock; `sink` keeps the loop (never written: cycles >= 0).
__global__ void __launch_bounds__(kThreads) spin(long long cycles, int* sink) {
  extern __shared__ int smem[];
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (cycles < 0) sink[blockIdx.x] = smem[threadIdx.x];
}

int run() {
  cudaDeviceProp prop{};
  TILESIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  DeviceBuffer sink(sizeof(int) * (1 << 20));
  std::printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  std::printf("blocks,threads,smem_bytes,resident_per_sm,spin_cycles,ms,slot_ns\n");
  for (const int smem : {4224, 16896}) {
    int resident = 0;
    TILESIM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, spin, kThreads, smem));
    for (const int blocks : {65536, 262144}) {
      for (const long long cycles : {0LL, 1000LL, 2000LL, 4000LL, 8000LL}) {
        const float best = tilesim::probes::best_ms(
            5, [&] { spin<<<blocks, kThreads, smem>>>(cycles, static_cast<int*>(sink.p)); });
        const double slot_ns =
            best * 1e6 * resident * prop.multiProcessorCount / static_cast<double>(blocks);
        std::printf("%d,%d,%d,%d,%lld,%.4f,%.1f\n", blocks, kThreads, smem, resident, cycles, best,
                    slot_ns);
      }
    }
  }
  return 0;
}

int main() {
  return tilesim::probes::run_probe("block_launch", [&] { return run(); });
}
