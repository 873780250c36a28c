// One dot step, by hand: operand reads beside the math take the slower of the two, before it
// their sum; an instruction stream slower than both sets the pace; spills add their time; the
// time noise is sqrt(D * t) * g where the warps' latency sets the pace, never when issue does.
#include "sim/timing/dot_step.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilesim::sim;

namespace {

// Math 1,000 ps, operand reads 600 (200 without bank conflicts), 50 of loop overhead.
StepCosts costs(bool overlap) {
  StepCosts c;
  c.dot_math_ps = 1000, c.dot_smem_ps = 600, c.dot_smem_free_ps = 200, c.dot_overhead_ps = 50;
  c.operands_overlap_math = overlap;
  return c;
}

std::int64_t busy(const DotTime& d, TimeCause c) {
  return d.busy[static_cast<std::size_t>(c)];
}

}  // namespace

TEST(DotTime, ReadsBesideTheMathHideUnderIt) {
  const DotTime d = dot_time(costs(true), 1, 0, 0);
  EXPECT_EQ(d.ps, 1050);
  EXPECT_EQ(d.cause, TimeCause::math);
  EXPECT_EQ(busy(d, TimeCause::math), 1050);
  EXPECT_EQ(busy(d, TimeCause::smem), 0);
  EXPECT_EQ(busy(d, TimeCause::bank_conflict), 0);
  EXPECT_EQ(d.smem_ps, 600);
}

TEST(DotTime, ReadsBeforeTheMathAddTheirConflictFreeAndConflictedParts) {
  const DotTime d = dot_time(costs(false), 1, 0, 0);
  EXPECT_EQ(d.ps, 1650);
  EXPECT_EQ(busy(d, TimeCause::math), 1050);
  EXPECT_EQ(busy(d, TimeCause::smem), 200);
  EXPECT_EQ(busy(d, TimeCause::bank_conflict), 400);
}

TEST(DotTime, ConflictedReadsSlowerThanTheMathMakeItABankConflictDot) {
  StepCosts c = costs(true);
  c.dot_smem_ps = 1500;
  const DotTime d = dot_time(c, 1, 0, 0);
  EXPECT_EQ(d.ps, 1550);
  EXPECT_EQ(d.cause, TimeCause::bank_conflict);
  EXPECT_EQ(busy(d, TimeCause::math), 1050);
  EXPECT_EQ(busy(d, TimeCause::bank_conflict), 500);  // 1,500 - 1,000 covered; none free
}

TEST(DotTime, AnInstructionStreamSlowerThanThePipesSetsThePaceWithoutNoise) {
  StepCosts c = costs(true);
  c.dot_issue_ps = 2000;
  const DotTime d = dot_time(c, 1, 100, 1.0);
  EXPECT_TRUE(d.issue_bound);
  EXPECT_EQ(d.ps, 2000);
  EXPECT_EQ(d.cause, TimeCause::issue);
  EXPECT_EQ(busy(d, TimeCause::issue), 2000);
  EXPECT_EQ(busy(d, TimeCause::math), 0);
}

TEST(DotTime, FewerResidentsIssueFaster) {
  StepCosts c = costs(true);
  c.dot_issue_ps_by_residents = {500, 2000};
  EXPECT_EQ(dot_time(c, 1, 0, 0).ps, 1050);  // alone: the math sets the pace
  EXPECT_EQ(dot_time(c, 2, 0, 0).ps, 2000);
}

TEST(DotTime, SpilledAccumulatorsAddTheirTimeToTheMathAndTheSharedPipe) {
  StepCosts c = costs(true);
  c.dot_spill_ps = 30;
  const DotTime d = dot_time(c, 1, 0, 0);
  EXPECT_EQ(d.ps, 1080);
  EXPECT_EQ(busy(d, TimeCause::math), 1080);
  EXPECT_EQ(d.smem_ps, 630);
}

TEST(DotTime, NoiseIsTheSquareRootOfDiffusionTimesTime) {
  // D = 100 ps, t = 1,050 ps: sd = sqrt(105,000) = 324.04 ps.
  EXPECT_EQ(dot_time(costs(true), 1, 100, 1.0).ps, 1050 + 324);
  // -648.07 + 0.5, truncated toward zero: -647.
  EXPECT_EQ(dot_time(costs(true), 1, 100, -2.0).ps, 1050 - 647);
  EXPECT_EQ(dot_time(costs(true), 1, 1e9, -3.0).ps, 0);  // never below zero
  // The busy time by cause is the dot's own, before the noise.
  EXPECT_EQ(busy(dot_time(costs(true), 1, 100, 1.0), TimeCause::math), 1050);
}
