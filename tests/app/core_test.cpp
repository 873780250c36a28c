// Unit tests of the app's window-free core: engine sessions and stepping, commands, layout maths
// and file naming. Test names read as sentences.
#include <gtest/gtest.h>

#include <filesystem>

#include "app/core/animation.hpp"
#include "app/core/commands.hpp"
#include "app/core/layout.hpp"
#include "app/core/options.hpp"
#include "app/core/playback.hpp"
#include "sim/program/occupancy.hpp"

using namespace tilesim;
using namespace tilesim::app;

// How long a wait for the engine may take before it counts as a hang (seconds): minutes, since
// sanitizer builds on a shared machine are 5-15x slower; no test here times the engine.
constexpr double kHangGuardS = 300;

TEST(Commands, StepsFollowTheEnginesEventOrderAcrossResidentPrograms) {
  // seed 004 on an H100: 81 programs, one wave, in the lockstep round order
  AppModel m = make_model(default_scenario(), {}, sim::EventOrderKind::lockstep);
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.events(), 81 * 29);  // map + 3 x 9 + store per program
  apply_command(m, StepBy{StepUnit::event, -1});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.position(), 0);
  apply_command(m, Seek{2});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  // Resident programs take turns: event 1 is pid 1's first step, not pid 0's second.
  EXPECT_EQ(cursor_of(m.engine->frame().get()), (CursorPos{1, 0}));
  apply_command(m, StepBy{StepUnit::k_iteration, +1});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.position(), 81);  // every program has mapped its tile; next: load_a k = 0
  apply_command(m, StepBy{StepUnit::program, +1});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.position(), 81 * 28 + 1);  // pid 0 has just stored its tile
  EXPECT_EQ(cursor_of(m.engine->frame().get()), (CursorPos{0, 28}));
  apply_command(m, SeekEnd{});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  const auto f = m.engine->frame();
  EXPECT_EQ(f->snapshot.counters, f->final_counters);
  EXPECT_GT(f->final_counters.dram_read_bytes, 0);
}

// Lesson 08 / 07's end-of-run steps: "so far" on both sides is the whole run, although the
// compare order's kernel ends after the first order's (its last stores come later).
TEST(Commands, AtTheEndTheCompareOrderIsAtItsEndToo) {
  AppModel m = make_model(default_scenario());  // grouped, compared with row-major
  ASSERT_TRUE(m.engine_compare);
  apply_command(m, SeekEnd{});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  ASSERT_TRUE(m.engine_compare->wait_settled(kHangGuardS));
  sync_sessions(m);
  ASSERT_TRUE(m.engine_compare->wait_settled(kHangGuardS));
  const auto b = m.engine_compare->frame();
  ASSERT_TRUE(b && b->order);
  EXPECT_EQ(b->position, b->order->events());
  EXPECT_EQ(b->snapshot.counters, b->final_counters);
}

TEST(Commands, SeekPidLandsJustAfterThatProgramsFirstStep) {
  AppModel m = make_model(default_scenario());
  apply_command(m, SeekPid{29});
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  EXPECT_EQ(m.position(), 30);
  EXPECT_EQ(cursor_of(m.engine->frame().get()), (CursorPos{29, 0}));
}

TEST(EngineSession, TooLargeATimelineFallsBackToCountersOnly) {
  EngineSession s;
  s.set_memory_budget(1024);
  const sim::Problem p{sim::ProblemSpec{}};
  const auto machine = *sim::find_machine("h100");
  s.open(p, machine, sim::occupancy(p, machine));
  ASSERT_TRUE(s.wait_settled(kHangGuardS));
  EXPECT_EQ(s.phase(), EnginePhase::counters_only);
  EXPECT_NE(s.message().find("budget"), std::string::npos) << s.message();
  const auto f = s.frame();
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->counters_only);
  EXPECT_EQ(f->position, f->events);
  EXPECT_GT(f->snapshot.counters.dram_read_bytes, 0);
  EXPECT_FALSE(has_current_event(f.get()));
}

TEST(EngineSession, HitRateSeriesEndsAtTheRunsHitRate) {
  EngineSession s;
  const sim::Problem p{sim::ProblemSpec{}};
  const auto machine = *sim::find_machine("h100");
  s.open(p, machine, sim::occupancy(p, machine));
  ASSERT_TRUE(s.wait_settled(kHangGuardS));
  const auto series = s.series();
  ASSERT_TRUE(series);
  ASSERT_FALSE(series->cumulative.empty());
  const auto f = s.frame();
  // The series counts sector hits of loads and stores, as Counters::l2_hit_rate does.
  EXPECT_NEAR(series->cumulative.back(), f->final_counters.l2_hit_rate(), 0.02);
}

TEST(Commands, InvalidFieldKeepsThePreviousProblemAndNamesTheField) {
  AppModel m = make_model(default_scenario());
  sim::ProblemSpec bad = m.problem.spec();
  bad.block_m = 48;  // not a power of two
  apply_command(m, SetSpec{bad, "block_m"});
  ASSERT_TRUE(m.field_error.has_value());
  EXPECT_EQ(m.field_error->field, "block_m");
  EXPECT_EQ(m.problem.block_m(), 64);
  sim::ProblemSpec good = m.problem.spec();
  good.block_m = 32;
  apply_command(m, SetSpec{good, "block_m"});
  EXPECT_FALSE(m.field_error.has_value());
  EXPECT_EQ(m.problem.block_m(), 32);
  EXPECT_EQ(m.problem.tiles_m(), 18);
}

TEST(Commands, CompareOrderBuildsASecondProblemThatDiffersOnlyInOrder) {
  AppModel m = make_model(default_scenario());
  ASSERT_TRUE(m.compare.has_value());
  EXPECT_EQ(m.compare->order(), sim::LaunchOrder::row_major);
  apply_command(m, SetCompareOrder{std::nullopt});
  EXPECT_FALSE(m.compare.has_value());
}

TEST(Commands, PlayAdvancesBySpeedTimesSecondsAndStopsAtTheEnd) {
  AppModel m = make_model(default_scenario(), {}, sim::EventOrderKind::lockstep);
  apply_command(m, SetSpeed{10});
  apply_command(m, TogglePlay{});
  apply_command(m, Advance{0.55});
  EXPECT_EQ(m.position(), 5);
  apply_command(m, Advance{1e6});
  EXPECT_EQ(m.position(), m.events());
  EXPECT_FALSE(m.playing);
}

TEST(Commands, TimedPlayAdvancesSimulatedTimeAtTheChosenRate) {
  AppModel m = make_model(default_scenario());  // the timed order
  ASSERT_TRUE(m.engine->wait_settled(kHangGuardS));
  const auto order = m.engine->frame()->order;
  ASSERT_TRUE(order && order->timed());
  apply_command(m, SetTimeRate{1e6});  // 1 us of GPU time per second
  apply_command(m, TogglePlay{});
  apply_command(m, Advance{0.5});  // 0.5 us of GPU time, from the first event (a Triton
                                   // program's comes after its launch overhead)
  const double t0 = static_cast<double>(order->time_ps(0));
  EXPECT_EQ(m.position(), TimedClock(order).event_at(t0 + 5e5) + 1);
  EXPECT_LE(order->time_ps(m.position() - 1), t0 + 500000);
  apply_command(m, Advance{1e6});
  EXPECT_EQ(m.position(), m.events());
  EXPECT_FALSE(m.playing);
}

TEST(Commands, SaveThenLoadRoundTripsTheScenario) {
  const auto dir = std::filesystem::temp_directory_path() / "tilesim_app_test";
  std::filesystem::create_directories(dir);
  AppModel m = make_model(default_scenario());
  sim::ProblemSpec s = m.problem.spec();
  s.group_size_m = 5;
  apply_command(m, SetSpec{s, "group_size_m"});
  apply_command(m, SaveScenario{dir / "saved.json"});
  EXPECT_FALSE(m.status_is_error) << m.status;
  AppModel other = make_model(default_scenario());
  apply_command(other, LoadScenario{dir / "saved.json"});
  EXPECT_FALSE(other.status_is_error) << other.status;
  EXPECT_EQ(other.problem.group_size_m(), 5);
}

TEST(Commands, LoadingAMissingFileKeepsWhatWasOpenAndReportsIt) {
  AppModel m = make_model(default_scenario());
  apply_command(m, LoadScenario{"/nonexistent/dir/x.json"});
  EXPECT_TRUE(m.status_is_error);
  EXPECT_EQ(m.problem.m(), 574);
}

TEST(Commands, ABadCustomMachineIsRefusedAsTheCliRefusesItAndWhatWasOpenStays) {
  scenario::Scenario bad = default_scenario();
  bad.custom_machine_json = R"({"sms": 0})";
  try {
    make_model(bad);
    FAIL() << "the app opened a machine with 0 SMs";
  } catch (const sim::InvalidField& e) {
    EXPECT_NE(std::string(e.what()).find("machine.sms = 0 is out of range"), std::string::npos);
  }
  const auto path = std::filesystem::temp_directory_path() / "tilesim_app_bad_machine.json";
  scenario::save_scenario(bad, path);
  AppModel m = make_model(default_scenario());
  apply_command(m, LoadScenario{path});
  EXPECT_TRUE(m.status_is_error);
  EXPECT_NE(m.status.find("machine.sms"), std::string::npos) << m.status;
  EXPECT_EQ(m.machine.key, "h100");
  std::filesystem::remove(path);
}

TEST(Scenarios, EveryTeachingScenarioLoads) {
  int n = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(TILESIM_ASSETS_DIR) + "/scenarios")) {
    if (e.path().extension() != ".json") continue;
    EXPECT_NO_THROW(make_model(scenario::load_scenario(e.path()), e.path())) << e.path();
    ++n;
  }
  EXPECT_GE(n, 6);
}

TEST(Layout, PanelsTileTheWindowWithoutOverlap) {
  const auto l = compute_layout(1600, 900, std::nullopt, PanelId::launch_grid);
  float area = 0;
  for (int i = 0; i < kPanelCount; ++i) {
    if (!l.visible[i]) continue;
    const Rect& r = l.rects[i];
    EXPECT_GE(r.x, 0);
    EXPECT_GE(r.y, 0);
    EXPECT_LE(r.x + r.w, 1600.5f);
    EXPECT_LE(r.y + r.h, 900.5f);
    area += r.w * r.h;
    for (int j = i + 1; j < kPanelCount; ++j) {
      if (!l.visible[j]) continue;
      const Rect& q = l.rects[j];
      const bool apart = r.x + r.w <= q.x + 0.01f || q.x + q.w <= r.x + 0.01f ||
                         r.y + r.h <= q.y + 0.01f || q.y + q.h <= r.y + 0.01f;
      EXPECT_TRUE(apart) << i << " overlaps " << j;
    }
  }
  EXPECT_NEAR(area, 1600.0f * 900.0f, 1.0f);
  EXPECT_FALSE(l.is_visible(PanelId::compare));  // shares the centre with the launch grid
}

TEST(Layout, FocusedPanelKeepsItsNaturalPlaceAndSizeAndFollowsResizes) {
  // --panel crops the panel from the normal layout: never stretched over the window.
  const auto l = compute_layout(800, 600, PanelId::broadcast, PanelId::launch_grid);
  const auto normal = compute_layout(800, 600, std::nullopt, PanelId::launch_grid);
  EXPECT_TRUE(l.is_visible(PanelId::broadcast));
  EXPECT_LT(l.rect(PanelId::broadcast).w, 800);
  EXPECT_EQ(l.rect(PanelId::broadcast).w, normal.rect(PanelId::broadcast).w);
  EXPECT_EQ(l.rect(PanelId::broadcast).h, normal.rect(PanelId::broadcast).h);
  // A centre panel takes the centre tab, whatever tab was asked.
  const auto mem = compute_layout(1600, 900, PanelId::memory, PanelId::launch_grid);
  ASSERT_TRUE(mem.is_visible(PanelId::memory));
  EXPECT_EQ(mem.rect(PanelId::memory).w,
            compute_layout(1600, 900, std::nullopt, PanelId::memory).rect(PanelId::memory).w);
  EXPECT_LT(mem.rect(PanelId::memory).h, 900);
  const auto big = compute_layout(3200, 1800, std::nullopt, PanelId::compare, 2.0f);
  EXPECT_TRUE(big.is_visible(PanelId::compare));
  EXPECT_GT(big.rect(PanelId::controls).w,
            compute_layout(1600, 900, std::nullopt, PanelId::compare).rect(PanelId::controls).w);
}

TEST(Options, ParsesTheHeadlessFlags) {
  const auto r = parse_options({"--scenario", "a.json", "--seek", "841", "--panel", "launch-grid",
                                "--size", "1280x720", "--scale", "2", "--screenshot", "o.png"});
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(*r.options.seek, 841);
  EXPECT_EQ(*r.options.panel, PanelId::launch_grid);
  EXPECT_EQ(r.options.width, 1280);
  EXPECT_EQ(r.options.height, 720);
  EXPECT_EQ(r.options.scale, 2.0f);
  EXPECT_EQ(r.options.screenshot->string(), "o.png");
}

TEST(Options, RefusesBadValuesWithTheFlagsName) {
  EXPECT_NE(parse_options({"--size", "10x10"}).error.find("--size"), std::string::npos);
  EXPECT_NE(parse_options({"--panel", "nope"}).error.find("--panel"), std::string::npos);
  EXPECT_NE(parse_options({"--seek"}).error.find("needs a value"), std::string::npos);
  EXPECT_NE(parse_options({"--frobnicate"}).error.find("unknown"), std::string::npos);
}

TEST(Options, EventOrderIsSimsNameAsInTheCliAndTimedByDefault) {
  EXPECT_FALSE(parse_options({}).options.event_order);
  for (const auto& [kind, name] : sim::kEventOrderNames) {
    const auto r = parse_options({"--event-order", std::string(name)});
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.options.event_order, kind);
  }
  const auto bad = parse_options({"--event-order", "rounds"}).error;
  EXPECT_NE(bad.find("--event-order"), std::string::npos) << bad;
  EXPECT_NE(bad.find("timed | lockstep | staggered"), std::string::npos) << bad;
}

TEST(Options, EventIsAZeroBasedIndexAsInLessonsAndSeekAPosition) {
  // --event 29 shows event #29, the state after 30 events: --seek 30.
  EXPECT_TRUE(parse_options({"--frames", "300", "--play"}).options.play);
  EXPECT_NE(parse_options({"--play"}).error.find("--frames"), std::string::npos);
  EXPECT_EQ(parse_options({"--event", "29"}).options.seek, 30);
  EXPECT_EQ(parse_options({"--seek", "30"}).options.seek, 30);
  EXPECT_NE(parse_options({"--seek", "3", "--event", "2"}).error.find("one of"), std::string::npos);
  EXPECT_NE(parse_options({"--event", "-1"}).error.find("0-based"), std::string::npos);
  EXPECT_EQ(parse_options({"--pid", "29"}).options.pid, 29);
  EXPECT_NE(usage().find("--scale 1|2|3"), std::string::npos);
}

TEST(FigureFileName, NamesScenarioStepAndPanelAndSanitises) {
  EXPECT_EQ(figure_file_name("seed004_574_grouped", 841, PanelId::launch_grid),
            "seed004_574_grouped-step000841-launch_grid.png");
  EXPECT_EQ(figure_file_name("a b/c", 0, std::nullopt), "a_b_c-step000000-window.png");
  EXPECT_EQ(figure_file_name("", 3, PanelId::code, 2.0f), "tilesim-step000003-code@2x.png");
}
