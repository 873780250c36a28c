// A benchmark report: what `tilesim-bench --json` writes and what the app loads when it has no GPU.
// One device, one date and commit, and a record per (variant, problem) with its baseline's figure
// measured in the same run. The JSON layout is documented in kernels/README.md; the problem is
// written by the one ProblemSpec codec (problem_json.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/run_types.hpp"

namespace tilesim::scenario {

using kernels::DeviceInfo;
using kernels::KernelResources;
using kernels::RunOptions;
using kernels::RunResult;

struct BenchRecord {
  RunResult result;
  std::string baseline;        // variant name of the baseline ("" for a baseline itself)
  double baseline_ms = 0;      // the baseline's median on the same problem, same run (0: none)
  double pct_of_baseline = 0;  // 100 * baseline_ms / median_ms (speed relative to the baseline)
  // A sweep's row (tilesim-bench --sweep): which sweep ("blocks" | "group"; "" for a ladder
  // record) and, for a block sweep, what the configuration's compiled kernel holds. Files written
  // before sweeps existed have neither and load as ladder records.
  std::string sweep;
  std::optional<KernelResources> resources;
  // A record merged into the file from a later run (scripts/merge_bench.py): that run's date
  // (ISO 8601) and commit. Empty: the report's own.
  std::string run_date;
  std::string run_commit;
};

struct BenchReport {
  int format_version = 1;
  std::string tool = "tilesim-bench";
  std::string date;    // ISO 8601, when the run started (UTC)
  std::string commit;  // the source commit the binary was built from, if known
  DeviceInfo device;
  RunOptions options;
  std::vector<BenchRecord> records;
};

std::string to_json(const BenchReport& report, int indent = 2);
// Throws std::runtime_error naming what is wrong ("records[3].median_ms: not a number").
BenchReport parse_bench_json(std::string_view text);
BenchReport load_bench_file(const std::filesystem::path& path);
// When and from which commit `record` was measured: its own run's, else the report's.
const std::string& record_date(const BenchReport& report, const BenchRecord& record);
const std::string& record_commit(const BenchReport& report, const BenchRecord& record);
// The bundled sweep file of a machine preset (assets/measured/bench_sweep_<key>.json), read once;
// null when there is none or it does not read.
const BenchReport* bundled_sweep_report(const std::string& machine_key);

}  // namespace tilesim::scenario
