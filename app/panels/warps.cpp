// Warps panel (placeholder until the warp view lands).
#include <imgui.h>

#include "app/panels/panels.hpp"

namespace tilesim::app {
void draw_warps(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::warps, "Warps", r)) center_tabs(f);
  end_panel();
}
}  // namespace tilesim::app
