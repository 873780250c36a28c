// Occupancy: how many programs (thread blocks) one SM holds at once, and what limits it.
// Teaches: a program's shared memory is its A and B tiles times the pipeline stages, so bigger
// blocks or deeper pipelines mean fewer resident programs and a smaller wave.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::sim {

enum class OccupancyLimit { shared_memory, registers, threads, programs, override_value };
std::string_view to_string(OccupancyLimit v);

// The model of one program's resources. Triton's default num_warps = 4 -> 128 threads.
inline constexpr int kThreadsPerProgram = 128;  // threads of a default program (num_warps 4)

struct Occupancy {
  int programs_per_sm = 1;  // what the engine uses
  OccupancyLimit limit = OccupancyLimit::shared_memory;
  std::int64_t smem_per_program = 0;       // bytes: matmul (BM*BK + BK*BN) * elem * stages,
                                           //        transpose BM*BN*elem, copy 0
  std::int64_t registers_per_program = 0;  // 32-bit registers (accumulator + per-thread base),
                                           // at most kMaxRegistersPerThread per thread
  int spilled_registers_per_thread = 0;    // what a thread needs beyond that limit
  int threads_per_program = kThreadsPerProgram;
  // Programs per SM each limit alone would allow.
  int by_shared_memory = 0, by_registers = 0, by_threads = 0, by_programs = 0;
  // The shared memory the driver carves out of the SM's L1 for this launch (sim/program/carveout),
  // for programs_per_sm resident (an override's count too); the L1 keeps Machine::l1_smem_bytes
  // less it. The rule is measured for launches as Triton makes them on sm_90 (an H200); a CUDA
  // rung that opts in without preferring shared memory, sm_80, or the T4's 32 / 64 KiB are not.
  std::int64_t carveout_bytes = 0;
  std::string reason;  // "limited by shared memory: 2 x 96 KiB <= 228 KiB"
};

// Programs per SM for `p` on `m`; `override_programs_per_sm` replaces the computed value (the
// reason then says so). Throws InvalidField("stages") when one program's shared memory exceeds
// the machine's per-program limit (the kernel would not launch). `timing` describes a CUDA rung:
// a copy or transpose whose threads keep `loads_in_flight` loads hold only those in registers.
Occupancy occupancy(const Problem& p, const Machine& m,
                    std::optional<int> override_programs_per_sm = std::nullopt,
                    const TimingOptions& timing = {});

}  // namespace tilesim::sim
