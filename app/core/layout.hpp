// Layout maths: where each panel sits in a window of a given size. ImGui 1.86 has no docking,
// so the app places fixed windows itself, recomputed every frame so they follow resizes.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace tilesim::app {

enum class PanelId {
  controls,
  launch_grid,
  matrices,
  broadcast,
  code,
  memory,
  compare,
  sweep,
  warps,
  gpu,
  lesson,
  sms,      // the SM timeline (Gantt strip over simulated time)
  compiler  // what Triton's compiler makes of the problem (sim/compiler's rules)
};
inline constexpr int kPanelCount = 13;
std::string_view panel_name(PanelId id);                    // "launch_grid"
std::optional<PanelId> parse_panel(std::string_view name);  // also accepts "launch-grid"
std::string panel_names();                                  // "controls | launch_grid | ..."
// The panels that share the centre-top region (a tab bar picks one).
bool is_center_panel(PanelId id);

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

// Where each panel goes. The centre-top region is shared by launch grid, compare, memory, SMs,
// sweep, warps, GPU and compiler (a tab bar picks one); `visible` says which are drawn.
struct Layout {
  std::array<Rect, kPanelCount> rects{};
  std::array<bool, kPanelCount> visible{};
  const Rect& rect(PanelId id) const { return rects[static_cast<int>(id)]; }
  bool is_visible(PanelId id) const { return visible[static_cast<int>(id)]; }
};

// Which of the right column's panels a slide must keep (a lesson step that points at code lines
// or broadcast lanes); the others give their room to the launch grid and the matrices.
struct SlideNeeds {
  bool code = true;
  bool broadcast = true;
};

// The slide layout is used when the text is large for the window: fewer than
// kSlideLayoutWidth logical pixels of 1x text across (--scale 2 --font-scale 1.5 at 1920 x 1080
// has 1280; the 1600 x 900 default at --scale 2 has 1600 and keeps the full layout).
inline constexpr float kSlideLayoutWidth = 1400;
bool uses_slide_layout(float width, float scale, float font_scale);

// `focus`: the panel a figure shows (--panel): laid out where and as large as the normal layout
// at this window size puts it (its centre tab or column is made to show it), so the figure is
// that rectangle cropped from the window. `center_tab`: which of launch grid / compare / memory
// / sweep holds the shared region. `scale`: UI scale (2 for slides).
// `lesson`: a lesson is open, its panel takes the controls' column. `font_scale` and `needs`:
// with large text (uses_slide_layout) the lesson or controls column takes 30 % of the width, the
// centre panel and the matrices the rest, and code / broadcast a right column only when needed.
Layout compute_layout(float width, float height, std::optional<PanelId> focus, PanelId center_tab,
                      float scale = 1.0f, bool lesson = false, float font_scale = 1.0f,
                      SlideNeeds needs = {});

}  // namespace tilesim::app
