// Occupancy: the smallest of the per-SM limits (shared memory, registers, threads, programs).
#include "sim/program/occupancy.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/base/enum_names.hpp"
#include "sim/compiler/triton_choices.hpp"
#include "sim/program/carveout.hpp"

namespace tilesim::sim {
namespace {

std::string kib(std::int64_t bytes) {
  char buf[32];
  if (bytes % 1024 == 0)
    std::snprintf(buf, sizeof buf, "%lld KiB", static_cast<long long>(bytes / 1024));
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return buf;
}

int clamp_int(std::int64_t v) {
  return static_cast<int>(std::min<std::int64_t>(v, 1 << 20));
}

}  // namespace

constexpr enum_names::Table<OccupancyLimit, 5> kLimitNames{
    {{OccupancyLimit::shared_memory, "shared memory"},
     {OccupancyLimit::registers, "registers"},
     {OccupancyLimit::threads, "threads"},
     {OccupancyLimit::programs, "programs per SM"},
     {OccupancyLimit::override_value, "override"}}};

std::string_view to_string(OccupancyLimit v) {
  return enum_names::name_of(kLimitNames, v);
}

Occupancy occupancy(const Problem& p, const Machine& m, std::optional<int> override_pps,
                    const TimingOptions& timing) {
  Occupancy o;
  bool scratch_is_larger = false;  // a Triton program's epilogue scratch sets its shared bytes
  const std::int64_t e = p.elem_bytes();
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  if (p.kernel() == Kernel::matmul) {
    // (BLOCK_M, BLOCK_K) A tile + (BLOCK_K, BLOCK_N) B tile per pipeline stage.
    o.smem_per_program = (bm * bk + bk * bn) * e * p.spec().stages;
    // fp32 accumulator (BLOCK_M, BLOCK_N), one register per element, + 32 per thread.
    o.registers_per_program = bm * bn + 32 * p.threads_per_program();
    if (timing.triton) {
      // Triton's program (sim/compiler): its shared buffers or its epilogue's scratch, and its
      // registers (an estimate of ptxas's count, spills included).
      const TritonChoices t = triton_choices(p, m);
      o.smem_per_program = triton_shared_bytes(p, t);
      scratch_is_larger = t.epilogue_scratch_bytes == o.smem_per_program;
      o.registers_per_program =
          p.threads_per_program() * std::int64_t{t.registers + t.spilled_registers};
    }
  } else {
    // Transpose stages its (BLOCK_M, BLOCK_N) tile once in shared memory; a copy moves it through
    // registers only (tl.load then tl.store: nothing to rearrange).
    o.smem_per_program = p.kernel() == Kernel::transpose ? bm * bn * e : 0;
    o.registers_per_program = (bm * bn * e + 3) / 4 + 32 * p.threads_per_program();
    if (timing.loads_in_flight > 0) {
      // An element loop (a CUDA rung) holds only its loads in flight, beside 24 registers of
      // pointers and tile coordinates (copy_tiled's ptxas count on sm_90), per thread.
      o.registers_per_program =
          p.threads_per_program() * (24 + (timing.loads_in_flight * load_width(timing, e) + 3) / 4);
    }
  }
  if (const int counted = counted_for(timing, p).registers_per_thread; counted > 0) {
    // A compiled kernel: ptxas's count, allocated per warp in units of 256 (8 per thread).
    o.registers_per_program = p.threads_per_program() * ((std::int64_t{counted} + 7) / 8 * 8);
  }
  o.threads_per_program = p.threads_per_program();
  // A thread holds at most kMaxRegistersPerThread registers: what it needs beyond that the
  // compiler spills to local memory (the dot's time pays for it: step_costs), and the program
  // is allocated that many per thread (in units of 8), not what it needed.
  const std::int64_t per_thread =
      (o.registers_per_program + o.threads_per_program - 1) / o.threads_per_program;
  if (per_thread > kMaxRegistersPerThread) {
    o.spilled_registers_per_thread = static_cast<int>(per_thread - kMaxRegistersPerThread);
    o.registers_per_program = o.threads_per_program * ((kMaxRegistersPerThread + 7) / 8 * 8);
  }
  if (o.smem_per_program > m.smem_per_block_bytes) {
    const bool matmul = p.kernel() == Kernel::matmul;
    // A Triton wgmma program whose epilogue scratch is the larger says so (sim/compiler).
    const std::string what =
        !matmul ? "its (BLOCK_M, BLOCK_N) tile"
        : scratch_is_larger
            ? "the epilogue's layout conversion of the (BLOCK_M, BLOCK_N) accumulator"
            : "A and B tiles x " + std::to_string(p.spec().stages) + " stages";
    throw InvalidField(matmul ? "stages" : "block_m",
                       "one program needs " + kib(o.smem_per_program) + " of shared memory (" +
                           what + ") but " + m.name + " allows " + kib(m.smem_per_block_bytes) +
                           " per program: use smaller blocks" + (matmul ? " or fewer stages" : ""));
  }
  // Every resident program also holds the driver's reserve (Machine::
  // smem_reserved_per_program_bytes), whether or not it uses shared memory itself.
  const std::int64_t smem_held = o.smem_per_program + m.smem_reserved_per_program_bytes;
  o.by_shared_memory = smem_held > 0 ? clamp_int(m.smem_per_sm_bytes / smem_held) : 1 << 20;
  o.by_registers = clamp_int(m.registers_per_sm / o.registers_per_program);
  o.by_threads = m.max_threads_per_sm / o.threads_per_program;
  o.by_programs = m.max_programs_per_sm;

  // Ties go to the first in this order (shared memory is what the curriculum discusses).
  o.programs_per_sm = o.by_shared_memory;
  o.limit = OccupancyLimit::shared_memory;
  const std::pair<int, OccupancyLimit> others[] = {{o.by_registers, OccupancyLimit::registers},
                                                   {o.by_threads, OccupancyLimit::threads},
                                                   {o.by_programs, OccupancyLimit::programs}};
  for (const auto& [n, lim] : others)
    if (n < o.programs_per_sm) o.programs_per_sm = n, o.limit = lim;
  // Even at the per-thread limit the program's registers exceed the SM's: it could not launch
  // (Triton's "out of resources"); the model keeps one program resident and says so.
  const bool too_many = o.programs_per_sm < 1;
  if (too_many) o.programs_per_sm = 1;
  const std::string n = std::to_string(o.programs_per_sm);
  if (too_many) {
    o.reason = "one program needs " + std::to_string(o.registers_per_program) +
               " registers, more than the SM's " + std::to_string(m.registers_per_sm) +
               ": it could not launch (modelled as 1 per SM)";
  } else {
    switch (o.limit) {
      case OccupancyLimit::shared_memory:
        // "2 × (96 KiB + 1 KiB the driver keeps)": the reserve is per program, so it sits inside
        // the product.
        o.reason = "limited by shared memory: " + n + " × " +
                   (m.smem_reserved_per_program_bytes > 0
                        ? "(" + kib(o.smem_per_program) + " + " +
                              kib(m.smem_reserved_per_program_bytes) + " the driver keeps)"
                        : kib(o.smem_per_program)) +
                   " ≤ " + kib(m.smem_per_sm_bytes);
        break;
      case OccupancyLimit::registers:
        o.reason = "limited by registers: " + n + " × " + std::to_string(o.registers_per_program) +
                   " ≤ " + std::to_string(m.registers_per_sm);
        break;
      case OccupancyLimit::threads:
        o.reason = "limited by threads: " + n + " × " + std::to_string(o.threads_per_program) +
                   " ≤ " + std::to_string(m.max_threads_per_sm);
        break;
      default:
        o.reason = "limited by resident programs per SM: " + n;
        break;
    }
  }
  if (o.spilled_registers_per_thread > 0)
    o.reason += "; each thread needs " +
                std::to_string(kMaxRegistersPerThread + o.spilled_registers_per_thread) +
                " registers, more than the " + std::to_string(kMaxRegistersPerThread) +
                " it may hold: the compiler spills " +
                std::to_string(o.spilled_registers_per_thread) + " to local memory";
  if (override_pps) {
    check_programs_per_sm(*override_pps);
    o.reason = "set by override: " + std::to_string(*override_pps) +
               " per SM (computed: " + o.reason + ")";
    o.programs_per_sm = *override_pps;
    o.limit = OccupancyLimit::override_value;
  }
  o.carveout_bytes = driver_carveout_bytes(m, o.smem_per_program, o.programs_per_sm);
  return o;
}

}  // namespace tilesim::sim
