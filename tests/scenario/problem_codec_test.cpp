// The one ProblemSpec codec: every bundled scenario, measured file and bench report in assets/
// reads, writes and reads back to the same problems; the legacy spellings are read only where
// old files need them.
#include <gtest/gtest.h>

#include <filesystem>

#include "scenario/bench_report.hpp"
#include "scenario/file_io.hpp"
#include "scenario/measured.hpp"
#include "scenario/problem_json.hpp"
#include "scenario/scenario.hpp"

using namespace tilesim;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<fs::path> json_files(const char* sub) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(TILESIM_ASSETS_DIR) / sub))
    if (e.path().extension() == ".json") out.push_back(e.path());
  return out;
}

bool is_bench_report(const fs::path& p) {
  return scenario::measured_file_kind(p) == scenario::MeasuredFileKind::bench;
}
bool is_nsight_set(const fs::path& p) {
  return scenario::measured_file_kind(p) == scenario::MeasuredFileKind::nsight;
}

}  // namespace

TEST(ProblemCodec, EveryBundledScenarioRoundTrips) {
  const auto files = json_files("scenarios");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    const auto s = scenario::load_scenario(f);
    EXPECT_EQ(scenario::parse_scenario(scenario::to_json(s)), s) << f;
  }
}

TEST(ProblemCodec, EveryBundledMeasuredRecordRoundTripsThroughTheStrictReader) {
  int records = 0;
  for (const auto& f : json_files("measured")) {
    if (!is_nsight_set(f)) continue;
    for (const auto& r : scenario::load_measured(f).records) {
      const json written = scenario::problem_to_json(r.spec);
      EXPECT_EQ(scenario::problem_from_json(written), r.spec) << f << " " << r.id;
      ++records;
    }
  }
  EXPECT_GT(records, 0);
}

TEST(ProblemCodec, EveryBundledBenchReportRoundTrips) {
  int reports = 0;
  for (const auto& f : json_files("measured")) {
    if (!is_bench_report(f)) continue;
    const auto r = scenario::load_bench_file(f);
    const auto back = scenario::parse_bench_json(scenario::to_json(r));
    ASSERT_EQ(back.records.size(), r.records.size()) << f;
    for (std::size_t i = 0; i < r.records.size(); ++i)
      EXPECT_EQ(back.records[i].result.problem, r.records[i].result.problem) << f << " " << i;
    ++reports;
  }
  EXPECT_GT(reports, 0);
}

TEST(ProblemCodec, WritesEveryFieldAndReadsItBack) {
  const sim::ProblemSpec p{.kernel = sim::Kernel::transpose,
                           .m = 1000,
                           .n = 777,
                           .k = 3,
                           .dtype = sim::DType::bf16,
                           .b_layout = sim::BLayout::transposed,
                           .block_m = 32,
                           .block_n = 16,
                           .block_k = 8,
                           .group_size_m = 5,
                           .boundary = sim::Boundary::wrap,
                           .order = sim::LaunchOrder::grouped_legacy,
                           .stages = 3};
  const json j = scenario::problem_to_json(p);
  EXPECT_EQ(j["order"], "grouped-legacy");
  EXPECT_EQ(j["stages"], 3);
  EXPECT_EQ(scenario::problem_from_json(j), p);
}

TEST(ProblemCodec, LegacyDialectReadsGroupMAndNumbersAsStringsStrictDoesNot) {
  const json old = json::parse(R"({"kernel": "matmul", "m": "4096", "group_m": "8"})");
  const auto p = scenario::problem_from_json(old, scenario::Dialect::legacy);
  EXPECT_EQ(p.m, 4096);
  EXPECT_EQ(p.group_size_m, 8);
  EXPECT_THROW(scenario::problem_from_json(old), sim::InvalidField);
  EXPECT_THROW(
      scenario::problem_from_json(json::parse(R"({"m": "4096x"})"), scenario::Dialect::legacy),
      sim::InvalidField);
}

TEST(ProblemCodec, UnknownKeyAndUnknownEnumNameAreNamed) {
  try {
    scenario::problem_from_json(json::parse(R"({"colour": 1})"));
    FAIL();
  } catch (const sim::InvalidField& e) {
    EXPECT_EQ(e.field(), "colour");
  }
  try {
    scenario::problem_from_json(json::parse(R"({"order": "zigzag"})"));
    FAIL();
  } catch (const sim::InvalidField& e) {
    EXPECT_EQ(e.field(), "order");
    EXPECT_NE(std::string(e.what()).find("is unknown: allowed row-major"), std::string::npos);
  }
}
