// Scenario files: strict parsing with line/column and field names, exact round trips.
#include "scenario/scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

using namespace tilesim;

TEST(Scenario, SaveThenLoadRoundTripsExactly) {
  scenario::Scenario s;
  s.name = "roundtrip";
  s.title = "Round trip";
  s.problem.kernel = sim::Kernel::transpose;
  s.problem.m = 1000;
  s.problem.n = 777;
  s.problem.order = sim::LaunchOrder::column_major;
  s.programs_per_sm = 3;
  s.compare_order = sim::LaunchOrder::row_major;
  const auto path = std::filesystem::temp_directory_path() / "tilesim_roundtrip.json";
  scenario::save_scenario(s, path);
  EXPECT_EQ(scenario::load_scenario(path), s);
  std::filesystem::remove(path);
}

TEST(Scenario, MalformedJsonIsRefusedWithLineAndColumn) {
  try {
    scenario::parse_scenario("{\n  \"m\": 12,\n  \"n\": ,\n}", "bad.json");
    FAIL();
  } catch (const scenario::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: not valid JSON at line 3"), std::string::npos)
        << e.what();
  }
}

TEST(Scenario, UnknownFieldAndWrongTypeAreNamed) {
  EXPECT_THROW(scenario::parse_scenario(R"({"blockm": 64})"), scenario::ScenarioError);
  try {
    scenario::parse_scenario(R"({"block_m": "64"})");
    FAIL();
  } catch (const scenario::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("block_m must be an integer"), std::string::npos);
  }
}

TEST(Scenario, OutOfRangeFieldIsRefused) {
  try {
    scenario::parse_scenario(R"({"m": 1099511627776})");
    FAIL();
  } catch (const scenario::ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("m = 1099511627776 is out of range"), std::string::npos)
        << e.what();
  }
}

TEST(Scenario, UnwritableFolderGivesAnErrorAndNoFile) {
  scenario::Scenario s;
  EXPECT_THROW(scenario::save_scenario(s, "/nonexistent-folder/x.json"), std::runtime_error);
}

TEST(Scenario, NumberTooLargeForADoubleIsRefusedNotThrownThrough) {
  // Found by fuzz_scenario: nlohmann throws out_of_range.406 here, not parse_error.
  EXPECT_THROW(scenario::parse_scenario(R"({"m": 1e400})"), scenario::ScenarioError);
}

TEST(ScenarioMenu, ListsTheBundledScenariosInCurriculumOrderHeaviestLast) {
  const auto files = scenario::list_scenarios(scenario::assets_dir() / "scenarios");
  ASSERT_GE(files.size(), 10u);
  EXPECT_EQ(files.front().stem(), "seed000_copy_5x5");
  EXPECT_EQ(files.back().stem(), "big_8192_fp16");
  const auto at = [&](const char* stem) {
    return std::find_if(files.begin(), files.end(),
                        [&](const auto& p) { return p.stem() == stem; });
  };
  EXPECT_LT(at("triton_9x9_grouped"), at("seed004_574_grouped"));
}
