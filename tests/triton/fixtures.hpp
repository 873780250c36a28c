// Helpers of the Triton front end's tests: a kernel file read from assets/kernels/ or
// tests/triton/kernels/, parsed, with the launch its "# launch:" comments give.
#pragma once

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "triton/evaluator.hpp"
#include "triton/launch.hpp"
#include "triton/parser.hpp"

namespace tilesim::triton::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string asset_kernel(const std::string& name) {
  return std::string(TILESIM_ASSETS_DIR) + "/kernels/" + name;
}
inline std::string test_kernel(const std::string& name) {
  return std::string(TILESIM_ASSETS_DIR) + "/../tests/triton/kernels/" + name;
}

// A parsed file and an evaluator over its header's launch (both kept alive together).
struct Loaded {
  std::string text;
  KernelSource source;
  std::unique_ptr<Evaluator> ev;
};
inline Loaded load(const std::string& path, const std::string& function = {}) {
  Loaded l;
  l.text = read_text(path);
  l.source = parse_kernel(l.text, path.substr(path.rfind('/') + 1), function);
  check_subset(l.source);
  l.ev = std::make_unique<Evaluator>(l.source, launch_from_comments(l.source));
  return l;
}

}  // namespace tilesim::triton::testing
