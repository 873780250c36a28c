// A lesson's figures: resolution against a step's scenario (scenario/lesson_figures.hpp), lesson
// 08's compare figures equal to what `tilesim-cli run --json` prints for the same scenario, and
// the seed quotes (scenario/quotes.hpp) checked against the seeds' own words.
#include "scenario/lesson_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "scenario/lesson_text.hpp"
#include "tests/cli/run_cli.hpp"

namespace tilesim::scenario {
namespace {

const std::filesystem::path kAssets = TILESIM_ASSETS_DIR;
const std::filesystem::path kFixtures =
    std::filesystem::path(TILESIM_ASSETS_DIR).parent_path() / "tests" / "scenario" / "fixtures";

nlohmann::json cli_run(const std::string& scenario, const std::string& order) {
  const auto r = test::run_cli("run --scenario " + (kAssets / "scenarios" / scenario).string() +
                                   " --order " + order + " --json",
                               test::Stderr::drop);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(r.out);
}

// Lesson 08's compare steps: the narration's compare.* figures are the CLI's numbers, by the
// same path (scenario::replay_json), for the scenario's own order (a) and its compare order (b).
void expect_compare_equals_cli(const std::string& scenario_file) {
  const Scenario s = load_scenario(kAssets / "scenarios" / scenario_file);
  ASSERT_TRUE(s.compare_order);
  const StepReplays r = replay_step(s);
  const FigureContext c = r.context(nullptr, nullptr);
  const std::string orders[2] = {std::string(sim::to_string(s.problem.order)),
                                 std::string(sim::to_string(*s.compare_order))};
  const char* sides[2] = {"a", "b"};
  double time[2], bytes[2];
  for (int i = 0; i < 2; ++i) {
    const auto j = cli_run(scenario_file, orders[i]);
    const Figure t = resolve_figure(std::string("compare.time.") + sides[i], c);
    const Figure d = resolve_figure(std::string("compare.dram_bytes.") + sides[i], c);
    time[i] = j.at("predicted_time_s").get<double>();
    bytes[i] = j.at("dram_read_bytes").get<double>() + j.at("dram_write_bytes").get<double>();
    EXPECT_DOUBLE_EQ(t.value, time[i]) << scenario_file << " " << orders[i];
    EXPECT_DOUBLE_EQ(d.value, bytes[i]) << scenario_file << " " << orders[i];
    EXPECT_EQ(t.kind, FigureKind::predicted);
    EXPECT_NE(t.full_source().find(orders[i]), std::string::npos) << t.full_source();
    // run.* is side a: the scenario as the CLI runs it.
    if (i == 0) {
      EXPECT_DOUBLE_EQ(resolve_figure("run.time", c).value, time[0]);
    }
  }
  EXPECT_DOUBLE_EQ(resolve_figure("compare.time.ratio", c).value, time[1] / time[0]);
  EXPECT_DOUBLE_EQ(resolve_figure("compare.dram_bytes.ratio", c).value, bytes[1] / bytes[0]);
}

TEST(LessonFigures, Lesson08FitsInL2CompareEqualsCliRun) {
  expect_compare_equals_cli("triton_9x9_grouped.json");
}

TEST(LessonFigures, Lesson08At8192CompareEqualsCliRun) {
  expect_compare_equals_cli("big_8192_fp16.json");
}

TEST(LessonFigures, ProblemMachineAndRatioFiguresHaveKindsAndSources) {
  const StepReplays r =
      replay_step(load_scenario(kAssets / "scenarios" / "triton_9x9_grouped.json"));
  const FigureContext c = r.context(nullptr, nullptr);
  EXPECT_EQ(resolve_figure("problem.programs", c).text, "81");
  EXPECT_EQ(resolve_figure("problem.shape", c).text, "576\u00b3");
  EXPECT_EQ(resolve_figure("problem.programs", c).kind, FigureKind::computed);
  const Figure l2 = resolve_figure("machine.l2_bytes", c);
  EXPECT_EQ(l2.text, "50 MiB");
  EXPECT_EQ(l2.kind, FigureKind::datasheet);
  EXPECT_NE(l2.source.find("Hopper whitepaper"), std::string::npos) << l2.source;
  EXPECT_EQ(resolve_figure("machine.sm_count", c).text, "132");
  // 9 programs: 90 tiles in row-major order, 54 grouped (Triton's tutorial).
  FigureContext first9 = c;
  first9.programs_started = 9;
  EXPECT_EQ(resolve_figure("footprint.b.tiles", first9).text, "90");
  EXPECT_EQ(resolve_figure("footprint.a.tiles", first9).text, "54");
  const Figure ratio = resolve_figure("footprint.b.tiles / footprint.a.tiles", first9);
  EXPECT_EQ(ratio.text, "1.67x");
  EXPECT_EQ(ratio.kind_label(), "computed");
  EXPECT_THROW(resolve_figure("now.time", c), ScenarioError);  // no position given
  EXPECT_THROW(resolve_figure("problem.programs / machine.l2_bytes", c), ScenarioError);
}

TEST(LessonFigures, MeasuredNeedsExactlyOneRecordAndNamesTheMatches) {
  const auto& bench = bundled_bench_files();
  ASSERT_FALSE(bench.empty());
  FigureContext c;
  c.bench = &bench;
  const Figure f = resolve_figure("measured.h100.matmul_wgmma_tma.8192.fp16.grouped.ms", c);
  EXPECT_EQ(f.kind, FigureKind::measured);
  EXPECT_NEAR(f.value, 1.6226720213890076e-3, 1e-12);
  EXPECT_EQ(f.text, "1.62 ms");
  EXPECT_NE(f.source.find("NVIDIA H100 80GB HBM3, 2026-11-23"), std::string::npos) << f.source;
  EXPECT_NE(f.source.find("bench_h100.json"), std::string::npos) << f.source;
  try {
    resolve_figure("measured.h100.matmul_wgmma_tma.8192.fp16.ms", c);
    FAIL() << "three orders matched and none was refused";
  } catch (const ScenarioError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("3 records match"), std::string::npos) << m;
    EXPECT_NE(m.find("column-major"), std::string::npos) << m;
  }
  EXPECT_THROW(resolve_figure("measured.h100.matmul_wgmma_tma.1234.ms", c), ScenarioError);
}

TEST(LessonFigures, QuotesResolveToTheSeed) {
  const Quotes q = load_quotes(kFixtures / "quotes.json");
  FigureContext c;
  c.quotes = &q;
  const Figure f = resolve_figure("quote.003.t4_plain_ms", c);
  EXPECT_EQ(f.text, "130.7831 ms");
  EXPECT_EQ(f.kind, FigureKind::quoted);
  EXPECT_EQ(f.source, "seed 003");
  EXPECT_NE(f.full_source().find("Median Latency: 130.7831"), std::string::npos);
  EXPECT_THROW(resolve_figure("quote.003.nope", c), ScenarioError);
}

TEST(LessonFigures, QuoteFileIsStrict) {
  EXPECT_THROW(parse_quotes(R"({"quotes": [{"id": "003.x", "seed": "003", "text": "1 ms",
    "value": 1, "unit": "hours", "excerpt": "1 ms"}]})"),
               ScenarioError);
  EXPECT_THROW(parse_quotes(R"({"quotes": [{"id": "004.x", "seed": "003", "text": "1 ms",
    "value": 1, "unit": "ms", "excerpt": "1 ms"}]})"),
               ScenarioError);
  EXPECT_THROW(parse_quotes(R"({"quotes": [{"id": "003.x", "seed": "003", "text": "1 ms",
    "unit": "ms", "excerpt": "1 ms"}]})"),
               ScenarioError);
}

// Every quote file in the tree (the bundled one and the fixture): the numbers shown are in the
// seed's words, and those words are in the seed (where the seeds are at hand).
void check_quotes(const std::filesystem::path& path) {
  const Quotes q = load_quotes(path);
  for (const auto& x : q.quotes)
    EXPECT_TRUE(digits_missing_from_excerpt(x).empty())
        << path << ": " << x.id << ": \"" << x.text << "\" shows numbers its excerpt lacks";
}

TEST(LessonFigures, QuoteNumbersAreInTheirExcerpts) {
  check_quotes(kFixtures / "quotes.json");
  check_quotes(kAssets / "lessons" / "quotes.json");
  Quote bad{"003.x", "003", "131 ms", 131, "ms", "Median Latency: 130.7831 ms"};
  EXPECT_EQ(digits_missing_from_excerpt(bad), std::vector<std::string>{"131"});
}

TEST(LessonFigures, QuoteExcerptsAreInTheSeeds) {
  const char* env = std::getenv("TILESIM_SEEDS_DIR");
  const std::filesystem::path seeds = env ? env : "/work/shared/seeds";
  std::error_code ec;
  if (!std::filesystem::is_directory(seeds, ec))
    GTEST_SKIP() << "no seeds at " << seeds << " (set TILESIM_SEEDS_DIR)";
  for (const auto& path : {kFixtures / "quotes.json", kAssets / "lessons" / "quotes.json"}) {
    for (const auto& x : load_quotes(path).quotes) {
      const auto file = seed_file(seeds, x.seed);
      ASSERT_FALSE(file.empty()) << x.id << ": no seed " << x.seed << " in " << seeds;
      std::ifstream in(file, std::ios::binary);
      std::ostringstream buf;
      buf << in.rdbuf();
      EXPECT_TRUE(contains_normalised(buf.str(), x.excerpt))
          << path << ": " << x.id << ": excerpt not in " << file << ": " << x.excerpt;
    }
  }
  EXPECT_FALSE(contains_normalised("Median  Latency:\n130.7831 ms", "Median Latency: 131 ms"));
  EXPECT_TRUE(contains_normalised("Median  Latency:\n130.7831 ms", "Median Latency: 130.7831"));
}

}  // namespace
}  // namespace tilesim::scenario
