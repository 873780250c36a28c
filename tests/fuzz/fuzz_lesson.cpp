// libFuzzer target: the lesson parser (assets/lessons/, or a file a teacher hands the app) must
// refuse any input with ScenarioError, never crash, hang or allocate without bound.
#include <cstdint>
#include <string_view>

#include "scenario/lesson.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)tilesim::scenario::parse_lesson(text, "fuzz", TILESIM_ASSETS_DIR "/lessons");
  } catch (const tilesim::scenario::ScenarioError&) {
  }
  return 0;
}
