// Triton's own compiled kernels measured on a GPU (assets/measured/triton_GPU.json, written by
// scripts/triton: do_bench's median, the compiler's facts) and which of them is "the Triton
// measurement" of a tilesim problem: the exact configuration, else the nearest one measured and
// what differs. Triton compiles the same listing differently for 4 or 8 warps, 3 or 4 stages and
// sizes divisible by 16 or not, so the match is stricter than same_configuration's.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::scenario {

struct TritonRecord {
  std::string id;         // "tutorial|4096x4096x4096|fp16|128x128x64|G8|grouped|B-row-major|w8s3"
  std::string kernel;     // the harness's kernel: "tutorial", "seed001", "seed003_block", "copy"
  sim::ProblemSpec spec;  // as tilesim describes it (scripts/triton/compare.py's flags_of)
  double median_ms = 0;   // do_bench, L2 flushed between runs
  std::string split;      // "fit" or "test" (docs/TRITON_SPLIT.md)
  std::string source;     // the file it came from (a bundled set merges several)
  std::string date;       // its run's UTC date, "2026-11-29"
};

struct TritonMeasuredSet {
  std::string source;                 // the file
  std::string gpu;                    // "NVIDIA H100 80GB HBM3"
  std::string machine_key;            // the preset the GPU's name carries ("h100"), "" if none
  std::string date;                   // "2026-11-26" (the run's UTC date)
  std::string triton;                 // "3.6.0"
  std::vector<TritonRecord> records;  // the configurations that ran and were correct
};

// Throws std::runtime_error naming the file and the field on malformed input.
TritonMeasuredSet parse_triton_measured_json(std::string_view text,
                                             const std::string& source = "triton");
TritonMeasuredSet load_triton_measured(const std::filesystem::path& path);
// assets/measured/triton_<machine_key>.json, then the fit-only supplements measured on the same
// GPU (triton_supplement*_<machine_key>.json, in name order: stage sweeps, odd-N stores, staged
// tiles), each record keeping its own file and date; read on first use and kept (1.5 MB, ~60 ms
// to parse); null when the preset has no main file or it does not read (the GPU panel then says
// "not measured"). A damaged supplement is left out. Thread-safe.
const TritonMeasuredSet* bundled_triton_measurements(const std::string& machine_key);

// The same compiled Triton kernel: same_configuration (kernel, sizes, dtype, blocks, launch
// order, B layout) and num_warps, boundary, and for a matmul num_stages and fp32's input
// precision. Grouped order with GROUP_SIZE_M = 1 is row-major (the harness records it so).
bool same_triton_configuration(const sim::ProblemSpec& a, const sim::ProblemSpec& b);

struct TritonLookup {
  const TritonRecord* exact = nullptr;    // the configuration itself was measured
  const TritonRecord* nearest = nullptr;  // else the closest measured one of the same kernel
  // Where `nearest` differs from the problem, its own setting, one phrase each: "3 stages",
  // "sizes 1024x1024x1024", "column-major order".
  std::vector<std::string> differences;
};

// The rule: the first record that is the same configuration; else, of the same kernel (copy,
// transpose, matmul), the one at the least distance, where a different dtype or input precision
// costs 8, each other differing choice (sizes' divisibility by 16, blocks, launch order, B
// layout, boundary, warps, stages) 2, and sizes 1 per factor of 2 in each of M, N and K; ties go
// to the file's order. Neither when the set holds no record of the kernel.
TritonLookup find_triton_measurement(const TritonMeasuredSet& set, const sim::ProblemSpec& spec);

}  // namespace tilesim::scenario
