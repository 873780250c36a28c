// The size estimate and limits of recordings (--max-mb, --max-frames): a recording past either
// is refused with the estimate and the limit, and bad limits name their allowed range.
#include "app/core/recording_budget.hpp"

#include <gtest/gtest.h>

#include "app/core/options.hpp"

using namespace tilesim::app;

TEST(RecordingBudget, EstimateIsTheFirstFramePlusTheMeanLaterFrameForTheRest) {
  // 100 kB first frame, 3 later frames of 2 kB together 6 kB: 100 + 2 x 99 kB for 100 frames.
  EXPECT_DOUBLE_EQ(estimate_recording_bytes(100000, 6000, 4, 100), 100000 + 2000.0 * 99);
  EXPECT_DOUBLE_EQ(estimate_recording_bytes(100000, 0, 1, 1), 100000);
  // One frame sampled: every later frame is assumed as large as the first (no better guess).
  EXPECT_DOUBLE_EQ(estimate_recording_bytes(1000, 0, 1, 10), 10000);
}

TEST(RecordingBudget, PastTheLimitIsRefusedNamingTheEstimateAndTheLimit) {
  const auto why = recording_refusal(12.5e6, 8, 958, 12);
  EXPECT_NE(why.find("12.50 MB"), std::string::npos) << why;
  EXPECT_NE(why.find("--max-mb 8"), std::string::npos) << why;
  EXPECT_NE(why.find("958 frames"), std::string::npos) << why;
  EXPECT_TRUE(recording_refusal(7.9e6, 8, 958, 12).empty());
  EXPECT_TRUE(recording_refusal(1e12, 0, 958, 12).empty()) << "--max-mb 0 lifts the limit";
}

TEST(RecordingBudget, TooManyFramesAreRefusedWithTheirDuration) {
  const auto why = frame_count_refusal(958, kDefaultMaxRecordingFrames, 12);
  EXPECT_NE(why.find("958 frames (79.8 s at 12 fps)"), std::string::npos) << why;
  EXPECT_NE(why.find("--max-frames 600"), std::string::npos) << why;
  EXPECT_TRUE(frame_count_refusal(25, kDefaultMaxRecordingFrames, 12).empty());
}

TEST(RecordingBudget, LimitsParseAndBadValuesNameTheirRange) {
  const auto ok = parse_options({"--record", "a.gif", "--max-mb", "0.5", "--max-frames", "2000"});
  ASSERT_TRUE(ok.error.empty()) << ok.error;
  EXPECT_DOUBLE_EQ(ok.options.max_mb, 0.5);
  EXPECT_EQ(ok.options.max_frames, 2000);
  EXPECT_DOUBLE_EQ(parse_options({"--record", "a.gif"}).options.max_mb, kDefaultMaxRecordingMb);
  EXPECT_NE(parse_options({"--record", "a.gif", "--max-mb", "-1"}).error.find("0..100000"),
            std::string::npos);
  EXPECT_NE(parse_options({"--record", "a.gif", "--max-mb", "lots"}).error.find("--max-mb"),
            std::string::npos);
  EXPECT_NE(parse_options({"--record", "a.gif", "--max-frames", "0"}).error.find("1..100000"),
            std::string::npos);
  EXPECT_NE(parse_options({"--max-mb", "4"}).error.find("go with --record"), std::string::npos);
}
