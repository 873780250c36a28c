// tilesim-cli machine-params end to end: the parameter table as JSON (every field of every preset
// with its kind and evidence), one preset alone, and docs/PARAMETERS.md as the --markdown output
// it is generated from (so the committed file cannot go stale).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace {

// stdout only: the table
tilesim::test::CliResult run_cli(const std::string& args) {
  return tilesim::test::run_cli(args, tilesim::test::Stderr::drop);
}

const std::set<std::string> kKinds{"datasheet", "measured", "fitted", "inherited", "assumed"};

}  // namespace

TEST(CliMachineParams, JsonGivesEveryFieldOfEveryPresetAKindAndEvidence) {
  const auto r = run_cli("machine-params --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["presets"], nlohmann::json({"t4", "a100", "h100", "h200"}));
  // Every field has a row: tests/sim/parameters_test.cpp counts them against sim::Machine.
  EXPECT_FALSE(j["machine_parameters"].empty());
  for (const auto& p : j["machine_parameters"]) {
    ASSERT_EQ(p["presets"].size(), 4u) << p["name"];
    for (const auto& [key, v] : p["presets"].items()) {
      EXPECT_TRUE(kKinds.count(v["kind"].get<std::string>())) << p["name"] << " " << key;
      EXPECT_FALSE(v["evidence"].get<std::string>().empty()) << p["name"] << " " << key;
      EXPECT_FALSE(v["value"].is_null()) << p["name"] << " " << key;
    }
  }
  EXPECT_FALSE(j["rung_parameters"].empty());
  EXPECT_FALSE(j["constants"].empty());
}

TEST(CliMachineParams, TheH100DramLatencyIs706CyclesFittedToTheBytesInFlightProbe) {
  const auto r = run_cli("machine-params --json --machine h100");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["presets"], nlohmann::json({"h100"}));
  for (const auto& p : j["machine_parameters"]) {
    if (p["name"] != "dram_latency_cycles") continue;
    EXPECT_EQ(p["presets"]["h100"]["value"], 706);
    EXPECT_EQ(p["presets"]["h100"]["kind"], "fitted");
    EXPECT_NE(p["presets"]["h100"]["evidence"].get<std::string>().find("bytes_in_flight"),
              std::string::npos);
    return;
  }
  ADD_FAILURE() << "no dram_latency_cycles row";
}

// The A100 has no reading of its own; the T4's comes from published cuBLAS rates (its power cap).
TEST(CliMachineParams, TheA100InheritsTheH200sFittedTensorEfficiencyTheT4HasItsOwn) {
  const auto r = run_cli("machine-params --json");
  ASSERT_EQ(r.code, 0) << r.out;
  // The parsed document must outlive the loop: ranging over a temporary's member reads freed
  // memory (ASan found it).
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  for (const auto& p : doc.at("machine_parameters"))
    if (p.at("name") == "tensor_efficiency") {
      EXPECT_EQ(p.at("presets").at("a100").at("kind"), "inherited");
      EXPECT_EQ(p.at("presets").at("t4").at("kind"), "measured");
      return;
    }
  ADD_FAILURE() << "no tensor_efficiency row";
}

TEST(CliMachineParams, AnUnknownMachineIsRefusedWithExitCode2) {
  EXPECT_EQ(run_cli("machine-params --machine b200").code, 2);
}

TEST(CliMachineParams, DocsParametersMdIsTheMarkdownOutput) {
  const auto r = run_cli("machine-params --markdown");
  ASSERT_EQ(r.code, 0);
  std::ifstream f(std::string(TILESIM_ASSETS_DIR) + "/../docs/PARAMETERS.md");
  ASSERT_TRUE(f) << "docs/PARAMETERS.md is missing: run scripts/parameters_md";
  std::stringstream committed;
  committed << f.rdbuf();
  EXPECT_TRUE(committed.str() == r.out)
      << "docs/PARAMETERS.md is stale: run scripts/parameters_md (tilesim-cli machine-params "
         "--markdown > docs/PARAMETERS.md) and commit it";
}
