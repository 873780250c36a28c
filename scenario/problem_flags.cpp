// Resolution order: defaults (seed 004's example) < scenario file < flags.
#include "scenario/problem_flags.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "kernels/rung_timing.hpp"
#include "scenario/kernel_file.hpp"

namespace tilesim::scenario {
namespace {

template <class E>
void apply_enum(const std::string& value, const char* field, E* out) {
  if (!value.empty()) *out = sim::parse_field<E>(field, value);
}

}  // namespace

CLI::Validator integer_field(std::string field, std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [field, lo, hi](std::string& text) -> std::string {
        std::int64_t v = 0;
        const char* end = text.data() + text.size();
        const auto [p, ec] = std::from_chars(text.data(), end, v);
        if (ec == std::errc::result_out_of_range)
          throw sim::InvalidField(field, field + " = " + text + " is out of range: allowed " +
                                             std::to_string(lo) + ".." + std::to_string(hi));
        if (ec != std::errc() || p != end || text.empty())
          throw sim::InvalidField(field, field + " = \"" + text + "\" is not an integer: allowed " +
                                             std::to_string(lo) + ".." + std::to_string(hi));
        sim::check_range(field, v, lo, hi);
        return {};
      },
      std::to_string(lo) + ".." + std::to_string(hi));
}

CLI::Validator real_field(std::string field, double lo, double hi) {
  return CLI::Validator(
      [field, lo, hi](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end || !(v >= lo && v <= hi)) {
          char range[64];
          std::snprintf(range, sizeof range, "%g..%g", lo, hi);
          throw sim::InvalidField(
              field, field + " = \"" + text + "\" is not allowed: a number in " + range);
        }
        return {};
      },
      "");
}

void ProblemFlags::add_to(CLI::App& cmd, bool with_machine) {
  cmd.add_option("--scenario", scenario_file, "Scenario JSON file (assets/scenarios/*.json)");
  cmd.add_option("--kernel", kernel, "copy | transpose | matmul");
  o_m = cmd.add_option("--m", m, "Rows M (1..65536)")->check(integer_field("m", 1, sim::kMaxDim));
  o_n =
      cmd.add_option("--n", n, "Columns N (1..65536)")->check(integer_field("n", 1, sim::kMaxDim));
  o_k = cmd.add_option("--k", k, "Reduction size K for matmul (1..65536)")
            ->check(integer_field("k", 1, sim::kMaxDim));
  cmd.add_option("--dtype", dtype, "fp16 | bf16 | fp32");
  o_bm = cmd.add_option("--block-m", block_m, "BLOCK_M: power of two, 1..256")
             ->check(integer_field("block_m", 1, sim::kMaxBlock));
  o_bn = cmd.add_option("--block-n", block_n, "BLOCK_N: power of two, 1..256")
             ->check(integer_field("block_n", 1, sim::kMaxBlock));
  o_bk = cmd.add_option("--block-k", block_k, "BLOCK_K: power of two, 1..256")
             ->check(integer_field("block_k", 1, sim::kMaxBlock));
  o_gm = cmd.add_option("--group-m", group_m, "GROUP_SIZE_M (>= 1)")
             ->check(integer_field("group_size_m", 1, sim::kMaxGroupSizeM));
  cmd.add_option("--order", order, "row-major | column-major | grouped | grouped-legacy");
  cmd.add_option("--boundary", boundary, "mask | wrap");
  cmd.add_option("--b-layout", b_layout, "row-major | transposed (seed 003's coalesced B)");
  o_stages =
      cmd.add_option("--stages", stages, "Pipeline stages of A/B tiles in shared memory (1..8)")
          ->check(integer_field("stages", 1, sim::kMaxStages));
  o_warps = cmd.add_option("--num-warps", num_warps, "Warps per program (Triton num_warps: 1..16)")
                ->check(integer_field("num_warps", 1, sim::kMaxNumWarps));
  cmd.add_option("--input-precision", input_precision,
                 "fp32 matmul: ieee (FP32 FMA) | tf32 (TF32 tensor cores), as tl.dot's argument");
  if (with_machine) {
    cmd.add_option("--machine", machine, "Machine preset: t4 | a100 | h100 | h200");
    cmd.add_option("--math-path", math_path,
                   "Timing: the dot's hardware path fma | mma.sync | wgmma (default: Triton's)");
    cmd.add_option("--smem-layout", smem_layout,
                   "Timing: shared tiles swizzled (no bank conflicts) | plain (the warp model's "
                   "conflicts); default: swizzled for tensor cores, plain for FMA and transpose");
    cmd.add_option(
        "--variant", variant,
        "Describe the problem as this CUDA rung does (tilesim-bench --list): its kernel, "
        "tile, B layout, warps, stages, math path and shared layout; flags given "
        "explicitly still override");
    o_pps = cmd.add_option("--programs-per-sm", programs_per_sm,
                           "Override programs resident per SM (" +
                               std::to_string(sim::kMinProgramsPerSm) + ".." +
                               std::to_string(sim::kMaxProgramsPerSm) + ")")
                ->check(integer_field("programs_per_sm", sim::kMinProgramsPerSm,
                                      sim::kMaxProgramsPerSm));
    cmd.add_option("--max-seconds", max_seconds,
                   "Refuse a replay estimated to take longer (default 120)")
        ->check(real_field("max_seconds", 0.001, 1e6));
    cmd.add_option("--max-memory-gib", max_memory_gib,
                   "Refuse a replay estimated to need more memory (default 4)")
        ->check(real_field("max_memory_gib", 0.001, 1024.0));
  }
  cmd.add_option("--triton", triton_file,
                 "A Triton kernel file (.py): the problem is the one its @triton.jit function "
                 "computes at the launch its \"# launch:\" comments and --arg give");
  cmd.add_option("--function", triton_function,
                 "With --triton: the @triton.jit function to run when the file has several");
  cmd.add_option("--arg", triton_args,
                 "With --triton: a launch word NAME=VALUE (M=574, BLOCK_SIZE_M=64, "
                 "a_ptr=574x574:fp16[:strides=S0,S1], grid=9,9); repeatable");
  cmd.add_option("--grid", grid, "With --triton: the grid, e.g. 81 or 9,9");
  cmd.add_flag("--json", json, "Machine-readable JSON on stdout");
}

std::vector<std::string> ProblemFlags::launch_words() const {
  std::vector<std::string> w = triton_args;
  if (!grid.empty()) w.push_back("grid=" + grid);
  if (o_stages && o_stages->count()) w.push_back("num_stages=" + std::to_string(stages));
  if (o_warps && o_warps->count()) w.push_back("num_warps=" + std::to_string(num_warps));
  return w;
}

namespace {

// The problem of a Triton file: every flag that would set it another way is refused, so the
// numbers printed are the file's.
Scenario triton_scenario(const ProblemFlags& f) {
  const std::pair<const char*, bool> others[] = {{"--scenario", !f.scenario_file.empty()},
                                                 {"--kernel", !f.kernel.empty()},
                                                 {"--dtype", !f.dtype.empty()},
                                                 {"--order", !f.order.empty()},
                                                 {"--boundary", !f.boundary.empty()},
                                                 {"--b-layout", !f.b_layout.empty()},
                                                 {"--variant", !f.variant.empty()},
                                                 {"--input-precision", !f.input_precision.empty()},
                                                 {"--m", f.o_m && f.o_m->count()},
                                                 {"--n", f.o_n && f.o_n->count()},
                                                 {"--k", f.o_k && f.o_k->count()},
                                                 {"--block-m", f.o_bm && f.o_bm->count()},
                                                 {"--block-n", f.o_bn && f.o_bn->count()},
                                                 {"--block-k", f.o_bk && f.o_bk->count()},
                                                 {"--group-m", f.o_gm && f.o_gm->count()}};
  for (const auto& [flag, given] : others)
    if (given)
      throw sim::InvalidField("triton", std::string(flag) +
                                            " cannot be combined with --triton: the kernel file "
                                            "and its --arg values give the problem");
  return open_kernel_file(f.triton_file, f.triton_function, f.launch_words()).scenario;
}

}  // namespace

Scenario ProblemFlags::to_scenario() const {
  Scenario s;
  s.name = "default";
  if (!triton_file.empty()) {
    s = triton_scenario(*this);
    if (!machine.empty()) s.machine = machine;
    if (o_pps && o_pps->count()) {
      sim::check_programs_per_sm(programs_per_sm);
      s.programs_per_sm = programs_per_sm;
    }
    return s;
  }
  if (!scenario_file.empty()) s = load_scenario(scenario_file);
  auto& p = s.problem;
  const kernels::Variant* v = rung();
  if (v) {
    if (!kernel.empty() && sim::parse_field<sim::Kernel>("kernel", kernel) != v->kernel)
      throw sim::InvalidField(
          "kernel",
          v->name + " runs " + std::string(sim::to_string(v->kernel)) + ", not " + kernel);
    p.kernel = v->kernel;
  }
  apply_enum(kernel, "kernel", &p.kernel);
  if (scenario_file.empty() && p.kernel != sim::Kernel::matmul) {
    // Seed 004's defaults are a matmul's: a copy or transpose asked for by flags alone starts
    // in row-major order with GROUP_SIZE_M 1 (K and BLOCK_K are a matmul's only: reports omit
    // them); --order and --group-m still override.
    p.order = sim::LaunchOrder::row_major;
    p.group_size_m = 1;
  }
  // The rung's tile, B layout, warps and stages; the flags below still override them.
  if (v) p = kernels::rung_timing(*v, p)->spec;
  apply_enum(dtype, "dtype", &p.dtype);
  apply_enum(order, "order", &p.order);
  apply_enum(boundary, "boundary", &p.boundary);
  apply_enum(b_layout, "b_layout", &p.b_layout);
  apply_enum(input_precision, "input_precision", &p.input_precision);
  if (o_m && o_m->count()) p.m = m;
  if (o_n && o_n->count()) p.n = n;
  if (o_k && o_k->count()) p.k = k;
  if (o_bm && o_bm->count()) p.block_m = block_m;
  if (o_bn && o_bn->count()) p.block_n = block_n;
  if (o_bk && o_bk->count()) p.block_k = block_k;
  if (o_gm && o_gm->count()) p.group_size_m = group_m;
  // A copy's or transpose's threads follow its tile and element size (element_loop_threads):
  // asked again once the flags have set them.
  if (v) p.num_warps = kernels::rung_timing(*v, p)->spec.num_warps;
  if (o_stages && o_stages->count()) p.stages = stages;
  if (o_warps && o_warps->count()) p.num_warps = num_warps;
  if (!machine.empty()) s.machine = machine;
  if (o_pps && o_pps->count()) {
    sim::check_programs_per_sm(programs_per_sm);
    s.programs_per_sm = programs_per_sm;
  }
  if (v && std::find(v->dtypes.begin(), v->dtypes.end(), p.dtype) == v->dtypes.end()) {
    std::string runs;
    for (const auto d : v->dtypes)
      runs += (runs.empty() ? "" : " | ") + std::string(sim::to_string(d));
    throw sim::InvalidField(
        "dtype", v->name + " runs " + runs + ", not " + std::string(sim::to_string(p.dtype)));
  }
  sim::Problem checked(p);  // throws InvalidField naming the field
  (void)checked;
  return s;
}

sim::TimingOptions ProblemFlags::timing() const {
  sim::TimingOptions t;
  // The description's options do not depend on the problem: any spec gives them.
  if (const kernels::Variant* v = rung()) t = kernels::rung_timing(*v, {})->timing;
  if (!math_path.empty() && !(t.path = sim::parse_math_path(math_path)))
    throw sim::unknown_value("math_path", math_path, "fma | mma.sync | wgmma");
  if (!smem_layout.empty() && !(t.layout = sim::parse_smem_layout(smem_layout)))
    throw sim::unknown_value("smem_layout", smem_layout, "swizzled | plain");
  return t;
}

const kernels::Variant* ProblemFlags::rung() const {
  if (variant.empty()) return nullptr;
  const kernels::Variant* v = kernels::find_variant(variant);
  if (v && v->timing) return v;
  std::string described;
  for (const auto& x : kernels::variants())
    if (x.timing) described += (described.empty() ? "" : " | ") + x.name;
  if (!v) throw sim::unknown_value("variant", variant, described);
  throw sim::InvalidField("variant", "variant = \"" + variant +
                                         "\" is not described to the timed engine (naive kernels "
                                         "and cuBLAS are not): allowed " +
                                         described);
}

sim::ReplayBudget ProblemFlags::budget() const {
  sim::ReplayBudget b;
  b.max_seconds = max_seconds;
  b.max_memory_bytes = static_cast<std::int64_t>(max_memory_gib * double(1ll << 30));
  return b;
}

}  // namespace tilesim::scenario
