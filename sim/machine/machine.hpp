// Machine: the GPU a replay runs on — SM count, L2 geometry, DRAM bandwidth, peak rates and the
// per-SM limits that decide occupancy. Teaches: the L2 is one cache shared by every SM, and its
// size (not the SM count) decides whether a launch order's reuse turns into fewer DRAM bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tilesim::sim {

struct Machine {
  std::string key;                     // preset key used by --machine and scenarios: "h100"
  std::string name;                    // display name: "H100-SXM"
  int sms = 132;                       // streaming multiprocessors
  std::int64_t l2_bytes = 50ll << 20;  // L2 capacity in bytes
  int l2_line_bytes = 128;             // tag granularity (the model needs 128)
  int l2_sector_bytes = 32;            // fill granularity (the model needs 32)
  int l2_ways = 0;                     // 0: fully associative LRU, else N-way LRU
  // L2 partitions (A100, H100, H200: 2). Each partition caches the data its side's SMs access,
  // so a tile read by SMs on both sides is held twice: shared data sees l2_bytes / partitions.
  int l2_partitions = 1;
  double dram_bytes_per_s = 3.35e12;  // HBM / GDDR peak bandwidth
  double fp32_flops_per_s = 67e12;    // CUDA-core FP32 peak (FMA = 2 FLOPs)
  // The clock the datasheet counts fp32_flops_per_s at (its boost); 0: the FMA clock
  // (fma_clock_hz), so the peak needs no scaling. fma_flops_per_s() scales the peak to the clock
  // the FMA pipe runs at under load: a T4 held at 0.90 GHz by its power cap reaches 0.90 / 1.59.
  double fp32_peak_clock_hz = 1.98e9;
  double fp16_tensor_flops_per_s = 989e12;        // dense FP16/BF16 tensor peak, FP32 accumulate
  std::int64_t smem_per_sm_bytes = 228 << 10;     // shared memory per SM (carve-out maximum)
  std::int64_t smem_per_block_bytes = 227 << 10;  // largest shared memory one program may use
  // Shared memory the driver keeps for itself in every resident program, beside what the program
  // asks for (CUDA's cudaDevAttrReservedSharedMemoryPerBlock: 1 KiB since sm_80, none before):
  // 32 KiB programs fit 6 to an H100 SM's 228 KiB, not 7.
  std::int64_t smem_reserved_per_program_bytes = 1 << 10;
  // The SM's unified L1 data cache and shared memory: what the driver does not carve out for
  // shared memory at a launch is L1 (sim/program/carveout: which carveout it picks), where a
  // thread's spilled registers live while they stay resident.
  std::int64_t l1_smem_bytes = 256 << 10;
  std::int64_t registers_per_sm = 65536;  // 32-bit registers
  int max_threads_per_sm = 2048;
  int max_programs_per_sm = 32;  // resident thread blocks per SM

  // Timing (sim/timing/timed_engine.*). Latencies in SM cycles; per-SM widths in bytes per cycle.
  // The clock the latencies are counted in. (The peak rates are the datasheet's: FP32 at the
  // 1.98 GHz boost, tensor at 1.83 GHz; the fitted tensor_efficiency absorbs the lower clock the
  // chip holds under tensor load.)
  double sm_clock_hz = 1.83e9;
  // The clock an SM's pipelines (instruction issue, shared memory, the L2 fill path) run at while
  // a kernel keeps them busy; 0: sm_clock_hz. Power sets it, so it depends on the math path:
  // on an H100 and an H200 (ncu --clock-control none, assets/measured/instructions_h100.csv,
  // block_timeline_*), FP32 FMA rungs, copies and transposes run at 1.95-1.99 GHz and mma.sync
  // rungs at 1.74-1.82 GHz (wgmma 1.46-1.72 GHz; its pipelines never set its pace).
  double fma_clock_hz = 0;                  // FP32 FMA kernels, copies, transposes
  double tensor_clock_hz = 0;               // tensor-core kernels (mma.sync, wgmma)
  double tf32_tensor_flops_per_s = 494e12;  // dense TF32 tensor peak; 0: none (FMA instead)
  bool has_wgmma = true;  // Hopper: warpgroup MMA reads operands from shared memory
  // Ampere and later: cp.async copies global memory into shared memory without registers, which
  // is what lets Triton's pipeliner keep num_stages tiles in flight (sim/compiler).
  bool has_cp_async = true;
  // Volta and Turing (compute capability 7.x) serve a 16-byte shared load 8 lanes at a time (4
  // passes; 2 where every lane pair l, l ^ 1 or l, l ^ 2 reads one address) and an 8-byte one 16
  // at a time, each pass with its own bank conflicts; sm_80 and later serve a 16-byte load half a
  // warp at a time (32 lanes at one address: 2 wavefronts; ncu's SASS counters on an H200,
  // assets/measured/ncu_fma_reads_source_h200.csv) and narrower ones whole. What an FMA dot's
  // 16-byte operand reads cost (sim/compiler, fma_dot_reads).
  bool smem_wide_loads_in_passes = false;
  double mma_sync_fraction = 0.67;  // share of the tensor peak that mma.sync can issue
  int l2_hit_latency_cycles = 260;  // load issued -> data in the SM, L2 hit
  // The same for a load that hits the L1 (a spilled register reloaded from local memory while
  // its line is resident). The H200's own probe (kernels/probes/carveout.cu): 34.5 cycles a
  // dependent local load, 39.6 a global one.
  int l1_hit_latency_cycles = 35;
  // The same on an L2 miss (unloaded DRAM: no queue). The default is the papers' unloaded ~480;
  // the H100 and H200 presets carry 706 and 721, fitted to a probe (docs/PARAMETERS.md).
  int dram_latency_cycles = 480;
  double l2_bytes_per_s = 7.0e12;  // L2 -> SMs, all slices together
  // The same for tiles staged through registers (ld.global), which the L2 serves more slowly
  // than cp.async's: a Triton tile load through registers weighs l2_bytes_per_s / this on the
  // L2's output (StepCosts::l2_weight_a). 0: as l2_bytes_per_s; at most l2_bytes_per_s. Its
  // evidence: sim/machine/parameters.cpp.
  double l2_ld_global_bytes_per_s = 0;
  int sm_l2_bytes_per_cycle = 64;  // one SM's L2 fill path
  int smem_bytes_per_cycle = 128;  // 32 banks x 4 bytes: one wavefront per cycle
  // Block launch to its first step, prologue included: an H100 retires a block and starts the
  // next on its slot in 0.23 us (kernels/probes/block_launch.cu, assets/measured/
  // block_launch_h100.csv); the rest stands for a short prologue (docs/MODEL_HISTORY.md).
  int program_launch_cycles = 600;
  // An SM takes a new program at most once every this many cycles, however many slots it has
  // free: the same probe's blocks that do nothing turn over a slot in 654 ns at 8 resident (262,144
  // blocks; 65,536: 715 ns), 82 ns a block an SM, though each slot's own turnaround is 0.23 us
  // (with a 1,000-cycle spin a slot takes 735 ns: the 0.23 us plus the spin, no longer the
  // 8 x 82). Cycles convert at sm_clock_hz (1.83 GHz on both Hoppers): the 82 ns measured is
  // 150. For a full GPU a per-SM and a GPU-wide rate are the same; the probe cannot tell them
  // apart. 0: no limit.
  int program_dispatch_cycles = 150;
  // Instruction issue: each of an SM's warp schedulers (4 since Maxwell, one per sub-partition)
  // issues at most one warp instruction per cycle.
  int schedulers_per_sm = 4;
  // Programs' time spread (docs/MODEL_HISTORY.md, "Programs drift apart"): a dot step of duration t
  // takes t + sqrt(D * t) * g, g a fixed pseudo-random number of mean 0 and variance 1 per
  // (pid, K step), so a program's time has variance D * (its time): a random walk, which is what
  // spreads the SMs' phases on the GPU (the 17th program on an SM starts over a 20 us
  // interquartile range). D = dot_time_diffusion_s + dot_time_diffusion_miss_s * (the L2 miss
  // rate of the recent tile loads): the spread grows with the memory system's misses. Fitted to
  // the H100's FP16 8192^3 block timelines (assets/measured/block_timeline_h100/: program time
  // sd 1.26 % grouped, 2.10 % row-major; the model gives 1.35 % / 2.10 %), never to DRAM bytes.
  // Not applied to an issue-bound dot: its SM fills a stalled warp's slots from the others (FP32
  // register_blocked: sd 1.0 %, yet its SMs' phases stay within ~32 us). 0 and 0: no noise.
  double dot_time_diffusion_s = 1.0e-8;
  double dot_time_diffusion_miss_s = 2.5e-7;
  // A copy's or transpose's load round (threads with few loads in flight, docs/MODEL.md) takes
  // its loaded latency times 1 + load_round_cv * g, g a fixed pseudo-random number of mean 0 and
  // variance 1 per (pid, round): DRAM round trips vary, and that variation keeps the transposes
  // on an SM from reading shared memory in step. Fitted to a timing spread (not to a time): the
  // H100 block timeline of the padded 32x32 FP32 transpose at 8192^2 (kernels/probes/
  // block_timeline.cu, assets/measured/block_timeline_h100/tr32_8192_padded.csv): its load phase
  // (4 rounds) has an sd of 0.311 us over 65,536 programs; 0.19 gives the model's 0.306 us.
  // 0: no variation.
  double load_round_cv = 0.19;
  // The program behind a copy's or transpose's load waits for its slowest warp: each warp's
  // round trips vary by warp_load_cv of their mean, so R rounds by warp_load_cv sqrt(R) of one,
  // and the slowest of W warps comes E[max of W standard normals] sds after the mean
  // (sim/timing/step_costs.hpp, slowest_warp_shift). Its bytes are back by then (a copy's wait
  // holds the program's slot, not the DRAM). Measured, not fitted to time: ncu's barrier stall over
  // its global-load stall per instruction is 1.42 warp_load_cv / sqrt(R) on the padded transposes
  // (assets/measured/issue_stalls_h200.csv, warp_stalls_h100.csv, element_loops_h100.csv:
  // 0.24..0.35 over eleven launches of 1, 4 and 16 rounds on two chips, 16x16 tiles left out;
  // 0.31 is the 32x32 vectorized rung's on the H200, the eleven's median; docs/MODEL_HISTORY.md).
  // Copies have no barrier to show it; they pay it at their exit (a block's slot frees with its
  // last warp). A matmul's tile that misses the L2 waits for its slowest warp the same way, one
  // round (StepCosts::tile_slowest_warp_ps). 0: every warp's load returns at the mean.
  double warp_load_cv = 0.31;
  // The L2's write side: what the SMs store and what DRAM fills into it share one rate, this
  // share of dram_bytes_per_s. Measured on an H100 (scripts/triton/misalign_probe.py,
  // assets/measured/misalign_probe_h100.jsonl): aligned stores alone run at 3.09-3.14 TB/s
  // through to DRAM (256 MiB) and 3.05-3.33 TB/s with their lines kept in the L2 (24 MiB; fp32
  // the fastest); the aligned 4096^2 copies' fills and stores together reach 2.92-3.17 TB/s of
  // ncu's duration while their DRAM moves 2.2-2.6 (assets/measured/narrow_probe_h100.csv). The
  // side is at least as fast as the fastest of these: 3.33 / 3.35 = 0.99. The H200 preset's
  // 0.90 is its own probe's fastest, 4.32 / 4.8 (assets/measured/misalign_probe_h200.jsonl).
  // 0: no such limit.
  double l2_write_share_of_dram = 0.99;
  // A store that covers a 32-byte sector only in part costs the L2 this many whole sectors' time
  // (it merges the bytes into the sector it holds). Measured on an H100 (misalign_probe.py):
  // narrow stores shifted one element off their sectors against aligned ones, same instructions,
  // 1.76 / 1.83x as long in fp16 (a 64-byte warp access: 1 whole + 2 partial sectors, so 1.26 /
  // 1.33) and 1.46 / 1.49x in fp32 (3 + 2: 1.42 / 1.48), 256 MiB / 24 MiB; the mean, 1.37.
  // Stores shifted by whole sectors cost next to nothing (32 bytes: 0.99-1.04x), so a row that
  // starts mid-sector costs through its partial sectors, not through the 128-byte lines it crosses.
  double partial_sector_store_cost = 1.37;
  // Cycles a copy's or transpose's warp takes per instruction outside its memory waits (its
  // dependent integer chains and the schedulers' other warps): ncu's stall reasons per issued
  // instruction that are not memory waits (selected, wait, not selected, math-pipe throttle,
  // branch resolving, dispatch, no instruction) on an H100 at 8192^2 FP32 (2026-11-25,
  // assets/measured/element_loops_h100.csv): 4.3..5.9 over 14 copy and transpose launches at
  // 32x32..256x256 tiles, median 5.15 (16x16 tiles, whose schedulers issue at 0.79 a cycle,
  // near the ceiling, take 8.2: the stream does not yet slow as the schedulers fill).
  // Measured, not fitted to time.
  double stream_issue_cycles = 5.15;
  // When the programs an SM holds all have a dot ready, the pipe is shared by age: the older of
  // two gets this share of its dots (k programs share in the ratios 1 : q : q^2 ... by age,
  // q = (1 - share) / share; only the pair is measured), as the warp schedulers'
  // greedy-then-oldest issue works out over a K step. Measured on an H200, one wave of two
  // programs per SM (kernels/probes/block_timeline.cu): 0.60 for FP16 mma.sync, 0.59 for FP32
  // FMA (docs/MODEL_HISTORY.md). 1: the older always first.
  double older_program_share = 0.6;
  // The effective rate over a kernel's life, for Triton programs with tensor-core dots, as
  // do_bench runs them: a kernel starts at `tensor_start_fraction` of the rate the preset's clocks
  // give, holds it for `tensor_throttle_after_s`, then falls towards `tensor_sustained_fraction`
  // with time constant `tensor_throttle_tau_s`: r(t) = f + (r0 - f) exp(-(t - after) / tau). Its
  // dots, L2 transfers and fills run at r(t) (the CUDA rungs' fitted tensor_efficiency has it
  // folded in). All 1: none. Meant as the SM clock under power; fitted to times, and the clock
  // read inside Triton's kernels (clock64) does not follow it (docs/PARAMETERS.md).
  double tensor_start_fraction = 1.0;
  double tensor_sustained_fraction = 1.0;
  double tensor_throttle_after_s = 0;
  double tensor_throttle_tau_s = 0;
  // What a tiled kernel sustains of each peak, used by every preset. dram_efficiency and
  // tensor_efficiency are fitted on the H200 (scripts/fit_timing.py, one tilesim-bench row each,
  // docs/FIDELITY.md); fma_efficiency is 1 by assumption (issue, not the FMA pipe, limits; the
  // clock under load is fma_flops_per_s's, not an efficiency).
  double dram_efficiency = 0.869;    // of dram_bytes_per_s, streaming copy
  double fma_efficiency = 1.0;       // of fp32_flops_per_s
  double tensor_efficiency = 0.746;  // of the tensor path's peak, dot of full tiles
  // Instruction issue, per scheduler: min(issue_ceiling, W / warp_issue_cycles) warp
  // instructions a cycle from W warps (docs/MODEL.md). Both measured, neither fitted:
  // - issue_ceiling: the most a scheduler issues on a real mix, 0.80: register_blocked at
  //   2048^3-8192^3 (ncu, ~4 warps a scheduler, whose warps wait mostly on each other: stall "not
  //   selected" 2.06 per issue); dispatch stalls keep it below the datasheet's one per cycle.
  // - warp_issue_cycles: a warp issues about once every this many cycles (of the math path's
  //   pipeline clock; measured at fma_clock_hz):
  //   2.74, register_blocked alone on its SM (2 warps a scheduler issue 0.73 a cycle: 873 us for
  //   1,024 K steps of 613 instructions at 1.97 GHz; assets/measured/block_timeline_h200/
  //   mm32_alone.csv). A rung whose own dependences slow its warps carries its own
  //   (TimingOptions::warp_issue_cycles).
  double issue_ceiling = 0.8;
  double warp_issue_cycles = 2.74;
  std::string source;  // the documents the datasheet figures come from
  bool operator==(const Machine&) const = default;
};
// Every field above has a row in the parameter table (sim/machine/parameters.cpp: unit, kind,
// evidence); tests/sim/parameters_test.cpp fails for a field without one.

// The presets, in order: t4, a100, h100, h200.
std::span<const Machine> machine_presets();
// A preset by key ("t4", "a100", "h100", "h200"; also accepts the display name, any case).
std::optional<Machine> find_machine(std::string_view key);
std::string machine_names();  // "t4 | a100 | h100 | h200"
// The capacity the replay's single LRU cache gets: l2_bytes / l2_partitions (docs/MODEL.md: in
// the tiled kernels nearly every input tile is read by SMs of both partitions).
std::int64_t effective_l2_bytes(const Machine& m);
// What an FMA dot sustains, FLOP/s over the chip: the FP32 peak at the clock the FMA pipe runs at
// under load (fma_clock_hz over fp32_peak_clock_hz), times fma_efficiency.
double fma_flops_per_s(const Machine& m);
// Throws InvalidField ("machine.<field>") for a value the model cannot use (e.g. 0 SMs, an L2
// smaller than one line, a line that is not 4 sectors of 32 bytes).
void validate_machine(const Machine& m);

}  // namespace tilesim::sim
