// The lesson text model: segments, bare numbers, figure names and worked formulas
// (scenario/lesson_text.hpp).
#include "scenario/lesson_text.hpp"

#include <gtest/gtest.h>

#include "scenario/lesson.hpp"

namespace tilesim::scenario {
namespace {

TEST(LessonText, SplitsPlainFiguresAndFormulas) {
  const auto s = split_lesson_text("ratio {compare.dram_bytes.ratio} and `9 x 9 = 81`.");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0], (TextSegment{TextPart::plain, "ratio "}));
  EXPECT_EQ(s[1], (TextSegment{TextPart::figure, "compare.dram_bytes.ratio"}));
  EXPECT_EQ(s[3], (TextSegment{TextPart::formula, "9 x 9 = 81"}));
  EXPECT_EQ(s[4], (TextSegment{TextPart::plain, "."}));
}

TEST(LessonText, UnbalancedBracesAndBackticksAreRefused) {
  EXPECT_THROW(split_lesson_text("a {run.time"), ScenarioError);
  EXPECT_THROW(split_lesson_text("a run.time}"), ScenarioError);
  EXPECT_THROW(split_lesson_text("a `2 + 2 = 4"), ScenarioError);
  EXPECT_THROW(split_lesson_text("a {run.{time}}"), ScenarioError);
  EXPECT_THROW(split_lesson_text("a {} b"), ScenarioError);
}

TEST(LessonText, BareNumbersAreFoundButNamesAndSeedsAreNot) {
  EXPECT_EQ(bare_numbers("Does that make it 1.67x faster?"), std::vector<std::string>{"1.67"});
  EXPECT_EQ(bare_numbers("At 8192^3 fp16"), (std::vector<std::string>{"8192", "3"}));
  EXPECT_EQ(bare_numbers("the 50 MB L2"), std::vector<std::string>{"50"});
  EXPECT_EQ(bare_numbers("8192³ and 2x"), (std::vector<std::string>{"8192", "2"}));
  EXPECT_TRUE(bare_numbers("H100, A100, fp16, bf16, L2, sm_90, tl.float16, seed 003").empty());
  EXPECT_TRUE(bare_numbers("Seed 004 says so.").empty());
}

TEST(LessonText, FigureNamesAreCheckedByNamespaceMetricAndSide) {
  for (const char* ok :
       {"run.time", "run.bound", "compare.dram_bytes.ratio", "compare.time.a", "now.l2_hit_rate",
        "footprint.b.tiles", "problem.shape", "machine.l2_bytes", "machine.sm_count",
        "machine.l2_partitions", "measured.h100.matmul_wgmma_tma.8192.fp16.grouped.ms",
        "measured.h200.matmul_naive.8192x4096x6144.32x32.b-transposed.tflops",
        "quote.003.t4_plain_ms", "footprint.b.tiles / footprint.a.tiles"})
    EXPECT_FALSE(figure_name_error(ok)) << ok << ": " << figure_name_error(ok).value_or("");
  for (const char* bad :
       {"runs.time", "run.speed", "compare.bound.a", "compare.time.c", "now.waves",
        "footprint.c.tiles", "problem.colour", "machine.fans", "measured.a100.x.ms",
        "measured.h100.x.8192.ms2", "measured.h100.x.huge.ms", "quote.abc", "run.time / nope.x"})
    EXPECT_TRUE(figure_name_error(bad)) << bad;
}

TEST(LessonText, TrueFormulasHold) {
  for (const char* f :
       {"pid_m = 3 + (29 % 27) % 3 = 5", "29 // 27 = 1", "9 x 9 = 81", "574 / 64 = 8.97",
        "cdiv(574, 64) = 9", "min(3, 9 - 6) = 3", "max(1, 2) = 2", "2 ^ 10 = 1024", "27 + 27 = 54",
        "offs_m[:, None] + offs_n[None, :]", "90 / 54 = 1.67", "x = 3", "rows_[:, None] < 3",
        "a == b", "-7 % 3 = 2", "(1 + 2) * 3 = 9 = 3 x 3"})
    EXPECT_FALSE(formula_error(f)) << f << ": " << formula_error(f).value_or("");
}

TEST(LessonText, FalseFormulasAreCaught) {
  const auto e = formula_error("2 // 3 = 1");
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("2 // 3 is 0"), std::string::npos) << *e;
  for (const char* f : {"574 / 64 = 9", "574 / 64 = 8.96", "9 x 9 = 80", "cdiv(574, 64) = 8",
                        "pid_m = 3 + (29 % 27) % 3 = 6", "1 + 1 = 2 = 3"})
    EXPECT_TRUE(formula_error(f)) << f;
}

TEST(LessonText, LoadRefusesBadFiguresAndFalseFormulasWithTheField) {
  auto lesson = [](const std::string& narration) {
    return R"({"title": "t", "scenario": "triton_9x9_grouped.json", "steps": [
      {"view": "compare", "position": {"end": true},
       "narration": ")" +
           narration + R"("}]})";
  };
  EXPECT_NO_THROW(parse_lesson(lesson("ratio {compare.dram_bytes.ratio}, `9 x 9 = 81`")));
  try {
    parse_lesson(lesson("so `2 // 3 = 1` here"), "x.json");
    FAIL() << "a false formula was accepted";
  } catch (const ScenarioError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("x.json: line 3: steps[0].narration"), std::string::npos) << m;
    EXPECT_NE(m.find("2 // 3 = 1"), std::string::npos) << m;
  }
  EXPECT_THROW(parse_lesson(lesson("{run.speed}")), ScenarioError);
  EXPECT_THROW(parse_lesson(lesson("{run.time")), ScenarioError);
}

TEST(LessonText, BareNumbersNameTheStepFieldAndNumber) {
  const Lesson l = parse_lesson(R"({"title": "t", "scenario": "triton_9x9_grouped.json",
    "steps": [{"view": "compare", "position": {"end": true}, "narration": "fine {run.time}",
               "question": {"text": "Is it 1.67x?", "answer": "No."}},
              {"view": "compare", "position": {"end": true}, "narration": "fine"}]})");
  const auto bare = lesson_bare_numbers(l);
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_EQ(bare[0].step, 0);
  EXPECT_EQ(bare[0].field, "question.text");
  EXPECT_EQ(bare[0].number, "1.67");
  EXPECT_NE(bare[0].message().find("steps[0].question.text (line 2): bare number \"1.67\""),
            std::string::npos)
      << bare[0].message();
}

}  // namespace
}  // namespace tilesim::scenario
