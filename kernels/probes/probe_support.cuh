// What the standalone probes share beside kernels/device_resources.cuh's owners: the best time of
// repeated launches on CUDA events, and a main that reports a CUDA error by the probe's name.
#pragma once

#include <cstdio>
#include <exception>

#include "kernels/device_resources.cuh"

namespace tilesim::probes {

using kernels::detail::CudaEvent;
using kernels::detail::DeviceBuffer;

// Milliseconds of the fastest of `reps` runs of `launch` (which enqueues one launch or copy),
// after one more that warms up and is not counted.
template <class Launch>
float best_ms(int reps, Launch launch) {
  CudaEvent a, b;
  float best = 1e30f;
  for (int rep = 0; rep <= reps; ++rep) {
    TILESIM_CUDA_CHECK(cudaEventRecord(a.get()));
    launch();
    TILESIM_CUDA_CHECK_LAUNCH();
    TILESIM_CUDA_CHECK(cudaEventRecord(b.get()));
    TILESIM_CUDA_CHECK(cudaEventSynchronize(b.get()));
    float ms = 0;
    TILESIM_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
    if (rep > 0 && ms < best) best = ms;
  }
  return best;
}

// A probe's main: `body`'s exit status, or 1 with "name: what" on stderr when it throws (a failed
// CUDA call: TILESIM_CUDA_CHECK).
template <class Body>
int run_probe(const char* name, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

}  // namespace tilesim::probes
