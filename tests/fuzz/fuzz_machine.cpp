// libFuzzer target: a custom machine ("custom_machine" of a scenario) must be refused with
// sim::InvalidField naming the key, never crash; what it accepts is a machine sim validates.
#include <cstdint>
#include <string_view>

#include "scenario/machine_json.hpp"
#include "sim/base/limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto m = tilesim::scenario::parse_machine_json(text);
    if (m.sms <= 0 || m.l2_bytes <= 0) __builtin_trap();
  } catch (const tilesim::sim::InvalidField&) {
  }
  return 0;
}
