// Hit rate series: one pass over the events in the timeline's order (rounds or time; active slots
// ascending: the event numbering), so each event's step, hence whether it stores, is known
// without a search.
#include "sim/replay/hit_rate_series.hpp"

#include <algorithm>
#include <limits>

#include "sim/program/program_trace.hpp"

namespace tilesim::sim {

HitRateSeries hit_rate_series(const Timeline& t, int buckets) {
  HitRateSeries s;
  s.events = t.events();
  if (s.events == 0 || buckets < 1) return s;
  s.events_per_bucket = std::max<std::int64_t>(1, cdiv(s.events, buckets));
  Counters so_far, bucket;
  for (std::int64_t e = 0; e < s.events; ++e) {
    const AccessResult& rec = t.record(e);
    if (rec.hit_sectors + rec.miss_sectors > 0) {
      const bool store = t.event_info(e).op == StepOp::store;
      count_l2_sectors(bucket, store, rec.hit_sectors, rec.miss_sectors);
    }
    if ((e + 1) % s.events_per_bucket != 0 && e + 1 != s.events) continue;
    so_far += bucket;
    s.cumulative.push_back(static_cast<float>(so_far.l2_hit_rate()));
    s.window.push_back(bucket.l2_sectors() > 0 ? static_cast<float>(bucket.l2_hit_rate())
                                               : std::numeric_limits<float>::quiet_NaN());
    bucket = {};
  }
  return s;
}

}  // namespace tilesim::sim
