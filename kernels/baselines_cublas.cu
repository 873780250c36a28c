// Library baselines measured in the same run as the rungs: cuBLAS SGEMM (strict FP32), SGEMM with
// TF32 tensor cores, and GemmEx on FP16/BF16 with FP32 accumulation. Also the large-size reference.
// cuBLAS is column-major: a row-major C (M, N) is the column-major C^T (N, M) = B^T A^T, so every
// call passes B first, with the sizes swapped (no data is transposed).
#include "kernels/baselines_cublas.cuh"
#include "kernels/baselines_cublas.hpp"

namespace tilesim::kernels::detail {
namespace {

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw CudaError(std::string(what) + " failed: cuBLAS status " +
                    std::to_string(static_cast<int>(s)));
}

cudaDataType_t cuda_type(sim::DType d) {
  switch (d) {
    case sim::DType::fp16:
      return CUDA_R_16F;
    case sim::DType::bf16:
      return CUDA_R_16BF;
    case sim::DType::fp32:
      return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

}  // namespace

CublasHandle::CublasHandle() {
  check_cublas(cublasCreate(&m_handle), "cublasCreate");
}
CublasHandle::~CublasHandle() {
  cublasDestroy(m_handle);
}

std::string cublas_matmul(const LaunchArgs& a, CublasMode mode) {
  if (a.m > 0x7fffffff || a.n > 0x7fffffff || a.k > 0x7fffffff) return "sizes exceed cuBLAS int";
  const int m = static_cast<int>(a.m), n = static_cast<int>(a.n), k = static_cast<int>(a.k);
  if (!a.blas) return "no cuBLAS handle: kernels::run owns one per matmul run";
  const cublasHandle_t h = a.blas->get();
  check_cublas(cublasSetStream(h, a.stream), "cublasSetStream");
  const float alpha = 1.f, beta = 0.f;
  // Row-major B (K, N) is column-major (N, K) with ld N: op N. Row-major B^T (N, K) is column-major
  // (K, N) with ld K: op T gives the (N, K) operand.
  const cublasOperation_t op_b = a.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ld_b = a.b_transposed ? k : n;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType_t type = cuda_type(a.dtype);
  switch (mode) {
    case CublasMode::sgemm_strict:
      if (a.dtype != sim::DType::fp32) return "SGEMM takes FP32";
      compute = CUBLAS_COMPUTE_32F_PEDANTIC;
      break;
    case CublasMode::tf32:
      if (a.dtype != sim::DType::fp32) return "TF32 SGEMM takes FP32";
      compute = CUBLAS_COMPUTE_32F_FAST_TF32;
      break;
    case CublasMode::gemmex_half:
      if (a.dtype == sim::DType::fp32) return "GemmEx baseline takes FP16 or BF16";
      break;
  }
  check_cublas(cublasGemmEx(h, op_b, CUBLAS_OP_N, n, m, k, &alpha, a.b, type, ld_b, a.a, type, k,
                            &beta, a.c, type, n, compute, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
  return "";
}

std::string launch_cublas_sgemm(const LaunchArgs& a) {
  return cublas_matmul(a, CublasMode::sgemm_strict);
}
std::string launch_cublas_tf32(const LaunchArgs& a) {
  return cublas_matmul(a, CublasMode::tf32);
}
std::string launch_cublas_gemmex(const LaunchArgs& a) {
  return cublas_matmul(a, CublasMode::gemmex_half);
}

}  // namespace tilesim::kernels::detail
