// Animation between steps: a tile's load travels DRAM -> L2 -> shared memory (a hit starts at
// L2), the dot fills the C tile, a store travels back. Everything drawn is a pure function of
// (position, fraction), so frame f of a headless recording is the same on every run. Time comes
// from an EventClock: a round order gives every event one unit (UniformClock); the timed order
// gives each event its simulated span in picoseconds (TimedClock), so playback follows GPU time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/replay/event_order.hpp"

namespace tilesim::app {

// When each event starts and ends on the animation's time axis (any unit, increasing).
class EventClock {
 public:
  virtual ~EventClock() = default;
  virtual double start(std::int64_t event) const = 0;  // event: 0-based index
  double end(std::int64_t event) const { return start(event + 1); }
  // The event running at time t: start(e) <= t < end(e), clamped to >= 0.
  virtual std::int64_t event_at(double t) const = 0;
};

// Every event one unit long: event e runs over [e, e + 1).
class UniformClock final : public EventClock {
 public:
  double start(std::int64_t event) const override { return static_cast<double>(event); }
  std::int64_t event_at(double t) const override;
};

// Simulated time of a timed event order: event e runs from the time of position e to that of
// position e + 1 (picoseconds; events at the same time take no time).
class TimedClock final : public EventClock {
 public:
  explicit TimedClock(std::shared_ptr<const sim::EventOrder> order) : m_order(std::move(order)) {}
  double start(std::int64_t event) const override;
  std::int64_t event_at(double t) const override;

 private:
  std::shared_ptr<const sim::EventOrder> m_order;
};

// A moment of the replay: `position` events have executed (the view shows event position - 1)
// and that event is `fraction` done (1 = at rest, what a still figure shows).
struct AnimPoint {
  std::int64_t position = 0;
  double fraction = 1.0;
  bool operator==(const AnimPoint&) const = default;
};
// The moment at clock time t (the event running at t, and how far into it).
AnimPoint anim_point(const EventClock& clock, double t);

// Frames that animate positions from..to (to > from): evenly spaced in clock time, the first at
// the start of event `from`, the last at rest at `to`. seconds_per_unit: wall seconds one clock
// unit takes (slow motion makes it longer); fps: frames per wall second. At least 2 frames.
std::vector<AnimPoint> animation_frames(const EventClock& clock, std::int64_t from, std::int64_t to,
                                        double seconds_per_unit, double fps);

// Levels of the memory hierarchy a tile passes through, left to right as the memory chart draws.
enum class MemLevel { dram, l2, smem, regs };
inline constexpr int kMemLevels = 4;

// What moves during one event at one fraction.
struct Motion {
  enum class Kind { none, load, store, dot } kind = Kind::none;
  sim::Operand operand = sim::Operand::a;
  std::vector<MemLevel> path;  // levels visited in order (a load: DRAM, L2, smem; a hit: L2, smem)
  double along = 0;            // position on `path`, 0 .. path.size() - 1
  bool l2_hit = false;         // every sector was in L2: the trip starts (and is served) at L2
  double arrived = 0;          // share of the tile that reached its destination, 0..1
  double acc = 0;              // dot: share of K accumulated into the C tile, 0..1
};
// The motion of event `ev` (its L2 result `l2`) at `fraction` (0..1); k_tiles for the dot's fill.
Motion motion_of(const sim::EventInfo& ev, const sim::AccessResult& l2, std::int64_t k_tiles,
                 double fraction);
// Where on the chart a point `along` a path lies, as a level index 0..3 with a fractional part.
double level_coordinate(const Motion& m);

}  // namespace tilesim::app
