// Helpers every panel shares: fixed-position windows, help markers, hatching for masked-off
// lanes, the colour legend, number formatting, and the help text loaded from assets/help/.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "app/panels/panels.hpp"
#include "scenario/scenario.hpp"
#include "sim/base/format.hpp"

namespace tilesim::app {

HelpText load_help() {
  HelpText h;
  std::error_code ec;
  const auto dir = scenario::assets_dir() / "help";
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".md") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.rfind("# ", 0) == 0) text.erase(0, text.find('\n') + 1);  // drop the title line
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    h[e.path().stem().string()] = text;
  }
  return h;
}

bool begin_panel(FrameContext& f, PanelId id, const char* title, const Rect& r) {
  (void)f;
  (void)id;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  // A title too wide for a narrow panel (slides) keeps its words before the colon; the window's
  // identity ("###" and the full title) stays the same either way.
  std::string shown = title;
  const float room = r.w - 2 * ImGui::GetStyle().FramePadding.x - 2;
  if (ImGui::CalcTextSize(title).x > room) shown = shown.substr(0, shown.find(':'));
  return ImGui::Begin((shown + "###" + title).c_str(), nullptr, flags);
}

void end_panel() {
  ImGui::End();
}

void help_marker(FrameContext& f, const std::string& key) {
  const auto it = f.help.find(key);
  if (it == f.help.end() || f.ui.figure) return;
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(it->second.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void same_line_if_fits(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float text_width(const char* text) {
  return ImGui::CalcTextSize(text).x;
}

std::vector<std::string> wrap_words(const std::string& text, float width) {
  const float space = text_width(" ");
  std::vector<std::string> lines;
  std::string line;
  float line_w = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string word = text.substr(at, end - at);
    const float w = text_width(word.c_str());
    if (!line.empty() && line_w + space + w > width) {
      lines.push_back(line);
      line.clear();
      line_w = 0;
    }
    if (!line.empty()) {
      line += ' ';
      line_w += space;
    }
    line += word;
    line_w += w;
    at = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

void text_words(const std::string& text, Rgba colour) {
  const Rgba c = readable_on(colour, palette::panel);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, 1.f));
  for (const auto& line : wrap_words(text, std::max(1.0f, ImGui::GetContentRegionAvail().x)))
    ImGui::TextUnformatted(line.c_str());
  ImGui::PopStyleColor();
}

bool slide_layout(const FrameContext& f) {
  return uses_slide_layout(ImGui::GetIO().DisplaySize.x, f.ui.scale, f.ui.font_scale);
}

void center_tabs(FrameContext& f) {
  // A slide shows the tab's panel, not the buttons that switch it.
  if (f.ui.focus || (f.ui.figure && slide_layout(f))) return;
  static constexpr PanelId tabs[] = {PanelId::launch_grid, PanelId::compare, PanelId::memory,
                                     PanelId::sms,         PanelId::sweep,   PanelId::warps,
                                     PanelId::gpu,         PanelId::compiler};
  static constexpr const char* names[] = {"Launch grid", "Compare orders", "Memory", "SMs",
                                          "Sweep",       "Warps",          "GPU",    "Compiler"};
  static_assert(std::size(tabs) == std::size(names));
  for (int i = 0; i < static_cast<int>(std::size(tabs)); ++i) {
    // A tab that does not fit goes to the next line (slides: large text in a narrow panel).
    if (i) same_line_if_fits(text_width(names[i]) + 2 * ImGui::GetStyle().FramePadding.x);
    const bool on = f.ui.center_tab == tabs[i];
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(names[i])) f.ui.center_tab = tabs[i];
    if (on) ImGui::PopStyleColor();
  }
}

void draw_hatch(ImDrawList* dl, const ImVec2& a, const ImVec2& b, Rgba color, float spacing) {
  dl->PushClipRect(a, b, true);
  const float h = b.y - a.y;
  const int max_lines = 400;  // a hatch is a hint, not a texture
  spacing = std::max(spacing, (b.x - a.x + h) / max_lines);
  for (float x = a.x - h; x < b.x; x += spacing)
    dl->AddLine(ImVec2(x, b.y), ImVec2(x + h, a.y), color.packed(), 1.0f);
  dl->PopClipRect();
}

void text_colored(Rgba c, const char* text) {
  c = readable_on(c, palette::panel);
  ImGui::TextColored(ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f), "%s", text);
}

static void swatch(Rgba c, const char* label, bool hatch = false) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float s = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  if (hatch) {
    dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), palette::matrix_bg.packed());
    draw_hatch(dl, p, ImVec2(p.x + s, p.y + s), c, 4);
    dl->AddRect(p, ImVec2(p.x + s, p.y + s), c.packed());
  } else {
    dl->AddRectFilled(p, ImVec2(p.x + s, p.y + s), c.packed(), 2);
  }
  ImGui::Dummy(ImVec2(s, s));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

void draw_legend(FrameContext& f, bool with_l2) {
  const bool mm = f.model.problem.kernel() == sim::Kernel::matmul;
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 2;
  bool first = true;
  // A swatch and its label; the line wraps before an item rather than cutting it at the edge.
  auto item = [&](Rgba c, const char* label, bool hatch) {
    const float need =
        ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x;
    if (!first) {
      ImGui::SameLine(0, spacing);
      if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
    }
    first = false;
    swatch(c, label, hatch);
  };
  item(palette::a, mm ? "A" : "in", false);
  if (mm) item(palette::b, "B", false);
  // Stored tiles are filled in C's colour: one swatch says both.
  item(palette::c, mm ? "C / stored" : "out / stored", false);
  item(palette::mask_off, "masked off", true);
  // The tile states, from the one table the panels colour tiles by.
  for (const palette::TileState s : palette::kTileStates) {
    if (s == palette::TileState::stored) continue;  // the C swatch above
    if (!with_l2 && (s == palette::TileState::l2_hit || s == palette::TileState::l2_miss)) continue;
    item(palette::tile_state_color(s), palette::tile_state_label(s), false);
  }
  help_marker(f, "legend");
}

bool engine_status_line(FrameContext& f) {
  const auto& e = *f.model.engine;
  switch (e.phase()) {
    case EnginePhase::building: {
      ImGui::ProgressBar(static_cast<float>(e.progress()), ImVec2(ImGui::GetFontSize() * 9, 0));
      ImGui::SameLine();
      ImGui::TextUnformatted("replaying the timeline");
      ImGui::SameLine();
      if (ImGui::SmallButton("Cancel")) f.model.engine->cancel();
      return f.frame != nullptr;
    }
    case EnginePhase::counters_only:
      ImGui::PushTextWrapPos(0);
      text_colored(palette::b, ("Counters only (no stepping): " + e.message()).c_str());
      ImGui::PopTextWrapPos();
      return f.frame != nullptr;
    case EnginePhase::failed:
      ImGui::PushTextWrapPos(0);
      text_colored(palette::l2_miss, ("No timeline: " + e.message()).c_str());
      ImGui::PopTextWrapPos();
      return false;
    default:
      return f.frame != nullptr;
  }
}

// One text per figure kind for the app, the CLI and lesson figures (sim/base/format.hpp); the
// app's join number and unit with a no-break space (U+00A0): no wrapping, ImGui's or
// text_words', puts "45.7" at the end of one line and "%" at the start of the next.
namespace {
constexpr const char* kNbsp = "\u00a0";
std::string no_break(std::string s) {
  for (std::size_t at = s.find(' '); at != std::string::npos; at = s.find(' ', at))
    s.replace(at, 1, kNbsp);
  return s;
}
}  // namespace

std::string format_percent(double fraction) {
  return no_break(sim::format_percent(fraction));
}
std::string format_seconds(double s) {
  return no_break(sim::format_seconds(s));
}
std::string format_count(std::int64_t n) {
  return sim::format_count(n);
}

std::string format_bytes(double bytes) {
  return no_break(sim::format_bytes(bytes));
}

Rgba class_color(std::int64_t cls) {
  return palette::classes[((cls % palette::class_count) + palette::class_count) %
                          palette::class_count];
}

Rgba operand_color(sim::Operand op) {
  switch (op) {
    case sim::Operand::a:
      return palette::a;
    case sim::Operand::b:
      return palette::b;
    case sim::Operand::c:
      return palette::c;
  }
  return palette::a;
}

void draw_panel(FrameContext& f, PanelId id, const Rect& r) {
  switch (id) {
    case PanelId::controls:
      draw_controls(f, r);
      break;
    case PanelId::launch_grid:
      draw_launch_grid(f, r);
      break;
    case PanelId::matrices:
      draw_matrices(f, r);
      break;
    case PanelId::broadcast:
      draw_broadcast(f, r);
      break;
    case PanelId::code:
      draw_code(f, r);
      break;
    case PanelId::memory:
      draw_memory(f, r);
      break;
    case PanelId::sms:
      draw_sms(f, r);
      break;
    case PanelId::compare:
      draw_compare(f, r);
      break;
    case PanelId::sweep:
      draw_sweep(f, r);
      break;
    case PanelId::warps:
      draw_warps(f, r);
      break;
    case PanelId::gpu:
      draw_gpu(f, r);
      break;
    case PanelId::compiler:
      draw_compiler(f, r);
      break;
    case PanelId::lesson:
      draw_lesson(f, r);
      break;
  }
}

}  // namespace tilesim::app
