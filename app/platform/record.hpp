// Recording an animation headless: frames read back from the window go to a GIF (encoded by
// giflib, looping) or to an MP4 (an `ffmpeg` executable fed raw RGBA frames on a pipe). Written
// atomically, like figures. A GIF stays small because most of a frame is the frame before it:
// one global palette (the first frame's 256 colours), and each later frame is only the rectangle
// that changed, drawn over the last ("do not dispose"); a rectangle whose colours the global
// palette cannot match gets its own palette.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

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
  // Nothing is written: the temporary output goes away (a refused recording).
  void abandon();
  int frames() const { return m_frames; }
  bool gif() const { return m_gif; }
  // Bytes of the GIF encoded so far (the file is written at close); 0 for MP4, whose encoder
  // buffers frames (its size is known at close: file_bytes()).
  std::int64_t encoded_bytes() const { return static_cast<std::int64_t>(m_bytes.size()); }
  // Size of the written file (after close).
  std::int64_t file_bytes() const { return m_file_bytes; }

 private:
  std::string add_gif(const Pixels& frame);
  std::string put_gif_rect(const Pixels& frame, int x0, int y0, int x1, int y1);
  std::filesystem::path m_out;
  bool m_gif = false;
  int m_w = 0, m_h = 0, m_frames = 0;
  double m_fps = 12;
  std::int64_t m_file_bytes = 0;
  void* m_gif_file = nullptr;                        // GifFileType*, writing into m_bytes
  std::string m_bytes;                               // the GIF as it is encoded
  std::vector<unsigned char> m_last;                 // the previous frame, RGBA
  std::vector<std::uint8_t> m_palette;               // the global palette, RGB x 256
  std::unordered_map<std::uint32_t, int> m_nearest;  // RGB -> (palette index << 24 | error)
  std::FILE* m_ffmpeg = nullptr;                     // pipe to ffmpeg
  std::filesystem::path m_tmp;                       // ffmpeg writes here, renamed on success
};

// The ffmpeg executable on PATH, or empty.
std::filesystem::path find_ffmpeg();

}  // namespace tilesim::app
