// Event order: which program runs which step as the e-th event of a replay, and when. Two orders
// implement it: the round schedules (sim/program/schedule.hpp: every resident program one step per
// round, lockstep or staggered; no time) and the timed engine's order (sim/timing/timed_engine.hpp:
// events in simulated time, each with its start and end in picoseconds). Teaches: the same programs
// and the same L2, fed in a different order, give different reuse; "what if every program moved in
// lockstep?" is the round order beside the timed one.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/timing/timed_engine.hpp"

namespace tilesim::sim {

struct ResidentProgram {
  std::int64_t pid = 0;
  int slot = 0, sm = 0;
  std::int64_t next_step = 0;  // steps done so far; the next step it runs
  std::int64_t k = -1;         // K-iteration of its next step (-1: map or store)
  TileCoord tile;              // its output tile
};

class EventOrder {
 public:
  virtual ~EventOrder() = default;
  virtual std::int64_t events() const = 0;
  std::int64_t steps_per_program() const { return m_steps; }
  std::int64_t slots() const { return m_slots; }
  // Where event e (0 <= e < events()) sits: pid, step, slot, SM, wave (pid / slots), round
  // (round orders; the event index in the timed order), op, k, tile.
  virtual EventInfo event_info(std::int64_t e) const = 0;
  // The event in which `pid` runs `step`: the inverse of event_info.
  virtual std::int64_t event_of(std::int64_t pid, std::int64_t step) const = 0;
  // Programs that have run at least one step in the first `position` events (0 .. events()).
  virtual std::int64_t programs_started(std::int64_t position) const = 0;
  // Programs on their slots before event `position` runs (position < events()), by slot.
  virtual std::vector<ResidentProgram> residents(std::int64_t position) const = 0;
  // The position one step of granularity-like unit away (see Timeline::neighbour): the
  // k-iteration and program boundaries after/before `pos`, direction +1 / -1.
  virtual std::int64_t next_k_boundary(std::int64_t pos, int direction) const = 0;
  virtual std::int64_t next_program_end(std::int64_t pos, int direction) const = 0;

  // Simulated time (picoseconds): the time of a position (non-decreasing; 0 at position 0, the
  // kernel time at the end) and of each event's own span. Round orders have no time: all 0.
  virtual bool timed() const { return false; }
  virtual std::int64_t time_ps(std::int64_t /*position*/) const { return 0; }
  virtual TimedEvent timed_event(std::int64_t /*event*/) const { return {}; }
  // Each program's span on its slot, by pid (empty for round orders).
  virtual const std::vector<ProgramSpan>& programs() const;
  // What program `pid` mostly waited on: the largest of its time by cause as the timed engine
  // attributed it (ProgramSpan::time_by_cause, main_cause). Timed orders only.
  virtual TimeCause waited_on(std::int64_t /*pid*/) const { return TimeCause::math; }
  std::int64_t kernel_ps() const { return time_ps(events()); }
  // The last position whose time is at or before t_ps (timed orders; round orders: events()).
  std::int64_t position_at(std::int64_t t_ps) const;

 protected:
  EventOrder(const Problem& p, const Machine& m, std::int64_t slots);
  EventInfo info_of(std::int64_t e, std::int64_t pid, std::int64_t step, int slot) const;
  Problem m_problem;
  int m_sms = 1;
  std::int64_t m_slots = 1, m_steps = 1;
};

// The round schedule (lockstep or staggered) as an event order.
class RoundOrder final : public EventOrder {
 public:
  RoundOrder(const Problem& p, const Machine& m, std::int64_t slots, EventOrderKind kind);
  const SlotSchedule& schedule() const { return m_schedule; }
  std::int64_t events() const override { return m_schedule.events(); }
  EventInfo event_info(std::int64_t e) const override;
  std::int64_t event_of(std::int64_t pid, std::int64_t step) const override {
    return m_schedule.event_of(pid, step);
  }
  std::int64_t programs_started(std::int64_t position) const override {
    return m_schedule.programs_started(position);
  }
  std::vector<ResidentProgram> residents(std::int64_t position) const override;
  std::int64_t next_k_boundary(std::int64_t pos, int direction) const override;
  std::int64_t next_program_end(std::int64_t pos, int direction) const override;

 private:
  SlotSchedule m_schedule;
};

// The timed engine's recorded events as an event order. Memory: 40 bytes per event.
class TimedOrder final : public EventOrder {
 public:
  TimedOrder(const Problem& p, const Machine& m, std::int64_t slots, std::vector<TimedEvent> ev,
             std::vector<ProgramSpan> programs, std::int64_t kernel_ps);
  std::int64_t events() const override { return static_cast<std::int64_t>(m_events.size()); }
  EventInfo event_info(std::int64_t e) const override;
  std::int64_t event_of(std::int64_t pid, std::int64_t step) const override {
    return m_event_of[static_cast<std::size_t>(pid * m_steps + step)];
  }
  std::int64_t programs_started(std::int64_t position) const override;
  std::vector<ResidentProgram> residents(std::int64_t position) const override;
  std::int64_t next_k_boundary(std::int64_t pos, int direction) const override;
  std::int64_t next_program_end(std::int64_t pos, int direction) const override;
  bool timed() const override { return true; }
  std::int64_t time_ps(std::int64_t position) const override;
  TimedEvent timed_event(std::int64_t e) const override {
    return m_events[static_cast<std::size_t>(e)];
  }
  const std::vector<ProgramSpan>& programs() const override { return m_programs; }
  TimeCause waited_on(std::int64_t pid) const override {
    return main_cause(m_programs[static_cast<std::size_t>(pid)]);
  }

 private:
  // The steps of `pid` among the first `position` events (its events are in step order).
  std::int64_t steps_done(std::int64_t pid, std::int64_t position) const;
  std::vector<TimedEvent> m_events;      // (events,) in execution order
  std::vector<ProgramSpan> m_programs;   // (programs,) by pid
  std::vector<std::int64_t> m_event_of;  // (programs * steps,) pid * steps + step -> event
  std::vector<std::int64_t> m_first;     // (programs,) first events, ascending
  std::vector<std::int64_t> m_time;      // (events,) time of each position, non-decreasing
  std::int64_t m_kernel_ps = 0;
};

// Bytes a timed order of `events` events over `programs` programs holds beyond the records (for
// the timeline's budget): per event its TimedEvent and two times, per program its ProgramSpan.
std::int64_t timed_order_bytes(std::int64_t events, std::int64_t programs);

}  // namespace tilesim::sim
