// The kernels' __device__ tile_of against sim::tile_of, exhaustively over small grids: every
// order, every GROUP_SIZE_M from 1 past the grid's height, every pid.
#include <gtest/gtest.h>

#include "gpu_skip.hpp"
#include "sim/program/launch_order.hpp"

using namespace tilesim;

TEST(DeviceTileMapping, MatchesSimTileOfForEveryPidOrderAndGroupSize) {
  TILESIM_SKIP_WITHOUT_GPU();
  const sim::LaunchOrder orders[] = {sim::LaunchOrder::row_major, sim::LaunchOrder::column_major,
                                     sim::LaunchOrder::grouped, sim::LaunchOrder::grouped_legacy};
  int grids = 0;
  for (std::int64_t tm = 1; tm <= 11; ++tm)
    for (std::int64_t tn = 1; tn <= 9; ++tn)
      for (std::int64_t g = 1; g <= tm + 1; ++g)
        for (auto order : orders) {
          const sim::GridShape shape{tm, tn, g};
          std::string why;
          const auto got = kernels::device_launch_mapping(order, shape, &why);
          ASSERT_TRUE(got.has_value()) << why;
          ASSERT_EQ(static_cast<std::int64_t>(got->size()), shape.programs());
          for (std::int64_t pid = 0; pid < shape.programs(); ++pid)
            ASSERT_EQ((*got)[pid], sim::tile_of(order, shape, pid))
                << sim::to_string(order) << " grid " << tm << "x" << tn << " G=" << g << " pid "
                << pid;
          ++grids;
        }
  EXPECT_GT(grids, 1000);
}

TEST(DeviceTileMapping, Seed004Pid29MapsToRow5Col0OnTheDevice) {
  TILESIM_SKIP_WITHOUT_GPU();
  const auto got = kernels::device_launch_mapping(sim::LaunchOrder::grouped, {9, 9, 3});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ((*got)[29], (sim::TileCoord{5, 0}));
}

TEST(DeviceTileMapping, WithoutADeviceSaysWhy) {
  if (kernels::query_device().available) GTEST_SKIP() << "a device is present";
  std::string why;
  EXPECT_FALSE(
      kernels::device_launch_mapping(sim::LaunchOrder::grouped, {3, 3, 2}, &why).has_value());
  EXPECT_FALSE(why.empty());
}
