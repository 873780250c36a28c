// libFuzzer target: a Triton measurement file (assets/measured/triton_GPU.json, looked up for the
// open problem by the GPU panel) must be refused with std::runtime_error naming the file and the
// record, never crash or hang; a file that reads is then looked up. The same input is also read
// as a kernel-file run (assets/measured/triton_files_GPU.json, scripts/triton/run_file.py).
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "scenario/triton_file_runs.hpp"
#include "scenario/triton_measured.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto set = tilesim::scenario::parse_triton_measured_json(text, "fuzz");
    (void)tilesim::scenario::find_triton_measurement(set, tilesim::sim::ProblemSpec{});
  } catch (const std::runtime_error&) {
  }
  try {
    (void)tilesim::scenario::parse_triton_file_runs_json(text, "fuzz");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
