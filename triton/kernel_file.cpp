// Reading a kernel file: its kind and size are checked before it is read, so a huge file or an
// endless device is refused without being loaded.
#include "triton/kernel_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tilesim::triton {

LoadedKernel load_kernel_text(std::string text, const std::string& file, std::string_view function,
                              const std::vector<std::string>& words) {
  LoadedKernel k;
  k.source = std::make_unique<KernelSource>(parse_kernel(text, file, function));
  Launch launch = launch_from_comments(*k.source);
  for (const auto& w : words) apply_launch_word(w, &launch);
  k.ev = std::make_unique<Evaluator>(*k.source, std::move(launch));
  return k;
}

LoadedKernel load_kernel_file(const std::string& path, std::string_view function,
                              const std::vector<std::string>& words) {
  const std::string name = std::filesystem::path(path).filename().string();
  std::error_code ec;
  // A device or a pipe (/dev/zero, a FIFO) has no size to check: refused, never read.
  if (!std::filesystem::is_regular_file(path, ec))
    throw SourceError(path, {}, "not a regular file: a kernel is read from a .py file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw SourceError(path, {}, "cannot read the kernel file: " + ec.message());
  if (size > kMaxSourceBytes)
    throw SourceError(path, {},
                      "the file has " + std::to_string(size) + " bytes: at most " +
                          std::to_string(kMaxSourceBytes) + " are read");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in && !in.eof()) throw SourceError(path, {}, "cannot read the kernel file");
  return load_kernel_text(s.str(), name, function, words);
}

}  // namespace tilesim::triton
