// View model of the GPU panel: which kernels/ variants can run the open problem, why there is no
// device (one sentence), a live run with its baseline, and the records of a `tilesim-bench
// --json` file (measured elsewhere) that ran this problem.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernels.hpp"
#include "scenario/bench_report.hpp"
#include "scenario/problem_identity.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::app {

// Implemented variants of the problem's kernel that run its dtype, ladder order (rungs first).
std::vector<const kernels::Variant*> gpu_variants(const sim::Problem& p);
// Why "Run on GPU" is unavailable, as one sentence; empty when a device is there.
std::string no_device_sentence(const kernels::DeviceInfo& d);

// A live run and its baseline, measured in the same process.
struct GpuRun {
  kernels::RunResult result;
  kernels::RunResult baseline;     // not ok when there is none
  double pct_of_baseline() const;  // 100 * baseline / median (0 without a baseline)
};
GpuRun run_on_gpu(const sim::Problem& p, const std::string& variant,
                  const kernels::RunOptions& o = {});

// Timed records of `report` that ran `spec` as their rung runs it (scenario::same_configuration
// with kernels::as_run_by: a rung with its own tile or B layout ran the problem with those).
std::vector<const scenario::BenchRecord*> bench_matches(const scenario::BenchReport& report,
                                                        const sim::ProblemSpec& spec);
// The bench file shipped for a machine preset: assets/measured/bench_<key>.json ("" when none), so
// the GPU and sweep panels show real measurements of that chip even without a GPU.
std::string bundled_bench_path(const std::string& machine_key);

// "NVIDIA H200, 2026-11-22, commit abc1234" (and "; 353 records from later runs, up to
// 2026-11-27" where some were merged in)
std::string bench_label(const scenario::BenchReport& report);
// Where a bench record's figure comes from: "NVIDIA H200, 2026-11-22,
// assets/measured/bench_h200.json" (the file as the user gave it when not the bundled one), with
// `record`'s own run date where it was merged in from a later run.
std::string bench_source(const scenario::BenchReport& report, const std::string& path, bool bundled,
                         const scenario::BenchRecord* record = nullptr);

}  // namespace tilesim::app
