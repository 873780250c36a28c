// Measurements of the real kernels (assets/measured/*.json, written by scripts/calibrate from
// Nsight Compute) and which of them match a problem on a machine, so the app and the CLI can
// show measured beside predicted. Only the figures the model predicts are kept.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/problem_identity.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::scenario {

struct MeasuredRecord {
  std::string id;           // "mm16_4096_grp"
  std::string variant;      // the kernels/ variant measured ("matmul_mma_sync")
  sim::ProblemSpec spec;    // the problem as run (unlisted fields keep ProblemSpec defaults)
  int programs_per_sm = 0;  // what the prediction used
  // Numeric Nsight Compute metrics (dram__bytes_read.sum, lts__t_sector_hit_rate.pct, ...).
  std::map<std::string, double> measured;
  std::map<std::string, double> predicted;  // the calibration's prediction (dram_read_bytes, ...)
  double metric(const std::string& name, double fallback = -1) const;
};

struct MeasuredSet {
  std::string source;       // file it came from
  std::string device;       // "NVIDIA H200, 580.159.04"
  std::string machine_key;  // preset whose name the device carries ("h200"), "" if none
  std::string date, commit, tool;
  std::vector<MeasuredRecord> records;
};

// The machine preset whose key a device's name carries ("NVIDIA H200, 580.159.04" -> "h200"), ""
// if none: which preset a measurement file answers to.
std::string machine_key_of_device(std::string_view device);

// Throws std::runtime_error naming the file and the field on malformed input.
MeasuredSet parse_measured_json(std::string_view text, const std::string& source = "measured");
MeasuredSet load_measured(const std::filesystem::path& path);
// assets/measured holds three kinds of file, told apart by name: `bench_GPU.json` (tilesim-bench
// reports, bench_report.hpp), `triton_GPU.json` (Triton's own kernels measured by
// scripts/triton, their own format) and the rest, Nsight Compute sets of the CUDA rungs (this
// file's MeasuredSet).
enum class MeasuredFileKind { nsight, bench, triton };
MeasuredFileKind measured_file_kind(const std::filesystem::path& path);

// Every Nsight set (*.json of kind nsight) in `dir` (assets/measured/); unreadable files are
// skipped and named in `errors`.
std::vector<MeasuredSet> load_measured_dir(const std::filesystem::path& dir,
                                           std::vector<std::string>* errors = nullptr);

struct MeasuredMatch {
  const MeasuredSet* set = nullptr;
  const MeasuredRecord* record = nullptr;
};
// Records measured on `machine_key` ("h200") for `spec` (same_configuration), in file order.
std::vector<MeasuredMatch> find_measured(const std::vector<MeasuredSet>& sets,
                                         const sim::ProblemSpec& spec,
                                         std::string_view machine_key);

}  // namespace tilesim::scenario
