// Hit rate series: one pass over the events in schedule order (round by round, active slots
// ascending: the event numbering), so each event's step, hence whether it stores, is known
// without a search.
#include "sim/hit_rate_series.hpp"

#include <algorithm>
#include <limits>

#include "sim/program_trace.hpp"

namespace tilesim::sim {

HitRateSeries hit_rate_series(const Timeline& t, int buckets) {
  HitRateSeries s;
  s.events = t.events();
  if (s.events == 0 || buckets < 1) return s;
  s.events_per_bucket = std::max<std::int64_t>(1, cdiv(s.events, buckets));
  const SlotSchedule& sc = t.schedule();
  Counters so_far, bucket;
  std::int64_t e = 0;
  for (std::int64_t r = 0; r < sc.rounds(); ++r) {
    const RoundSlots active = sc.active(r);
    for (std::int64_t i = 0; i < active.count(); ++i, ++e) {
      const AccessResult& rec = t.record(e);
      if (rec.hit_sectors + rec.miss_sectors > 0) {
        std::int64_t k = -1;
        const bool store = step_op(t.problem(), sc.step(active.at(i), r), &k) == StepOp::store;
        count_l2_sectors(bucket, store, rec.hit_sectors, rec.miss_sectors);
      }
      if ((e + 1) % s.events_per_bucket != 0 && e + 1 != s.events) continue;
      so_far += bucket;
      s.cumulative.push_back(static_cast<float>(so_far.l2_hit_rate()));
      s.window.push_back(bucket.l2_sectors() > 0 ? static_cast<float>(bucket.l2_hit_rate())
                                                 : std::numeric_limits<float>::quiet_NaN());
      bucket = {};
    }
  }
  return s;
}

}  // namespace tilesim::sim
