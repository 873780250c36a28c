// Triton's kernel beside the CUDA rung (see triton_vs_rung.hpp).
#include "app/core/triton_vs_rung.hpp"

#include <cmath>
#include <cstdio>

#include "kernels/variants.hpp"
#include "sim/compiler/triton_choices.hpp"

namespace tilesim::app {
namespace {

// Rank of a dot path: the faster hardware path is the higher (FMA < mma.sync < wgmma).
int rank(sim::MathPath p) {
  switch (p) {
    case sim::MathPath::fma:
      return 0;
    case sim::MathPath::mma_sync:
      return 1;
    case sim::MathPath::wgmma:
      return 2;
  }
  return 0;
}

std::string tile_of(const sim::ProblemSpec& s) {
  std::string out = std::to_string(s.block_m) + "x" + std::to_string(s.block_n);
  if (s.kernel == sim::Kernel::matmul) out += "x" + std::to_string(s.block_k);
  return out;
}

std::string ratio_text(double r) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2fx", r);
  return b;
}

}  // namespace

const scenario::BenchRecord* rung_beside_triton(
    const std::vector<const scenario::BenchRecord*>& matches, const sim::ProblemSpec& spec) {
  const scenario::BenchRecord* best = nullptr;
  bool best_same_tile = false;
  for (const auto* rec : matches) {
    const auto* v = kernels::find_variant(rec->result.variant);
    if (!v || v->kind != kernels::VariantKind::rung || !v->timing || !rec->result.ok ||
        rec->result.median_ms <= 0)
      continue;
    const auto& r = rec->result.problem;
    // The rung ran the problem itself: the same tiles and B layout as Triton's program.
    const bool same_tile = r.block_m == spec.block_m && r.block_n == spec.block_n &&
                           (spec.kernel != sim::Kernel::matmul ||
                            (r.block_k == spec.block_k && r.b_layout == spec.b_layout));
    if (!best || (same_tile && !best_same_tile) ||
        (same_tile == best_same_tile && rec->result.median_ms < best->result.median_ms)) {
      best = rec;
      best_same_tile = same_tile;
    }
  }
  return best;
}

std::vector<std::string> triton_rung_reasons(const sim::Problem& p, const sim::Machine& m,
                                             const kernels::RungTiming& rung, bool triton_faster) {
  std::vector<std::string> out;
  const sim::TritonChoices t = sim::triton_choices(p, m);
  const sim::ProblemSpec& s = p.spec();
  const sim::ProblemSpec& r = rung.spec;
  // The dot: a faster hardware path is the largest difference there is (wgmma against
  // mma.sync is about 1.5x at the same tile on an H100).
  if (t.matmul) {
    const sim::MathPath rp = rung.timing.path.value_or(t.dot);
    if (rp != t.dot && (rank(t.dot) > rank(rp)) == triton_faster)
      out.push_back("Triton issues " + t.dot_instruction + ", the rung " +
                    std::string(sim::to_string(rp)));
  }
  // Triton's choices off its fast path (narrow loads from divisibility, a staged operand, the
  // K-major tf32 B, spills) slow it; they explain a slower Triton only.
  if (!triton_faster)
    for (const auto& n : t.notes) out.push_back(n);
  // The pipeline: tiles in flight per program (Triton's shared buffers, the rung's stages).
  if (t.matmul && r.stages != t.pipeline_buffers && t.pipeline_buffers > 0 &&
      (t.pipeline_buffers > r.stages) == triton_faster)
    out.push_back("Triton's pipeline holds " + std::to_string(t.pipeline_buffers) +
                  " stages of A and B tiles in shared memory, the rung's " +
                  std::to_string(r.stages));
  // A rung with its own B layout ran B^T (K-major: both operands read along K) where Triton
  // reads the problem's B, or the other way round.
  if (t.matmul && r.b_layout != s.b_layout)
    out.push_back("the rung reads B " + std::string(sim::to_string(r.b_layout)) +
                  ", Triton's program B " + std::string(sim::to_string(s.b_layout)));
  if (tile_of(r) != tile_of(s))
    out.push_back("the rung computes " + tile_of(r) + " tiles, Triton's program " + tile_of(s));
  if (r.num_warps != s.num_warps)
    out.push_back("Triton runs " + std::to_string(s.num_warps) + " warps a program, the rung " +
                  std::to_string(r.num_warps));
  if (out.empty())
    out.push_back(
        "the dot, the loads, the pipeline and the tile are the same on both, so the gap is in "
        "code the model does not see (instruction scheduling, address arithmetic)");
  return out;
}

std::string triton_rung_sentence(const sim::Problem& p, const sim::Machine& m,
                                 const std::string& variant, const kernels::RungTiming& rung,
                                 const KernelTimes& triton, const KernelTimes& cuda,
                                 const std::string& gpu) {
  if (triton.measured_s <= 0 || cuda.measured_s <= 0) return "";
  const double ratio = cuda.measured_s / triton.measured_s;  // > 1: Triton is faster
  if (std::fabs(ratio - 1) <= kTritonRungSameWithin &&
      std::fabs(1 / ratio - 1) <= kTritonRungSameWithin)
    return "";
  const bool faster = ratio > 1;
  const double shown = faster ? ratio : 1 / ratio;
  std::string s = "Measured on the " + gpu + ", Triton's kernel is " + ratio_text(shown) +
                  (faster ? " faster than " : " slower than ") + variant;
  if (triton.predicted_s > 0 && cuda.predicted_s > 0) {
    const double pr = cuda.predicted_s / triton.predicted_s;
    s += pr >= 1 ? " (predicted: " + ratio_text(pr) + " faster)"
                 : " (predicted: " + ratio_text(1 / pr) + " slower)";
  }
  const auto reasons = triton_rung_reasons(p, m, rung, faster);
  // Two reasons at most: a sentence a slide can hold; the compiler tab lists every choice.
  s += ": " + reasons[0];
  if (reasons.size() > 1) s += "; " + reasons[1];
  return s + ".";
}

}  // namespace tilesim::app
