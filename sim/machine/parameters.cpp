// The Machine rows of the parameter table: one per field, in the struct's order, each reading its
// field through a pointer to member (so a value is never typed twice) and naming, per preset,
// where the value comes from. tests/sim/parameters_test.cpp fails when a field has no row.
#include "sim/machine/parameters.hpp"

#include <array>
#include <cstdio>
#include <type_traits>

#include "sim/base/enum_names.hpp"

namespace tilesim::sim {
namespace {

using K = ParameterKind;
using G = ParameterGroup;

template <auto Field>
ParameterValue read(const Machine& m) {
  const auto& v = m.*Field;
  using T = std::remove_cvref_t<decltype(v)>;
  if constexpr (std::is_same_v<T, bool>)
    return {v ? 1.0 : 0.0, true, false};
  else
    return {static_cast<double>(v), false, std::is_integral_v<T>};
}

// The field's name and its reader from one token, so the two cannot disagree.
// clang-format off
#define TILESIM_FIELD(f) #f, &read<&Machine::f>
// clang-format on

MachineParameter row(std::string name, ParameterValue (*value)(const Machine&), std::string unit,
                     G group, std::string meaning, std::vector<Evidence> evidence,
                     bool json_key = true) {
  return {std::move(name), std::move(unit),    group, std::move(meaning), value,
          json_key,        std::move(evidence)};
}

// Sources the rows share.
constexpr const char* kT4Sheet = "NVIDIA T4 datasheet";
constexpr const char* kTuringGuide = "Turing tuning guide";
constexpr const char* kAmpereGuide = "Ampere tuning guide";
constexpr const char* kHopperGuide = "Hopper tuning guide (the H200 has the H100's SM)";
const std::string kInherited = "copied from the H100/H200 figure (no T4 or A100 measurement)";
// The T4's clock under load: published readings (no T4 here), none of them the seeds'.
const std::string kT4LoadClock =
    "published: an AWS T4 under a continuous BERT run with application clocks at 1590 MHz drops "
    "to ~900 MHz (nvidia-smi; mlcommons/inference_results_v0.5 issue 20); the 70 W cap is the "
    "cause (NVIDIA developer forum t/264462). Consistent with the rates published for a T4: "
    "torch.matmul FP32 4 TFLOP/s (chsasank/device-benchmarks), 87 % of the FP32 peak at 0.90 "
    "GHz; cuBLAS FP16 at 4096^3 24-25 TFLOP/s (forum t/264462; device-benchmarks), 65-68 % of "
    "the tensor peak at 0.90 GHz. One clock for both paths (the readings do not separate them)";
// The clock's fall under load: its three figures were fitted together, then moved to a curve
// that starts at the measured maximum clock.
const std::string kThrottleFit =
    "the fit set of Triton's math-bound wgmma kernels (tutorial, seeds 001 and 003; "
    "docs/TRITON_SPLIT.md): a grid over (fraction, after, tau), least mean |error|: H100 11.2 -> "
    "6.3 % (fit), H200 7.8 -> 6.7 %; TFLOP/s fall with a kernel's duration, 585 at 0.2 ms to 458 "
    "at 19 ms on the H100 (assets/measured/triton_h100.json). Since the curve starts at "
    "tensor_start_fraction (2026-11-27), after = 0 and tau is set so that the mean rate over a "
    "4096^3 kernel's 235 us is the fitted curve's (H100 0.2/0.2 ms -> 0/0.23 ms, H200 0.4/0.2 -> "
    "0/0.147 ms); the fraction is kept. With the L2 and the fill path on the same clock, the fit "
    "set's tensor-core configurations went from 8.1 to 7.1 % MAPE (H100) and 7.6 to 7.7 % (H200), "
    "beyond +-25 %: 20 -> 16 and 17 -> 13";

const std::vector<MachineParameter>& rows() {
  static const std::vector<MachineParameter> kRows{
      // The datasheet's sizes and limits.
      row(TILESIM_FIELD(sms), "SMs", G::sheet,
          "streaming multiprocessors; slot s sits on SM s % sms",
          {{"t4", K::datasheet, kT4Sheet},
           {"a100", K::datasheet, "A100 whitepaper"},
           {"h100", K::datasheet, "Hopper whitepaper (H100 SXM5)"},
           {"h200", K::measured, "cudaGetDeviceProperties on a real H200 (multiProcessorCount)"}}),
      row(TILESIM_FIELD(l2_bytes), "bytes", G::memory,
          "L2 capacity; the replay's LRU cache gets l2_bytes / l2_partitions",
          {{"t4", K::datasheet, "Turing TU104 whitepaper (4 MiB)"},
           {"a100", K::datasheet, "A100 whitepaper (40 MiB)"},
           {"h100", K::datasheet, "Hopper whitepaper (50 MiB)"},
           {"h200", K::measured, "cudaGetDeviceProperties on a real H200 (l2CacheSize = 60 MiB)"}}),
      row(TILESIM_FIELD(l2_line_bytes), "bytes", G::memory,
          "L2 tag granularity (the L2 model needs 128)",
          {{"", K::datasheet,
            "NVIDIA's L2 lines of four 32-byte sectors (CUDA C++ Best Practices Guide, Nsight "
            "Compute's memory tables); validate_machine requires 128"}},
          false),
      row(TILESIM_FIELD(l2_sector_bytes), "bytes", G::memory,
          "L2 fill granularity (the L2 model needs 32)",
          {{"", K::datasheet,
            "32-byte sectors (CUDA C++ Best Practices Guide, Nsight Compute's lts__t_sectors); "
            "validate_machine requires 32"}},
          false),
      row(TILESIM_FIELD(l2_ways), "ways", G::memory, "0: fully associative LRU, else N-way LRU",
          {{"", K::assumed,
            "a modelling choice: one fully associative LRU cache over 128-byte lines (real L2s "
            "are banked and hashed; sim/machine/machine.cpp)"}}),
      row(TILESIM_FIELD(l2_partitions), "partitions", G::memory,
          "L2 halves that each cache what their side's SMs read: shared data sees "
          "l2_bytes / l2_partitions",
          {{"t4", K::datasheet, "Turing TU104 whitepaper: one L2"},
           {"", K::datasheet,
            "A100 whitepaper (\"L2 cache\") and Hopper whitepaper: two partitions; the halving "
            "is checked on mm16_4096_row/_grp (within 1.2 %, docs/MODEL_HISTORY.md)"}}),
      row(TILESIM_FIELD(dram_bytes_per_s), "bytes/s", G::memory, "HBM / GDDR peak bandwidth",
          {{"t4", K::datasheet, "NVIDIA T4 datasheet (320 GB/s GDDR6)"},
           {"a100", K::datasheet, "A100 datasheet, SXM 80GB (2039 GB/s HBM2e)"},
           {"h100", K::datasheet, "H100 datasheet, SXM5 (3.35 TB/s HBM3)"},
           {"h200", K::datasheet, "H200 datasheet, SXM (4.8 TB/s HBM3e)"}}),
      row(TILESIM_FIELD(fp32_flops_per_s), "FLOP/s", G::sheet,
          "CUDA-core FP32 peak (FMA = 2 FLOPs)",
          {{"t4", K::datasheet, "NVIDIA T4 datasheet (8.1 TFLOPS)"},
           {"a100", K::datasheet, "A100 datasheet (19.5 TFLOPS)"},
           {"", K::datasheet, "H100 / H200 datasheets, SXM (67 TFLOPS, at the 1.98 GHz boost)"}}),
      row(TILESIM_FIELD(fp32_peak_clock_hz), "Hz", G::sheet,
          "the clock fp32_flops_per_s is counted at: the FMA rate is the peak times fma_clock_hz "
          "over it (0: no scaling)",
          {{"t4", K::datasheet,
            "NVIDIA T4 datasheet: 8.1 TFLOPS = 40 SMs x 128 FLOP/cycle x 1.59 GHz boost"},
           {"a100", K::datasheet, "A100 datasheet: 19.5 TFLOPS = 108 x 128 x 1.41 GHz boost"},
           {"", K::datasheet,
            "H100 / H200 datasheets, SXM: 67 TFLOPS = 132 x 256 x 1.98 GHz boost"}}),
      row(TILESIM_FIELD(fp16_tensor_flops_per_s), "FLOP/s", G::sheet,
          "dense FP16/BF16 tensor peak, FP32 accumulate",
          {{"t4", K::datasheet, "NVIDIA T4 datasheet (65 TFLOPS)"},
           {"a100", K::datasheet, "A100 datasheet (312 TFLOPS dense)"},
           {"", K::datasheet,
            "H100 / H200 datasheets, SXM (989 TFLOPS dense: 132 SMs x 4096 FLOP/cycle x "
            "1.83 GHz)"}}),
      row(TILESIM_FIELD(smem_per_sm_bytes), "bytes", G::sheet,
          "shared memory per SM (carve-out maximum): occupancy",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),
      row(TILESIM_FIELD(smem_per_block_bytes), "bytes", G::sheet,
          "the most shared memory one program may use",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),
      row(TILESIM_FIELD(smem_reserved_per_program_bytes), "bytes", G::sheet,
          "shared memory the driver reserves in every resident program: occupancy",
          {{"t4", K::datasheet,
            "none before sm_80 (CUDA C++ Programming Guide, compute capabilities: the 64 KB a "
            "Turing block may use is the SM's whole carve-out)"},
           {"", K::datasheet,
            "1 KB since sm_80 (CUDA Runtime API, cudaDevAttrReservedSharedMemoryPerBlock; the "
            "guides' per-block maximum is the SM's less 1 KB). Measured: ncu's "
            "launch__occupancy_limit_shared_mem is 6 for a 32 KB Triton program on an H200 "
            "(assets/measured/ncu_seed001_h200.csv), 7 without the reserve"}}),
      row(TILESIM_FIELD(l1_smem_bytes), "bytes", G::sheet,
          "L1 data cache and shared memory together: the L1 is what the carveout leaves",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),
      row(TILESIM_FIELD(registers_per_sm), "32-bit registers", G::sheet, "occupancy",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),
      row(TILESIM_FIELD(max_threads_per_sm), "threads", G::sheet, "occupancy",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),
      row(TILESIM_FIELD(max_programs_per_sm), "programs", G::sheet,
          "resident thread blocks per SM: occupancy",
          {{"t4", K::datasheet, kTuringGuide},
           {"a100", K::datasheet, kAmpereGuide},
           {"", K::datasheet, kHopperGuide}}),

      // The timed engine's figures.
      row(TILESIM_FIELD(sm_clock_hz), "Hz", G::sheet,
          "the clock latencies are counted in (cycles -> ps)",
          {{"t4", K::datasheet, "NVIDIA T4 datasheet (1.59 GHz boost)"},
           {"a100", K::datasheet, "A100 datasheet (1.41 GHz boost)"},
           {"", K::datasheet,
            "the clock the H100/H200 datasheets' tensor peak is counted at: 989 TFLOP/s = "
            "132 SMs x 4096 FP16 FLOP/cycle x 1.83 GHz"}}),
      row(TILESIM_FIELD(fma_clock_hz), "Hz", G::timing,
          "the clock issue, shared memory and the fill path run at in FP32 FMA kernels, copies "
          "and transposes (0: sm_clock_hz)",
          {{"t4", K::measured, kT4LoadClock},
           {"a100", K::assumed, "0: the nominal clock stands in (not measured on this chip)"},
           {"", K::measured,
            "ncu --clock-control none reads 1.95-1.99 GHz on every FP32 rung, copy and transpose, "
            "H100 and H200 (assets/measured/instructions_h100.csv, warp_stalls_h100.csv, "
            "block_timeline_*); clock64 inside register_blocked's blocks, 16 launches back to "
            "back: 1.995 GHz (H100, assets/measured/block_clock_h100.csv)"}}),
      row(TILESIM_FIELD(tensor_clock_hz), "Hz", G::timing,
          "the same under tensor-core load (mma.sync, wgmma; 0: sm_clock_hz)",
          {{"t4", K::measured, kT4LoadClock},
           {"a100", K::assumed, "0: the nominal clock stands in (not measured on this chip)"},
           {"", K::measured,
            "ncu --clock-control none reads 1.74-1.82 GHz on the mma.sync rungs, H100 and H200 "
            "(assets/measured/instructions_h100.csv, block_timeline_*); wgmma 1.46-1.72 GHz, its "
            "pipelines never set its pace. clock64 inside the blocks, 16 launches back to back "
            "(H100, assets/measured/block_clock_h100.csv): mma.sync 1.78 GHz (4096^3) and 1.81 "
            "(8192^3); wgmma 1.58 / 1.48 GHz (matmul_wgmma_tma) and 1.52 / 1.49 (persistent), "
            "so a wgmma rung's fitted tensor_efficiency holds its lower clock"}}),
      row(TILESIM_FIELD(tf32_tensor_flops_per_s), "FLOP/s", G::sheet,
          "dense TF32 tensor peak (0: none, FP32 dots use FMA)",
          {{"t4", K::datasheet, "Turing has no TF32 tensor cores (Turing whitepaper)"},
           {"a100", K::datasheet, "A100 datasheet (156 TFLOPS dense TF32)"},
           {"", K::datasheet, "H100 datasheet, SXM5 (494 TFLOPS dense TF32); H200 as H100"}}),
      row(TILESIM_FIELD(has_wgmma), "flag", G::sheet,
          "warpgroup MMA (operands read from shared memory)",
          {{"t4 a100", K::datasheet, "wgmma is sm_90 only (PTX ISA)"},
           {"", K::datasheet, "Hopper whitepaper, PTX ISA (wgmma.mma_async, sm_90a)"}}),
      row(TILESIM_FIELD(has_cp_async), "flag", G::sheet,
          "asynchronous global-to-shared copies (what Triton's pipeliner needs)",
          {{"t4", K::datasheet, "cp.async is sm_80 and later (PTX ISA); Turing has none"},
           {"", K::datasheet, "PTX ISA (cp.async, sm_80+)"}}),
      row(TILESIM_FIELD(smem_wide_loads_in_passes), "flag", G::sheet,
          "a 16-byte shared load served 8 lanes at a time (2 passes where lane pairs share an "
          "address), an 8-byte one 16 at a time, each pass with its own bank conflicts (else: a "
          "16-byte load half a warp at a time, measured; an 8-byte one whole, assumed)",
          {{"t4", K::datasheet,
            "compute capability 7.0-7.5: an LDS.128 takes 4 requests unless lane pairs (l, l ^ 1 "
            "or l, l ^ 2) read one address, then 2; the shared memory returns 128 bytes a cycle "
            "(NVIDIA developer forum, \"Unexpected shared memory bank conflict\", "
            "forums.developer.nvidia.com/t/77228)"},
           {"a100", K::assumed, "no: as sm_90 (not measured on an A100)"},
           {"", K::measured,
            "no: half a warp a pass. ncu's SASS counters on an H200 (the tutorial's FMA dots, "
            "assets/measured/ncu_fma_reads_source_h200.csv): an LDS.128 whose 32 lanes read one "
            "address takes 2 wavefronts, ideal 2; the H100's totals agree (389 a warp a K step "
            "at 128 x 128 x 32, 261 at 64 x 64 x 32)"}}),
      row(TILESIM_FIELD(mma_sync_fraction), "of the tensor peak", G::timing,
          "the share of the tensor peak mma.sync can issue",
          {{"t4 a100", K::assumed, "1: mma.sync is these chips' only tensor path (not measured)"},
           {"", K::measured,
            "tilesim's registers-only probe on an H200 (kernels/probes/mma_sync_peak.cu; "
            "docs/PERFORMANCE.md: 84 % of cuBLAS, about 0.67 of the peak); the H100 has the same "
            "SM"}}),
      row(TILESIM_FIELD(l2_hit_latency_cycles), "cycles", G::memory,
          "load issued -> data in the SM on an L2 hit",
          {{"t4", K::measured,
            "published microbenchmark, rounded: Jia et al., \"Dissecting the NVIDIA Turing T4 GPU "
            "via Microbenchmarking\", 2019 (not measured by tilesim)"},
           {"a100", K::assumed,
            "an estimate (sim/machine/machine.cpp); the microbenchmark papers it cites give ~260 "
            "cycles for Ampere and Hopper"},
           {"", K::measured,
            "published microbenchmark, rounded: Luo et al., \"Benchmarking and Dissecting the "
            "Nvidia Hopper GPU Architecture\", 2024, ~260 cycles (not measured by tilesim)"}}),
      row(TILESIM_FIELD(l1_hit_latency_cycles), "cycles", G::memory,
          "load issued -> data in the SM on an L1 hit (a spilled register's reload)",
          {{"h200", K::measured,
            "kernels/probes/carveout.cu on an H200, 2026-11-29 (driver 580.159.04): one thread "
            "chasing pointers through its own 1 KB local array, whose words lie on 256 lines (32 "
            "KB), 34.5 cycles a load (through a "
            "global array that stays in the L1: 39.6); assets/measured/carveout_probe_h200.csv"},
           {"", K::assumed,
            "the H200's figure: the H100 has the same SM, not probed; the T4 and A100 never "
            "reach it (only a register-staged wgmma loop's reloads use it; Jia et al. 2019 "
            "give about 32 cycles for the T4's L1)"}}),
      row(TILESIM_FIELD(dram_latency_cycles), "cycles", G::memory,
          "the same on an L2 miss, unloaded (L0 of the loaded-latency curve)",
          {{"t4 a100", K::assumed,
            "an estimate (sim/machine/machine.cpp); Luo et al. 2024 give ~480 cycles unloaded"},
           {"h100", K::fitted,
            "L0 of the Little's-law curve fitted to the probe kernels/probes/bytes_in_flight.cu "
            "(least squares on log throughput, its 8 one-load-per-thread points, 1-32 KiB in "
            "flight per SM; assets/measured/bytes_in_flight_h100.csv): 386 ns at 1.83 GHz"},
           {"h200", K::fitted,
            "the same fit on the H200 (assets/measured/bytes_in_flight_h200.csv): 394 ns at "
            "1.83 GHz"}}),
      row(TILESIM_FIELD(l2_bytes_per_s), "bytes/s", G::memory, "L2 -> SMs, all slices together",
          {{"t4 a100", K::assumed, "an estimate (no source; not measured)"},
           {"", K::assumed,
            "a round 10 TB/s above the lower bound tilesim-bench gives: the wgmma rung moves "
            "1.61 GB of tiles through L2 in 0.20 ms at 4096^3 on an H200 "
            "(assets/measured/bench_h200.json); it stands for cp.async tiles, of which ncu "
            "counts 10.5 TB/s out of an H200's L2 at 89 % of lts2xbar (assets/measured/"
            "ncu_seed001_h200.csv; 11.4 TB/s from the 64x256x32 tiles, ncu_pipe_h200.csv). The "
            "6.9-7.4 TB/s of kernels/probes/l2_bandwidth.cu (16-byte ld.global.cg) is "
            "l2_ld_global_bytes_per_s. Not yet moved to ncu's rate nor off the clock's curve: "
            "each was tried and made the fit set worse (docs/TRITON_FINDINGS.md)"}}),
      row(TILESIM_FIELD(l2_ld_global_bytes_per_s), "bytes/s", G::memory,
          "L2 -> SMs for tiles staged through registers (ld.global; 0: as l2_bytes_per_s); a "
          "Triton tile load of that kind weighs l2_bytes_per_s / this on the L2",
          {{"t4 a100", K::assumed, "0: no difference from cp.async (not measured)"},
           {"h100", K::measured,
            "16-byte ld.global.cg from every SM (kernels/probes/l2_bandwidth.cu, 132 SMs reading "
            "an L2-resident 8 MiB, 16-32 KiB in flight an SM; assets/measured/"
            "l2_bandwidth_h100.csv): 6.91-7.38 TB/s, the fastest; of cp.async tiles ncu counts "
            "10.5 TB/s out of an H200's L2 (assets/measured/ncu_seed001_h200.csv)"},
           {"h200", K::assumed, "the H100's (the same L2 fabric; not measured)"}}),
      row(TILESIM_FIELD(sm_l2_bytes_per_cycle), "bytes/cycle", G::memory,
          "one SM's L2 fill path (loads and stores)",
          {{"t4", K::measured, "published microbenchmark (Jia et al. 2019), rounded"},
           {"", K::measured,
            "published microbenchmarks (Luo et al. 2024), rounded. tilesim's own probe reads "
            "about twice that: 121-123 bytes/cycle at 1980 MHz (240-244 GB/s) into one H100 SM "
            "with 64-256 KiB in flight "
            "(kernels/probes/l2_bandwidth.cu, assets/measured/l2_bandwidth_h100.csv): kept at "
            "64 for now, as l2_bytes_per_s"}}),
      row(TILESIM_FIELD(smem_bytes_per_cycle), "bytes/cycle", G::memory,
          "shared memory: one wavefront per cycle",
          {{"", K::datasheet, "32 banks x 4 bytes (CUDA C++ Programming Guide, shared memory)"}}),
      row(TILESIM_FIELD(program_launch_cycles), "cycles", G::timing,
          "block launch to its first step, prologue included",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "0.23 us of it is the slot's turnaround measured on an H100 (kernels/probes/"
            "block_launch.cu, assets/measured/block_launch_h100.csv); the other ~0.1 us stands "
            "for a short prologue (an estimate); the H200 has the same SM"}}),
      row(TILESIM_FIELD(program_dispatch_cycles), "cycles", G::timing,
          "an SM takes a new program at most once every this many cycles",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "blocks that do nothing turn over at 654 ns a slot with 8 resident, 82 ns a block "
            "an SM, while a slot's own turnaround is 0.23 us (kernels/probes/block_launch.cu, "
            "assets/measured/block_launch_h100.csv: 262,144 blocks of 256 threads); 82 ns is 150 "
            "cycles at sm_clock_hz (1.83 GHz), the clock the model converts cycles at; the H200 "
            "has the same SM (assumed, not measured)"}}),
      row(TILESIM_FIELD(schedulers_per_sm), "schedulers", G::sheet,
          "warp schedulers, one per sub-partition, each issuing one warp instruction a cycle",
          {{"", K::datasheet, "4 per SM since Maxwell (Turing, Ampere, Hopper whitepapers)"}}),
      row(TILESIM_FIELD(dot_time_diffusion_s), "s", G::timing,
          "K-step noise: a dot step of t takes t + sqrt(D t) g, D = this + "
          "dot_time_diffusion_miss_s x the recent L2 miss rate",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::fitted,
            "fitted with dot_time_diffusion_miss_s to the program-time spread of the H100's FP16 "
            "8192^3 block timelines (kernels/probes/block_timeline.cu, assets/measured/"
            "block_timeline_h100/: sd 1.26 % grouped, 2.10 % row-major; the model 1.35 / 2.10 %), "
            "never to DRAM bytes; the H200 uses the H100's fit"}}),
      row(TILESIM_FIELD(dot_time_diffusion_miss_s), "s", G::timing,
          "the K-step noise's growth with the recent L2 miss rate",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::fitted,
            "fitted with dot_time_diffusion_s (the same fit set: H100 FP16 8192^3 block "
            "timelines, grouped and row-major, miss rates 0.10 and 0.42)"}}),
      row(TILESIM_FIELD(load_round_cv), "of a round's latency", G::memory,
          "a copy's or transpose's load round takes its latency x (1 + load_round_cv g)",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::fitted,
            "fitted to a timing spread, not to a time: the H100 block timeline of the padded "
            "32x32 FP32 transpose at 8192^2 (kernels/probes/block_timeline.cu, assets/measured/"
            "block_timeline_h100/tr32_8192_padded.csv): load-phase sd 0.311 us over 65,536 "
            "programs; 0.19 gives the model's 0.306 us"}}),
      row(TILESIM_FIELD(warp_load_cv), "of a warp's round trip", G::memory,
          "spread of a warp's load round trips: the program waits for its slowest warp (a copy's "
          "round; a matmul tile that misses the L2)",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "ncu's barrier over long-scoreboard stall per instruction is 1.42 warp_load_cv / "
            "sqrt(R) on the padded transposes: 0.24-0.35 over eleven launches of 1, 4 and 16 "
            "rounds on two chips, median 0.31 (assets/measured/issue_stalls_h200.csv, "
            "warp_stalls_h100.csv, element_loops_h100.csv)"}}),
      row(TILESIM_FIELD(l2_write_share_of_dram), "of dram_bytes_per_s", G::memory,
          "the L2's write side: SM stores and DRAM fills share this rate (0: no limit)",
          {{"t4 a100", K::inherited, kInherited},
           {"h100", K::measured,
            "aligned stores alone 3.09-3.14 TB/s through to DRAM (256 MiB) and 3.05-3.33 TB/s "
            "with their lines kept in the L2 (24 MiB) (scripts/triton/misalign_probe.py, "
            "assets/measured/misalign_probe_h100.jsonl); the aligned 4096^2 copies' fills and "
            "stores together 2.92-3.17 TB/s of ncu's duration while DRAM moves 2.2-2.6 TB/s "
            "(assets/measured/narrow_probe_h100.csv): at least the fastest, 3.33 / 3.35"},
           {"h200", K::measured,
            "the same probe on an H200 (assets/measured/misalign_probe_h200.jsonl, 2026-11-28): "
            "stores on whole sectors 4.02-4.32 TB/s through to DRAM and 3.43-3.79 TB/s in the "
            "L2, aligned copies 3.49-3.95 TB/s from DRAM: at least the fastest, 4.32 / 4.8"}}),
      row(TILESIM_FIELD(partial_sector_store_cost), "sectors", G::memory,
          "the L2 time of a store that covers a 32-byte sector in part, in whole sectors",
          {{"t4 a100", K::inherited, kInherited},
           {"h100", K::measured,
            "narrow stores one element off their sectors against aligned ones, the same "
            "instructions (scripts/triton/misalign_probe.py, assets/measured/"
            "misalign_probe_h100.jsonl): fp16 1.76 / 1.83x as long (1 whole + 2 partial "
            "sectors a warp access: 1.26 / 1.33), fp32 1.46 / 1.49x (3 + 2: 1.42 / 1.48); the "
            "mean. Shifted by whole sectors: 0.99-1.04x"},
           {"h200", K::assumed,
            "the H100's. Measured since on an H200 (misalign_probe_h200.jsonl): in the L2 the "
            "same (1.84 / 1.49x), from DRAM more (2.02 / 1.58x, by the same formula 1.52 / "
            "1.65); not yet adopted"}}),
      row(TILESIM_FIELD(stream_issue_cycles), "cycles/instruction", G::timing,
          "a copy's or transpose's warp instruction outside its memory waits",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "ncu's non-memory stall reasons per issued instruction on an H100 at 8192^2 FP32: "
            "4.3-5.9 over 14 copy and transpose launches, median 5.15 (assets/measured/"
            "element_loops_h100.csv); the H200 has the same SM"}}),
      row(TILESIM_FIELD(tensor_start_fraction), "of the preset's rate", G::timing,
          "the effective rate (SM clock times work per cycle) at which a Triton kernel's "
          "tensor-core dots, L2 transfers and fills start under do_bench, over the preset's",
          {{"t4 a100", K::assumed, "1: not measured on these chips"},
           {"", K::assumed,
            "that a kernel starts at the maximum SM clock, nvidia-smi clocks.max.sm 1980 MHz, "
            "over tensor_clock_hz (1.76 GHz, ncu under load); the fit set's one-wave kernels "
            "need that rate (at 1536^3, 22 us, an SM with two programs does 5.75 TFLOP/s, "
            "above the 5.37 that 1.76 GHz allows the model). The clock itself contradicts it: "
            "clock64 over %globaltimer inside Triton's tutorial matmul (scripts/triton/"
            "clock_trace.py, assets/measured/clock_trace_h100.jsonl, 2026-11-27) reads 1.60 GHz "
            "from the first microsecond on both chips (2048^3 fp16, 26 us), while NVML reads 1980 "
            "MHz for such loops (a sample every ~2 ms, not the clock under the dots). Nor is the "
            "long kernels' split the clock: at 16384^3 fp16 in do_bench's loop the H100 ran at "
            "1350 MHz and the H200 "
            "at 1059 (clock64; NVML 1215), yet the H200 took 15.4 ms and the H100 18.0 ms. So "
            "this curve is an effective rate fitted to times, not the SM clock; it is kept until "
            "it is refitted as measured clock times measured work per cycle "
            "(docs/TRITON_FINDINGS.md, the last section)"}}),
      row(TILESIM_FIELD(tensor_sustained_fraction), "of the preset's rate", G::timing,
          "the effective rate sustained under long load (Triton programs with tensor-core "
          "dots: their dots, L2 transfers and fills); fitted to times, not the SM clock "
          "(tensor_start_fraction says why)",
          {{"t4 a100", K::assumed, "1: not measured on these chips"},
           {"", K::fitted, kThrottleFit}}),
      row(TILESIM_FIELD(tensor_throttle_after_s), "s", G::timing,
          "how long a kernel runs at its start rate before the clock falls",
          {{"t4 a100", K::assumed, "0: no throttling"}, {"", K::fitted, kThrottleFit}}),
      row(TILESIM_FIELD(tensor_throttle_tau_s), "s", G::timing, "the time constant of the fall",
          {{"t4 a100", K::assumed, "0: no throttling"}, {"", K::fitted, kThrottleFit}}),
      row(TILESIM_FIELD(older_program_share), "of the dots", G::timing,
          "the older of two programs with a dot ready gets this share of the SM's dot pipe",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "one wave of two programs per SM on an H200 (kernels/probes/block_timeline.cu, "
            "assets/measured/block_timeline_h200/mm16_paired, mm32_paired): 0.60 FP16 mma.sync, "
            "0.59 FP32 FMA"}}),
      row(TILESIM_FIELD(dram_efficiency), "of dram_bytes_per_s", G::memory,
          "what a streaming copy sustains of the DRAM peak",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::fitted,
            "fitted on the H200 to one tilesim-bench row, cudaMemcpy 8192^2 (scripts/"
            "fit_timing.py, assets/measured/bench_h200.json; docs/FIDELITY.md marks it); the "
            "H100's rows are predictions with it"}}),
      row(TILESIM_FIELD(fma_efficiency), "of the FP32 rate at fma_clock_hz", G::timing,
          "what an FMA dot sustains of the FP32 peak at the clock under load (fma_flops_per_s)",
          {{"", K::assumed,
            "1: instruction issue, not the FMA pipe, limits the FP32 rungs (fitted to the "
            "register-blocked FP32 row until 2026-11-23, 7a46221); the T4's power cap is its "
            "clock (fma_clock_hz), not an efficiency"}}),
      row(TILESIM_FIELD(tensor_efficiency), "of the tensor peak", G::timing,
          "what a dot of full tiles sustains of the tensor path's peak",
          {{"t4", K::measured,
            "published: cuBLAS FP16 at 4096^3 runs at 24 TFLOP/s on a T4 (NVIDIA developer forum "
            "t/264462, put down to the 70 W cap) and torch.matmul FP16 at 25 "
            "(chsasank/device-benchmarks), of the datasheet's 65: 0.37 (it holds the clock under "
            "load, as the H100's fitted figure holds its)"},
           {"a100", K::inherited, kInherited},
           {"", K::fitted,
            "fitted on the H200 to one tilesim-bench row, the wgmma rung at 4096^3 (scripts/"
            "fit_timing.py, assets/measured/bench_h200.json; docs/FIDELITY.md marks it); the "
            "H100's rows are predictions with it"}}),
      row(TILESIM_FIELD(issue_ceiling), "instructions/cycle", G::timing,
          "the most warp instructions a scheduler issues a cycle on a real mix",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "ncu's issue rate of register_blocked at 2048^3-8192^3 on an H100, ~4 warps a "
            "scheduler: 0.79-0.80 (assets/measured/instructions_h100.csv, issue_active)"}}),
      row(TILESIM_FIELD(warp_issue_cycles), "cycles", G::timing,
          "a warp issues about once every this many pipeline cycles (a rung may carry its own)",
          {{"t4 a100", K::inherited, kInherited},
           {"", K::measured,
            "register_blocked alone on its SM on an H200, 2 warps a scheduler: 873 us for 1,024 "
            "K steps of 613 instructions at 1.97 GHz, 0.73 a cycle (assets/measured/"
            "block_timeline_h200/mm32_alone.csv)"}}),
  };
  return kRows;
}

#undef TILESIM_FIELD

constexpr std::array<std::string_view, 3> kLabels{"key", "name", "source"};

constexpr enum_names::Table<ParameterKind, 6> kKindNames{{{ParameterKind::datasheet, "datasheet"},
                                                          {ParameterKind::measured, "measured"},
                                                          {ParameterKind::fitted, "fitted"},
                                                          {ParameterKind::inherited, "inherited"},
                                                          {ParameterKind::assumed, "assumed"},
                                                          {ParameterKind::code, "code"}}};
constexpr enum_names::Table<ParameterGroup, 3> kGroupNames{{{ParameterGroup::sheet, "sheet"},
                                                            {ParameterGroup::memory, "memory"},
                                                            {ParameterGroup::timing, "timing"}}};

bool names(std::string_view list, std::string_view key) {
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto end = std::min(list.find(' ', start), list.size());
    if (list.substr(start, end - start) == key) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::string_view to_string(ParameterKind k) {
  return enum_names::name_of(kKindNames, k);
}

std::string_view to_string(ParameterGroup g) {
  return enum_names::name_of(kGroupNames, g);
}

std::string format_value(const ParameterValue& v) {
  if (v.is_flag) return v.number != 0 ? "true" : "false";
  char buf[32];
  if (v.is_integer)
    std::snprintf(buf, sizeof buf, "%.0f", v.number);
  else
    std::snprintf(buf, sizeof buf, "%g", v.number);
  return buf;
}

const Evidence* MachineParameter::evidence_for(std::string_view preset_key) const {
  for (const auto& e : evidence)
    if (e.presets.empty() || names(e.presets, preset_key)) return &e;
  return nullptr;
}

std::span<const MachineParameter> machine_parameters() {
  return rows();
}

const MachineParameter* find_machine_parameter(std::string_view name) {
  for (const auto& p : rows())
    if (p.name == name) return &p;
  return nullptr;
}

std::span<const std::string_view> machine_labels() {
  return kLabels;
}

}  // namespace tilesim::sim
