// Schedule: the lockstep and staggered slot schedules map events to (pid, step) exactly, and the
// timeline's state at a step does not depend on how it was reached under either.
#include "sim/program/schedule.hpp"

#include <gtest/gtest.h>

#include <set>

#include "sim/replay/timeline.hpp"
#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

namespace {

// 574^2 with 64x64x64 blocks: 9x9 = 81 programs of T = 2 + 3 * 9 = 29 steps; 8 SMs x 2 = 16 slots.
Problem seed004() {
  return Problem(square_matmul(574, 64, LaunchOrder::grouped, 3));
}

}  // namespace

TEST(StaggeredSchedule, SlotsStartSTimesTOverSRoundsLate) {
  const Problem p = seed004();
  Engine e(p, small_machine(), 2, EventOrderKind::staggered);
  // off(s) = floor(29 s / 16): 0 1 3 5 7 9 10 12 14 16 18 19 21 23 25 27 (sum 210).
  EXPECT_EQ(e.schedule().offset(1), 1);
  EXPECT_EQ(e.schedule().offset(15), 27);
  // Round 0 holds slot 0 alone, round 1 slots 0 and 1.
  EXPECT_EQ(e.event_info(0).pid, 0);
  EXPECT_EQ(e.event_info(1).step, 1);
  const auto i = e.event_info(2);
  EXPECT_EQ(i.pid, 1);
  EXPECT_EQ(i.step, 0);
  EXPECT_EQ(i.slot, 1);
  // Wave 1 starts when slot 0 takes pid 16 at round 29, after sum_s (29 - off(s)) =
  // 16 * 29 - 210 = 254 events.
  EXPECT_EQ(e.wave_begin(1), 254);
  EXPECT_EQ(e.event_info(254).pid, 16);
  EXPECT_EQ(e.event_info(254).step, 0);
  EXPECT_EQ(e.event_info(254).wave, 1);
}

TEST(StaggeredSchedule, EveryStepOfEveryProgramRunsOnceInOrder) {
  const Problem p = seed004();
  for (auto kind : {EventOrderKind::lockstep, EventOrderKind::staggered}) {
    Engine e(p, small_machine(), 2, kind);
    ASSERT_EQ(e.schedule().events(), e.total_events());
    std::vector<std::int64_t> next_step(static_cast<std::size_t>(p.programs()), 0);
    std::int64_t last_round = 0;
    for (std::int64_t ev = 0; ev < e.total_events(); ++ev) {
      const auto i = e.event_info(ev);
      ASSERT_EQ(i.step, next_step[static_cast<std::size_t>(i.pid)]) << "event " << ev;
      ASSERT_EQ(i.slot, i.pid % 16);
      ASSERT_GE(i.round, last_round);
      last_round = i.round;
      ++next_step[static_cast<std::size_t>(i.pid)];
    }
    for (auto n : next_step) EXPECT_EQ(n, 29);
  }
}

TEST(StaggeredSchedule, TimelineSeekMatchesSteppingAndAPlainReplay) {
  const Problem p = seed004();
  const Machine m = small_machine();
  TimelineOptions o;
  o.order = EventOrderKind::staggered;
  o.checkpoint_line_ops = 3000;
  Timeline a(p, m, occupancy(p, m, 2), o), b(p, m, occupancy(p, m, 2), o);
  for (std::int64_t target : {std::int64_t{0}, std::int64_t{3}, std::int64_t{254},
                              std::int64_t{1000}, std::int64_t{2000}, a.events()}) {
    b.seek(target);
    const Snapshot want = b.snapshot();
    a.seek(std::min<std::int64_t>(target + 40, a.events()));
    while (a.position() > std::max<std::int64_t>(target - 7, 0)) a.step(Granularity::event, -1);
    while (a.position() < target) a.step(Granularity::event, +1);
    EXPECT_EQ(a.snapshot().counters, want.counters);
    ASSERT_EQ(a.snapshot().residents.size(), want.residents.size());
    Engine e(p, m, 2, EventOrderKind::staggered);
    e.run(target);
    EXPECT_EQ(e.counters(), want.counters);
  }
  // At the start of wave 1 slot 0 holds pid 16 (not started), slot 1 pid 1 before its last step.
  b.seek(254);
  const auto& s = b.snapshot();
  EXPECT_EQ(s.residents[0].pid, 16);
  EXPECT_EQ(s.residents[0].next_step, 0);
  EXPECT_EQ(s.residents[1].pid, 1);
  EXPECT_EQ(s.residents[1].next_step, 28);
  // The first program to end is pid 0: its store is round 28's first event, and round 28
  // begins after sum_s (28 - off(s)) = 16 * 28 - 210 = 238 events.
  b.seek(0);
  EXPECT_EQ(b.step(Granularity::program, +1), 239);
  EXPECT_EQ(b.step(Granularity::wave, +1), 254);
  EXPECT_EQ(b.step(Granularity::wave, -1), 0);
}

namespace {

// Every (programs, slots, steps) up to small bounds, both schedules: partial last waves, more
// slots than programs, one-step programs.
template <class F>
void for_small_schedules(F f) {
  for (auto kind : {EventOrderKind::lockstep, EventOrderKind::staggered})
    for (std::int64_t programs = 1; programs <= 13; ++programs)
      for (std::int64_t slots = 1; slots <= 6; ++slots)
        for (std::int64_t steps = 1; steps <= 5; ++steps)
          f(SlotSchedule(programs, slots, steps, kind), programs, steps);
}

}  // namespace

TEST(SlotSchedule, EventOfInvertsTheEventToPidAndStepMappingOnSmallSchedules) {
  for_small_schedules([](const SlotSchedule& sc, std::int64_t programs, std::int64_t steps) {
    ASSERT_EQ(sc.events(), programs * steps);
    for (std::int64_t e = 0; e < sc.events(); ++e) {
      const std::int64_t r = sc.round_of(e);
      const std::int64_t slot = sc.active(r).at(e - sc.round_begin(r));
      ASSERT_EQ(sc.event_of(sc.pid(slot, r), sc.step(slot, r)), e)
          << to_string(sc.kind()) << " P=" << programs << " T=" << steps << " event " << e;
    }
  });
}

TEST(SlotSchedule, EventOfInvertsEngineEventInfoForEveryEventOfSeed004) {
  const Problem p = seed004();
  for (auto kind : {EventOrderKind::lockstep, EventOrderKind::staggered})
    for (int pps : {1, 2, 3}) {
      Engine e(p, small_machine(), pps, kind);
      for (std::int64_t ev = 0; ev < e.total_events(); ++ev) {
        const EventInfo i = e.event_info(ev);
        ASSERT_EQ(e.schedule().event_of(i.pid, i.step), ev) << to_string(kind) << " " << pps;
      }
    }
}

TEST(SlotSchedule, ProgramsStartedCountsThePidsWhoseFirstStepHasRun) {
  for_small_schedules([](const SlotSchedule& sc, std::int64_t programs, std::int64_t steps) {
    for (std::int64_t pos = 0; pos <= sc.events(); ++pos) {
      std::int64_t started = 0;
      for (std::int64_t pid = 0; pid < programs; ++pid) started += sc.event_of(pid, 0) < pos;
      ASSERT_EQ(sc.programs_started(pos), started)
          << to_string(sc.kind()) << " P=" << programs << " T=" << steps << " position " << pos;
    }
    EXPECT_EQ(sc.programs_started(0), 0);
    EXPECT_EQ(sc.programs_started(sc.events()), programs);
  });
}

TEST(Timeline, OrderIsTheEnginesSoSeekingAPidLandsAfterItsFirstStep) {
  // Seed 004 on 8 SMs x 2, staggered: pid 16 starts wave 1 at event 254 (see above).
  const Problem p = seed004();
  const Machine m = small_machine();
  TimelineOptions o;
  o.order = EventOrderKind::staggered;
  Timeline t(p, m, occupancy(p, m, 2), o);
  EXPECT_FALSE(t.order().timed());
  EXPECT_EQ(t.order().events(), t.events());
  EXPECT_EQ(t.order().event_of(16, 0), 254);
  t.seek(t.order().event_of(16, 0) + 1);
  ASSERT_TRUE(t.snapshot().current);
  EXPECT_EQ(t.snapshot().current->info.pid, 16);
  EXPECT_EQ(t.snapshot().current->info.step, 0);
  EXPECT_EQ(t.order().programs_started(254), 16);
  EXPECT_EQ(t.order().programs_started(255), 17);
}
