// The app's model: the open scenario, its last valid Problem and the playback cursor.
// Teaches nothing by itself; it is the single place panels read from. Panels never mutate it:
// they push Commands (commands.hpp) that the frame loop applies between frames.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "app/core/playback.hpp"
#include "scenario/scenario.hpp"
#include "sim/problem.hpp"

namespace tilesim::app {

// A field the learner typed that sim::Problem refused; shown next to that field.
struct FieldError {
  std::string field;    // scenario key, e.g. "block_m"
  std::string message;  // sim::InvalidField::what()
};

struct AppModel {
  scenario::Scenario scenario;        // as loaded or edited; scenario.problem is the last valid spec
  sim::Problem problem{sim::ProblemSpec{}};
  std::optional<sim::Problem> compare;  // same problem in scenario.compare_order
  std::optional<FieldError> field_error;
  std::filesystem::path path;          // where the scenario came from / was saved to
  PlaybackCursor cursor{problem, kPlaceholderSms};
  bool playing = false;
  double speed = 8.0;                  // events per second while playing
  double play_accum = 0.0;             // fractional events carried between frames
  std::string status;                  // last message for the status line
  bool status_is_error = false;

  // From the machine preset and sim::occupancy (the scenario may override programs per SM).
  std::int64_t sms() const;
  std::int64_t programs_per_sm() const;
  std::int64_t wave_programs() const { return sms() * programs_per_sm(); }
};

// A model showing `s` (its problem must be valid: it came through scenario::parse_scenario).
AppModel make_model(const scenario::Scenario& s, std::filesystem::path path = {});
// The default start: seed 004's 574^3 matmul, 64^3 blocks, GROUP_SIZE_M = 3, grouped vs row-major.
scenario::Scenario default_scenario();

}  // namespace tilesim::app
