// Problem validation: each bad field is refused with a message that names it and its range.
#include "sim/program/problem.hpp"

#include <gtest/gtest.h>

using namespace tilesim::sim;

namespace {
std::string refusal(const ProblemSpec& s, std::string* field = nullptr) {
  try {
    Problem p(s);
  } catch (const InvalidField& e) {
    if (field) *field = e.field();
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Problem, DefaultIsSeed004Example) {
  const Problem p{ProblemSpec{}};
  EXPECT_EQ(p.m(), 574);
  EXPECT_EQ(p.programs(), 81);
  EXPECT_EQ(p.k_tiles(), 9);
}

TEST(Problem, RefusesNonPowerOfTwoBlockNamingTheField) {
  ProblemSpec s;
  s.block_m = 48;
  std::string field;
  const auto msg = refusal(s, &field);
  EXPECT_EQ(field, "block_m");
  EXPECT_NE(msg.find("power of two in 1..256"), std::string::npos) << msg;
}

TEST(Problem, RefusesZeroNegativeAndHugeSizes) {
  for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-5}, std::int64_t{1} << 40}) {
    ProblemSpec s;
    s.n = bad;
    std::string field;
    const auto msg = refusal(s, &field);
    EXPECT_EQ(field, "n");
    EXPECT_NE(msg.find("1..65536"), std::string::npos) << msg;
  }
}

TEST(Problem, RefusesBlocksLargerThanTheMatrix) {
  ProblemSpec s;
  s.m = 10;
  s.block_m = 64;
  const auto msg = refusal(s);
  EXPECT_NE(msg.find("at most 16"), std::string::npos) << msg;
}

TEST(Problem, RefusesGroupSizeZero) {
  ProblemSpec s;
  s.group_size_m = 0;
  std::string field;
  refusal(s, &field);
  EXPECT_EQ(field, "group_size_m");
}

TEST(Problem, TransposedBHasUnitStrideAlongK) {
  ProblemSpec s;
  s.b_layout = BLayout::transposed;
  const Problem p(s);
  EXPECT_EQ(p.shape(Operand::b).stride_row, 1);
  EXPECT_EQ(p.shape(Operand::b).stride_col, 574);
}

TEST(Problem, OperandsDoNotOverlapInTheAddressSpace) {
  const Problem p{ProblemSpec{}};
  EXPECT_GE(p.base_address(Operand::b), 574u * 574u * 2u);
  EXPECT_GE(p.base_address(Operand::c), p.base_address(Operand::b) + 574u * 574u * 2u);
  EXPECT_EQ(p.base_address(Operand::b) % 4096, 0u);
}

TEST(ProblemNames, ParseWhatToStringPrints) {
  for (auto o : {LaunchOrder::row_major, LaunchOrder::column_major, LaunchOrder::grouped,
                 LaunchOrder::grouped_legacy})
    EXPECT_EQ(parse_launch_order(to_string(o)), o);
  EXPECT_FALSE(parse_kernel("gemm"));
  EXPECT_EQ(allowed_names<Kernel>(), "copy | transpose | matmul");
}

// A number cast into an enum field (an app edit, a fuzzer) is refused with the field and its names,
// so no Problem holds a value that prints as "?" and no saved scenario fails to read back.
TEST(ProblemNames, AnEnumFieldOutOfRangeIsRefusedWithItsNames) {
  ProblemSpec s;
  s.dtype = static_cast<DType>(3);
  try {
    Problem p(s);
    FAIL() << "dtype = 3 was accepted";
  } catch (const InvalidField& e) {
    EXPECT_EQ(e.field(), "dtype");
    EXPECT_NE(std::string(e.what()).find("dtype = 3 is not one of: fp16 | bf16 | fp32"),
              std::string::npos)
        << e.what();
  }
  s = ProblemSpec{};
  s.order = static_cast<LaunchOrder>(7);
  EXPECT_THROW(Problem{s}, InvalidField);
  s = ProblemSpec{};
  s.kernel = static_cast<Kernel>(-1);
  EXPECT_THROW(Problem{s}, InvalidField);
  EXPECT_NO_THROW(Problem{ProblemSpec{}});
}
