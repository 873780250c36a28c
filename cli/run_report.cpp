// Formatting of replay results for tilesim-cli run and sweep.
#include "cli/run_report.hpp"

#include <cstdio>

#include "cli/problem_flags.hpp"
#include "scenario/triton_choices_report.hpp"
#include "sim/compiler/triton_choices.hpp"

namespace tilesim::cli {

std::string breakdown_text(const sim::TimingSummary& t) {
  std::string out;
  const double total = t.breakdown.total();
  for (int c = 0; c < sim::kTimeCauses; ++c) {
    const double share = total > 0 ? t.breakdown.seconds[static_cast<std::size_t>(c)] / total : 0;
    if (share < 0.005) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.0f%%", out.empty() ? "" : ", ",
                  std::string(sim::to_string(static_cast<sim::TimeCause>(c))).c_str(), 100 * share);
    out += buf;
  }
  return out;
}

std::string problem_line(const sim::ProblemSpec& s) {
  // K and BLOCK_K exist only for matmul, GROUP_SIZE_M only for the grouped orders: a copy or a
  // transpose shows neither, so no default of another kernel reads as if it applied.
  const bool matmul = s.kernel == sim::Kernel::matmul;
  const bool grouped =
      s.order == sim::LaunchOrder::grouped || s.order == sim::LaunchOrder::grouped_legacy;
  char buf[256];
  if (matmul)
    std::snprintf(buf, sizeof buf, "matmul %lldx%lldx%lld %s, blocks %dx%dx%d", (long long)s.m,
                  (long long)s.n, (long long)s.k, std::string(sim::to_string(s.dtype)).c_str(),
                  s.block_m, s.block_n, s.block_k);
  else
    std::snprintf(buf, sizeof buf, "%s %lldx%lld %s, blocks %dx%d",
                  std::string(sim::to_string(s.kernel)).c_str(), (long long)s.m, (long long)s.n,
                  std::string(sim::to_string(s.dtype)).c_str(), s.block_m, s.block_n);
  std::string out = buf;
  out += ", " + std::string(sim::to_string(s.order)) + " order";
  if (grouped) out += " (GROUP_SIZE_M = " + std::to_string(s.group_size_m) + ")";
  return out;
}

std::string replay_text(const sim::Problem& p, const sim::Machine& m, const sim::ReplayResult& r) {
  const auto& c = r.counters;
  const auto& s = p.spec();
  const double out_bytes =
      static_cast<double>(p.shape(sim::Operand::c).elements()) * p.elem_bytes();
  char buf[2048];
  std::snprintf(
      buf, sizeof buf,
      "%s, on %s\n"
      "  programs        %lld in %lld wave%s of %lld (%d SMs x %d per SM; %s)\n"
      "  events          %lld (%lld tile loads, %lld tile stores)\n"
      "  DRAM read       %s (compulsory: %s, each input byte once)\n"
      "  DRAM written    %s (compulsory: %s, the output once)\n"
      "  L2 served       %s to SMs, hit rate %.1f%% (loads %.1f%%)\n"
      "  shared memory   %s written, %s read; registers %s\n"
      "  FLOPs           %.4g, arithmetic intensity %.1f FLOP/B\n"
      "  store lanes     %lld, valid %lld\n"
      "  roofline        %.3g s, %s bound (DRAM %.3g s, compute %.3g s)\n"
      "  time (timed)    %.4g s, %.1f TFLOP/s, DRAM %.0f GB/s; %s bound (%s path, %d warps)\n"
      "  time went to    %s\n",
      problem_line(s).c_str(), m.name.c_str(), (long long)p.programs(), (long long)r.waves,
      r.waves == 1 ? "" : "s", (long long)m.sms * r.occupancy.programs_per_sm, m.sms,
      r.occupancy.programs_per_sm, r.occupancy.reason.c_str(), (long long)c.events,
      (long long)c.tile_loads, (long long)c.tile_stores, format_bytes(c.dram_read_bytes).c_str(),
      format_bytes(p.compulsory_bytes() - out_bytes).c_str(),
      format_bytes(c.dram_write_bytes).c_str(), format_bytes(out_bytes).c_str(),
      format_bytes(c.l2_read_bytes).c_str(), 100 * c.l2_hit_rate(), 100 * c.l2_load_hit_rate(),
      format_bytes(c.smem_write_bytes).c_str(), format_bytes(c.smem_read_bytes).c_str(),
      format_bytes(c.register_bytes).c_str(), c.flops, c.arithmetic_intensity(),
      (long long)c.store_lanes, (long long)c.valid_store_lanes, r.roofline.time_s,
      std::string(sim::to_string(r.roofline.bound)).c_str(), r.roofline.dram_time_s,
      r.roofline.compute_time_s, r.timing.time_s(), tflops(p, r), dram_bytes_per_s(r) / 1e9,
      std::string(sim::to_string(r.timing.breakdown.bound())).c_str(),
      std::string(sim::to_string(r.timing.costs.path)).c_str(), p.num_warps(),
      breakdown_text(r.timing).c_str());
  return buf + triton_choices_text(p, m);
}

std::string triton_choices_text(const sim::Problem& p, const sim::Machine& m) {
  const sim::TritonChoices t = sim::triton_choices(p, m);
  std::string out = std::string(scenario::kTritonChoicesTitle) + "\n";
  // The labels in the column of the replay's lines above (2 + 16 characters).
  const auto line = [&out](const std::string& label, const std::string& text) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "  %-16s", label.c_str());
    out += buf + text + "\n";
  };
  for (const auto& l : scenario::triton_choice_lines(p, t)) line(l.label, l.text);
  for (std::size_t i = 0; i < t.notes.size(); ++i) line(i == 0 ? "notes" : "", t.notes[i]);
  return out;
}

}  // namespace tilesim::cli
