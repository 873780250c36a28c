// Time breakdown: the names of the causes and the sums a breakdown reports (see
// time_breakdown.hpp).
#include "sim/timing/time_breakdown.hpp"

#include "sim/base/enum_names.hpp"

namespace tilesim::sim {

std::string_view to_string(TimeCause c) {
  static constexpr enum_names::Table<TimeCause, kTimeCauses> kNames{{
      {TimeCause::launch, "launch"},
      {TimeCause::latency, "latency"},
      {TimeCause::dram, "dram"},
      {TimeCause::l2, "l2"},
      {TimeCause::sm_load, "sm_load"},
      {TimeCause::smem, "smem"},
      {TimeCause::bank_conflict, "bank_conflict"},
      {TimeCause::math, "math"},
      {TimeCause::issue, "issue"},
      {TimeCause::tail, "tail"},
  }};
  return enum_names::name_of(kNames, c);
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
