// The one event order and the one replay entry point: the order's names come from one table
// read both ways; every order's counters come with the timed engine's time; a round timeline
// carries that same time.
#include "sim/replay/replay.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sim/base/limits.hpp"
#include "sim/replay/timeline.hpp"
#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

TEST(EventOrderNames, EveryOrderPrintsAndParsesBackToItself) {
  for (const auto& [kind, name] : kEventOrderNames) {
    EXPECT_EQ(to_string(kind), name);
    EXPECT_EQ(parse_event_order(name), kind);
  }
  EXPECT_EQ(kDefaultEventOrder, EventOrderKind::timed);
}

TEST(EventOrderNames, AnUnknownNameIsRefusedWithTheFieldAndTheAllowedNames) {
  try {
    parse_event_order("rounds");
    FAIL() << "rounds was accepted";
  } catch (const InvalidField& e) {
    EXPECT_EQ(e.field(), "event_order");
    const std::string msg = e.what();
    EXPECT_NE(msg.find("timed | lockstep | staggered"), std::string::npos) << msg;
  }
}

TEST(Replay, EveryOrderSaysWhichItRanAndTakesTheTimedEnginesTime) {
  const Problem p(square_matmul(256, 64, LaunchOrder::grouped, 2));
  const Machine m = small_machine();
  const Occupancy occ = occupancy(p, m, 1);
  const ReplayResult timed = replay(p, m, occ);
  EXPECT_EQ(timed.order, EventOrderKind::timed);
  EXPECT_GT(timed.timing.kernel_ps, 0);
  EXPECT_EQ(timed.counters, replay_timed(p, m, occ).counters);
  for (const auto kind : {EventOrderKind::lockstep, EventOrderKind::staggered}) {
    ReplayOptions o;
    o.order = kind;
    const ReplayResult r = replay(p, m, occ, o);
    EXPECT_EQ(r.order, kind);
    EXPECT_EQ(r.counters, replay_rounds(p, m, occ, kind).counters) << to_string(kind);
    EXPECT_EQ(r.timing.kernel_ps, timed.timing.kernel_ps) << to_string(kind);
  }
}

TEST(Replay, ARoundTimelineCarriesTheTimedEnginesTime) {
  const Problem p(square_matmul(256, 64, LaunchOrder::grouped, 2));
  const Machine m = small_machine();
  const Occupancy occ = occupancy(p, m, 1);
  TimelineOptions o;
  o.order = EventOrderKind::lockstep;
  const Timeline t(p, m, occ, o);
  EXPECT_FALSE(t.order().timed());
  EXPECT_EQ(t.timing().kernel_ps, predicted_timing(p, m, occ).kernel_ps);
  EXPECT_GT(t.timing().kernel_ps, 0);
}

TEST(Replay, TheTimedOrderHasNoRounds) {
  EXPECT_THROW(SlotSchedule(4, 2, 3, EventOrderKind::timed), std::invalid_argument);
}
