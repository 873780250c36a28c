// libFuzzer target: a `tilesim-bench --json` report (loaded into the GPU panel) must be refused
// with std::runtime_error naming the field, never crash; what it accepts must write back to the
// same JSON after one round trip.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "scenario/bench_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilesim::scenario;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::string once = to_json(parse_bench_json(text));
    if (to_json(parse_bench_json(once)) != once) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
