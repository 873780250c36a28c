// One text form for byte counts, shared by the app and the CLI.
#include "sim/base/format.hpp"

#include <gtest/gtest.h>

using tilesim::sim::format_bytes;

TEST(FormatBytes, UsesDecimalUnitsAsDatasheetsDo) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(442368), "442.37 kB");  // Triton's example: 54 fp16 tiles of 64 x 64
  EXPECT_EQ(format_bytes(1.318e6), "1.32 MB");
  EXPECT_EQ(format_bytes(7.3e9), "7.30 GB");
}
