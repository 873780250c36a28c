// Probe: the SM clock over the life of a tensor-core kernel, at microsecond resolution, the way
// triton.testing.do_bench runs one (a 256 MB memset before every launch) and back to back.
//
// Why: the timed engine lets a Triton kernel with tensor-core dots start at the maximum clock and
// fall towards a sustained rate (Machine::tensor_start_fraction and the curve after it). That
// curve was fitted to kernel times; NVML reads the clock only every few milliseconds, far slower
// than the fitted fall (0.15-0.23 ms). Here lane 0 of warp 0 of every block records
// (%globaltimer ns, clock64 cycles) every kStride iterations of a register-only mma.sync load
// (operands changed every iteration, so the datapath toggles as on real data), so the clock of
// each SM is d(clock64) / d(globaltimer) over ~2-4 us windows.
//
// Build (from the repo root: it includes kernels/device_resources.cuh) and run:
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o clock_curve
//   kernels/probes/clock_curve.cu && ./clock_curve > c.csv
// Output (CSV on stdout): mode, target_us, kernel_us, blocks_per_sm, bin_start_us, bin_end_us,
// mhz_mean, mhz_min, mhz_max (over SMs, each SM's mean over the bin); a summary on stderr.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

#include "kernels/probes/probe_support.cuh"

namespace {

using tilesim::probes::CudaEvent;
using tilesim::probes::DeviceBuffer;

constexpr int kChains = 8;   // independent mma chains per warp: enough to keep the pipe full
constexpr int kStride = 32;  // iterations between two trace samples (~2-4 us at 1-2 GHz)

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// trace: [block][sample] of {ns, cycles}; cap samples per block.
__global__ void __launch_bounds__(256)
    load(unsigned long long* trace, int iters, int cap, float* out, unsigned seed) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = seed * (threadIdx.x + i + 1) | 0x3c003c00u;
  for (int i = 0; i < 2; ++i) b[i] = (seed ^ (threadIdx.x * 7 + i)) | 0x38003800u;
  float d[kChains][4] = {};
  const bool tracer = threadIdx.x == 0;
  unsigned long long* mine = trace + 2ull * cap * blockIdx.x;
  int sample = 0;
  for (int it = 0; it < iters; ++it) {
    if (tracer && it % kStride == 0 && sample < cap) {
      mine[2 * sample] = global_ns();
      mine[2 * sample + 1] = clock64();
      ++sample;
    }
    // New operand bits every iteration (an LCG on the low mantissa bits): a constant operand
    // would leave the multipliers idle-toggling and draw less power than a real GEMM.
    a[it & 3] = (a[it & 3] * 1664525u + 1013904223u) & 0x3fff3fffu;
#pragma unroll
    for (int c = 0; c < kChains; ++c)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  if (tracer && sample < cap) {
    mine[2 * sample] = global_ns();
    mine[2 * sample + 1] = clock64();
    ++sample;
  }
  if (tracer)
    for (int s = sample; s < cap; ++s) mine[2 * s] = 0;  // end marker
  float s = 0.f;
  for (int c = 0; c < kChains; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (s == 12345.f) out[threadIdx.x] = s;  // keeps the chains alive
}

constexpr size_t kFlushBytes = 256u << 20;  // do_bench's cache-clearing buffer
constexpr int kCap = 16384;                 // samples per block

struct Run {
  float kernel_ms = 0;
  std::vector<unsigned long long> trace;
};

// reps launches (each after a memset when flush), the last one's trace kept.
Run run(int blocks, int iters, int reps, bool flush, const DeviceBuffer& trace,
        const DeviceBuffer& flushbuf, const DeviceBuffer& out) {
  CudaEvent e0, e1;
  Run r;
  for (int i = 0; i < reps; ++i) {
    if (flush) TILESIM_CUDA_CHECK(cudaMemsetAsync(flushbuf.p, 0, kFlushBytes));
    TILESIM_CUDA_CHECK(cudaEventRecord(e0.get()));
    load<<<blocks, 256>>>(static_cast<unsigned long long*>(trace.p), iters, kCap,
                          static_cast<float*>(out.p), 3u + i);
    TILESIM_CUDA_CHECK_LAUNCH();
    TILESIM_CUDA_CHECK(cudaEventRecord(e1.get()));
  }
  TILESIM_CUDA_CHECK(cudaEventSynchronize(e1.get()));
  TILESIM_CUDA_CHECK(cudaEventElapsedTime(&r.kernel_ms, e0.get(), e1.get()));
  r.trace.resize(2ull * kCap * blocks);
  TILESIM_CUDA_CHECK(
      cudaMemcpy(r.trace.data(), trace.p, r.trace.size() * 8, cudaMemcpyDeviceToHost));
  return r;
}

// Bins (us since the earliest sample of the launch) in which each block's clock is averaged.
std::vector<double> bin_edges(double end_us) {
  std::vector<double> e{0};
  for (double w : {5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0}) {
    const double stop = std::min(end_us, w * 10);
    while (e.back() + w <= stop + 1e-9) e.push_back(e.back() + w);
  }
  while (e.back() < end_us) e.push_back(e.back() + 1000.0);
  return e;
}

void report(const char* mode, double target_us, int bps, int blocks, const Run& r) {
  unsigned long long t0 = ~0ull;
  for (int b = 0; b < blocks; ++b)
    if (r.trace[2ull * kCap * b]) t0 = std::min(t0, r.trace[2ull * kCap * b]);
  const double kernel_us = r.kernel_ms * 1e3;
  const auto edges = bin_edges(kernel_us);
  std::fprintf(stderr, "%s target %.0f us, %d block(s)/SM: kernel %.1f us\n", mode, target_us, bps,
               kernel_us);
  for (size_t k = 0; k + 1 < edges.size(); ++k) {
    double sum = 0, lo = 1e9, hi = 0;
    int n = 0;
    for (int b = 0; b < blocks; ++b) {
      const unsigned long long* s = r.trace.data() + 2ull * kCap * b;
      double cyc = 0, ns = 0;
      for (int i = 1; i < kCap && s[2 * i]; ++i) {
        const double mid = (0.5 * (s[2 * i] + s[2 * i - 2]) - t0) * 1e-3;
        if (mid < edges[k] || mid >= edges[k + 1]) continue;
        cyc += double(s[2 * i + 1] - s[2 * i - 1]);
        ns += double(s[2 * i] - s[2 * i - 2]);
      }
      if (ns <= 0) continue;
      const double mhz = cyc / ns * 1e3;
      sum += mhz;
      lo = std::min(lo, mhz);
      hi = std::max(hi, mhz);
      ++n;
    }
    if (!n) continue;
    std::printf("%s,%.0f,%.1f,%d,%.0f,%.0f,%.1f,%.1f,%.1f\n", mode, target_us, kernel_us, bps,
                edges[k], edges[k + 1], sum / n, lo, hi);
    std::fprintf(stderr, "  %7.0f-%7.0f us: %7.1f MHz [%.1f, %.1f] over %d SMs' blocks\n", edges[k],
                 edges[k + 1], sum / n, lo, hi, n);
  }
}

// main's body (`run` above is one configuration's launches).
int sweep() {
  int sms = 0;
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  DeviceBuffer flushbuf(kFlushBytes), out(1024 * sizeof(float));
  DeviceBuffer trace(2ull * kCap * sms * 2 * sizeof(unsigned long long));
  std::printf(
      "mode,target_us,kernel_us,blocks_per_sm,bin_start_us,bin_end_us,mhz_mean,mhz_min,"
      "mhz_max\n");
  for (int bps : {1, 2}) {
    const int blocks = sms * bps;
    // Calibrate: iterations per microsecond at this occupancy, from a 1000-iteration launch.
    const Run cal = run(blocks, 2000, 3, false, trace, flushbuf, out);
    const double iters_per_us = 2000 / (cal.kernel_ms * 1e3);
    for (double target_us : {30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0, 20000.0}) {
      const int iters = std::max(kStride, int(target_us * iters_per_us));
      if (iters / kStride >= kCap) continue;
      // do_bench's pattern: memset, launch; 25 warm-up-like repeats, the last one traced.
      report("flush", target_us, bps, blocks, run(blocks, iters, 25, true, trace, flushbuf, out));
    }
    // Back to back with no memset, ~20 ms of launches before the traced one.
    for (double target_us : {100.0, 1000.0}) {
      const int iters = int(target_us * iters_per_us);
      const int reps = std::max(2, int(20000 / target_us));
      report("back_to_back", target_us, bps, blocks,
             run(blocks, iters, reps, false, trace, flushbuf, out));
    }
  }
  return 0;
}

}  // namespace

int main() {
  return tilesim::probes::run_probe("clock_curve", [&] { return sweep(); });
}
