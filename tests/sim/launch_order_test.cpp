// Launch orders: the curriculum's pid -> tile examples, and exhaustive bijection checks.
#include "sim/program/launch_order.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

namespace {
const LaunchOrder kAll[] = {LaunchOrder::row_major, LaunchOrder::column_major, LaunchOrder::grouped,
                            LaunchOrder::grouped_legacy};
}

TEST(GroupedOrder, Seed004Has81ProgramsAndPid29MapsToRow5Col0) {
  ProblemSpec s;  // defaults: seed 004's 574^3, 64^3 blocks, GROUP_SIZE_M = 3, grouped
  const Problem p(s);
  EXPECT_EQ(p.tiles_m(), 9);
  EXPECT_EQ(p.tiles_n(), 9);
  EXPECT_EQ(p.programs(), 81);
  EXPECT_EQ(tile_of(p, 29), (TileCoord{5, 0}));
  // Seed 004 writes "2 // 3 = 1" for pid_n; the right value is 0 (its arithmetic slip).
  EXPECT_EQ(tile_of(LaunchOrder::grouped_legacy, grid_of(p), 29), (TileCoord{5, 0}));
}

TEST(GroupedOrder, FirstNinePidsOfTritonExampleFormThreeByThreeBlock) {
  const GridShape g{9, 9, 3};
  for (std::int64_t pid = 0; pid < 9; ++pid) {
    const auto t = tile_of(LaunchOrder::grouped, g, pid);
    EXPECT_EQ(t.pid_m, pid % 3);
    EXPECT_EQ(t.pid_n, pid / 3);
  }
}

TEST(RowMajorOrder, WalksAlongRows) {
  const GridShape g{4, 5, 1};
  EXPECT_EQ(tile_of(LaunchOrder::row_major, g, 7), (TileCoord{1, 2}));
  EXPECT_EQ(tile_of(LaunchOrder::column_major, g, 7), (TileCoord{3, 1}));
}

TEST(LaunchOrders, AreBijectionsOnEveryGridUpTo16By16AndEveryGroupSizeUpTo16) {
  for (std::int64_t tm = 1; tm <= 16; ++tm)
    for (std::int64_t tn = 1; tn <= 16; ++tn)
      for (std::int64_t G = 1; G <= 16; ++G) {
        const GridShape g{tm, tn, G};
        for (auto o : kAll) {
          const auto m = launch_mapping(o, g);
          ASSERT_TRUE(check_coverage(g, m).bijective)
              << to_string(o) << " " << tm << "x" << tn << " G=" << G;
        }
      }
}

TEST(GroupedOrders, TodaysAndLegacyFormulasDifferInOrderOnSomeGrids) {
  int differing_grids = 0;
  for (std::int64_t tm = 1; tm <= 16; ++tm)
    for (std::int64_t tn = 1; tn <= 16; ++tn)
      for (std::int64_t G = 1; G <= 16; ++G) {
        const GridShape g{tm, tn, G};
        if (launch_mapping(LaunchOrder::grouped, g) !=
            launch_mapping(LaunchOrder::grouped_legacy, g))
          ++differing_grids;
      }
  EXPECT_GT(differing_grids, 0);
  // A concrete case: 5 rows of tiles, G = 3, 3 columns. The last group has 2 rows and starts at
  // pid 9; today's formula puts pid 9 on row 3 + (9 % 9) % 2 = 3, the legacy one on 3 + 9 % 2 = 4.
  const GridShape g{5, 3, 3};
  EXPECT_EQ(tile_of(LaunchOrder::grouped, g, 9), (TileCoord{3, 0}));
  EXPECT_EQ(tile_of(LaunchOrder::grouped_legacy, g, 9), (TileCoord{4, 0}));
}

TEST(Coverage, ListsDuplicatesAndMisses) {
  const GridShape g{2, 2, 1};
  const std::vector<TileCoord> broken{{0, 0}, {0, 0}, {1, 0}, {1, 0}};
  const auto c = check_coverage(g, broken);
  EXPECT_FALSE(c.bijective);
  EXPECT_EQ(c.duplicates, (std::vector<TileCoord>{{0, 0}, {1, 0}}));
  EXPECT_EQ(c.misses, (std::vector<TileCoord>{{0, 1}, {1, 1}}));
}

TEST(PidGrid, IsTheInverseOfTheMapping) {
  const GridShape g{7, 5, 3};
  for (auto o : kAll) {
    const auto inv = pid_grid(o, g);
    for (std::int64_t pid = 0; pid < g.programs(); ++pid) {
      const auto t = tile_of(o, g, pid);
      EXPECT_EQ(inv[t.pid_m * g.tiles_n + t.pid_n], pid);
    }
  }
}

TEST(ExplainTileOf, Seed004Pid29EndsWithRow5AndColumn0) {
  const auto lines = explain_tile_of(LaunchOrder::grouped, GridShape{9, 9, 3}, 29);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_NE(lines[lines.size() - 2].find("= 5"), std::string::npos);
  EXPECT_NE(lines.back().find("2 // 3 = 0"), std::string::npos);
}

TEST(LaunchGroup, Seed004Pid29IsInTheSecondGroupOfThreeRows) {
  const Problem p{ProblemSpec{}};  // 9 x 9 tiles, GROUP_SIZE_M = 3: 27 pids per group
  EXPECT_EQ(launch_group_of(p, 26), 0);
  EXPECT_EQ(launch_group_of(p, 29), 1);
  EXPECT_EQ(launch_group_of(p, 80), 2);
}

TEST(LaunchGroup, IsTheRowColumnOrBlockOfRowsEveryPidOfItComputes) {
  for (const auto order : kAll)
    for (std::int64_t tm = 1; tm <= 9; ++tm)
      for (std::int64_t tn = 1; tn <= 9; ++tn)
        for (std::int64_t gm = 1; gm <= 5; ++gm) {
          const GridShape g{tm, tn, gm};
          std::int64_t previous = 0;
          for (std::int64_t pid = 0; pid < g.programs(); ++pid) {
            const TileCoord t = tile_of(order, g, pid);
            const std::int64_t group = launch_group_of(order, g, pid);
            const std::int64_t want = order == LaunchOrder::row_major      ? t.pid_m
                                      : order == LaunchOrder::column_major ? t.pid_n
                                                                           : t.pid_m / gm;
            ASSERT_EQ(group, want)
                << to_string(order) << " " << tm << "x" << tn << " G=" << gm << " pid " << pid;
            // Groups are runs of consecutive pids: the order finishes one before the next.
            ASSERT_TRUE(group == previous || group == previous + 1) << "pid " << pid;
            previous = group;
          }
        }
}
