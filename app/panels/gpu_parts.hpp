// Parts of the GPU panel: Triton's kernel beside the CUDA rung (issue 25, item 5).
#pragma once

#include <vector>

#include "app/panels/panels.hpp"

namespace tilesim::app {

// A figure's value in its kind's colour; hovering shows where it comes from (gpu_triton.cpp).
void figure_text(FrameContext& f, const scenario::Figure& fig);

// Triton's own kernel for the open problem, measured on the preset's GPU, beside the CUDA rung
// measured on it (of `matches`, the bench records that ran the problem), each with the timed
// engine's prediction (`predictions`: the rungs'; the open problem's from the engine frame), and
// the sentence saying how and why they differ (gpu_triton.cpp).
void draw_triton_beside_rung(FrameContext& f,
                             const std::vector<const scenario::BenchRecord*>& matches,
                             const RungPredictions* predictions);

// The open Triton kernel file run with real Triton at the same launch on the preset's GPU
// (assets/measured/triton_files_KEY.json, scripts/triton/run_file.py) beside the timed engine's
// prediction of the file's problem; nothing when no kernel file is open (gpu_triton.cpp).
void draw_kernel_file_run(FrameContext& f);

// The same rungs held under seconds of load (assets/measured/power_ladder_KEY.csv): each matched
// bench record's time there beside its short run's, with the clock and power NVML read
// meanwhile; nothing when the preset's GPU has no such file or none of `matches` ran in it
// (gpu_sustained.cpp).
void draw_sustained_runs(FrameContext& f, const scenario::BenchReport& bench,
                         const std::vector<const scenario::BenchRecord*>& matches);

}  // namespace tilesim::app
