// Runs the real `tilesim` under xvfb-run and returns the app's own exit status.
//
// Why not xvfb-run's status: xvfb-run replaces it with its own when its clean-up fails (it exits 5
// when it cannot remove its temporary directory), which a loaded `ctest -j` hit twice on CI
// (2026-11-27, bb8f27e and 218a40c: the app refused with 1 and the test read 5). So the command
// runs inside `sh -c`, which writes the app's status to a file beside `err`; xvfb-run's status is
// returned only where that file was never written (Xvfb did not start).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace tilesim::test {

inline bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

// `args` must not contain a single quote (they are paths and flags the tests build).
inline int run_headless(const std::string& app, const std::string& args,
                        const std::filesystem::path& err) {
  const auto status_file = std::filesystem::path(err.string() + ".status");
  std::filesystem::remove(status_file);
  const std::string inner =
      app + " " + args + " > /dev/null 2> " + err.string() + "; echo $? > " + status_file.string();
  const std::string cmd = "xvfb-run -a -s \"-screen 0 1600x900x24\" sh -c '" + inner + "'";
  const int rc = std::system(cmd.c_str());
  if (std::FILE* f = std::fopen(status_file.c_str(), "r")) {
    int status = -1;
    const bool read = std::fscanf(f, "%d", &status) == 1;
    std::fclose(f);
    if (read) return status;
  }
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace tilesim::test
