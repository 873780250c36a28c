// GPU panel (placeholder until the GPU view lands).
#include <imgui.h>

#include "app/panels/panels.hpp"

namespace tilesim::app {
void draw_gpu(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::gpu, "GPU", r)) center_tabs(f);
  end_panel();
}
}  // namespace tilesim::app
