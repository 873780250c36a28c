// The bad-input table (issue 7): scenario files that are malformed, truncated, oversized or hold
// NaN-like strings are refused with a message naming the problem and exit code 2, never a crash.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace {

int run_status(const std::string& args, std::string* out) {
  const auto r = tilesim::test::run_cli(args);
  *out += r.out;
  return r.code;
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("tilesim_bad_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

}  // namespace

TEST(BadScenarioFiles, AreRefusedWithTheReasonAndExitCode2) {
  const struct {
    const char* name;
    std::string text;
    const char* message;
  } cases[] = {
      {"truncated.json", "{\n  \"kernel\": \"matmul\",\n  \"m\": 57", "not valid JSON at line 3"},
      {"empty.json", "", "not valid JSON"},
      {"array.json", "[1, 2, 3]", "top level must be a JSON object"},
      {"nan.json", R"({"m": "NaN"})", "m must be an integer"},
      {"inf.json", R"({"block_m": Infinity})", "not valid JSON"},
      {"float.json", R"({"k": 57.5})", "k must be an integer"},
      {"huge.json", R"({"m": 1099511627776})",
       "m = 1099511627776 is out of range: allowed 1..65536"},
      {"negative.json", R"({"group_size_m": -1})", "group_size_m = -1 is out of range"},
      {"zero_block.json", R"({"block_n": 0})", "block_n = 0 is not allowed"},
      {"npot.json", R"({"block_k": 96})", "block_k = 96 is not allowed: a power of two"},
      {"big_block.json", R"({"m": 10, "block_m": 128})", "larger than the matrix"},
      {"kernel.json", R"({"kernel": "conv"})", "kernel = \"conv\" is unknown"},
      {"unknown_key.json", R"({"blockm": 64})", "unknown field \"blockm\""},
      {"overflow.json", R"({"m": 1e400})", "not valid JSON"},
      {"oversized.json", "{\"description\": \"" + std::string(2 << 20, 'x') + "\"}",
       "a scenario may be at most 1048576"},
  };
  for (const auto& c : cases) {
    const auto path = write_temp(c.name, c.text);
    std::string out;
    const int code = run_status("map --scenario " + path.string(), &out);
    EXPECT_EQ(code, 2) << c.name << "\n" << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.name << "\n" << out;
    std::filesystem::remove(path);
  }
}

TEST(BadScenarioFiles, ADirectoryIsNotAScenario) {
  std::string out;
  EXPECT_EQ(run_status("map --scenario /tmp", &out), 2);
  EXPECT_NE(out.find("no such scenario file"), std::string::npos) << out;
}

TEST(BadScenarioFiles, ABadCustomMachineIsRefusedNamingItsField) {
  const auto path = write_temp("bad_machine.json", R"({"custom_machine": {"sms": 0}})");
  for (const char* cmd : {"run", "sweep --group-m 1"}) {
    std::string out;
    EXPECT_EQ(run_status(std::string(cmd) + " --scenario " + path.string(), &out), 2) << out;
    EXPECT_NE(out.find("machine.sms = 0 is out of range"), std::string::npos) << out;
  }
  std::filesystem::remove(path);
}

// The tensor clock's fall: a sustained rate of 0 would make every dot endless (the engine divides
// by the rate), a negative time constant is no curve at all. Each is refused by name and range.
TEST(BadScenarioFiles, ATensorClockCurveOutOfRangeIsRefusedNamingItsField) {
  for (const auto& [field, value] :
       {std::pair{"tensor_sustained_fraction", "0"}, {"tensor_throttle_tau_s", "-1"},
        {"tensor_throttle_after_s", "1e9"}}) {
    const auto path = write_temp("bad_clock.json", std::string(R"({"custom_machine": {")") +
                                                       field + R"(": )" + value + "}}");
    std::string out;
    EXPECT_EQ(run_status("run --kernel matmul --m 256 --n 256 --k 256 --scenario " + path.string(),
                         &out),
              2)
        << field << ": " << out;
    EXPECT_NE(out.find(std::string("machine.") + field + " = "), std::string::npos) << out;
    EXPECT_NE(out.find("is out of range: allowed"), std::string::npos) << out;
    std::filesystem::remove(path);
  }
}
