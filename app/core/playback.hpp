// Playback cursor: where the learner is in the run, as (pid, step) plus one global position.
// Placeholder for the engine's timeline (issue 3): programs run one after another in pid order,
// so position = pid * steps_per_program + step. Stepping by event, K-iteration, program and wave
// is defined here so the controls and keyboard work before the real timeline arrives.
#pragma once

#include <cstdint>

#include "sim/problem.hpp"

namespace tilesim::app {

enum class StepUnit { event, k_iteration, program, wave };

struct CursorPos {
  std::int64_t pid = 0, step = 0;
  bool operator==(const CursorPos&) const = default;
};

class PlaybackCursor {
 public:
  PlaybackCursor() = default;
  PlaybackCursor(const sim::Problem& p, std::int64_t wave_programs);

  std::int64_t position() const { return m_position; }
  std::int64_t length() const { return m_programs * m_steps; }  // positions 0 .. length()-1
  std::int64_t steps_per_program() const { return m_steps; }
  std::int64_t wave_programs() const { return m_wave; }
  CursorPos at() const { return {m_position / m_steps, m_position % m_steps}; }

  void seek(std::int64_t position);  // clamped to [0, length()-1]
  void seek_pid(std::int64_t pid, std::int64_t step = 0);
  // dir = +1 or -1. K-iteration moves to the next/previous load_a (or the store); program and
  // wave move to step 0 of the next/previous program / wave.
  void step(StepUnit unit, int dir);

 private:
  std::int64_t m_programs = 1, m_steps = 1, m_wave = 1, m_position = 0;
  bool m_matmul = false;
};

// Wave size used until machine presets exist: SMs x programs per SM.
inline constexpr std::int64_t kPlaceholderSms = 132;  // H100 SXM

}  // namespace tilesim::app
