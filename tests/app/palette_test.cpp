// The palette's text colours against the surfaces they are drawn on: WCAG 2.x contrast of at
// least 4.5:1 (level AA, body text) in both themes, for the theme's own text colours, for every
// data colour drawn as text (through readable_on) and for pid labels on launch-grid cells.
#include "app/core/palette.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace tilesim::app;

namespace {

struct Named {
  std::string name;
  Rgba c;
};

std::string theme_name(palette::Theme t) {
  return t == palette::Theme::light ? "light" : "dark";
}

// The surfaces text is drawn on: panels, the window, the memory chart's boxes, table headers
// and the matrices' background.
std::vector<Named> surfaces() {
  return {{"panel", palette::panel},
          {"background", palette::background},
          {"box_bg", palette::box_bg},
          {"header_bg", palette::header_bg},
          {"matrix_bg", palette::matrix_bg}};
}

// Data colours that panels also write text in (text_colored and the chart's labels).
std::vector<Named> data_colours() {
  std::vector<Named> v = {{"a", palette::a},
                          {"b", palette::b},
                          {"c", palette::c},
                          {"mask_off", palette::mask_off},
                          {"mask_false", palette::mask_false},
                          {"l2_hit", palette::l2_hit},
                          {"l2_miss", palette::l2_miss},
                          {"highlight", palette::highlight},
                          {"code_line", palette::code_line},
                          {"code_ptr", palette::code_ptr},
                          {"code_mask", palette::code_mask},
                          {"code_mask_text", palette::code_mask_text},
                          {"code_comment", palette::code_comment},
                          {"lesson", palette::lesson},
                          {"figure_predicted", palette::figure_predicted},
                          {"figure_measured", palette::figure_measured},
                          {"figure_quoted", palette::figure_quoted},
                          {"figure_computed", palette::figure_computed},
                          {"figure_datasheet", palette::figure_datasheet},
                          {"formula", palette::formula}};
  for (int i = 0; i < palette::class_count; ++i)
    v.push_back({"classes[" + std::to_string(i) + "]", palette::classes[i]});
  return v;
}

const palette::Theme kThemes[] = {palette::Theme::dark, palette::Theme::light};

}  // namespace

TEST(Contrast, BlackOnWhiteIs21AndAColourOnItselfIs1) {
  EXPECT_NEAR(contrast_ratio(Rgba{0, 0, 0}, Rgba{255, 255, 255}), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(Rgba{255, 255, 255}, Rgba{0, 0, 0}), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(palette::a, palette::a), 1.0, 1e-9);
  // WCAG's worked figure: #777777 on white is 4.48:1, just short of AA.
  EXPECT_NEAR(contrast_ratio(Rgba{119, 119, 119}, Rgba{255, 255, 255}), 4.48, 0.01);
}

TEST(Contrast, ThemeTextReadsOnEverySurfaceOfBothThemes) {
  for (const auto t : kThemes) {
    palette::set_theme(t);
    for (const auto& s : surfaces()) {
      EXPECT_GE(contrast_ratio(palette::text, s.c), kMinTextContrast)
          << theme_name(t) << " text on " << s.name;
      EXPECT_GE(contrast_ratio(palette::text_dim, s.c), kMinTextContrast)
          << theme_name(t) << " text_dim on " << s.name;
    }
  }
  palette::set_theme(palette::Theme::dark);
}

TEST(Contrast, EveryDataColourDrawnAsTextReadsOnThePanelsOfBothThemes) {
  for (const auto t : kThemes) {
    palette::set_theme(t);
    for (const auto& s : surfaces())
      for (const auto& d : data_colours())
        EXPECT_GE(contrast_ratio(readable_on(d.c, s.c), s.c), kMinTextContrast)
            << theme_name(t) << ": " << d.name << " as text on " << s.name;
  }
  palette::set_theme(palette::Theme::dark);
}

// A lesson's figures are told apart by their colour (the kind: predicted, measured, quoted,
// computed, datasheet): each theme's own tone must already read on the panel, not only after
// readable_on darkens it towards another kind's.
TEST(Contrast, FigureKindColoursReadOnThePanelAsTheyAre) {
  for (const auto t : kThemes) {
    palette::set_theme(t);
    for (const auto& d : data_colours())
      if (d.name.rfind("figure_", 0) == 0 || d.name == "formula")
        EXPECT_GE(contrast_ratio(d.c, palette::panel), kMinTextContrast)
            << theme_name(t) << ": " << d.name << " on the panel";
  }
  palette::set_theme(palette::Theme::dark);
}

TEST(Contrast, ReadableOnKeepsAColourThatAlreadyReads) {
  palette::set_theme(palette::Theme::dark);
  const Rgba y = readable_on(palette::highlight, palette::panel);
  EXPECT_EQ(y.packed(), palette::highlight.packed());  // yellow on the dark panel: 11:1
  palette::set_theme(palette::Theme::light);
  const Rgba amber = readable_on(palette::highlight, palette::panel);
  EXPECT_NE(amber.packed(), palette::highlight.packed());  // yellow on white: 1.4:1, darkened
  EXPECT_GT(amber.r, amber.b);                             // still a yellow-brown, not grey
  palette::set_theme(palette::Theme::dark);
}

TEST(Contrast, PidLabelsReadOnEveryLaunchGridCell) {
  // A cell is its class colour, tinted toward C's green once stored (launch_grid.cpp), or
  // the highlight at the cursor; the tile states fill the legend's swatches.
  std::vector<Named> fills;
  for (int i = 0; i < palette::class_count; ++i) {
    fills.push_back({"classes[" + std::to_string(i) + "]", palette::classes[i]});
    fills.push_back(
        {"stored classes[" + std::to_string(i) + "]", mix(palette::classes[i], palette::c, 0.6f)});
  }
  for (const auto s : palette::kTileStates)
    fills.push_back({palette::tile_state_label(s), palette::tile_state_color(s)});
  for (const auto& f : fills)
    EXPECT_GE(contrast_ratio(palette::label_on(f.c), f.c), kMinTextContrast)
        << "label on " << f.name;
}

TEST(Legend, MissesAndHitsAreTheL2Colours) {
  EXPECT_EQ(palette::tile_state_color(palette::TileState::l2_miss).packed(),
            palette::l2_miss.packed());
  EXPECT_EQ(palette::tile_state_color(palette::TileState::l2_hit).packed(),
            palette::l2_hit.packed());
  EXPECT_EQ(palette::tile_state_color(palette::TileState::stored).packed(), palette::c.packed());
  EXPECT_EQ(std::string(palette::tile_state_label(palette::TileState::l2_miss)),
            "not in L2 (a load misses)");
}
