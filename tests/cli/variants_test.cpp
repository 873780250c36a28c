// tilesim-cli variants end to end: the registry as the scripts read it (fit_timing.py takes the
// timed rungs from it, fidelity_report.py the warp model of each), so its JSON is checked here.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace {

nlohmann::json variants_json() {
  const auto r = tilesim::test::run_cli("variants --json", tilesim::test::Stderr::drop);
  EXPECT_EQ(r.code, 0) << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

const nlohmann::json* find(const nlohmann::json& j, const std::string& name) {
  for (const auto& v : j["variants"])
    if (v["name"] == name) return &v;
  return nullptr;
}

}  // namespace

TEST(CliVariants, CopyTiledIsTimedAndMirroredByTheCopyTiledWarpModel) {
  const auto j = variants_json();
  ASSERT_FALSE(j.is_discarded());
  const auto* v = find(j, "copy_tiled");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ((*v)["kernel"], "copy");
  EXPECT_EQ((*v)["kind"], "rung");
  EXPECT_EQ((*v)["timed"], true);
  EXPECT_EQ((*v)["warp_model"], "copy_tiled");
  EXPECT_EQ((*v)["timing"]["num_warps"], 8);
  EXPECT_EQ((*v)["timing"]["loads_in_flight"], 1);
}

TEST(CliVariants, CublasSgemmIsAnUntimedBaselineWithNoWarpModel) {
  const auto j = variants_json();
  ASSERT_FALSE(j.is_discarded());
  const auto* v = find(j, "cublas_sgemm");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ((*v)["kind"], "baseline");
  EXPECT_EQ((*v)["timed"], false);
  EXPECT_TRUE((*v)["warp_model"].is_null());
  EXPECT_FALSE(v->contains("timing"));
}

TEST(CliVariants, EveryTimedMatmulRungNamesItsMathPath) {
  const auto j = variants_json();
  ASSERT_FALSE(j.is_discarded());
  int timed_matmul = 0;
  for (const auto& v : j["variants"]) {
    if (v["kernel"] != "matmul" || !v["timed"].get<bool>()) continue;
    ++timed_matmul;
    ASSERT_TRUE(v.contains("timing")) << v["name"];
    EXPECT_TRUE(v["timing"]["math_path"].is_string()) << v["name"];
  }
  EXPECT_GT(timed_matmul, 0);
}
