// Playback cursor arithmetic (see playback.hpp): sequential programs, clamped seeks.
#include "app/core/playback.hpp"

#include <algorithm>

#include "sim/program_trace.hpp"

namespace tilesim::app {

PlaybackCursor::PlaybackCursor(const sim::Problem& p, std::int64_t wave_programs)
    : m_programs(p.programs()),
      m_steps(sim::steps_per_program(p)),
      m_wave(std::max<std::int64_t>(1, wave_programs)),
      m_matmul(p.kernel() == sim::Kernel::matmul) {}

void PlaybackCursor::seek(std::int64_t position) {
  m_position = std::clamp<std::int64_t>(position, 0, length() - 1);
}

void PlaybackCursor::seek_pid(std::int64_t pid, std::int64_t step) {
  seek(std::clamp<std::int64_t>(pid, 0, m_programs - 1) * m_steps +
       std::clamp<std::int64_t>(step, 0, m_steps - 1));
}

void PlaybackCursor::step(StepUnit unit, int dir) {
  const CursorPos c = at();
  switch (unit) {
    case StepUnit::event: seek(m_position + dir); return;
    case StepUnit::program:
      if (dir < 0 && c.step > 0) seek_pid(c.pid, 0);
      else seek_pid(c.pid + dir, 0);
      return;
    case StepUnit::wave: {
      const std::int64_t wave = c.pid / m_wave;
      if (dir < 0 && (c.pid % m_wave != 0 || c.step > 0)) seek_pid(wave * m_wave, 0);
      else seek_pid((wave + dir) * m_wave, 0);
      return;
    }
    case StepUnit::k_iteration: {
      if (!m_matmul) { step(StepUnit::program, dir); return; }
      // Matmul steps: 0 map, 1 + 3k load_a, 2 + 3k load_b, 3 + 3k dot, last store.
      // Boundaries are the load_a steps, the store, and the next program's step 0.
      std::int64_t s = c.step;
      if (dir > 0) {
        if (s == 0) s = 1;
        else if (s >= m_steps - 1) { seek_pid(c.pid + 1, 0); return; }
        else s = 1 + ((s - 1) / 3 + 1) * 3;
        seek(c.pid * m_steps + std::min(s, m_steps - 1));
      } else {
        if (s == 0) { seek(m_position - 1); return; }
        if (s == m_steps - 1) s = 1 + ((m_steps - 2 - 1) / 3) * 3;
        else if ((s - 1) % 3 != 0) s = 1 + ((s - 1) / 3) * 3;
        else s = s == 1 ? 0 : s - 3;
        seek(c.pid * m_steps + s);
      }
      return;
    }
  }
}

}  // namespace tilesim::app
