// tilesim-triton-bench: how long the Triton front end takes on the kernel files, one core —
// parsing a file (lexer + parser + subset check), evaluating one program, and inferring the
// problem (every checked program evaluated and compared with sim's steps). Figures go to the
// report / docs/PERFORMANCE.md, never into timed tests. Usage: tilesim-triton-bench FILE.py...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "triton/bridge.hpp"
#include "triton/heap_reuse.hpp"
#include "triton/kernel_file.hpp"

using Clock = std::chrono::steady_clock;

namespace {

double median_ms(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double time_ms(F&& f, int repeats) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median_ms(std::move(t));
}

}  // namespace

int main(int argc, char** argv) {
  tilesim::triton::keep_freed_heap_memory();
  std::printf("%-30s %10s %10s %12s %10s\n", "file", "bytes", "parse ms", "1 program ms",
              "infer ms");
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    const std::string name = argv[i];
    const std::string fn = name.find("tutorial") != std::string::npos ? "matmul_kernel" : "";
    try {
      const double parse =
          time_ms([&] { (void)tilesim::triton::parse_kernel(text, name, fn); }, 200);
      const auto k = tilesim::triton::load_kernel_text(text, name, fn);
      const double one = time_ms([&] { (void)k.ev->run(0); }, 20);
      const double infer = time_ms([&] { (void)tilesim::triton::infer_problem(*k.ev); }, 3);
      std::printf("%-30s %10zu %10.3f %12.3f %10.1f\n", name.substr(name.rfind('/') + 1).c_str(),
                  text.size(), parse, one, infer);
    } catch (const std::exception& e) {
      std::printf("%-30s refused: %s\n", name.c_str(), e.what());
    }
  }
  return 0;
}
