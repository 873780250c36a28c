// The replay entry point (see replay.hpp): the timed engine for the timed order; for a round
// order, the round engine's counters beside the timed engine's time.
#include "sim/replay/replay.hpp"

namespace tilesim::sim {

ReplayResult replay(const Problem& p, const Machine& m, const Occupancy& occ,
                    const ReplayOptions& opt) {
  if (opt.order == EventOrderKind::timed) {
    ReplayResult r = replay_timed(p, m, occ, opt.timing, opt.progress, opt.cancel, opt.programs);
    r.order = EventOrderKind::timed;
    return r;
  }
  // A round order has no time of its own: the time (and the spans) are the timed replay's.
  // Each of the two replays reports half of the progress.
  const auto half = [&opt](double from) {
    return opt.progress
               ? std::function<void(double)>([&opt, from](double f) { opt.progress(from + f / 2); })
               : std::function<void(double)>{};
  };
  ReplayOptions timed = opt;
  timed.order = EventOrderKind::timed;
  timed.progress = half(0.0);
  const TimingSummary time = replay(p, m, occ, timed).timing;
  ReplayResult r = replay_rounds(p, m, occ, opt.order, half(0.5), opt.cancel);
  r.timing = time;
  return r;
}

TimingSummary predicted_timing(const Problem& p, const Machine& m, const Occupancy& occ,
                               const TimingOptions& timing, const std::atomic<bool>* cancel) {
  ReplayOptions o;
  o.timing = timing;
  o.cancel = cancel;
  return replay(p, m, occ, o).timing;
}

}  // namespace tilesim::sim
