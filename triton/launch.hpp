// The launch of a Triton kernel as the simulator needs it: the value of every argument (integers,
// constexprs, and pointer arguments naming a 2-d tensor with its shape, strides and dtype), the
// grid, num_warps and num_stages. Read from `--arg NAME=VALUE` flags and/or a "# launch:" comment
// in the kernel file, in the same NAME=VALUE words.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "triton/parser.hpp"
#include "triton/tile.hpp"

namespace tilesim::triton {

// A tensor a pointer argument points at: element [i, j] is at offset i * strides[0] +
// j * strides[1] from the pointer (a 1-d tensor has cols = 1).
struct TensorDesc {
  std::int64_t rows = 1, cols = 1;
  std::int64_t stride_row = 1, stride_col = 1;
  Elem elem = Elem::f16;
  // One past the furthest element offset, in 128 bits (rows and strides are each checked below
  // 2^40 when read, their product is not): where "outside the tensor" starts.
  __int128 end() const {
    return static_cast<__int128>(rows - 1) * stride_row +
           static_cast<__int128>(cols - 1) * stride_col + 1;
  }
};

struct ArgValue {
  std::string name;
  std::variant<std::int64_t, double, bool, std::string, TensorDesc> value;
};

struct Launch {
  std::vector<ArgValue> args;
  std::array<std::int64_t, 3> grid{1, 1, 1};
  int num_warps = 4;  // Triton's defaults on CUDA
  int num_stages = 3;
  std::int64_t programs() const { return grid[0] * grid[1] * grid[2]; }
  const ArgValue* find(std::string_view name) const;
};

// One word NAME=VALUE applied to `launch`: grid=9,9 | grid=(81,) | num_warps=4 | num_stages=2 |
// NAME=574 | NAME=0.5 | NAME=True | NAME="ieee" | NAME=574x574:fp16 (a row-major tensor) |
// NAME=574x574:fp16:strides=1,574. A later word for the same name replaces the earlier one.
// Throws SourceError(file, pos) naming the word.
void apply_launch_word(std::string_view word, Launch* launch, const std::string& file = "--arg",
                       SourcePos pos = {});
// The words of every "# launch: ..." comment line of a kernel file, in order.
Launch launch_from_comments(const KernelSource& k);
// Checks `launch` against the function: every parameter without a default has a value, no value
// names a parameter the function lacks, the grid is 1..2^31 per axis and at most 2^24 programs.
void check_launch(const KernelSource& k, const Launch& launch);
// "a_ptr=574x574:float16 ... grid=(81, 1, 1)": what was launched, for reports.
std::string describe(const Launch& launch);

}  // namespace tilesim::triton
