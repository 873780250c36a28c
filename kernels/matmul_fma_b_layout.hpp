// Seed 003's pair on CUDA cores (matmul_fma_b_layout.cu): the one tile its three rungs share, and
// their launchers. The rungs differ only in how the B tile sits in shared memory.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace fma_b_layout {
inline constexpr FixedTile kTile{64, 64, 32};
inline constexpr int kThreads = 256;  // 16 x 16 threads, each a 4 x 4 block of C
}  // namespace fma_b_layout

namespace detail {
std::string launch_matmul_fma_b_rowmajor(const LaunchArgs& args);
std::string launch_matmul_fma_bt_conflicting(const LaunchArgs& args);
std::string launch_matmul_fma_bt_padded(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels
