// kernels/ without CUDA: the same API, answering "not built with CUDA" everywhere, so the app, the
// bench and the tests link and say why there is nothing to measure.
#include "kernels/kernels.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"
#include "kernels/test_hooks.hpp"

namespace tilesim::kernels {
namespace {
constexpr const char* kNotBuilt =
    "not built with CUDA (no nvcc at configure time, or TILESIM_WITH_CUDA=OFF)";
}

bool cuda_built() {
  return false;
}

DeviceInfo query_device() {
  DeviceInfo d;
  d.reason = kNotBuilt;
  return d;
}

RunResult run(const sim::Problem& problem, std::string_view variant, const RunOptions&) {
  RunResult r;
  r.variant = std::string(variant);
  r.problem = problem.spec();
  r.error = find_variant(variant) ? std::string(kNotBuilt)
                                  : "unknown variant '" + std::string(variant) + "'";
  return r;
}

KernelResources mma_sync_tiles_resources(const mma_sync_tiles::Config& c) {
  KernelResources r;
  r.error = kNotBuilt;
  r.shared_bytes = mma_sync_tiles::shared_bytes(c);
  r.threads = 32 * c.warps;
  return r;
}

std::optional<std::vector<sim::TileCoord>> device_launch_mapping(sim::LaunchOrder,
                                                                 const sim::GridShape&,
                                                                 std::string* why) {
  if (why) *why = kNotBuilt;
  return std::nullopt;
}

namespace testing {

void inject_failure(FailPoint) {}
int live_events() {
  return 0;
}
int live_buffers() {
  return 0;
}
std::int64_t device_free_bytes() {
  return -1;
}

}  // namespace testing

}  // namespace tilesim::kernels
