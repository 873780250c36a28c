// Hit rate series: its buckets apply Counters' hit rule to the timeline's records, and its last
// point is the run's hit rate, for every kernel and both schedules.
#include "sim/replay/hit_rate_series.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/sim/fixtures.hpp"

using namespace tilesim::sim;
using namespace tilesim::sim_test;

namespace {

std::vector<Problem> small_problems() {
  std::vector<Problem> out;
  for (const auto kernel : {Kernel::copy, Kernel::transpose, Kernel::matmul}) {
    ProblemSpec s;
    s.kernel = kernel;
    s.m = 300;
    s.n = 260;
    s.k = 200;
    s.block_m = s.block_n = s.block_k = 32;
    s.order = LaunchOrder::grouped;
    s.group_size_m = 2;
    out.emplace_back(s);
  }
  return out;
}

}  // namespace

TEST(HitRateSeries, BucketsApplyCountersHitRuleToEveryEventsRecord) {
  const Machine m = small_machine();
  for (const Problem& p : small_problems())
    for (auto kind : {EventOrderKind::lockstep, EventOrderKind::staggered})
      for (int buckets : {1, 7, 400}) {
        TimelineOptions o;
        o.order = kind;
        const Timeline t(p, m, occupancy(p, m, 2), o);
        const HitRateSeries s = hit_rate_series(t, buckets);
        const std::int64_t n = cdiv(t.events(), s.events_per_bucket);
        ASSERT_LE(n, buckets);
        ASSERT_EQ(std::int64_t(s.cumulative.size()), n);
        ASSERT_EQ(std::int64_t(s.window.size()), n);
        // The same buckets counted the slow way: each event's op from event_info().
        Counters so_far;
        for (std::int64_t b = 0; b < n; ++b) {
          Counters bucket;
          for (std::int64_t e = b * s.events_per_bucket;
               e < std::min(t.events(), (b + 1) * s.events_per_bucket); ++e)
            count_l2_sectors(bucket, t.event_info(e).op == StepOp::store, t.record(e).hit_sectors,
                             t.record(e).miss_sectors);
          so_far += bucket;
          EXPECT_EQ(s.cumulative[b], float(so_far.l2_hit_rate())) << "bucket " << b;
          if (bucket.l2_sectors() == 0)
            EXPECT_TRUE(std::isnan(s.window[b])) << "bucket " << b;
          else
            EXPECT_EQ(s.window[b], float(bucket.l2_hit_rate())) << "bucket " << b;
        }
        EXPECT_EQ(s.cumulative.back(), float(t.final_counters().l2_hit_rate()))
            << to_string(p.kernel()) << " " << to_string(kind);
      }
}

TEST(HitRateSeries, StoresCountAsHitsSoACopyThatReadsEachByteOnceHitsHalfItsSectors) {
  // A copy misses on every load sector and stores as many sectors: half of all sectors hit.
  ProblemSpec s;
  s.kernel = Kernel::copy;
  s.m = s.n = 256;
  s.block_m = s.block_n = 32;
  s.dtype = DType::fp32;
  const Problem p(s);
  const Machine m = small_machine();
  TimelineOptions o;
  o.order = EventOrderKind::lockstep;
  const Timeline t(p, m, occupancy(p, m, 1), o);
  const HitRateSeries series = hit_rate_series(t);
  EXPECT_EQ(t.final_counters().l2_load_hit_sectors, 0);
  EXPECT_FLOAT_EQ(series.cumulative.back(), 0.5f);
}
