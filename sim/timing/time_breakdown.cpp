// Time breakdown: the names of the causes and the sums a breakdown reports (see
// time_breakdown.hpp).
#include "sim/timing/time_breakdown.hpp"

namespace tilesim::sim {

std::string_view to_string(TimeCause c) {
  return enum_names::name_of(kTimeCauseNames, c);
}

double TimeBreakdown::total() const {
  double t = 0;
  for (const double s : seconds) t += s;
  return t;
}

TimeCause TimeBreakdown::bound() const {
  int best = 0;
  for (int c = 1; c < kTimeCauses; ++c)
    if (seconds[static_cast<std::size_t>(c)] > seconds[static_cast<std::size_t>(best)]) best = c;
  return static_cast<TimeCause>(best);
}

}  // namespace tilesim::sim
