// Recording an animation headless: frames read back from the window go to a GIF (encoded by
// giflib, each frame quantised to its own 256 colours, looping) or to an MP4 (an `ffmpeg`
// executable fed raw RGBA frames on a pipe). Written atomically, like figures.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

#include "app/platform/platform.hpp"

namespace tilesim::app {

class Recorder {
 public:
  Recorder() = default;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder();

  // Why `out` cannot be recorded here (unknown extension, no ffmpeg, built without giflib), or
  // empty. Call before rendering anything.
  static std::string check(const std::filesystem::path& out);
  // Starts a recording of w x h frames at `fps`. Error sentence or empty.
  std::string open(const std::filesystem::path& out, int w, int h, double fps);
  std::string add(const Pixels& frame);  // frames must all be w x h
  std::string close();                   // finishes and writes the file
  int frames() const { return m_frames; }

 private:
  std::string add_gif(const Pixels& frame);
  std::filesystem::path m_out;
  bool m_gif = false;
  int m_w = 0, m_h = 0, m_frames = 0;
  double m_fps = 12;
  void* m_gif_file = nullptr;     // GifFileType*, writing into m_bytes
  std::string m_bytes;            // the GIF as it is encoded
  std::FILE* m_ffmpeg = nullptr;  // pipe to ffmpeg
  std::filesystem::path m_tmp;    // ffmpeg writes here, renamed on success
};

// The ffmpeg executable on PATH, or empty.
std::filesystem::path find_ffmpeg();

}  // namespace tilesim::app
