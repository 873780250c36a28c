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
#include "sim/program/problem.hpp"
#include "sim/timing/step_costs.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::kernels {

// What a variant is: a rung of a family's ladder or a library baseline.
enum class VariantKind { rung, baseline };

// How the timed engine describes a rung's code: the problem fields its code fixes (warps, stages;
// unset: the problem's own) and the engine's options for it (sim::TimingOptions: math path, shared
// layout, loads in flight, the figures ncu counted; rung_timing adds the warp model).
struct TimingDescription {
  std::optional<int> num_warps;  // the kernel's threads per block / 32
  std::optional<int> stages;     // its shared-memory pipeline depth
  sim::TimingOptions options;
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
  // The simulator's thread-level model of this kernel (sim/warps/warp_access.hpp), if it has one.
  std::optional<sim::ThreadVariant> warp_model;
  // How the timed engine describes it; nullopt where the tile model cannot (naive kernels
  // without tiles, cuBLAS, whose code is not ours).
  std::optional<TimingDescription> timing;
  // Run by tilesim-bench --sweep only (its own correctness sweep over its configurations): the
  // ladders skip it, since their problems' blocks need not be among its instantiations.
  bool sweep_only = false;
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
