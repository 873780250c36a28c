// Every CUDA resource a run takes comes back however the run ends: failures are forced 1,000 times
// (problems a variant refuses, and errors injected after the buffers, inside a launcher's scratch
// and in the timing loop) and the live events, live buffers and free device memory are compared
// with where they started. Skips without a device.
#include <gtest/gtest.h>

#include "gpu_skip.hpp"
#include "kernels/kernels.hpp"
#include "kernels/test_hooks.hpp"

using namespace tilesim;
namespace kt = kernels::testing;

namespace {

struct Case {
  const char* variant;
  sim::ProblemSpec spec;
  kt::FailPoint fail;
};

sim::ProblemSpec small(sim::Kernel k, sim::DType d, std::int64_t kdim = 64) {
  sim::ProblemSpec s;
  s.kernel = k;
  s.dtype = d;
  s.m = s.n = 200;
  s.k = kdim;
  s.block_m = s.block_n = s.block_k = 32;
  return s;
}

// Resets the injected failure even when an assertion returns early.
struct NoInjectionAfter {
  ~NoInjectionAfter() { kt::inject_failure(kt::FailPoint::none); }
};

}  // namespace

TEST(DeviceResources, AThousandFailedRunsLeakNoEventBufferOrDeviceMemory) {
  TILESIM_SKIP_WITHOUT_GPU();
  const NoInjectionAfter reset;
  using sim::DType;
  using sim::Kernel;
  const Case cases[] = {
      {"copy_tiled", small(Kernel::copy, DType::fp32), kt::FailPoint::after_buffers},
      {"matmul_smem_tiled", small(Kernel::matmul, DType::fp32), kt::FailPoint::in_timing},
      {"cublas_sgemm", small(Kernel::matmul, DType::fp32), kt::FailPoint::in_timing},
      // K % 8 != 0: the Hopper rung pads A and B^T into scratch first (elsewhere it refuses).
      {"matmul_wgmma_tma", small(Kernel::matmul, DType::fp16, 100), kt::FailPoint::in_launch},
      {"matmul_mma_sync", small(Kernel::matmul, DType::fp32), kt::FailPoint::none},  // refused
      {"transpose_naive", small(Kernel::copy, DType::fp32), kt::FailPoint::none},    // refused
  };
  kernels::RunOptions opt;
  opt.warmup = 0;
  opt.repeats = 1;
  opt.cold_l2 = false;
  opt.seed = 1;
  // One run first, so the context, modules and pools it creates once are in the starting point.
  ASSERT_TRUE(
      kernels::run(sim::Problem(small(Kernel::matmul, DType::fp32)), "cublas_sgemm", opt).ok);
  const int events0 = kt::live_events(), buffers0 = kt::live_buffers();
  const std::int64_t free0 = kt::device_free_bytes();
  ASSERT_GE(free0, 0);
  for (int i = 0; i < 1000; ++i) {
    const Case& c = cases[i % std::size(cases)];
    kt::inject_failure(c.fail);
    const auto r = kernels::run(sim::Problem(c.spec), c.variant, opt);
    EXPECT_FALSE(r.ok) << c.variant;
    EXPECT_FALSE(r.error.empty()) << c.variant;
    kt::inject_failure(kt::FailPoint::none);
    ASSERT_EQ(kt::live_events(), events0) << "after " << i << " runs, " << c.variant;
    ASSERT_EQ(kt::live_buffers(), buffers0) << "after " << i << " runs, " << c.variant;
  }
  // Allocation granularity and the stream-ordered pool may keep a little; a leak of one 200 x 200
  // buffer per run would be 1,000 x 160 KB = 160 MB.
  constexpr std::int64_t kSlack = 16ll << 20;
  EXPECT_GE(kt::device_free_bytes(), free0 - kSlack);
}

TEST(DeviceResources, CountersAreZeroWithoutCuda) {
  if (kernels::cuda_built()) GTEST_SKIP() << "built with CUDA: the GPU test above covers it";
  EXPECT_EQ(kt::live_events(), 0);
  EXPECT_EQ(kt::live_buffers(), 0);
  EXPECT_EQ(kt::device_free_bytes(), -1);
}
