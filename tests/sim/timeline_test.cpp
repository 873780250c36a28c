// Timeline: the state at a step is the same however it was reached.
#include "sim/replay/timeline.hpp"

#include <gtest/gtest.h>

#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

namespace {

struct Fixture {
  Problem p;
  Machine m;
  Occupancy occ;
};

Fixture small() {
  const Problem p(square_matmul(512, 64, LaunchOrder::grouped, 4));
  const Machine m = small_machine();
  return {p, m, occupancy(p, m, 1)};
}

// Positions below count events of the lockstep round order.
TimelineOptions lockstep() {
  TimelineOptions o;
  o.order = EventOrderKind::lockstep;
  return o;
}

TimelineOptions many_checkpoints() {
  TimelineOptions o = lockstep();
  o.checkpoint_line_ops = 3000;  // ~ every 4 rounds: the test crosses checkpoints often
  return o;
}

void expect_same(const Snapshot& a, const Snapshot& b) {
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.counters, b.counters);
  EXPECT_EQ(a.l2_resident_lines, b.l2_resident_lines);
  ASSERT_EQ(a.residents.size(), b.residents.size());
  for (std::size_t i = 0; i < a.residents.size(); ++i) {
    EXPECT_EQ(a.residents[i].pid, b.residents[i].pid);
    EXPECT_EQ(a.residents[i].next_step, b.residents[i].next_step);
  }
  ASSERT_EQ(a.a_tiles.size(), b.a_tiles.size());
  for (std::size_t i = 0; i < a.a_tiles.size(); ++i) {
    EXPECT_EQ(a.a_tiles[i].resident_fraction, b.a_tiles[i].resident_fraction);
    EXPECT_EQ(a.a_tiles[i].reuse, b.a_tiles[i].reuse);
  }
  for (std::size_t i = 0; i < a.b_tiles.size(); ++i)
    EXPECT_EQ(a.b_tiles[i].resident_fraction, b.b_tiles[i].resident_fraction);
}

}  // namespace

TEST(Timeline, SteppingBackThenForwardGivesTheStateSeekGives) {
  const auto f = small();
  Timeline a(f.p, f.m, f.occ, many_checkpoints());
  Timeline b(f.p, f.m, f.occ, many_checkpoints());
  ASSERT_EQ(a.events(), 64 * 26);
  for (std::int64_t target : {0, 1, 7, 100, 333, 800, 1200, 1663, 1664}) {
    b.seek(target);
    const Snapshot want = b.snapshot();
    a.seek(std::min<std::int64_t>(target + 37, a.events()));
    while (a.position() > std::max<std::int64_t>(target - 11, 0)) a.step(Granularity::event, -1);
    while (a.position() < target) a.step(Granularity::event, +1);
    expect_same(a.snapshot(), want);
  }
}

TEST(Timeline, SeekMatchesAPlainReplayToTheSameEvent) {
  const auto f = small();
  Timeline t(f.p, f.m, f.occ, many_checkpoints());
  for (std::int64_t target : {5, 640, 1500}) {
    t.seek(target);
    Engine e(f.p, f.m, 1);
    e.run(target);
    EXPECT_EQ(t.snapshot().counters, e.counters());
  }
  t.seek(t.events());
  EXPECT_EQ(t.snapshot().counters, t.final_counters());
  EXPECT_TRUE(t.snapshot().residents.empty());
}

TEST(Timeline, CountersBeforeAreTheCountersOfTheEventBefore) {
  // The app shows them while the event's tile travels (issue 24), so they must be exactly the
  // previous position's, wherever the seek comes from (checkpoints at 0, 64, 128, ...).
  const auto f = small();
  Timeline t(f.p, f.m, f.occ, many_checkpoints());
  Timeline ref(f.p, f.m, f.occ, many_checkpoints());
  EXPECT_EQ(t.snapshot().counters_before, t.snapshot().counters);  // position 0
  for (const std::int64_t target :
       std::initializer_list<std::int64_t>{1, 64, 65, 640, 639, 1500, t.events()}) {
    t.seek(target);
    ref.seek(target - 1);
    EXPECT_EQ(t.snapshot().counters_before, ref.snapshot().counters) << "position " << target;
  }
}

TEST(Timeline, GranularitiesStopAtRoundsProgramEndsAndWaves) {
  const auto f = small();
  Timeline t(f.p, f.m, f.occ, lockstep());
  // Waves of 8 programs x 26 steps = 208 events.
  EXPECT_EQ(t.step(Granularity::wave, +1), 208);
  EXPECT_EQ(t.step(Granularity::wave, -1), 0);
  // K-iterations: after the map round (8 events), then every 3 rounds (24 events).
  EXPECT_EQ(t.step(Granularity::k_iteration, +1), 8);
  EXPECT_EQ(t.step(Granularity::k_iteration, +1), 32);
  // Programs finish in the last round of the wave: events 200..207 end pids 0..7.
  EXPECT_EQ(t.step(Granularity::program, +1), 201);
  EXPECT_EQ(t.step(Granularity::program, +1), 202);
  const auto& s = t.snapshot();
  ASSERT_TRUE(s.current);
  EXPECT_EQ(s.current->info.pid, 1);
  EXPECT_EQ(s.current->info.op, StepOp::store);
  // pids 0 and 1 are done: their slots already hold pids 8 and 9, not started.
  EXPECT_EQ(s.residents[0].pid, 8);
  EXPECT_EQ(s.residents[0].next_step, 0);
  EXPECT_EQ(s.residents[2].pid, 2);
  EXPECT_EQ(s.residents[2].next_step, 25);
}

TEST(Timeline, RefusesAProblemOverTheMemoryBudgetWithTheFigures) {
  const auto f = small();
  TimelineOptions o;
  o.memory_budget_bytes = 1000;
  try {
    Timeline t(f.p, f.m, f.occ, o);
    FAIL() << "expected TimelineTooLarge";
  } catch (const TimelineTooLarge& e) {
    EXPECT_NE(std::string(e.what()).find("1664 events"), std::string::npos) << e.what();
  }
}

TEST(Timeline, TileViewsShowResidencyAndReuse) {
  const auto f = small();
  Timeline t(f.p, f.m, f.occ, lockstep());
  t.seek(8 + 8);  // map round, then 8 load_a of K-iteration 0 (wave 0: rows 0-3, cols 0-1)
  const auto& s = t.snapshot();
  ASSERT_EQ(s.a_rows, 8);
  ASSERT_EQ(s.a_cols, 8);
  for (int row = 0; row < 4; ++row) {
    EXPECT_EQ(s.a_tiles[row * 8 + 0].resident_fraction, 1.0f);
    EXPECT_EQ(s.a_tiles[row * 8 + 0].reuse.loads, 2);  // two columns of C per row
    EXPECT_EQ(s.a_tiles[row * 8 + 0].reuse.dram_sectors, 64 * 4);
  }
  EXPECT_EQ(s.a_tiles[4 * 8].resident_fraction, 0.0f);
  EXPECT_EQ(s.b_tiles[0].resident_fraction, 0.0f);
}

TEST(Timeline, EndOfRunSnapshotOfAReplayIsTheTimelinesLastOneWithoutL2State) {
  for (const auto kernel : {Kernel::copy, Kernel::matmul}) {
    auto f = small();
    ProblemSpec s = f.p.spec();
    s.kernel = kernel;
    const Problem p(s);
    Timeline t(p, f.m, f.occ, lockstep());
    t.seek(t.events());
    const Snapshot& want = t.snapshot();
    const Snapshot got = end_of_run_snapshot(p, replay_rounds(p, f.m, f.occ));
    EXPECT_EQ(got.position, want.position);
    EXPECT_EQ(got.events, want.events);
    EXPECT_EQ(got.wave, want.wave);
    EXPECT_EQ(got.counters, want.counters);
    EXPECT_TRUE(got.residents.empty());
    EXPECT_FALSE(got.current);
    EXPECT_EQ(got.a_rows, want.a_rows);
    EXPECT_EQ(got.a_cols, want.a_cols);
    EXPECT_EQ(got.b_rows, want.b_rows);
    EXPECT_EQ(got.b_cols, want.b_cols);
    ASSERT_EQ(got.a_tiles.size(), want.a_tiles.size());
    ASSERT_EQ(got.b_tiles.size(), want.b_tiles.size());
    for (std::size_t i = 0; i < got.a_tiles.size(); ++i) {
      EXPECT_EQ(got.a_tiles[i].reuse, want.a_tiles[i].reuse) << "A tile " << i;
      EXPECT_EQ(got.a_tiles[i].resident_fraction, 0.f);
    }
    for (std::size_t i = 0; i < got.b_tiles.size(); ++i)
      EXPECT_EQ(got.b_tiles[i].reuse, want.b_tiles[i].reuse) << "B tile " << i;
  }
}
