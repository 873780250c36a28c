// Carveout: how much of an SM's unified L1 and shared memory the driver gives shared memory at a
// launch. Teaches: the L1 is what is left, so a program's shared memory decides whether the
// values it spills stay in the L1 (reloaded in about 35 cycles) or go to the L2 (260 or more).
#pragma once

#include <array>
#include <cstdint>

#include "sim/machine/machine.hpp"

namespace tilesim::sim {

// The configurations the hardware offers, KiB of shared memory an SM (CUDA C++ Programming
// Guide, compute capabilities 8.0 and 9.0: 0, 8, 16, 32, 64, 100, 132, 164, 196 and 228; a
// machine offers those up to its smem_per_sm_bytes, and that maximum itself).
inline constexpr std::array<int, 10> kCarveoutsKiB = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

// Dynamic shared memory a kernel may use without opting in (cudaFuncAttributeMaxDynamicShared-
// MemorySize). Triton's launcher opts in above it, asking for the largest size and preferring
// shared memory, and the driver then carves the most it can.
inline constexpr std::int64_t kDefaultDynamicSmemBytes = 48 << 10;

// Below the opt-in the driver does not pick the smallest carveout that holds the resident
// programs: at two or more it asks room for twice them, but never more than this (KiB), unless
// they need more themselves. Measured, not fitted: kernels/probes/carveout.cu under Nsight Compute
// on an H200 (driver 580.159.04, 2026-11-29), all 169 launches of 0.5-48 KiB a program at 1-16
// programs an SM (registers or threads limiting), every one as this rule says; and the 26 Triton
// loops of assets/measured/ncu_spill_fit_h200.csv (25 as it says from ncu's shared bytes; the 26th
// is resident 3 an SM where the register estimate gives 2; from the model's shared bytes 24:
// 256 x 128 x 32 at 4 warps allocates less than its epilogue scratch rule says).
// assets/measured/carveout_probe_h200.csv. The launches pin the cap to 101..132 KiB: any cap in
// that range reproduces all 208; 132 is the configuration they land on.
inline constexpr int kCarveoutHeadroomCapKiB = 132;

// The carveout in bytes for programs of `smem_per_program` bytes of shared memory each (the
// driver's reserve not included), `programs_per_sm` of them resident.
std::int64_t driver_carveout_bytes(const Machine& m, std::int64_t smem_per_program,
                                   int programs_per_sm);

}  // namespace tilesim::sim
