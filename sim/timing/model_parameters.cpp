// The per-rung and constant rows of the parameter table. Each value is formatted from the field's
// default (a TimingOptions{}) or from the named constant itself, never typed here.
#include "sim/timing/model_parameters.hpp"

#include <type_traits>

#include "sim/memory/dram_reads.hpp"
#include "sim/program/carveout.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::sim {
namespace {

using K = ParameterKind;
using G = ParameterGroup;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

// A default as the table shows it: "unset" for an empty optional, else the number or flag.
template <class T>
std::string shown(const T& v) {
  if constexpr (IsOptional<T>::value)
    return v ? std::string("set") : std::string("unset");
  else if constexpr (std::is_same_v<T, bool>)
    return format_value({v ? 1.0 : 0.0, true, false});
  else
    return format_value({static_cast<double>(v), false, std::is_integral_v<T>});
}

// The field's name and its default from one token.
#define TILESIM_OPTION(f) #f, shown(TimingOptions{}.f)
#define TILESIM_CONSTANT(c) #c, shown(c)

const std::string kVariants = "kernels/variants.cpp";
const std::string kOptions = "sim/timing/step_costs.hpp";
const std::string kCompiler = "sim/compiler/triton_choices.hpp";
const std::string kProgram = "sim/program/carveout.hpp";
const std::string kStagedLoopFit =
    "least squares over ncu's smsp__inst_executed per warp and K step of the supplement's 19 "
    "register-staged matmul loops without spills (fit set, H100, Triton 3.6; 2- and 16-byte "
    "loads, 2 to 80 accesses a thread: PTX's global loads a thread; "
    "assets/measured/triton_supplement_h100.json): 44.6 + 4.05 an access, residuals within 19 "
    "instructions";
const std::string kSpillCensusFit =
    "least mean |error| over a grid of eighths on the SASS census's fit set: the 27 of its 34 "
    "blocks x warps below 256 accesses a thread (the tutorial matmul at 4095^3 fp16, each main "
    "loop's 32-bit LDL and LDL.LU counted; assets/measured/triton_spill_census_h200.jsonl; "
    "docs/TRITON_SPLIT.md, version 3): mean error 22 local loads a thread a K step over the 34 "
    "(fit) and 8.5 over the 20 held out";
const std::string kRegisterFit =
    "least squares over ptxas's counts of the fit set's 300-odd matmuls (Triton 3.6, "
    "assets/measured/triton_h100.json; docs/TRITON_SPLIT.md): mean error 9.9 % fit, 10.3 % test; "
    "tests/scenario/triton_choices_test.cpp";

const std::string kEpilogueRegisterFit =
    "least squares over ptxas's counts (spilled bytes / 4 added) of the fit-only supplement of "
    "docs/TRITON_SPLIT.md version 14: the tutorial at 3072 x 3076 x 3072 (one-element stores) and "
    "3072 x 3088 x 3072 (16-byte stores), B transposed, fp16 and tf32, 40 launches (assets/"
    "measured/triton_supplement14_h200.json); tests/scenario/triton_choices_test.cpp";

ModelParameter option(std::string name, std::string value, std::string unit, std::string meaning,
                      K kind, std::string source) {
  return {std::move(name),  kVariants, std::move(unit),  G::timing, std::move(meaning),
          std::move(value), kind,      std::move(source)};
}

ModelParameter constant(std::string name, std::string value, std::string where, std::string unit,
                        G group, std::string meaning, K kind, std::string source) {
  return {std::move(name),
          std::move(where),
          std::move(unit),
          group,
          std::move(meaning),
          std::move(value),
          kind,
          std::move(source)};
}

}  // namespace

std::span<const ModelParameter> rung_parameters() {
  static const std::vector<ModelParameter> kRows{
      option(TILESIM_OPTION(path), "fma | mma.sync | wgmma",
             "the dot's hardware path (unset: the one Triton would take)", K::code,
             "the rung's code (its mma instructions)"),
      option(TILESIM_OPTION(layout), "swizzled | plain",
             "the shared-memory layout (unset: swizzled for tensor cores, plain otherwise)",
             K::code, "the rung's code (padding, swizzle)"),
      option(TILESIM_OPTION(variant), "warp model",
             "the warp model whose conflicts and shared loads a plain layout takes", K::code,
             "the rung's code, mirrored by sim/warps/warp_access; its counts match ncu exactly "
             "(docs/FIDELITY.md, warps table)"),
      option(TILESIM_OPTION(loads_in_flight), "loads/thread",
             "copy and transpose: global loads a thread keeps in flight (0: the whole tile at "
             "once, as Triton's tl.load)",
             K::code,
             "the rungs' SASS (sm_90): each element-loop iteration is LDG, its STG or STS, then "
             "the loop's exit branch"),
      option(TILESIM_OPTION(load_bytes), "bytes",
             "copy and transpose: the width of one such load (0: one element)", K::code,
             "the rung's code (LDG.128 for the vectorized rungs)"),
      option(TILESIM_OPTION(program_warp_instructions), "warp instructions/program",
             "copy and transpose: a warp's instructions per program outside its loads", K::measured,
             "ncu's instruction counts at three tiles on an H100, split per program and per load "
             "(assets/measured/element_loops_h100.csv; tests/kernels/rung_instructions_test.cpp)"),
      option(TILESIM_OPTION(load_warp_instructions), "warp instructions/load",
             "copy and transpose: a warp's instructions per global load of its thread", K::measured,
             "the same split (assets/measured/element_loops_h100.csv)"),
      option(TILESIM_OPTION(warp_instructions), "warp instructions/K step",
             "matmul: a warp's instructions per K step (0: an FMA dot counts its FFMA and shared "
             "loads; a tensor-core dot has no issue limit)",
             K::measured,
             "ncu smsp__inst_executed at 2048^3 and 8192^3 on an H100, split per K step and per "
             "warp; predicts 4096^3 to the instruction (assets/measured/instructions_h100.csv)"),
      option(TILESIM_OPTION(triton), "flag",
             "the kernel is a Triton program: its compiler's choices (sim/compiler) set the "
             "loads' widths and costs, the pipeline depth and the registers",
             K::code, "false for every CUDA rung's description (kernels/variants.cpp)"),
      option(TILESIM_OPTION(fragments_double_buffered), "flag",
             "mma.sync: the next k16 step's ldmatrix is issued before this step's mma, so operand "
             "reads overlap the math",
             K::code, "the rung's code (matmul_mma_sync_warp64, _swizzled)"),
      option(TILESIM_OPTION(registers_per_thread), "registers",
             "registers per thread as ptxas allocates them: occupancy (0: accumulator + "
             "kBaseRegisters)",
             K::measured,
             "ncu launch__registers_per_thread (assets/measured/instructions_h100.csv)"),
      option(TILESIM_OPTION(warp_issue_cycles), "cycles",
             "matmul: a warp's own issue interval where its dependences set its pace (0: the "
             "machine's warp_issue_cycles)",
             K::measured,
             "ncu at 2048^3 on an H100: warps per scheduler / issue rate (assets/measured/"
             "instructions_h100.csv, warp_stalls_h100.csv)"),
      option(TILESIM_OPTION(counted_at), "tile, warps, stages",
             "where the counted figures were measured; elsewhere the model's estimates stand in",
             K::code, "the tile, warps and stages the rung compiles in (kernels/*.hpp kTile)"),
  };
  return kRows;
}

std::span<const ModelParameter> model_constants() {
  static const std::vector<ModelParameter> kRows{
      constant(TILESIM_CONSTANT(kMaxRegistersPerThread), kOptions, "registers", G::sheet,
               "a thread's register limit: accumulators past it spill", K::datasheet,
               "CUDA C++ Programming Guide, compute capabilities (255 registers per thread)"),
      constant(TILESIM_CONSTANT(kBaseRegisters), kOptions, "registers", G::timing,
               "registers a thread needs besides its accumulator (the occupancy estimate of a "
               "problem without a counted figure; sim/program/occupancy.cpp restates it)",
               K::assumed, "an estimate (pointers, offsets, loop state, fragments)"),
      constant(TILESIM_CONSTANT(kLoopOverheadCycles), kOptions, "pipeline cycles", G::timing,
               "fixed cost of one K-iteration: the barrier between stages, the pointer advance, "
               "the wait for the stage's copies",
               K::assumed,
               "an estimate; it is what makes 32 x 32 tiles slow on any GPU (seed 001's chart)"),
      constant(TILESIM_CONSTANT(kSpillBytesPerRegister), kOptions, "bytes/register/K step",
               G::memory, "a spilled register is stored and loaded once per K-iteration",
               K::assumed, "a modelling choice: 4 bytes each way through the L1"),
      constant(TILESIM_CONSTANT(kSpillReloadBytesPerWarpCycle), kOptions, "bytes/cycle/warp",
               G::memory,
               "spilled wgmma accumulator fragments, stored and reloaded every K step through "
               "the L2 (Triton programs)",
               K::fitted,
               "the fit set's three spilling wgmma matmuls on the H100 (docs/TRITON_SPLIT.md): "
               "least mean |error| over 4, 4.5 and 5: 9.0, 3.0, 7.5 %; the L2 "
               "traffic is ncu's (hit rate 68 -> 96 %, assets/measured/triton_h100.json)"),
      constant(TILESIM_CONSTANT(kSpillReloadsInFlight), kOptions, "loads", G::memory,
               "a register-staged wgmma loop's in-loop local loads (spilled offsets) in flight at "
               "a time, each a round trip (to the L1 or the L2) before the loads it addresses go "
               "out",
               K::fitted,
               "the supplements' spilling staged loops at 3001^3 (fit set: version 2's on the "
               "H100, version 3's on the H200; docs/TRITON_SPLIT.md): least mean |time error| "
               "over 1.25, 1.5, 1.67 and 1.75: 23.5, 19.3, 20.0 and 20.5 % (35 loops); chosen "
               "again at version 8 (L1 hits priced), 38 loops (every supplement loop whose census "
               "count is above zero; how the first fit's 35 were selected is not recorded) over "
               "1, 1.25, 1.5, 1.75 and 2: 32.5, 20.1, 17.3, 19.2 and 22.1 %. The machine code "
               "agrees: eight spilling loops at 4095^3 wait for 1.16-2.27 local loads at a time, "
               "median 1.44 (their SASS read in program order by scripts/triton/staged_sass.py, "
               "assets/measured/triton_spill_waits_h200.csv)"),
      constant(TILESIM_CONSTANT(kLocalL1ResidentHitShare), kOptions, "of reloads", G::memory,
               "a register-staged wgmma loop's reloads that hit the L1 where its local lines "
               "and a K step's tiles fit in the L1 the carveout leaves",
               K::measured,
               "ncu's local-load L1 hit rate on the fit set's three spilling loops with 156-192 "
               "KiB of L1 (assets/measured/ncu_spill_fit_h200.csv: 70.1, 79.0, 82.8 %), their "
               "mean; loops with less L1 than their lines need hit at most 11 %"),
      constant(TILESIM_CONSTANT(kCarveoutHeadroomCapKiB), kProgram, "KiB", G::memory,
               "the driver's carveout: at two or more resident programs it asks room for twice "
               "them, up to this",
               K::measured,
               "kernels/probes/carveout.cu under ncu on an H200 (driver 580.159.04; "
               "assets/measured/carveout_probe_h200.csv): all 169 launches at or under 48 KiB "
               "a block as the rule says (tests/sim/carveout_test.cpp; any cap in 101-132 KiB "
               "would), and 25 of the 26 Triton loops of assets/measured/ncu_spill_fit_h200.csv "
               "from ncu's shared bytes (24 from the model's)"),
      constant(TILESIM_CONSTANT(kMidSectorLineCycles), kOptions, "cycles", G::memory,
               "L1/shared pipe cycles an element-wise cp.async (narrower than 16 bytes) spends on "
               "each line a warp access touches beyond what rows that start on a line would",
               K::fitted,
               "the sweep's twelve fit configurations with 4-byte cp.async from rows that start "
               "off a line (docs/TRITON_SPLIT.md, versions 5-7): least mean |time error| over 1, "
               "1.5 and 2: 10.10, 8.63, 8.83 % (version 5: 14.52 % without); not charged beside "
               "an FMA dot (version 7); the form from ncu at 4100^3 against the same kernel on "
               "aligned rows (assets/measured/ncu_narrow_matmul_h200.csv: 54-72 % more L2 "
               "requests, 4.8-7.1 SM cycles each)"),
      constant(TILESIM_CONSTANT(kTritonLaunchOverheadS), kOptions, "s", G::timing,
               "a Triton program as do_bench times it: events around one launch, to the first "
               "program",
               K::fitted,
               "median of measured - predicted over the fit set's 12 configurations predicted "
               "under 20 us (H100, docs/TRITON_SPLIT.md)"),
      constant(TILESIM_CONSTANT(kCpAsyncRoundTripCycles), kOptions, "SM cycles", G::memory,
               "a Triton matmul tile that cp.async loads is usable this long after the memory "
               "path delivers it (the loaded L2's latency and the loop's wait before a dot reads "
               "a stage, not separated)",
               K::fitted,
               "least mean |time error| over the version-1 fit set of both GPUs with the "
               "fit-only supplement 15 (2-6 stages, one and two programs an SM; assets/measured/"
               "triton_supplement15_h200.json), grid 150-350 (docs/TRITON_SPLIT.md, version 17)"),
      constant(TILESIM_CONSTANT(kL1LinesPerCycle), kOptions, "lines/cycle", G::memory,
               "global-memory lines the L1 looks up per cycle for a Triton tile staged through "
               "registers (a warp access touching L lines takes L / this cycles of the L1/shared "
               "data pipe)",
               K::assumed,
               "an estimate (4 tag lookups a cycle); not fitted: the fit set has no ncu count of "
               "it"),
      constant(TILESIM_CONSTANT(kStagedLoopInstructions), kOptions, "warp instructions/K step",
               G::timing,
               "a Triton loop whose tiles go through registers: a warp's instructions per K step "
               "beside its staged accesses (loop, barriers, the dot); issued in series with the "
               "dot and the loads' round trip on tensor cores",
               K::measured, kStagedLoopFit),
      constant(TILESIM_CONSTANT(kStagedAccessInstructions), kOptions,
               "warp instructions/warp access", G::timing,
               "a Triton tile staged through registers (or copied element-wise by cp.async): the "
               "load, its st.shared, the pointer advance and the mask, per warp access",
               K::measured, kStagedLoopFit),
      constant(TILESIM_CONSTANT(kTritonFmaExposedShare), kOptions, "of the shorter", G::timing,
               "a Triton FMA dot: the share of the shorter of its math and its operand reads "
               "that overlaps neither (a warp's FFMAs wait for its own ld.shared)",
               K::fitted,
               "the fit set's three FMA dots with B^T (32 wavefronts a load; docs/TRITON_SPLIT.md, "
               "H100): the K step is ncu's 1,285 wavefronts a warp plus 0.43-0.48 of the math"),
      constant(TILESIM_CONSTANT(kLocalLoadBase), kCompiler, "registers", G::timing,
               "in-loop local loads of a register-staged wgmma loop: registers beside the "
               "accumulator's kept fragments and the loads' offsets",
               K::fitted, kSpillCensusFit),
      constant(TILESIM_CONSTANT(kLocalLoadsPerAAccess), kCompiler, "registers/access", G::timing,
               "the same: per ld.global access of A a thread", K::fitted, kSpillCensusFit),
      constant(TILESIM_CONSTANT(kLocalLoadsPerBAccess), kCompiler, "registers/access", G::timing,
               "the same: per ld.global access of B a thread", K::fitted, kSpillCensusFit),
      constant(
          TILESIM_CONSTANT(kPointerLoopAccesses), kCompiler, "accesses", G::timing,
          "the accesses a thread (A and B) from which ptxas keeps a 64-bit pointer per access, "
          "advanced and stored back every K step",
          K::measured,
          "the census: every loop below it (46, up to 192 accesses) makes each address with an "
          "IMAD.WIDE from a 32-bit offset (16-193 of them, one an access), none of the 8 at 256 "
          "or more (64-bit pointers, advanced with IADD3.X or IMAD.X); the threshold lies in "
          "(192, 256]"),
      constant(TILESIM_CONSTANT(kLocalLoadsPerPointer), kCompiler, "loads/access", G::timing,
               "the same: local loads a thread a K step per access", K::fitted,
               "the census's 7 fit configurations of 256 or more accesses: their 32-bit loads over "
               "their accesses, summed (1,028-2,264 loads; 4.0-5.0 each)"),
      constant(TILESIM_CONSTANT(kEpilogueScratchColumnsPerWarp), kCompiler, "columns/warp",
               G::timing,
               "Triton's epilogue scratch (the accumulator's layout conversion): BLOCK_M x "
               "min(BLOCK_N, this x num_warps) elements",
               K::measured,
               "read off Triton 3.6's allocation of the register-staged loops, then checked on "
               "every compiled wgmma launch measured (assets/measured/triton_*.json): 1,189 of "
               "1,191 allocate max(buffers, scratch); two allocate less"),
      constant(TILESIM_CONSTANT(kRegisterBase), kCompiler, "registers", G::timing,
               "Triton's registers a thread: the constant part", K::fitted, kRegisterFit),
      constant(TILESIM_CONSTANT(kRegistersPerAccumulator), kCompiler, "registers/value", G::timing,
               "per fp32 accumulator value a thread", K::fitted, kRegisterFit),
      constant(TILESIM_CONSTANT(kRegistersPerFmaAccumulator), kCompiler, "registers/value",
               G::timing,
               "more per accumulator value on the FMA path (the outer products' operands)",
               K::fitted, kRegisterFit),
      constant(TILESIM_CONSTANT(kRegistersPerAsyncAccess), kCompiler, "registers/access", G::timing,
               "per cp.async access a thread (pointer, mask)", K::fitted, kRegisterFit),
      constant(TILESIM_CONSTANT(kRegistersPerStagedAccess), kCompiler, "registers/access",
               G::timing, "per ld.global access a thread (pointer, mask, the values)", K::fitted,
               kRegisterFit),
      constant(TILESIM_CONSTANT(kEpilogueRegisterBase), kCompiler, "registers", G::timing,
               "the epilogue's registers a thread (the larger of it and the loop's counts): the "
               "constant part",
               K::fitted, kEpilogueRegisterFit),
      constant(TILESIM_CONSTANT(kEpilogueRegistersPerAccumulator), kCompiler, "registers/value",
               G::timing, "the epilogue's, per fp32 accumulator value a thread", K::fitted,
               kEpilogueRegisterFit),
      constant(TILESIM_CONSTANT(kEpilogueRegistersPerStore), kCompiler, "registers/access",
               G::timing, "the epilogue's, per st.global access a thread (its address)", K::fitted,
               kEpilogueRegisterFit),
      constant(TILESIM_CONSTANT(kMinReadShare), "sim/memory/dram_reads.hpp", "of the DRAM rate",
               G::memory,
               "the least share of the DRAM's rate the reads get (a copy in flow writes what it "
               "reads)",
               K::assumed, "a modelling choice: the DRAM serves reads at least as often as writes"),
      constant(TILESIM_CONSTANT(kMaxReadShare), "sim/memory/dram_reads.hpp", "of the DRAM rate",
               G::memory, "the most: nothing is being written", K::assumed,
               "the whole rate (a first wave whose stores still sit in L2 reads alone)"),
      constant(TILESIM_CONSTANT(kStartReadShare), "sim/memory/dram_reads.hpp", "of the DRAM rate",
               G::memory, "the reads' share when a launch starts", K::assumed,
               "a half: the launch before left its writes in L2 for this one to evict"),
  };
  return kRows;
}

#undef TILESIM_OPTION
#undef TILESIM_CONSTANT

}  // namespace tilesim::sim
