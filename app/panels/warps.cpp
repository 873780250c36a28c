// Warps panel: how the threads of the CUDA variants of this kernel issue their accesses.
// Global memory: sectors per request (4 = a warp reads 128 contiguous bytes, 32 = every lane
// in its own sector, as a naive transpose writes). Shared memory: bank conflicts, with the
// picture of one warp reading a tile column — 32 x 32 floats all land in one bank, 32 x 33 spread.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/panels/panels.hpp"
#include "scenario/problem_identity.hpp"

namespace tilesim::app {
namespace {

std::string per_request(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

void rows_table(FrameContext& f, const std::vector<WarpRow>& rows) {
  const bool measured = std::any_of(rows.begin(), rows.end(),
                                    [](const WarpRow& r) { return r.measured.has_value(); });
  // Figures never split or cut: their columns fit the figure and a two-line header; the
  // variant's name takes the rest and wraps.
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("##warps", 5, flags)) return;
  ImGui::TableSetupColumn("CUDA variant", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("ld sectors\nper request", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("st sectors\nper request", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("smem ld\nconflicts", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("smem st\nconflicts", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  // Figures never wrap (ImGui would break "65,011,712" after a comma); only the first column's
  // words do.
  auto cell = [](const std::string& text, Rgba colour, bool wrap = false) {
    ImGui::TableNextColumn();
    if (wrap) ImGui::PushTextWrapPos(0);
    text_colored(colour, text.c_str());
    if (wrap) ImGui::PopTextWrapPos();
  };
  for (const auto& r : rows) {
    const auto& c = r.counters;
    ImGui::TableNextRow();
    lesson_table_row(f, r.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s (%d threads)", r.name.c_str(), r.threads);
    if (lesson_row_hidden(f, r.name.c_str())) {
      for (int i = 0; i < 4; ++i) {
        ImGui::TableNextColumn();
        hidden_cell();
      }
      continue;
    }
    auto tone = [](bool bad) { return bad ? palette::l2_miss : palette::text; };
    cell(per_request(c.ld_sectors_per_request()), tone(c.ld_sectors_per_request() > 8));
    cell(per_request(c.st_sectors_per_request()), tone(c.st_sectors_per_request() > 8));
    cell(format_count(c.shared_ld_conflicts()), tone(c.shared_ld_conflicts() > 0));
    cell(format_count(c.shared_st_conflicts()), tone(c.shared_st_conflicts() > 0));
    if (const auto& m = r.measured) {
      ImGui::TableNextRow();
      cell("   measured on " + m->device, palette::highlight, true);
      cell(per_request(m->figures.ld_sectors_per_request), palette::highlight);
      cell(per_request(m->figures.st_sectors_per_request), palette::highlight);
      cell(format_count(std::int64_t(m->figures.shared_ld_conflicts)), palette::highlight);
      cell(format_count(std::int64_t(m->figures.shared_st_conflicts)), palette::highlight);
    }
  }
  ImGui::EndTable();
  if (measured) {
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [](const WarpRow& r) { return r.measured.has_value(); });
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "\"measured on\" rows: Nsight Compute on %s, %s (assets/measured); the others: the model",
        it->measured->device.c_str(), it->measured->date.c_str());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "no Nsight Compute measurement of this configuration on %s (open a measured_* scenario)",
        f.model.machine.name.c_str());
    ImGui::PopTextWrapPos();
  }
}

// 32 lanes on top, 32 banks below, a line from each lane to the bank its word lives in.
// `row_words`: the tile row's width in 4-byte words, which decides the bank of lane i.
void bank_picture(int row_words, float x, float y, float w, float h, const char* title) {
  const BankPicture b = column_read_banks(row_words);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float lh = ImGui::GetTextLineHeight();
  const std::string head = std::string(title) + ": " +
                           (b.conflicts > 0 ? std::to_string(b.wavefronts) + " wavefronts (" +
                                                  std::to_string(b.conflicts) + " conflicts)"
                                            : "1 wavefront, no conflict");
  dl->AddText(ImVec2(x, y), (b.conflicts > 0 ? palette::l2_miss : palette::l2_hit).packed(),
              head.c_str());
  // The address arithmetic: bank = word mod 32, and lane i reads word row_words * i.
  const std::string rw = std::to_string(row_words);
  const std::string math =
      "lane i reads word " + rw + " * i -> bank (" + rw + " * i) mod 32 = " +
      (row_words % sim::kSharedBanks == 0 ? std::string("0 for every lane")
       : row_words % sim::kSharedBanks == 1
           ? std::string("i")
           : "(" + std::to_string(row_words % sim::kSharedBanks) + " * i) mod 32");
  dl->AddText(ImVec2(x, y + lh), palette::text_dim.packed(), math.c_str());
  const float label_w = ImGui::CalcTextSize("banks ").x;
  const float cw = (w - label_w) / sim::kWarpSize, box = std::min(cw - 2, lh);
  const float top = y + 2 * lh + 4, bottom = y + h - box - lh - 2;
  // Bank numbers under the boxes, as many as fit.
  const int every = cw > ImGui::CalcTextSize("00 ").x ? 1 : 4;
  for (int i = 0; i < sim::kWarpSize; i += every)
    dl->AddText(ImVec2(x + label_w + i * cw, bottom + box + 1), palette::text_dim.packed(),
                std::to_string(i).c_str());
  dl->AddText(ImVec2(x, top), palette::text_dim.packed(), "lanes");
  dl->AddText(ImVec2(x, bottom), palette::text_dim.packed(), "banks");
  std::array<int, sim::kSharedBanks> load{};
  for (int lane = 0; lane < sim::kWarpSize; ++lane) ++load[b.bank_of_lane[lane]];
  for (int i = 0; i < sim::kWarpSize; ++i) {
    const float cx = x + label_w + i * cw;
    dl->AddRectFilled(ImVec2(cx, top), ImVec2(cx + box, top + box), palette::a.packed(), 2);
    const Rgba bank = load[i] > 1    ? palette::l2_miss
                      : load[i] == 1 ? palette::l2_hit
                                     : palette::matrix_bg;
    dl->AddRectFilled(ImVec2(cx, bottom), ImVec2(cx + box, bottom + box), bank.packed(), 2);
  }
  for (int lane = 0; lane < sim::kWarpSize; ++lane) {
    const float x0 = x + label_w + lane * cw + box / 2,
                x1 = x + label_w + b.bank_of_lane[lane] * cw + box / 2;
    dl->AddLine(ImVec2(x0, top + box), ImVec2(x1, bottom), palette::text.with_alpha(150).packed(),
                1.2f);
  }
}

}  // namespace

void draw_warps(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::warps, "Warps: coalescing and shared-memory bank conflicts", r)) {
    center_tabs(f);
    help_marker(f, "warps");
    const auto& p = f.model.problem;
    f.ui.warps_job.request(scenario::problem_key(p.spec()),
                           [p](std::stop_token, std::atomic<double>& pr) {
                             auto rows = warp_rows(p);
                             pr = 1;
                             return rows;
                           });
    ImGui::TextWrapped(
        "Each CUDA variant of this %s kernel (kernels/*.cu, the code the GPU tab times, not "
        "the Triton listing beside), modelled warp by warp over the whole problem. A request "
        "is one warp instruction; a sector is 32 bytes.",
        std::string(sim::to_string(p.kernel())).c_str());
    auto rows = f.ui.warps_job.current() ? f.ui.warps_job.result() : std::nullopt;
    if (rows) {
      if (f.measured) attach_measurements(*rows, *f.measured, p.spec(), f.model.machine.key);
      rows_table(f, *rows);
    } else if (const auto err = f.ui.warps_job.error(); !err.empty() && !f.ui.warps_job.pending()) {
      text_colored(palette::l2_miss, err.c_str());
    } else {
      ImGui::ProgressBar(static_cast<float>(f.ui.warps_job.progress()), ImVec2(200, 0),
                         "modelling warps");
    }
    ImGui::Spacing();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float h = std::min(avail.y / 2 - 6, ImGui::GetTextLineHeight() * 8);
    if (h > ImGui::GetTextLineHeight() * 5) {
      bank_picture(32, pos.x, pos.y, avail.x, h, "tile[32][32] floats, a warp reads one column");
      bank_picture(33, pos.x, pos.y + h + 8, avail.x, h,
                   "tile[32][33] (one word of padding per row)");
    }
  }
  end_panel();
}

}  // namespace tilesim::app
