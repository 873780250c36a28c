// The dot pipe shared by age (see dot_share.hpp).
#include "sim/timing/dot_share.hpp"

#include <algorithm>

namespace tilesim::sim {

DotShare::DotShare(double share, int programs_per_sm, int sms, std::int64_t slots)
    : sms_(sms),
      rank_cost_(static_cast<std::size_t>(std::max(1, programs_per_sm)), 1.0),
      served_(static_cast<std::size_t>(slots), 0.0),
      by_age_(static_cast<std::size_t>(sms)) {
  constexpr double kMaxCost = 1e12;
  // q = (1 - share) / share; a share of 1 (the older always first) as a vanishing q.
  const double q = std::max(1e-9, (1 - share) / share);
  for (std::size_t r = 1; r < rank_cost_.size(); ++r)
    rank_cost_[r] = std::min(kMaxCost, rank_cost_[r - 1] / q);
}

void DotShare::join(int slot) {
  std::vector<int>& age = by_age_[static_cast<std::size_t>(slot % sms_)];
  double level = 0;
  for (std::size_t i = 0; i < age.size(); ++i) {
    const double s = served_[static_cast<std::size_t>(age[i])];
    level = i == 0 ? s : std::min(level, s);
  }
  served_[static_cast<std::size_t>(slot)] = level;
  age.push_back(slot);
}

void DotShare::leave(int slot) {
  std::vector<int>& age = by_age_[static_cast<std::size_t>(slot % sms_)];
  age.erase(std::find(age.begin(), age.end(), slot));
}

double DotShare::cost(int slot) const {
  const std::vector<int>& age = by_age_[static_cast<std::size_t>(slot % sms_)];
  const auto rank = std::find(age.begin(), age.end(), slot) - age.begin();
  return rank_cost_[std::min(static_cast<std::size_t>(rank), rank_cost_.size() - 1)];
}

}  // namespace tilesim::sim
