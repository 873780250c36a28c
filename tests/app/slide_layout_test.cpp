// The projector preset and the slide layout: --projector means --scale 2 --font-scale 1.5
// --theme light (each overridable); with text that large for the window the panels are laid out
// for a slide (lesson column, centre panel and matrices, code / broadcast only when a step needs
// them), tiling the window without overlap at 1920 x 1080 and 1280 x 720.
#include <gtest/gtest.h>

#include "app/core/layout.hpp"
#include "app/core/options.hpp"

using namespace tilesim::app;

namespace {

// Visible panels lie inside the window, do not overlap, and cover it.
void expect_tiles(const Layout& l, float w, float h) {
  float area = 0;
  for (int i = 0; i < kPanelCount; ++i) {
    if (!l.visible[i]) continue;
    const Rect& r = l.rects[i];
    EXPECT_GE(r.x, 0);
    EXPECT_GE(r.y, 0);
    EXPECT_LE(r.x + r.w, w + 0.5f);
    EXPECT_LE(r.y + r.h, h + 0.5f);
    area += r.w * r.h;
    for (int j = i + 1; j < kPanelCount; ++j) {
      if (!l.visible[j]) continue;
      const Rect& q = l.rects[j];
      const bool apart = r.x + r.w <= q.x + 0.01f || q.x + q.w <= r.x + 0.01f ||
                         r.y + r.h <= q.y + 0.01f || q.y + q.h <= r.y + 0.01f;
      EXPECT_TRUE(apart) << panel_name(static_cast<PanelId>(i)) << " overlaps "
                         << panel_name(static_cast<PanelId>(j));
    }
  }
  EXPECT_NEAR(area, w * h, 2.0f);
}

}  // namespace

TEST(Projector, IsScaleTwoFontOneAndAHalfLightThemeAndEachCanBeOverridden) {
  const auto r = parse_options({"--projector"});
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.options.scale, 2.0f);
  EXPECT_EQ(r.options.font_scale, 1.5f);
  EXPECT_TRUE(r.options.light);
  const auto o = parse_options({"--theme", "dark", "--projector", "--font-scale", "2"}).options;
  EXPECT_FALSE(o.light);
  EXPECT_EQ(o.font_scale, 2.0f);
  EXPECT_EQ(o.scale, 2.0f);
  EXPECT_TRUE(parse_options({"--check-text"}).options.check_text);
}

TEST(SlideLayout, IsUsedForProjectorTextButNotForTheDefaultWindowOrPlainScaleTwo) {
  EXPECT_TRUE(uses_slide_layout(3840, 2, 1.5f));  // --projector --size 1920x1080
  EXPECT_TRUE(uses_slide_layout(2560, 2, 1.5f));  // --projector --size 1280x720
  EXPECT_FALSE(uses_slide_layout(1600, 1, 1));    // the default window
  EXPECT_FALSE(uses_slide_layout(3200, 2, 1));    // --scale 2 figures of the gallery
}

TEST(SlideLayout, TilesTheWindowAndShowsCodeAndBroadcastOnlyWhenNeeded) {
  for (const auto& [w, h] : {std::pair{3840.0f, 2160.0f}, std::pair{2560.0f, 1440.0f}}) {
    const auto none = compute_layout(w, h, std::nullopt, PanelId::compare, 2, true, 1.5f,
                                     SlideNeeds{false, false});
    expect_tiles(none, w, h);
    EXPECT_TRUE(none.is_visible(PanelId::lesson));
    EXPECT_TRUE(none.is_visible(PanelId::compare));
    EXPECT_TRUE(none.is_visible(PanelId::matrices));
    EXPECT_FALSE(none.is_visible(PanelId::code));
    EXPECT_FALSE(none.is_visible(PanelId::broadcast));
    // The centre panel gets 70 % of the width when the right column is not needed.
    EXPECT_NEAR(none.rect(PanelId::compare).w, 0.7f * w, 1.0f);

    const auto code = compute_layout(w, h, std::nullopt, PanelId::launch_grid, 2, true, 1.5f,
                                     SlideNeeds{true, false});
    expect_tiles(code, w, h);
    EXPECT_TRUE(code.is_visible(PanelId::code));
    EXPECT_FALSE(code.is_visible(PanelId::broadcast));
    EXPECT_EQ(code.rect(PanelId::code).h, h);

    const auto both = compute_layout(w, h, std::nullopt, PanelId::launch_grid, 2, false, 1.5f);
    expect_tiles(both, w, h);
    EXPECT_TRUE(both.is_visible(PanelId::controls));
    EXPECT_TRUE(both.is_visible(PanelId::code));
    EXPECT_TRUE(both.is_visible(PanelId::broadcast));
  }
}
