// Lessons, exports and recordings through the real `tilesim` under xvfb-run: every lesson opens
// every step headless and the app checks each highlighted item was drawn (exit 1 otherwise);
// --export-dir writes one non-blank PNG per step; --record writes a GIF of >= 24 frames (MP4 only
// where ffmpeg exists); a bad lesson file is refused with the key and line, never a crash.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "app/core/layout.hpp"
#include "headless_app.hpp"
#include "app/core/palette.hpp"
#include "scenario/lesson.hpp"

namespace fs = std::filesystem;

namespace {

using tilesim::test::have_xvfb;

fs::path fresh_dir(const std::string& name) {
  const auto d = fs::temp_directory_path() / "tilesim_lessons" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs the app headless with `args`; stderr goes to `err`. Returns the app's exit status.
int run_app(const std::string& args, const fs::path& err) {
  return tilesim::test::run_headless(TILESIM_APP, args, err);
}

std::string read(const fs::path& p) {
  std::string s;
  if (std::FILE* f = std::fopen(p.c_str(), "rb")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
    std::fclose(f);
  }
  return s;
}

// Distinct colours in a coarse sample: a blank figure has one or two.
int colours(const fs::path& png, int* w = nullptr) {
  int iw = 0, ih = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &iw, &ih, &n, 3);
  if (!px) return 0;
  std::set<int> seen;
  for (int y = 0; y < ih; y += 5)
    for (int x = 0; x < iw; x += 5) {
      const unsigned char* c = px + (std::size_t(y) * iw + x) * 3;
      seen.insert(c[0] << 16 | c[1] << 8 | c[2]);
    }
  stbi_image_free(px);
  if (w) *w = iw;
  return static_cast<int>(seen.size());
}

}  // namespace

TEST(LessonExport, EveryLessonWritesOneNonBlankPngPerStepWithItsHighlightsDrawn) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto all = tilesim::scenario::list_lessons(fs::path(TILESIM_ASSETS_DIR) / "lessons");
  ASSERT_GE(all.size(), 8u);
  for (const auto& e : all) {
    const auto dir = fresh_dir(e.name);
    const auto err = dir / "stderr.txt";
    // Exit 1 when a step's position or highlights do not resolve or were not drawn.
    EXPECT_EQ(run_app("--lesson " + e.name + " --size 1280x720 --export-dir " + dir.string(), err),
              0)
        << e.name << ": " << read(err);
    const auto steps = tilesim::scenario::load_lesson(e.path).steps.size();
    for (std::size_t i = 1; i <= steps; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "-step%02zu.png", i);
      const auto png = dir / (e.name + name);
      ASSERT_TRUE(fs::exists(png)) << png;
      EXPECT_GT(colours(png), 20) << png << " looks blank";
    }
  }
}

// Slides (issue 24): every step of every lesson at --projector (scale 2, 1.5x text, light
// theme) in a 1920 x 1080 and a 1280 x 720 window; --check-text fails (exit 1) naming the
// lesson, step, panel and text line of every glyph its panel's clip rectangle cuts. One test per
// lesson and size, so ctest runs them side by side, each under its own time limit.
struct Slide {
  std::string lesson, size;
};
void PrintTo(const Slide& s, std::ostream* os) {
  *os << s.lesson << " at " << s.size;
}
std::vector<Slide> every_slide_deck() {
  std::vector<Slide> out;
  for (const char* size : {"1920x1080", "1280x720"})
    for (const auto& e : tilesim::scenario::list_lessons(fs::path(TILESIM_ASSETS_DIR) / "lessons"))
      out.push_back({e.name, size});
  return out;
}

class ProjectorSlides : public testing::TestWithParam<Slide> {};

TEST_P(ProjectorSlides, CutNoText) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const Slide& s = GetParam();
  const auto dir = fresh_dir("projector_" + s.size + "_" + s.lesson);
  const auto err = dir / "stderr.txt";
  EXPECT_EQ(run_app("--lesson " + s.lesson + " --size " + s.size +
                        " --projector --check-text --export-dir " + dir.string(),
                    err),
            0)
      << s.lesson << " at " << s.size << ": " << read(err);
}

INSTANTIATE_TEST_SUITE_P(Lessons, ProjectorSlides, testing::ValuesIn(every_slide_deck()),
                         [](const testing::TestParamInfo<Slide>& i) {
                           std::string n = i.param.lesson + "_" + i.param.size;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(LessonExport, EveryLessonHasItsProjectorSlides) {
  EXPECT_GE(every_slide_deck().size(), 2 * 8u);  // 8+ lessons at both sizes
}

TEST(LessonExport, CheckTextNamesThePanelAndTextItCuts) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  // Text four times too large for a small window is cut somewhere: the check must say where.
  const auto dir = fresh_dir("cut_text");
  const auto err = dir / "stderr.txt";
  EXPECT_EQ(run_app("--lesson 01_pid_to_tile --size 640x360 --scale 1 --font-scale 4 "
                    "--check-text --export-dir " +
                        dir.string(),
                    err),
            1);
  const std::string text = read(err);
  EXPECT_NE(text.find("lesson 01_pid_to_tile, step 1 of"), std::string::npos) << text;
  EXPECT_NE(text.find("cut text in '"), std::string::npos) << text;
}

TEST(LessonExport, ScaleTwoDoublesTheFigures) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("scale2");
  // 1280 x 720 (not smaller): the code panel must show all four lines step 1 highlights.
  ASSERT_EQ(run_app("--lesson 02_broadcast_and_mask --size 1280x720 --scale 2 --export-dir " +
                        dir.string(),
                    dir / "stderr.txt"),
            0)
      << read(dir / "stderr.txt");
  int w = 0;
  EXPECT_GT(colours(dir / "02_broadcast_and_mask-step01@2x.png", &w), 20);
  EXPECT_EQ(w, 2560);
}

TEST(LessonExport, BadLessonFileIsRefusedWithKeyAndLine) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("bad");
  const auto bad = dir / "bad_lesson.json";
  std::FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs(
      "{\n  \"title\": \"t\",\n  \"scenario\": \"seed004_574_grouped.json\",\n"
      "  \"steps\": [{\"view\": \"launch_grid\", \"position\": {\"pid\": 1},\n"
      "              \"narration\": \"n\", \"colour\": 3}]\n}\n",
      f);
  std::fclose(f);
  const auto err = dir / "stderr.txt";
  EXPECT_EQ(run_app("--lesson " + bad.string() + " --export-dir " + dir.string(), err), 1);
  const std::string msg = read(err);
  EXPECT_NE(msg.find("line 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("steps[0].colour"), std::string::npos) << msg;
}

TEST(Record, GifHasAtLeast24FramesAndIsTheSameEveryRun) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("record");
  const std::string args = "--scenario " + std::string(TILESIM_ASSETS_DIR) +
                           "/scenarios/triton_9x9_grouped.json --tab memory --size 640x360 "
                           "--from 81 --to 89 --fps 12 --record ";
  ASSERT_EQ(run_app(args + (dir / "a.gif").string(), dir / "e1.txt"), 0) << read(dir / "e1.txt");
  int error = 0;
  GifFileType* gif = DGifOpenFileName((dir / "a.gif").c_str(), &error);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_GE(gif->ImageCount, 24);
  EXPECT_EQ(gif->SWidth, 640);
  DGifCloseFile(gif, &error);
  // Frames are functions of (position, fraction): a second recording is byte-identical.
  ASSERT_EQ(run_app(args + (dir / "b.gif").string(), dir / "e2.txt"), 0);
  EXPECT_EQ(read(dir / "a.gif"), read(dir / "b.gif"));
}

// A step's hide_rows draws those rows' figures as "?" (the export checks each was drawn so);
// a row the view's table does not have fails the export, naming it.
TEST(LessonExport, HiddenRowsAreDrawnAndAnUnknownOneFailsNamingIt) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("hide_rows");
  // Lesson 08's first screen, alone (its later steps replay 8192^3, minutes on two cores).
  const auto with = [](const std::string& rows) {
    return "{\"title\": \"t\", \"scenario\": \"triton_9x9_grouped.json\", \"steps\": [{"
           "\"view\": \"compare\", \"position\": {\"pid\": 8, \"step\": 0}, "
           "\"narration\": \"n\", \"hide_rows\": [" +
           rows + "]}]}";
  };
  const auto write = [](const fs::path& p, const std::string& s) {
    std::FILE* f = std::fopen(p.c_str(), "wb");
    std::fwrite(s.data(), 1, s.size(), f);
    std::fclose(f);
  };
  // The lesson names its scenario relative to assets/scenarios/, wherever the file is.
  const auto good = dir / "hidden.json", bad = dir / "typo.json";
  write(good, with("\"predicted time (timed engine)\", \"DRAM bytes, whole run\""));
  write(bad, with("\"predicted tme\""));
  const std::string one = " --lesson-step 1 --size 1280x720 --export-dir " + (dir / "out").string();
  EXPECT_EQ(run_app("--lesson " + good.string() + one, dir / "e1.txt"), 0) << read(dir / "e1.txt");
  EXPECT_EQ(run_app("--lesson " + bad.string() + one, dir / "e2.txt"), 1);
  const std::string e2 = read(dir / "e2.txt");
  EXPECT_NE(e2.find("not drawn: hidden:predicted tme"), std::string::npos) << e2;
}

// A highlighted code line below the panel's fold is scrolled into view: its pink outline is in
// the exported figure, not only recorded as drawn (the export passed with it off screen once).
TEST(LessonExport, AHighlightedCodeLineBelowTheFoldIsScrolledIntoView) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("code_scroll");
  const auto lesson = dir / "store.json";
  {  // pid 8's first step (line 17 of 32) with the last line, the store, highlighted
    std::FILE* f = std::fopen(lesson.c_str(), "wb");
    std::fputs(
        "{\"title\": \"t\", \"scenario\": \"triton_9x9_grouped.json\", \"steps\": [{"
        "\"view\": \"compare\", \"position\": {\"pid\": 8, \"step\": 0}, "
        "\"highlight\": {\"code_lines\": [32]}, \"narration\": \"n\"}]}",
        f);
    std::fclose(f);
  }
  ASSERT_EQ(run_app("--lesson " + lesson.string() + " --size 1280x720 --export-dir " +
                        (dir / "out").string(),
                    dir / "e.txt"),
            0)
      << read(dir / "e.txt");
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load((dir / "out" / "store-step01.png").c_str(), &w, &h, &n, 3);
  ASSERT_NE(px, nullptr);
  namespace app = tilesim::app;
  // The app's layout for this step: 1x text, a lesson open, a step that points at code lines.
  const auto code = app::compute_layout(1280, 720, std::nullopt, app::PanelId::compare, 1, true, 1,
                                        app::SlideNeeds{true, false})
                        .rect(app::PanelId::code);
  int pink = 0;
  for (int y = int(code.y); y < int(code.y + code.h) && y < h; ++y)
    for (int x = int(code.x); x < int(code.x + code.w) && x < w; ++x) {
      const unsigned char* c = px + (std::size_t(y) * w + x) * 3;
      pink += std::abs(c[0] - app::palette::lesson.r) < 24 &&
              std::abs(c[1] - app::palette::lesson.g) < 24 &&
              std::abs(c[2] - app::palette::lesson.b) < 24;
    }
  stbi_image_free(px);
  EXPECT_GT(pink, 200) << "the outline of line 32 is not in the code panel";
}

// Events 81..89 of one panel (the README's example): cropped to the panel at its natural size,
// one global palette, later frames only the rectangle that changed, well under 2 MB.
TEST(Record, OnePanelIsCroppedAndSmall) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("record_panel");
  const auto out = dir / "loads.gif";
  ASSERT_EQ(run_app("--scenario " + std::string(TILESIM_ASSETS_DIR) +
                        "/scenarios/triton_9x9_grouped.json --panel memory --from 81 --to 89 "
                        "--fps 12 --record " +
                        out.string(),
                    dir / "e.txt"),
            0)
      << read(dir / "e.txt");
  EXPECT_LT(fs::file_size(out), 1000000u);
  int error = 0;
  GifFileType* gif = DGifOpenFileName(out.c_str(), &error);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  const auto panel = tilesim::app::compute_layout(1600, 900, tilesim::app::PanelId::memory,
                                                  tilesim::app::PanelId::memory)
                         .rect(tilesim::app::PanelId::memory);
  EXPECT_EQ(gif->SWidth, static_cast<int>(panel.w));
  EXPECT_EQ(gif->SHeight, static_cast<int>(panel.h));
  EXPECT_NE(gif->SColorMap, nullptr);
  ASSERT_GE(gif->ImageCount, 24);
  int partial = 0;
  for (int i = 1; i < gif->ImageCount; ++i)
    partial += gif->SavedImages[i].ImageDesc.Width * gif->SavedImages[i].ImageDesc.Height <
               gif->SWidth * gif->SHeight;
  EXPECT_GT(partial, gif->ImageCount / 2) << "later frames hold only what changed";
  DGifCloseFile(gif, &error);
}

// A recording past --max-mb is refused with the estimate; one of too many frames before any
// frame is rendered. Nothing is written either way.
TEST(Record, PastTheLimitsIsRefusedWithTheEstimateAndNothingWritten) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("record_limit");
  const std::string base = "--scenario " + std::string(TILESIM_ASSETS_DIR) +
                           "/scenarios/triton_9x9_grouped.json --tab memory ";
  EXPECT_EQ(run_app(base + "--from 81 --to 89 --max-mb 0.05 --record " + (dir / "a.gif").string(),
                    dir / "e1.txt"),
            1);
  const std::string e1 = read(dir / "e1.txt");
  EXPECT_NE(e1.find("would be about"), std::string::npos) << e1;
  EXPECT_NE(e1.find("--max-mb 0.05"), std::string::npos) << e1;
  EXPECT_FALSE(fs::exists(dir / "a.gif"));
  EXPECT_EQ(
      run_app(base + "--from 81 --to 400 --record " + (dir / "b.gif").string(), dir / "e2.txt"), 1);
  const std::string e2 = read(dir / "e2.txt");
  EXPECT_NE(e2.find("958 frames"), std::string::npos) << e2;
  EXPECT_NE(e2.find("--max-frames 600"), std::string::npos) << e2;
  EXPECT_FALSE(fs::exists(dir / "b.gif"));
}

TEST(Record, Mp4WhereFfmpegExistsAndAClearMessageWhereNot) {
  if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  const auto dir = fresh_dir("mp4");
  const auto err = dir / "stderr.txt";
  const std::string args = "--scenario " + std::string(TILESIM_ASSETS_DIR) +
                           "/scenarios/triton_9x9_grouped.json --size 640x360 --from 81 --to 85 "
                           "--record " +
                           (dir / "a.mp4").string();
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) {
    EXPECT_EQ(run_app(args, err), 2);
    EXPECT_NE(read(err).find("ffmpeg"), std::string::npos);
    GTEST_SKIP() << "ffmpeg is not installed: checked the message only";
  }
  ASSERT_EQ(run_app(args, err), 0) << read(err);
  EXPECT_GT(fs::file_size(dir / "a.mp4"), 1000u);
}
