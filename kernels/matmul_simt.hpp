// The SIMT matmul rungs' launchers (matmul_simt.cu): they take the problem'\''s BLOCK_M/N/K.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace detail {
std::string launch_matmul_naive(const LaunchArgs& args);
std::string launch_matmul_smem_tiled(const LaunchArgs& args);  // honours args.b_transposed
}  // namespace detail

}  // namespace tilesim::kernels
