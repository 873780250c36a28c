// Step costs: the per-step durations of sim/timing/step_costs.hpp, from the machine's peaks, widths
// and latencies and the warp model's bank-conflict degrees.
#include "sim/timing/step_costs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "sim/base/enum_names.hpp"
#include "sim/program/carveout.hpp"

namespace tilesim::sim {
namespace {

// wgmma runs on warpgroups of 4 warps (PTX ISA): a warpgroup reads its own B operand.
constexpr int kWarpsPerWarpgroup = 4;

// Latencies count cycles of the nominal clock; pipelines (issue, shared memory, the fill path)
// cycles of the clock the kernel's math path runs at (Machine::fma_clock_hz, tensor_clock_hz).
std::int64_t ps_of_cycles(double cycles, double clock_hz) {
  return std::llround(cycles * 1e12 / clock_hz);
}
std::int64_t ps_of_cycles(double cycles, const Machine& m) {
  return ps_of_cycles(cycles, m.sm_clock_hz);
}

std::int64_t ps_of_flops(double flops, double per_s) {
  return std::llround(flops / per_s * 1e12);
}

// Wavefronts to move `bytes` through shared memory without conflicts (one per cycle).
double wavefronts(std::int64_t bytes, const Machine& m) {
  return std::ceil(static_cast<double>(bytes) / m.smem_bytes_per_cycle);
}

ThreadVariant default_variant(Kernel k) {
  return k == Kernel::transpose ? ThreadVariant::transpose_smem_tiled
                                : ThreadVariant::matmul_smem_tiled;
}

// A register-staged wgmma loop's reload of a spilled word: an L1 hit where the loop's local
// lines stay in the L1 (kLocalL1ResidentHitShare of them), else an L2 round trip. They stay
// where the SM's resident programs' reloaded words (a warp's 32-bit local load is a 128-byte
// line: 4 bytes a thread) and spilled accumulator fragments, and one K step's tiles passing
// through the L1 between two reloads of a word (ld.global caches them there), fit in the L1
// the driver's carveout leaves (sim/program/carveout). Average picoseconds a reload.
double local_reload_latency_ps(const Problem& p, const Machine& m, const TritonChoices& t,
                               int programs_per_sm, const StepCosts& c) {
  // The carveout for Triton's shared bytes and the programs the engine keeps resident.
  const std::int64_t carveout =
      driver_carveout_bytes(m, triton_shared_bytes(p, t), programs_per_sm);
  const double residents = std::max(1, programs_per_sm);
  const double local_bytes = residents * static_cast<double>(p.threads_per_program()) * 4.0 *
                             (t.loop_local_loads + t.spilled_accumulators);
  const double tile_bytes =
      residents * static_cast<double>((p.block_m() + p.block_n()) * p.block_k() * p.elem_bytes());
  const double l1_bytes = static_cast<double>(m.l1_smem_bytes - carveout);
  const double hit = local_bytes + tile_bytes <= l1_bytes ? kLocalL1ResidentHitShare : 0.0;
  return hit * static_cast<double>(ps_of_cycles(m.l1_hit_latency_cycles, m)) +
         (1.0 - hit) * static_cast<double>(c.l2_hit_latency_ps);
}

}  // namespace

std::string_view to_string(SmemLayout l) {
  return l == SmemLayout::swizzled ? "swizzled" : "plain";
}

std::optional<SmemLayout> parse_smem_layout(std::string_view s) {
  for (const SmemLayout l : {SmemLayout::swizzled, SmemLayout::plain})
    if (s == to_string(l)) return l;
  return std::nullopt;
}

std::int64_t load_width(const TimingOptions& t, std::int64_t elem_bytes) {
  return t.load_bytes > 0 ? t.load_bytes : elem_bytes;
}

std::int64_t loaded_round_ps(const StepCosts& c, double n, double read_share) {
  const double xp = c.dram_bytes_per_ps_per_sm * read_share,
               l0 = static_cast<double>(c.dram_latency_ps);
  if (n <= 0 || xp <= 0) return c.dram_latency_ps;
  const double x = xp * -std::expm1(-n / (xp * l0));  // bytes per ps, per SM
  return std::llround(n / x);
}

double slowest_warp_shift(int warps, double warp_load_cv) {
  // E[max of n iid standard normals], n = 1..32 (numerical integration of
  // n x phi(x) Phi(x)^(n-1), step 1e-3): a table, so every machine gets the same figures.
  static constexpr std::array<double, 32> kExpectedMax{
      0.0000, 0.5642, 0.8463, 1.0294, 1.1630, 1.2672, 1.3522, 1.4236, 1.4850, 1.5388, 1.5864,
      1.6292, 1.6680, 1.7034, 1.7359, 1.7660, 1.7939, 1.8200, 1.8445, 1.8675, 1.8892, 1.9097,
      1.9292, 1.9477, 1.9653, 1.9822, 1.9983, 2.0137, 2.0285, 2.0428, 2.0565, 2.0697};
  const int n = std::clamp(warps, 1, static_cast<int>(kExpectedMax.size()));
  return kExpectedMax[static_cast<std::size_t>(n - 1)] * warp_load_cv;
}

std::int64_t queued_round_ps(const StepCosts& c, std::int64_t dram_ps, int readers,
                             double latency_factor) {
  return std::llround(static_cast<double>(dram_ps) * latency_factor) +
         std::int64_t{readers} * c.smem_turn_ps;
}

std::pair<int, int> warp_grid(int block_m, int block_n, int num_warps) {
  int wm = 1, wn = 1;
  while (wm * wn < num_warps) {
    if (block_m / 16 / wm >= block_n / (8 * wn)) {
      if (wm < std::max(1, block_m / 16))
        wm *= 2;
      else
        wn *= 2;
    } else {
      wn *= 2;
    }
  }
  return {wm, wn};
}

double pipe_clock_hz(const Machine& m, MathPath path) {
  const double hz = path == MathPath::fma ? m.fma_clock_hz : m.tensor_clock_hz;
  return hz > 0 ? hz : m.sm_clock_hz;
}

double issue_cycles(double instructions, int warps, int resident_warps, const Machine& m,
                    double warp_cycles) {
  const double per_scheduler = static_cast<double>(resident_warps) / m.schedulers_per_sm;
  const double interval = warp_cycles > 0 ? warp_cycles : m.warp_issue_cycles;
  const double rate = m.schedulers_per_sm * std::min(m.issue_ceiling, per_scheduler / interval);
  return instructions * warps / rate;
}

TimingOptions counted_for(TimingOptions t, const Problem& p) {
  if (!t.counted_at) return t;
  const TimingOptions::CountedAt& at = *t.counted_at;
  const bool same = at.block_m == p.block_m() && at.block_n == p.block_n() &&
                    at.block_k == p.block_k() && at.num_warps == p.num_warps() &&
                    (at.stages == 0 || at.stages == p.spec().stages);
  if (same) return t;
  if (at.tile_at_run_time) {
    // FMAs per warp per K step, here over where it was counted (BM BN BK / warps each).
    const double here =
        static_cast<double>(p.block_m() * p.block_n() * p.block_k()) / p.num_warps();
    const double there = static_cast<double>(at.block_m) * at.block_n * at.block_k / at.num_warps;
    t.warp_instructions *= here / there;
    return t;
  }
  t.warp_instructions = 0;
  t.warp_issue_cycles = 0;
  t.registers_per_thread = 0;
  return t;
}

StepCosts step_costs(const Problem& p, const Machine& m, const TimingOptions& options,
                     int programs_per_sm) {
  const TimingOptions opt = counted_for(options, p);
  StepCosts c;
  const std::int64_t e = p.elem_bytes();
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  const int warps = p.num_warps();
  const bool matmul = p.kernel() == Kernel::matmul;

  c.launch_ps = ps_of_cycles(m.program_launch_cycles, m);
  c.dispatch_ps = ps_of_cycles(m.program_dispatch_cycles, m);
  c.l2_hit_latency_ps = ps_of_cycles(m.l2_hit_latency_cycles, m);
  c.dram_latency_ps = ps_of_cycles(m.dram_latency_cycles, m);
  if (matmul)
    c.tile_slowest_warp_ps = std::llround(static_cast<double>(c.dram_latency_ps) *
                                          slowest_warp_shift(warps, m.warp_load_cv));
  c.dram_ps_per_byte = 1e12 / (m.dram_bytes_per_s * m.dram_efficiency);
  c.l2_ps_per_byte = 1e12 / m.l2_bytes_per_s;
  if (m.l2_write_share_of_dram > 0)
    c.l2_write_ps_per_byte = 1e12 / (m.l2_write_share_of_dram * m.dram_bytes_per_s);
  // What Triton compiles (sim/compiler), for a Triton program.
  const std::optional<TritonChoices> triton =
      opt.triton ? std::optional<TritonChoices>(triton_choices(p, m)) : std::nullopt;
  if (triton) {
    c.store_sector_weight = store_sector_weight(triton->c, m.partial_sector_store_cost);
    // Tiles staged through registers (ld.global) come out of the L2 slower than cp.async's
    // (Machine::l2_ld_global_bytes_per_s): they weigh more on its output.
    const double ld_weight =
        m.l2_ld_global_bytes_per_s > 0 ? m.l2_bytes_per_s / m.l2_ld_global_bytes_per_s : 1.0;
    const auto weight = [&](const OperandChoice& o) {
      return o.path == LoadPath::ld_global ? ld_weight : 1.0;
    };
    c.l2_weight_a = weight(triton->a);
    c.l2_weight_b = weight(triton->b);
    if (matmul) {
      const auto round_trip = [&](const OperandChoice& o) {
        return o.path == LoadPath::cp_async ? ps_of_cycles(kCpAsyncRoundTripCycles, m)
                                            : std::int64_t{0};
      };
      c.cp_async_round_trip_a_ps = round_trip(triton->a);
      c.cp_async_round_trip_b_ps = round_trip(triton->b);
    }
    // A copy's or transpose's tile is Triton's operand A (sim/compiler), always ld.global.
    c.l2_weight_load = weight(triton->a);
  }

  c.path = matmul ? opt.path.value_or(triton_dot_path(p, m)) : MathPath::fma;
  if (c.path == MathPath::wgmma && !m.has_wgmma)
    throw InvalidField("input_precision", m.name + " has no wgmma (Hopper only)");
  c.pipe_clock_hz = pipe_clock_hz(m, c.path);
  const auto pipe_ps = [&](double cycles) { return ps_of_cycles(cycles, c.pipe_clock_hz); };
  c.fill_ps_per_byte = 1e12 / (m.sm_l2_bytes_per_cycle * c.pipe_clock_hz);
  // Triton lays out the shared tile of a transpose's layout conversion (and of its tensor-core
  // operands) swizzled: no bank conflicts (a CUDA rung's plain tile conflicts).
  const bool swizzled_default =
      (matmul && c.path != MathPath::fma) || (opt.triton && p.kernel() == Kernel::transpose);
  c.layout = opt.layout.value_or(swizzled_default ? SmemLayout::swizzled : SmemLayout::plain);
  if (opt.triton) c.start_ps = std::llround(kTritonLaunchOverheadS * 1e12);
  if (opt.triton && matmul && c.path != MathPath::fma) {
    c.start_fraction = m.tensor_start_fraction;
    c.sustained_fraction = m.tensor_sustained_fraction;
    c.throttle_after_ps = std::llround(m.tensor_throttle_after_s * 1e12);
    c.throttle_tau_ps = std::llround(m.tensor_throttle_tau_s * 1e12);
  }
  // The warp model of one whole program (pid 0): a plain layout's wavefronts per request of its
  // shared loads/stores, and an FMA rung's own count of shared-load instructions.
  // (A Triton matmul's tiles and dot reads count their conflicts from the compiler's layouts
  // below, sim/compiler, not from a CUDA rung's thread program.)
  const bool plain =
      c.layout == SmemLayout::plain && p.kernel() != Kernel::copy && !(opt.triton && matmul);
  const bool fma_rung = matmul && c.path == MathPath::fma && opt.variant;
  const ThreadVariant variant = opt.variant.value_or(default_variant(p.kernel()));
  const WarpAccessCounters w =
      plain || fma_rung ? warp_access_program(p, variant, 0) : WarpAccessCounters{};
  if (plain && w.shared_ld_requests > 0)
    c.smem_load_degree = static_cast<double>(w.shared_ld_wavefronts) / w.shared_ld_requests;
  if (plain && w.shared_st_requests > 0)
    c.smem_store_degree = static_cast<double>(w.shared_st_wavefronts) / w.shared_st_requests;

  // A warp runs on one of the SM's sub-partitions (a scheduler each, 4 on every preset): fewer
  // warps than schedulers leave math idle.
  const double warp_share = std::min(1.0, warps / static_cast<double>(m.schedulers_per_sm));
  const double per_sm = [&] {
    switch (c.path) {
      case MathPath::fma:
        return fma_flops_per_s(m);
      case MathPath::mma_sync:
        return (p.spec().dtype == DType::fp32 ? m.tf32_tensor_flops_per_s
                                              : m.fp16_tensor_flops_per_s) *
               m.mma_sync_fraction * m.tensor_efficiency;
      case MathPath::wgmma:
        return (p.spec().dtype == DType::fp32 ? m.tf32_tensor_flops_per_s
                                              : m.fp16_tensor_flops_per_s) *
               m.tensor_efficiency;
    }
    return m.fp32_flops_per_s;
  }() / m.sms;
  c.program_flops_per_s = per_sm * warp_share;

  if (matmul) {
    const auto [wm, wn] = warp_grid(static_cast<int>(bm), static_cast<int>(bn), warps);
    c.warps_m = wm, c.warps_n = wn;
    c.dot_math_ps = ps_of_flops(2.0 * bm * bn * bk, c.program_flops_per_s);
    // Tensor cores: each warp reads the A rows and B columns of its part of the output tile
    // (ldmatrix, whole wavefronts), so A is read warps_n times and B warps_m times; wgmma's
    // warpgroups (4 warps, split along M) read their A rows once and the whole B tile each.
    double wf = 0;
    double conflict_free_wf = -1;  // (< 0: wf has no conflicts)
    double dot_loads = -1;         // shared-load instructions a program per K step (< 0: wf)
    if (triton && c.path == MathPath::fma) {
      // Triton's FMA dot: its layout's 16-byte ld.shared, and their bank conflicts.
      const FmaDotReads& f = triton->fma;
      wf = warps * (f.a_wavefronts + f.b_wavefronts);
      conflict_free_wf = warps * f.conflict_free_wavefronts;
      dot_loads = warps * (f.a_loads + f.b_loads);
    } else if (fma_rung && w.shared_ld_requests > 0) {
      // An FMA rung's own code: its warp model's shared-load instructions per K step (the inner
      // product's; the tile fills are stores), one wavefront each without conflicts. What a
      // thread reuses from registers is the kernel's choice: matmul_smem_tiled reuses nothing (2
      // loads per FMA), seed 003's pair a 4 x 4 micro-tile (as the formula below assumes).
      const std::int64_t k_tiles = Problem(model_spec(variant, p.spec())).k_tiles();
      wf = static_cast<double>(w.shared_ld_requests) / static_cast<double>(k_tiles);
    } else if (c.path == MathPath::fma) {
      // FMA: each thread keeps a (mm, mn) micro-tile of the output and, per k, loads mm values
      // of A and mn of B with scalar ld.shared: one wavefront per warp instruction (the lanes
      // that share a value get it by broadcast), so wavefronts count instructions, not bytes.
      const std::int64_t outputs = std::max<std::int64_t>(1, bm * bn / (32 * warps));
      std::int64_t mm = 1;
      while (mm * mm * 4 <= outputs) mm *= 2;
      const std::int64_t mn = outputs / mm;
      wf = static_cast<double>(warps * bk * (mm + mn));
    } else {
      const std::int64_t reads =
          c.path == MathPath::wgmma
              ? (bm * bk + bk * bn * std::max(1, warps / kWarpsPerWarpgroup)) * e
              : (bm * bk * wn + bk * bn * wm) * e;
      wf = wavefronts(reads, m);
    }
    c.operands_overlap_math = c.path != MathPath::mma_sync || opt.fragments_double_buffered;
    if (opt.triton && c.path == MathPath::fma) c.exposed_share = kTritonFmaExposedShare;
    // Instruction issue. An FMA dot without a counted loop issues one FFMA per output and k per
    // thread, plus its shared loads (one instruction per wavefront without conflicts, above).
    c.dot_warp_instructions = opt.warp_instructions;
    if (c.dot_warp_instructions <= 0 && c.path == MathPath::fma)
      c.dot_warp_instructions = static_cast<double>(bm * bn * bk) / (32.0 * warps) +
                                (dot_loads >= 0 ? dot_loads : wf) / warps;
    // The dot's issue time with 1 .. programs_per_sm programs on the SM
    // (dot_issue_ps_by_residents).
    const auto set_dot_issue = [&] {
      c.dot_issue_ps_by_residents.clear();
      for (int r = 1; r <= std::max(1, programs_per_sm); ++r)
        c.dot_issue_ps_by_residents.push_back(pipe_ps(
            issue_cycles(c.dot_warp_instructions, warps, warps * r, m, opt.warp_issue_cycles)));
      c.dot_issue_ps = c.dot_issue_ps_by_residents.back();
    };
    if (c.dot_warp_instructions > 0) set_dot_issue();
    c.dot_smem_free_ps = pipe_ps(conflict_free_wf >= 0 ? conflict_free_wf : wf);
    c.dot_smem_ps = pipe_ps(wf * c.smem_load_degree);
    c.dot_overhead_ps = pipe_ps(kLoopOverheadCycles);
    c.accumulator_registers = static_cast<int>(bm * bn / (32 * warps));
    c.spilled_registers =
        std::max(0, c.accumulator_registers + kBaseRegisters - kMaxRegistersPerThread);
    // Each spilled register is stored and loaded once per K-iteration through the L1, which
    // shares its width with shared memory (4 bytes per thread each way).
    c.dot_spill_ps = pipe_ps(wavefronts(
        std::int64_t{c.spilled_registers} * kSpillBytesPerRegister * p.threads_per_program(), m));
    double a_wf = wavefronts(bm * bk * e, m), b_wf = wavefronts(bk * bn * e, m);
    c.pipeline_stages = p.spec().stages;
    if (opt.triton) {
      // What Triton compiles (sim/compiler): each tile's copy into shared memory costs its warp
      // accesses' wavefronts (bank conflicts of a K-major tf32 B included), and a tile staged
      // through registers (ld.global) also its accesses' L1 lines, on the same L1/shared data
      // pipe; such a tile is not pipelined, and neither, then, is the loop.
      const TritonChoices& t = *triton;
      // Beside an FMA dot, whose own ld.shared fill the L1's data stage, a cp.async's line
      // lookups and its extra L2 requests pass the L1's tag and miss stages without holding
      // that pipe: only its data does (its wavefronts, and the data-bank passes of lanes across
      // rows). ncu at N = 4100 (assets/measured/ncu_odd_n_source_h200.csv): the copies' LDGSTS
      // draw 0.7-0.9 % of the warps' stall samples, the FFMAs waiting on the LDS 55-60 %. On the
      // tensor-core paths the copies are the pipe's only users and their lookups its time.
      const bool lookups_beside_reads = c.path == MathPath::fma;
      const auto tile_wf = [&](const OperandChoice& o) {
        // A cp.async moves a warp's lanes kCpAsyncLanesPerCycle a cycle, whatever their width.
        const double per_access =
            o.path == LoadPath::cp_async
                ? std::max(o.smem_wavefronts_per_access, 32.0 / kCpAsyncLanesPerCycle)
                : o.smem_wavefronts_per_access;
        double wf = static_cast<double>(o.warp_accesses) * per_access;
        const bool lookups = !(lookups_beside_reads && o.path == LoadPath::cp_async);
        // Through the L1 (ld.global, and a cp.async narrower than 16 bytes, which only the
        // caching .ca form copies): its lines' lookups too.
        if (lookups && (o.path == LoadPath::ld_global || o.access_bytes < 16))
          wf += static_cast<double>(o.warp_accesses) * o.lines_per_access / kL1LinesPerCycle;
        // An element-wise cp.async from rows that start off a line: each line an access touches
        // beyond what rows on a line would (a second L2 request for the row's chunk) holds
        // the pipe kMidSectorLineCycles (ncu at 4100^3 against the same kernel on aligned rows:
        // 54-72 % more L2 requests, the K step 4.8-7.1 SM cycles longer for each;
        // assets/measured/ncu_narrow_matmul_h200.csv).
        if (lookups && o.path == LoadPath::cp_async && o.access_bytes < 16)
          wf += static_cast<double>(o.warp_accesses) * extra_lines_per_access(o) *
                kMidSectorLineCycles;
        // Lanes across rows: the words' bank conflict in the L1's data banks, beyond the one
        // wavefront any access's data takes. Measured on cp.async only (ncu: the pipe's
        // wavefronts, 4104^3 against 4100^3); an ld.global's data leaves the L1 for registers by
        // another path, unmeasured, and is not charged (charging it moved fp16 at 4095^3 with a
        // row-major B, already over, 5 points further over: docs/TRITON_FINDINGS.md).
        if (o.path == LoadPath::cp_async)
          wf += static_cast<double>(o.warp_accesses) * (o.l1_bank_ways - 1);
        return wf;
      };
      a_wf = tile_wf(t.a), b_wf = tile_wf(t.b);
      const bool staged = t.a.path == LoadPath::ld_global || t.b.path == LoadPath::ld_global;
      c.pipeline_stages = staged ? 1 : std::max(1, t.pipeline_buffers);
      // On the wgmma path a stage's num_stages buffers outlast its dot (the dot reads shared
      // memory asynchronously): program order is what holds the next copies back. On mma.sync
      // and FMA (num_stages - 1 buffers, read into registers before the copies go out) the
      // buffer rule already says as much.
      c.loads_in_program_order = t.dot == MathPath::wgmma;
      // A tile staged through registers is copied by the warps' own instructions (ld.global,
      // st.shared, the element pointers' advance and masks), each K step. An element-wise
      // cp.async (a 4-byte copy of an fp32 tile Triton could not vectorize: one pointer and mask
      // per element, as a staged load has) costs the same instructions. (A 16-byte cp.async
      // tile costs a few instructions a vector, not counted.)
      double staged_per_warp = 0;
      for (const OperandChoice* o : {&t.a, &t.b})
        if (o->path == LoadPath::ld_global || o->layout_elems == 1)
          staged_per_warp += static_cast<double>(o->warp_accesses) / warps;
      const double staged_instructions =
          kStagedLoopInstructions + staged_per_warp * kStagedAccessInstructions;
      if (staged && c.path != MathPath::fma && opt.warp_instructions <= 0) {
        // Not pipelined, on tensor cores: the whole K step's instruction stream runs in series
        // with the dot and the round trip (StepCosts::staged_issue_ps; ncu at 8192 x 8192 x
        // 8190, 8 warps, one program an SM: 220 instructions a warp a K step with A staged, 376
        // with both, each costing about 2.2 cycles of the K step, beside the latency and the
        // dot: assets/measured/ncu_staged_h200.csv).
        // A program's warps issue at their own rate (each warp once every warp_issue_cycles):
        // a neighbour on the SM can only slow them, never lend them its issue slots.
        c.staged_issue_ps =
            pipe_ps(issue_cycles(staged_instructions, warps, warps, m, opt.warp_issue_cycles));
      } else if (staged_per_warp > 0 && opt.warp_instructions <= 0) {
        // Pipelined (element-wise cp.async beside an asynchronous dot), or an FMA dot whose
        // FFMAs share the schedulers with them: the dot cannot go faster than the program's
        // warps issue them all (ncu: 162.6 a warp a K step at 4095^3 tf32, 128 x 128 x 32 and 8
        // warps, for 44.6 + 4.05 x 32 = 174; 2,357 in fp32 FMA, for these, 2,048 FFMA and 160
        // ld.shared = 2,382; assets/measured/triton_h100.json).
        c.dot_warp_instructions += staged_instructions;
        set_dot_issue();
      }
      // Spills: a wgmma's spilled accumulator fragments are reloaded (and stored) every K step
      // from the L2, at the rate a few warps' outstanding local loads allow. The other spills
      // stay in the L1, as above, except in a register-staged wgmma loop: there they are the
      // census rule's offset reloads, each a round trip in series with the K step,
      // kSpillReloadsInFlight of them at a time (the version-2 supplement at 3001^3, fit:
      // 100-220 ns a reload beyond the model's time without them on the H100, against 142 ns
      // for 260 cycles at 1.83 GHz). The round trip ends in the L1 where the loop's local
      // lines stay there (local_reload_latency_ps), else in the L2.
      c.spilled_registers = t.spilled_registers;
      const std::int64_t threads = p.threads_per_program();
      const bool offsets_reloaded = staged && c.path == MathPath::wgmma;
      const double reload_cycles = static_cast<double>(t.spilled_accumulators) *
                                   kSpillBytesPerRegister * threads /
                                   (warps * kSpillReloadBytesPerWarpCycle);
      const std::int64_t l1_spills =
          offsets_reloaded ? 0 : c.spilled_registers - t.spilled_accumulators;
      c.dot_spill_ps =
          pipe_ps(wavefronts(l1_spills * kSpillBytesPerRegister * threads, m) + reload_cycles);
      if (offsets_reloaded)
        c.staged_reload_ps =
            std::llround(t.loop_local_loads * local_reload_latency_ps(p, m, t, programs_per_sm, c) /
                         kSpillReloadsInFlight);
    }
    c.load_a_smem_free_ps = pipe_ps(a_wf);
    c.load_b_smem_free_ps = pipe_ps(b_wf);
    c.load_a_smem_ps = pipe_ps(a_wf * c.smem_store_degree);
    c.load_b_smem_ps = pipe_ps(b_wf * c.smem_store_degree);
  }
  if (!matmul && opt.loads_in_flight > 0) {
    // The tile's loads go out `loads_in_flight` per thread at a time (each thread's next load
    // waits for the previous ones: a copy or transpose loop whose every iteration sits behind its
    // own exit branch keeps one). Reads get the share of the DRAM's rate that the recent
    // traffic gives them (the engine's read_share): half, for a copy or transpose in flow.
    const std::int64_t width = load_width(opt, e);
    const std::int64_t threads = p.threads_per_program();
    const std::int64_t per_thread = std::max<std::int64_t>(1, cdiv(bm * bn * e, width * threads));
    const std::int64_t per_round = std::min<std::int64_t>(opt.loads_in_flight, per_thread);
    const std::int64_t rounds = cdiv(per_thread, per_round);
    c.load_rounds = rounds;
    c.round_slowest_warp =
        slowest_warp_shift(warps, m.warp_load_cv) / std::sqrt(static_cast<double>(rounds));
    // (A tile smaller than one access per thread fills only part of its round.)
    c.load_round_bytes = std::min(threads * per_round * width, bm * bn * e);
    c.stream_warp_instructions = opt.program_warp_instructions +
                                 opt.load_warp_instructions * static_cast<double>(per_thread);
    c.stream_ps = pipe_ps(c.stream_warp_instructions * m.stream_issue_cycles);
    c.dram_bytes_per_ps_per_sm = m.dram_bytes_per_s * m.dram_efficiency / m.sms * 1e-12;
  }
  if (p.kernel() == Kernel::transpose) {
    const double wf = wavefronts(bm * bn * e, m);
    c.load_a_smem_free_ps = pipe_ps(wf);
    c.load_a_smem_ps = pipe_ps(wf * c.smem_store_degree);
    c.transpose_smem_free_ps = pipe_ps(wf);
    c.transpose_smem_ps = pipe_ps(wf * c.smem_load_degree);
    const double per_thread = static_cast<double>(bm * bn) / p.threads_per_program();
    c.smem_turn_ps = pipe_ps(wf * c.smem_load_degree / std::max(1.0, per_thread));
  }
  return c;
}

}  // namespace tilesim::sim
