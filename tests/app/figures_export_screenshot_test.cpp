// --export-dir's JSON beside each PNG, through the real `tilesim` under xvfb-run: one
// NAME-stepNN.json per step, whose figures include the narration's (drawn_by "lesson") and the
// compare table's (drawn_by "panel"), each with a kind and a non-empty source, and the narration
// as shown (figures filled in). Skipped with a reason where xvfb-run is missing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "headless_app.hpp"

namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

const nlohmann::json* find(const nlohmann::json& figs, const std::string& name, const char* by) {
  for (const auto& f : figs)
    if (f.at("name") == name && f.at("drawn_by") == by) return &f;
  return nullptr;
}

TEST(LessonFigures, ExportWritesTheFiguresOfEveryStepWithTheirSources) {
  if (!tilesim::test::have_xvfb()) GTEST_SKIP() << "xvfb-run is missing (apt-get install xvfb)";
  const fs::path dir = fs::temp_directory_path() / "tilesim_figures_export";
  fs::remove_all(dir);
  const fs::path lesson = fs::path(TILESIM_ASSETS_DIR).parent_path() / "tests" / "app" /
                          "fixtures" / "figures_lesson.json";
  const fs::path err = dir.string() + ".err";
  ASSERT_EQ(tilesim::test::run_headless(TILESIM_APP,
                                        "--lesson " + lesson.string() + " --export-dir " +
                                            dir.string(),
                                        err),
            0)
      << "see " << err.string();
  for (int step = 1; step <= 2; ++step) {
    const fs::path p = dir / ("figures_lesson-step0" + std::to_string(step) + ".json");
    ASSERT_TRUE(fs::exists(p)) << p;
    ASSERT_TRUE(fs::exists(fs::path(p).replace_extension(".png"))) << p;
    const auto j = read_json(p);
    EXPECT_EQ(j.at("lesson"), "figures_lesson");
    EXPECT_EQ(j.at("step"), step);
    const auto& figs = j.at("figures");
    for (const auto& f : figs) {
      EXPECT_FALSE(f.at("kind").get<std::string>().empty()) << f.dump();
      EXPECT_FALSE(f.at("source").get<std::string>().empty()) << f.dump();
      EXPECT_FALSE(f.at("text").get<std::string>().empty()) << f.dump();
    }
    // The compare table's cells are registered on every compare step.
    EXPECT_TRUE(find(figs, "compare.dram_bytes.a", "panel")) << j.dump(2);
    EXPECT_TRUE(find(figs, "compare.time.ratio", "panel")) << j.dump(2);
    if (step == 1) {
      EXPECT_EQ(j.at("narration").get<std::string>().rfind("With 9 x 9 tiles", 0), 0u) << j.dump(2);
      const auto* b = find(figs, "footprint.b.tiles", "lesson");
      ASSERT_TRUE(b) << j.dump(2);
      EXPECT_EQ(b->at("text"), "90");
      EXPECT_EQ(b->at("kind"), "computed");
    } else {
      // The narration's figure is the table's: one value by one path.
      const auto* n = find(figs, "compare.dram_bytes.a", "lesson");
      const auto* t = find(figs, "compare.dram_bytes.a", "panel");
      ASSERT_TRUE(n && t) << j.dump(2);
      EXPECT_EQ(n->at("value"), t->at("value"));
      EXPECT_EQ(n->at("text"), t->at("text"));
      const auto* m = find(figs, "measured.h100.matmul_wgmma_tma.8192.fp16.grouped.ms", "lesson");
      ASSERT_TRUE(m) << j.dump(2);
      EXPECT_EQ(m->at("kind"), "measured");
      EXPECT_NE(m->at("source").get<std::string>().find("NVIDIA H100"), std::string::npos);
      const auto* q = find(figs, "quote.003.t4_plain_ms", "lesson");
      ASSERT_TRUE(q) << j.dump(2);
      EXPECT_EQ(q->at("source").get<std::string>().rfind("seed 003, the seed's words: ", 0), 0u);
      EXPECT_EQ(j.at("narration").get<std::string>().find('{'), std::string::npos) << j.dump(2);
    }
  }
}

}  // namespace
