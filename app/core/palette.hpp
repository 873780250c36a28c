// The colour legend, one place for every panel and for the screenshot tests: A is blue, B is
// orange, C is green, masked-off lanes are hatched grey, L2 hits teal, L2 misses red, and the
// program at the cursor is outlined and filled in highlight yellow.
#pragma once

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

namespace palette {
inline constexpr Rgba background{24, 26, 31};
inline constexpr Rgba panel{32, 35, 42};
inline constexpr Rgba matrix_bg{46, 50, 60};
inline constexpr Rgba grid_line{78, 84, 98};
inline constexpr Rgba text{230, 232, 236};
inline constexpr Rgba text_dim{150, 156, 168};
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
}  // namespace palette

}  // namespace tilesim::app
