// A lesson's text drawn as tokens: words wrap at spaces; a figure is one unbreakable token in its
// kind's colour with a footnote mark ([1]); a worked formula is drawn in the formula colour (one
// token when short); the "Sources" footer lists each footnote's kind and source; the glossary
// window lists the terms of assets/help/glossary.md. Also where panels register the figures
// they draw (ui.figures_drawn), for the JSON --export-dir writes beside each PNG.
#include <imgui.h>

#include <cctype>
#include <string>
#include <vector>

#include "app/core/glossary.hpp"
#include "app/panels/panels.hpp"
#include "scenario/lesson_text.hpp"

namespace tilesim::app {
namespace {

// A formula at most this long stays on one line; a longer one may wrap at its spaces.
constexpr std::size_t kUnbreakableFormula = 32;

struct Token {
  std::string text;
  Rgba color;
  bool space_before = false;
  bool glue = false;  // never starts a line (a footnote mark, punctuation after a figure)
  const scenario::Figure* figure = nullptr;
};

void add_words(std::vector<Token>& out, const std::string& s, Rgba color, bool glue_first) {
  std::size_t i = 0;
  bool first = true;
  while (i < s.size()) {
    const bool space = s[i] == ' ';
    while (i < s.size() && s[i] == ' ') ++i;
    if (i >= s.size()) break;
    std::size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    out.push_back({s.substr(i, j - i), color, space, first && !space && glue_first, nullptr});
    first = false;
    i = j;
  }
}

std::vector<Token> tokens(const std::string& text, Rgba color, const StepText& st) {
  std::vector<Token> out;
  std::vector<scenario::TextSegment> segs;
  try {
    segs = scenario::split_lesson_text(text);
  } catch (const scenario::ScenarioError&) {
    segs = {{scenario::TextPart::plain, text}};
  }
  // Whether a space precedes the next token: the previous plain text ended with one ("(" before
  // a figure glues to it).
  bool space = true;
  for (const auto& seg : segs) {
    const bool glue = !out.empty();
    if (seg.part == scenario::TextPart::plain) {
      add_words(out, seg.text, color, glue);
      space = !seg.text.empty() && seg.text.back() == ' ';
      continue;
    }
    if (seg.part == scenario::TextPart::formula) {
      if (seg.text.size() <= kUnbreakableFormula)
        out.push_back({seg.text, palette::formula, space, false, nullptr});
      else
        add_words(out, (space ? " " : "") + seg.text, palette::formula, false);
    } else {
      const scenario::Figure* fig = st.find(seg.text);
      out.push_back({fig ? fig->text : "{" + seg.text + "?}",
                     fig ? figure_color(fig->kind) : palette::l2_miss, space, false, fig});
      if (fig)
        out.push_back({"[" + std::to_string(st.footnote(seg.text)) + "]", palette::text_dim, false,
                       true, nullptr});
    }
    space = false;
  }
  // Text right after a figure or formula with no space between ("{run.time}.") sticks to it.
  for (std::size_t i = 1; i < out.size(); ++i)
    if (!out[i].space_before) out[i].glue = true;
  if (!out.empty()) out.front().space_before = false;
  return out;
}

void tooltip(const scenario::Figure& f) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  text_colored(figure_color(f.kind), (f.kind_label() + ": " + f.text).c_str());
  ImGui::TextUnformatted(f.source.c_str());
  if (!f.detail.empty()) ImGui::TextUnformatted(f.detail.c_str());
  ImGui::TextDisabled("{%s}", f.name.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// A token wider than a whole line (a quoted sentence, a long formula) is split into its words so
// it wraps instead of running past the panel's edge; a number keeps the word after it ("130.8
// ms"), so a figure still never splits between its number and its unit.
std::vector<Token> fit_to(const std::vector<Token>& toks, float width) {
  std::vector<Token> out;
  const float space = ImGui::CalcTextSize(" ").x;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    // With the glued tokens after it (its footnote mark, a full stop): they share its line.
    float run = ImGui::CalcTextSize(t.text.c_str()).x;
    for (std::size_t j = i + 1; j < toks.size() && toks[j].glue; ++j)
      run += ImGui::CalcTextSize(toks[j].text.c_str()).x + (toks[j].space_before ? space : 0);
    if (t.text.find(' ') == std::string::npos || run <= width) {
      out.push_back(t);
      continue;
    }
    std::vector<Token> words;
    add_words(words, t.text, t.color, false);
    for (std::size_t w = 0; w < words.size(); ++w) {
      words[w].figure = t.figure;
      words[w].space_before = w == 0 ? t.space_before : true;
      words[w].glue =
          w == 0 ? t.glue : std::isdigit(static_cast<unsigned char>(words[w - 1].text.back()));
      out.push_back(words[w]);
    }
  }
  return out;
}

// Draws tokens left to right, starting a new line where the next unglued token (with the glued
// ones after it) would pass the right edge.
void flow(const std::vector<Token>& all) {
  const float width = ImGui::GetContentRegionAvail().x;
  const std::vector<Token> toks = fit_to(all, width);
  const float space = ImGui::CalcTextSize(" ").x;
  float x = 0;
  bool first = true;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const auto& t = toks[i];
    const float w = ImGui::CalcTextSize(t.text.c_str()).x;
    // A token and the glued ones after it (its footnote mark, a comma) wrap together.
    float run = w;
    for (std::size_t j = i + 1; j < toks.size() && toks[j].glue; ++j)
      run += ImGui::CalcTextSize(toks[j].text.c_str()).x + (toks[j].space_before ? space : 0);
    if (!first) {
      const float gap = t.space_before ? space : 0;
      if (!t.glue && x + gap + run > width) {
        x = 0;  // a new line: the next widget starts there
      } else {
        ImGui::SameLine(0, gap);
        x += gap;
      }
    }
    text_colored(t.color, t.text.c_str());
    if (t.figure && ImGui::IsItemHovered()) tooltip(*t.figure);
    x += w;
    first = false;
  }
}

}  // namespace

Rgba figure_color(scenario::FigureKind k) {
  switch (k) {
    case scenario::FigureKind::predicted:
      return palette::figure_predicted;
    case scenario::FigureKind::measured:
      return palette::figure_measured;
    case scenario::FigureKind::quoted:
      return palette::figure_quoted;
    case scenario::FigureKind::computed:
      return palette::figure_computed;
    case scenario::FigureKind::datasheet:
      return palette::figure_datasheet;
  }
  return palette::text;
}

void figure_drawn(FrameContext& f, const scenario::Figure& fig) {
  for (const auto& x : f.ui.figures_drawn)
    if (x.name == fig.name && x.text == fig.text) return;
  f.ui.figures_drawn.push_back(fig);
}

void draw_rich_text(const std::string& label, const std::string& text, Rgba color,
                    const StepText& st) {
  std::vector<Token> toks;
  if (!label.empty()) toks.push_back({label, color, false, false, nullptr});
  for (auto& t : tokens(text, color, st)) {
    if (!label.empty() && toks.size() == 1) t.space_before = true;
    toks.push_back(std::move(t));
  }
  flow(toks);
}

void draw_sources(FrameContext& f, const StepText& st) {
  if (st.figures.empty()) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("Sources");
  help_marker(f, "lesson");
  // One line per (kind, source): "[4] [5] predicted - timed engine, H100-SXM preset, ...";
  // what differs between them (the launch order, so far or whole run) is in each tooltip.
  std::vector<bool> done(st.figures.size(), false);
  for (std::size_t i = 0; i < st.figures.size(); ++i) {
    if (done[i]) continue;
    const auto& fig = st.figures[i];
    std::string marks;
    for (std::size_t j = i; j < st.figures.size(); ++j)
      if (!done[j] && st.figures[j].kind_label() == fig.kind_label() &&
          st.figures[j].source == fig.source) {
        done[j] = true;
        marks += (marks.empty() ? "" : " ") + ("[" + std::to_string(j + 1) + "]");
      }
    std::vector<Token> toks;
    add_words(toks, marks, palette::text_dim, false);
    toks.push_back({fig.kind_label(), figure_color(fig.kind), true, false, &fig});
    add_words(toks, " - " + fig.source, palette::text_dim, false);
    flow(toks);
  }
  ImGui::PopTextWrapPos();
}

void draw_glossary(FrameContext& f) {
  if (!f.ui.show_glossary) return;
  const float fs = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(fs * 34, fs * 28), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Glossary", &f.ui.show_glossary)) {
    const auto it = f.help.find("glossary");
    if (it == f.help.end()) {
      ImGui::TextWrapped("assets/help/glossary.md is missing.");
    } else {
      static std::vector<GlossaryEntry> entries;
      static std::string parsed;
      if (parsed != it->second) entries = parse_glossary(parsed = it->second);
      char buf[128] = {};
      f.ui.glossary_filter.copy(buf, sizeof buf - 1);
      ImGui::SetNextItemWidth(fs * 14);
      if (ImGui::InputTextWithHint("##glossary_filter", "search", buf, sizeof buf))
        f.ui.glossary_filter = buf;
      ImGui::BeginChild("##glossary_terms");
      ImGui::PushTextWrapPos(0);
      for (const GlossaryEntry* e : filter_glossary(entries, f.ui.glossary_filter)) {
        ImGui::PushFont(f.fonts.title);
        text_colored(palette::highlight, e->term.c_str());
        ImGui::PopFont();
        ImGui::TextUnformatted(e->text.c_str());
        ImGui::Spacing();
      }
      ImGui::PopTextWrapPos();
      ImGui::EndChild();
    }
  }
  ImGui::End();
}

}  // namespace tilesim::app
