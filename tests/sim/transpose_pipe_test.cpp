// A transpose's use of its SM's shared-memory pipe, by hand: its work is the tile's write plus
// its column reads, its reads wait on bank conflicts where they conflict, and its time on the
// pipe splits by the conflict-free share of that work.
#include "sim/timing/transpose_pipe.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

namespace {

// A 32-way conflicted read: 700 ps, 100 without conflicts; the tile's write 100 ps, conflict-free.
StepCosts conflicted() {
  StepCosts c;
  c.load_a_smem_ps = 100, c.load_a_smem_free_ps = 100;
  c.transpose_smem_ps = 700, c.transpose_smem_free_ps = 100;
  return c;
}

}  // namespace

TEST(TransposePipe, WorkIsTheTilesWriteAndItsColumnReads) {
  EXPECT_EQ(transpose_work_ps(conflicted()), 800);
}

TEST(TransposePipe, ConflictedReadsWaitOnBankConflictsPaddedOnesOnSharedMemory) {
  StepCosts c = conflicted();
  EXPECT_EQ(transpose_read_cause(c), TimeCause::bank_conflict);
  c.transpose_smem_ps = c.transpose_smem_free_ps;
  EXPECT_EQ(transpose_read_cause(c), TimeCause::smem);
}

TEST(TransposePipe, AWaitSplitsByTheConflictFreeShareOfTheWork) {
  const StepCosts c = conflicted();
  // 200 of 800 ps of work are conflict-free: a quarter of the wait is smem.
  EXPECT_EQ(conflict_free_part(c, 400), 100);
  EXPECT_EQ(conflict_free_part(c, 2), 1);                // 0.5 rounds up
  EXPECT_EQ(conflict_free_part(StepCosts{}, 400), 400);  // no work: all of it
}
