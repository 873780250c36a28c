// A rung as the timed engine sees it (see rung_timing.hpp).
#include "kernels/rung_timing.hpp"

#include <algorithm>
#include <cstdint>

#include "kernels/launcher.hpp"
#include "sim/program/problem.hpp"
#include "sim/timing/step_costs.hpp"

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
  if (v.kernel != sim::Kernel::matmul && d.options.loads_in_flight > 0) {
    // A copy's or transpose's block has a thread per access of its tile, up to 256
    // (element_loop_threads, as its launcher runs it): fewer at small tiles and wide accesses.
    const sim::Problem p(r.spec);
    const std::int64_t width = sim::load_width(d.options, p.elem_bytes());
    const int accesses = static_cast<int>(p.block_m() * p.block_n() * p.elem_bytes() / width);
    const bool smem_scalar = v.kernel == sim::Kernel::transpose && width == p.elem_bytes();
    const int bm = static_cast<int>(p.block_m()), bn = static_cast<int>(p.block_n());
    const int threads = element_loop_threads(accesses, smem_scalar ? std::max({32, bm, bn}) : 32);
    r.spec.num_warps = (threads + 31) / 32;
  }
  if (d.stages) r.spec.stages = *d.stages;
  // The rung's own thread-level model: step_costs takes from it an FMA rung's shared-load
  // instructions per K step and a plain (conflicting) layout's degree (a padded rung, whose
  // layout is swizzled, stays conflict-free there).
  r.timing.variant = v.warp_model;
  return r;
}

}  // namespace tilesim::kernels
