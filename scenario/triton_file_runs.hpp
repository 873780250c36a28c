// A user's Triton kernel files run on a GPU by scripts/triton/run_file.py: each file at the launch
// tilesim simulates it at (its "# launch:" words), checked against float64 and timed with
// do_bench (assets/measured/triton_files_GPU.json). What `tilesim-cli run --triton FILE` shows
// beside its prediction. Which run is a file's: scenario/kernel_file.hpp.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::scenario {

struct TritonFileRun {
  std::string file;       // the kernel file's name: "seed004_grouped_matmul.py"
  std::string function;   // the @triton.jit function run
  std::string launch;     // its launch words, NAME=VALUE separated by spaces
  std::string reference;  // "matmul X @ Y", "copy", ... or why none
  bool checked = false;   // compared with a float64 reference
  bool correct = false;
  double median_ms = 0;
};

struct TritonFileRuns {
  std::string source, gpu, date, triton;  // the file; the GPU, the run's UTC time, Triton
  std::vector<TritonFileRun> runs;        // the files that ran (errors left out)
};

// Throws std::runtime_error naming the file and the field on malformed input.
TritonFileRuns parse_triton_file_runs_json(std::string_view text,
                                           const std::string& source = "triton_files");
// assets/measured/triton_files_<machine_key>.json, read on first use and kept; null when the
// preset has none or it does not read. Thread-safe.
const TritonFileRuns* bundled_triton_file_runs(const std::string& machine_key);

}  // namespace tilesim::scenario
