// The cuBLAS baselines' launchers (baselines_cublas.cu), for the registry.
#pragma once

#include "kernels/launcher.hpp"

namespace tilesim::kernels {

namespace detail {
std::string launch_cublas_sgemm(const LaunchArgs& args);   // strict FP32
std::string launch_cublas_tf32(const LaunchArgs& args);    // FP32 in, TF32 tensor cores
std::string launch_cublas_gemmex(const LaunchArgs& args);  // FP16/BF16, FP32 accumulation
}  // namespace detail

}  // namespace tilesim::kernels
