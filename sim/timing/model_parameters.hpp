// The parameter table's rows that are not per preset: each per-rung TimingOptions field (its
// default here; each rung's own value is in kernels/variants.cpp) and each named constant of the
// step costs and of the DRAM's read share, with unit, kind and evidence. The Machine rows and
// the row types are sim/machine/parameters.hpp's.
#pragma once

#include <span>

#include "sim/machine/parameters.hpp"

namespace tilesim::sim {

// TimingOptions' fields (sim/timing/step_costs.hpp), in the struct's order.
std::span<const ModelParameter> rung_parameters();
// The named constants of sim/timing/step_costs.hpp and sim/memory/dram_reads.hpp.
std::span<const ModelParameter> model_constants();

}  // namespace tilesim::sim
