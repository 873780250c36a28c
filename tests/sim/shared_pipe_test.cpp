// The SM's shared pipe in processor sharing (sim/timing/shared_pipe.hpp): hand-computed finish
// times.
#include "sim/timing/shared_pipe.hpp"

#include <gtest/gtest.h>

#include <vector>

using tilesim::sim::SharedPipe;

// Alone, a job of w ps ends w ps after it joins.
TEST(SharedPipe, AJobAloneTakesItsWork) {
  SharedPipe p;
  EXPECT_EQ(p.next_finish(), -1);
  p.join(1000, 400, {.pid = 7});
  EXPECT_EQ(p.jobs(), 1);
  EXPECT_EQ(p.next_finish(), 1400);
  std::vector<SharedPipe::Job> done;
  p.finish_by(1400, &done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].pid, 7);
  EXPECT_EQ(done[0].joined, 1000);
  EXPECT_EQ(p.jobs(), 0);
}

// Two jobs of 100 ps joining at 0 and 40: the first runs alone for 40 ps, then both at half
// speed; the first's remaining 60 ps take 120 (it ends at 160), the second has then done 60 and
// ends its last 40 alone at 200 = 0 + 2 x 100: the pipe never idles.
TEST(SharedPipe, TwoJobsShareThePipeEqually) {
  SharedPipe p;
  std::vector<SharedPipe::Job> done;
  p.join(0, 100, {.pid = 0});
  const int v0 = p.version();
  EXPECT_EQ(p.next_finish(), 100);
  p.join(40, 100, {.pid = 1});
  EXPECT_NE(p.version(), v0);  // the finish asked for at 0 is stale
  EXPECT_EQ(p.next_finish(), 160);
  p.finish_by(160, &done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].pid, 0);
  EXPECT_EQ(p.next_finish(), 200);
  p.finish_by(200, &done);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].pid, 1);
}

// Jobs that finish together end together, in pid order.
TEST(SharedPipe, JobsFinishingTogetherEndInPidOrder) {
  SharedPipe p;
  std::vector<SharedPipe::Job> done;
  p.join(0, 300, {.pid = 5});
  p.join(0, 300, {.pid = 2});
  p.join(0, 300, {.pid = 9});
  EXPECT_EQ(p.next_finish(), 900);
  p.finish_by(900, &done);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[0].pid, 2);
  EXPECT_EQ(done[1].pid, 5);
  EXPECT_EQ(done[2].pid, 9);
}
