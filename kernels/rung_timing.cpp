// A rung as the timed engine sees it (see rung_timing.hpp).
#include "kernels/rung_timing.hpp"

namespace tilesim::kernels {

sim::ProblemSpec as_run_by(const Variant& v, sim::ProblemSpec spec) {
  if (v.fixed_tile) {
    spec.block_m = v.fixed_tile->block_m;
    spec.block_n = v.fixed_tile->block_n;
    spec.block_k = v.fixed_tile->block_k;
  }
  if (v.b_layout) spec.b_layout = *v.b_layout;
  if (spec.kernel != sim::Kernel::matmul) spec.b_layout = sim::BLayout::row_major;
  return spec;
}

std::optional<RungTiming> rung_timing(const Variant& v, const sim::ProblemSpec& spec) {
  if (!v.timing) return std::nullopt;
  const TimingDescription& d = *v.timing;
  RungTiming r{as_run_by(v, spec), d.options};
  if (d.num_warps) r.spec.num_warps = *d.num_warps;
  if (d.stages) r.spec.stages = *d.stages;
  // The rung's own thread-level model: step_costs takes from it an FMA rung's shared-load
  // instructions per K step and a plain (conflicting) layout's degree (a padded rung, whose
  // layout is swizzled, stays conflict-free there).
  r.timing.variant = v.warp_model;
  return r;
}

}  // namespace tilesim::kernels
