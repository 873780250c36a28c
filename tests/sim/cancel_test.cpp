// Cancelling a replay, counted in events rather than timed: the timed engine looks at its cancel
// flag at least every 4,096 events (what keeps the app's quit and a superseded sweep prompt under
// any load), and a sweep starts no replay once the flag is set. The flag is set from inside the
// run, at a known event, so the counts are the same on every machine.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "sim/machine/machine.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/program/program_trace.hpp"
#include "sim/replay/engine.hpp"
#include "sim/replay/sweep.hpp"
#include "sim/timing/timed_engine.hpp"

using namespace tilesim::sim;

namespace {

constexpr std::int64_t kCheckEvents = 4096;  // the timed engine's promise (timed_engine.cpp)

ProblemSpec spec_2048() {
  ProblemSpec s;
  s.m = s.n = s.k = 2048;  // 1,024 programs of ~70 events: far more than one check interval
  return s;
}

}  // namespace

TEST(Cancel, TheTimedEngineSeesASetFlagWithin4096Events) {
  const Problem p(spec_2048());
  const Machine m = *find_machine("h100");
  std::atomic<bool> cancel{false};
  std::int64_t events = 0, after_cancel = 0;
  TimedOptions opt;
  opt.cancel = &cancel;
  opt.after_event = [&](const Engine&) {
    ++events;
    if (cancel) ++after_cancel;
    if (events == 1000) cancel = true;
  };
  try {
    run_timed(p, m, occupancy(p, m, std::nullopt), opt);
    ADD_FAILURE() << "a cancelled replay returned";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cancelled");
  }
  EXPECT_LE(after_cancel, kCheckEvents);
  EXPECT_LT(events, p.programs() * steps_per_program(p));  // stopped, not finished
}

TEST(Cancel, AFlagSetAtAProgressReportStopsTheReplayBeforeTheNextReport) {
  const Problem p(spec_2048());
  const Machine m = *find_machine("h100");
  std::atomic<bool> cancel{false};
  int reports = 0;
  EXPECT_THROW(replay_timed(
                   p, m, occupancy(p, m, std::nullopt), {},
                   [&](double) {
                     ++reports;
                     cancel = true;
                   },
                   &cancel),
               std::runtime_error);
  EXPECT_EQ(reports, 1);
}

// Two workers: the one that sees the flag set starts nothing more; the other finishes (or
// cancels) the replay it is in, so at most one more row reports after the flag.
TEST(Cancel, ASweepOnTwoThreadsReportsAtMostTheOtherWorkersRowAfterTheFlag) {
  SweepAxes axes;
  axes.group_size_m = {1, 2, 4, 8, 16, 32};
  const auto specs = sweep_specs(spec_2048(), axes);
  std::atomic<bool> cancel{false};
  int reports = 0;
  EXPECT_THROW(run_sweep(
                   specs, *find_machine("h100"), std::nullopt, 2,
                   [&](int, int) {
                     ++reports;
                     cancel = true;
                   },
                   &cancel),
               std::runtime_error);
  EXPECT_GE(reports, 1);
  EXPECT_LE(reports, 2);
}
