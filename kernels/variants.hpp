// The variant registry (variants.cpp): every rung and baseline, its tile, B layout and how the
// timed engine describes its code. Plain data, CUDA-free (its own target, tilesim_kernel_registry)
// so that tilesim-cli can describe a rung without linking CUDA; the launchers are in launchers.cpp.
// Teaches: two rungs on the same problem differ in what their code fixes — tile, warps, pipeline
// stages, the dot's hardware path, the shared-memory layout — and the model sees exactly those.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launcher.hpp"
#include "sim/problem.hpp"
#include "sim/step_costs.hpp"
#include "sim/warp_access.hpp"

namespace tilesim::kernels {

// What a variant is: a rung of a family's ladder or a library baseline.
enum class VariantKind { rung, baseline };

// How the timed engine describes a rung's code (sim::TimingOptions, sim::ProblemSpec's num_warps
// and stages). Unset: the problem's own value, or the path / layout Triton would take.
struct TimingDescription {
  std::optional<sim::MathPath> path;
  std::optional<sim::SmemLayout> layout;
  std::optional<int> num_warps;  // the kernel's threads per block / 32
  std::optional<int> stages;     // its shared-memory pipeline depth
  // Copy/transpose: global loads a thread keeps in flight and their width in bytes (0: one
  // element); 0 loads: the whole tile at once.
  int loads_in_flight = 0;
  int load_bytes = 0;
  // Matmul: warp instructions per warp per K step of the compiled loop (ncu smsp__inst_executed
  // at 2048^3 and 8192^3 on an H100, split into per-K-step and per-warp parts; 0: not counted).
  double warp_instructions = 0;
  // mma.sync: the next k16 step's fragments are loaded before this step's mma (two register sets).
  bool fragments_double_buffered = false;
  // Registers per thread of the compiled kernel (ncu launch__registers_per_thread, sm_90, nvcc
  // 13.0); they decide how many programs an SM holds. 0: the model's estimate.
  int registers_per_thread = 0;
  bool operator==(const TimingDescription&) const = default;
};

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
  // How the timed engine describes it; nullopt where the tile model cannot (naive kernels
  // without tiles, cuBLAS, whose code is not ours).
  std::optional<TimingDescription> timing;
};
// Every variant, in ladder order (copy, transpose, matmul; rungs then baselines).
const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name);
// Whether the simulator's thread model `model` describes the variant called `name` (the registry's
// warp_model: matmul_smem_tiled_b_transposed is modelled by matmul_smem_tiled, for instance).
bool is_modelled_by(std::string_view name, sim::ThreadVariant model);
// The baseline a variant's % of baseline uses for this dtype ("cublas_gemmex" for fp16/bf16).
std::string baseline_for(const Variant& v, sim::DType dtype);

}  // namespace tilesim::kernels
