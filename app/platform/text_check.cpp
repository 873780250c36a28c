// A glyph is a quad whose texture coordinates lie in one glyph's rectangle of the font atlas
// (everything else ImGui draws samples the atlas's white pixel or its baked lines). A glyph is
// cut when a corner lies outside its command's clip rectangle, or when ImGui trimmed it on the
// CPU (a corner's texture coordinate then falls strictly inside the glyph's rectangle).
#include "app/platform/text_check.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace tilesim::app {
namespace {

struct GlyphBox {
  float u0, v0, u1, v1;
  unsigned codepoint;
};

std::vector<GlyphBox> atlas_glyphs() {
  std::vector<GlyphBox> out;
  for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible) out.push_back({g.U0, g.V0, g.U1, g.V1, g.Codepoint});
  return out;
}

const GlyphBox* glyph_at(const std::vector<GlyphBox>& glyphs, ImVec2 uv) {
  for (const GlyphBox& g : glyphs)
    if (uv.x >= g.u0 && uv.x <= g.u1 && uv.y >= g.v0 && uv.y <= g.v1) return &g;
  return nullptr;
}

std::string utf8(unsigned c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

// Does the window of this draw list scroll vertically (text past its top or bottom is not lost)?
bool scrolls_vertically(const ImDrawList* dl) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows)
    if (w->DrawList == dl) return w->ScrollMax.y > 0;
  return false;
}

// A glyph quad as drawn: its top-left corner, its characters and whether it is cut.
struct Quad {
  float x, y, w, h;
  unsigned codepoint;
  bool cut;
};

// The lines of `data`: those holding a cut glyph (`cut_only`) or all of them.
std::vector<CutText> text_lines(const ImDrawData* data, bool cut_only) {
  std::vector<CutText> out;
  if (!data) return out;
  const auto glyphs = atlas_glyphs();
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  constexpr float kSlack = 0.5f;  // pixels: rounding of clip rectangles
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* dl = data->CmdLists[l];
    const bool scrolls = scrolls_vertically(dl);
    for (const ImDrawCmd& cmd : dl->CmdBuffer) {
      if (cmd.UserCallback || cmd.ElemCount == 0) continue;
      const ImVec4 clip = cmd.ClipRect;
      // Vertices this command draws, in order; a glyph is 4 consecutive vertices (PrimQuadUV).
      unsigned lo = ~0u, hi = 0;
      for (unsigned i = 0; i < cmd.ElemCount; ++i) {
        const unsigned v = cmd.VtxOffset + dl->IdxBuffer[static_cast<int>(cmd.IdxOffset + i)];
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      std::vector<Quad> quads;
      for (unsigned v = lo; v + 3 <= hi;) {
        const ImDrawVert& a = dl->VtxBuffer[static_cast<int>(v)];
        const GlyphBox* g =
            (a.uv.x == white.x && a.uv.y == white.y) ? nullptr : glyph_at(glyphs, a.uv);
        if (!g) {
          ++v;
          continue;
        }
        bool cut = false, cut_side = false;
        float x0 = a.pos.x, y0 = a.pos.y, x1 = a.pos.x, y1 = a.pos.y;
        for (unsigned k = 0; k < 4; ++k) {
          const ImDrawVert& c = dl->VtxBuffer[static_cast<int>(v + k)];
          x0 = std::min(x0, c.pos.x);
          y0 = std::min(y0, c.pos.y);
          x1 = std::max(x1, c.pos.x);
          y1 = std::max(y1, c.pos.y);
          const bool out_x = c.pos.x < clip.x - kSlack || c.pos.x > clip.z + kSlack;
          const bool out_y = c.pos.y < clip.y - kSlack || c.pos.y > clip.w + kSlack;
          const bool trimmed_u = c.uv.x != g->u0 && c.uv.x != g->u1;
          const bool trimmed_v = c.uv.y != g->v0 && c.uv.y != g->v1;
          cut_side = cut_side || out_x || trimmed_u;
          cut = cut || out_x || out_y || trimmed_u || trimmed_v;
        }
        if (cut && !cut_side && scrolls) cut = false;  // a scrollbar brings it into view
        quads.push_back({x0, y0, x1 - x0, y1 - y0, g->codepoint, cut});
        v += 4;
      }
      // The panel's title as shown ("Lesson###Lesson" -> "Lesson").
      std::string panel = dl->_OwnerName ? dl->_OwnerName : "?";
      panel = panel.substr(0, panel.find("###"));
      float tallest = 0;
      for (const Quad& q : quads) tallest = std::max(tallest, q.h);
      if (!cut_only) {
        // Every line, in the order ImGui drew it: a glyph left of the one before, or more than
        // a line's height from it, starts the next line; spaces draw nothing, so a gap of a
        // fifth of the tallest glyph (a space is about a third of it) is one.
        std::string text;
        for (std::size_t i = 0; i < quads.size(); ++i) {
          const Quad& q = quads[i];
          if (i) {
            const Quad& p = quads[i - 1];
            if (q.x < p.x || std::fabs(q.y - p.y) > tallest) {
              out.push_back({panel, text});
              text.clear();
            } else if (q.x - (p.x + p.w) > 0.2f * tallest) {
              text += ' ';
            }
          }
          text += utf8(q.codepoint);
        }
        if (!text.empty()) out.push_back({panel, text});
        continue;
      }
      // One report per line holding a cut glyph: the line's glyphs, left to right. Glyph tops
      // differ within a line ('T' and '.'), by less than half the tallest glyph.
      const float same_line = 0.45f * tallest;
      std::vector<float> lines;
      for (const Quad& q : quads)
        if (q.cut && std::none_of(lines.begin(), lines.end(),
                                  [&](float y) { return std::fabs(y - q.y) < same_line; }))
          lines.push_back(q.y);
      for (const float y : lines) {
        std::vector<const Quad*> row;
        for (const Quad& q : quads)
          if (std::fabs(q.y - y) < same_line) row.push_back(&q);
        std::sort(row.begin(), row.end(), [](const Quad* p, const Quad* q) { return p->x < q->x; });
        std::string text;
        for (std::size_t i = 0; i < row.size(); ++i) {
          // Spaces draw nothing: a gap of a third of a glyph's height between glyphs is one.
          if (i && row[i]->x - (row[i - 1]->x + row[i - 1]->w) > 0.33f * row[i]->h) text += ' ';
          text += utf8(row[i]->codepoint);
        }
        out.push_back({panel, text});
      }
    }
  }
  return out;
}

}  // namespace

std::vector<CutText> find_cut_text(const ImDrawData* data) {
  return text_lines(data, true);
}

std::vector<CutText> find_text_lines(const ImDrawData* data) {
  return text_lines(data, false);
}

}  // namespace tilesim::app
