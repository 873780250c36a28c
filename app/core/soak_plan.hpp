// The soak test's random walk of user actions (`tilesim --soak SEED --actions N`): a seeded,
// reproducible sequence of keys, clicks, drags, field edits (out-of-range values included), files
// opened (scenarios, lessons, corrupted files, kernel files), sweeps, saves and resizes. The
// window-free half: app/soak.cpp turns each action into input events for the real window.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::app {

enum class SoakKind {
  key,            // `key` (a GLFW key code) pressed for one frame, with shift or not
  click,          // left click at (x, y)
  drag,           // press at (x, y), move to (x2, y2) over a few frames, release (scrubbing)
  scroll,         // wheel of `value` notches at (x, y)
  type_text,      // click at (x, y), type `text`, press Enter
  edit_field,     // the problem field `field` set to `value` through SetSpec
  set_tab,        // the centre tab `index` (launch grid, compare, memory, sweep, warps, GPU)
  open_scenario,  // the next bundled scenario (in turn, so every one is opened)
  open_lesson,    // the next bundled lesson
  close_lesson,
  lesson_step,   // the lesson's step `index` (modulo its steps)
  open_corrupt,  // the next corrupted file, as a scenario or as a lesson (`shift`)
  sweep_start,   // the sweep tab with axis `index` % 2
  sweep_cancel,
  save_png,       // a figure of panel `index` (or the window), read back and compared
  save_scenario,  // the scenario saved, reloaded and compared
  resize,         // the window resized to w x h
  set_machine,    // the machine preset `index` (an unknown name included)
  // A kernel file opened through the worker (`index` % 4): 0 a refused one, 1 seed 004's copy
  // saved twice while its reload runs, else the next bundled one in turn.
  open_kernel,
  count
};

struct SoakAction {
  SoakKind kind = SoakKind::key;
  float x = 0, y = 0, x2 = 0, y2 = 0;  // fractions of the window, 0..1
  int key = 0;
  bool shift = false;
  int index = 0;
  std::string field, text;
  std::int64_t value = 0;
  int w = 0, h = 0;  // logical pixels
};
std::string describe(const SoakAction& a);  // one line for logs: "edit_field block_m=-8"

class SoakPlan {
 public:
  explicit SoakPlan(std::uint64_t seed) : m_rng(seed) {}
  SoakAction next();

 private:
  std::mt19937_64 m_rng;
};

// `spec` with `field` set to `value` (enum fields: value modulo the number of names), unchecked:
// sim::Problem decides whether it is valid.
sim::ProblemSpec with_field(sim::ProblemSpec spec, const std::string& field, std::int64_t value);
// Names of the fields with_field knows, in ProblemSpec's order.
const std::vector<std::string>& soak_fields();

// Peak and current resident memory of this process (bytes; 0 where /proc is missing).
std::int64_t peak_rss_bytes();
std::int64_t rss_bytes();

}  // namespace tilesim::app
