// Lesson panel: the open lesson's step ("step 3 of 9"), its narration in the curriculum's words,
// the question and, one step later, its answer; Back / Next (keys PageUp / PageDown); the memory
// hierarchy with the tile of the current event travelling through it; and the lesson index.
// Also the highlight helpers the other panels call to outline what a step points at.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

void wrapped(const std::string& s, Rgba c) {
  ImGui::PushTextWrapPos(0);
  text_colored(c, s.c_str());
  ImGui::PopTextWrapPos();
}

// The answer to the previous step's question, the narration and the question, each as tokens
// whose figures carry footnotes; the lesson-file errors of this step; the glossary button; the
// sources footer.
void draw_step_text(FrameContext& f, LessonRun& run, int i) {
  const auto& l = run.lesson;
  const auto& s = l.steps[static_cast<std::size_t>(i)];
  if (i > 0 && l.steps[i - 1].question)
    draw_rich_text("Answer:", l.steps[i - 1].question->answer, palette::c, run.text);
  draw_rich_text("", s.narration, palette::text, run.text);
  if (s.question) {
    ImGui::Spacing();
    draw_rich_text("Question:", s.question->text, palette::b, run.text);
    ImGui::TextDisabled("(the next step answers it)");
  }
  if (!run.error.empty()) wrapped("Lesson file: " + run.error, palette::l2_miss);
  for (const auto& e : run.text.errors) wrapped("Lesson file: " + e, palette::l2_miss);
  // Bare numbers of the texts on screen, in one line (the test names each with its field).
  std::string bare;
  for (const auto& b : run.bare_numbers)
    if (b.step == i || (b.step == i - 1 && b.field == "question.answer"))
      bare += (bare.empty() ? "" : ", ") + b.field + " \"" + b.number + "\"";
  if (!bare.empty())
    wrapped("Lesson file: bare numbers at this step (" + bare +
                "): write figures {NAME}, formulas `...` or seed quotes (assets/lessons/README.md)",
            palette::l2_miss);
  if (!f.ui.figure || !run.text.figures.empty()) ImGui::Spacing();
  if (!f.ui.figure && ImGui::SmallButton("Glossary")) f.ui.show_glossary = !f.ui.show_glossary;
  draw_sources(f, run.text);
}

void draw_index(FrameContext& f, LessonRun& run) {
  for (const auto& e : run.index) {
    const bool current = e.name == run.lesson.name;
    const std::string label = (e.title.empty() ? e.name : e.title) + "##" + e.name;
    if (!e.error.empty()) {
      ImGui::TextDisabled("%s (broken)", e.name.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.error.c_str());
      continue;
    }
    ImGui::PushTextWrapPos(0);
    if (ImGui::Selectable(label.c_str(), current) && !current) {
      try {
        auto next = open_lesson(e.path.string());
        next.show_index = false;
        f.ui.lesson = std::move(next);
        ImGui::PopTextWrapPos();
        return;  // `run` is gone
      } catch (const std::exception& err) {
        run.error = err.what();
      }
    }
    ImGui::PopTextWrapPos();
    if (ImGui::IsItemHovered() && !e.summary.empty()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      ImGui::TextUnformatted(e.summary.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
}

}  // namespace

const scenario::LessonHighlight* lesson_highlight(const FrameContext& f) {
  const auto& run = f.ui.lesson;
  if (!run || run->step < 0) return nullptr;
  return &run->lesson.steps[run->step].highlight;
}

void lesson_mark(FrameContext& f, const std::string& mark) {
  if (f.ui.lesson) f.ui.lesson->drawn.insert(mark);
}

void lesson_outline(ImDrawList* dl, const ImVec2& a, const ImVec2& b) {
  const float grow = std::max(0.0f, 10.0f - std::min(b.x - a.x, b.y - a.y)) / 2 + 2;
  dl->AddRect(ImVec2(a.x - grow, a.y - grow), ImVec2(b.x + grow, b.y + grow),
              palette::lesson.packed(), 3, 0, 3.0f);
}

void lesson_table_row(FrameContext& f, const char* label) {
  const auto* h = lesson_highlight(f);
  if (!h || std::find(h->table_rows.begin(), h->table_rows.end(), label) == h->table_rows.end())
    return;
  ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, palette::lesson.with_alpha(90).packed());
  lesson_mark(f, std::string("row:") + label);
  // A figure (a slide) scrolls its panel so the row is in view; the learner scrolls by hand.
  if (f.ui.figure) ImGui::SetScrollHereY(0.5f);
}

bool lesson_hides_row(const FrameContext& f, const char* label) {
  const auto& run = f.ui.lesson;
  if (!run || run->step < 0) return false;
  const auto& hide = run->lesson.steps[run->step].hide_rows;
  return std::find(hide.begin(), hide.end(), label) != hide.end();
}

bool lesson_row_hidden(FrameContext& f, const char* label) {
  if (!lesson_hides_row(f, label)) return false;
  lesson_mark(f, std::string("hidden:") + label);
  return true;
}

void hidden_cell() {
  ImGui::TextDisabled("?");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the next steps answer this");
}

void draw_lesson(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::lesson, "Lesson", r) && f.ui.lesson) {
    LessonRun& run = *f.ui.lesson;
    const auto& l = run.lesson;
    const int n = static_cast<int>(l.steps.size());
    const int i = std::clamp(run.step, 0, n - 1);
    const auto& s = l.steps[i];
    // The step's figures, from the sessions the panels draw (so the narration equals the table).
    AppFigureContext figures;
    make_figure_context(f.model, f.frame, f.frame_compare, figures);
    run.text = resolve_step_text(l, i, figures.ctx);
    ImGui::PushFont(f.fonts.title);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(run.text.shown(l.title).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    // The step's title on its own line, wrapped: at slide size it is wider than the column.
    ImGui::TextDisabled("step %d of %d", i + 1, n);
    if (!s.title.empty()) text_words(run.text.shown(s.title), palette::highlight);
    // Back / Next, and PageUp / PageDown anywhere in the window. A figure (a slide, a recording)
    // leaves the controls out: nobody can press them on a projected slide.
    if (!f.ui.figure) {
      const bool typing = ImGui::GetIO().WantTextInput;
      if (ImGui::Button("< Back") ||
          (!typing && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))))
        run.requested = std::max(0, i - 1);
      ImGui::SameLine();
      if (ImGui::Button("Next >") ||
          (!typing && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))))
        run.requested = std::min(n - 1, i + 1);
      // Each further control goes to the next line where the column has no room for it.
      same_line_if_fits(text_width("Replay") + 2 * ImGui::GetStyle().FramePadding.x);
      if (ImGui::Button("Replay")) run.step = -1;  // re-applies the step, animation included
      same_line_if_fits(text_width("PgUp / PgDn"));
      ImGui::TextDisabled("PgUp / PgDn");
    }
    ImGui::Separator();
    draw_step_text(f, run, i);
    ImGui::Spacing();
    ImGui::Separator();
    wrapped("The event now, through the memory hierarchy:", palette::text_dim);
    draw_hierarchy_strip(f, ImGui::GetContentRegionAvail().x);
    if (!f.ui.figure) {
      float slow = static_cast<float>(f.ui.slow_motion);
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      if (ImGui::SliderFloat("slow motion", &slow, 1.0f, 8.0f, "x%.1f")) f.ui.slow_motion = slow;
    }
    ImGui::Separator();
    if (!f.ui.figure)
      ImGui::Checkbox("All lessons", &run.show_index);
    else if (run.show_index)
      ImGui::TextDisabled("All lessons");
    if (run.show_index) {
      const float button_h = ImGui::GetFrameHeightWithSpacing() + 4;
      ImGui::BeginChild("##lesson_index", ImVec2(0, ImGui::GetContentRegionAvail().y - button_h));
      draw_index(f, run);  // may open another lesson: `run` is not used below
      ImGui::EndChild();
    }
    if (f.ui.lesson && !f.ui.figure && ImGui::Button("Leave the lesson (free play)"))
      f.ui.lesson.reset();
  }
  end_panel();
  if (f.ui.lesson) draw_glossary(f);
}

}  // namespace tilesim::app
