// Jobs on worker threads: an AsyncJob owns and joins its threads; the model's jobs start through
// commands; quitting with a sweep, a timeline build and a GPU run in flight stops and joins them
// all. Also the soak test's random walk, which must replay the same for a seed. No test here times
// the clock: how soon a stop is seen is counted in events (tests/sim/cancel_test.cpp); the clock
// only guards against a hang.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <set>
#include <stop_token>
#include <thread>

#include "app/core/async_job.hpp"
#include "app/core/commands.hpp"
#include "app/core/soak_plan.hpp"
#include "app/core/sweep.hpp"
#include "scenario/lesson.hpp"

using namespace tilesim;
using namespace tilesim::app;
using namespace std::chrono_literals;

namespace {

// Past this a wait has found a hang, not a slow machine (sanitizers run 5-15x slower, and CI's
// two cores are shared): minutes, never a figure the test checks.
constexpr auto kHangGuard = 5min;

// Work that runs until asked to stop, counting the runs that returned.
AsyncJob<int>::Work until_stopped(std::atomic<int>& returned) {
  return [&returned](std::stop_token st, std::atomic<double>&) {
    while (!st.stop_requested()) std::this_thread::sleep_for(1ms);
    ++returned;
    return 1;
  };
}

// Polls `done` until it holds; false once the hang guard has passed.
template <class F>
bool eventually(F done) {
  const auto end = std::chrono::steady_clock::now() + kHangGuard;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// Runs `f` on a thread of its own and waits for it; one that has not returned by the hang guard
// aborts the run (its threads could never be joined), naming what hung.
template <class F>
void returns_or_abort(const char* what, F f) {
  auto done = std::async(std::launch::async, f);
  if (done.wait_for(kHangGuard) == std::future_status::timeout) {
    std::fprintf(stderr, "%s has not returned after %lld minutes: a hang\n", what,
                 static_cast<long long>(
                     std::chrono::duration_cast<std::chrono::minutes>(kHangGuard).count()));
    std::abort();
  }
  done.get();
}

}  // namespace

TEST(AsyncJob, DestroyingItStopsAndJoinsEveryRun) {
  std::atomic<int> returned{0};
  {
    AsyncJob<int> job;
    job.request("a", until_stopped(returned));
    job.request("b", until_stopped(returned));  // supersedes a, which winds down
    EXPECT_TRUE(job.pending());
  }
  EXPECT_EQ(returned, 2);  // both threads returned before the job was gone
}

TEST(AsyncJob, FinishedRunsAreJoinedAtTheNextRequest) {
  std::atomic<int> returned{0};
  AsyncJob<int> job;
  job.request("a", [](std::stop_token, std::atomic<double>&) { return 7; });
  ASSERT_TRUE(eventually([&] { return job.result() && !job.pending(); }));  // a has returned
  job.request("b", until_stopped(returned));
  EXPECT_EQ(job.threads(), 1u);  // a joined, b running
  EXPECT_EQ(*job.result(), 7);   // the latest finished result until b has one
}

TEST(AsyncJob, ACancelledKeyIsNotRestartedByAskingAgain) {
  std::atomic<int> returned{0};
  AsyncJob<int> job;
  job.request("a", until_stopped(returned));
  job.cancel();
  EXPECT_FALSE(job.pending());
  job.request("a", until_stopped(returned));
  EXPECT_FALSE(job.pending());
}

// A result the frame loop applies (an opened kernel file) is handed over once; asking for the
// key already running starts nothing, and says so.
TEST(AsyncJob, TakeHandsTheResultOverOnceAndARepeatedKeyStartsNothing) {
  AsyncJob<int> job;
  EXPECT_TRUE(job.request("a", [](std::stop_token, std::atomic<double>&) { return 7; }));
  EXPECT_FALSE(job.request("a", [](std::stop_token, std::atomic<double>&) { return 8; }));
  ASSERT_TRUE(eventually([&] { return !job.pending(); }));
  EXPECT_EQ(job.take(), 7);
  EXPECT_FALSE(job.take());
  EXPECT_FALSE(job.result());
}

TEST(Jobs, SweepStartsThroughACommandAndItsResultLandsInTheModel) {
  AppModel m = make_model(default_scenario());  // seed 004: 8 cheap replays
  apply_command(m, RequestSweep{SweepAxis::group_size_m});
  ASSERT_TRUE(eventually([&] { return m.jobs->sweep.current(); }));
  EXPECT_GE(m.jobs->sweep.result()->size(), 2u);
}

// The stop request reaches the sweep's replays: with the stop already asked, not one replay
// finishes (its progress stays 0), where an unwired stop would run all of them.
TEST(Jobs, ASweepAskedToStopBeforeItStartsReplaysNothing) {
  sim::ProblemSpec big;
  big.m = big.n = big.k = 4096;
  std::stop_source stop;
  stop.request_stop();
  std::atomic<double> progress{0};
  const auto bars = sweep_bars(big, SweepAxis::block_size, *sim::find_machine("h100"), std::nullopt,
                               stop.get_token(), progress);
  EXPECT_TRUE(bars.empty());
  EXPECT_EQ(progress.load(), 0.0);
}

// Quitting asks every job to stop and joins every thread: the sweep's, the timeline build's (the
// engine session's worker, mid-build) and the GPU run's. How soon each sees the stop is a count of
// events (cancel_test.cpp), so nothing here reads the clock but the hang guard.
TEST(Jobs, QuittingWithASweepATimelineBuildAndAGpuRunInFlightJoinsEveryThread) {
  AppModel m = make_model(default_scenario());
  sim::ProblemSpec big;
  big.m = big.n = big.k = 4096;  // a timeline build and sweep replays of seconds each
  apply_command(m, SetSpec{big, "m"});
  apply_command(m, RequestSweep{SweepAxis::block_size});
  apply_command(m, RunOnGpu{"matmul_simt"});  // without a device it fails at once
  ASSERT_TRUE(m.jobs->sweep.pending());
  // The build under way (its first 1/256 done), so the stop lands mid-build.
  ASSERT_TRUE(eventually([&] { return m.engine->progress() > 0; }));
  ASSERT_EQ(m.engine->phase(), EnginePhase::building);
  returns_or_abort("shut_down with jobs in flight", [&] { shut_down(m); });
  EXPECT_EQ(m.jobs->sweep.threads(), 0u);
  EXPECT_EQ(m.jobs->gpu.threads(), 0u);
  EXPECT_EQ(m.jobs->rungs.threads(), 0u);
  EXPECT_EQ(m.jobs->device.threads(), 0u);
  EXPECT_FALSE(m.jobs->sweep.current());  // a stopped sweep leaves no result behind
  EXPECT_FALSE(m.engine);                 // the session, its worker joined, is gone
}

TEST(Jobs, OpeningAnotherScenarioKeepsTheJobs) {
  AppModel m = make_model(default_scenario());
  apply_command(m, QueryDevice{});
  const Jobs* jobs = m.jobs.get();
  apply_command(m, LoadScenario{std::filesystem::path(TILESIM_ASSETS_DIR) / "scenarios" /
                                "triton_9x9_grouped.json"});
  ASSERT_FALSE(m.status_is_error) << m.status;
  EXPECT_EQ(m.jobs.get(), jobs);
}

TEST(Commands, AnUnknownMachineKeepsTheOpenOneAndSaysWhy) {
  AppModel m = make_model(default_scenario());
  const std::string before = m.machine.key;
  apply_command(m, SetMachine{"no_such_gpu"});
  EXPECT_EQ(m.machine.key, before);
  EXPECT_TRUE(m.status_is_error);
}

TEST(SoakPlan, ASeedReplaysTheSameActions) {
  SoakPlan a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 200; ++i) {
    const auto x = a.next(), y = b.next(), z = c.next();
    EXPECT_EQ(describe(x), describe(y));
    differs |= describe(x) != describe(z);
  }
  EXPECT_TRUE(differs);
}

TEST(SoakPlan, TwoThousandActionsVisitEveryKindAndEveryField) {
  SoakPlan p(1);
  std::set<int> kinds;
  std::set<std::string> fields;
  for (int i = 0; i < 2000; ++i) {
    const auto a = p.next();
    kinds.insert(int(a.kind));
    if (a.kind == SoakKind::edit_field) fields.insert(a.field);
  }
  EXPECT_EQ(kinds.size(), std::size_t(SoakKind::count));
  EXPECT_EQ(fields.size(), soak_fields().size());
}

// The sanitizer builds run seed 1 for 250 actions (tests/app/CMakeLists.txt): still every kind of
// action, and enough file opens to reach each bundled scenario and lesson in turn.
TEST(SoakPlan, Seed1In250ActionsVisitsEveryKindAndOpensEveryBundledFile) {
  const std::filesystem::path assets(TILESIM_ASSETS_DIR);
  int bundled_scenarios = 0;
  for (const auto& e : std::filesystem::directory_iterator(assets / "scenarios"))
    bundled_scenarios += e.path().extension() == ".json";
  const auto bundled_lessons = scenario::list_lessons(assets / "lessons").size();
  SoakPlan p(1);
  std::set<int> kinds;
  int scenarios = 0, lessons = 0;
  for (int i = 0; i < 250; ++i) {
    const auto a = p.next();
    kinds.insert(int(a.kind));
    scenarios += a.kind == SoakKind::open_scenario;
    lessons += a.kind == SoakKind::open_lesson;
  }
  EXPECT_EQ(kinds.size(), std::size_t(SoakKind::count));
  EXPECT_GE(scenarios, bundled_scenarios);
  EXPECT_GE(lessons, int(bundled_lessons));
}

TEST(SoakPlan, OutOfRangeEditsAreRefusedByTheProblemNotByACrash) {
  AppModel m = make_model(default_scenario());
  int refused = 0;
  for (const auto& f : soak_fields())
    for (std::int64_t v : {std::int64_t(-64), std::int64_t(0), std::int64_t(1) << 40}) {
      apply_command(m, SetSpec{with_field(m.problem.spec(), f, v), f});
      refused += m.field_error.has_value();
      shut_down(m);  // no builds piling up (the next edit opens a new session)
    }
  EXPECT_GE(refused, 8);  // sizes, blocks, stages, warps at -64 and 0 at least
  EXPECT_NO_THROW(sim::Problem{m.problem.spec()});
}
