// A kernel file run with real Triton (scripts/triton/run_file.py): the reader keeps what ran,
// skips what did not (the script's "error" records) and refuses a malformed file naming the
// field; the shipped H100 file holds the seeds' files and the tutorial, all checked and correct.
#include "scenario/triton_file_runs.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "scenario/file_io.hpp"

namespace {

using tilesim::scenario::parse_triton_file_runs_json;

const char* kHeader = R"("format": "tilesim-triton-files/1",
  "header": {"gpu": "NVIDIA H100 80GB HBM3", "date": "2026-11-27T03:51:47Z", "triton": "3.6.0"})";

TEST(TritonFileRuns, KeepsTheRunsAndSkipsTheFilesThatDidNotRun) {
  const std::string text = std::string("{") + kHeader + R"(, "records": [
    {"file": "a.py", "function": "k", "launch": "M=8 grid=1", "reference": "copy",
     "rel_error": 0.0, "correct": true, "median_ms": 0.005},
    {"file": "b.py", "error": "ValueError: the launch names no grid"},
    {"file": "c.py", "function": "k", "launch": "grid=1", "reference": "none", "median_ms": 1.5}]})";
  const auto runs = parse_triton_file_runs_json(text, "t.json");
  EXPECT_EQ(runs.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(runs.date, "2026-11-27");
  EXPECT_EQ(runs.triton, "3.6.0");
  ASSERT_EQ(runs.runs.size(), 2u);
  EXPECT_TRUE(runs.runs[0].checked);
  EXPECT_TRUE(runs.runs[0].correct);
  EXPECT_DOUBLE_EQ(runs.runs[0].median_ms, 0.005);
  EXPECT_FALSE(runs.runs[1].checked);  // no reference: timed, not checked
}

TEST(TritonFileRuns, AMalformedFileIsRefusedNamingTheField) {
  const auto refused = [](const std::string& body) {
    try {
      parse_triton_file_runs_json("{" + std::string(kHeader) + body + "}", "t.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_NE(refused(R"(, "records": 3)").find("records"), std::string::npos);
  EXPECT_NE(refused(R"(, "records": [{"file": "a.py", "median_ms": "fast"}])").find("median_ms"),
            std::string::npos);
  EXPECT_NE(refused(R"(, "records": [{"file": "a.py", "median_ms": -1}])").find("out of range"),
            std::string::npos);
  EXPECT_NE(
      refused(R"(, "records": [{"file": "a.py", "median_ms": 1, "correct": 1}])").find("correct"),
      std::string::npos);
  EXPECT_NE(refused(R"(, "records": [{"median_ms": 1}])").find("file"), std::string::npos);
  EXPECT_THROW(parse_triton_file_runs_json(R"({"format": "other", "records": []})"),
               std::runtime_error);
  EXPECT_THROW(parse_triton_file_runs_json("[1, 2"), std::runtime_error);
}

TEST(TritonFileRuns, TheShippedH100FileHoldsTheSeedsFilesAllCorrect) {
  const auto runs =
      parse_triton_file_runs_json(tilesim::scenario::read_file(std::string(TILESIM_ASSETS_DIR) +
                                                               "/measured/triton_files_h100.json"),
                                  "triton_files_h100.json");
  EXPECT_EQ(runs.runs.size(), 8u);
  for (const auto& r : runs.runs) {
    EXPECT_TRUE(r.checked) << r.file;
    EXPECT_TRUE(r.correct) << r.file;
  }
}

}  // namespace
