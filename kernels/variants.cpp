// The ladder: every kernel variant and baseline, in the order tilesim-bench and the app list them.
// The registry: each variant is declared once here, with its tile (the constants its .cu file is
// instantiated with, from the rung's header) and its launcher. Shared by the CUDA build and the
// stub (no launchers there), so `tilesim-bench --list` works without a GPU.
#include <algorithm>

#include "kernels/baselines_cublas.hpp"
#include "kernels/copy.hpp"
#include "kernels/kernels.hpp"
#include "kernels/matmul_mma_sync.hpp"
#include "kernels/matmul_mma_sync_swizzled.hpp"
#include "kernels/matmul_register_blocked.hpp"
#include "kernels/matmul_simt.hpp"
#include "kernels/matmul_wgmma_tma.hpp"
#include "kernels/transpose.hpp"

namespace tilesim::kernels {
namespace {

using sim::DType;
using sim::Kernel;
const std::vector<DType> kAll{DType::fp32, DType::fp16, DType::bf16};
const std::vector<DType> kHalf{DType::fp16, DType::bf16};
const std::vector<DType> kF32{DType::fp32};

std::vector<Variant> make_variants() {
  std::vector<Variant> v;
  auto rung = [&](std::string name, Launcher launch, Kernel k, std::vector<DType> d,
                  std::string baseline, std::string teaches) -> Variant& {
    Variant x;
    x.name = std::move(name);
    x.launch = launch;
    x.kernel = k;
    x.dtypes = std::move(d);
    x.baseline = std::move(baseline);
    x.teaches = std::move(teaches);
    v.push_back(std::move(x));
    return v.back();
  };
  // copy
  rung("copy_tiled", TILESIM_LAUNCHER(launch_copy_tiled), Kernel::copy, kAll, "copy_memcpy_d2d",
       "seed 000: one program per BLOCK_M x BLOCK_N tile, offsets by broadcasting, masked at the "
       "edges; one element per access")
      .warp_model = sim::ThreadVariant::copy_tiled;
  rung("copy_vectorized", TILESIM_LAUNCHER(launch_copy_vectorized), Kernel::copy, kAll,
       "copy_memcpy_d2d", "the same tile moved in 16-byte accesses, four in flight per thread");
  rung("copy_memcpy_d2d", TILESIM_LAUNCHER(launch_copy_memcpy_d2d), Kernel::copy, kAll, "",
       "baseline: cudaMemcpyAsync device to device")
      .kind = VariantKind::baseline;
  // transpose
  rung("transpose_naive", TILESIM_LAUNCHER(launch_transpose_naive), Kernel::transpose, kAll,
       "copy_memcpy_d2d",
       "coalesced reads, but each warp's writes land 32 rows apart (uncoalesced)")
      .warp_model = sim::ThreadVariant::transpose_naive;
  rung("transpose_smem_tiled", TILESIM_LAUNCHER(launch_transpose_smem_tiled), Kernel::transpose,
       kAll, "copy_memcpy_d2d",
       "the tile goes through shared memory so reads and writes are both coalesced; reading "
       "its columns hits one bank 32 times")
      .warp_model = sim::ThreadVariant::transpose_smem_tiled;
  rung("transpose_smem_padded", TILESIM_LAUNCHER(launch_transpose_smem_padded), Kernel::transpose,
       kAll, "copy_memcpy_d2d",
       "one 4-byte word of padding per shared-memory row: the column reads fall in 32 banks")
      .warp_model = sim::ThreadVariant::transpose_smem_padded;
  rung("transpose_smem_padded_vectorized",
       TILESIM_LAUNCHER(launch_transpose_smem_padded_vectorized), Kernel::transpose, kAll,
       "copy_memcpy_d2d",
       "the padded tile with 16-byte global loads and stores (4 elements gathered down a tile "
       "column per store), as copy_vectorized moves memory");
  // matmul
  rung("matmul_naive", TILESIM_LAUNCHER(launch_matmul_naive), Kernel::matmul, kAll, "cublas_sgemm",
       "one thread per output element, every operand from global memory (through L1/L2)");
  rung("matmul_smem_tiled", TILESIM_LAUNCHER(launch_matmul_smem_tiled), Kernel::matmul, kAll,
       "cublas_sgemm",
       "the seeds' K loop: a (BLOCK_M, BLOCK_K) tile of A and a (BLOCK_K, BLOCK_N) tile of B "
       "staged in shared memory, each element then reused BLOCK_N (or BLOCK_M) times")
      .warp_model = sim::ThreadVariant::matmul_smem_tiled;
  auto& bt = rung("matmul_smem_tiled_b_transposed", TILESIM_LAUNCHER(launch_matmul_smem_tiled),
                  Kernel::matmul, kAll, "cublas_sgemm",
                  "seed 003's 'coalesced' variant: B stored as B^T (N, K); the K loop reads it "
                  "along K, and the transposing store into shared memory conflicts on banks");
  bt.b_layout = sim::BLayout::transposed;
  bt.warp_model = sim::ThreadVariant::matmul_smem_tiled;  // one model covers both B layouts
  auto& rb = rung("matmul_register_blocked", TILESIM_LAUNCHER(launch_matmul_register_blocked),
                  Kernel::matmul, kF32, "cublas_sgemm",
                  "each thread keeps an 8x8 block of C in registers and reuses every shared "
                  "memory load 8 times; shared tiles double-buffered, 16-byte loads");
  rb.fixed_tile = register_blocked::kTile;
  rb.b_layout = sim::BLayout::row_major;
  auto& rb16 =
      rung("matmul_register_blocked_bk16", TILESIM_LAUNCHER(launch_matmul_register_blocked_bk16),
           Kernel::matmul, kF32, "cublas_sgemm",
           "the same with K steps of 16: half the barriers per FMA, more registers");
  rb16.fixed_tile = register_blocked::kTileBk16;
  rb16.b_layout = sim::BLayout::row_major;
  auto& mma = rung("matmul_mma_sync", TILESIM_LAUNCHER(launch_matmul_mma_sync), Kernel::matmul,
                   kHalf, "cublas_gemmex",
                   "tensor cores through mma.sync m16n8k16 (FP32 accumulation); ldmatrix from "
                   "padded shared memory fed by a 4-stage cp.async pipeline");
  mma.fixed_tile = mma_sync::kTile;
  mma.b_layout = sim::BLayout::row_major;
  mma.min_cc = 80;
  auto& mma64 = rung("matmul_mma_sync_bk64", TILESIM_LAUNCHER(launch_matmul_mma_sync_bk64),
                     Kernel::matmul, kHalf, "cublas_gemmex",
                     "the same with K steps of 64 in 3 stages: twice the tensor-core work between "
                     "barriers");
  mma64.fixed_tile = mma_sync::kTileBk64;
  mma64.b_layout = sim::BLayout::row_major;
  mma64.min_cc = 80;
  auto& mma_wide = rung("matmul_mma_sync_128x256", TILESIM_LAUNCHER(launch_matmul_mma_sync_128x256),
                        Kernel::matmul, kHalf, "cublas_gemmex",
                        "the same with a 128 x 256 tile and 64 x 64 warp tiles: fewer ldmatrix per "
                        "mma and half the A traffic per output, at 128 accumulators per thread");
  mma_wide.fixed_tile = mma_sync::kTile128x256;
  mma_wide.b_layout = sim::BLayout::row_major;
  mma_wide.min_cc = 80;
  auto& mma64w =
      rung("matmul_mma_sync_warp64", TILESIM_LAUNCHER(launch_matmul_mma_sync_warp64),
           Kernel::matmul, kHalf, "cublas_gemmex",
           "4 warps with 64 x 64 warp tiles (8 ldmatrix feed 32 mma) and two fragment "
           "register sets: the next k16 step's ldmatrix is issued before this step's mma");
  mma64w.fixed_tile = mma_sync::kTileWarp64;
  mma64w.b_layout = sim::BLayout::row_major;
  mma64w.min_cc = 80;
  auto& mma_swz =
      rung("matmul_mma_sync_swizzled", TILESIM_LAUNCHER(launch_matmul_mma_sync_swizzled),
           Kernel::matmul, kHalf, "cublas_gemmex",
           "128 x 256 tile, 8 warps of 64 x 64: XOR-swizzled (unpadded) shared tiles so "
           "cp.async and ldmatrix are conflict-free, 32-bit shared offsets per thread, C "
           "stored through shared memory as 16-byte rows");
  mma_swz.fixed_tile = mma_sync_swizzled::kTile;
  mma_swz.b_layout = sim::BLayout::row_major;
  mma_swz.min_cc = 80;
  auto& wg = rung("matmul_wgmma_tma", TILESIM_LAUNCHER(launch_matmul_wgmma_tma), Kernel::matmul,
                  kHalf, "cublas_gemmex",
                  "Hopper: a producer warpgroup issues TMA bulk tensor copies into 128-byte "
                  "swizzled shared memory, two consumer warpgroups run wgmma from it; a 4-stage "
                  "K loop on full/empty mbarriers");
  wg.fixed_tile = wgmma_tma::kTile;
  wg.b_layout = sim::BLayout::transposed;  // K-major B, as wgmma reads it without transposing
  wg.min_cc = 90;
  auto& wgs = rung("matmul_wgmma_tma_store", TILESIM_LAUNCHER(launch_matmul_wgmma_tma_store),
                   Kernel::matmul, kHalf, "cublas_gemmex",
                   "the same K loop; C is staged in 128-byte swizzled shared memory and leaves "
                   "through TMA bulk tensor stores instead of 4-byte stores from registers");
  wgs.fixed_tile = wgmma_tma::kTile;
  wgs.b_layout = sim::BLayout::transposed;
  wgs.min_cc = 90;
  rung("cublas_sgemm", TILESIM_LAUNCHER(launch_cublas_sgemm), Kernel::matmul, kF32, "",
       "baseline: cuBLAS SGEMM, strict FP32")
      .kind = VariantKind::baseline;
  rung("cublas_tf32", TILESIM_LAUNCHER(launch_cublas_tf32), Kernel::matmul, kF32, "cublas_sgemm",
       "baseline: cuBLAS SGEMM with TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)")
      .kind = VariantKind::baseline;
  rung("cublas_gemmex", TILESIM_LAUNCHER(launch_cublas_gemmex), Kernel::matmul, kHalf, "",
       "baseline: cuBLAS GemmEx, FP16/BF16 inputs and output, FP32 accumulation")
      .kind = VariantKind::baseline;
  for (auto& x : v)
    if (x.kind == VariantKind::baseline && !x.baseline.empty() && x.name != "cublas_tf32")
      x.baseline.clear();
  return v;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = make_variants();
  return v;
}

const Variant* find_variant(std::string_view name) {
  const auto& v = variants();
  const auto it =
      std::find_if(v.begin(), v.end(), [&](const Variant& x) { return x.name == name; });
  return it == v.end() ? nullptr : &*it;
}

bool is_modelled_by(std::string_view name, sim::ThreadVariant model) {
  const Variant* v = find_variant(name);
  return v && v->warp_model == model;
}

std::string baseline_for(const Variant& v, sim::DType dtype) {
  if (v.kernel != sim::Kernel::matmul || v.baseline.empty()) return v.baseline;
  return dtype == sim::DType::fp32 ? "cublas_sgemm" : "cublas_gemmex";
}

}  // namespace tilesim::kernels
