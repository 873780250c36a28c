// Helpers of the Triton front end's tests: a kernel file read from assets/kernels/ or
// tests/triton/kernels/, parsed, with the launch its "# launch:" comments give.
#pragma once

#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "triton/kernel_file.hpp"

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

// The message of the SourceError `f` throws ("file:line:col: reason"), or "not refused".
inline std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const SourceError& e) {
    return e.what();
  }
  return "not refused";
}

// A parsed file and an evaluator over its header's launch.
inline LoadedKernel load(const std::string& path, const std::string& function = {}) {
  return load_kernel_file(path, function);
}

}  // namespace tilesim::triton::testing
