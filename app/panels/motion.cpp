// The moving tile: where the current event's tile is in the memory hierarchy at the animation
// fraction (app/core/animation.hpp), drawn as a small square travelling between the levels —
// DRAM -> L2 -> shared memory for a miss, starting at L2 (ringed "hit") for a hit, registers
// back to L2 for a store, and a filling accumulator for a dot.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "app/panels/panels.hpp"

namespace tilesim::app {

Motion current_motion(const FrameContext& f) {
  if (!has_current_event(f.frame)) return {};
  const auto& cur = *f.frame->snapshot.current;
  return motion_of(cur.info, cur.l2, f.model.problem.k_tiles(), f.ui.anim_fraction);
}

const sim::Counters& shown_counters(const FrameContext& f, const EngineFrame& fr) {
  return f.ui.anim_fraction < 1.0 && fr.snapshot.current ? fr.snapshot.counters_before
                                                         : fr.snapshot.counters;
}

palette::TileState current_access_state(const FrameContext& f) {
  using palette::TileState;
  if (!has_current_event(f.frame)) return TileState::now;
  const auto& cur = *f.frame->snapshot.current;
  const auto op = cur.info.op;
  if (op == sim::StepOp::load || op == sim::StepOp::load_a || op == sim::StepOp::load_b) {
    if (cur.l2.miss_sectors > 0) return TileState::l2_miss;
    if (cur.l2.hit_sectors > 0) return TileState::l2_hit;
  }
  if (op == sim::StepOp::store && f.frame->position >= f.frame->events) return TileState::stored;
  return TileState::now;
}

void draw_motion_token(const Motion& m, const float centres[kMemLevels], float y, float size) {
  if (m.kind == Motion::Kind::none) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Rgba c = operand_color(m.operand);
  auto x_at = [&](double level) {
    const int i = std::clamp(static_cast<int>(std::floor(level)), 0, kMemLevels - 1);
    const int j = std::min(i + 1, kMemLevels - 1);
    return static_cast<float>(centres[i] + (centres[j] - centres[i]) * (level - i));
  };
  if (m.kind == Motion::Kind::dot) {
    // The accumulator in registers fills as K is summed.
    // As wide as the tile in flight, centred on the registers' box (inside the strip).
    const float x = centres[static_cast<int>(MemLevel::regs)];
    const ImVec2 a(x - size / 2, y - size / 2), b(x + size / 2, y + size / 2);
    dl->AddRectFilled(a, b, palette::matrix_bg.packed(), 2);
    dl->AddRectFilled(a, ImVec2(a.x + float(size * m.acc), b.y), c.packed(), 2);
    dl->AddRect(a, b, palette::highlight.packed(), 2, 0, 2.0f);
    return;
  }
  if (!m.path.empty()) {
    // The trail of the trip so far.
    const float x0 = x_at(double(static_cast<int>(m.path.front())));
    const float x1 = x_at(level_coordinate(m));
    dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), c.with_alpha(140).packed(), 3);
  }
  if (m.l2_hit) {
    const float xl2 = centres[static_cast<int>(MemLevel::l2)];
    // Ringed at L2, "hit" written left of the ring (the tile leaves to the right).
    const float ring = size * 0.8f;
    dl->AddCircle(ImVec2(xl2, y), ring, palette::l2_hit.packed(), 24, 2.5f);
    const ImVec2 ts = ImGui::CalcTextSize("hit");
    dl->AddText(ImVec2(xl2 - ring - ts.x - 4, y - ts.y / 2),
                readable_on(palette::l2_hit, palette::panel).packed(), "hit");
  }
  // The tile itself, labelled with its operand and outlined in its legend state: a load's hit
  // or miss colour, a store's "now".
  const float x = x_at(level_coordinate(m));
  const ImVec2 a(x - size / 2, y - size / 2), b(x + size / 2, y + size / 2);
  dl->AddRectFilled(a, b, c.packed(), 3);
  const palette::TileState state = m.kind != Motion::Kind::load ? palette::TileState::now
                                   : m.l2_hit                   ? palette::TileState::l2_hit
                                                                : palette::TileState::l2_miss;
  const float edge = std::max(2.0f, size * 0.08f);
  dl->AddRect(ImVec2(a.x - edge / 2, a.y - edge / 2), ImVec2(b.x + edge / 2, b.y + edge / 2),
              palette::tile_state_color(state).packed(), 3, 0, edge);
  const char* name = m.operand == sim::Operand::a ? "A" : m.operand == sim::Operand::b ? "B" : "C";
  const ImVec2 ts = ImGui::CalcTextSize(name);
  if (ts.y < size)
    dl->AddText(ImVec2(x - ts.x / 2, y - ts.y / 2), palette::label_on(c).packed(), name);
}

void draw_hierarchy_strip(FrameContext& f, float width) {
  static constexpr const char* names[kMemLevels] = {"DRAM", "L2", "smem", "regs"};
  static constexpr Rgba accents[kMemLevels] = {palette::l2_miss, palette::l2_hit, palette::a,
                                               palette::c};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float lh = ImGui::GetTextLineHeight();
  const float gap = lh * 0.8f;
  const float bw = (width - 3 * gap) / kMemLevels, bh = lh + 8;
  float centres[kMemLevels];
  for (int i = 0; i < kMemLevels; ++i) {
    const float x = p.x + i * (bw + gap);
    centres[i] = x + bw / 2;
    dl->AddRect(ImVec2(x, p.y + lh), ImVec2(x + bw, p.y + lh + bh), accents[i].packed(), 4, 0, 2);
    const ImVec2 ts = ImGui::CalcTextSize(names[i]);
    dl->AddText(ImVec2(centres[i] - ts.x / 2, p.y + lh + 4), palette::text.packed(), names[i]);
  }
  const Motion m = current_motion(f);
  // The tile at slide size: at least 1.6 lines and 6 % of the panel's height.
  const float token = std::max(lh * 1.6f, ImGui::GetWindowHeight() * 0.06f);
  draw_motion_token(m, centres, p.y + lh + bh + token * 0.5f + lh * 0.5f, token);
  std::string what = "no tile moves in this step";
  if (m.kind == Motion::Kind::load)
    what = m.l2_hit ? "load: an L2 hit, served from L2" : "load: a miss, fetched from DRAM";
  else if (m.kind == Motion::Kind::store)
    what = "store: registers back to L2 (written to DRAM later)";
  else if (m.kind == Motion::Kind::dot)
    what = "dot: C's accumulator " + format_percent(m.acc) + " of K";
  ImGui::Dummy(ImVec2(width, lh + bh + token + lh));
  text_words(what, palette::text_dim);
}

}  // namespace tilesim::app
