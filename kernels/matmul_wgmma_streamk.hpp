// Hopper rung 6g (matmul_wgmma_streamk.cu): 6c's persistent kernel with a stream-K tail.
#pragma once

#include "kernels/launcher.hpp"
#include "kernels/matmul_wgmma_tma.hpp"

namespace tilesim::kernels {

namespace detail {
std::string launch_matmul_wgmma_streamk(const LaunchArgs& args);  // 6g: 6c + stream-K tail
}  // namespace detail

}  // namespace tilesim::kernels
