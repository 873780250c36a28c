// Jobs on worker threads: an AsyncJob owns and joins its threads; the model's jobs start through
// commands; quitting with a sweep, a timeline build and a GPU run in flight stops them all in
// under a second. Also the soak test's random walk, which must replay the same for a seed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "app/core/async_job.hpp"
#include "app/core/commands.hpp"
#include "app/core/soak_plan.hpp"

using namespace tilesim;
using namespace tilesim::app;
using namespace std::chrono_literals;

namespace {

// Work that runs until asked to stop, counting the runs that returned.
AsyncJob<int>::Work until_stopped(std::atomic<int>& returned) {
  return [&returned](std::stop_token st, std::atomic<double>&) {
    while (!st.stop_requested()) std::this_thread::sleep_for(1ms);
    ++returned;
    return 1;
  };
}

// The app quits within a second with jobs in flight; under ThreadSanitizer every memory access
// is instrumented (5-15x slower) and scripts/tsan runs this beside the 70 s soak test on CI's two
// cores, where the same quit took 1.03 and 2.4 s (2026-11-25) against 0.25 s under ASan: the
// bound there is 3 s, the requirement stays the release build's.
#if defined(__SANITIZE_THREAD__)
constexpr double kQuitSeconds = 3.0;
#else
constexpr double kQuitSeconds = 1.0;
#endif

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
  while (!job.result()) std::this_thread::sleep_for(1ms);
  while (job.pending()) std::this_thread::sleep_for(1ms);  // a has returned
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

TEST(Jobs, SweepStartsThroughACommandAndItsResultLandsInTheModel) {
  AppModel m = make_model(default_scenario());  // seed 004: 8 cheap replays
  apply_command(m, RequestSweep{SweepAxis::group_size_m});
  const auto t0 = std::chrono::steady_clock::now();
  while (!m.jobs->sweep.current() && seconds_since(t0) < 60) std::this_thread::sleep_for(5ms);
  ASSERT_TRUE(m.jobs->sweep.current());
  EXPECT_GE(m.jobs->sweep.result()->size(), 2u);
}

TEST(Jobs, QuittingWithASweepATimelineBuildAndAGpuRunInFlightTakesUnderASecond) {
  AppModel m = make_model(default_scenario());
  sim::ProblemSpec big;
  big.m = big.n = big.k = 4096;  // a timeline build and sweep replays of seconds each
  apply_command(m, SetSpec{big, "m"});
  apply_command(m, RequestSweep{SweepAxis::block_size});
  apply_command(m, RunOnGpu{"matmul_simt"});  // without a device it fails at once
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(m.jobs->sweep.pending());
  ASSERT_EQ(m.engine->phase(), EnginePhase::building);
  const auto t0 = std::chrono::steady_clock::now();
  shut_down(m);
  EXPECT_LT(seconds_since(t0), kQuitSeconds);
  EXPECT_EQ(m.jobs->sweep.threads(), 0u);
  EXPECT_FALSE(m.engine);
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
