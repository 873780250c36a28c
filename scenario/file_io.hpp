// Reading and writing whole files, with no format in it: what every reader in scenario/ and the
// app's figure export share. Saving is atomic (a temporary file in the same folder, flushed, then
// renamed over the target), so a saved scenario or figure is never half written.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace tilesim::scenario {

// Throws std::runtime_error naming the path and the reason (folder missing, not writable, disk).
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);
// The whole file; throws std::runtime_error naming the path when it cannot be opened.
std::string read_file(const std::filesystem::path& path);

}  // namespace tilesim::scenario
