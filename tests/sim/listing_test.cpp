// Listings: every step of every kernel points at the listing line that performs it.
#include "sim/program/listing.hpp"

#include <gtest/gtest.h>

#include "sim/program/program_trace.hpp"

using namespace tilesim::sim;

TEST(Listing, EveryStepLineExistsAndShowsItsOperation) {
  for (auto k : {Kernel::copy, Kernel::transpose, Kernel::matmul})
    for (auto bd : {Boundary::mask, Boundary::wrap})
      for (auto o : {LaunchOrder::row_major, LaunchOrder::column_major, LaunchOrder::grouped,
                     LaunchOrder::grouped_legacy}) {
        ProblemSpec s;
        s.kernel = k;
        s.boundary = bd;
        s.order = o;
        const Problem p(s);
        const auto& l = kernel_listing(p);
        ASSERT_GT(l.lines.size(), 10u);
        for (const auto& st : program_trace(p, 0)) {
          ASSERT_GT(st.line, 0) << to_string(k) << " " << to_string(st.op);
          const auto& text = l.lines[st.line - 1];
          const char* expect = st.op == StepOp::map         ? "pid_n"
                               : st.op == StepOp::dot       ? "tl.dot"
                               : st.op == StepOp::transpose ? "tl.trans"
                               : st.op == StepOp::store     ? "tl.store"
                                                            : "tl.load";
          EXPECT_NE(text.find(expect), std::string::npos) << text;
          if (is_memory_op(st.op)) {
            EXPECT_GT(st.ptr_line, 0);
          }
        }
      }
}

TEST(Listing, LaunchOrderBlockIsSplicedIn) {
  const auto& l = kernel_listing(Kernel::matmul, Boundary::mask, LaunchOrder::grouped);
  EXPECT_GT(l.find("num_pid_in_group ="), 0);
  EXPECT_EQ(l.text().find("{launch_order}"), std::string::npos);
  const auto& r = kernel_listing(Kernel::matmul, Boundary::mask, LaunchOrder::row_major);
  EXPECT_EQ(r.find("num_pid_in_group ="), 0);
}
