// What the DRAM is doing, as a copy's or transpose's load round sees it when it goes out
// (Little's law, loaded_round_ps in sim/timing/step_costs.hpp): the read bytes that all such rounds
// keep in flight, and the reads' share of the recent DRAM traffic, which sets how much of the
// DRAM's rate the reads get. Deterministic: integer bytes and ps, one exponential average of
// doubles.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace tilesim::sim {

// The reads' share of the DRAM's rate stays within these (a half: a copy in flow writes what it
// reads; all: nothing is written), and starts at a half (see read_share below).
inline constexpr double kMinReadShare = 0.5;
inline constexpr double kMaxReadShare = 1.0;
inline constexpr double kStartReadShare = 0.5;

class DramReads {
 public:
  // `sms`: the SMs the in-flight bytes are spread over; `window_bytes`: about one L2-full, the
  // traffic the read share averages over.
  DramReads(int sms, double window_bytes) : m_sms(sms), m_window(window_bytes) {}

  // A round of `bytes` reads goes out at `t` (rounds go out in time order): the reads in flight
  // then, per SM, this round's included (the rounds that ended by `t` are out of the count).
  double issue(std::int64_t t, std::int64_t bytes);
  // The round issued with `bytes` is back at `end`.
  void back_at(std::int64_t end, std::int64_t bytes) { m_ends.push({end, bytes}); }

  // Bytes that reached DRAM for a load (its misses; the write-backs its evictions cause) or a
  // store (write-backs): the read share moves toward this traffic's, weighted by its size over
  // the window, and stays in 0.5..1 (the DRAM serves reads at least as often as writes, so a
  // burst of write-backs does not starve them, nor leave a debt for the reads after it).
  void traffic(std::int64_t read_bytes, std::int64_t write_bytes);
  // The reads' share of the DRAM's rate, 0.5..1: a copy or transpose in flow writes what it
  // reads (a half); a first wave whose stores still sit in L2 reads alone. Starts at a half:
  // the launch before left its writes in L2 for this one to evict (the model flushes them at its
  // end instead).
  double read_share() const { return m_share; }

 private:
  int m_sms = 1;
  double m_window = 1;
  double m_share = kStartReadShare;
  std::int64_t m_in_flight = 0;
  using End = std::pair<std::int64_t, std::int64_t>;  // (end ps, bytes), earliest on top
  std::priority_queue<End, std::vector<End>, std::greater<End>> m_ends;
};

}  // namespace tilesim::sim
