// Schedule: slot offsets, per-round event counts (a difference array over each slot's busy
// rounds, then prefix sums) and the closed form of a round's active slots.
#include "sim/program/schedule.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/base/limits.hpp"

namespace tilesim::sim {

std::string_view to_string(EventOrderKind k) {
  return enum_names::name_of(kEventOrderNames, k);
}

EventOrderKind parse_event_order(std::string_view value, std::string_view field) {
  if (const auto k = enum_names::parse_in(kEventOrderNames, value)) return *k;
  throw unknown_value(field, value, enum_names::join_names(kEventOrderNames));
}

SlotSchedule::SlotSchedule(std::int64_t programs, std::int64_t slots, std::int64_t steps,
                           EventOrderKind kind)
    : m_kind(kind), m_programs(programs), m_slots(slots), m_steps(steps) {
  if (programs < 1 || slots < 1 || steps < 1)
    throw std::invalid_argument("SlotSchedule: programs, slots and steps must be >= 1");
  if (!is_round_order(kind))
    throw std::invalid_argument("SlotSchedule: the timed order has no rounds");
  m_offset.resize(static_cast<std::size_t>(slots));
  for (std::int64_t s = 0; s < slots; ++s)
    m_offset[static_cast<std::size_t>(s)] =
        kind == EventOrderKind::lockstep ? 0 : s * steps / slots;
  // Slot s is busy in rounds [off(s), off(s) + n_s * T), n_s = its program count.
  std::int64_t last = 0;
  for (std::int64_t s = 0; s < std::min(slots, programs); ++s)
    last = std::max(last, offset(s) + (programs - s + slots - 1) / slots * steps);
  std::vector<std::int64_t> diff(static_cast<std::size_t>(last) + 1, 0);
  for (std::int64_t s = 0; s < std::min(slots, programs); ++s) {
    diff[static_cast<std::size_t>(offset(s))] += 1;
    diff[static_cast<std::size_t>(offset(s) + (programs - s + slots - 1) / slots * steps)] -= 1;
  }
  m_round_begin.assign(static_cast<std::size_t>(last) + 1, 0);
  std::int64_t active = 0;
  for (std::int64_t r = 0; r < last; ++r) {
    active += diff[static_cast<std::size_t>(r)];
    m_round_begin[static_cast<std::size_t>(r) + 1] =
        m_round_begin[static_cast<std::size_t>(r)] + active;
  }
}

RoundSlots SlotSchedule::active(std::int64_t r) const {
  RoundSlots out;
  if (r < 0 || r >= rounds()) return out;
  // Slots started by round r: a prefix [0, a) (offsets are non-decreasing). Within it, slots
  // whose offset is <= r - qT run their q-th program (q = r / T), the rest their (q-1)-th.
  const auto a = std::upper_bound(m_offset.begin(), m_offset.end(), r) - m_offset.begin();
  const std::int64_t q = r / m_steps;
  const auto b =
      std::upper_bound(m_offset.begin(), m_offset.end(), r - q * m_steps) - m_offset.begin();
  out.lo0 = 0;
  out.hi0 = std::clamp<std::int64_t>(m_programs - q * m_slots, 0, b);
  out.lo1 = b;
  out.hi1 = q == 0 ? b : std::clamp<std::int64_t>(m_programs - (q - 1) * m_slots, b, a);
  return out;
}

std::int64_t SlotSchedule::round_of(std::int64_t e) const {
  return std::upper_bound(m_round_begin.begin(), m_round_begin.end(), e) - m_round_begin.begin() -
         1;
}

std::int64_t SlotSchedule::steps_before(std::int64_t slot, std::int64_t round) const {
  if (slot >= m_programs) return 0;
  const std::int64_t busy = (m_programs - slot + m_slots - 1) / m_slots * m_steps;
  return std::clamp<std::int64_t>(round - offset(slot), 0, busy);
}

std::int64_t SlotSchedule::programs_started(std::int64_t position) const {
  // Binary search over pids: pid p = q S + s first runs in round off(s) + q T, and off(s) < T,
  // so first events increase with pid.
  std::int64_t lo = 0, hi = m_programs;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (event_of(mid, 0) < position)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace tilesim::sim
