// The bad-input table: every construct outside the subset, every malformed source and every
// launch the evaluator cannot run is refused with a SourceError naming file:line:col — never a
// crash, a hang or an unbounded allocation.
#include <gtest/gtest.h>

#include "triton/kernel_file.hpp"

namespace tilesim::triton {
namespace {

std::string body(const std::string& lines) {
  return "@triton.jit\ndef k(p, M, B: tl.constexpr):\n" + lines;
}

TEST(Refusals, NameFileLineColumnAndTheConstruct) {
  const struct {
    std::string source;
    std::vector<std::string> words;
    const char* what;  // the exact start of the message
  } cases[] = {
      {body("    tl.atomic_add(p, 1)\n"), {}, "k.py:3:5: tl.atomic_add is not supported yet"},
      {body("    x = 1\n    while x:\n        pass\n"),
       {},
       "k.py:4:5: \"while\" statements are not supported yet"},
      {body("    x = lambda y: y\n"), {}, "k.py:3:9: lambda is not supported yet"},
      {body("    x = {1: 2}\n"), {}, "k.py:3:9: dict and set literals are not supported yet"},
      {body("    x = [i for i in range(3)]\n"), {}, "k.py:3:12: comprehensions are not supported"},
      {body("    p[0] = 1\n"), {}, "k.py:3:5: assigning to a subscript"},
      {body("    x = (1\n"), {}, "k.py:3:9: this bracket is never closed"},
      {body("  x = 1\n y = 2\n"), {}, "k.py:4:2: this line's indentation matches no"},
      {body("    x = 'abc\n"), {}, "k.py:3:9: this string is never closed on its line"},
      {body("    x = 99999999999999999999\n"),
       {},
       "k.py:3:9: \"99999999999999999999\" is not an "
       "integer that fits in 64 bits"},
      {"x = 1\n", {}, "k.py: no @triton.jit function in this file"},
      {body("    pass\n"), {"p=4x4:fp16", "B=2"}, "k.py:2:10: argument M has no value"},
      {body("    pass\n"),
       {"p=4x4:fp16", "M=1", "B=2", "Q=3"},
       "k.py:2:1: k has no parameter named Q"},
      {body("    x = tl.arange(0, 3)\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:9: tl.arange's range must be a power of two"},
      {body("    x = tl.zeros((4096, 4096), dtype=tl.float32)\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:9: tile of shape (4096, 4096) has more than 1048576 lanes"},
      {body("    for i in range(10000000):\n        pass\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:5: more than 1048576 loop iterations"},
      {body("    x = tl.arange(0, 4)[:, None] + tl.arange(0, 8)[None, :, None]\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:36: tiles of rank 3 are not supported yet"},
      {body("    x = tl.arange(0, 4) + tl.arange(0, 8)\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:25: shapes (4,) and (8,) do not broadcast"},
      {body("    x = M // 0\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:11: integer division by zero"},
      {body("    x = B * 9223372036854775807\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:11: integer overflow"},
      {body("    x = tl.load(p + tl.load(p))\n"),
       {"p=4x4:int32", "M=1", "B=2"},
       "k.py:3:19: this address depends on loaded data"},
      {body("    if tl.arange(0, 4) < 2:\n        pass\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:5: the truth value of a tile of shape (4,) is ambiguous"},
      {body("    x = y\n"), {"p=4x4:fp16", "M=1", "B=2"}, "k.py:3:9: the name y is not defined"},
      {body("    x = tl.dot(tl.zeros((16, 16), dtype=tl.float16), tl.zeros((32, 16), "
            "dtype=tl.float16))\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:9: tl.dot needs (M, K) and (K, N) tiles"},
      {body("    pass\n"), {"p=4x4:fp99"}, "--arg: launch word \"p=4x4:fp99\": unknown dtype"},
      {body("    x = tl.zeros((0, 4), dtype=tl.float32)\n"),
       {"p=4x4:fp16", "M=1", "B=2"},
       "k.py:3:9: tile of shape (0, 4): every size must be at least 1"},
      {body("    pass\n"),
       {"p=4294967296x4294967296:fp16"},
       "--arg: launch word \"p=4294967296x4294967296:fp16\": each size is 1..4294967296"},
      {body("    pass\n"),
       {"p=4x4:fp16:strides=1099511627776,1099511627776"},
       "--arg: launch word \"p=4x4:fp16:strides=1099511627776,1099511627776\": the tensor spans"},
      {body("    pass\n"), {"grid=0"}, "--arg: launch word \"grid=0\": the grid is 1 to 3"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.source);
    try {
      const auto k = load_kernel_text(c.source, "k.py", {}, c.words);
      k.ev->run(0);
      ADD_FAILURE() << "not refused";
    } catch (const SourceError& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, std::string(c.what).size()), c.what) << e.what();
    }
  }
}

TEST(Refusals, AnOversizedFileIsRefusedBeforeItIsTokenized) {
  const std::string big(kMaxSourceBytes + 1, '#');
  EXPECT_THROW(load_kernel_text(big, "big.py"), SourceError);
}

}  // namespace
}  // namespace tilesim::triton
