// The Triton measurement of a problem (scenario/triton_measured): an exact configuration, a
// miss that is only "nearest" (Triton compiles 4 and 8 warps, 3 and 4 stages differently), and
// which nearest one the rule picks, on a small set written here and on the shipped H100 file.
#include "scenario/triton_measured.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

using namespace tilesim;
using scenario::find_triton_measurement;

// The harness's record layout (scripts/triton/assemble.py), only the fields the reader uses.
std::string record(const std::string& id, const std::string& problem, double ms) {
  return R"({"id": ")" + id + R"(", "ok": true, "correct": true, "split": "fit", "median_ms": )" +
         std::to_string(ms) + R"(, "problem": )" + problem + "}";
}

std::string matmul(int m, int warps, int stages, const std::string& dtype = "fp16") {
  const std::string s = std::to_string(m);
  return R"({"kernel": "tutorial", "m": )" + s + R"(, "n": )" + s + R"(, "k": )" + s +
         R"(, "dtype": ")" + dtype +
         R"(", "input_precision": "", "block_m": 128, "block_n": 128, "block_k": 64,
            "group_size_m": 8, "order": "grouped", "b_layout": "row-major",
            "num_warps": )" +
         std::to_string(warps) + R"(, "num_stages": )" + std::to_string(stages) +
         R"(, "boundary": "wrap"})";
}

scenario::TritonMeasuredSet small_set() {
  const std::string text =
      R"({"format": "tilesim-triton-measurements/1",
          "header": {"gpu": "NVIDIA H100 80GB HBM3", "date_utc": "2026-11-26T19:43:11Z",
                     "triton": "3.6.0"},
          "records": [)" +
      record("a", matmul(4096, 8, 3), 0.235) + "," + record("b", matmul(8192, 8, 4), 1.845) + "," +
      record("c", matmul(4096, 4, 3), 0.223) + "," +
      R"({"id": "failed", "ok": false, "problem": {"kernel": "copy"}}]})";
  return scenario::parse_triton_measured_json(text, "small");
}

sim::ProblemSpec tutorial(std::int64_t m, int warps, int stages) {
  sim::ProblemSpec s;
  s.m = s.n = s.k = m;
  s.block_m = s.block_n = 128, s.block_k = 64;
  s.group_size_m = 8, s.order = sim::LaunchOrder::grouped;
  s.boundary = sim::Boundary::wrap;
  s.num_warps = warps, s.stages = stages;
  return s;
}

TEST(TritonMeasured, ReadsTheHeaderAndKeepsOnlyCorrectRuns) {
  const auto s = small_set();
  EXPECT_EQ(s.machine_key, "h100");
  EXPECT_EQ(s.date, "2026-11-26");
  EXPECT_EQ(s.triton, "3.6.0");
  ASSERT_EQ(s.records.size(), 3u);  // the failed run is left out
  EXPECT_EQ(s.records[0].spec.kernel, sim::Kernel::matmul);
}

TEST(TritonMeasured, ExactConfigurationIsAHit) {
  const auto s = small_set();
  const auto l = find_triton_measurement(s, tutorial(4096, 4, 3));
  ASSERT_NE(l.exact, nullptr);
  EXPECT_EQ(l.exact->id, "c");
  EXPECT_EQ(l.nearest, nullptr);
  EXPECT_DOUBLE_EQ(l.exact->median_ms, 0.223);
}

// same_configuration would call these the same problem; Triton compiles them apart.
TEST(TritonMeasured, OtherStagesOrBoundaryAreNotAHit) {
  const auto s = small_set();
  auto other_boundary = tutorial(4096, 8, 3);
  other_boundary.boundary = sim::Boundary::mask;
  EXPECT_EQ(find_triton_measurement(s, other_boundary).exact, nullptr);
  EXPECT_EQ(find_triton_measurement(s, tutorial(4096, 8, 4)).exact, nullptr);
}

TEST(TritonMeasured, MissNamesTheNearestAndWhatDiffers) {
  const auto s = small_set();
  // 4096^3 with 4 stages: record a differs in stages only (cost 2); b in sizes (3 doublings).
  const auto l = find_triton_measurement(s, tutorial(4096, 8, 4));
  ASSERT_NE(l.nearest, nullptr);
  EXPECT_EQ(l.nearest->id, "a");
  ASSERT_EQ(l.differences.size(), 1u);
  EXPECT_EQ(l.differences[0], "3 stages");
  // 8192^3, 4 warps, 3 stages: b differs in warps and stages (2 + 2), c in sizes (3 doublings,
  // 1 each) and a in sizes and warps (3 + 2): c is nearest.
  const auto m = find_triton_measurement(s, tutorial(8192, 4, 3));
  ASSERT_NE(m.nearest, nullptr);
  EXPECT_EQ(m.nearest->id, "c");
  ASSERT_EQ(m.differences.size(), 1u);
  EXPECT_EQ(m.differences[0], "sizes 4096x4096x4096");
}

TEST(TritonMeasured, AKernelNeverMeasuredHasNoMatch) {
  auto copy = tutorial(4096, 4, 3);
  copy.kernel = sim::Kernel::copy;
  const auto l = find_triton_measurement(small_set(), copy);
  EXPECT_EQ(l.exact, nullptr);
  EXPECT_EQ(l.nearest, nullptr);
}

TEST(TritonMeasured, MalformedRecordIsRefusedNamingIt) {
  // An unknown dtype, and a size that is no whole number (it would not convert safely).
  for (const std::string problem :
       {std::string(R"({"kernel": "tutorial", "dtype": "fp8"})"),
        std::string(R"({"kernel": "copy", "m": 1e300, "n": 4, "dtype": "fp32"})")}) {
    const std::string text =
        R"({"header": {}, "records": [{"id": "x", "ok": true, "correct": true,
            "median_ms": 1, "problem": )" +
        problem + "}]}";
    try {
      scenario::parse_triton_measured_json(text, "bad.json");
      FAIL() << "accepted " << problem;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("bad.json: records[0]"), std::string::npos) << e.what();
    }
  }
}

// The shipped file: the tutorial's 4096^3 fp16 kernel at its default 8 warps and 3 stages, and
// its GROUP_SIZE_M = 1 run, which the harness records as row-major.
TEST(TritonMeasured, ShippedH100FileHoldsTheTutorialAt4096) {
  const auto s = scenario::load_triton_measured(std::string(TILESIM_ASSETS_DIR) +
                                                "/measured/triton_h100.json");
  EXPECT_EQ(s.machine_key, "h100");
  EXPECT_EQ(s.records.size(), 689u);
  const auto l = find_triton_measurement(s, tutorial(4096, 8, 3));
  ASSERT_NE(l.exact, nullptr);
  EXPECT_EQ(l.exact->id, "tutorial|4096x4096x4096|fp16|128x128x64|G8|grouped|B-row-major|w8s3");
  EXPECT_NEAR(l.exact->median_ms, 0.235, 0.001);
  auto g1 = tutorial(4096, 8, 3);
  g1.group_size_m = 1;
  const auto r = find_triton_measurement(s, g1);
  ASSERT_NE(r.exact, nullptr);
  EXPECT_EQ(r.exact->id, "tutorial|4096x4096x4096|fp16|128x128x64|G1|row-major|B-row-major|w8s3");
}

// The bundled set merges the fit-only supplements measured on the same GPU, each record keeping
// its own file: supplement 15's stage sweep of a lone program (one an SM at N = 3076) is found
// as itself, with its own date and file, and the main file's records stay first.
TEST(TritonMeasured, BundledSetHoldsTheSupplementsWithTheirOwnFiles) {
  const auto* s = scenario::bundled_triton_measurements("h200");
  ASSERT_NE(s, nullptr);
  const auto main = scenario::load_triton_measured(std::string(TILESIM_ASSETS_DIR) +
                                                   "/measured/triton_h200.json");
  ASSERT_GT(s->records.size(), main.records.size());
  EXPECT_EQ(s->records.front().id, main.records.front().id);
  auto p = tutorial(4096, 8, 2);
  p.m = 3072, p.n = 3076, p.k = 3072;
  p.block_k = 32;
  p.b_layout = sim::BLayout::transposed;
  const auto l = find_triton_measurement(*s, p);
  ASSERT_NE(l.exact, nullptr);
  EXPECT_EQ(l.exact->id, "tutorial|3072x3076x3072|fp16|128x128x32|G8|grouped|B-transposed|w8s2");
  EXPECT_NE(l.exact->source.find("triton_supplement15_h200.json"), std::string::npos);
  EXPECT_EQ(l.exact->date.size(), 10u);
  EXPECT_EQ(l.exact->split, "fit");
  EXPECT_NEAR(l.exact->median_ms, 0.3736, 0.001);
  // Not the main file's GPU: none of another GPU's supplements comes in.
  for (const auto& r : s->records) EXPECT_EQ(r.source.find("_h100"), std::string::npos) << r.id;
}

}  // namespace
