// L2 hit rate over a run: the timeline's per-event records summed in buckets of events, so a
// plot shows where the hits come from (a wave's first loads miss, its later ones hit).
// Every bucket is a Counters of its events' L2 sectors, so it follows Counters::l2_hit_rate's
// rule (a store's sectors all count as hits) and the last cumulative point is the run's rate.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/replay/timeline.hpp"

namespace tilesim::sim {

struct HitRateSeries {
  std::int64_t events = 0;
  std::vector<float> cumulative;  // (buckets,) hit rate of all sectors up to the end of bucket i
  std::vector<float> window;      // (buckets,) hit rate within bucket i (NaN: no L2 access in it)
  std::int64_t events_per_bucket = 1;
};

// At most `buckets` buckets of events_per_bucket = cdiv(events, buckets) events each (the last
// may be shorter). Reads the timeline's records; does not move its position.
HitRateSeries hit_rate_series(const Timeline& t, int buckets = 400);

}  // namespace tilesim::sim
