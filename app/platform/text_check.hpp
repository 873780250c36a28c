// Cut text: glyphs of the last rendered frame that their clip rectangle (a panel's edge, a table
// cell) trims or leaves partly outside, found in ImGui's draw data without a GPU. Text that a
// scrollbar can bring into view is not cut; text past a panel's side edge is.
#pragma once

#include <string>
#include <vector>

struct ImDrawData;

namespace tilesim::app {

struct CutText {
  std::string panel;  // the ImGui window ("Lesson", "Compare launch orders: ...")
  std::string text;   // the line of text the cut glyph belongs to
};

// The cut text of `data` (ImGui::GetDrawData() after ImGui::Render), one entry per line.
std::vector<CutText> find_cut_text(const ImDrawData* data);
// Every line of text `data` draws (a table cell's line apart from its neighbours'), in drawing
// order: what --text-out writes, so a test can read the words a figure shows.
std::vector<CutText> find_text_lines(const ImDrawData* data);

}  // namespace tilesim::app
