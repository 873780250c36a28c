// The templated mma.sync rung's 4-warp configurations with 256-wide tiles (seed 001's 128 x 256 x
// 64 and 256 x 256 x 64): 256 and 512 fp32 accumulators a thread, over the 255 registers a thread
// may hold, so ptxas spills them to local memory (and takes long doing it: its own file, compiled
// beside matmul_mma_sync_tiles.cu).
#include "kernels/matmul_mma_sync_tiles.cuh"

namespace tilesim::kernels::detail::mma_tiles {

const std::vector<Entry>& entries_large() {
  static const std::vector<Entry> e{
      Instance<128, 256, 64, 4, 3>::entry(),
      Instance<256, 256, 64, 4, 3>::entry(),
  };
  return e;
}

}  // namespace tilesim::kernels::detail::mma_tiles
