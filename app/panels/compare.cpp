// Compare mode: the same problem in two launch orders side by side, stepping together. Shows
// the distinct input tiles and bytes the programs launched so far touch in each order and their
// ratio — Triton's tutorial: 9 programs touch 90 tiles row-major, 54 grouped.
#include <imgui.h>

#include <string>

#include "app/core/traffic.hpp"
#include "app/panels/panels.hpp"

namespace tilesim::app {

void request_traffic(FrameContext& f);

void draw_compare(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::compare, "Compare launch orders: same problem, same step", r)) {
    center_tabs(f);
    const auto& p = f.model.problem;
    help_marker(f, "compare");
    if (!f.model.compare) {
      ImGui::TextWrapped("Choose a compare order in the controls (\"compare with\") to see two "
                         "launch orders side by side.");
      end_panel();
      return;
    }
    request_traffic(f);
    const auto stats = f.ui.compare_job.result();
    const auto& q = *f.model.compare;
    const GridView gq = make_grid_view(q, f.model.cursor, f.ui.coloring, f.model.sms());
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float table_h = lh * 4 + 8;
    const float w = (avail.x - 20) / 2, h = avail.y - table_h - lh;
    const sim::Problem* probs[2] = {&p, &q};
    const GridView* grids[2] = {&f.grid, &gq};
    for (int i = 0; i < 2; ++i) {
      const float x = pos.x + i * (w + 20);
      ImGui::SetCursorScreenPos(ImVec2(x, pos.y));
      ImGui::PushFont(f.fonts.title);
      ImGui::Text("%s", std::string(sim::to_string(probs[i]->order())).c_str());
      ImGui::PopFont();
      draw_grid_canvas(f, *probs[i], *grids[i], x, pos.y + lh, w, h, i == 0, i == 0 ? "##cmp0" : "##cmp1");
    }
    ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + lh + h + 6));
    const auto n = f.model.cursor.at().pid + 1;
    if (stats && stats->programs == n) {
      const double ratio = stats->bytes_first ? double(stats->bytes_second) / double(stats->bytes_first) : 0;
      ImGui::Text("Programs 0 .. %lld touch:", (long long)(n - 1));
      ImGui::Text("  %s: %s distinct input tiles, %s", std::string(sim::to_string(p.order())).c_str(),
                  format_count(stats->tiles_first).c_str(), format_bytes(double(stats->bytes_first)).c_str());
      ImGui::Text("  %s: %s distinct input tiles, %s", std::string(sim::to_string(q.order())).c_str(),
                  format_count(stats->tiles_second).c_str(), format_bytes(double(stats->bytes_second)).c_str());
      char buf[96];
      std::snprintf(buf, sizeof buf, "  ratio %s / %s = %.2f", std::string(sim::to_string(q.order())).c_str(),
                    std::string(sim::to_string(p.order())).c_str(), ratio);
      text_colored(palette::highlight, buf);
    } else {
      ImGui::ProgressBar(static_cast<float>(f.ui.compare_job.progress()), ImVec2(200, 0), "computing footprints");
    }
  }
  end_panel();
}

}  // namespace tilesim::app
