// tilesim::kernels: the simulator's tile programs run for real on a CUDA GPU, checked and timed.
// Teaches: the same Problem (sizes, blocks, launch order, GROUP_SIZE_M) that the simulator replays
// runs as a CUDA kernel whose blocks take (pid_m, pid_n) from sim::tile_of; its time, throughput
// and error sit beside a library baseline (cudaMemcpy, cuBLAS) measured in the same run.
// Plain C++ only: no CUDA type crosses this header. A build without CUDA links and says "not
// built".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launcher.hpp"
#include "kernels/run_types.hpp"
#include "sim/launch_order.hpp"
#include "sim/problem.hpp"
#include "sim/warp_access.hpp"

namespace tilesim::kernels {

// Was the library compiled with CUDA? (false: every run answers "not built").
bool cuda_built();

DeviceInfo query_device();

// What a variant is: a rung of a family's ladder or a library baseline.
enum class VariantKind { rung, baseline };

struct Variant {
  std::string name;    // "matmul_mma_sync"
  sim::Kernel kernel;  // the family it belongs to
  VariantKind kind = VariantKind::rung;
  std::vector<sim::DType> dtypes;  // element types it runs
  // Tiles: nullopt when the kernel uses the problem's BLOCK_M/N/K; else its own compile-time tile
  // (the constants its .cu file is instantiated with), which the launch order and GROUP_SIZE_M
  // then apply to.
  std::optional<FixedTile> fixed_tile;
  bool uses_problem_blocks() const { return !fixed_tile; }
  // Matmul: the B layout the variant reads. nullopt: the problem's b_layout.
  std::optional<sim::BLayout> b_layout;
  std::string baseline;     // the baseline its % is taken against ("cublas_sgemm"); "" if none
  int min_cc = 0;           // e.g. 80 for mma.sync bf16, 90 for wgmma
  bool implemented = true;  // false: listed honestly as missing (see `teaches`)
  std::string teaches;      // one line: what this version shows
  // The simulator's thread-level model of this kernel (sim/warp_access.hpp), if it has one.
  std::optional<sim::ThreadVariant> warp_model;
  Launcher launch = nullptr;  // nullptr in a build without CUDA
};
// Every variant, in ladder order (copy, transpose, matmul; rungs then baselines).
const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name);
// Whether the simulator's thread model `model` describes the variant called `name` (the registry's
// warp_model: matmul_smem_tiled_b_transposed is modelled by matmul_smem_tiled, for instance).
bool is_modelled_by(std::string_view name, sim::ThreadVariant model);
// The baseline a variant's % of baseline uses for this dtype ("cublas_gemmex" for fp16/bf16).
std::string baseline_for(const Variant& v, sim::DType dtype);

// Runs one variant on one problem: fresh random inputs, output poisoned (NaN bytes), one checked
// launch, then warm-up and timed launches. Never throws; failures land in RunResult::error.
RunResult run(const sim::Problem& problem, std::string_view variant,
              const RunOptions& options = {});

// The device's own pid -> (pid_m, pid_n): a kernel of g.programs() blocks, each writing what the
// kernels' __device__ tile_of returned for its blockIdx.x. nullopt (and `why`) without a device.
std::optional<std::vector<sim::TileCoord>> device_launch_mapping(sim::LaunchOrder order,
                                                                 const sim::GridShape& g,
                                                                 std::string* why = nullptr);

}  // namespace tilesim::kernels
