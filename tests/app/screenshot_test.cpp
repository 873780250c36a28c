// Screenshot tests: run the real `tilesim` under xvfb-run, one figure per panel, and check each
// is not blank and shows the highlight colour where the program at the cursor must be.
// Skipped (with the reason) where xvfb-run is missing.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "app/core/layout.hpp"
#include "app/core/palette.hpp"

using namespace tilesim::app;

namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> px;  // RGBA
  const unsigned char* at(int x, int y) const { return px.data() + (std::size_t(y) * w + x) * 4; }
};

struct Box {
  int count = 0, x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  double cx() const { return (x0 + x1) / 2.0; }
  double cy() const { return (y0 + y1) / 2.0; }
};

bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

std::filesystem::path out_dir() {
  auto d = std::filesystem::temp_directory_path() / "tilesim_screenshots";
  std::filesystem::create_directories(d);
  return d;
}

// Runs the app headless; returns the decoded PNG (empty on failure).
Image shoot(const std::string& name, const std::string& args) {
  const auto png = out_dir() / (name + ".png");
  std::filesystem::remove(png);
  const std::string cmd = "xvfb-run -a -s \"-screen 0 1600x900x24\" " + std::string(TILESIM_APP) +
                          " --scenario " + TILESIM_ASSETS_DIR + "/scenarios/" + args +
                          " --screenshot " + png.string() + " > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  Image img;
  int n = 0;
  unsigned char* data = stbi_load(png.string().c_str(), &img.w, &img.h, &n, 4);
  if (!data) return img;
  img.px.assign(data, data + std::size_t(img.w) * img.h * 4);
  stbi_image_free(data);
  return img;
}

// Pixels within `tol` (per channel) of `c` at or below row y_min (text is anti-aliased).
Box find_colour(const Image& img, Rgba c, int tol = 0, int y_min = 0) {
  Box b;
  for (int y = y_min; y < img.h; ++y)
    for (int x = 0; x < img.w; ++x) {
      const auto* p = img.at(x, y);
      if (std::abs(p[0] - c.r) <= tol && std::abs(p[1] - c.g) <= tol &&
          std::abs(p[2] - c.b) <= tol) {
        ++b.count;
        b.x0 = std::min(b.x0, x);
        b.y0 = std::min(b.y0, y);
        b.x1 = std::max(b.x1, x);
        b.y1 = std::max(b.y1, y);
      }
    }
  return b;
}

// Share of pixels that differ from the window and panel backgrounds.
double ink(const Image& img) {
  std::size_t n = 0;
  for (int y = 0; y < img.h; ++y)
    for (int x = 0; x < img.w; ++x) {
      const auto* p = img.at(x, y);
      const bool bg =
          (p[0] == palette::panel.r && p[1] == palette::panel.g && p[2] == palette::panel.b) ||
          (p[0] == palette::background.r && p[1] == palette::background.g &&
           p[2] == palette::background.b);
      n += !bg;
    }
  return double(n) / (double(img.w) * img.h);
}

#define REQUIRE_XVFB()                                                     \
  if (!have_xvfb())                                                        \
  GTEST_SKIP() << "xvfb-run not installed: no X server to render the app " \
                  "headless"

}  // namespace

TEST(Screenshot, WholeWindowIsNotBlankAndHasTheRequestedSize) {
  REQUIRE_XVFB();
  const auto img = shoot("window", "seed004_574_grouped.json --size 1280x720");
  ASSERT_EQ(img.w, 1280);
  ASSERT_EQ(img.h, 720);
  EXPECT_GT(ink(img), 0.15);
  EXPECT_GT(find_colour(img, palette::highlight).count, 100);
}

TEST(Screenshot, ScaleTwoDoublesThePixels) {
  REQUIRE_XVFB();
  const auto img = shoot("window2x", "seed004_574_grouped.json --size 800x450 --scale 2");
  EXPECT_EQ(img.w, 1600);
  EXPECT_EQ(img.h, 900);
}

TEST(Screenshot, LaunchGridHighlightsPid29InRow5Column0) {
  REQUIRE_XVFB();
  // Resident programs take turns one step each: event 29 is pid 29's first step (position 30).
  const auto first =
      shoot("grid_pid0", "seed004_574_grouped.json --panel launch_grid --size 900x900 --seek 1");
  const auto p29 =
      shoot("grid_pid29", "seed004_574_grouped.json --panel launch_grid --size 900x900 --seek 30");
  ASSERT_GT(first.w, 0);
  ASSERT_GT(p29.w, 0);
  EXPECT_GT(ink(p29), 0.2);
  const Box a = find_colour(first, palette::highlight), b = find_colour(p29, palette::highlight);
  ASSERT_GT(a.count, 400);
  ASSERT_GT(b.count, 400);
  const double cell = a.x1 - a.x0;          // the highlighted tile is one cell (plus its outline)
  EXPECT_NEAR(b.cx(), a.cx(), cell * 0.2);  // pid_n = 0: same column as pid 0
  EXPECT_NEAR(b.cy() - a.cy(), 5 * cell, cell * 0.5);  // pid_m = 5: five rows down
}

TEST(Screenshot, PidFlagSpellsOutTheFormulaBesideTheGridWithoutRadioButtons) {
  REQUIRE_XVFB();
  const auto img = shoot("grid_formula", "seed004_574_grouped.json --panel launch_grid --pid 29");
  // --panel crops the panel where the 1600 x 900 window's layout puts it.
  ASSERT_EQ(img.w, int(compute_layout(1600, 900, PanelId::launch_grid, PanelId::launch_grid)
                           .rect(PanelId::launch_grid)
                           .w));
  // --pid 29 also moves to pid 29's first event: its tile (5, 0) is the highlighted one.
  const Box hl = find_colour(img, palette::highlight);
  ASSERT_GT(hl.count, 400);
  EXPECT_LT(hl.cx(), img.w * 0.1);
  EXPECT_GT(hl.cy(), img.h * 0.5);
  // The formula's text fills the right of the panel, where the square grid leaves room.
  std::size_t text = 0, radio = 0;
  for (int y = 0; y < img.h / 3; ++y)
    for (int x = 0; x < img.w; ++x) {
      const auto* p = img.at(x, y);
      if (x > img.w * 0.55 && p[0] > 180 && p[1] > 180 && p[2] > 180) ++text;
      // ImGui's radio-button dot (0.26, 0.59, 0.98): not in a figure.
      if (std::abs(p[0] - 66) < 12 && std::abs(p[1] - 150) < 12 && std::abs(p[2] - 250) < 12)
        ++radio;
    }
  EXPECT_GT(text, 700u);  // about 1100 at 788 x 432
  EXPECT_EQ(radio, 0u);
}

TEST(Screenshot, MatricesOutlineTheLoadedTileOfAInTheLegendsMissColour) {
  REQUIRE_XVFB();
  // Position 82: event 81 is pid 0's load_a of k = 0 (every program mapped its tile in round 0),
  // the first read of that tile: an L2 miss, outlined in the legend's "not in L2" red.
  const auto img =
      shoot("matrices", "seed004_574_grouped.json --panel matrices --size 1500x600 --seek 82");
  EXPECT_GT(ink(img), 0.1);
  const Box hl = find_colour(img, palette::l2_miss, 0, 90);  // below the legend and titles
  ASSERT_GT(hl.count, 50);
  EXPECT_LT(hl.x1, img.w / 3.0);  // on A, the left matrix
}

TEST(Screenshot, BroadcastInspectorShowsTheStepAndMaskedLanes) {
  REQUIRE_XVFB();
  const auto img =
      shoot("broadcast", "seed000_copy_5x5.json --panel broadcast --size 2200x1300 --seek 8");
  EXPECT_GT(ink(img), 0.03);
  EXPECT_GT(find_colour(img, palette::highlight, 40).count, 20);    // the step's line of code
  EXPECT_GT(find_colour(img, palette::mask_false, 60).count, 200);  // F lanes of the mask
}

TEST(Screenshot, CodePanelHighlightsTheCurrentLine) {
  REQUIRE_XVFB();
  const auto img = shoot("code", "seed004_574_grouped.json --panel code --size 1000x800 --seek 82");
  EXPECT_GT(ink(img), 0.1);
  EXPECT_GT(find_colour(img, palette::highlight, 40).count, 20);
}

TEST(Screenshot, ControlsMemoryCompareAndSweepAreNotBlank) {
  REQUIRE_XVFB();
  for (const char* panel : {"controls", "memory", "compare", "sweep"}) {
    const auto img =
        shoot(std::string("panel_") + panel,
              std::string("triton_9x9_grouped.json --size 1200x700 --seek 240 --panel ") + panel);
    ASSERT_GT(img.w, 0) << panel;
    EXPECT_GT(ink(img), 0.05) << panel;
  }
}

TEST(Screenshot, MatricesTintInputTilesThatAreInL2) {
  REQUIRE_XVFB();
  // Late in the run most of A and B sit in the 50 MiB L2: teal over the blue/orange matrices.
  const auto img =
      shoot("matrices_l2", "seed004_574_grouped.json --panel matrices --size 1500x600 --seek 1500");
  const Box teal = find_colour(img, Rgba{24, 156, 146}, 40, 90);
  EXPECT_GT(teal.count, 5000);
}

TEST(Screenshot, MemoryPanelShowsHitRateCursorAndResidency) {
  REQUIRE_XVFB();
  const auto img =
      shoot("memory", "seed004_574_grouped.json --panel memory --size 2000x1100 --seek 400");
  EXPECT_GT(ink(img), 0.1);
  EXPECT_GT(find_colour(img, palette::highlight, 0, 60).count,
            100);                                                   // cursor on the plot, tile now
  EXPECT_GT(find_colour(img, palette::l2_hit, 0, 60).count, 2000);  // resident tiles, L2 box
}

TEST(Screenshot, CompareShowsBothOrdersCurrentProgram) {
  REQUIRE_XVFB();
  const auto img =
      shoot("compare", "triton_9x9_grouped.json --panel compare --size 1400x800 --seek 30");
  const Box hl = find_colour(img, palette::highlight, 0, 60);
  ASSERT_GT(hl.count, 200);
  EXPECT_LT(hl.x0, img.w / 2);  // pid 29 in the grouped grid (left)
  EXPECT_GT(hl.x1, img.w / 2);  // and in the row-major grid (right)
}

TEST(Screenshot, WarpsShowOneBankHitByAllLanesAndThePaddedSpread) {
  REQUIRE_XVFB();
  const auto img =
      // A window whose centre region (--panel crops it) is 1300 x 560.
      shoot("warps", "measured_h200_transpose_8192.json --panel warps --size 2500x1170");
  EXPECT_GT(ink(img), 0.05);
  EXPECT_GT(find_colour(img, palette::l2_hit, 0, 60).count, 32 * 30);  // 32 banks, one lane each
  EXPECT_GT(find_colour(img, palette::l2_miss, 0, 60).count, 30);      // the one conflicted bank
  EXPECT_GT(find_colour(img, palette::highlight, 0, 60).count, 40);    // measured figures
}

TEST(Screenshot, GpuPanelSaysWhyThereIsNoDevice) {
  REQUIRE_XVFB();
  const auto img = shoot("gpu", "seed004_574_grouped.json --panel gpu --size 1300x400");
  EXPECT_GT(ink(img), 0.03);
  EXPECT_GT(find_colour(img, palette::b, 60, 30).count, 200);  // the orange no-device sentence
}

// The compiler tab: Triton's choices for the tutorial's % N wrap at 574 (not a multiple of 16),
// under the header in highlight yellow, B's label in B's orange, and the notes saying why.
TEST(Screenshot, CompilerPanelShowsTritonsChoicesAndWhy) {
  REQUIRE_XVFB();
  const auto img = shoot("compiler", "wrap_574_triton_tutorial.json --panel compiler");
  EXPECT_GT(ink(img), 0.02);
  EXPECT_GT(find_colour(img, palette::highlight, 40, 30).count, 100);  // the header
  EXPECT_GT(find_colour(img, palette::b, 40, 30).count, 50);           // "B loads"
}

// The GPU tab on a problem both Triton (triton_h100.json) and a CUDA rung (bench_h100.json) ran:
// the two measured times side by side, the model's prediction under each, the labels saying
// which is which, and the sentence on how far apart they are and why (read back with
// --text-out: the words the figure shows).
TEST(Screenshot, GpuPanelSetsTritonBesideTheCudaRungAndSaysWhy) {
  REQUIRE_XVFB();
  const auto text_file = out_dir() / "gpu_triton.txt";
  std::filesystem::remove(text_file);
  const auto img = shoot("gpu_triton",
                         "measured_h100_triton_4096_fp16.json --panel gpu "
                         "--text-out " +
                             text_file.string());
  EXPECT_GT(ink(img), 0.05);
  EXPECT_GT(find_colour(img, palette::figure_measured, 30).count, 50);   // measured times
  EXPECT_GT(find_colour(img, palette::figure_predicted, 30).count, 50);  // predicted times
  std::ifstream in(text_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* want :
       {"Triton's kernel beside the CUDA rung",
        "kernel tutorial (its own compiled kernel) matmul_mma_sync_bk64",
        "measured, H100 234.8 us (2026-11-26, fit set) 493.2 us (2026-11-23)",
        "predicted, H100-SXM preset", "Triton's kernel is 2.10x faster than matmul_mma_sync_bk64",
        "Triton issues wgmma.m64n128k16.f32.f16.f16, the rung mma.sync."})
    EXPECT_NE(text.find(want), std::string::npos) << "no \"" << want << "\" in:\n" << text;
}

// A Triton kernel file opened with --triton (File -> Open kernel): the code panel lists the file
// with the step's own line, the broadcast inspector says its cells were evaluated from the file,
// and the GPU panel sets the file's measured run (assets/measured/triton_files_h100.json) beside
// the prediction, each labelled.
TEST(Screenshot, KernelFileShowsItsSourceAndItsMeasuredRunBesideThePrediction) {
  REQUIRE_XVFB();
  const auto text_file = out_dir() / "kernel_file.txt";
  const auto png = out_dir() / "kernel_file.png";
  std::filesystem::remove(text_file);
  const std::string cmd = "xvfb-run -a -s \"-screen 0 1600x900x24\" " + std::string(TILESIM_APP) +
                          " --triton " + TILESIM_ASSETS_DIR +
                          "/kernels/seed004_grouped_matmul.py --tab gpu --event 100"
                          " --screenshot " +
                          png.string() + " --text-out " + text_file.string() + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(text_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* want :
       {"seed004_grouped_matmul.py: matmul_kernel (reloads on save)",
        // (monospaced text reads back split where ImGui draws it in pieces)
        "pid 9, step 2 of 29: load_b", "43 b = tl", "pid 9 , k = 0 : b = tl", "evaluated from",
        "Your kernel file, seed004_grouped_matmul.py (matmul_kernel)", "measured (H100,",
        "Triton 3.6.0, do_bench median, correct against float64", "predicted (H100-SXM"})
    EXPECT_NE(text.find(want), std::string::npos) << "no \"" << want << "\" in:\n" << text;
}

// A kernel file the front end refuses: the app says file:line:col and exits 2, as tilesim-cli.
TEST(Screenshot, ARefusedKernelFileIsNamedWithItsLine) {
  REQUIRE_XVFB();
  const auto bad = out_dir() / "refused_kernel.py";
  std::ofstream(bad) << "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                        "def k(x_ptr):\n    tl.atomic_add(x_ptr, 1)\n";
  const auto err = out_dir() / "refused_kernel.err";
  const auto rc_file = out_dir() / "refused_kernel.rc";
  std::filesystem::remove(rc_file);
  // The app's own exit status, written inside the X server's run: xvfb-run's own status also
  // says whether its cleanup went well (5 when another run's removal raced it), not the app's.
  const std::string cmd = "xvfb-run -a -s \"-screen 0 1600x900x24\" sh -c '" +
                          std::string(TILESIM_APP) + " --triton " + bad.string() +
                          " --screenshot " + (out_dir() / "refused.png").string() + " > " +
                          err.string() + " 2>&1; echo $? > " + rc_file.string() + "'";
  (void)std::system(cmd.c_str());
  std::ifstream rc_in(rc_file);
  int rc = -1;
  rc_in >> rc;
  EXPECT_EQ(rc, 2) << "the app's exit status";
  std::ifstream in(err);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("refused_kernel.py:6:5: tl.atomic_add is not supported"), std::string::npos)
      << text;
}
