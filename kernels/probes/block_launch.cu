// Probe: how long an SM takes to retire a thread block and start the next one (the timed
// engine's program_launch_cycles). A grid of N blocks of 256 threads, each spinning W cycles
// (clock64) and nothing else, with the dynamic shared memory of a 32 x 33 FP32 transpose tile
// (4,224 bytes) so that as many blocks fit an SM as in the transposes (8 on an H100/H200). If
// each slot of an SM runs its blocks back to back, a block occupies its slot for
// slot_ns = time x (blocks resident per SM) x SMs / N = W / clock + the turnaround; the
// turnaround is the intercept of slot_ns against W. Build and run (standalone):
//   nvcc -O3 -arch=sm_90 -o block_launch kernels/probes/block_launch.cu && ./block_launch
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

constexpr int kThreads = 256;

// Spins `cycles` on thread 0's clock; `sink` keeps the loop (never written: cycles >= 0).
__global__ void __launch_bounds__(kThreads) spin(long long cycles, int* sink) {
  extern __shared__ int smem[];
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (cycles < 0) sink[blockIdx.x] = smem[threadIdx.x];
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int) * (1 << 20)));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  std::printf("blocks,threads,smem_bytes,resident_per_sm,spin_cycles,ms,slot_ns\n");
  for (const int smem : {4224, 16896}) {
    int resident = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, spin, kThreads, smem));
    for (const int blocks : {65536, 262144}) {
      for (const long long cycles : {0LL, 1000LL, 2000LL, 4000LL, 8000LL}) {
        float best = 1e30f;
        for (int rep = 0; rep < 6; ++rep) {
          CHECK(cudaEventRecord(a));
          spin<<<blocks, kThreads, smem>>>(cycles, sink);
          CHECK(cudaGetLastError());
          CHECK(cudaEventRecord(b));
          CHECK(cudaEventSynchronize(b));
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, a, b));
          if (rep > 0 && ms < best) best = ms;  // the first launch warms up
        }
        const double slot_ns =
            best * 1e6 * resident * prop.multiProcessorCount / static_cast<double>(blocks);
        std::printf("%d,%d,%d,%d,%lld,%.4f,%.1f\n", blocks, kThreads, smem, resident, cycles, best,
                    slot_ns);
      }
    }
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  CHECK(cudaFree(sink));
}
