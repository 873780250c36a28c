// The GPU panel's "Triton beside CUDA": Triton's own compiled kernel for the open problem as
// measured on the preset's GPU (scenario/triton_measured) beside the project's CUDA rung measured
// on the same problem (a tilesim-bench file), each with the timed engine's prediction, and where
// the two measurements differ by more than 10 %, one sentence saying so and why, from the
// compiler's choices (sim/compiler) set against the rung's description (kernels/rung_timing).
#pragma once

#include <string>
#include <vector>

#include "kernels/rung_timing.hpp"
#include "scenario/bench_report.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::app {

// Which measured CUDA rung Triton's kernel is set beside, of the bench records that ran the
// problem (gpu_view's bench_matches): a rung the timed engine describes (not a naive kernel, not
// cuBLAS), one that ran the problem itself first (the problem's tile and B layout, as Triton's
// program), then the fastest. Null when none.
const scenario::BenchRecord* rung_beside_triton(
    const std::vector<const scenario::BenchRecord*>& matches, const sim::ProblemSpec& spec);

// A kernel's time, measured and predicted (seconds; 0: not known).
struct KernelTimes {
  double measured_s = 0;
  double predicted_s = 0;
};

// Measurements closer than this are "about the same" (run-to-run spread is a few per cent,
// docs/MODEL.md: Measurements themselves).
inline constexpr double kTritonRungSameWithin = 0.10;

// Why Triton's kernel for `p` differs from `rung` (its description) on `m`, faster or slower,
// as clauses naming the compiler's choice against the rung's: "Triton issues
// wgmma.m64n128k16.f32.f16.f16, the rung mma.sync", a note of sim::triton_choices ("B: 2-byte
// ld.global loads, not pipelined: N = 4100 is not a multiple of 16"), the pipeline's depth, the
// B layout, the tile, the warps. Never empty: when none of these differ it says the gap is in code
// the model does not see.
std::vector<std::string> triton_rung_reasons(const sim::Problem& p, const sim::Machine& m,
                                             const kernels::RungTiming& rung, bool triton_faster);

// The panel's sentence, "" when the measurements are within kTritonRungSameWithin: "Measured on
// the H100, Triton's kernel is 1.28x faster than matmul_mma_sync_bk64 (predicted: 1.25x):
// Triton issues ..., the rung ...". `gpu` names the GPU ("H100").
std::string triton_rung_sentence(const sim::Problem& p, const sim::Machine& m,
                                 const std::string& variant, const kernels::RungTiming& rung,
                                 const KernelTimes& triton, const KernelTimes& cuda,
                                 const std::string& gpu);

}  // namespace tilesim::app
