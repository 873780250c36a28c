// Whole-file reads and atomic writes (see file_io.hpp).
#include "scenario/file_io.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tilesim::scenario {

void write_file_atomic(const std::filesystem::path& path, std::string_view bytes) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error(path.string() + ": cannot save: folder " + dir.string() +
                             " does not exist");
  std::string tmp_name = ".";  // hidden sibling, so the rename stays on one file system
  tmp_name.append(path.filename().string()).append(".tmp-").append(std::to_string(::getpid()));
  const auto tmp = dir / tmp_name;
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error(path.string() + ": cannot save: folder is not writable");
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    if (std::fclose(f) != 0 || !ok) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error(path.string() + ": cannot save: write failed (disk full?)");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path.string() + ": cannot save: " + ec.message());
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace tilesim::scenario
