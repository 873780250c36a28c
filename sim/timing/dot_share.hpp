// The dot pipe shared by age: when an SM's dot pipe frees and several of its programs have a dot
// ready, which one goes (Machine::older_program_share). Weighted fair sharing: each program's
// served count grows by 1 / weight per dot, the weight of the k-th oldest resident being q^k,
// q = (1 - share) / share, and the ready dot whose program would have the least service after it
// goes first. Two programs always ready split the dots share : 1 - share (0.6 measured: the
// warp schedulers' greedy-then-oldest issue, worked out over a K step; docs/MODEL.md).
#pragma once

#include <cstdint>
#include <vector>

namespace tilesim::sim {

class DotShare {
 public:
  // `slots` slots, slot s on SM s % sms; at most `programs_per_sm` resident per SM.
  DotShare(double share, int programs_per_sm, int sms, std::int64_t slots);

  // A program starts on `slot`. Programs start in pid order, so it is its SM's youngest. It
  // starts level with the SM's least-served resident: its share from now on, not a burst that
  // makes up for the time before it came.
  void join(int slot);
  void leave(int slot);
  // The programs resident on `slot`'s SM.
  int residents(int slot) const {
    return static_cast<int>(by_age_[static_cast<std::size_t>(slot % sms_)].size());
  }

  // Of the ready dots [first, last) (each with .slot and .pid, all on one SM), the one to run
  // (ties: the older); its program is charged for it.
  template <class It>
  It pick(It first, It last) {
    It best = first;
    double best_after = 0;
    for (It it = first; it != last; ++it) {
      const double after = served_[static_cast<std::size_t>(it->slot)] + cost(it->slot);
      if (it == first || after < best_after || (after == best_after && it->pid < best->pid))
        best = it, best_after = after;
    }
    if (best != last) served_[static_cast<std::size_t>(best->slot)] = best_after;
    return best;
  }

  // A dot's cost: 1 / q^rank, rank = the residents of its SM older than its program. Capped at
  // 1e12: at a share of 1 (q = 1e-9) rank 35 would overflow a double, and a served count grown
  // by such costs would swallow a rank-0 dot's 1. Programs past the cap cost the same, so among
  // themselves they alternate; each still waits while an older, cheaper one is ready.
  double cost(int slot) const;

 private:
  int sms_;
  std::vector<double> rank_cost_;         // (programs per SM,)
  std::vector<double> served_;            // (slots,) weighted dots served
  std::vector<std::vector<int>> by_age_;  // (SMs,) resident slots, oldest first
};

}  // namespace tilesim::sim
