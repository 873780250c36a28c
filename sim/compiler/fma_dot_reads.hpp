// What a Triton FMA dot's operand reads from shared memory cost (FmaDotReads): the micro-tile
// from Triton's accumulator layout, each operand's 16-byte ld.shared and their wavefronts, bank
// conflicts included, served in passes: a 16-byte load half a warp a pass on sm_80+, 8 lanes a
// pass on compute capability 7.x.
#pragma once

#include "sim/compiler/triton_choices.hpp"

namespace tilesim::sim {

// `b_k_major`: B's shared tile is K-contiguous. `wide_loads_in_passes`:
// Machine::smem_wide_loads_in_passes.
FmaDotReads fma_dot_reads(const Problem& p, bool b_k_major, bool wide_loads_in_passes);

}  // namespace tilesim::sim
