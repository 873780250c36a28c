// cuBLAS entry points used as baselines and as the reference for large matmuls.
#pragma once

#include <string>

#include "kernels/device_common.cuh"

namespace tilesim::kernels::detail {

enum class CublasMode {
  sgemm_strict,  // FP32 in, FP32 math (CUBLAS_COMPUTE_32F_PEDANTIC): baseline and reference
  tf32,          // FP32 in, TF32 tensor cores
  gemmex_half,   // FP16/BF16 in and out, FP32 accumulation
};
// C = A @ B on args.stream with args' sizes, dtype and B layout; "" or why not.
std::string cublas_matmul(const LaunchArgs& args, CublasMode mode);

}  // namespace tilesim::kernels::detail
