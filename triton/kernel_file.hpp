// A kernel file ready to evaluate: read (size-capped), parsed, its "# launch:" comments read and
// the caller's launch words applied over them — what the CLI, the tests and the fuzzer share.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "triton/evaluator.hpp"

namespace tilesim::triton {

struct LoadedKernel {
  std::unique_ptr<KernelSource> source;  // owned apart: the evaluator refers to it
  std::unique_ptr<Evaluator> ev;
};

// `words`: NAME=VALUE launch words (--arg, grid=..., num_warps=...), applied after the file's
// own "# launch:" lines. `function` empty in a file of several @triton.jit functions: the one
// function that launch fits (its parameters, no more and no fewer: a helper such as the
// tutorial's leaky_relu does not), else the parser's "choose one" refusal. Throws SourceError
// naming the file (and line and column).
LoadedKernel load_kernel_text(std::string text, const std::string& file,
                              std::string_view function = {},
                              const std::vector<std::string>& words = {});
LoadedKernel load_kernel_file(const std::string& path, std::string_view function = {},
                              const std::vector<std::string>& words = {});

}  // namespace tilesim::triton
