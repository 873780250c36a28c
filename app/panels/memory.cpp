// Memory hierarchy panel, in the spirit of Nsight Compute's memory chart: DRAM -> L2 -> shared
// memory -> registers with the bytes moved by the programs launched so far. Until the engine's
// L2 model lands (issue 3) it shows what is exact without one: bytes requested by the loads and
// the distinct bytes they touch, so the best hit rate any L2 could reach.
#include <imgui.h>

#include <string>

#include "app/core/traffic.hpp"
#include "app/panels/panels.hpp"

namespace tilesim::app {

// Programs counted "so far": those started up to and including the cursor's.
static std::int64_t programs_so_far(const AppModel& m) { return m.cursor.at().pid + 1; }

void request_traffic(FrameContext& f) {
  const auto n = programs_so_far(f.model);
  const auto& p = f.model.problem;
  const auto second = f.model.scenario.compare_order;
  f.ui.compare_job.request(traffic_key(p.spec(), second, n),
                           [p, second, n](std::stop_token st, std::atomic<double>& prog) {
                             return compute_traffic(p, second, n, st, prog);
                           });
}

static void box(ImDrawList* dl, float x, float y, float w, float h, const char* title,
                const std::string& line1, const std::string& line2, Rgba accent) {
  dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), Rgba{44, 48, 58}.packed(), 6);
  dl->AddRect(ImVec2(x, y), ImVec2(x + w, y + h), accent.packed(), 6, 0, 2);
  const float lh = ImGui::GetTextLineHeight();
  dl->AddText(ImVec2(x + 10, y + 8), palette::text.packed(), title);
  dl->AddText(ImVec2(x + 10, y + 12 + lh), palette::text_dim.packed(), line1.c_str());
  dl->AddText(ImVec2(x + 10, y + 14 + 2 * lh), palette::text_dim.packed(), line2.c_str());
}

static void arrow(ImDrawList* dl, float x0, float x1, float y, const std::string& label, Rgba c) {
  dl->AddLine(ImVec2(x0, y), ImVec2(x1 - 8, y), c.packed(), 3);
  dl->AddTriangleFilled(ImVec2(x1, y), ImVec2(x1 - 10, y - 6), ImVec2(x1 - 10, y + 6), c.packed());
  const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
  dl->AddText(ImVec2((x0 + x1 - ts.x) / 2, y - ts.y - 4), palette::text.packed(), label.c_str());
}

void draw_memory(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::memory, "Memory hierarchy: bytes moved so far", r)) {
    center_tabs(f);
    request_traffic(f);
    const auto& p = f.model.problem;
    const auto n = programs_so_far(f.model);
    ImGui::Text("Programs 0 .. %lld launched (cursor at pid %lld)", (long long)(n - 1),
                (long long)f.model.cursor.at().pid);
    help_marker(f, "memory");
    const auto stats = f.ui.compare_job.result();
    if (f.ui.compare_job.pending()) {
      ImGui::SameLine();
      ImGui::ProgressBar(static_cast<float>(f.ui.compare_job.progress()), ImVec2(160, 0), "computing");
    }
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float gap = std::max(60.0f, avail.x * 0.07f);
    const float bw = (avail.x - 3 * gap) / 4;
    const float bh = ImGui::GetTextLineHeight() * 3 + 24;
    const float y = pos.y + ImGui::GetTextLineHeight() * 2 + 10;
    const std::string requested = stats ? format_bytes(double(stats->requested_bytes)) : "…";
    const std::string distinct = stats ? format_bytes(double(stats->bytes_first)) : "…";
    box(dl, pos.x, y, bw, bh, "DRAM (HBM)", "reads >= " + distinct, "distinct input bytes", palette::l2_miss);
    box(dl, pos.x + (bw + gap), y, bw, bh, "L2 cache", "hit rate <= " +
        (stats && stats->requested_bytes ? std::to_string(static_cast<int>(100.0 * (1.0 - double(stats->bytes_first) / double(stats->requested_bytes)))) + " %" : std::string("…")),
        "(an L2 that never evicts)", palette::l2_hit);
    box(dl, pos.x + 2 * (bw + gap), y, bw, bh, "shared memory", std::to_string(p.spec().stages) + " stages per program", "tiles staged per K step", palette::a);
    box(dl, pos.x + 3 * (bw + gap), y, bw, bh, "registers", p.kernel() == sim::Kernel::matmul ? "acc: BLOCK_M x BLOCK_N" : "one tile", "fp32 accumulator", palette::c);
    const float ay = y + bh / 2;
    arrow(dl, pos.x + bw, pos.x + bw + gap, ay, distinct, palette::l2_miss);
    arrow(dl, pos.x + 2 * bw + gap, pos.x + 2 * (bw + gap), ay, requested, palette::l2_hit);
    arrow(dl, pos.x + 3 * bw + 2 * gap, pos.x + 3 * (bw + gap), ay, requested, palette::a);
    ImGui::SetCursorScreenPos(ImVec2(pos.x, y + bh + 16));
    if (stats) {
      ImGui::Text("Loads of these %lld programs request %s; they touch %s of distinct input "
                  "(%s tiles).",
                  (long long)stats->programs, requested.c_str(), distinct.c_str(),
                  format_count(stats->tiles_first).c_str());
      ImGui::Text("Compulsory traffic of the whole problem: %s.",
                  format_bytes(p.compulsory_bytes()).c_str());
    }
    ImGui::Spacing();
    text_colored(palette::text_dim,
                 "Not yet: L2 hits/misses, hit rate over time and L2 residency need the engine's "
                 "L2 model (issue 3).");
  }
  end_panel();
}

}  // namespace tilesim::app
