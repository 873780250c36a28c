// Compiler panel: what Triton 3.6 would compile the listing to for the open problem, as
// sim/compiler's rules predict it — the dot instruction, the software pipeline, each tile load's
// path and width, the store, the register estimate, and a note naming the cause of every choice
// off the fast path ("B: 2-byte ld.global loads, not pipelined: N = 4100 is not a multiple of
// 16"). The lines are those `tilesim-cli run` prints (scenario/triton_choices_report.hpp).
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/panels/panels.hpp"
#include "scenario/triton_choices_report.hpp"
#include "sim/compiler/triton_choices.hpp"

namespace tilesim::app {
namespace {

constexpr const char* kBullet = "\u2022";

// The operands in their legend colours (A blue, B orange, C green), the other labels dim.
Rgba label_colour(const std::string& label) {
  if (label.rfind("A ", 0) == 0) return palette::a;
  if (label.rfind("B ", 0) == 0) return palette::b;
  if (label.rfind("C ", 0) == 0) return palette::c;
  return palette::text_dim;
}

// `label` at the left edge, `text` wrapped at spaces in a column `indent` pixels to its right
// (a figure has no scroll bar to reach the end of a cut line, and ImGui's own wrapping would
// break "wgmma.m64n128k16.f32.f16.f16" at a dot).
void labelled(const std::string& label, Rgba label_colour, const std::string& text, float indent) {
  const float x0 = ImGui::GetCursorPosX();
  text_colored(label_colour, label.c_str());
  const float x = x0 + indent;
  const auto lines = wrap_words(text, std::max(1.0f, ImGui::GetContentRegionAvail().x - indent));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i == 0)
      ImGui::SameLine(x);
    else
      ImGui::SetCursorPosX(x);
    ImGui::TextUnformatted(lines[i].c_str());
  }
}

}  // namespace

void draw_compiler(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::compiler, "Compiler: what Triton makes of this problem", r)) {
    center_tabs(f);
    help_marker(f, "compiler");
    const auto& p = f.model.problem;
    const sim::TritonChoices t = sim::triton_choices(p, f.model.machine);
    text_colored(palette::highlight, "Triton 3.6 would compile this to:");
    const std::string whose = "(predicted by tilesim's rules, on " + f.model.machine.name + ")";
    same_line_if_fits(text_width(whose.c_str()));
    ImGui::TextDisabled("%s", whose.c_str());
    const auto lines = scenario::triton_choice_lines(p, t);
    float label_w = 0;
    for (const auto& l : lines) label_w = std::max(label_w, text_width(l.label.c_str()));
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    for (const auto& l : lines) labelled(l.label, label_colour(l.label), l.text, label_w + gap);
    ImGui::Spacing();
    if (t.notes.empty()) {
      text_words("No notes: every choice here is Triton's fast path for this kernel.",
                 palette::text_dim);
    } else {
      text_words("Off the fast path, and why:", palette::text);
      const float bullet_w = text_width(kBullet) + gap / 2;
      for (const auto& n : t.notes) labelled(kBullet, palette::text_dim, n, bullet_w);
    }
    ImGui::Spacing();
    text_words(std::string("Nothing is compiled here: the rules match the load paths and widths, "
                           "dot instructions, pipeline buffers and shared layouts Triton 3.6 "
                           "chose in all 689 configurations compiled on an H100 and an H200") +
                   (t.matmul ? ", and which tf32 loops ptxas serialises in all 61 compiled for a "
                               "census; the registers are a fitted estimate"
                             : "") +
                   ". tilesim-cli run prints the same lines.",
               palette::text_dim);
  }
  end_panel();
}

}  // namespace tilesim::app
