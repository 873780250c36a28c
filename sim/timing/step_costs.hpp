// Step costs: what each step of one program costs on a machine before it waits for anything —
// the math time of a dot on its path (FP32 FMA, mma.sync or wgmma tensor cores), the shared-memory
// wavefronts of its operands (bank conflicts included), register spills, latencies and the
// per-byte times of DRAM, L2 and an SM's fill path. The timed engine adds the queueing.
// Teaches: a dot's time is set by its slowest pipe — math, or the shared memory feeding it — and a
// bank conflict multiplies the shared-memory part by its degree. On mma.sync the two add up
// instead: a warp waits for its own ldmatrix before its mma (the reason wgmma exists).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/compiler/triton_choices.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::sim {

// How a program's shared-memory tiles are laid out. swizzled: no bank conflicts (what Triton
// does for tensor-core operands). plain: the conflicts of the thread-level kernel in
// sim/warps/warp_access (e.g. a B^T tile stored across banks, a 32 x 32 float tile read by column).
enum class SmemLayout { swizzled, plain };
std::string_view to_string(SmemLayout l);
std::optional<SmemLayout> parse_smem_layout(std::string_view s);  // "swizzled" | "plain"

// The step costs' own constants (the parameter table reads them: sim/timing/model_parameters).
// A thread's register limit (CUDA's 255 since Kepler): accumulators past it spill.
inline constexpr int kMaxRegistersPerThread = 255;
// Registers a thread needs besides its accumulator (pointers, offsets, loop state, fragments).
inline constexpr int kBaseRegisters = 32;
// Fixed issue cost of one K-iteration of a program, in cycles: the barrier between stages, the
// pointer advance and the wait for the stage's copies (an estimate; it is what makes 32 x 32
// tiles slow on any GPU, seed 001's chart).
inline constexpr int kLoopOverheadCycles = 48;
// Bytes a spilled register moves per K-iteration through the L1: stored and loaded once, 4 bytes
// each way.
inline constexpr int kSpillBytesPerRegister = 8;
// Bytes a cycle, per warp of the program, that spilled wgmma accumulators are reloaded and stored
// at through the L2 (local memory: ncu's L2 hit rate rises from 68 to 96 % when they spill; the
// reloads are latency-bound, 4 warps an SM). Fitted: the fit set's three spilling wgmma matmuls
// (docs/TRITON_SPLIT.md), least mean |error| over 4, 4.5 and 5: 9.0, 3.0, 7.5 %.
inline constexpr double kSpillReloadBytesPerWarpCycle = 4.5;
// A register-staged wgmma loop's in-loop local loads (StepCosts::staged_reload_ps) in flight at
// a time: each feeds one load's address through the one or two registers ptxas left free.
// Fitted: the supplements' spilling staged loops at 3001^3 (fit set: version 2's on the H100,
// version 3's on the H200; docs/TRITON_SPLIT.md), least mean |time error| over 1.25, 1.5, 1.67
// and 1.75: 23.5, 19.3, 20.0 and 20.5 % (35 loops); again at version 8, with L1 hits priced
// (kLocalL1ResidentHitShare), 38 loops (every supplement loop whose census count is above zero;
// how the first fit's 35 were selected is not recorded) over 1, 1.25, 1.5, 1.75 and 2: 32.5,
// 20.1, 17.3, 19.2 and 22.1 %. The SASS agrees: eight spilling loops at 4095^3 wait for 1.16-2.27
// local loads at a time, median 1.44 (assets/measured/triton_spill_waits_h200.csv).
inline constexpr double kSpillReloadsInFlight = 1.5;
// The share of those reloads that hit the L1 where the loop's local lines stay resident
// (StepCosts::staged_reload_ps: the SM's programs' reloaded words and spilled accumulator
// fragments, and a K step's tiles passing through beside them, fit in the L1 the carveout
// leaves). Measured: ncu's local-load L1 hit rate on the fit set's three spilling loops with 156-
// 192 KiB of L1 (assets/measured/ncu_spill_fit_h200.csv: 70.1, 79.0 and 82.8 %), their mean;
// every loop with less L1 than its lines need hits at most 11 %.
inline constexpr double kLocalL1ResidentHitShare = 0.773;
// Global-memory lines the L1 looks up per cycle for a warp load through registers (ld.global):
// a warp access whose lanes touch L lines takes L / this cycles of the L1/shared data pipe.
inline constexpr double kL1LinesPerCycle = 4;
// Cycles of the L1/shared data pipe an element-wise cp.async (narrower than 16 bytes: the
// caching .ca form) spends on each 128-byte line one warp access touches beyond what rows that
// start on a line would (extra_lines_per_access, averaged over where the rows start: a 128-byte
// chunk of an fp32 row 4100 elements long touches 1.875 lines, so 0.875 more L2 requests).
// Fitted: the sweep's twelve fit configurations with such copies (docs/TRITON_SPLIT.md,
// versions 5-7), least mean |time error| over 1, 1.5 and 2 cycles: 10.10, 8.63, 8.83 % (version
// 7; version 5's grid 1.5-4: 8.42 ... 10.54 %, 14.52 % without). Not charged beside an FMA
// dot, whose copies hold the pipe by their data only (step_costs.cpp). The probe beside them
// (test configurations, not fitted on) reads 1.9 SM cycles an extra request on tf32 wgmma; its
// 4.0 on the FMA dot is the K step's, which the FMA dot's waits on its own reads set.
inline constexpr double kMidSectorLineCycles = 1.5;
// Lanes of a warp's cp.async the L1/shared data pipe moves per cycle, whatever the access width:
// 8 lanes of 16 bytes is its 128 bytes a cycle; narrower copies do not go faster per lane.
inline constexpr double kCpAsyncLanesPerCycle = 8;
// A Triton matmul tile that cp.async loads is usable this many SM cycles after the memory path
// has delivered it (StepCosts::cp_async_round_trip_*_ps). A lone wgmma program's K step waits
// on its tiles' round trip once num_stages - 1 dots no longer cover it, and on the GPU that
// round trip is longer than the unloaded L2 latency and the SM's fill path give (supplement 15:
// its time falls with the stages, 374, 206, 155, 135, 131 us at 2-6 stages for 128 x 128 x 32
// fp16 at 8 warps, one program an SM): the loaded L2's latency and the wait chain before a dot
// may read a stage (cp.async.wait_group, the barrier, the async proxy's fence), which the data
// do not separate. Fitted (docs/TRITON_SPLIT.md, version 17): least mean |time error| over the
// version-1 fit set of both GPUs with supplement 15, grid 150-350: 5.96 % at 150, 5.90 at 200,
// 5.90 at 250 (6.16 without). Supplement 15 alone asks for 500, which tiles from DRAM do not
// bear (version 16, rejected): a miss's arrival already carries the loaded DRAM latency.
inline constexpr double kCpAsyncRoundTripCycles = 200;
// A Triton program timed as triton.testing.do_bench times it (events around one launch, after
// the L2 flush): the time from the first event to the kernel's first program. Fitted: the
// median of measured - predicted over the fit set's 12 configurations predicted under 20 us
// (docs/TRITON_SPLIT.md; 0.9 ... 5.8 us).
inline constexpr double kTritonLaunchOverheadS = 4.6e-6;
// Warp instructions a warp issues per K step of a Triton loop whose tiles go through registers
// (ld.global): kStagedLoopInstructions, plus kStagedAccessInstructions per warp access of its
// staged tiles (the load, its st.shared, the pointer advance and the mask). Measured: ncu's
// counts of the fit set's 19 staged loops without spills (model_parameters.cpp, kStagedLoopFit;
// assets/measured/triton_supplement_h100.json).
inline constexpr double kStagedLoopInstructions = 44.6;
inline constexpr double kStagedAccessInstructions = 4.05;
// The share of the shorter of a Triton FMA dot's math and its operand reads that runs beside
// neither (partial overlap): a warp's FFMAs wait for the operands its own ld.shared has just
// fetched (Triton's FMA code loads a k's operands, then multiplies, with no double buffering of
// them in registers), and two warps a scheduler (8 warps, one program an SM) cannot always cover
// that wait. Fitted: the fit set's FMA dots with B stored transposed, whose K-major B tile reads
// with 32 wavefronts a load (1024^3, 3072^3, 6000x5008x3008, 128x128x32 at 8 warps, H100;
// docs/TRITON_SPLIT.md): ncu counts 1,285 wavefronts and 2,048 FFMA a warp a K step, and the
// step takes the wavefronts plus 0.43-0.48 of the math (assets/measured/triton_h100.json).
inline constexpr double kTritonFmaExposedShare = 0.45;

struct TimingOptions {
  // The kernel is a Triton program (the curriculum's kernels as `run` and the app simulate them):
  // what Triton's compiler makes of the problem (sim/compiler: load widths, pipelining, shared
  // staging, registers) sets the loads' costs, the pipeline's depth and the occupancy. A CUDA
  // rung's description (kernels/variants.cpp) sets false: its code fixes those itself.
  bool triton = true;
  std::optional<MathPath> path;      // default: the path Triton would take (above)
  std::optional<SmemLayout> layout;  // default: swizzled for tensor cores, plain otherwise
  std::optional<ThreadVariant>
      variant;  // the warp model's kernel for `plain` (default: per kernel)
  // Copy and transpose tiles: the global loads each thread keeps in flight, and their width in
  // bytes (0: one element). 0 loads: the whole tile at once, as Triton's one tl.load of it.
  int loads_in_flight = 0;
  int load_bytes = 0;
  // Copy and transpose tiles: warp instructions one warp issues per program (its index
  // arithmetic, barrier, exit) and per global load of its thread (the load, its store, address
  // steps, the loop test), counted by ncu at three tiles (kernels/variants.cpp). 0: no
  // instruction stream (Triton's tl.load and tl.store, whose code is not known before it compiles).
  double program_warp_instructions = 0;
  double load_warp_instructions = 0;
  // Matmul: warp instructions one warp issues per K step (the kernel's loop body, counted by ncu;
  // kernels/variants.cpp). 0: an FMA dot counts its FFMA and shared loads, a tensor-core dot has
  // no issue limit (how lean the compiler's loop is, is not known before it compiles).
  double warp_instructions = 0;
  // mma.sync: the kernel loads the next k16 step's fragments (ldmatrix) before this step's mma
  // into a second register set, so the operand reads overlap the math instead of preceding it.
  bool fragments_double_buffered = false;
  // Registers per thread as ptxas allocates them (0: the accumulator plus 32, the model's
  // estimate).
  int registers_per_thread = 0;
  // Matmul: cycles between one warp's instructions where the warp's own dependences, not the
  // schedulers, set its pace (a loop whose every FFMA waits on the previous one and on two shared
  // loads); measured by ncu. 0: the machine's warp_issue_cycles.
  double warp_issue_cycles = 0;
  // The tile, warps and stages the counted figures (warp_instructions, warp_issue_cycles,
  // registers_per_thread) were measured at (stages 0: any). Where the kernel compiles its tile in,
  // another tile, warp count or stage count is another kernel, and there the model's own
  // estimates stand in (counted_for). A kernel that takes its tile at run time (one binary for
  // every tile) keeps its registers and issue interval, and its instructions per warp scale with
  // the FMAs each warp does per K step. Unset: the figures hold at any tile.
  struct CountedAt {
    int block_m = 0, block_n = 0, block_k = 0, num_warps = 0, stages = 0;
    bool tile_at_run_time = false;
    bool operator==(const CountedAt&) const = default;
  };
  std::optional<CountedAt> counted_at;
  bool operator==(const TimingOptions&) const = default;
};

// `t` with its counted figures cleared where `p` is not the tile and warps they were counted at.
TimingOptions counted_for(TimingOptions t, const Problem& p);

// Durations in picoseconds (integers, so a replay adds them exactly); rates as doubles only
// where a duration is derived from a byte count.
struct StepCosts {
  MathPath path = MathPath::fma;
  SmemLayout layout = SmemLayout::swizzled;
  int warps_m = 1, warps_n = 1;    // how num_warps tile the (BLOCK_M, BLOCK_N) output
  double program_flops_per_s = 0;  // one program's dot rate alone on its SM (efficiency included)
  double pipe_clock_hz = 0;        // the clock the SM's pipelines run at (pipe_clock_hz below)

  std::int64_t dot_math_ps = 0;       // 2 BM BN BK FLOPs at program_flops_per_s
  std::int64_t dot_smem_ps = 0;       // operand reads from shared memory, conflicts included
  std::int64_t dot_smem_free_ps = 0;  // the same without bank conflicts
  std::int64_t dot_overhead_ps = 0;   // per K-iteration: barrier, address arithmetic, waits
  // Instruction issue: warp instructions per warp per K step, and the SM time the program's
  // warps need to issue them when `programs_per_sm` programs share its schedulers (each
  // scheduler at most issue_ceiling a cycle, each warp one per warp_issue_cycles); 0: not
  // limited.
  double dot_warp_instructions = 0;
  std::int64_t dot_issue_ps = 0;  // with `programs_per_sm` programs on the SM
  // [r - 1]: the same with r programs resident, r = 1 .. programs_per_sm (a grid smaller than a
  // wave, or the last wave, leaves fewer; the timed engine asks for the SM's count at each dot).
  std::vector<std::int64_t> dot_issue_ps_by_residents;
  // A tensor-core loop whose tiles go through registers (ld.global, not pipelined): the time its
  // warps take to issue a K step's instructions, which run in series with the dot and the loads'
  // round trip (the SASS: the loads, their st.shared once the data is back, a barrier, the
  // wgmma, and its wait before the next K step's loads; assets/measured/triton_staged_loops.txt).
  // The timed engine issues load k this long after dot k - 1 ends. 0: none (pipelined loops, whose
  // copies' instructions overlap the asynchronous dot, count them in dot_warp_instructions).
  std::int64_t staged_issue_ps = 0;
  // Such a loop's registers spilled inside it (TritonChoices::loop_local_loads): the local loads
  // that fetch the next loads' offsets, one L2 round trip after another (the local data misses
  // the L1: ncu's L2 reads grow by its sectors), also before load k goes out. 0: none.
  std::int64_t staged_reload_ps = 0;
  std::int64_t issue_ps(int residents) const {
    if (dot_issue_ps_by_residents.empty()) return dot_issue_ps;
    const auto r = static_cast<std::size_t>(std::max(1, residents));
    return dot_issue_ps_by_residents[std::min(r, dot_issue_ps_by_residents.size()) - 1];
  }
  // Whether the operand reads overlap the math (dot = max of the two) or precede it (the sum).
  // wgmma reads its operands from shared memory itself, asynchronously, and FMA kernels keep
  // enough independent loads in flight per thread; an mma.sync takes them from registers that
  // the warp's own ldmatrix fills just before, and the 8-16 warps an SM holds at these tile
  // sizes do not hide that wait (H100/H200: the padded mma.sync rungs run at the sum,
  // docs/FIDELITY.md).
  bool operands_overlap_math = true;
  // Where they overlap, the share of the shorter of the two that still adds to the longer (0:
  // the longer alone; kTritonFmaExposedShare for a Triton FMA dot).
  double exposed_share = 0;
  std::int64_t dot_spill_ps = 0;  // accumulator registers spilled to local memory, per dot
  int accumulator_registers = 0;  // fp32 accumulator registers per thread
  int spilled_registers = 0;      // registers past the 255 a thread may have

  // Loads into shared memory (matmul A/B, transpose): the tile's write wavefronts.
  std::int64_t load_a_smem_ps = 0, load_b_smem_ps = 0;
  std::int64_t load_a_smem_free_ps = 0, load_b_smem_free_ps = 0;
  // Transpose: the tile's read back from shared memory (with conflicts, and without).
  std::int64_t transpose_smem_ps = 0, transpose_smem_free_ps = 0;
  // One shared-memory read instruction per warp of a transpose (its column reads' pipe time over
  // the elements each thread reads): what a load queued behind that program's reads waits.
  std::int64_t smem_turn_ps = 0;
  double smem_load_degree = 1, smem_store_degree = 1;  // wavefronts per request (1 = none)

  // A copy/transpose tile load whose threads keep few loads in flight: `load_rounds` round trips
  // of `load_round_bytes` (reads, per program) each (one, when the first carries the whole
  // tile); 0: not an element loop (its tile is loaded at once).
  std::int64_t load_rounds = 0, load_round_bytes = 0;
  // After its last round the program waits for its slowest warp: this fraction of each round's
  // DRAM latency more (slowest_warp_shift / sqrt(load_rounds); Machine::warp_load_cv).
  double round_slowest_warp = 0;
  double dram_bytes_per_ps_per_sm = 0;  // the DRAM's peak (x dram_efficiency), per SM

  // Matmul: the tiles a program keeps in flight (the engine issues load k once dot k - this has
  // finished). A Triton program: the buffers its compiler gives the cp.async operands, 1 when an
  // operand goes through registers (ld.global: not pipelined); else ProblemSpec::stages.
  int pipeline_stages = 1;
  // A software pipeline in one instruction stream (Triton's): stage k's loads are issued in the
  // loop iteration of dot k - pipeline_stages + 1, after that dot's tiles have been waited for,
  // so at most pipeline_stages - 1 stages are in flight while a dot runs (TTGIR's loop: wait,
  // dot, then the next stage's copies; ncu at 4096^3, 2 stages: a K step is the stage's round
  // trip, assets/measured/ncu_stages_h100.csv). Set on Triton's wgmma path; a CUDA rung's
  // producer warps (TMA) are not bound so.
  bool loads_in_program_order = false;
  // From the start of the timed interval to the first program (kTritonLaunchOverheadS; 0 for a
  // CUDA rung's description).
  std::int64_t start_ps = 0;
  // The SM clock's curve under load (Machine::tensor_start_fraction, tensor_sustained_fraction),
  // for a Triton program with tensor-core dots: a dot, an L2 transfer or a fill that starts at t
  // runs at rate r(t) of the preset's (the L2 and the crossbar run on the SM clock; DRAM does not).
  double start_fraction = 1.0, sustained_fraction = 1.0;
  std::int64_t throttle_after_ps = 0, throttle_tau_ps = 0;
  double clock_rate(std::int64_t t) const {
    if (t <= throttle_after_ps || throttle_tau_ps <= 0 || sustained_fraction == start_fraction)
      return start_fraction;
    const double u =
        static_cast<double>(t - throttle_after_ps) / static_cast<double>(throttle_tau_ps);
    return sustained_fraction + (start_fraction - sustained_fraction) * std::exp(-u);
  }
  std::int64_t launch_ps = 0;    // block launch to its first step
  std::int64_t dispatch_ps = 0;  // an SM's least time between two programs' launches
  // A copy's or transpose's instruction stream, per warp (all its warps' in parallel): its
  // instructions at Machine::stream_issue_cycles each, outside its memory waits.
  std::int64_t stream_ps = 0;
  double stream_warp_instructions = 0;  // per warp and program
  std::int64_t l2_hit_latency_ps = 0, dram_latency_ps = 0;
  // A Triton matmul's A and B tiles: kCpAsyncRoundTripCycles where cp.async loads the operand,
  // else 0 (tiles staged through registers, the CUDA rungs).
  std::int64_t cp_async_round_trip_a_ps = 0, cp_async_round_trip_b_ps = 0;
  // A matmul's tile load that misses the L2 (and every load that hits its sectors while they are
  // still on their way: MemoryPath::load) is complete when its slowest warp's copies are, as an
  // element loop's round is (round_slowest_warp): slowest_warp_shift(warps, warp_load_cv) of the
  // DRAM's unloaded latency after the mean (0.44 x 386 ns = 170 ns at 8 warps on the H100; an
  // element loop scales its loaded latency instead), unless the DRAM's queue comes later. It
  // shows where nothing hides the latency: one or two stages (docs/TRITON_FINDINGS.md, *A stage
  // that misses waits for its slowest warp*). A TMA rung's copy is one thread's request, not its
  // warps'; it gets the same wait, for the same spread of the tile's sectors (the CUDA rungs'
  // times move by at most 0.41 % with it: scripts/fit_timing.py).
  std::int64_t tile_slowest_warp_ps = 0;
  double dram_ps_per_byte = 0;  // at dram_bytes_per_s x dram_efficiency
  double l2_ps_per_byte = 0;    // all L2 slices together
  double fill_ps_per_byte = 0;  // one SM's L2 fill path (loads and stores)
  // The L2's write side (Machine::l2_write_share_of_dram), for the SMs' stores and DRAM's fills
  // together; 0: no limit. A Triton program's store weighs store_sector_weight bytes a byte
  // there: its rows' partial sectors cost partial_sector_store_cost whole ones
  // (sim/compiler, store_sector_weight).
  double l2_write_ps_per_byte = 0;
  double store_sector_weight = 1;
  // How much a byte of a Triton tile load weighs on the L2's output (l2_ps_per_byte): 1 for a
  // cp.async tile, l2_bytes_per_s / l2_ld_global_bytes_per_s for one staged through registers
  // (ld.global; every copy's and transpose's tile too); A's, B's and a copy's or transpose's
  // tile (l2_load_weight picks by step).
  double l2_weight_a = 1, l2_weight_b = 1, l2_weight_load = 1;
};

// Throws InvalidField("input_precision") / ("num_warps") for a path the machine cannot run
// (wgmma asked for on a machine without it). `programs_per_sm`: the programs that share an SM's
// schedulers (the issue time of one program's step is its share of their rate).
StepCosts step_costs(const Problem& p, const Machine& m, const TimingOptions& opt = {},
                     int programs_per_sm = 1);

// The clock an SM's pipelines run at under `path`'s load: Machine::fma_clock_hz (FMA, copies,
// transposes) or tensor_clock_hz (mma.sync, wgmma); sm_clock_hz where those are 0.
double pipe_clock_hz(const Machine& m, MathPath path);

// SM time, in cycles, to issue `instructions` warp instructions from each of `warps` warps when
// `resident_warps` warps share the SM: the schedulers issue min(issue_ceiling, W /
// warp_issue_cycles) per cycle each, W = resident_warps / schedulers_per_sm.
// `warp_cycles` > 0 replaces the machine's warp_issue_cycles (a rung's measured figure).
double issue_cycles(double instructions, int warps, int resident_warps, const Machine& m,
                    double warp_cycles = 0);

// The bytes of one global load of a copy or transpose thread: `load_bytes`, or one element.
std::int64_t load_width(const TimingOptions& t, std::int64_t elem_bytes);

// One round trip of DRAM loads when every SM keeps `read_bytes_in_flight` (bytes per SM) of
// reads outstanding: Little's law, throughput = bytes in flight / latency, with the latency rising
// as the DRAM fills. Per SM, X(N) = Xp (1 - exp(-N / (Xp L0))) for the reads' peak rate Xp (their
// `read_share` of the DRAM's: a copy or transpose writes what it reads, so half, once its writes
// flow) and unloaded latency L0 (dram_latency_ps); the round takes N / X(N). At small N it is L0;
// at large N the DRAM's queue, N / Xp. The curve is kernels/probes/bytes_in_flight.cu's on an
// H100 and an H200 (within 5 % at one load per thread, docs/MODEL_HISTORY.md).
std::int64_t loaded_round_ps(const StepCosts& c, double read_bytes_in_flight,
                             double read_share = 0.5);

// How far after the mean the slowest of `warps` warps' loads returns, in units of one warp's
// latency over R rounds, times sqrt(R): E[max of `warps` standard normals] * warp_load_cv
// (1.42 * 0.31 = 0.44 for 8 warps; 0 for one warp).
double slowest_warp_shift(int warps, double warp_load_cv);

// A round whose DRAM latency is `dram_ps` (loaded_round_ps), times `latency_factor`
// (Machine::load_round_cv), when `readers` transposes read shared memory on the SM as it is
// issued: its loads also queue at the SM's load/store pipe behind one read instruction per warp
// of each (smem_turn_ps apiece; docs/MODEL.md, *transpose*).
std::int64_t queued_round_ps(const StepCosts& c, std::int64_t dram_ps, int readers,
                             double latency_factor = 1);

// Triton's warp tiling of an mma output (warpsPerTileV2): doubles warps along M or N, whichever
// has more 16 x 8 instruction tiles left per warp; returns {warps_m, warps_n}.
std::pair<int, int> warp_grid(int block_m, int block_n, int num_warps);

}  // namespace tilesim::sim
