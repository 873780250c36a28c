// Lesson files: a scenario plus ordered steps (view, position, highlights, narration, question)
// that walk one teaching point of the curriculum. Parsing is strict like scenarios: an unknown
// key, a wrong type or a bad value is refused with the file, line and key. The format is
// documented in assets/lessons/README.md; positions here are plain numbers, resolved by the app.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"
#include "sim/program/program_trace.hpp"

namespace tilesim::scenario {

// Where a step stands on the timeline. Exactly one form is given:
//  - event: the 0-based index of the event shown (the engine has executed events 0..event);
//  - pid (+ step, or + op and k): that program's step, 0-based (step 0 is its `map`);
//  - start: nothing executed yet; end: every event executed.
struct LessonPosition {
  std::optional<std::int64_t> event;
  std::optional<std::int64_t> pid;
  std::optional<std::int64_t> step;
  std::optional<sim::StepOp> op;
  std::optional<std::int64_t> k;
  bool start = false, end = false;
  int line = 0;  // of the "position" key, for messages
  bool operator==(const LessonPosition&) const = default;
};

// One tile of one matrix, in tile coordinates: A, B, C (matmul) or in, out (copy, transpose).
struct LessonTile {
  sim::Operand matrix = sim::Operand::a;
  std::int64_t row = 0, col = 0;
  bool operator==(const LessonTile&) const = default;
};
// Lane (row, col) of the access at the step (0-based, as in the broadcast inspector).
struct LessonLane {
  int row = 0, col = 0;
  bool operator==(const LessonLane&) const = default;
};

struct LessonHighlight {
  std::vector<LessonTile> tiles;        // matrices panel
  std::vector<std::int64_t> pids;       // launch grid / compare grids
  std::vector<int> code_lines;          // code panel, 1-based listing lines
  std::vector<LessonLane> lanes;        // broadcast inspector
  std::vector<std::string> table_rows;  // a row of the view's table, by its first cell
  int line = 0;
  bool empty() const {
    return tiles.empty() && pids.empty() && code_lines.empty() && lanes.empty() &&
           table_rows.empty();
  }
  bool operator==(const LessonHighlight&) const = default;
};

struct LessonQuestion {
  std::string text;    // asked at this step
  std::string answer;  // revealed at the next step
  bool operator==(const LessonQuestion&) const = default;
};

struct LessonStep {
  std::string title;                 // a short heading
  std::optional<Scenario> scenario;  // switch to this problem here (else the one before)
  std::string view;                  // the centre tab: one of lesson_views()
  LessonPosition position;
  LessonHighlight highlight;
  std::string narration;  // 1-3 sentences in the curriculum's words
  std::optional<LessonQuestion> question;
  // Rows of the view's table (first cells, as highlight.table_rows) whose figures show "?" here:
  // the step asks before a later one answers.
  std::vector<std::string> hide_rows;
  int line = 0;  // where the step's object opens
  bool operator==(const LessonStep&) const = default;
};

struct Lesson {
  std::string name;     // file stem, e.g. "04_grouped_order"
  std::string title;    // one line
  std::string summary;  // what the lesson teaches, shown in the index
  Scenario scenario;    // the problem of step 1
  std::vector<LessonStep> steps;
  bool operator==(const Lesson&) const = default;
};

// The views a step may name: the centre tabs of the app.
const std::vector<std::string>& lesson_views();

// Parse a lesson; `source` names it in messages, `dir` resolves relative scenario paths.
Lesson parse_lesson(std::string_view text, const std::string& source = "lesson",
                    const std::filesystem::path& dir = {});
Lesson load_lesson(const std::filesystem::path& path);

struct LessonEntry {
  std::string name, title, summary;
  std::filesystem::path path;
  std::string error;  // non-empty: the file is broken (the index says why)
};
// assets/lessons/*.json in file-name order (the teaching order), quotes.json left out.
std::vector<LessonEntry> list_lessons(const std::filesystem::path& dir);
// NAME (a stem in assets/lessons/) or a path to a lesson file.
std::filesystem::path find_lesson(const std::string& name_or_path);

}  // namespace tilesim::scenario
