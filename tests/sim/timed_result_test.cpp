// The timed engine's result assembly, by hand: an SM's kernel time is its dot pipe's busy time,
// the rest shared among its programs' waits in proportion, and its idle end as the tail; the
// causes of every SM average to the kernel time.
#include "sim/timing/timed_result.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace tilesim::sim;

namespace {

double seconds(const TimingSummary& s, TimeCause c) {
  return s.breakdown[c] * 1e12;  // ps
}

}  // namespace

TEST(SummarizeSms, SharesTheTimeLeftAfterTheBusyPipeByWaitsAndEndsWithTheTail) {
  // Kernel 1,000 ps; the SM's last program retires at 800 (tail 200); its dot pipe ran math
  // for 400; the other 400 go 3 : 1 to DRAM and latency, as its programs waited.
  SmTotals sm;
  sm.last_retire = 800;
  sm.dot_ps = 400, sm.fill_ps = 250;
  add_time(&sm.busy, TimeCause::math, 400);
  add_time(&sm.wait, TimeCause::dram, 300);
  add_time(&sm.wait, TimeCause::latency, 100);
  TimingSummary out;
  out.kernel_ps = 1000;
  const std::vector<SmTotals> sms{sm};
  summarize_sms(sms, &out);
  EXPECT_NEAR(seconds(out, TimeCause::math), 400, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::dram), 300, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::latency), 100, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::tail), 200, 1e-6);
  EXPECT_NEAR(out.breakdown.total() * 1e12, 1000, 1e-6);
  EXPECT_DOUBLE_EQ(out.dot_busy, 0.4);
  EXPECT_DOUBLE_EQ(out.fill_busy, 0.25);
}

TEST(SummarizeSms, ScalesABusyTimeLongerThanTheSmsTimeDown) {
  SmTotals sm;
  sm.last_retire = 1000;
  add_time(&sm.busy, TimeCause::math, 1500);
  add_time(&sm.busy, TimeCause::smem, 500);  // 2,000 ps busy in a 1,000 ps kernel: halved
  TimingSummary out;
  out.kernel_ps = 1000;
  summarize_sms(std::vector<SmTotals>{sm}, &out);
  EXPECT_NEAR(seconds(out, TimeCause::math), 750, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::smem), 250, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::tail), 0, 1e-6);
}

TEST(SummarizeSms, GivesTheRestToTheTailWhenNoProgramWaitedAndAveragesOverSms) {
  SmTotals idle;  // never ran a program: all tail
  SmTotals busy;
  busy.last_retire = 1000;
  add_time(&busy.busy, TimeCause::math, 600);  // no waits: the other 400 are tail
  TimingSummary out;
  out.kernel_ps = 1000;
  summarize_sms(std::vector<SmTotals>{idle, busy}, &out);
  EXPECT_NEAR(seconds(out, TimeCause::math), 300, 1e-6);
  EXPECT_NEAR(seconds(out, TimeCause::tail), 700, 1e-6);
  EXPECT_NEAR(out.breakdown.total() * 1e12, 1000, 1e-6);
}

TEST(AddTime, AddsOnlyPositiveTimes) {
  std::array<std::int64_t, kTimeCauses> a{};
  add_time(&a, TimeCause::l2, 5);
  add_time(&a, TimeCause::l2, -3);
  add_time(&a, TimeCause::l2, 0);
  EXPECT_EQ(a[static_cast<std::size_t>(TimeCause::l2)], 5);
}
