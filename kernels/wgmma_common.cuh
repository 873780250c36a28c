// What the Hopper rungs share (matmul_wgmma_tma.cu: 6, 6b, 6c, 6d; matmul_wgmma_pingpong.cu: 6f):
// the PTX wrappers for mbarriers, TMA bulk tensor copies and wgmma, the tensor-map encoder, and the
// launch checks with the K % 8 padding. Included by sm_90a translation units only (internal
// linkage: each file gets its own copy).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "kernels/device_common.cuh"
#include "kernels/device_resources.cuh"

namespace tilesim::kernels::detail {
namespace {

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred p;\n WAIT_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      " @!p bra WAIT_%=;\n}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
}
// Box (c0 = K index, c1 = row) of a 2-D tensor map into shared memory, completing on `bar`.
__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int c0, int c1,
                                         std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(smem_u32(bar))
      : "memory");
}
// The same box into the same shared-memory offset of every CTA in `mask` (a cluster), each
// completing on its own mbarrier at `bar`'s offset.
__device__ __forceinline__ void tma_load_multicast(void* dst, const CUtensorMap* map, int c0,
                                                   int c1, std::uint64_t* bar,
                                                   unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(smem_u32(bar)), "h"(mask)
      : "memory");
}
// Arrive on the mbarrier at `bar`'s offset in CTA `rank` of this cluster.
__device__ __forceinline__ void mbar_arrive_cluster(std::uint64_t* bar, unsigned rank) {
  asm volatile(
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, %1;\n"
      " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_u32(bar)),
      "r"(rank)
      : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
// Box (c0 = column, c1 = row) of shared memory to a 2-D tensor map, as one bulk group.
__device__ __forceinline__ void tma_store(const CUtensorMap* map, int c0, int c1, const void* src) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(c0), "r"(c1), "r"(smem_u32(src))
      : "memory");
}
// Shared-memory matrix descriptor: K-major, 128-byte swizzle, 8-row groups 1024 bytes apart.
__device__ __forceinline__ std::uint64_t smem_desc(const void* p) {
  const std::uint64_t addr = smem_u32(p);
  return ((addr & 0x3FFFF) >> 4) | (std::uint64_t{16 >> 4} << 16) |
         (std::uint64_t{1024 >> 4} << 32) | (std::uint64_t{1} << 62);
}

template <class T>
__device__ __forceinline__ void wgmma_m64n128k16(float* d, std::uint64_t da, std::uint64_t db);

#define TILESIM_WGMMA_REGS                                                                      \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
  "%20, "                                                                                       \
  "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, "  \
  "%39, "                                                                                       \
  "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "  \
  "%58, "                                                                                       \
  "%59, %60, %61, %62, %63}"
#define TILESIM_WGMMA_OUTS(d)                                                                     \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),  \
      "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),  \
      "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),  \
      "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),  \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

template <>
__device__ __forceinline__ void wgmma_m64n128k16<__half>(float* d, std::uint64_t da,
                                                         std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " TILESIM_WGMMA_REGS
               ", %64, %65, 1, 1, 1, 0, 0;\n"
               : TILESIM_WGMMA_OUTS(d)
               : "l"(da), "l"(db));
}
template <>
__device__ __forceinline__ void wgmma_m64n128k16<__nv_bfloat16>(float* d, std::uint64_t da,
                                                                std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " TILESIM_WGMMA_REGS
               ", %64, %65, 1, 1, 1, 0, 0;\n"
               : TILESIM_WGMMA_OUTS(d)
               : "l"(da), "l"(db));
}

// The same with N = 256 (128 accumulators a thread).
template <class T>
__device__ __forceinline__ void wgmma_m64n256k16(float* d, std::uint64_t da, std::uint64_t db);
#define TILESIM_WGMMA_REGS_256                                                                     \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, "    \
  "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, "     \
  "%38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, "     \
  "%56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, "     \
  "%74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "     \
  "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, " \
  "%109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, "     \
  "%124, %125, %126, %127}"
#define TILESIM_WGMMA_OUTS_256(d)                                                                 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),  \
      "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),  \
      "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),  \
      "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),  \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),  \
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),  \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),  \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),  \
      "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),  \
      "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),  \
      "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),          \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),         \
      "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),         \
      "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),         \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
template <>
__device__ __forceinline__ void wgmma_m64n256k16<__half>(float* d, std::uint64_t da,
                                                         std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " TILESIM_WGMMA_REGS_256
               ", %128, %129, 1, 1, 1, 0, 0;\n"
               : TILESIM_WGMMA_OUTS_256(d)
               : "l"(da), "l"(db));
}
template <>
__device__ __forceinline__ void wgmma_m64n256k16<__nv_bfloat16>(float* d, std::uint64_t da,
                                                                std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " TILESIM_WGMMA_REGS_256
               ", %128, %129, 1, 1, 1, 0, 0;\n"
               : TILESIM_WGMMA_OUTS_256(d)
               : "l"(da), "l"(db));
}
#endif  // __CUDA_ARCH_FEAT_SM90_ALL

inline PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    TILESIM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                        cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !p)
      throw CudaError("cuTensorMapEncodeTiled not found in the driver");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A row-major (rows, K) matrix, boxes of (box_rows, box_k) elements, 128-byte swizzle, zero fill.
inline CUtensorMap make_map(const void* p, sim::DType d, std::int64_t rows, std::int64_t k,
                            int box_rows, int box_k = 64) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(k * 2)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_k), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t elem[2] = {1, 1};
  const CUresult r = encode_fn()(
      &map,
      d == sim::DType::fp16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
      const_cast<void*>(p), dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError("cuTensorMapEncodeTiled failed: CUresult " +
                    std::to_string(static_cast<int>(r)));
  return map;
}

// The checks and the K % 8 padding every TMA rung shares, then typed(T{}, args) with T = __half or
// __nv_bfloat16 (the launch of the rung's kernel for that element type).
template <class Typed>
std::string launch_wgmma_checked(const LaunchArgs& a, Typed&& typed) {
  if (a.dtype == sim::DType::fp32) return "wgmma rung takes FP16 or BF16 inputs";
  if (!a.b_transposed) return "wgmma rung reads B^T (N, K), K-major";
  if (a.m > 0x7fffffff || a.n > 0x7fffffff) return "sizes exceed the tensor map's int coordinates";
  int dev = 0, major = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major != 9) return "wgmma and TMA need a Hopper GPU (compute capability 9.0, sm_90a code)";
  if (a.k % 8 == 0) {
    if (a.dtype == sim::DType::fp16)
      typed(__half{}, a);
    else
      typed(__nv_bfloat16{}, a);
    return "";
  }
  // TMA needs 16-byte row strides: when K % 8 != 0, A and B^T are first copied into zero-padded
  // (rows, K rounded up to 8) buffers on the same stream (this copy is part of the measured time).
  LaunchArgs p = a;
  p.k = (a.k + 7) / 8 * 8;
  // Stream-ordered scratch, freed on the same stream however this function leaves.
  const std::size_t pitch = p.k * 2, width = a.k * 2;
  const DeviceBuffer pa(pitch * a.m, a.stream), pb(pitch * a.n, a.stream);
  fail_point(testing::FailPoint::in_launch);
  TILESIM_CUDA_CHECK(cudaMemsetAsync(pa.p, 0, pitch * a.m, a.stream));
  TILESIM_CUDA_CHECK(cudaMemsetAsync(pb.p, 0, pitch * a.n, a.stream));
  TILESIM_CUDA_CHECK(
      cudaMemcpy2DAsync(pa.p, pitch, a.a, width, width, a.m, cudaMemcpyDeviceToDevice, a.stream));
  TILESIM_CUDA_CHECK(
      cudaMemcpy2DAsync(pb.p, pitch, a.b, width, width, a.n, cudaMemcpyDeviceToDevice, a.stream));
  p.a = pa.p;
  p.b = pb.p;
  if (a.dtype == sim::DType::fp16)
    typed(__half{}, p);
  else
    typed(__nv_bfloat16{}, p);
  return "";
}

}  // namespace
}  // namespace tilesim::kernels::detail
