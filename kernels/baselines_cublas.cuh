// cuBLAS entry points used as baselines and as the reference for large matmuls.
#pragma once

#include <cublas_v2.h>

#include <string>

#include "kernels/device_common.cuh"

namespace tilesim::kernels::detail {

// One cuBLAS handle, owned by the run that uses it (kernels::run makes one per matmul run and
// passes it in LaunchArgs::blas), so no launch can reach a handle that is already destroyed.
class CublasHandle {
 public:
  CublasHandle();
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};

enum class CublasMode {
  sgemm_strict,  // FP32 in, FP32 math (CUBLAS_COMPUTE_32F_PEDANTIC): baseline and reference
  tf32,          // FP32 in, TF32 tensor cores
  gemmex_half,   // FP16/BF16 in and out, FP32 accumulation
};
// C = A @ B on args.stream with args' sizes, dtype and B layout and args.blas; "" or why not.
std::string cublas_matmul(const LaunchArgs& args, CublasMode mode);

}  // namespace tilesim::kernels::detail
