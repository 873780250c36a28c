// Timed timeline: a Timeline whose events run in the timed engine's order. Exhaustive over small
// problems: seeking anywhere equals stepping there, event_of inverts event_info, positions have
// non-decreasing simulated times, and the end equals replay_timed's counters.
#include <gtest/gtest.h>

#include <string>

#include "scenario/machine_json.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/timing/timed_engine.hpp"

using namespace tilesim::sim;

namespace {

struct Case {
  Problem p;
  Machine m;
  Occupancy occ;
  std::string name;
};

// Small problems of every kernel, ragged edges, both matmul orders, 1 and 2 programs per SM on a
// 3-SM machine with a small L2 (so hits, misses and evictions all happen).
std::vector<Case> small_cases() {
  const Machine m = tilesim::scenario::parse_machine_json(
      R"({"base": "h100", "sms": 3, "l2_bytes": 65536, "l2_partitions": 1})");
  std::vector<Case> out;
  for (const Kernel kernel : {Kernel::copy, Kernel::transpose, Kernel::matmul})
    for (const LaunchOrder order : {LaunchOrder::row_major, LaunchOrder::grouped})
      for (const int pps : {1, 2}) {
        ProblemSpec s;
        s.kernel = kernel;
        s.m = 100, s.n = 130, s.k = 96;
        s.block_m = s.block_n = s.block_k = 32;
        s.order = order;
        s.group_size_m = 2;
        const Problem p(s);
        out.push_back({p, m, occupancy(p, m, pps),
                       std::string(to_string(kernel)) + " " + std::string(to_string(order)) +
                           " pps " + std::to_string(pps)});
      }
  return out;
}

TimelineOptions timed_options() {
  TimelineOptions o;
  o.order = EventOrderKind::timed;
  o.checkpoint_line_ops = 200;  // checkpoints every few events: seeks cross them often
  return o;
}

}  // namespace

TEST(TimedTimeline, SeekingAnywhereGivesTheStateSteppingThereGives) {
  for (const Case& c : small_cases()) {
    Timeline stepped(c.p, c.m, c.occ, timed_options());
    Timeline sought(c.p, c.m, c.occ, timed_options());
    ASSERT_TRUE(stepped.order().timed()) << c.name;
    for (std::int64_t pos = 0; pos <= stepped.events(); ++pos) {
      stepped.seek(pos);
      // Jump from far away (the end, then the start) so the seek restores a checkpoint.
      sought.seek(pos % 2 ? sought.events() : 0);
      sought.seek(pos);
      const Snapshot& a = stepped.snapshot();
      const Snapshot& b = sought.snapshot();
      ASSERT_EQ(a.counters, b.counters) << c.name << " at " << pos;
      ASSERT_EQ(a.l2_resident_lines, b.l2_resident_lines) << c.name << " at " << pos;
      ASSERT_EQ(a.time_ps, b.time_ps) << c.name << " at " << pos;
      ASSERT_EQ(a.residents.size(), b.residents.size()) << c.name << " at " << pos;
    }
  }
}

TEST(TimedTimeline, EventOfInvertsEventInfoAndProgramsStartInTheRecordedOrder) {
  for (const Case& c : small_cases()) {
    Timeline t(c.p, c.m, c.occ, timed_options());
    const EventOrder& o = t.order();
    std::int64_t started = 0;
    std::vector<bool> seen(static_cast<std::size_t>(c.p.programs()), false);
    for (std::int64_t e = 0; e < t.events(); ++e) {
      ASSERT_EQ(o.programs_started(e), started) << c.name << " event " << e;
      const EventInfo i = o.event_info(e);
      ASSERT_EQ(o.event_of(i.pid, i.step), e) << c.name;
      ASSERT_EQ(i.sm, i.slot % c.m.sms) << c.name;
      if (!seen[static_cast<std::size_t>(i.pid)]) {
        ASSERT_EQ(i.step, 0) << c.name << ": a program starts with its first step";
        seen[static_cast<std::size_t>(i.pid)] = true;
        ++started;
      }
    }
    EXPECT_EQ(o.programs_started(t.events()), c.p.programs()) << c.name;
  }
}

TEST(TimedTimeline, PositionsHaveNonDecreasingTimesEndingAtTheKernelTime) {
  for (const Case& c : small_cases()) {
    Timeline t(c.p, c.m, c.occ, timed_options());
    const EventOrder& o = t.order();
    // (A Triton program's first event comes after its launch overhead; a CUDA rung's at 0.)
    EXPECT_EQ(o.time_ps(0), t.timing().costs.start_ps) << c.name;
    for (std::int64_t pos = 1; pos <= t.events(); ++pos)
      ASSERT_LE(o.time_ps(pos - 1), o.time_ps(pos)) << c.name << " at " << pos;
    EXPECT_EQ(o.kernel_ps(), t.timing().kernel_ps) << c.name;
    EXPECT_GT(t.timing().kernel_ps, 0) << c.name;
  }
}

TEST(TimedTimeline, FinalCountersAndTimeEqualReplayTimed) {
  for (const Case& c : small_cases()) {
    Timeline t(c.p, c.m, c.occ, timed_options());
    const ReplayResult r = replay_timed(c.p, c.m, c.occ);
    EXPECT_EQ(t.final_counters(), r.counters) << c.name;
    EXPECT_EQ(t.timing().kernel_ps, r.timing.kernel_ps) << c.name;
    t.seek(t.events());
    EXPECT_EQ(t.snapshot().counters, r.counters) << c.name;
  }
}

TEST(TimedTimeline, ResidentsAreTheProgramsStartedAndNotFinished) {
  for (const Case& c : small_cases()) {
    Timeline t(c.p, c.m, c.occ, timed_options());
    const EventOrder& o = t.order();
    const std::int64_t T = o.steps_per_program();
    for (std::int64_t pos = 0; pos < t.events(); ++pos) {
      t.seek(pos);
      const auto& res = t.snapshot().residents;
      ASSERT_LE(static_cast<std::int64_t>(res.size()), t.slots()) << c.name;
      for (const ResidentProgram& r : res) {
        ASSERT_GT(r.next_step, 0) << c.name;
        ASSERT_LT(r.next_step, T) << c.name;
        ASSERT_LT(o.event_of(r.pid, r.next_step - 1), pos) << c.name;
        ASSERT_GE(o.event_of(r.pid, r.next_step), pos) << c.name;
      }
    }
  }
}

TEST(TimedTimeline, GranularitiesMoveMonotonicallyAndStopAtProgramEnds) {
  for (const Case& c : small_cases()) {
    Timeline t(c.p, c.m, c.occ, timed_options());
    for (const Granularity g :
         {Granularity::event, Granularity::k_iteration, Granularity::program, Granularity::wave}) {
      t.seek(0);
      std::int64_t steps = 0;
      while (t.position() < t.events()) {
        const std::int64_t before = t.position();
        t.step(g, +1);
        ASSERT_GT(t.position(), before) << c.name << " " << to_string(g);
        if (g == Granularity::program && t.position() < t.events()) {
          ASSERT_EQ(t.event_info(t.position() - 1).step, t.order().steps_per_program() - 1);
        }
        ++steps;
      }
      while (t.position() > 0) {
        const std::int64_t before = t.position();
        t.step(g, -1);
        ASSERT_LT(t.position(), before) << c.name << " " << to_string(g);
        --steps;
      }
      if (g != Granularity::k_iteration) {
        EXPECT_EQ(steps, 0) << c.name << " " << to_string(g);
      }
    }
  }
}
