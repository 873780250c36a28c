// What the leak tests (tests/kernels/leak_test.cpp) observe and force: CUDA resources alive now,
// device memory free, and a failure injected at a chosen point of kernels::run, so every path an
// exception takes can be checked to give back what it took. Plain C++; no-ops without CUDA.
#pragma once

#include <cstdint>

namespace tilesim::kernels::testing {

enum class FailPoint {
  none,
  after_buffers,  // inputs and output allocated, before the checked launch
  in_launch,      // inside a launcher, after its own scratch buffers are allocated (wgmma, K % 8)
  in_timing,      // timing events created, at the first timed launch
};
// Every later kernels::run throws a CudaError at `at` until set back to FailPoint::none.
void inject_failure(FailPoint at);

int live_events();   // CudaEvent objects alive (device_resources.cuh)
int live_buffers();  // DeviceBuffer objects alive
// cudaMemGetInfo's free bytes; -1 without a device.
std::int64_t device_free_bytes();

}  // namespace tilesim::kernels::testing
