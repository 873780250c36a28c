// The colour legend, one place for every panel and for the screenshot tests: A is blue, B is
// orange, C is green, masked-off lanes are hatched grey, L2 hits teal, L2 misses red, and the
// program at the cursor is outlined and filled in highlight yellow. Text is drawn in colours that
// keep WCAG AA contrast (4.5:1) against the surface under it in both themes (readable_on).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tilesim::app {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  constexpr Rgba with_alpha(std::uint8_t alpha) const { return {r, g, b, alpha}; }
  // ImGui's IM_COL32 packing (ABGR in a 32-bit word).
  constexpr std::uint32_t packed() const {
    return (std::uint32_t(a) << 24) | (std::uint32_t(b) << 16) | (std::uint32_t(g) << 8) | r;
  }
};

// The colour a fraction t (0..1) of the way from a to b, opaque: a share drawn as a tint.
inline Rgba mix(Rgba a, Rgba b, float t) {
  auto m = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), 255};
}

// WCAG 2.x relative luminance (0 = black, 1 = white) of an sRGB colour, alpha ignored.
inline double relative_luminance(Rgba c) {
  auto lin = [](std::uint8_t v) {
    const double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
// WCAG contrast ratio, 1 (same) .. 21 (black on white); body text needs 4.5 (level AA).
inline double contrast_ratio(Rgba x, Rgba y) {
  const double a = relative_luminance(x), b = relative_luminance(y);
  return (std::max(a, b) + 0.05) / (std::min(a, b) + 0.05);
}
inline constexpr double kMinTextContrast = 4.5;

// `fg` as text on `bg`: unchanged where it already reads (4.5:1), else darkened on a light
// surface or lightened on a dark one, in steps of 5 %, keeping its hue (yellow becomes amber on
// white), until it does.
inline Rgba readable_on(Rgba fg, Rgba bg) {
  const Rgba toward = relative_luminance(bg) > 0.18 ? Rgba{0, 0, 0} : Rgba{255, 255, 255};
  Rgba out = fg.with_alpha(255);
  for (int i = 1; i <= 20 && contrast_ratio(out, bg) < kMinTextContrast; ++i)
    out = mix(fg, toward, 0.05f * static_cast<float>(i));
  return out.with_alpha(fg.a);
}

namespace palette {
// The surfaces and text follow the theme (set_theme, before the first frame); the data colours
// below stay the same in both themes so a handout reads like the screen.
inline Rgba background{24, 26, 31};
inline Rgba panel{32, 35, 42};
inline Rgba matrix_bg{46, 50, 60};
inline Rgba grid_line{78, 84, 98};
inline Rgba text{230, 232, 236};
inline Rgba text_dim{170, 175, 188};
inline Rgba header_bg{58, 63, 76};              // table headers
inline Rgba box_bg{44, 48, 58};                 // boxes of the memory chart
inline Rgba cell_dim{40, 43, 52};               // elided cells
inline constexpr Rgba a{76, 139, 245};          // A / in
inline constexpr Rgba b{245, 158, 11};          // B
inline constexpr Rgba c{34, 170, 110};          // C / out
inline constexpr Rgba mask_off{150, 150, 160};  // hatch of masked-off lanes
inline constexpr Rgba mask_false{190, 70, 80};  // F cells in the broadcast inspector
inline constexpr Rgba l2_hit{20, 184, 166};
inline constexpr Rgba l2_miss{239, 68, 68};
inline constexpr Rgba highlight{255, 212, 0};  // the program / tile at the cursor
inline constexpr Rgba code_line{255, 212, 0};
inline constexpr Rgba code_ptr{76, 139, 245};
inline constexpr Rgba code_mask{190, 70, 80};
// Group / wave / SM colour classes of the launch grid: muted, and never green (green = stored).
inline constexpr Rgba classes[] = {{68, 90, 140}, {120, 80, 140}, {140, 100, 60}, {110, 110, 125},
                                   {140, 70, 95}, {70, 110, 150}, {125, 95, 125}, {95, 85, 70}};
inline constexpr int class_count = sizeof(classes) / sizeof(classes[0]);
inline constexpr Rgba lesson{236, 72, 153};         // what a lesson step points at (pink outline)
inline constexpr Rgba code_comment{120, 170, 120};  // `# ...` in the listing
inline constexpr Rgba code_mask_text{230, 110, 120};
// A lesson's figures by kind (text on the panel background, so they follow the theme): predicted
// by the engine, measured on a GPU, quoted from a seed, computed from the problem, a datasheet
// figure of the machine preset; and worked formulas in backticks.
inline Rgba figure_predicted{125, 211, 252};
inline Rgba figure_measured{134, 239, 172};
inline Rgba figure_quoted{253, 186, 116};
inline Rgba figure_computed{216, 180, 254};
inline Rgba figure_datasheet{203, 213, 225};
inline Rgba formula{250, 232, 140};

// dark: the screen; light: printed handouts (dark text on white).
enum class Theme { dark, light };
inline void set_theme(Theme t) {
  const bool light = t == Theme::light;
  background = light ? Rgba{236, 238, 242} : Rgba{24, 26, 31};
  panel = light ? Rgba{250, 250, 252} : Rgba{32, 35, 42};
  matrix_bg = light ? Rgba{226, 230, 236} : Rgba{46, 50, 60};
  grid_line = light ? Rgba{150, 156, 170} : Rgba{78, 84, 98};
  text = light ? Rgba{24, 26, 32} : Rgba{230, 232, 236};
  text_dim = light ? Rgba{74, 80, 94} : Rgba{170, 175, 188};
  header_bg = light ? Rgba{208, 213, 224} : Rgba{58, 63, 76};
  cell_dim = light ? Rgba{232, 234, 240} : Rgba{40, 43, 52};
  box_bg = light ? Rgba{244, 246, 250} : Rgba{44, 48, 58};
  // Figures: the dark theme's pastels on black, the light theme's deep tones on white (each
  // at least 4.5:1 against its panel).
  figure_predicted = light ? Rgba{3, 105, 161} : Rgba{125, 211, 252};
  figure_measured = light ? Rgba{21, 128, 61} : Rgba{134, 239, 172};
  figure_quoted = light ? Rgba{180, 83, 9} : Rgba{253, 186, 116};
  figure_computed = light ? Rgba{109, 40, 217} : Rgba{216, 180, 254};
  figure_datasheet = light ? Rgba{51, 65, 85} : Rgba{203, 213, 225};
  formula = light ? Rgba{120, 53, 15} : Rgba{250, 232, 140};
}

// What a tile is doing, one colour each: the legend's swatches and every panel that fills or
// outlines a tile read this one table, so a miss on screen is the legend's "not in L2" red.
enum class TileState { now, stored, l2_hit, l2_miss };
inline constexpr TileState kTileStates[] = {TileState::now, TileState::stored, TileState::l2_hit,
                                            TileState::l2_miss};
inline Rgba tile_state_color(TileState s) {
  switch (s) {
    case TileState::now:
      return highlight;
    case TileState::stored:
      return c;
    case TileState::l2_hit:
      return l2_hit;
    case TileState::l2_miss:
      return l2_miss;
  }
  return highlight;
}
inline const char* tile_state_label(TileState s) {
  switch (s) {
    case TileState::now:
      return "now";
    case TileState::stored:
      return "stored";
    case TileState::l2_hit:
      return "in L2 (a load hits)";
    case TileState::l2_miss:
      return "not in L2 (a load misses)";
  }
  return "";
}

// Text on a filled cell (pid labels of the launch grid): white or black, whichever contrasts
// more with the fill (a stored cell's mid-tone green needs pure black to reach 4.5:1).
inline Rgba label_on(Rgba fill) {
  const Rgba white{255, 255, 255}, ink{0, 0, 0};
  return contrast_ratio(white, fill) >= contrast_ratio(ink, fill) ? white : ink;
}
}  // namespace palette

}  // namespace tilesim::app
