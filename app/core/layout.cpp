// Panel placement: controls on the left, launch grid (or compare/memory/sweep) and the matrix
// views in the middle, code and broadcast inspector on the right.
#include "app/core/layout.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::app {
namespace {
constexpr std::array<std::string_view, kPanelCount> kNames = {
    "controls", "launch_grid", "matrices", "broadcast", "code", "memory",  "compare",
    "sweep",    "warps",       "gpu",      "lesson",    "sms",  "compiler"};
}

std::string_view panel_name(PanelId id) {
  return kNames[static_cast<int>(id)];
}

std::optional<PanelId> parse_panel(std::string_view name) {
  std::string n(name);
  std::replace(n.begin(), n.end(), '-', '_');
  for (int i = 0; i < kPanelCount; ++i)
    if (kNames[i] == n) return static_cast<PanelId>(i);
  return std::nullopt;
}

bool is_center_panel(PanelId id) {
  return id == PanelId::launch_grid || id == PanelId::compare || id == PanelId::memory ||
         id == PanelId::sms || id == PanelId::sweep || id == PanelId::warps || id == PanelId::gpu ||
         id == PanelId::compiler;
}

std::string panel_names() {
  std::string out;
  for (auto n : kNames) out += (out.empty() ? "" : " | ") + std::string(n);
  return out;
}

bool uses_slide_layout(float width, float scale, float font_scale) {
  return width / std::max(0.25f, scale * font_scale) < kSlideLayoutWidth;
}

Layout compute_layout(float width, float height, std::optional<PanelId> focus, PanelId center_tab,
                      float scale, bool lesson, float font_scale, SlideNeeds needs) {
  Layout l;
  auto set = [&](PanelId id, Rect r) {
    l.rects[static_cast<int>(id)] = r;
    l.visible[static_cast<int>(id)] = true;
  };
  // A focused panel is laid out where the normal layout puts it, at its natural size (a figure
  // of one panel is cropped from the window, never stretched over it): a centre panel takes the
  // centre tab, the lesson and controls panels the left column.
  if (focus) {
    if (is_center_panel(*focus)) center_tab = *focus;
    if (*focus == PanelId::lesson) lesson = true;
    if (*focus == PanelId::controls) lesson = false;
  }
  if (uses_slide_layout(width, scale, font_scale)) {
    const float left = std::floor(width * 0.3f);
    const float right = needs.code || needs.broadcast ? std::floor(width * 0.27f) : 0.0f;
    const float mid = width - left - right;
    const float top = std::floor(height * 0.56f);
    set(lesson ? PanelId::lesson : PanelId::controls, {0, 0, left, height});
    set(center_tab, {left, 0, mid, top});
    set(PanelId::matrices, {left, top, mid, height - top});
    const float code_h = needs.code && needs.broadcast ? std::floor(height * 0.5f)
                         : needs.code                  ? height
                                                       : 0.0f;
    if (needs.code) set(PanelId::code, {left + mid, 0, right, code_h});
    if (needs.broadcast) set(PanelId::broadcast, {left + mid, code_h, right, height - code_h});
    return l;
  }
  const float left = std::clamp(300.0f * scale, width * 0.16f, width * 0.3f);
  const float right = std::clamp(width * 0.32f, 260.0f * scale, width * 0.4f);
  const float mid = std::max(1.0f, width - left - right);
  const float top = std::floor(height * 0.48f);
  set(lesson ? PanelId::lesson : PanelId::controls, {0, 0, left, height});
  set(center_tab, {left, 0, mid, top});
  set(PanelId::matrices, {left, top, mid, height - top});
  const float code_h = std::floor(height * 0.5f);
  set(PanelId::code, {left + mid, 0, width - left - mid, code_h});
  set(PanelId::broadcast, {left + mid, code_h, width - left - mid, height - code_h});
  return l;
}

}  // namespace tilesim::app
