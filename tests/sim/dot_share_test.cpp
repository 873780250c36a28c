// The dot pipe shared by age (sim/timing/dot_share.hpp), pick by pick: with every program always
// ready, the counts of dots each gets over many picks are the weights' ratios, counted by hand.
#include "sim/timing/dot_share.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using tilesim::sim::DotShare;

namespace {

struct Ready {
  int slot;
  std::int64_t pid;
};

// `picks` picks on SM 0 with every listed program ready each time: the dots each slot got.
std::vector<int> dots_over(DotShare& share, const std::vector<Ready>& ready, int picks, int slots) {
  std::vector<int> got(static_cast<std::size_t>(slots), 0);
  for (int i = 0; i < picks; ++i)
    ++got[static_cast<std::size_t>(share.pick(ready.begin(), ready.end())->slot)];
  return got;
}

}  // namespace

// Two programs: the older (slot 0, joined first) gets 0.6 of the dots, 600 of 1,000.
TEST(DotShare, TwoAlwaysReadyProgramsSplitTheDotsSixtyForty) {
  DotShare share(0.6, 2, 1, 2);
  share.join(0);
  share.join(1);
  const auto got = dots_over(share, {{0, 0}, {1, 1}}, 1000, 2);
  EXPECT_NEAR(got[0], 600, 1);
  EXPECT_NEAR(got[1], 400, 1);
}

// Three: weights 1 : 2/3 : 4/9, so 9/19, 6/19 and 4/19 of 1,900 dots: 900, 600, 400.
TEST(DotShare, ThreeProgramsShareInTheWeightsRatios) {
  DotShare share(0.6, 3, 1, 3);
  for (int s = 0; s < 3; ++s) share.join(s);
  const auto got = dots_over(share, {{0, 0}, {1, 1}, {2, 2}}, 1900, 3);
  EXPECT_NEAR(got[0], 900, 1);
  EXPECT_NEAR(got[1], 600, 1);
  EXPECT_NEAR(got[2], 400, 1);
}

// A share of 1: the older always goes first; 0.5: the two alternate.
TEST(DotShare, AShareOfOneIsOldestFirstAndOneHalfAlternates) {
  DotShare strict(1.0, 2, 1, 2);
  strict.join(0);
  strict.join(1);
  EXPECT_EQ(dots_over(strict, {{0, 0}, {1, 1}}, 100, 2)[0], 100);
  DotShare even(0.5, 2, 1, 2);
  even.join(0);
  even.join(1);
  EXPECT_EQ(dots_over(even, {{0, 0}, {1, 1}}, 100, 2)[0], 50);
}

// A newcomer starts level with the least-served resident: after 100 dots of a program alone, a
// new one does not take the next 100 to catch up; the pair splits the next 100 by 60 : 40. When
// the older leaves, the younger becomes the oldest (rank 0) of the SM.
TEST(DotShare, ANewcomerStartsLevelAndTheYoungerMovesUpWhenTheOlderLeaves) {
  DotShare share(0.6, 2, 1, 2);
  share.join(0);
  EXPECT_EQ(dots_over(share, {{0, 0}}, 100, 2)[0], 100);
  share.join(1);
  EXPECT_DOUBLE_EQ(share.cost(1), 1.5);  // rank 1: 1 / q, q = 0.4 / 0.6
  const auto got = dots_over(share, {{0, 0}, {1, 1}}, 100, 2);
  EXPECT_NEAR(got[0], 60, 1);
  share.leave(0);
  EXPECT_EQ(share.cost(1), 1.0);
}

// 64 programs at a share of 1 (q = 1e-9): uncapped, rank 35's cost 1e9^35 would overflow. Capped
// at 1e12, every cost is finite and the oldest takes every dot while it is ready.
TEST(DotShare, SixtyFourProgramsAtAShareOfOneStayFiniteAndOldestFirst) {
  DotShare share(1.0, 64, 1, 64);
  std::vector<Ready> ready;
  for (int s = 0; s < 64; ++s) {
    share.join(s);
    ready.push_back({s, s});
  }
  EXPECT_EQ(share.cost(63), 1e12);
  EXPECT_DOUBLE_EQ(share.cost(1), 1e9);
  EXPECT_EQ(dots_over(share, ready, 1000, 64)[0], 1000);
}

// When the middle program of three leaves, the youngest moves up a rank: its cost drops from
// 1 / q^2 to 1 / q (q = 2/3 at a share of 0.6).
TEST(DotShare, WhenTheMiddleProgramLeavesTheYoungestMovesUpOneRank) {
  DotShare share(0.6, 3, 1, 3);
  for (int s = 0; s < 3; ++s) share.join(s);
  EXPECT_DOUBLE_EQ(share.cost(2), 2.25);
  share.leave(1);
  EXPECT_DOUBLE_EQ(share.cost(2), 1.5);
  EXPECT_DOUBLE_EQ(share.cost(0), 1.0);
}
