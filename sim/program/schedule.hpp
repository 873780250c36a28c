// Schedule: which program runs which step in which round, on which slot. Programs start in pid
// order on free slots and every resident program advances one step per round (slot order within
// a round), so slot s runs pids s, s + S, s + 2S, ... back to back (S = slots = SMs x programs
// per SM); what differs between schedules is only when each slot starts.
// Teaches: whether the programs of a wave stay in step decides whether they share L2 reuse.
//  - lockstep: every slot starts at round 0; all programs have equal step counts, so a wave stays
//    synchronised to the end (and the next wave starts together).
//  - staggered: slot s starts after off(s) = floor(s * T / S) rounds (T = steps per program), so
//    program ends are spread evenly over the T rounds of a program: the steady state of a long
//    grid on a GPU, where programs drift apart and a finished one is replaced at once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/base/enum_names.hpp"

namespace tilesim::sim {

// The order a replay runs its events in: the one list the app, the CLI and lessons name (flag
// --event-order in both, JSON "event_order" from tilesim-cli run).
//  - timed: the timed engine's order, events in simulated time (sim/timing/timed_engine.hpp); the
//    default, and the only order with a time of its own;
//  - lockstep, staggered: the round schedules below, for teaching "what if every program moved
//    in step?"; their predicted time is still the timed engine's (sim/replay/replay.hpp).
enum class EventOrderKind { timed, lockstep, staggered };
inline constexpr enum_names::Table<EventOrderKind, 3> kEventOrderNames{
    {{EventOrderKind::timed, "timed"},
     {EventOrderKind::lockstep, "lockstep"},
     {EventOrderKind::staggered, "staggered"}}};
inline constexpr EventOrderKind kDefaultEventOrder = EventOrderKind::timed;
std::string_view to_string(EventOrderKind k);
// The order named `value`, else InvalidField(field): "<field> = "x" is unknown: allowed timed |
// lockstep | staggered".
EventOrderKind parse_event_order(std::string_view value, std::string_view field = "event_order");
constexpr bool is_round_order(EventOrderKind k) {
  return k != EventOrderKind::timed;
}

// Active slots of one round, ascending: [lo0, hi0) then [lo1, hi1) (either may be empty).
struct RoundSlots {
  std::int64_t lo0 = 0, hi0 = 0, lo1 = 0, hi1 = 0;
  std::int64_t count() const { return (hi0 - lo0) + (hi1 - lo1); }
  bool contains(std::int64_t s) const { return (s >= lo0 && s < hi0) || (s >= lo1 && s < hi1); }
  std::int64_t rank(std::int64_t s) const { return s < hi0 ? s - lo0 : (hi0 - lo0) + (s - lo1); }
  std::int64_t at(std::int64_t i) const { return i < hi0 - lo0 ? lo0 + i : lo1 + i - (hi0 - lo0); }
};

// The exact event <-> (round, slot) <-> (pid, step) mapping; events are numbered round by round,
// slots ascending within a round. Per-round event counts are kept as prefix sums.
class SlotSchedule {
 public:
  SlotSchedule() = default;
  // programs P >= 1, slots S >= 1, steps per program T >= 1; `kind` a round order (lockstep or
  // staggered: the timed order has no rounds, std::invalid_argument).
  SlotSchedule(std::int64_t programs, std::int64_t slots, std::int64_t steps, EventOrderKind kind);

  EventOrderKind kind() const { return m_kind; }
  std::int64_t rounds() const { return static_cast<std::int64_t>(m_round_begin.size()) - 1; }
  std::int64_t events() const { return m_round_begin.back(); }
  std::int64_t round_begin(std::int64_t r) const {
    return m_round_begin[static_cast<std::size_t>(r)];
  }
  std::int64_t offset(std::int64_t slot) const { return m_offset[static_cast<std::size_t>(slot)]; }
  RoundSlots active(std::int64_t round) const;
  // Round of event e (0 <= e < events()).
  std::int64_t round_of(std::int64_t e) const;
  // Steps slot s has executed before round r: its programs' steps back to back.
  std::int64_t steps_before(std::int64_t slot, std::int64_t round) const;
  std::int64_t pid(std::int64_t slot, std::int64_t round) const {
    return (round - offset(slot)) / m_steps * m_slots + slot;
  }
  std::int64_t step(std::int64_t slot, std::int64_t round) const {
    return (round - offset(slot)) % m_steps;
  }
  // Round in which `pid` runs `step`.
  std::int64_t round_of_step(std::int64_t pid, std::int64_t step) const {
    return offset(pid % m_slots) + (pid / m_slots) * m_steps + step;
  }
  // The event in which `pid` runs `step`: the inverse of (event -> pid, step).
  std::int64_t event_of(std::int64_t pid, std::int64_t step) const {
    const std::int64_t round = round_of_step(pid, step);
    return round_begin(round) + active(round).rank(pid % m_slots);
  }
  // Programs that have run at least one step in the first `position` events (0 .. events()).
  // Programs start in pid order under both schedules, so these are pids 0 .. result - 1.
  std::int64_t programs_started(std::int64_t position) const;

 private:
  EventOrderKind m_kind = EventOrderKind::lockstep;
  std::int64_t m_programs = 1, m_slots = 1, m_steps = 1;
  std::vector<std::int64_t> m_offset;       // (S,) start round of each slot, non-decreasing
  std::vector<std::int64_t> m_round_begin;  // (rounds + 1,) first event of each round
};

}  // namespace tilesim::sim
