// RAII owners of the CUDA resources kernels/ takes: device buffers (synchronous or stream-ordered)
// and events. An exception or an early return anywhere in a run gives every one of them back;
// live counts are kept for the leak test (test_hooks.hpp). cuBLAS's handle is owned by
// CublasHandle (baselines_cublas.cuh); tensor maps are plain values with nothing to free.
#pragma once

#include <atomic>
#include <cstddef>

#include "kernels/device_common.cuh"
#include "kernels/test_hooks.hpp"

namespace tilesim::kernels::detail {

inline std::atomic<int> g_live_buffers{0}, g_live_events{0};
inline std::atomic<testing::FailPoint> g_fail_at{testing::FailPoint::none};

// Throws when a test injected a failure at `here` (test_hooks.hpp).
inline void fail_point(testing::FailPoint here) {
  if (g_fail_at.load() == here) throw CudaError("injected failure (kernels::testing)");
}

// One cudaMalloc'd buffer (at least 16 bytes). With a stream: cudaMallocAsync / cudaFreeAsync on
// it, ordered with the launches around it and not synchronising the device (inside timed code).
struct DeviceBuffer {
  void* p = nullptr;
  std::size_t bytes = 0;
  cudaStream_t stream = nullptr;
  bool stream_ordered = false;
  explicit DeviceBuffer(std::size_t n) : bytes(n) {
    TILESIM_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(n, 16)));
    ++g_live_buffers;
  }
  DeviceBuffer(std::size_t n, cudaStream_t s) : bytes(n), stream(s), stream_ordered(true) {
    TILESIM_CUDA_CHECK(cudaMallocAsync(&p, std::max<std::size_t>(n, 16), s));
    ++g_live_buffers;
  }
  ~DeviceBuffer() {
    if (stream_ordered)
      cudaFreeAsync(p, stream);
    else
      cudaFree(p);
    --g_live_buffers;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// One CUDA event (timing: cudaEventDefault).
class CudaEvent {
 public:
  CudaEvent() {
    TILESIM_CUDA_CHECK(cudaEventCreate(&m_event));
    ++g_live_events;
  }
  ~CudaEvent() {
    cudaEventDestroy(m_event);
    --g_live_events;
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return m_event; }

 private:
  cudaEvent_t m_event = nullptr;
};

}  // namespace tilesim::kernels::detail
