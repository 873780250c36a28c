// Every lesson's texts against the figure contract (assets/lessons/README.md, "Figures"): no bare
// number in a title, narration, question or answer; every figure resolves on its step (the
// step's scenario replayed for real, at the step's position where it has a timeline); formulas
// hold (refused at load otherwise). The same checks pass on a fixture lesson and fail, naming
// the lesson, step, field and number, on a broken one.
#include "scenario/lesson_figures.hpp"

#include <gtest/gtest.h>

#include <map>

#include "app/core/glossary.hpp"
#include "app/core/lesson_run.hpp"
#include "app/core/step_figures.hpp"
#include "scenario/lesson_text.hpp"
#include "scenario/resolve.hpp"
#include "sim/replay/timeline.hpp"

namespace tilesim::app {
namespace {

namespace fs = std::filesystem;
const fs::path kAssets = TILESIM_ASSETS_DIR;
const fs::path kFixtures = kAssets.parent_path() / "tests" / "app" / "fixtures";

// Timelines larger than this are not built: such a step shows only the end of its run.
constexpr std::int64_t kTimelineBytes = 256ll << 20;

struct Checker {
  std::map<std::string, scenario::StepReplays> runs;  // by the scenario's JSON
  std::map<std::string, std::unique_ptr<sim::Timeline>> timelines;

  // Problems of one lesson, each naming the lesson, step, field and what is wrong.
  std::vector<std::string> check(const scenario::Lesson& l) {
    std::vector<std::string> out;
    for (const auto& b : scenario::lesson_bare_numbers(l))
      out.push_back(l.name + ": " + b.message());
    const scenario::Scenario* sc = &l.scenario;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
      const auto& step = l.steps[i];
      if (step.scenario) sc = &*step.scenario;
      const std::string key = scenario::to_json(*sc);
      if (!runs.count(key)) runs.emplace(key, scenario::replay_step(*sc));
      const auto& r = runs.at(key);
      scenario::FigureContext c =
          r.context(&scenario::bundled_bench_files(), &scenario::bundled_quotes());
      // The step's position on a timeline of its problem, where one fits.
      const auto resolved = scenario::resolve(*sc);
      if (!timelines.count(key)) {
        sim::TimelineOptions opt;
        const auto cost =
            sim::estimate_timeline_cost(r.problem, r.machine, resolved.occupancy, opt);
        timelines[key] =
            cost.total_bytes() <= kTimelineBytes
                ? std::make_unique<sim::Timeline>(r.problem, r.machine, resolved.occupancy, opt)
                : nullptr;
      }
      sim::Timeline* tl = timelines[key].get();
      const auto pos = resolve_position(r.problem, tl ? &tl->order() : nullptr, step.position);
      std::optional<sim::Snapshot> snap;
      if (tl && pos.error.empty()) {
        tl->seek(pos.position);
        snap = tl->snapshot();
        c.now = &*snap;
        c.programs_started = tl->order().programs_started(pos.position);
      }
      for (const auto& [field, text] : scenario::step_texts(step))
        for (const auto& name : scenario::figure_names(*text)) {
          try {
            scenario::resolve_figure(name, c);
          } catch (const std::exception& e) {
            out.push_back(l.name + ": steps[" + std::to_string(i) + "]." + field + " (line " +
                          std::to_string(step.line) + "): " + e.what());
          }
        }
    }
    return out;
  }
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

TEST(LessonFigures, EveryBundledLessonHasOnlyFiguresFormulasAndSeedQuotes) {
  Checker checker;
  std::vector<std::string> problems;
  for (const auto& e : scenario::list_lessons(kAssets / "lessons")) {
    if (!e.error.empty()) {
      problems.push_back(e.name + ": " + e.error);
      continue;
    }
    for (auto& p : checker.check(scenario::load_lesson(e.path))) problems.push_back(std::move(p));
  }
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems:" << join(problems);
}

TEST(LessonFigures, FixtureLessonPasses) {
  Checker checker;
  const auto problems = checker.check(scenario::load_lesson(kFixtures / "figures_lesson.json"));
  EXPECT_TRUE(problems.empty()) << join(problems);
}

TEST(LessonFigures, BrokenLessonIsNamedByStepFieldAndNumber) {
  const auto l = scenario::parse_lesson(R"({"title": "t", "scenario": "triton_9x9_grouped.json",
    "steps": [{"view": "compare", "position": {"end": true}, "narration": "ratio {compare.time.ratio}"},
              {"view": "compare", "position": {"pid": 8, "step": 0},
               "narration": "at {now.time}, {measured.h100.matmul_wgmma_tma.8192.ms}: 1.67x faster"}]})",
                                        "broken.json");
  Checker checker;
  const auto problems = checker.check(l);
  ASSERT_EQ(problems.size(), 2u) << join(problems);
  EXPECT_NE(problems[0].find("steps[1].narration (line 3): bare number \"1.67\""),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("{measured.h100.matmul_wgmma_tma.8192.ms}: 3 records match"),
            std::string::npos)
      << problems[1];
}

TEST(LessonFigures, StepTextFillsFiguresAndNumbersFootnotesInOrder) {
  const auto l = scenario::load_lesson(kFixtures / "figures_lesson.json");
  const auto r = scenario::replay_step(l.scenario);
  auto c = r.context(&scenario::bundled_bench_files(), &scenario::bundled_quotes());
  c.programs_started = 9;
  const StepText t = resolve_step_text(l, 0, c);
  EXPECT_TRUE(t.errors.empty()) << join(t.errors);
  EXPECT_EQ(t.footnote("problem.tiles_m"), 1);
  EXPECT_EQ(t.footnote("footprint.b.tiles"), 3);
  EXPECT_EQ(t.shown("{footprint.b.tiles} or {footprint.a.tiles}: `27 + 27 = 54`"),
            "90 or 54: 27 + 27 = 54");
  const std::string json = step_figures_json(l, 0, t, {});
  EXPECT_NE(json.find("\"narration\": \"With 9 x 9 tiles"), std::string::npos) << json;
  EXPECT_NE(json.find("\"kind\": \"computed\""), std::string::npos) << json;
}

TEST(Glossary, TermsParagraphsAndSearch) {
  const auto g = parse_glossary(
      "# Glossary\n\nintro\n\n## Warp\n32 threads that issue\ntogether.\n\n## Sector\n32 bytes, "
      "the unit of `L2`.\n");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].term, "Warp");
  EXPECT_EQ(g[0].text, "32 threads that issue together.");
  EXPECT_EQ(filter_glossary(g, "sector").size(), 1u);
  EXPECT_EQ(filter_glossary(g, "THREADS").size(), 1u);
  EXPECT_EQ(filter_glossary(g, "").size(), 2u);
}

}  // namespace
}  // namespace tilesim::app

namespace tilesim::app {
namespace {

TEST(LessonFigures, QuotesFileBesideTheLessonsIsNotALesson) {
  for (const auto& e : scenario::list_lessons(kAssets / "lessons"))
    EXPECT_NE(e.path.filename(), "quotes.json") << "the index would list quotes.json as broken";
}

}  // namespace
}  // namespace tilesim::app
