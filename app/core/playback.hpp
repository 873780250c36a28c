// Playback: the learner's step units are the engine timeline's granularities (event, K-iteration,
// program, wave), and the program/step the views show is the event that led to the position.
// Position p means "events 0 .. p-1 have executed"; the highlighted step is event p - 1.
#pragma once

#include <cstdint>

#include "sim/replay/timeline.hpp"

namespace tilesim::app {

using StepUnit = sim::Granularity;

struct CursorPos {
  std::int64_t pid = 0, step = 0;
  bool operator==(const CursorPos&) const = default;
};

struct EngineFrame;
// The (pid, step) of the event just executed; pid 0's first step before anything ran.
CursorPos cursor_of(const EngineFrame* f);
// True when `f` shows an executed event (position > 0 with a timeline).
bool has_current_event(const EngineFrame* f);

}  // namespace tilesim::app
