// The ladder: every kernel variant and baseline, in the order tilesim-bench and the app list them.
// The registry: each variant is declared once here, with its tile (the constants its .cu file is
// instantiated with, from the rung's header) and how the timed engine describes it. CUDA-free
// (its launchers are in launchers.cpp), so `tilesim-bench --list` works without a GPU and
// `tilesim-cli run --variant` describes a rung without linking CUDA.
#include "kernels/variants.hpp"

#include <algorithm>

#include "kernels/matmul_fma_b_layout.hpp"
#include "kernels/matmul_mma_sync.hpp"
#include "kernels/matmul_mma_sync_lean.hpp"
#include "kernels/matmul_mma_sync_swizzled.hpp"
#include "kernels/matmul_register_blocked.hpp"
#include "kernels/matmul_wgmma_pingpong.hpp"
#include "kernels/matmul_wgmma_tma.hpp"
#include "kernels/transpose_batched.hpp"

namespace tilesim::kernels {
namespace {

using sim::DType;
using sim::Kernel;
const std::vector<DType> kAll{DType::fp32, DType::fp16, DType::bf16};
const std::vector<DType> kHalf{DType::fp16, DType::bf16};
const std::vector<DType> kF32{DType::fp32};

std::vector<Variant> make_variants() {
  std::vector<Variant> v;
  auto rung = [&](std::string name, Kernel k, std::vector<DType> d, std::string baseline,
                  std::string teaches) -> Variant& {
    Variant x;
    x.name = std::move(name);
    x.kernel = k;
    x.dtypes = std::move(d);
    x.baseline = std::move(baseline);
    x.teaches = std::move(teaches);
    v.push_back(std::move(x));
    return v.back();
  };
  // How the timed engine describes each rung (TimingDescription): the math path, warps and
  // pipeline stages its code fixes, and whether its shared tiles conflict on banks (plain) or
  // not (swizzled, or padded: the model sees both as conflict-free).
  using sim::MathPath;
  using sim::SmemLayout;
  const auto described = [](std::optional<MathPath> path, std::optional<SmemLayout> layout,
                            int warps, std::optional<int> stages) {
    TimingDescription d{warps, stages, {}};
    d.options.triton = false;  // CUDA code: its own loads, pipeline and registers
    d.options.path = path;
    d.options.layout = layout;
    return d;
  };
  // Copies and transposes run 256 threads (8 warps) at every bench tile. Their loads in flight per
  // thread are read off their SASS (sm_90, nvcc 13.0): each iteration of an element loop (unrolled
  // or not) is LDG, then its STG or STS, then the branch that ends the loop (the trip count is the
  // rows left in the tile), so a thread waits for one load before it issues the next; the
  // measured throughputs agree (kernels/probes/bytes_in_flight.cu, docs/MODEL_HISTORY.md).
  // Registers per thread (here and below) are ncu's launch__registers_per_thread of the sm_90
  // build (nvcc 13.0, 2026-11-23).
  // Their warp instructions per program and per global load of a thread: ncu's
  // smsp__inst_executed at 8192^2 FP32 on an H100 (2026-11-25, assets/measured/
  // element_loops_h100.csv; tests/kernels/rung_instructions_test.cpp checks every launch):
  // copy_tiled 166 / 502 / 1,846 at 32x32 / 64x64 / 128x128 (4, 16, 64 loads a thread): 54 + 28
  // a load, exact at all three; copy_vectorized 193 / 616 / 2,308 at 64x64 / 128x128 / 256x256
  // (4, 16, 64 loads of 16 bytes): 52 + 35.25, exact (at 32x32 its one load per thread takes
  // the masked path, 190); the scalar transposes 151 / 199 / 402 at 16x16 / 32x32 / 64x64 (1, 4,
  // 16): 134 + 17, within 1.5 % (both layouts, one binary); the vectorized transpose 175 / 175 /
  // 419 at 16x16 (64 threads) / 32x32 / 64x64 (1, 1, 4): 94 + 81, within 0.3 %.
  const auto element_loop = [&](std::optional<SmemLayout> l, int bytes, int registers,
                                double per_program, double per_load) {
    TimingDescription d = described(std::nullopt, l, 8, std::nullopt);
    d.options.loads_in_flight = 1;
    d.options.load_bytes = bytes;
    d.options.registers_per_thread = registers;
    d.options.program_warp_instructions = per_program;
    d.options.load_warp_instructions = per_load;
    return d;
  };
  // copy
  auto& ct = rung("copy_tiled", Kernel::copy, kAll, "copy_memcpy_d2d",
                  "seed 000: one program per BLOCK_M x BLOCK_N tile, offsets by broadcasting, "
                  "masked at the edges; one element per access");
  ct.warp_model = sim::ThreadVariant::copy_tiled;
  ct.timing = element_loop(std::nullopt, 0, 24, 54, 28);
  // Four 16-byte loads per thread in flight: its SASS issues the four LDG.128 before the first
  // STG.128 (the branches between them skip the masked fallback only).
  rung("copy_vectorized", Kernel::copy, kAll, "copy_memcpy_d2d",
       "the same tile moved in 16-byte accesses, four in flight per thread")
      .timing = [&] {
    TimingDescription d = element_loop(std::nullopt, 16, 48, 52, 35.25);
    d.options.loads_in_flight = 4;
    return d;
  }();
  auto& d2d =
      rung("copy_memcpy_d2d", Kernel::copy, kAll, "", "baseline: cudaMemcpyAsync device to device");
  d2d.kind = VariantKind::baseline;
  d2d.timing = TimingDescription{};  // a pure DRAM stream: what dram_efficiency is fitted to
  d2d.timing->options.triton = false;
  // transpose: only the shared-memory layout differs between the rungs.
  rung("transpose_naive", Kernel::transpose, kAll, "copy_memcpy_d2d",
       "coalesced reads, but each warp's writes land 32 rows apart (uncoalesced)")
      .warp_model = sim::ThreadVariant::transpose_naive;
  auto& tt = rung("transpose_smem_tiled", Kernel::transpose, kAll, "copy_memcpy_d2d",
                  "the tile goes through shared memory so reads and writes are both coalesced; "
                  "reading its columns hits one bank 32 times");
  tt.warp_model = sim::ThreadVariant::transpose_smem_tiled;
  tt.timing = element_loop(SmemLayout::plain, 0, 28, 134, 17);  // 32-way conflicts (warp model)
  auto& tp = rung("transpose_smem_padded", Kernel::transpose, kAll, "copy_memcpy_d2d",
                  "one 4-byte word of padding per shared-memory row: the column reads fall in "
                  "32 banks");
  tp.warp_model = sim::ThreadVariant::transpose_smem_padded;
  tp.timing = element_loop(SmemLayout::swizzled, 0, 28, 134, 17);  // padded: no conflicts
  rung("transpose_smem_padded_vectorized", Kernel::transpose, kAll, "copy_memcpy_d2d",
       "the padded tile with 16-byte global loads and stores (4 elements gathered down a tile "
       "column per store), as copy_vectorized moves memory")
      .timing = element_loop(SmemLayout::swizzled, 16, 32, 94, 81);
  // transpose_smem_padded's scalar accesses and padded tile on its own 64 x 64 tile and 256
  // threads, its load loop fully unrolled: each thread's 16 loads are issued before its first
  // shared store (transpose_batched.cu), 16 in flight. Warp instructions: 581 a warp (ncu
  // smsp__inst_executed at 8192^2 FP32 on an H100, 2026-11-27: 76,152,832 over 16,384 programs
  // of 8 warps); one tile, so not split into a program and a load part. Registers: ncu's 40,
  // which the engine's estimate for 16 loads in flight (24 + 16) equals; not in
  // assets/measured/ yet, so left to the estimate.
  {
    auto& b = rung("transpose_smem_padded_batched", Kernel::transpose, kAll, "copy_memcpy_d2d",
                   "the padded tile and its scalar accesses, the load loop unrolled at a fixed "
                   "64 x 64 tile: 16 loads in flight a thread, all issued before the first "
                   "shared store");
    b.fixed_tile = transpose_batched::kTile;
    b.timing = element_loop(SmemLayout::swizzled, 0, 0, 581, 0);
    b.timing->options.loads_in_flight = 16;
  }
  // matmul
  rung("matmul_naive", Kernel::matmul, kAll, "cublas_sgemm",
       "one thread per output element, every operand from global memory (through L1/L2)");
  // One tile of A and B in shared memory at a time, stored with conflicts; 8 warps: the 256
  // threads it runs at its bench tile, 64 x 64 (it takes BLOCK_M x BLOCK_N / 16 threads).
  // Instruction counts here and below: warp instructions per warp per K step of the compiled
  // loop, from ncu (smsp__inst_executed on an H100, 2026-11-23) at 2048^3 and 8192^3, split into
  // a per-K-step and a per-warp part (the split is exact: 4096^3 agrees to the instruction).
  // Its warps issue once every 7.16 cycles (6.48 with B^T), not the machine's 2.74: each thread
  // accumulates an output in one register, so every FFMA waits on the previous one and on its two
  // shared loads, and 4 warps per scheduler do not hide that (ncu at 2048^3 on an H100, stalls per
  // issue: wait 1.65, short scoreboard 1.54, long scoreboard 1.17; docs/MODEL_HISTORY.md).
  TimingDescription smem_tiled = described(MathPath::fma, SmemLayout::plain, 8, 1);
  smem_tiled.options.warp_instructions = 2555;  // 16 outputs x 16 k: 256 FFMA, 512 LDS, addresses
  smem_tiled.options.registers_per_thread = 86;
  smem_tiled.options.warp_issue_cycles = 7.16;
  // Counted at its bench tile; it takes its tile at run time, so elsewhere its count scales.
  smem_tiled.options.counted_at = {64, 64, 16, 8, 1, true};
  auto& st = rung("matmul_smem_tiled", Kernel::matmul, kAll, "cublas_sgemm",
                  "the seeds' K loop: a (BLOCK_M, BLOCK_K) tile of A and a (BLOCK_K, BLOCK_N) "
                  "tile of B staged in shared memory, each element then reused BLOCK_N (or "
                  "BLOCK_M) times");
  st.warp_model = sim::ThreadVariant::matmul_smem_tiled;
  st.timing = smem_tiled;
  auto& bt = rung("matmul_smem_tiled_b_transposed", Kernel::matmul, kAll, "cublas_sgemm",
                  "seed 003's 'coalesced' variant: B stored as B^T (N, K); the K loop reads it "
                  "along K, and the transposing store into shared memory conflicts on banks");
  bt.b_layout = sim::BLayout::transposed;
  bt.warp_model = sim::ThreadVariant::matmul_smem_tiled;  // one model covers both B layouts
  bt.timing = smem_tiled;
  bt.timing->options.registers_per_thread = 83;  // allocated as 88, like the row-major B's 86
  bt.timing->options.warp_issue_cycles = 6.48;
  // A matmul rung with its own tile (the constants its .cu file is instantiated with), reading B
  // in layout `b`, on devices of compute capability >= min_cc.
  const auto fixed = [&](std::string name, const std::vector<DType>& d, FixedTile tile,
                         sim::BLayout b, int min_cc, TimingDescription timing,
                         std::string teaches) -> Variant& {
    auto& x = rung(std::move(name), Kernel::matmul, d, d == kF32 ? "cublas_sgemm" : "cublas_gemmex",
                   std::move(teaches));
    x.fixed_tile = tile;
    x.b_layout = b;
    x.min_cc = min_cc;
    x.timing = timing;
    // Its figures were counted at its own tile, warps and stages (all compiled in).
    if (x.timing->num_warps)
      x.timing->options.counted_at = {tile.block_m, tile.block_n, tile.block_k,
                                      *x.timing->num_warps, x.timing->stages.value_or(0)};
    return x;
  };
  const auto R = sim::BLayout::row_major;
  const auto T = sim::BLayout::transposed;  // K-major B, as wgmma reads it without transposing
  // Seed 003's pair on CUDA cores: one kernel, 256 threads, one K step in shared memory at a time;
  // only where B sits there differs. The conflicting rung reads its B tile down columns (8-way
  // conflicts, the warp model counts them); padded, like row-major, reads it conflict-free.
  // Per-K-step instructions: 921 (row-major B), 809 (B^T conflicting: LDS.128 for B); the padded
  // rung was counted at 4096^3 only: 910 a step, less a per-warp part of ~2 as its twins have
  // (908).
  const auto fma_b = [&](SmemLayout l, double instructions) {
    TimingDescription d = described(MathPath::fma, l, fma_b_layout::kThreads / 32, 1);
    d.options.warp_instructions = instructions;
    d.options.registers_per_thread = 64;
    return d;
  };
  fixed("matmul_fma_b_rowmajor", kF32, fma_b_layout::kTile, R, 0, fma_b(SmemLayout::swizzled, 921),
        "seed 003's pair, first half: B (K, N) staged as Bs (BLOCK_K, BLOCK_N); each thread "
        "a 4x4 block of C, the inner product reads a row of Bs across lanes: conflict-free")
      .warp_model = sim::ThreadVariant::matmul_fma_b_rowmajor;
  fixed("matmul_fma_bt_conflicting", kF32, fma_b_layout::kTile, T, 0, fma_b(SmemLayout::plain, 809),
        "the seed's 'coalesced' B^T (N, K): loaded along K and staged as it comes, Bs "
        "(BLOCK_N, BLOCK_K); the inner product reads its columns, 32 words apart: every B "
        "load (an LDS.128 of 4 kk) conflicts 8-way in each quarter-warp")
      .warp_model = sim::ThreadVariant::matmul_fma_bt_conflicting;
  fixed("matmul_fma_bt_padded", kF32, fma_b_layout::kTile, T, 0, fma_b(SmemLayout::swizzled, 908),
        "the fix: the same B^T tile with each Bs row padded by one word (33): the column "
        "reads fall in 16 banks, conflict-free again")
      .warp_model = sim::ThreadVariant::matmul_fma_bt_padded;
  // 256 threads; double-buffered shared tiles read as float4 (conflict-free).
  // 613 instructions per K step of 8 (512 FFMA), 1187 per step of 16.
  const auto register_blocked = [&](double instructions) {
    TimingDescription d = described(MathPath::fma, SmemLayout::swizzled, 8, 2);
    d.options.warp_instructions = instructions;
    d.options.registers_per_thread = 128;
    return d;
  };
  fixed("matmul_register_blocked", kF32, register_blocked::kTile, R, 0, register_blocked(613),
        "each thread keeps an 8x8 block of C in registers and reuses every shared "
        "memory load 8 times; shared tiles double-buffered, 16-byte loads");
  fixed("matmul_register_blocked_bk16", kF32, register_blocked::kTileBk16, R, 0,
        register_blocked(1187),
        "the same with K steps of 16: half the barriers per FMA, more registers");
  // mma.sync rungs: 256 threads (warp64: 128); padded or swizzled tiles, both conflict-free.
  // Instructions per K step: 155 (mma_sync: 32 mma, 12 ldmatrix), 291 (bk64), 232 (128x256),
  // 305 (warp64: 64 mma, 16 ldmatrix), 215 (swizzled: the same work, leaner addressing).
  // Registers: 124 (mma_sync), 128 (bk64), 230 (128x256), 255 (warp64), 254 (swizzled): the two
  // fragment register sets take warp64 to 2 programs per SM where its shared memory allows 3.
  // The three that hold one program of 8 warps per SM (2 warps a scheduler) carry their warps'
  // measured issue interval (ncu at 2048^3 fp16: warps per scheduler over issue rate): with
  // two warps a scheduler nothing hides a warp's own mma and ldmatrix chain, so it, not the
  // schedulers, sets the pace. 5.09 (warp64) and 5.12 (swizzled), which double-buffer their
  // fragments; 7.68 (128x256), which does not, so each k16 step's ldmatrix -> mma dependence
  // shows (7.40 and 7.41 at 4096^3 and 8192^3). mma_sync and bk64 hold 4 warps a scheduler,
  // which cover each other's chains: their 9.6..10.1 is the schedulers waiting on the pipes the
  // model times (docs/MODEL.md, *instruction issue*).
  const auto mma = [&](int warps, int stages, double instructions, int registers,
                       bool double_buffered = false, double issue_interval = 0) {
    TimingDescription d = described(MathPath::mma_sync, std::nullopt, warps, stages);
    d.options.warp_instructions = instructions;
    d.options.registers_per_thread = registers;
    d.options.fragments_double_buffered = double_buffered;
    d.options.warp_issue_cycles = issue_interval;
    return d;
  };
  fixed("matmul_mma_sync", kHalf, mma_sync::kTile, R, 80, mma(8, mma_sync::kStages, 155, 124),
        "tensor cores through mma.sync m16n8k16 (FP32 accumulation); ldmatrix from "
        "padded shared memory fed by a 4-stage cp.async pipeline");
  fixed("matmul_mma_sync_bk64", kHalf, mma_sync::kTileBk64, R, 80,
        mma(8, mma_sync::kStagesBk64, 291, 128),
        "the same with K steps of 64 in 3 stages: twice the tensor-core work between "
        "barriers");
  fixed("matmul_mma_sync_128x256", kHalf, mma_sync::kTile128x256, R, 80,
        mma(8, mma_sync::kStages, 232, 230, false, 7.68),
        "the same with a 128 x 256 tile and 64 x 64 warp tiles: fewer ldmatrix per "
        "mma and half the A traffic per output, at 128 accumulators per thread");
  fixed("matmul_mma_sync_warp64", kHalf, mma_sync::kTileWarp64, R, 80,
        mma(4, mma_sync::kStages, 305, 255, true, 5.09),
        "4 warps with 64 x 64 warp tiles (8 ldmatrix feed 32 mma) and two fragment "
        "register sets: the next k16 step's ldmatrix is issued before this step's mma");
  fixed("matmul_mma_sync_swizzled", kHalf, mma_sync_swizzled::kTile, R, 80,
        mma(8, mma_sync_swizzled::kStages, 215, 254, true, 5.12),
        "128 x 256 tile, 8 warps of 64 x 64: XOR-swizzled (unpadded) shared tiles so "
        "cp.async and ldmatrix are conflict-free, 32-bit shared offsets per thread, C "
        "stored through shared memory as 16-byte rows");
  // 5f: 5e's loop with one global pointer per operand and an unmasked K loop for whole tiles.
  // ncu at 4096^3 fp16 (H100, 2026-11-27, docs/PERFORMANCE.md): 124 instructions per K step (64
  // mma, 16 ldmatrix), 236 registers, 7.1 cycles between a warp's issues. Those are not in
  // assets/measured/ yet (tests/kernels/rung_instructions_test.cpp checks every rung that carries
  // them against those files), so the description leaves them to the engine's estimates.
  fixed("matmul_mma_sync_lean", kHalf, mma_sync_lean::kTile, R, 80,
        mma(8, mma_sync_lean::kStages, 0, 0, true),
        "5e with fewer instructions beside the mma: one global pointer per operand, "
        "copies at constant offsets from it, no mask on interior tiles");
  // The templated rung takes its tile, warps and stages from the problem (tilesim-bench --sweep
  // blocks): the engine sees the mma.sync path with the problem's num_warps and stages, and
  // estimates registers itself (they range from 40 to a spilling 255 over the configurations).
  {
    auto& t = rung("matmul_mma_sync_tiles", Kernel::matmul, {DType::fp16}, "cublas_gemmex",
                   "version 5's kernel templated on (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages): "
                   "seed 001's block-size chart and its misses (spills, shared memory) on the GPU");
    t.b_layout = R;
    t.min_cc = 80;
    t.timing = TimingDescription{std::nullopt, std::nullopt, {}};
    t.timing->options.triton = false;
    t.timing->options.path = MathPath::mma_sync;
    t.sweep_only = true;
  }
  // 8 warps: the two consumer warpgroups that run wgmma (the kernel's 384 threads add a producer
  // warpgroup that only issues TMA copies).
  // 168 registers a thread (its 384 threads hold one program per SM, as its shared memory does).
  TimingDescription wgmma = described(MathPath::wgmma, std::nullopt, 8, wgmma_tma::kStages);
  wgmma.options.registers_per_thread = 168;
  fixed("matmul_wgmma_tma", kHalf, wgmma_tma::kTile, T, 90, wgmma,
        "Hopper: a producer warpgroup issues TMA bulk tensor copies into 128-byte "
        "swizzled shared memory, two consumer warpgroups run wgmma from it; a 4-stage "
        "K loop on full/empty mbarriers");
  fixed("matmul_wgmma_tma_store", kHalf, wgmma_tma::kTile, T, 90, wgmma,
        "the same K loop; C is staged in 128-byte swizzled shared memory and leaves "
        "through TMA bulk tensor stores instead of 4-byte stores from registers");
  // The persistent rungs: the same path, warps and stages (no measured registers yet: the
  // measured-register test reads assets/measured/, which has no row for them).
  const TimingDescription wgmma_p = described(MathPath::wgmma, std::nullopt, 8, wgmma_tma::kStages);
  fixed("matmul_wgmma_persistent", kHalf, wgmma_tma::kTile, T, 90, wgmma_p,
        "the same warpgroups in a persistent grid (one CTA per SM walking tiles in launch "
        "order): the producer loads the next tile while the consumers store this one by TMA "
        "from C panels of their own");
  fixed("matmul_wgmma_persistent_mc", kHalf, wgmma_tma::kTile, T, 90, wgmma_p,
        "the persistent rung in clusters of two CTAs on vertically adjacent tiles, each "
        "loading half of their shared B^T tile and multicasting it into both");
  // 6h-6j: 6c's kernel with the tile turned to 256 x 128 (cuBLAS's tile at 4096^3); each consumer
  // warpgroup owns 128 x 128 of it. The same path, warps and stages; the engine sees the tile.
  fixed("matmul_wgmma_persistent_turned", kHalf, wgmma_tma::kTileTurned, T, 90, wgmma_p,
        "the persistent rung with the tile turned to 256 x 128: each consumer warpgroup owns "
        "128 rows x 128 columns (two wgmma m64n128k16 per k16 step on two row blocks of A), "
        "a stage is 32 KB of A and 16 KB of B^T");
  fixed("matmul_wgmma_persistent_turned_mc", kHalf, wgmma_tma::kTileTurned, T, 90, wgmma_p,
        "trial: the turned persistent rung in clusters of two CTAs on horizontally adjacent "
        "tiles (cuBLAS's 1x2), each loading half of their shared A tile and multicasting it "
        "into both");
  fixed("matmul_wgmma_persistent_turned_mcb", kHalf, wgmma_tma::kTileTurned, T, 90, wgmma_p,
        "trial: the turned persistent rung in clusters of two CTAs on vertically adjacent "
        "tiles, each loading half of their shared B^T tile and multicasting it into both");
  // Ping-pong: the registry's tile is one consumer warpgroup's (128 x 128); the engine sees the
  // wgmma path with the kernel's 8 consumer warps and 6 stages (it has no notion of the two
  // consumers taking turns, nor of a persistent grid).
  fixed("matmul_wgmma_pingpong", kHalf, wgmma_pingpong::kTile, T, 90,
        described(MathPath::wgmma, std::nullopt, 8, wgmma_pingpong::kStages),
        "ping-pong consumers in a persistent grid: each consumer warpgroup owns a whole "
        "128 x 128 tile and the two take turns on the tensor cores, so one's epilogue runs "
        "under the other's K loop");
  fixed("matmul_wgmma_pingpong_n256", kHalf, wgmma_pingpong::kTileN256, T, 90,
        described(MathPath::wgmma, std::nullopt, 8, wgmma_pingpong::kStagesN256),
        "trial: the ping-pong rung with a 64 x 256 tile per consumer warpgroup, one wgmma "
        "m64n256k16 per k16 step instead of two m64n128k16");
  fixed("matmul_wgmma_pingpong_n256_s5", kHalf, wgmma_pingpong::kTileN256, T, 90,
        described(MathPath::wgmma, std::nullopt, 8, 5),
        "trial: the 64 x 256 ping-pong rung with 5 stages beside 8 KB C panels");
  fixed("matmul_wgmma_pingpong_n256_mc", kHalf, wgmma_pingpong::kTileN256, T, 90,
        described(MathPath::wgmma, std::nullopt, 8, wgmma_pingpong::kStagesN256),
        "trial: the 64 x 256 ping-pong rung in clusters of two CTAs on vertically adjacent "
        "tiles, each loading half of their shared B^T tile and multicasting it into both");
  // cuBLAS: not our code, so no description (its tile and pipeline are cuBLAS's choice).
  rung("cublas_sgemm", Kernel::matmul, kF32, "", "baseline: cuBLAS SGEMM, strict FP32").kind =
      VariantKind::baseline;
  rung("cublas_tf32", Kernel::matmul, kF32, "cublas_sgemm",
       "baseline: cuBLAS SGEMM with TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)")
      .kind = VariantKind::baseline;
  rung("cublas_gemmex", Kernel::matmul, kHalf, "",
       "baseline: cuBLAS GemmEx, FP16/BF16 inputs and output, FP32 accumulation")
      .kind = VariantKind::baseline;
  for (auto& x : v)
    if (x.kind == VariantKind::baseline && !x.baseline.empty() && x.name != "cublas_tf32")
      x.baseline.clear();
  return v;
}

}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = make_variants();
  return v;
}

const Variant* find_variant(std::string_view name) {
  const auto& v = variants();
  const auto it =
      std::find_if(v.begin(), v.end(), [&](const Variant& x) { return x.name == name; });
  return it == v.end() ? nullptr : &*it;
}

bool is_modelled_by(std::string_view name, sim::ThreadVariant model) {
  const Variant* v = find_variant(name);
  return v && v->warp_model == model;
}

std::string baseline_for(const Variant& v, sim::DType dtype) {
  if (v.kernel != sim::Kernel::matmul || v.baseline.empty()) return v.baseline;
  return dtype == sim::DType::fp32 ? "cublas_sgemm" : "cublas_gemmex";
}

}  // namespace tilesim::kernels
