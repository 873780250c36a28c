// tilesim-bench: the CUDA ladder. Checks every rung first (odd sizes, every launch order), then
// times each rung beside its baseline measured in the same run, and prints ms, throughput, % of
// baseline and error; --json writes the same records for the app (format in kernels/README.md).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "bench/tilesim_bench_ladder.hpp"
#include "bench/tilesim_bench_sweep.hpp"
#include "kernels/kernels.hpp"
#include "scenario/bench_report.hpp"

using namespace tilesim;

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

void print_list() {
  std::printf("%-32s %-9s %-8s %-15s %-8s %s\n", "variant", "kernel", "kind", "dtypes", "tile",
              "teaches");
  for (const auto& v : kernels::variants()) {
    std::string d;
    for (auto x : v.dtypes) d += std::string(d.empty() ? "" : ",") + std::string(sim::to_string(x));
    const std::string tile = !v.fixed_tile ? "problem"
                                           : std::to_string(v.fixed_tile->block_m) + "x" +
                                                 std::to_string(v.fixed_tile->block_n) + "x" +
                                                 std::to_string(v.fixed_tile->block_k);
    std::printf("%-32s %-9s %-8s %-15s %-8s %s%s\n", v.name.c_str(),
                std::string(sim::to_string(v.kernel)).c_str(),
                v.kind == kernels::VariantKind::baseline ? "baseline" : "rung", d.c_str(),
                tile.c_str(), v.implemented ? "" : "[MISSING] ", v.teaches.c_str());
  }
}

void print_device(const kernels::DeviceInfo& d) {
  if (!d.available) {
    std::printf("device: none (%s)\n", d.reason.c_str());
    return;
  }
  std::printf(
      "device: %s, cc %d.%d, %d SMs, L2 %.1f MB, %.1f GB, SM clock %d MHz, DRAM %.0f GB/s "
      "(datasheet), driver %d, runtime %d\n",
      d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.l2_bytes / 1e6,
      d.global_mem_bytes / 1e9, d.sm_clock_mhz, d.peak_dram_gbs, d.driver_version,
      d.runtime_version);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tilesim-bench: the CUDA kernel ladder (correctness first, then timing)"};
  bool list = false, device_only = false;
  std::string ladder = "full", json_path, commit, only, sweep;
  bool quick_sweep = false;
  bench::LadderOptions lo;
  app.add_flag("--list", list, "list the variants and what each teaches, then exit");
  app.add_flag("--device", device_only, "print the device and exit");
  auto* ladder_opt =
      app.add_option("--ladder", ladder, "check (correctness only) | quick | full | none")
          ->check(CLI::IsMember({"check", "quick", "full", "none"}));
  app.add_option("--sweep", sweep,
                 "blocks (seed 001: the templated mma.sync rung's tiles) | group (GROUP_SIZE_M) | "
                 "both; runs instead of the ladder unless --ladder is given")
      ->check(CLI::IsMember({"blocks", "group", "both"}));
  app.add_flag("--quick-sweep", quick_sweep, "sweep at half the sizes (2048^3 / 4096^3)");
  app.add_option("--json", json_path, "also write the records as JSON to this file");
  app.add_option("--commit", commit, "source commit to record in the report");
  app.add_option("--only", only, "run only variants whose name contains this text");
  app.add_option("--check-max-elems", lo.check_max_elems,
                 "correctness sweep: only cases with M*N*K up to this (for sanitizers)");
  app.add_option("--repeats", lo.run.repeats, "timed launches per measurement (median reported)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--warmup", lo.run.warmup, "untimed launches before timing")
      ->check(CLI::Range(0, 100000));
  app.add_option("--max-seconds", lo.run.max_seconds, "time budget per measurement");
  app.add_flag("!--warm-l2", lo.run.cold_l2, "do not flush L2 between timed launches");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    print_list();
    return 0;
  }
  scenario::BenchReport report;
  report.date = utc_now();
  report.commit = commit;
  report.device = kernels::query_device();
  report.options = lo.run;
  print_device(report.device);
  if (device_only) return report.device.available ? 0 : 1;
  if (!report.device.available) {
    std::printf("nothing to run: %s\n", report.device.reason.c_str());
    return 0;
  }
  lo.only = only;
  if (!sweep.empty() && ladder_opt->count() == 0) ladder = "none";
  int failures = 0;
  try {
    if (ladder == "check" || ladder == "quick" || ladder == "full")
      failures += bench::run_check_ladder(lo, report);
    if (ladder == "quick" || ladder == "full")
      failures += bench::run_timing_ladder(lo, ladder == "full", report);
    if (ladder != "none") bench::print_targets(report);
    if (sweep == "blocks" || sweep == "both")
      failures += bench::run_block_sweep(lo, !quick_sweep, report);
    if (sweep == "group" || sweep == "both")
      failures += bench::run_group_sweep(lo, !quick_sweep, report);
  } catch (
      const std::exception& e) {  // nothing may escape main: say what broke, keep the exit code
    std::fprintf(stderr, "tilesim-bench: %s\n", e.what());
    return 2;
  }
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    f << scenario::to_json(report) << "\n";
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", json_path.c_str());
      return 2;
    }
    std::printf("wrote %s (%zu records)\n", json_path.c_str(), report.records.size());
  }
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
