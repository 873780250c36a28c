// libFuzzer target: the scenario parser must refuse any input with ScenarioError, never crash,
// hang or allocate without bound; and whatever it accepts must round-trip exactly.
#include <cstdint>
#include <string_view>

#include "scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tilesim::scenario;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Scenario s = parse_scenario(text, "fuzz");
    if (!(parse_scenario(to_json(s), "fuzz-roundtrip") == s)) __builtin_trap();
  } catch (const ScenarioError&) {
  }
  return 0;
}
