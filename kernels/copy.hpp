// The copy rungs' launchers (copy.cu) and the device-to-device baseline, for the registry.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace detail {
std::string launch_copy_tiled(const LaunchArgs& args);
std::string launch_copy_vectorized(const LaunchArgs& args);
std::string launch_copy_memcpy_d2d(const LaunchArgs& args);  // cudaMemcpyAsync, the baseline
}  // namespace detail

}  // namespace tilesim::kernels
