// The soak test of the real window (`tilesim --soak SEED --actions N`, under Xvfb): a seeded
// random walk of user actions (soak_plan.hpp) fed to ImGui as input events each frame, with a
// frame watchdog, a memory bound, every save read back, and a quit with jobs in flight at the end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

#include "app/core/commands.hpp"
#include "app/core/ui_state.hpp"
#include "app/platform/platform.hpp"

struct ImGuiIO;

namespace tilesim::app {

struct SoakOptions {
  std::uint64_t seed = 1;
  int actions = 600;
  // Resident memory past this fails the run; sanitizers' shadow memory and quarantine multiply
  // what the same work keeps resident.
#if defined(__SANITIZE_THREAD__)
  std::int64_t max_rss_mib = 8192;
#elif defined(__SANITIZE_ADDRESS__)
  std::int64_t max_rss_mib = 6144;
#else
  std::int64_t max_rss_mib = 3072;
#endif
  double frame_limit_s = 60;  // a frame longer than this is a hang: abort with the seed
};

struct SoakTarget {
  Platform& plat;
  AppModel& model;
  UiState& ui;
  CommandQueue& q;
  // One frame of the interactive loop; `inject` feeds the soak's input before ImGui reads it.
  std::function<void(const std::function<void(ImGuiIO&)>& inject)> frame;
};

// Runs the walk and prints its figures (actions, frames, peak memory, longest frame, quit time).
// Returns the exit code: 0 when nothing failed.
int run_soak(SoakTarget& t, const SoakOptions& o);

}  // namespace tilesim::app
