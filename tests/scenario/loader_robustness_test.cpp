// Every loader of a file a user can hand tilesim refuses a number past double's range (1e400,
// which nlohmann::json reports as out_of_range, not parse_error) with its documented exception.
// Found by the fuzz targets in tests/fuzz/.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scenario/bench_report.hpp"
#include "scenario/lesson.hpp"
#include "scenario/machine_json.hpp"
#include "scenario/measured.hpp"
#include "scenario/scenario.hpp"

using namespace tilesim;
using namespace tilesim::scenario;

TEST(Loaders, ABenchReportWithANumberPastDoubleIsRefusedAsNotJson) {
  EXPECT_THROW(parse_bench_json(R"({"format_version": 1e400, "records": []})"), std::runtime_error);
}

TEST(Loaders, AMeasuredFileWithANumberPastDoubleIsRefusedNamingTheFile) {
  try {
    parse_measured_json(R"({"records": [{"median_ms": 1e400}]})", "h200.json");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("h200.json"), std::string::npos) << e.what();
  }
}

TEST(Loaders, AScenarioAndALessonWithANumberPastDoubleAreRefused) {
  EXPECT_THROW(parse_scenario(R"({"name": "x", "problem": {"m": 1e400}})", "x"), ScenarioError);
  EXPECT_THROW(parse_lesson(R"({"name": "x", "steps": [1e400]})", "x"), ScenarioError);
}

// 6e47 fits a double but not an integer field: converting it would be undefined behaviour (the
// bench_report fuzz target's first finding once it saw the parser's coverage).
TEST(Loaders, ABenchReportWithAnIntegerFieldPastItsRangeIsRefusedNamingFieldAndRange) {
  const std::string report = R"({"format_version": 1, "records": [],
    "device": {"name": "x", "l2_bytes": 629145602222222222222222222222222222222222222222}})";
  try {
    parse_bench_json(report);
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device: l2_bytes must be an integer from"), std::string::npos) << what;
  }
  EXPECT_THROW(parse_bench_json(R"({"format_version": 1.5, "device": {}, "records": []})"),
               std::runtime_error);
}
