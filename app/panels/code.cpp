// Code panel: the kernel listing the simulation follows, with the current step's line
// highlighted (yellow), the line that builds its pointers (blue) and its mask (red).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/panels/panels.hpp"
#include "sim/program/listing.hpp"
#include "sim/program/program_trace.hpp"

namespace tilesim::app {

void draw_code(FrameContext& f, const Rect& r) {
  if (begin_panel(f, PanelId::code, "Code: the kernel, line by line", r)) {
    const auto& p = f.model.problem;
    const auto at = f.at;
    const sim::Step step = sim::program_step(p, at.pid, at.step);
    // The listing: the open Triton file's own source and lines, else the built-in kernel's.
    const KernelFileState* kf = f.model.kernel_file ? &*f.model.kernel_file : nullptr;
    const std::vector<std::string>& lines = kf ? kf->lines() : p.plan().lines;
    int now_line = step.line, ptr_line = step.ptr_line, mask_line = step.mask_line;
    if (kf) {
      bool exact = true;  // while playing a slow kernel: program 0's lines (the same lines)
      const auto& steps = kf->steps_while(p.spec(), at.pid, f.model.playing, &exact);
      const bool known = at.step >= 0 && at.step < static_cast<std::int64_t>(steps.size());
      now_line = known ? steps[at.step].line : 0;
      const sim::AccessSource src = known ? kf->access_source(steps[at.step]) : sim::AccessSource{};
      ptr_line = src.ptr_line;
      mask_line = src.mask_line;
      if (ptr_line == now_line) ptr_line = 0;
      if (mask_line == now_line || mask_line == ptr_line) mask_line = 0;
    }
    ImGui::Text("pid %lld, step %lld of %lld:", (long long)at.pid, (long long)at.step,
                (long long)sim::steps_per_program(p));
    const std::string op(sim::to_string(step.op));
    same_line_if_fits(text_width(op.c_str()));
    text_colored(palette::highlight, op.c_str());
    if (step.k >= 0) {
      const std::string k = "k = " + std::to_string(step.k);
      same_line_if_fits(text_width(k.c_str()));
      ImGui::TextUnformatted(k.c_str());
    }
    help_marker(f, "code");
    ImGui::PushTextWrapPos(0);
    if (kf) {
      const std::string title =
          kf->path.filename().string() + ": " + kf->kernel->source->fn.name + " (reloads on save)";
      ImGui::TextDisabled("%s", title.c_str());
      if (!kf->error.empty()) {
        text_colored(palette::l2_miss, ("Not reloaded: " + kf->error).c_str());
        ImGui::TextDisabled("the last version that read is shown");
      }
    } else {
      ImGui::TextDisabled("%s", p.plan().source.c_str());
    }
    ImGui::PopTextWrapPos();
    text_colored(palette::highlight, "this step");
    same_line_if_fits(text_width("its pointers"));
    text_colored(palette::code_ptr, "its pointers");
    same_line_if_fits(text_width("its mask"));
    text_colored(palette::code_mask_text, "its mask");
    // Long lines wrap under their code (a figure has no scroll bar to reach a cut-off end).
    ImGui::BeginChild("##listing", ImVec2(0, 0), false);
    ImGui::PushFont(f.fonts.mono);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float w = ImGui::GetContentRegionAvail().x;
    const float code_w =
        w - ImGui::CalcTextSize("000").x - ImGui::GetStyle().ItemSpacing.x;  // after the number
    // The line kept in view: a lesson step's first highlighted line near the top, so the lines
    // after it fit too (an outline scrolled out of the panel shows nothing), else the step's
    // line in the middle. Scrolled to when it changes.
    const auto* h = lesson_highlight(f);
    const bool lesson_lines = h && !h->code_lines.empty();
    const float target_ratio = lesson_lines ? 0.1f : 0.5f;  // of the listing's visible height
    const int target =
        lesson_lines ? *std::min_element(h->code_lines.begin(), h->code_lines.end()) : now_line;
    const std::int64_t line_key = std::int64_t(target) << 32 | at.pid;
    // ImGui clamps a scroll to the previous frame's content height, which is short on the first
    // frames (wrapped lines not measured yet): the scroll is repeated for a few frames until
    // the line is in view (then the learner may scroll away).
    static std::int64_t last_line_key = -1;
    static int scroll_frames = 0;
    if (last_line_key != line_key) scroll_frames = 8;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const int n = static_cast<int>(i) + 1;
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const std::string& text = lines[i];
      const float lh = ImGui::CalcTextSize(text.c_str(), nullptr, false, code_w).y;
      const bool wraps = ImGui::CalcTextSize(text.c_str()).x > code_w;
      Rgba bg{0, 0, 0, 0};
      const char* tag = nullptr;
      if (n == now_line) {
        bg = palette::code_line.with_alpha(70);
        tag = "now";
      } else if (n == ptr_line) {
        bg = palette::code_ptr.with_alpha(60);
        tag = "pointers";
      } else if (n == mask_line) {
        bg = palette::code_mask.with_alpha(70);
        tag = "mask";
      }
      if (bg.a) {
        dl->AddRectFilled(ImVec2(pos.x - 4, pos.y - 1), ImVec2(pos.x + w, pos.y + lh + 1),
                          bg.packed());
        if (n == now_line)
          dl->AddRectFilled(ImVec2(pos.x - 4, pos.y - 1), ImVec2(pos.x - 1, pos.y + lh + 1),
                            palette::code_line.packed());
      }
      if (h && std::find(h->code_lines.begin(), h->code_lines.end(), n) != h->code_lines.end()) {
        lesson_outline(dl, ImVec2(pos.x - 2, pos.y), ImVec2(pos.x + w - 4, pos.y + lh));
        // Drawn only if the whole line is inside the listing's visible part.
        const ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
        if (pos.y >= lo.y - 1 && pos.y + lh <= hi.y + 1)
          lesson_mark(f, "code:" + std::to_string(n));
      }
      if (tag) {
        const Rgba tc = n == now_line   ? palette::highlight
                        : n == ptr_line ? palette::code_ptr
                                        : palette::code_mask_text;
        char num[16];
        std::snprintf(num, sizeof num, "%3d", n);
        text_colored(tc, num);
      } else {
        ImGui::TextDisabled("%3d", n);
      }
      ImGui::SameLine();
      const auto hash = text.find("  #");
      if (wraps) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
      } else if (hash != std::string::npos && text.find_first_not_of(' ') < hash) {
        ImGui::TextUnformatted(text.c_str(), text.c_str() + hash);
        ImGui::SameLine(0, 0);
        text_colored(palette::code_comment, text.c_str() + hash);
      } else if (text.find_first_not_of(' ') != std::string::npos &&
                 text[text.find_first_not_of(' ')] == '#') {
        text_colored(palette::code_comment, text.c_str());
      } else {
        ImGui::TextUnformatted(text.c_str());
      }
      if (n == target && scroll_frames > 0) {
        const ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
        if (last_line_key != line_key || pos.y < lo.y || pos.y + lh > hi.y + 1)
          ImGui::SetScrollHereY(target_ratio);
        else
          scroll_frames = 0;
      }
    }
    last_line_key = line_key;
    scroll_frames = std::max(0, scroll_frames - 1);
    ImGui::PopFont();
    ImGui::EndChild();
  }
  end_panel();
}

}  // namespace tilesim::app
