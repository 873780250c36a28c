// libFuzzer target: a measured-times file (assets/measured/, matched against the open problem)
// must be refused with std::runtime_error naming the file and field, never crash or hang.
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "scenario/measured.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)tilesim::scenario::parse_measured_json(text, "fuzz");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
