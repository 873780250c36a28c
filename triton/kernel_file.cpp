// Reading a kernel file: its kind and size are checked before it is read, so a huge file or an
// endless device is refused without being loaded.
#include "triton/kernel_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tilesim::triton {

namespace {

// The launch of `function` in `text`: its "# launch:" comments, then `words`.
Launch launch_of(const KernelSource& k, const std::vector<std::string>& words) {
  Launch launch = launch_from_comments(k);
  for (const auto& w : words) apply_launch_word(w, &launch);
  return launch;
}

// The one @triton.jit function the launch fits, or "" (none, several, or a single function).
std::string fitting_function(const std::string& text, const std::string& file,
                             const std::vector<std::string>& words) {
  std::vector<std::string> names;
  try {
    names = jit_functions(text, file);
  } catch (const SourceError&) {
    return {};  // parse_kernel says where
  }
  if (names.size() < 2) return {};
  std::string fits;
  for (const auto& n : names) {
    try {
      const KernelSource k = parse_kernel(text, file, n);
      check_launch(k, launch_of(k, words));
    } catch (const SourceError&) {
      continue;
    }
    if (!fits.empty()) return {};  // several fit: the user chooses
    fits = n;
  }
  return fits;
}

}  // namespace

LoadedKernel load_kernel_text(std::string text, const std::string& file, std::string_view function,
                              const std::vector<std::string>& words) {
  std::string chosen(function);
  if (chosen.empty()) chosen = fitting_function(text, file, words);
  function = chosen;
  LoadedKernel k;
  k.source = std::make_unique<KernelSource>(parse_kernel(text, file, function));
  k.ev = std::make_unique<Evaluator>(*k.source, launch_of(*k.source, words));
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
