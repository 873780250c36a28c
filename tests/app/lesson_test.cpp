// Lessons without a window: every bundled lesson parses and each step's position and highlights
// fit its problem; bad lesson files are refused with the key and the line; the animation maths
// is a deterministic function of (position, fraction); the lesson flags are checked.
#include "scenario/lesson.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "app/core/animation.hpp"
#include "app/core/lesson_run.hpp"
#include "app/core/options.hpp"
#include "scenario/resolve.hpp"
#include "sim/replay/replay.hpp"

using namespace tilesim;
using namespace tilesim::app;

namespace {

std::filesystem::path lessons_dir() {
  return std::filesystem::path(TILESIM_ASSETS_DIR) / "lessons";
}

// The message of the ScenarioError `text` raises (empty if it parses).
std::string refusal(const std::string& text) {
  try {
    scenario::parse_lesson(text, "bad.json");
  } catch (const scenario::ScenarioError& e) {
    return e.what();
  }
  return {};
}

const char* kGood = R"({
  "title": "t",
  "scenario": "seed004_574_grouped.json",
  "steps": [
    {"view": "launch_grid", "position": {"pid": 29, "step": 0}, "narration": "n",
     "question": {"text": "q", "answer": "a"}},
    {"view": "compare", "position": {"end": true}, "narration": "m",
     "highlight": {"pids": [29], "tiles": [{"matrix": "C", "row": 5, "col": 0}]}}
  ]
})";

// The refusal of the good lesson with its first `from` replaced by `to`.
std::string refusal_with(const std::string& from, const std::string& to) {
  std::string t = kGood;
  t.replace(t.find(from), from.size(), to);
  return refusal(t);
}

}  // namespace

TEST(LessonFiles, AtLeastEightLessonsParseAndEveryStepFitsItsProblem) {
  const auto all = scenario::list_lessons(lessons_dir());
  ASSERT_GE(all.size(), 8u);
  for (const auto& e : all) {
    ASSERT_TRUE(e.error.empty()) << e.error;
    const auto l = scenario::load_lesson(e.path);
    EXPECT_FALSE(l.title.empty()) << e.name;
    const scenario::Scenario* sc = &l.scenario;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
      const auto& s = l.steps[i];
      if (s.scenario) sc = &*s.scenario;
      const AppModel m = make_model(*sc);
      // Whether a position fits its problem does not depend on the order; rounds cost nothing.
      const sim::RoundOrder order(m.problem, m.machine, m.wave_programs(),
                                  sim::EventOrderKind::lockstep);
      const auto r = resolve_position(m.problem, &order, s.position);
      EXPECT_TRUE(r.error.empty()) << e.name << " step " << i + 1 << ": " << r.error;
      const auto bad = check_highlights(s.highlight, m.problem, r.cursor.value_or(CursorPos{}));
      EXPECT_TRUE(bad.empty()) << e.name << " step " << i + 1 << ": " << bad.front();
      EXPECT_FALSE(s.narration.empty());
    }
  }
}

TEST(LessonFiles, GoodLessonParsesWithQuestionAndHighlights) {
  const auto l = scenario::parse_lesson(kGood);
  ASSERT_EQ(l.steps.size(), 2u);
  EXPECT_EQ(l.steps[0].position.pid, 29);
  ASSERT_TRUE(l.steps[0].question);
  EXPECT_EQ(l.steps[0].question->answer, "a");
  EXPECT_EQ(l.steps[1].highlight.tiles.at(0).matrix, sim::Operand::c);
  EXPECT_EQ(l.steps[1].line, 7);
}

TEST(LessonFiles, UnknownKeyIsRefusedWithItsLineAndName) {
  const auto msg =
      refusal_with("\"narration\": \"m\"", "\"naration\": \"m\", \"narration\": \"m\"");
  EXPECT_NE(msg.find("line 7"), std::string::npos) << msg;
  EXPECT_NE(msg.find("steps[1].naration"), std::string::npos) << msg;
}

TEST(LessonFiles, WrongTypeIsRefusedWithItsLineAndName) {
  const auto msg = refusal_with("\"pids\": [29]", "\"pids\": [\"29\"]");
  EXPECT_NE(msg.find("line 8"), std::string::npos) << msg;
  EXPECT_NE(msg.find("steps[1].highlight.pids[0]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("integer"), std::string::npos) << msg;
}

TEST(LessonFiles, BadValuesAreRefusedWithTheKey) {
  const auto view = refusal_with("\"compare\"", "\"comparison\"");
  EXPECT_NE(view.find("line 7: steps[1].view"), std::string::npos) << view;
  EXPECT_NE(
      refusal_with("{\"end\": true}", "{\"end\": true, \"event\": 3}").find("steps[1].position"),
      std::string::npos);
  EXPECT_NE(refusal_with("\"C\"", "\"D\"").find("steps[1].highlight.tiles[0].matrix"),
            std::string::npos);
  const auto last_asks =
      refusal_with("\"narration\": \"m\"",
                   "\"narration\": \"m\", \"question\": {\"text\": \"q\", \"answer\": \"a\"}");
  EXPECT_NE(last_asks.find("last step"), std::string::npos);
  const auto missing = refusal_with("seed004_574_grouped.json", "nope.json");
  EXPECT_NE(missing.find("line 3: scenario"), std::string::npos) << missing;
}

TEST(LessonFiles, InlineScenarioErrorPointsAtTheBadField) {
  const std::string t = R"({
  "title": "t",
  "scenario": {"kernel": "matmul", "m": 64, "n": 64, "k": 64,
               "block_m": 48},
  "steps": [{"view": "memory", "position": {"start": true}, "narration": "n"}]
})";
  const auto msg = refusal(t);
  EXPECT_NE(msg.find("line 4: scenario.block_m"), std::string::npos) << msg;
}

TEST(LessonFiles, BrokenJsonNamesTheLineAndNeverCrashes) {
  EXPECT_NE(refusal("{\n\"title\": \"t\",\n}").find("line 3"), std::string::npos);
  // Every prefix of a good lesson is either a lesson or a refusal, never a crash.
  const std::string good = kGood;
  for (std::size_t n = 0; n < good.size(); n += 3) {
    try {
      scenario::parse_lesson(good.substr(0, n));
    } catch (const scenario::ScenarioError&) {
    }
  }
}

TEST(LessonPosition, Event29CountsFromZeroAndShowsPid29) {
  const AppModel m = make_model(default_scenario());  // seed 004: 81 programs in one wave
  const sim::RoundOrder lockstep(m.problem, m.machine, m.wave_programs(),
                                 sim::EventOrderKind::lockstep);
  const sim::RoundOrder* order = &lockstep;
  scenario::LessonPosition ev;
  ev.event = 29;
  EXPECT_EQ(resolve_position(m.problem, order, ev).position, 30);
  scenario::LessonPosition pid;
  pid.pid = 29;
  pid.step = 0;
  const auto r = resolve_position(m.problem, order, pid);
  EXPECT_EQ(r.position, 30);
  ASSERT_TRUE(r.cursor);
  EXPECT_EQ(r.cursor->pid, 29);
  scenario::LessonPosition load;
  load.pid = 29;
  load.op = sim::StepOp::load_b;
  load.k = 2;
  EXPECT_EQ(resolve_position(m.problem, order, load).cursor->step, 8);
  pid.pid = 81;
  EXPECT_FALSE(resolve_position(m.problem, order, pid).error.empty());
}

TEST(LessonRun, Lesson08ReplaysInTheAppsOrderAndShowsTheDramBytesOfTheCli) {
  // Its step on big_8192_fp16 opens the 8192^3 scenario where the event order decides the DRAM
  // bytes (timed 1.9 GB grouped; lockstep rounds 1.6 GB): the lesson must show what the same
  // scenario shows opened directly (timed by default) and what tilesim-cli run prints.
  LessonRun run = open_lesson("08_when_grouping_matters");
  int big = -1;
  for (std::size_t i = 0; i < run.lesson.steps.size(); ++i)
    if (run.lesson.steps[i].scenario && run.lesson.steps[i].scenario->name == "big_8192_fp16")
      big = static_cast<int>(i);
  ASSERT_GE(big, 0) << "lesson 08 no longer opens big_8192_fp16.json";
  const scenario::Scenario sc = *run.lesson.steps[big].scenario;
  AppModel m = make_model(default_scenario());
  ASSERT_EQ(m.event_order, sim::EventOrderKind::timed);
  PanelId tab = PanelId::launch_grid;
  run.requested = big;
  for (int i = 0; i < 150000 && run.step != big; ++i) {  // a 300 s hang guard
    lesson_update(m, run, tab, 0, false, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(run.step, big) << "the lesson never resolved its 8192^3 step";
  ASSERT_TRUE(m.engine->wait_settled(300));
  EXPECT_EQ(m.event_order, sim::EventOrderKind::timed);
  EXPECT_TRUE(run.error.empty()) << run.error;
  const auto resolved = scenario::resolve(sc);
  const sim::ReplayResult cli = sim::replay(resolved.problem, resolved.machine, resolved.occupancy);
  EXPECT_EQ(m.engine->frame()->final_counters.dram_read_bytes, cli.counters.dram_read_bytes);
  EXPECT_EQ(m.engine->frame()->final_counters, cli.counters);
}

TEST(LessonHighlights, OutOfRangeItemsAreReported) {
  const AppModel m = make_model(default_scenario());
  scenario::LessonHighlight h;
  h.tiles.push_back({sim::Operand::a, 9, 0});  // A has 9 x 9 tiles: rows 0..8
  h.code_lines.push_back(500);
  h.pids.push_back(81);
  EXPECT_EQ(check_highlights(h, m.problem, {29, 1}).size(), 3u);
}

TEST(Animation, UniformClockSplitsTimeIntoPositionAndFraction) {
  const UniformClock c;
  EXPECT_EQ(anim_point(c, 5.25), (AnimPoint{6, 0.25}));
  EXPECT_EQ(anim_point(c, 0.0), (AnimPoint{1, 0.0}));
  const auto frames = animation_frames(c, 81, 89, 0.25, 12);  // 8 events, 2 s at 12 fps
  ASSERT_EQ(frames.size(), 25u);
  EXPECT_EQ(frames.front(), (AnimPoint{82, 0.0}));
  EXPECT_EQ(frames.back(), (AnimPoint{89, 1.0}));
  EXPECT_EQ(frames, animation_frames(c, 81, 89, 0.25, 12));               // the same every time
  EXPECT_GT(animation_frames(c, 81, 89, 1.0, 12).size(), frames.size());  // slow motion
}

TEST(Animation, AMissTravelsFromDramAndAHitStartsAtL2) {
  sim::EventInfo ev;
  ev.op = sim::StepOp::load_a;
  sim::AccessResult miss;
  miss.miss_sectors = 4;
  const Motion m = motion_of(ev, miss, 9, 0.5);
  EXPECT_FALSE(m.l2_hit);
  EXPECT_EQ(m.path.front(), MemLevel::dram);
  EXPECT_DOUBLE_EQ(level_coordinate(m), 1.0);  // half-way: at L2
  sim::AccessResult hit;
  hit.hit_sectors = 4;
  const Motion h = motion_of(ev, hit, 9, 0.1);
  EXPECT_TRUE(h.l2_hit);
  EXPECT_DOUBLE_EQ(level_coordinate(h), 1.0);                           // still stopped at L2
  EXPECT_DOUBLE_EQ(level_coordinate(motion_of(ev, hit, 9, 1.0)), 2.0);  // in shared memory
}

TEST(Animation, TheDotFillsTheCTileAndTheStoreTravelsBack) {
  sim::EventInfo ev;
  ev.op = sim::StepOp::dot;
  ev.k = 2;
  EXPECT_DOUBLE_EQ(motion_of(ev, {}, 4, 0.5).acc, 2.5 / 4);
  ev.op = sim::StepOp::store;
  const Motion s = motion_of(ev, {}, 4, 1.0);
  EXPECT_EQ(s.path.front(), MemLevel::regs);
  EXPECT_DOUBLE_EQ(level_coordinate(s), 1.0);  // arrived at L2
}

TEST(LessonOptions, StepsCountFromOneAndExportNeedsALesson) {
  EXPECT_FALSE(parse_options({"--lesson", "x", "--lesson-step", "0"}).error.empty());
  EXPECT_EQ(*parse_options({"--lesson", "x", "--lesson-step", "3"}).options.lesson_step, 3);
  EXPECT_FALSE(parse_options({"--export-dir", "d"}).error.empty());
  EXPECT_FALSE(parse_options({"--theme", "sepia"}).error.empty());
  EXPECT_TRUE(parse_options({"--theme", "light", "--font-scale", "1.5"}).options.light);
  EXPECT_FALSE(parse_options({"--record", "a.gif", "--from", "5", "--to", "5"}).error.empty());
}

TEST(Options, SmsColourIsWaveByDefaultWaitWhenAskedAndAnythingElseIsNamed) {
  EXPECT_FALSE(parse_options({}).options.sms_by_wait);
  EXPECT_TRUE(parse_options({"--sms-colour", "wait"}).options.sms_by_wait);
  EXPECT_FALSE(parse_options({"--sms-colour", "wave"}).options.sms_by_wait);
  const std::string error = parse_options({"--sms-colour", "cause"}).error;
  EXPECT_NE(error.find("--sms-colour wants wave or wait"), std::string::npos) << error;
}

TEST(LessonFiles, HideRowsParsesAndAWrongTypeNamesTheItem) {
  std::string t = kGood;
  const std::string from = "\"narration\": \"m\"";
  t.replace(t.find(from), from.size(), from + ", \"hide_rows\": [\"DRAM bytes, whole run\"]");
  const auto l = scenario::parse_lesson(t);
  ASSERT_EQ(l.steps[1].hide_rows.size(), 1u);
  EXPECT_EQ(l.steps[1].hide_rows[0], "DRAM bytes, whole run");
  const auto msg = refusal_with(from, from + ", \"hide_rows\": [3]");
  EXPECT_NE(msg.find("steps[1].hide_rows[0]"), std::string::npos) << msg;
}

TEST(LessonHighlights, AHiddenRowNoTableDrewAsQuestionMarkIsMissing) {
  // hide_rows is checked like a highlight: a name the view's table has no row for (a typo, or
  // a row of another view) must fail the export rather than leave the answer showing.
  LessonRun run = open_lesson("08_when_grouping_matters");
  run.step = 0;
  run.lesson.steps[0].hide_rows = {"predicted time (timed engine)"};
  run.drawn = highlight_marks(run.lesson.steps[0].highlight);
  const auto missing = missing_marks(run);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "hidden:predicted time (timed engine)");
  run.drawn.insert("hidden:predicted time (timed engine)");
  EXPECT_TRUE(missing_marks(run).empty());
}

TEST(LessonRun, TheFirstScreenIsLesson08AndHelpSaysSo) {
  // tilesim with no arguments, scripts/run, README and --help all name the same first screen.
  const auto all = scenario::list_lessons(scenario::assets_dir() / "lessons");
  const auto start = first_screen_lesson(all);
  ASSERT_NE(start, all.end());
  EXPECT_EQ(start->path.stem(), "08_when_grouping_matters");
  EXPECT_NE(usage().find("lesson 08"), std::string::npos);
  // Without lesson 08, the first lesson that parses.
  std::vector<scenario::LessonEntry> rest(all.begin(), all.end());
  rest.erase(rest.begin() + (start - all.begin()));
  rest.front().error = "broken";
  EXPECT_EQ(first_screen_lesson(rest), rest.begin() + 1);
}
