// The lexer's and parser's Python: layout tokens, bracket continuation, literals, precedence,
// subscripts, keyword arguments and the choice of the @triton.jit function.
#include <gtest/gtest.h>

#include "triton/lexer.hpp"
#include "triton/parser.hpp"

namespace tilesim::triton {
namespace {

std::vector<TokenKind> kinds(std::string_view src) {
  std::vector<TokenKind> out;
  for (const auto& t : tokenize(src, "t.py")) out.push_back(t.kind);
  return out;
}

TEST(Lexer, IndentsAndDedentsFollowPythonsBlocks) {
  using K = TokenKind;
  const auto k = kinds("if a:\n    b\n\n    # comment only\nc\n");
  const std::vector<K> want{K::name,    K::name,   K::op,   K::newline, K::indent, K::name,
                            K::newline, K::dedent, K::name, K::newline, K::end};
  EXPECT_EQ(k, want);
}

TEST(Lexer, NewlinesInsideBracketsAndAfterABackslashJoinLines) {
  using K = TokenKind;
  const std::vector<K> want{K::name, K::op, K::name, K::op, K::name, K::op, K::newline, K::end};
  EXPECT_EQ(kinds("f(a,\n      b)\n"), want);
  EXPECT_EQ(kinds("f(a, \\\n b)\n"), want);
}

TEST(Lexer, ReadsNumbersStringsAndLongestOperators) {
  const auto t =
      tokenize("x //= 0x10 + 1_000 + 2.5e-1 + 'a\\'b' + \"\"\"doc\nstring\"\"\"", "t.py");
  EXPECT_EQ(t[1].text, "//=");
  EXPECT_EQ(t[2].ival, 16);
  EXPECT_EQ(t[4].ival, 1000);
  EXPECT_DOUBLE_EQ(t[6].fval, 0.25);
  EXPECT_EQ(t[8].text, "a'b");
  EXPECT_EQ(t[10].text, "doc\nstring");
}

TEST(Lexer, RefusesWithLineAndColumn) {
  try {
    tokenize("x = 1\ny = $\n", "k.py");
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_EQ(e.pos().line, 2);
    EXPECT_EQ(e.pos().col, 5);
    EXPECT_STREQ(e.what(), "k.py:2:5: the character '$' is not Python");
  }
}

constexpr const char* kTwo = R"(
import triton
import triton.language as tl

def helper(x):
    while True:
        pass

@triton.jit
def first(X, BLOCK: tl.constexpr, n=3):
    y = -X ** 2 + X[:, None] * 3 // 2 % 5 & 1 | 2
    return y

@triton.autotune(configs=[triton.Config({'B': 1})], key=['n'])
@triton.jit
def second(X):
    pass
)";

TEST(Parser, FindsTheJitFunctionsAndSkipsHostCode) {
  const KernelSource k = parse_kernel(kTwo, "two.py", "first");
  EXPECT_EQ(k.kernels, (std::vector<std::string>{"first", "second"}));
  ASSERT_EQ(k.fn.params.size(), 3u);
  EXPECT_TRUE(k.fn.params[1].constexpr_);
  EXPECT_TRUE(k.fn.params[2].default_value != nullptr);
  EXPECT_EQ(parse_kernel(kTwo, "two.py", "second").fn.name, "second");
}

TEST(Parser, SeveralJitFunctionsNeedAChoice) {
  try {
    parse_kernel(kTwo, "two.py");
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("choose one with --function"), std::string::npos);
    EXPECT_EQ(e.pos().line, 16);
  }
}

TEST(Parser, FollowsPythonPrecedence) {
  // -X ** 2 + ((X[:, None] * 3 // 2) % 5) & 1 | 2 parses as ((-(X**2) + (...)) & 1) | 2.
  const KernelSource k = parse_kernel(kTwo, "two.py", "first");
  const Expr& v = *k.fn.body[0]->value;
  ASSERT_EQ(v.kind, ExprKind::binary);
  EXPECT_EQ(v.text, "|");
  const Expr& band = *v.kids[0];
  EXPECT_EQ(band.text, "&");
  const Expr& plus = *band.kids[0];
  EXPECT_EQ(plus.text, "+");
  EXPECT_EQ(plus.kids[0]->kind, ExprKind::unary);  // -(X ** 2)
  EXPECT_EQ(plus.kids[0]->kids[0]->text, "**");
  EXPECT_EQ(plus.kids[1]->text, "%");  // ((X[:, None] * 3) // 2) % 5
  EXPECT_EQ(plus.kids[1]->kids[0]->text, "//");
  EXPECT_EQ(plus.kids[1]->kids[0]->kids[0]->kids[0]->kind, ExprKind::subscript);
}

TEST(Parser, ReadsKeywordArgumentsAugmentedAssignmentAndTupleUnpacking) {
  const KernelSource k = parse_kernel(R"(
@triton.jit
def f(p):
    a, b = 1, 2
    a += tl.load(p, mask=None, other=0.0)
    for i in tl.range(0, 4, 1):
        if i == 0:
            pass
        elif i == 1:
            pass
        else:
            pass
)",
                                      "f.py");
  ASSERT_EQ(k.fn.body.size(), 3u);
  EXPECT_EQ(k.fn.body[0]->targets[0]->kind, ExprKind::tuple);
  EXPECT_EQ(k.fn.body[1]->kind, StmtKind::aug_assign);
  EXPECT_EQ(k.fn.body[1]->value->kwargs.size(), 2u);
  EXPECT_EQ(k.fn.body[2]->kind, StmtKind::for_loop);
  EXPECT_EQ(k.fn.body[2]->body[0]->orelse[0]->kind, StmtKind::if_stmt);  // elif
}

TEST(Parser, DeepNestingIsRefusedNotACrash) {
  std::string src = "@triton.jit\ndef f(x):\n    y = " + std::string(5000, '(') + "x" +
                    std::string(5000, ')') + "\n";
  EXPECT_THROW(parse_kernel(src, "deep.py"), SourceError);
  std::string chain = "@triton.jit\ndef f(x):\n    y = x";
  for (int i = 0; i < 20000; ++i) chain += " + x";
  EXPECT_THROW(parse_kernel(chain + "\n", "long.py"), SourceError);
  std::string unary = "@triton.jit\ndef f(x):\n    y = " + std::string(20000, '-') + "x\n";
  EXPECT_THROW(parse_kernel(unary, "unary.py"), SourceError);
}

}  // namespace
}  // namespace tilesim::triton
