// Matmul on tensor cores through mma.sync with the tile as a parameter (sm_80+, fp16 in, FP32
// accumulation): seed 001's block-size chart measured on the GPU.
// version 5t matmul_mma_sync_tiles: version 5's kernel (matmul_mma_sync.cu: ldmatrix from padded
//   shared rows, an S-stage cp.async pipeline, one barrier per K step) templated on (BLOCK_M,
//   BLOCK_N, BLOCK_K, warps, stages), the five Triton exposes. It teaches what the seed's chart
//   shows: small tiles reload A and B from L2 many times (64 x 64 reads each input 1/64 of the
//   outputs' worth per K step, 128 x 128 half that), while a tile whose fp32 accumulators exceed
//   a thread's 255 registers spills to local memory (256 x 256 with 4 warps: 512 a thread), and
//   one whose stages exceed the SM's shared memory cannot launch at all.
// This file holds the small and 8-warp configurations, the dispatch and the resource query;
// matmul_mma_sync_tiles_large.cu the spilling 4-warp ones.
#include "kernels/kernels.hpp"
#include "kernels/matmul_mma_sync_tiles.cuh"

namespace tilesim::kernels {
namespace detail {
namespace mma_tiles {

const std::vector<Entry>& entries_small() {
  static const std::vector<Entry> e{
      Instance<32, 32, 32, 4, 4>::entry(),   Instance<64, 64, 32, 4, 4>::entry(),
      Instance<128, 128, 32, 4, 4>::entry(), Instance<64, 128, 32, 4, 4>::entry(),
      Instance<128, 128, 32, 4, 3>::entry(), Instance<128, 128, 32, 4, 5>::entry(),
      Instance<128, 128, 64, 4, 3>::entry(), Instance<128, 128, 32, 8, 4>::entry(),
      Instance<128, 128, 64, 8, 3>::entry(), Instance<128, 256, 32, 8, 3>::entry(),
      Instance<256, 128, 32, 8, 3>::entry(),
  };
  return e;
}

namespace {

const Entry* find_entry(const mma_sync_tiles::Config& c) {
  for (const auto* list : {&entries_small(), &entries_large()})
    for (const Entry& e : *list)
      if (e.config == c) return &e;
  return nullptr;
}

std::int64_t shared_limit() {
  int dev = 0, optin = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  return optin;
}

// Why configuration `c` cannot run here ("" if it can): shared memory first, as Triton's
// compiler checks it, then whether a kernel was instantiated for it.
std::string cannot_run(const mma_sync_tiles::Config& c, std::int64_t limit) {
  const std::int64_t need = mma_sync_tiles::shared_bytes(c);
  if (need > limit)
    return "out of resource: shared memory, Required: " + std::to_string(need) +
           ", Hardware limit: " + std::to_string(limit) +
           ". Reducing block sizes or `num_stages` may help.";
  if (!find_entry(c)) {
    std::string known;
    for (const auto& x : mma_sync_tiles::kConfigs)
      known += (known.empty() ? "" : ", ") + mma_sync_tiles::label(x);
    return "no kernel instantiated for " + mma_sync_tiles::label(c) + " (instantiated: " + known +
           ")";
  }
  return "";
}

}  // namespace
}  // namespace mma_tiles

std::string launch_matmul_mma_sync_tiles(const LaunchArgs& a) {
  if (a.dtype != sim::DType::fp16) return "the templated mma.sync rung takes FP16 inputs";
  if (a.b_transposed) return "mma.sync rung reads B row-major (K, N)";
  int dev = 0, major = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major < 8) return "mma.sync m16n8k16 and cp.async need compute capability 8.0 or newer";
  const mma_sync_tiles::Config c{a.block_m, a.block_n, a.block_k, a.num_warps, a.stages};
  if (std::string why = mma_tiles::cannot_run(c, mma_tiles::shared_limit()); !why.empty())
    return why;
  return mma_tiles::find_entry(c)->launch(a);
}

}  // namespace detail

KernelResources mma_sync_tiles_resources(const mma_sync_tiles::Config& c) {
  KernelResources r;
  r.shared_bytes = mma_sync_tiles::shared_bytes(c);
  r.threads = 32 * c.warps;
  try {
    const DeviceInfo d = query_device();
    if (!d.available) {
      r.error = d.reason;
      return r;
    }
    const std::int64_t limit = detail::mma_tiles::shared_limit();
    r.shared_limit_bytes = limit;
    if (std::string why = detail::mma_tiles::cannot_run(c, limit); !why.empty()) {
      r.error = why;
      return r;
    }
    KernelResources k = detail::mma_tiles::find_entry(c)->resources();
    k.shared_limit_bytes = limit;
    return k;
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
}

}  // namespace tilesim::kernels
