// Machine presets and their sources.
//
// Sources (per preset, also kept in Machine::source):
//  T4:        NVIDIA T4 datasheet (40 SMs, 320 GB/s GDDR6, 8.1 TFLOPS FP32, 65 TFLOPS FP16
//             tensor); Turing TU104 whitepaper (4 MiB L2); Turing tuning guide (64 KiB shared
//             memory per SM, 64K registers, 1024 threads and 16 blocks per SM).
//  A100-80GB: A100 datasheet, SXM 80GB (2039 GB/s HBM2e, 19.5 TFLOPS FP32, 312 TFLOPS dense
//             FP16 tensor); A100 whitepaper (108 SMs, 40 MiB L2); Ampere tuning guide (164 KiB
//             shared memory per SM, 163 KiB per block, 2048 threads and 32 blocks per SM).
//  H100-SXM:  H100 datasheet, SXM5 (3.35 TB/s HBM3, 67 TFLOPS FP32, 989 TFLOPS dense FP16
//             tensor); Hopper whitepaper (132 SMs, 50 MiB L2); Hopper tuning guide (228 KiB
//             shared memory per SM, 227 KiB per block, 2048 threads and 32 blocks per SM).
//  H200:      H200 datasheet, SXM (4.8 TB/s HBM3e, 67 TFLOPS FP32, 989 TFLOPS dense FP16
//             tensor); SMs and L2 read off a real H200 (cudaGetDeviceProperties: 132 SMs,
//             l2CacheSize = 60 MiB); per-SM limits as H100 (same Hopper SM).
// Timing figures (per preset, the second brace of each make() below): clocks are the ones the
// datasheet's peak rates are counted at (H100/H200: 132 SMs x 4096 FP16 FLOP/cycle x 1.83 GHz =
// 989 TFLOP/s). Where every other figure comes from — datasheet, measured (tilesim's probes, ncu,
// tilesim-bench, published microbenchmarks), fitted (with its fit set), inherited (a T4/A100
// figure copied from an H100/H200 one) or assumed — is the parameter table's to say, one row per
// field: sim/machine/parameters.cpp, printed by `tilesim-cli machine-params` and into
// docs/PARAMETERS.md. In short: the H100's and H200's DRAM latencies (706 and 721 cycles) are
// fitted to the probe kernels/probes/bytes_in_flight.cu (the papers' unloaded ~480 cycles is not
// used); dram_efficiency and tensor_efficiency are fitted to one tilesim-bench row each; the
// K-step noise (dot_time_diffusion_*) and load_round_cv are fitted to block-timeline spreads;
// the T4's clock under load and its efficiencies are published readings; the T4's and A100's
// other timing figures past their datasheets are estimates or inherited.
// The L2 is modelled fully associative with LRU over 128-byte lines (real L2s are banked and
// hashed). A100/H100/H200 split it in two partitions, each caching the data its own GPCs' SMs
// access (A100 whitepaper, "L2 cache"; Hopper whitepaper): l2_partitions = 2, and the replay
// gives shared data l2_bytes / 2 (effective_l2_bytes, docs/MODEL.md).
#include "sim/machine/machine.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "sim/base/limits.hpp"

namespace tilesim::sim {
namespace {

constexpr std::int64_t KiB = 1024, MiB = 1024 * 1024;

// A field's value as the user wrote it: 4, 0.3, 1.98e+09 (not 4.000000).
std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// What a datasheet gives: sizes, peaks and per-SM limits.
struct Sheet {
  std::string key, name;
  int sms;
  std::int64_t l2;
  double dram, fp32, fp32_clock, fp16;
  std::int64_t smem_sm, smem_block;
  int threads, blocks;
  std::string source;
};

// What the timed engine adds: the clock, latencies and widths (cycles, bytes per cycle); each
// figure's source is its row in sim/machine/parameters.cpp.
struct Timing {
  double clock_hz, fma_clock_hz, tensor_clock_hz, tf32;
  bool wgmma;
  double mma_sync_fraction;
  int l2_latency, dram_latency;
  double l2_bytes_per_s;
  int sm_l2_bytes_per_cycle;
};

Machine make(const Sheet& s, const Timing& t) {
  return {.key = s.key,
          .name = s.name,
          .sms = s.sms,
          .l2_bytes = s.l2,
          .l2_partitions = s.key == "t4" ? 1 : 2,  // T4 (Turing): one L2
          .dram_bytes_per_s = s.dram,
          .fp32_flops_per_s = s.fp32,
          .fp32_peak_clock_hz = s.fp32_clock,
          .fp16_tensor_flops_per_s = s.fp16,
          .smem_per_sm_bytes = s.smem_sm,
          .smem_per_block_bytes = s.smem_block,
          .smem_reserved_per_program_bytes = s.key == "t4" ? 0 : 1 << 10,  // sm_80+ reserve 1 KiB
          // L1 and shared memory together (the tuning guides): Turing 96 KB, A100 192, Hopper 256.
          .l1_smem_bytes = s.key == "t4"     ? 96 * KiB
                           : s.key == "a100" ? 192 * KiB
                                             : 256 * KiB,
          .registers_per_sm = 65536,
          .max_threads_per_sm = s.threads,
          .max_programs_per_sm = s.blocks,
          .sm_clock_hz = t.clock_hz,
          .fma_clock_hz = t.fma_clock_hz,
          .tensor_clock_hz = t.tensor_clock_hz,
          .tf32_tensor_flops_per_s = t.tf32,
          .has_wgmma = t.wgmma,
          .has_cp_async = s.key != "t4",               // sm_80+ (PTX ISA, cp.async)
          .smem_wide_loads_in_passes = s.key == "t4",  // compute capability 7.x
          .mma_sync_fraction = t.mma_sync_fraction,
          .l2_hit_latency_cycles = t.l2_latency,
          .dram_latency_cycles = t.dram_latency,
          .l2_bytes_per_s = t.l2_bytes_per_s,
          .sm_l2_bytes_per_cycle = t.sm_l2_bytes_per_cycle,
          .source = s.source};
}

const std::array<Machine, 4>& presets() {
  // The tensor clock's fall under sustained load (Machine::tensor_sustained_fraction): fitted on
  // the fit set of Triton's math-bound wgmma kernels (docs/TRITON_SPLIT.md), per GPU.
  const auto throttled = [](Machine m, double start, double fraction, double after_s,
                            double tau_s) {
    m.tensor_start_fraction = start;
    m.tensor_sustained_fraction = fraction;
    m.tensor_throttle_after_s = after_s;
    m.tensor_throttle_tau_s = tau_s;
    return m;
  };
  // The L2's write side as a share of the DRAM's rate (Machine::l2_write_share_of_dram), where a
  // chip's own probe measured it.
  const auto write_share = [](Machine m, double share) {
    m.l2_write_share_of_dram = share;
    return m;
  };
  // The L2's output to loads staged through registers (Machine::l2_ld_global_bytes_per_s),
  // measured on the H100 (kernels/probes/l2_bandwidth.cu); the H200 has the same L2 fabric.
  const auto ld_global_l2 = [](Machine m) {
    m.l2_ld_global_bytes_per_s = 7.38e12;
    return m;
  };
  // The effective rate a Triton kernel's dots start at: the maximum SM clock (nvidia-smi
  // clocks.max.sm, 1980 MHz on both chips) over the clock under tensor load (tensor_clock_hz,
  // 1.76 GHz). An assumption the measured clock contradicts (clock64 reads 1.60 GHz from the
  // first microsecond; docs/PARAMETERS.md says why the rate is kept): a rate, not a clock.
  constexpr double kStart = 1.98e9 / 1.76e9;
  // A T4 under continuous math is held by its 70 W cap at about 0.90 GHz (the clock under load,
  // fma_clock_hz and tensor_clock_hz below; docs/PARAMETERS.md gives the published readings),
  // while its datasheet counts both peaks at the 1.59 GHz boost. The FMA rate follows the clock
  // (fma_flops_per_s); as Hopper's fitted tensor_efficiency holds its lower clock, the T4's holds
  // its cap: 0.37 (cuBLAS FP16 at 4096^3, published).
  constexpr double kT4LoadClock = 0.90e9;
  const auto power_capped = [](Machine m) {
    m.tensor_efficiency = 0.37;
    return m;
  };
  static const std::array<Machine, 4> kPresets{
      power_capped(
          make({"t4", "T4", 40, 4 * MiB, 320e9, 8.1e12, 1.59e9, 65e12, 64 * KiB, 64 * KiB, 1024, 16,
                "NVIDIA T4 datasheet; Turing TU104 whitepaper; Turing tuning guide"},
               {1.59e9, kT4LoadClock, kT4LoadClock, 0, false, 1.0, 190, 450, 1.2e12, 32})),
      make({"a100", "A100-80GB", 108, 40 * MiB, 2039e9, 19.5e12, 1.41e9, 312e12, 164 * KiB,
            163 * KiB, 2048, 32,
            "NVIDIA A100 datasheet (SXM 80GB); A100 whitepaper; Ampere tuning guide"},
           {1.41e9, 0, 0, 156e12, false, 1.0, 200, 470, 4.8e12, 64}),
      ld_global_l2(
          throttled(make({"h100", "H100-SXM", 132, 50 * MiB, 3.35e12, 67e12, 1.98e9, 989e12,
                          228 * KiB, 227 * KiB, 2048, 32,
                          "NVIDIA H100 datasheet (SXM5); Hopper whitepaper; Hopper tuning guide"},
                         {1.83e9, 1.98e9, 1.76e9, 494e12, true, 0.67, 260, 706, 10e12, 64}),
                    kStart, 0.78, 0, 0.23e-3)),
      ld_global_l2(write_share(
          throttled(make({"h200", "H200", 132, 60 * MiB, 4.8e12, 67e12, 1.98e9, 989e12, 228 * KiB,
                          227 * KiB, 2048, 32,
                          "NVIDIA H200 datasheet (SXM); SMs and L2 read off a real H200 "
                          "(cudaGetDeviceProperties); per-SM limits as H100"},
                         {1.83e9, 1.98e9, 1.76e9, 494e12, true, 0.67, 260, 721, 10e12, 64}),
                    kStart, 0.88, 0, 0.147e-3),
          0.90)),
  };
  return kPresets;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

void check(bool ok, const char* field, const std::string& message) {
  if (!ok) throw InvalidField(std::string("machine.") + field, message);
}

}  // namespace

std::span<const Machine> machine_presets() {
  return presets();
}

std::int64_t effective_l2_bytes(const Machine& m) {
  return m.l2_bytes / std::max(1, m.l2_partitions);
}

double fma_flops_per_s(const Machine& m) {
  const double clock = m.fma_clock_hz > 0 ? m.fma_clock_hz : m.sm_clock_hz;
  const double scale = m.fp32_peak_clock_hz > 0 ? clock / m.fp32_peak_clock_hz : 1.0;
  return m.fp32_flops_per_s * scale * m.fma_efficiency;
}

std::optional<Machine> find_machine(std::string_view key) {
  const auto k = lower(key);
  for (const auto& m : presets())
    if (m.key == k || lower(m.name) == k) return m;
  return std::nullopt;
}

std::string machine_names() {
  std::string out;
  for (const auto& m : presets()) out += (out.empty() ? "" : " | ") + m.key;
  return out;
}

void validate_machine(const Machine& m) {
  check(m.sms >= 1 && m.sms <= 4096, "sms",
        "machine.sms = " + std::to_string(m.sms) + " is out of range: allowed 1..4096");
  check(m.l2_line_bytes == 128, "l2_line_bytes",
        "machine.l2_line_bytes = " + std::to_string(m.l2_line_bytes) +
            " is not supported: the L2 model uses 128-byte lines");
  check(m.l2_sector_bytes == 32, "l2_sector_bytes",
        "machine.l2_sector_bytes = " + std::to_string(m.l2_sector_bytes) +
            " is not supported: the L2 model uses 32-byte sectors");
  check(m.l2_bytes >= 128 && m.l2_bytes <= (std::int64_t{1} << 34), "l2_bytes",
        "machine.l2_bytes = " + std::to_string(m.l2_bytes) +
            " is out of range: allowed 128..17179869184 (one line .. 16 GiB)");
  check(m.l2_partitions >= 1 && m.l2_partitions <= 8 && m.l2_bytes / m.l2_partitions >= 128,
        "l2_partitions",
        "machine.l2_partitions = " + std::to_string(m.l2_partitions) +
            " is outside 1..8 or leaves a partition below one line");
  check(m.l2_ways >= 0 && m.l2_ways <= 64, "l2_ways",
        "machine.l2_ways = " + std::to_string(m.l2_ways) +
            " is out of range: allowed 0 (fully associative) .. 64");
  check(m.l2_ways == 0 || m.l2_bytes / 128 >= m.l2_ways, "l2_ways",
        "machine.l2_ways = " + std::to_string(m.l2_ways) + " exceeds the L2's lines");
  check(m.dram_bytes_per_s > 0, "dram_bytes_per_s", "machine.dram_bytes_per_s must be > 0");
  check(m.fp32_flops_per_s > 0, "fp32_flops_per_s", "machine.fp32_flops_per_s must be > 0");
  check(m.fp16_tensor_flops_per_s > 0, "fp16_tensor_flops_per_s",
        "machine.fp16_tensor_flops_per_s must be > 0");
  check(m.smem_per_sm_bytes >= 1024 && m.smem_per_block_bytes >= 1024 &&
            m.smem_per_block_bytes <= m.smem_per_sm_bytes,
        "smem_per_block_bytes",
        "machine shared memory: need 1024 <= smem_per_block_bytes <= smem_per_sm_bytes");
  check(m.l1_smem_bytes >= m.smem_per_sm_bytes && m.l1_smem_bytes <= (64ll << 20), "l1_smem_bytes",
        "machine.l1_smem_bytes = " + std::to_string(m.l1_smem_bytes) +
            " is out of range: allowed smem_per_sm_bytes (" + std::to_string(m.smem_per_sm_bytes) +
            ") .. 64 MiB");
  check(m.registers_per_sm >= 1024, "registers_per_sm", "machine.registers_per_sm must be >= 1024");
  check(m.max_threads_per_sm >= 128, "max_threads_per_sm",
        "machine.max_threads_per_sm must be >= 128 (one program of 4 warps)");
  const auto positive = [](double v) { return v > 0 && v < 1e30; };
  check(positive(m.sm_clock_hz), "sm_clock_hz", "machine.sm_clock_hz must be > 0");
  for (const auto& [v, field] :
       {std::pair{m.fma_clock_hz, "fma_clock_hz"}, {m.tensor_clock_hz, "tensor_clock_hz"}})
    check(v == 0 || (v >= 1e8 && v <= 1e10), field,
          std::string("machine.") + field + " = " + shown(v) +
              " is out of range: allowed 0 (sm_clock_hz) or 1e8..1e10 Hz");
  check(m.fp32_peak_clock_hz == 0 || (m.fp32_peak_clock_hz >= 1e8 && m.fp32_peak_clock_hz <= 1e10),
        "fp32_peak_clock_hz",
        "machine.fp32_peak_clock_hz = " + shown(m.fp32_peak_clock_hz) +
            " is out of range: allowed 0 (the FMA clock) or 1e8..1e10 Hz");
  check(m.tf32_tensor_flops_per_s >= 0 && m.tf32_tensor_flops_per_s < 1e30,
        "tf32_tensor_flops_per_s", "machine.tf32_tensor_flops_per_s must be >= 0 (0: none)");
  check(positive(m.l2_bytes_per_s), "l2_bytes_per_s", "machine.l2_bytes_per_s must be > 0");
  for (const auto& [v, field] : {std::pair{m.mma_sync_fraction, "mma_sync_fraction"},
                                 {m.dram_efficiency, "dram_efficiency"},
                                 {m.fma_efficiency, "fma_efficiency"},
                                 {m.tensor_efficiency, "tensor_efficiency"}})
    check(v > 0 && v <= 1, field,
          std::string("machine.") + field + " = " + shown(v) + " is out of range: allowed (0, 1]");
  for (const auto& [v, field] : {std::pair{m.l2_hit_latency_cycles, "l2_hit_latency_cycles"},
                                 {m.l1_hit_latency_cycles, "l1_hit_latency_cycles"},
                                 {m.dram_latency_cycles, "dram_latency_cycles"},
                                 {m.sm_l2_bytes_per_cycle, "sm_l2_bytes_per_cycle"},
                                 {m.smem_bytes_per_cycle, "smem_bytes_per_cycle"},
                                 {m.program_launch_cycles, "program_launch_cycles"}})
    check(v >= 1 && v <= 1000000, field,
          std::string("machine.") + field + " = " + shown(v) +
              " is out of range: allowed 1..1000000");
  // One range per field: "machine.<field> = <v> is out of range: allowed <allowed>".
  const auto in_range = [&](double v, double lo, double hi, const char* field,
                            const std::string& allowed) {
    check(v >= lo && v <= hi, field,
          std::string("machine.") + field + " = " + shown(v) + " is out of range: allowed " +
              allowed);
  };
  // A program may hold smem_per_block_bytes of its own plus the reserve; both must fit the SM, or
  // the largest legal program could never be resident.
  in_range(m.smem_reserved_per_program_bytes, 0,
           static_cast<double>(m.smem_per_sm_bytes - m.smem_per_block_bytes),
           "smem_reserved_per_program_bytes",
           "0 .. smem_per_sm_bytes - smem_per_block_bytes (" +
               std::to_string(m.smem_per_sm_bytes - m.smem_per_block_bytes) + " bytes here)");
  // A staged tile weighs l2_bytes_per_s / this on the L2: never less than a cp.async tile.
  check(m.l2_ld_global_bytes_per_s == 0 ||
            (m.l2_ld_global_bytes_per_s >= 1e9 && m.l2_ld_global_bytes_per_s <= m.l2_bytes_per_s),
        "l2_ld_global_bytes_per_s",
        "machine.l2_ld_global_bytes_per_s = " + shown(m.l2_ld_global_bytes_per_s) +
            " is out of range: allowed 0 (as l2_bytes_per_s) or 1e9..l2_bytes_per_s (" +
            shown(m.l2_bytes_per_s) + " bytes/s here)");
  in_range(m.program_dispatch_cycles, 0, 1000000, "program_dispatch_cycles",
           "0 (no limit) .. 1000000");
  in_range(m.older_program_share, 0.5, 1, "older_program_share",
           "0.5 (an even share) .. 1 (the older always first)");
  in_range(m.schedulers_per_sm, 1, 16, "schedulers_per_sm", "1..16");
  in_range(m.warp_issue_cycles, 1, 1000, "warp_issue_cycles", "1..1000");
  in_range(m.issue_ceiling, 0.05, 1, "issue_ceiling", "0.05..1 (instructions a cycle)");
  // A K step's noise has sd sqrt(D * t): D = 1e-5 s puts 3 us of noise on a 1 us step.
  in_range(m.dot_time_diffusion_s, 0, 1e-5, "dot_time_diffusion_s", "0..1e-5 (seconds)");
  in_range(m.dot_time_diffusion_miss_s, 0, 1e-5, "dot_time_diffusion_miss_s", "0..1e-5 (seconds)");
  in_range(m.load_round_cv, 0, 0.3, "load_round_cv",
           "0..0.3 (a round's sd over its mean; the noise reaches 3 sd)");
  in_range(m.stream_issue_cycles, 0, 100, "stream_issue_cycles", "0..100 (cycles an instruction)");
  in_range(m.warp_load_cv, 0, 1, "warp_load_cv", "0..1 (a warp's round-trip sd over its mean)");
  in_range(m.l2_write_share_of_dram, 0, 10, "l2_write_share_of_dram",
           "0..10 (of dram_bytes_per_s; 0: no limit)");
  in_range(m.partial_sector_store_cost, 1, 4, "partial_sector_store_cost",
           "1..4 (whole sectors' time a partial sector's store takes)");
  // The tensor clock's fall (Machine::tensor_sustained_fraction): a rate of 0 would make a dot
  // take forever, and the engine divides by it.
  in_range(m.tensor_start_fraction, 0.5, 2, "tensor_start_fraction",
           "0.5..2 (of the preset's rate)");
  in_range(m.tensor_sustained_fraction, 0.1, 2, "tensor_sustained_fraction",
           "0.1..2 (of the preset's rate)");
  in_range(m.tensor_throttle_after_s, 0, 10, "tensor_throttle_after_s", "0..10 (seconds)");
  in_range(m.tensor_throttle_tau_s, 0, 10, "tensor_throttle_tau_s", "0..10 (seconds)");
  check(m.max_programs_per_sm >= 1 && m.max_programs_per_sm <= 64, "max_programs_per_sm",
        "machine.max_programs_per_sm = " + std::to_string(m.max_programs_per_sm) +
            " is out of range: allowed 1..64");
}

}  // namespace tilesim::sim
