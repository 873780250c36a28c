// The transpose rungs' launchers (transpose.cu), for the registry.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace detail {
std::string launch_transpose_naive(const LaunchArgs& args);
std::string launch_transpose_smem_tiled(const LaunchArgs& args);
std::string launch_transpose_smem_padded(const LaunchArgs& args);
std::string launch_transpose_smem_padded_vectorized(const LaunchArgs& args);
}  // namespace detail

}  // namespace tilesim::kernels
