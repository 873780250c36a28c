// The text of a lesson (titles, narration, questions, answers) as segments: plain words, figures
// `{NAME}` the app fills from the engine, a measurement or a seed quote, and worked formulas in
// backticks whose equalities must hold. Teaches nothing itself: it keeps every number on a slide
// traceable to its source (assets/lessons/README.md, "Figures: every number has a source").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/lesson.hpp"

namespace tilesim::scenario {

enum class TextPart { plain, figure, formula };
struct TextSegment {
  TextPart part = TextPart::plain;
  std::string text;  // plain: as written; figure: the name inside the braces; formula: no ticks
  bool operator==(const TextSegment&) const = default;
};

// Splits `s` into segments. Throws ScenarioError on an unbalanced `{`, `}` or backtick (the
// message names the character's offset).
std::vector<TextSegment> split_lesson_text(std::string_view s);

// The digit runs of plain text that are neither part of a name (a word that starts with a letter
// and holds digits: H100, fp16, L2, sm_90, tl.float16) nor `seed NNN`: "1.67", "8192" of
// "8192^3", "2" of "2x".
std::vector<std::string> bare_numbers(std::string_view plain);

// Why a figure name cannot be a figure (unknown namespace, metric, side, field or filter), or
// nullopt when its form is valid. Whether it resolves on a step is lesson_figures.hpp's business.
std::optional<std::string> figure_name_error(std::string_view name);

// Evaluates a worked formula: every `=`-side made only of numbers, operators (+ - * / // % ^ and
// a spaced x), parentheses and cdiv / min / max must be equal; sides holding names are skipped.
// A lone decimal literal is compared at the precision written (574 / 64 = 8.97 holds). Returns
// why it fails ("2 // 3 = 1: 2 // 3 is 0, not 1"), or nullopt when it holds.
std::optional<std::string> formula_error(std::string_view formula);

// Refusals of one text field at load: unbalanced braces or backticks, an invalid figure name or
// a false formula (lesson.cpp calls it for every text field; empty: the text is fine).
std::vector<std::string> text_errors(std::string_view s);

// A bare number in a lesson: which step (0-based; -1 for the lesson's title or summary), which
// field and the number, with the file's line of that step.
struct BareNumber {
  int step = -1;
  std::string field;  // "narration", "title", "question.text", "question.answer"
  std::string number;
  int line = 0;
  std::string message() const;  // "steps[2].narration (line 31): bare number \"1.67\" ..."
};
// Every bare number in the lesson's title, step titles, narrations, questions and answers.
// Not refused at load (a teacher's draft may hold some); the app shows them as lesson-file
// errors and LessonFigures.* fails on them.
std::vector<BareNumber> lesson_bare_numbers(const Lesson& l);

// The figure names a text uses, in order (duplicates kept once).
std::vector<std::string> figure_names(std::string_view s);
// Every text field of a step, with its field name: title, narration, question.text and the
// answer (shown at the next step, but written here).
std::vector<std::pair<std::string, const std::string*>> step_texts(const LessonStep& s);

}  // namespace tilesim::scenario
