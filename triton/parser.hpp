// Parser: the one @triton.jit function of a Python file (or the one --function names) into a
// syntax tree. Host code around it (imports, a solve() wrapper, autotune configs) is skipped
// statement by statement without being read; inside the kernel every construct outside the
// subset is refused with its position ("kernel.py:14:5: while loops are not supported yet").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "triton/ast.hpp"

namespace tilesim::triton {

struct KernelSource {
  std::string file;                  // as given, for messages
  std::vector<std::string> lines;    // line i + 1 is lines[i]: the listing a student reads
  std::vector<std::string> kernels;  // names of every @triton.jit function in the file
  Function fn;                       // the chosen one
};

// `function` empty: the file must hold exactly one @triton.jit function. The chosen function's
// tl.* names are checked against the subset (check_subset).
KernelSource parse_kernel(std::string_view source, const std::string& file,
                          std::string_view function = {});

// The names of every @triton.jit function of a file, in order (the file tokenized and its
// functions parsed; throws SourceError where it does not read).
std::vector<std::string> jit_functions(std::string_view source, const std::string& file);

// Refuses the first tl.* name the function uses that the evaluator does not know, at its
// position: "kernel.py:14:9: tl.atomic_add is not supported yet".
void check_subset(const KernelSource& k);

}  // namespace tilesim::triton
