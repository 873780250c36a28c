// Broadcast inspector: seed 000's pictures, live. For the program and step at the cursor it shows
// offs_m[:, None] down the side, offs_k[None, :] across the top, the offsets their broadcast sum
// builds (an addition table with real numbers) and the mask as T/F. Big blocks show a corner.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/core/broadcast_view.hpp"
#include "app/panels/panels.hpp"

namespace tilesim::app {
namespace {

struct GridGeom {
  float x = 0, y = 0, head_w = 0, cell_w = 0, cell_h = 0;
};

constexpr const char* kVDots = "\x01v";  // drawn as three dots down
constexpr const char* kDDots = "\x01d";  // drawn as three dots diagonally

void cell(ImDrawList* dl, float x, float y, float w, float h, const std::string& s, Rgba bg,
          Rgba fg, bool hatch = false) {
  const ImVec2 a(x + 1, y + 1), b(x + w - 1, y + h - 1);
  dl->AddRectFilled(a, b, bg.packed(), 2);
  if (hatch) draw_hatch(dl, a, b, palette::mask_off.with_alpha(150), 5);
  if (s == kVDots || s == kDDots) {
    const float cx = x + w / 2, cy = y + h / 2, d = h * 0.22f;
    for (int i = -1; i <= 1; ++i)
      dl->AddCircleFilled(ImVec2(s == kDDots ? cx + i * d : cx, cy + i * d), 1.6f, fg.packed());
    return;
  }
  const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
  dl->AddText(ImVec2(x + (w - ts.x) / 2, y + (h - ts.y) / 2), fg.packed(), s.c_str());
}

// One table: header column (row lanes), header row (col lanes), body. mask=false: offsets.
float draw_table(const BroadcastView& v, bool mask, float x, float y, float cell_w, float head_w,
                 float cell_h, Rgba opc) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto& a = v.access;
  const Rgba head_bg = palette::header_bg, body_bg = opc.with_alpha(70), off_bg{52, 52, 58};
  // Header row: offs_k values (times stride for offsets; validity for the mask).
  for (std::size_t j = 0; j < v.cols.size(); ++j) {
    const int c = v.cols[j];
    std::string s = c < 0  ? "\xE2\x80\xA6"
                    : mask ? (a.col_valid[c] ? "T" : "F")
                           : std::to_string(a.col_index[c] * a.stride_col);
    const bool f = mask && c >= 0 && !a.col_valid[c];
    cell(dl, x + head_w + j * cell_w, y, cell_w, cell_h, s,
         f ? palette::mask_false.with_alpha(150) : head_bg, palette::text);
  }
  for (std::size_t i = 0; i < v.rows.size(); ++i) {
    const int r = v.rows[i];
    const float yy = y + (i + 1) * cell_h + 4;
    std::string s = r < 0  ? kVDots
                    : mask ? (a.row_valid[r] ? "T" : "F")
                           : std::to_string(a.row_index[r] * a.stride_row);
    const bool f = mask && r >= 0 && !a.row_valid[r];
    cell(dl, x, yy, head_w - 4, cell_h, s, f ? palette::mask_false.with_alpha(150) : head_bg,
         palette::text);
    for (std::size_t j = 0; j < v.cols.size(); ++j) {
      const int c = v.cols[j];
      const float xx = x + head_w + j * cell_w;
      if (r < 0 || c < 0) {
        cell(dl, xx, yy, cell_w, cell_h,
             r < 0 && c < 0 ? kDDots
             : r < 0        ? kVDots
                            : "\xE2\x80\xA6",
             palette::cell_dim, palette::text_dim);
        continue;
      }
      const bool on = v.valid(r, c);
      if (mask)
        cell(dl, xx, yy, cell_w, cell_h, on ? "T" : "F",
             on ? body_bg : palette::mask_false.with_alpha(170), palette::text, !on);
      else
        cell(dl, xx, yy, cell_w, cell_h, std::to_string(v.offset(r, c)), on ? body_bg : off_bg,
             on ? palette::text : palette::text_dim, !on);
    }
  }
  return y + (v.rows.size() + 1) * cell_h + 4;
}

}  // namespace

void draw_broadcast(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::broadcast, "Broadcast inspector: offsets and mask of this step", r)) {
    const auto& p = f.model.problem;
    const auto at = f.at;
    ImGui::PushFont(f.fonts.mono);
    const float cell_h = ImGui::GetTextLineHeight() + 6;
    const ImVec2 avail0 = ImGui::GetContentRegionAvail();
    const bool side_by_side = avail0.x > avail0.y * 2.2f;
    // Fit as many lanes as the panel holds: widest offset decides the cell width.
    const KernelFileState* kf = f.model.kernel_file ? &*f.model.kernel_file : nullptr;
    BroadcastView probe = make_broadcast_view(p, at, 4, 4, kf, f.model.playing);
    if (!probe.available) {
      ImGui::PopFont();
      ImGui::TextUnformatted("This step touches no memory.");
      end_panel();
      return;
    }
    std::int64_t widest = 0;
    for (int i : {0, probe.access.rows() - 1})
      for (int j : {0, probe.access.cols() - 1}) widest = std::max(widest, probe.offset(i, j));
    const float cell_w = ImGui::CalcTextSize(std::to_string(widest).c_str()).x + 12;
    const float head_w = cell_w + 6;
    const float table_w = side_by_side ? (avail0.x - 24) / 2 : avail0.x;
    const float text_h = ImGui::GetTextLineHeightWithSpacing();
    // Two lines more than the tables: the index vectors and the broadcast of their shapes.
    const float table_h = side_by_side ? avail0.y - 7 * text_h : (avail0.y - 9 * text_h) / 2;
    const int max_cols = std::clamp(static_cast<int>((table_w - head_w) / cell_w), 3, 16);
    const int max_rows = std::clamp(static_cast<int>(table_h / cell_h) - 1, 3, 16);
    const BroadcastView v = make_broadcast_view(p, at, max_rows, max_cols, kf, f.model.playing);
    ImGui::PopFont();

    const Rgba opc = operand_color(v.access.span.operand);
    ImGui::PushFont(f.fonts.mono);
    ImGui::PushTextWrapPos(0);
    text_colored(palette::highlight, v.step_label.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    help_marker(f, "broadcast");
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s is %d x %d lanes; %lld of %lld on%s", v.access.matrix_name.c_str(),
                        v.access.rows(), v.access.cols(), (long long)v.lanes_on, (long long)v.lanes,
                        v.from_file       ? ("; evaluated from " + v.file_line).c_str()
                        : v.file_deferred ? "; the file's own values when paused"
                                          : "");
    ImGui::PopTextWrapPos();

    const auto& a = v.access;
    // The vectors themselves, then how broadcasting makes a tile of them: a column (R, 1) plus
    // a row (1, C) is an (R, C) block, the shape of every table below.
    ImGui::PushFont(f.fonts.mono);
    const auto vector_text = [](const std::string& name, const std::vector<std::int64_t>& idx) {
      std::string t = name + " = [" + std::to_string(idx.front());
      if (idx.size() > 1) t += ", " + std::to_string(idx[1]);
      if (idx.size() > 3) t += ", ...";
      if (idx.size() > 2) t += ", " + std::to_string(idx.back());
      return t + "]";
    };
    ImGui::TextWrapped("%s  %s", vector_text(a.row_expr, a.row_index).c_str(),
                       vector_text(a.col_expr, a.col_index).c_str());
    ImGui::TextWrapped("%s[:, None] (%d, 1) + %s[None, :] (1, %d) -> (%d, %d)", a.row_expr.c_str(),
                       a.rows(), a.col_expr.c_str(), a.cols(), a.rows(), a.cols());
    ImGui::PopFont();
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    // A table's two title lines, wrapped to `w` (slides); returns the height they take.
    auto title = [&](float x, float y, float w, const std::string& s1, const std::string& s2) {
      ImDrawList* dl = ImGui::GetWindowDrawList();
      ImGui::PushFont(f.fonts.mono);
      ImFont* font = ImGui::GetFont();
      const float size = ImGui::GetFontSize(), gap = text_h - ImGui::GetTextLineHeight();
      const float h1 = ImGui::CalcTextSize(s1.c_str(), nullptr, false, w).y + gap;
      const float h2 = ImGui::CalcTextSize(s2.c_str(), nullptr, false, w).y + gap;
      dl->AddText(font, size, ImVec2(x, y), palette::text.packed(), s1.c_str(), nullptr, w);
      dl->AddText(font, size, ImVec2(x, y + h1), palette::text_dim.packed(), s2.c_str(), nullptr,
                  w);
      ImGui::PopFont();
      return h1 + h2;
    };
    const std::string rows_s = a.row_expr + " * " + std::to_string(a.stride_row);
    const std::string cols_s = a.col_expr + " * " + std::to_string(a.stride_col);
    const float titles_h =
        title(pos.x, pos.y, table_w, v.sum_header, "left: " + rows_s + "    top: " + cols_s);
    ImGui::PushFont(f.fonts.mono);
    const float table_y = pos.y + titles_h + 2;
    float y_end = draw_table(v, false, pos.x, table_y, cell_w, head_w, cell_h, opc);
    ImGui::PopFont();
    // Lanes a lesson step points at, outlined in the offsets table where they are shown.
    if (const auto* h = lesson_highlight(f))
      for (const auto& lane : h->lanes) {
        const auto i = std::find(v.rows.begin(), v.rows.end(), lane.row) - v.rows.begin();
        const auto j = std::find(v.cols.begin(), v.cols.end(), lane.col) - v.cols.begin();
        if (i >= static_cast<long>(v.rows.size()) || j >= static_cast<long>(v.cols.size()))
          continue;
        const float cx = pos.x + head_w + j * cell_w, cy = table_y + (i + 1) * cell_h + 4;
        lesson_outline(ImGui::GetWindowDrawList(), ImVec2(cx + 1, cy + 1),
                       ImVec2(cx + cell_w - 1, cy + cell_h - 1));
        lesson_mark(f, lane_mark(lane.row, lane.col));
      }
    const float mx = side_by_side ? pos.x + table_w + 24 : pos.x;
    const float my = side_by_side ? pos.y : y_end + 6;
    // Only the axes the listing masks: wrapped axes (% M, % N) need no comparison, and a load
    // that wraps both has no mask at all (every lane on).
    std::string mask_s = v.mask_header;
    std::vector<std::string> terms;
    if (!a.span.wrap_rows)
      terms.push_back(a.row_expr + "[:, None] < " + std::to_string(a.span.row_extent));
    if (!a.span.wrap_cols)
      terms.push_back(a.col_expr + "[None, :] < " + std::to_string(a.span.col_extent));
    // A file's mask is shown as the file writes it (its assignment, or the load's mask=).
    if (!v.from_file && terms.size() == 2)
      mask_s += " = (" + terms[0] + ") & (" + terms[1] + ")";
    else if (!v.from_file && terms.size() == 1)
      mask_s += " = " + terms[0];
    const char* legend =
        terms.size() == 2  ? "left: rows in range, top: columns in range; cell = left & top"
        : terms.empty()    ? "no mask: rows % M and columns % N keep every lane in range"
        : a.span.wrap_rows ? "rows wrap (% M), so only the columns are compared"
                           : "columns wrap (% N), so only the rows are compared";
    const float mask_titles_h = title(mx, my, table_w, mask_s, legend);
    ImGui::PushFont(f.fonts.mono);
    y_end = draw_table(v, true, mx, my + mask_titles_h + 2,
                       std::max(cell_w * 0.6f, ImGui::CalcTextSize("T").x + 16),
                       std::max(cell_w * 0.6f, ImGui::CalcTextSize("T").x + 20), cell_h, opc);
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(pos.x, std::max(y_end, pos.y)));
  }
  end_panel();
}

}  // namespace tilesim::app
