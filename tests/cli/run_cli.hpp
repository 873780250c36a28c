// Runs the built tilesim-cli (TILESIM_CLI, set by tests/CMakeLists.txt) with `args` and returns
// its exit code and output: the one way the CLI tests start the program.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace tilesim::test {

struct CliResult {
  int code = -1;    // the exit status; 128 + the signal when a signal ended it; -1: not started
  std::string out;  // stdout, and stderr after it when asked for
};

enum class Stderr { drop, merge };

inline CliResult run_cli(const std::string& args, Stderr err = Stderr::merge) {
  const std::string cmd =
      std::string(TILESIM_CLI) + " " + args + (err == Stderr::merge ? " 2>&1" : " 2>/dev/null");
  CliResult r;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), f)) r.out += buf.data();
  const int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace tilesim::test
