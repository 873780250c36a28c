// A file shipped in assets/ (a measured set the app and the CLI look things up in), read and
// parsed on first use and kept for the process: each parser has its cache, keyed by the file's
// path under assets/. Null when the file is missing or does not read (the caller then says "not
// measured"). Thread-safe.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "scenario/file_io.hpp"
#include "scenario/scenario.hpp"

namespace tilesim::scenario {

template <auto Parse>
const auto* bundled_asset(const std::string& relative) {
  using T = decltype(Parse(std::string_view{}, std::string{}));
  static std::mutex mutex;
  static std::map<std::string, std::optional<T>> cache;  // nullopt: missing or damaged
  const std::lock_guard lock(mutex);
  auto [it, fresh] = cache.try_emplace(relative);
  if (fresh) {
    const auto path = assets_dir() / relative;
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) try {
        it->second = Parse(read_file(path), path.string());
      } catch (const std::exception&) {  // a damaged asset reads as none
      }
  }
  return it->second ? &*it->second : static_cast<const T*>(nullptr);
}

}  // namespace tilesim::scenario
