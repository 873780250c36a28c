// Triton's choices: what the compiler (Triton 3.6, read off its TTGIR and PTX on an H100 and an
// H200, assets/measured/triton_*.json) makes of a problem before anything runs — how wide each
// tile load is, whether it goes through cp.async into a pipelined shared buffer or through
// registers, how the tile is laid out in shared memory, which dot instruction runs, and roughly
// how many registers a thread needs. Teaches: the same Python kernel compiles to different
// machine code for N = 4096 and N = 4095, because Triton only knows what it can prove about the
// arguments (divisible by 16, or not), and a row-major B in tf32 is copied into shared memory one
// 4-byte element at a time because the tf32 tensor cores want B K-major.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::sim {

// The hardware path of tl.dot. fp16/bf16 (and fp32 with input_precision tf32) use tensor cores:
// wgmma on Hopper when the program has whole warpgroups (num_warps % 4 == 0, BLOCK_M >= 64),
// mma.sync otherwise; fp32 ieee (or tf32 where the machine has no TF32 cores) uses FMA.
enum class MathPath { fma, mma_sync, wgmma };
std::string_view to_string(MathPath p);
std::optional<MathPath> parse_math_path(std::string_view s);  // "fma" | "mma.sync" | "wgmma"

// The path Triton's tl.dot takes for `p` on `m` (the rule above). Copy and transpose: fma.
MathPath triton_dot_path(const Problem& p, const Machine& m);

// How a tile load reaches shared memory (or registers, for copy and transpose).
// cp_async: global -> shared without registers (sm_80+), pipelined `buffers` deep.
// ld_global: through registers (then st.shared for a matmul operand): narrower than 4 bytes, no
// cp.async on the machine, or num_stages = 1.
enum class LoadPath { cp_async, ld_global };
std::string_view to_string(LoadPath p);  // "cp.async" | "ld.global"

// One operand's tile load (a matmul's A or B, a copy's or transpose's input) or the output store.
struct OperandChoice {
  Operand operand = Operand::a;
  std::int64_t rows = 0, cols = 0;  // the tile as the kernel indexes it (BLOCK_M x BLOCK_K, ...)
  bool contiguous_cols = true;      // the tile's contiguous dimension in memory is its columns
  std::int64_t leading_stride = 0;  // elements between rows (or columns) in memory
  // Triton specializes an integer argument on divisibility by 16 and nothing else: a stride (or
  // a size the mask or the % compares with) that is not a multiple of 16 leaves the compiler
  // unable to prove two neighbouring elements share an aligned vector.
  bool divisible_by_16 = true;
  LoadPath path = LoadPath::ld_global;
  int vector_elems = 1;  // elements per thread per access (its width: vector_elems * elem bytes)
  int access_bytes = 0;
  // Consecutive elements a thread holds in the layout (Triton's sizePerThread along the
  // contiguous dimension): vector_elems unless a K-major destination splits each vector into
  // element-wide copies (tf32's B: 4 elements a thread, copied 4 bytes at a time).
  int layout_elems = 1;
  // The thread layout (Triton's #blocked): elements per thread along the contiguous dimension,
  // threads of a warp along the rows and the columns of the tile, and whether the lanes run
  // along the contiguous dimension (coalesced) or across it (each lane its own row).
  int threads_along_rows = 1, threads_along_cols = 32;
  bool lanes_along_contiguous = true;
  // Shared memory (matmul operands): the buffers its pipeline keeps (0: not in shared memory;
  // 1: not pipelined), the swizzle in bytes (Hopper's NVMMA layout: 128, 64 or 32; 0 none) and
  // whether the tile is stored transposed relative to the layout its global rows have.
  int buffers = 0;
  int swizzle_bytes = 0;
  bool smem_transposed = false;
  // Per warp access (one load instruction of all 32 lanes): the 128-byte lines it touches in
  // global memory, and the wavefronts its write into shared memory takes (bank conflicts
  // included; 0 for copy and transpose, which keep the tile in registers).
  double lines_per_access = 1;
  // The 32-byte sectors it touches, averaged over where its rows start: a row whose bytes are
  // not a multiple of 32 starts mid-sector, so a 64-byte access touches 3 sectors, not 2, most of
  // the time (copy, fp16, N = 4095: 2.94; ncu counts 2.937 a request on an H100,
  // assets/measured/narrow_probe_h100.csv). The L2 still reads each sector from DRAM once.
  double sectors_per_access = 1;
  // Of those, the ones it covers only in part (the row's first and last), and the sectors the
  // same access would touch on a row that starts on a sector.
  double partial_sectors_per_access = 0;
  double aligned_sectors_per_access = 1;
  // (C) The sectors one row of the tile touches (its whole contiguous extent), averaged over where
  // rows start: what the replay counts for a store; and the warp-access pieces a row takes.
  double row_sectors = 0;
  double pieces_per_row = 1;
  double smem_wavefronts_per_access = 0;
  // Lanes across rows (each reads one element of its own row, a line each): the L1 reads each
  // lane's word out of its line in its data banks (32 of 4 bytes, as shared memory's), and words
  // of different lines in one bank take a wavefront each. Rows `stride` bytes apart put lane i's
  // word in bank (i * stride / 4) mod 32: fp32 rows 4095 apart spread over 32 banks (1 way),
  // 8190 over 16 (2), 4100 over 8 (4), 4104 over 4 (8), 4096 all in one (32). 1 for lanes
  // along the row. (ncu, tf32 row-major B at 4104^3 against 4100^3: 509 more shared-pipe
  // wavefronts a program a K step, 4 a B access; assets/measured/ncu_narrow_matmul_pad_h200.csv.)
  int l1_bank_ways = 1;
  std::int64_t warp_accesses = 0;  // warp load instructions for the whole tile, per program
};

// The FMA dot's operand reads from shared memory (tl.dot on the CUDA cores), per warp per K step.
// Triton's #blocked layout of the accumulator gives each thread 4 x 4 outputs a repeat, the lanes
// along N first (as many as BLOCK_N / 4 takes, the rest along M) and the warps along M; per k a
// thread reads its rows of A and its columns of B with 16-byte ld.shared along each tile's
// contiguous dimension in shared memory (A: K; B: N, or K where B's tile is K-major). Lanes whose
// 16 bytes sit a multiple of 128 bytes apart share a bank group: a K-major B read by 32 lanes
// along N takes 32 wavefronts (ncu: 1,286 wavefronts and 160 ld.shared a warp per K step for
// the tutorial's B^T at 128 x 128 x 32, 8 warps; this gives 1,152 and 160, the rest are the tile
// copies: assets/measured/triton_h100.json).
struct FmaDotReads {
  int rows_per_thread = 0, cols_per_thread = 0;  // the thread's micro-tile of the output
  int lanes_m = 0, lanes_n = 0;                  // a warp's lanes along M and N
  bool b_k_major = false;                        // B's shared tile is K-contiguous
  double a_loads = 0, b_loads = 0;               // ld.shared instructions
  double a_wavefronts = 0, b_wavefronts = 0;     // their wavefronts, bank conflicts included
  double conflict_free_wavefronts = 0;           // what the same bytes take without conflicts
};

// What a store's warp accesses cost the L2's write side: whole sectors 1 each, partial ones
// `partial_cost` (Machine::partial_sector_store_cost), each access's sectors as it sends them.
// store_sector_cost: over the sectors rows that start on a sector would touch (1 for rows of 32
// bytes or more that start on one; fp16 64-byte accesses at N = 4095: (1.06 + 1.875 x 1.37) / 2 =
// 1.82). store_sector_weight: the same cost over the sectors the tile's rows touch, which is
// what the replay counts for a store (a sector two accesses share counts once there: 4.94 a
// 128-byte row at N = 4095, so 2 x 3.63 / 4.94 = 1.47 a byte of the replay's).
double store_sector_cost(const OperandChoice& o, double partial_cost);
// The 128-byte lines one warp access of a load touches beyond what it would if its rows started
// on a sector (0 for aligned rows and for lanes across rows, whose lanes touch a line each
// anyway): a 128-byte row chunk that starts mid-sector touches 1.97 lines on average, not 1.
double extra_lines_per_access(const OperandChoice& o);
double store_sector_weight(const OperandChoice& o, double partial_cost);

struct TritonChoices {
  bool matmul = false;
  OperandChoice a, b;  // copy / transpose: a = the input, b unused
  OperandChoice c;     // the store of the output tile (path ld_global: st.global)
  MathPath dot = MathPath::fma;
  std::string
      dot_instruction;       // "wgmma.m64n128k16.f32.f16.f16" | "mma.sync.m16n8k16" | "fma.rn.f32"
  int pipeline_buffers = 0;  // the deepest operand's buffers (0: no software pipeline)
  // ptxas serialises the loop's wgmmas (its warning C7515): each waits for the one before to
  // finish (WARPGROUP.DEPBAR gsb0, 0x0 after every HGMMA) instead of one group staying in flight,
  // so a K step exposes a wgmma's completion as many times as it issues them. A census of
  // Triton 3.6's compiled tf32 matmuls (61 kernels, assets/measured/
  // triton_wgmma_serial_census_h200.jsonl): tf32 with B transposed at 8 warps, M, N and K
  // multiples of 16 and BLOCK_N at most 128 — 8 of 8 such kernels, and none of the other 53
  // (4 warps, B row-major, N or K not a multiple of 16, 128 x 256 tiles). M's part is assumed:
  // no such kernel has only M off 16.
  bool wgmma_serialized = false;
  // A wgmma dot's accumulator reaches the store's layout through shared memory after the loop
  // (ttg.convert_layout): Triton allocates the larger of this scratch and the loop's buffers,
  // never live together (sim/program/occupancy). Bytes.
  std::int64_t epilogue_scratch_bytes = 0;
  FmaDotReads fma;  // the FMA path's operand reads (zero on the tensor-core paths)
  // Registers a thread needs (an estimate: the accumulator, the pointers and values of its
  // register-staged loads, the loop's state) and what goes past the 255 a thread may hold.
  int registers = 0;
  int spilled_registers = 0;
  // The loop's estimate where the epilogue's (the accumulator and its stores' addresses) is the
  // larger and sets `registers` (0: the loop's sets it).
  int loop_registers = 0;
  // Of those, wgmma accumulator registers: whole fragments, reloaded every K step (through the
  // L2: sim/timing's kSpillReloadBytesPerWarpCycle).
  int spilled_accumulators = 0;
  // wgmma with both tiles staged through registers: the local loads a thread makes every K step to
  // fetch its loads' spilled element offsets (or, from kPointerLoopAccesses on, pointers). Each
  // feeds the address of a load (LDL -> IMAD.WIDE -> LDG) through the one or two registers left
  // free, so they go one after another (sim/timing: a round trip each, to the L1 where the
  // loop's local lines stay there, else the L2, before the loads can go out). The accumulator's
  // spilled fragments (spilled_accumulators) are not among them: ptxas swaps those in bulk around
  // the wgmmas (64 LDL.64 at a time).
  int loop_local_loads = 0;
  // One sentence per choice that differs from the fast path, naming its cause:
  // "B: 2-byte ld.global, not pipelined: N = 4100 is not a multiple of 16".
  std::vector<std::string> notes;
};

// The epilogue's scratch (TritonChoices::epilogue_scratch_bytes) in output columns a warp: the
// conversion goes BLOCK_M x min(BLOCK_N, this x num_warps) elements at a time. Read off what
// Triton 3.6 allocates where one buffer a tile leaves the scratch visible (the register-staged
// loops: the whole tile at BLOCK_N <= 16 x num_warps, 128 x 128 of a 128 x 256 tile at 8 warps),
// then checked on every compiled wgmma launch measured (assets/measured/triton_*.json): 1,189 of
// 1,191 allocate max(buffers, this); two allocate less (256 x 128 x 32 at 4 warps: 24 of 32 KiB;
// 256 x 256 x 32 at 8: 32 of 64 KiB).
inline constexpr int kEpilogueScratchColumnsPerWarp = 16;

// The register estimate's coefficients (registers a thread): least squares over ptxas's counts
// of the fit set's matmuls (docs/TRITON_SPLIT.md; H100 and H200 compile the same), mean error
// 9.9 % (fit) and 10.3 % (test); the parameter table lists them.
inline constexpr double kRegisterBase = 18.5;
inline constexpr double kRegistersPerAccumulator = 1.37;     // per fp32 accumulator value
inline constexpr double kRegistersPerFmaAccumulator = 1.16;  // more, on the FMA path
inline constexpr double kRegistersPerAsyncAccess = 1.95;     // per cp.async access a thread
inline constexpr double kRegistersPerStagedAccess = 2.33;    // per ld.global access a thread
// The epilogue's registers (TRITON_SPLIT version 14): after the loop a thread holds its
// accumulator, converted, and the address of each store it makes; one-element stores (N not a
// multiple of 16) make one a value. Least squares over ptxas's counts of the fit-only supplement
// at 3072 x 3076 / 3088 x 3072, B transposed, fp16 and tf32, 40 launches
// (assets/measured/triton_supplement14_h200.json): 22.2 + 1.20 a value + 0.75 a store access.
// A thread needs the larger of the loop's estimate and this.
inline constexpr double kEpilogueRegisterBase = 22.2;
inline constexpr double kEpilogueRegistersPerAccumulator = 1.20;  // per fp32 accumulator value
inline constexpr double kEpilogueRegistersPerStore = 0.75;        // per st.global access a thread

// The in-loop local loads of a register-staged wgmma loop (TritonChoices::loop_local_loads), from
// a census of ptxas's SASS: the tutorial matmul at 4095^3 fp16 (2-byte loads), 54 blocks x warps
// (assets/measured/triton_spill_census_h200.jsonl), its loops' 32-bit LDL and LDL.LU counted.
// Fitted on its fit set (the 34 blocks that are not the timing test set's; docs/TRITON_SPLIT.md,
// version 3): the three coefficients by least mean |error| over a grid of eighths on its 27
// loops below kPointerLoopAccesses, kLocalLoadsPerPointer as loads over accesses summed on the
// other 7; mean error 22 local loads over the 34 (fit), 8.5 over the 20 held out. Below
// kPointerLoopAccesses a thread's accesses, ptxas holds an element offset per access and reloads
// the ones that do not fit beside the accumulator it keeps (whole wgmma fragments: the
// accumulator less spilled_accumulators): A's accesses count 2 registers, B's 0.875, with
// kLocalLoadBase more. From there on it keeps a 64-bit pointer per access, advanced and stored
// back every K step (IADD3 with IADD3.X or IMAD.X; STL).
inline constexpr double kLocalLoadBase = 38;          // registers beside accumulator and offsets
inline constexpr double kLocalLoadsPerAAccess = 2.0;  // per ld.global access of A a thread
inline constexpr double kLocalLoadsPerBAccess = 0.875;
inline constexpr double kPointerLoopAccesses = 256;  // accesses a thread (A and B together)
inline constexpr double kLocalLoadsPerPointer = 4.61;

// The choices for `p` on `m`. Deterministic, cheap (no replay).
TritonChoices triton_choices(const Problem& p, const Machine& m);

// The shared bytes a Triton matmul program allocates (`t` = triton_choices(p, m)): its operands'
// buffers (num_stages on the wgmma path, one fewer on FMA and mma.sync, one for a tile staged
// through registers), or its epilogue's layout-conversion scratch where that is larger: Triton
// never holds both live at once.
std::int64_t triton_shared_bytes(const Problem& p, const TritonChoices& t);

// "cp.async 16 B x3" | "ld.global 2 B (lanes across rows)" — one line for a table.
std::string describe(const OperandChoice& o);

}  // namespace tilesim::sim
