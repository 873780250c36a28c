// A rung as the timed engine sees it: the problem as the rung runs it (its compile-time tile and
// B layout, as kernels::run applies them) with its warps and stages, and the timing options that
// describe its code (math path, shared-memory layout). One function for the CLI's --variant, the
// GPU panel's per-rung predictions and the time fit (scripts/fit_timing.py, through the CLI).
#pragma once

#include <optional>

#include "kernels/variants.hpp"
#include "sim/program/problem.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::kernels {

// `spec` as `v` runs it: its fixed tile replaces BLOCK_M/N/K, its B layout the problem's (a copy
// or transpose has none: row-major). What kernels::run measures and a bench record holds.
sim::ProblemSpec as_run_by(const Variant& v, sim::ProblemSpec spec);

struct RungTiming {
  sim::ProblemSpec spec;      // as_run_by, with the description's num_warps and stages
  sim::TimingOptions timing;  // the description's math path and shared-memory layout
};
// nullopt when the timed engine has no description of `v` (naive kernels, cuBLAS).
std::optional<RungTiming> rung_timing(const Variant& v, const sim::ProblemSpec& spec);

}  // namespace tilesim::kernels
