// GIF (giflib) and MP4 (ffmpeg pipe) recordings; see record.hpp.
#include "app/platform/record.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "scenario/file_io.hpp"

#ifdef TILESIM_WITH_GIF
#include <gif_lib.h>
#endif

namespace tilesim::app {
namespace {

std::string lower_ext(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

#ifdef TILESIM_WITH_GIF
int gif_sink(GifFileType* gif, const GifByteType* data, int n) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), n);
  return n;
}
#endif

}  // namespace

std::filesystem::path find_ffmpeg() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const auto p = std::filesystem::path(dir) / "ffmpeg";
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

std::string Recorder::check(const std::filesystem::path& out) {
  const std::string ext = lower_ext(out);
  if (ext == ".gif") {
#ifdef TILESIM_WITH_GIF
    return {};
#else
    return "this tilesim was built without giflib (apt install libgif-dev, then rebuild)";
#endif
  }
  if (ext == ".mp4") {
    if (find_ffmpeg().empty())
      return "recording MP4 needs the ffmpeg executable on PATH (apt install ffmpeg); "
             "--record OUT.gif works without it";
    return {};
  }
  return "--record wants a file ending in .gif or .mp4, got '" + out.string() + "'";
}

std::string Recorder::open(const std::filesystem::path& out, int w, int h, double fps) {
  if (auto err = check(out); !err.empty()) return err;
  m_out = out;
  m_w = w;
  m_h = h;
  m_fps = fps;
  m_gif = lower_ext(out) == ".gif";
  if (m_gif) {
#ifdef TILESIM_WITH_GIF
    int err = 0;
    GifFileType* gif = EGifOpen(&m_bytes, gif_sink, &err);
    if (!gif) return std::string("giflib: ") + GifErrorString(err);
    m_gif_file = gif;
    EGifSetGifVersion(gif, true);  // GIF89a: frame delays and looping
    if (EGifPutScreenDesc(gif, w, h, 8, 0, nullptr) == GIF_ERROR)
      return std::string("giflib: ") + GifErrorString(gif->Error);
    // NETSCAPE2.0 application block: loop forever.
    const GifByteType loop[3] = {1, 0, 0};
    EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE);
    EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0");
    EGifPutExtensionBlock(gif, 3, loop);
    EGifPutExtensionTrailer(gif);
#endif
    return {};
  }
  const auto dir = out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
  m_tmp = dir / ("." + out.filename().string() + ".tmp-" + std::to_string(::getpid()) + ".mp4");
  char size[32], rate[32];
  std::snprintf(size, sizeof size, "%dx%d", w, h);
  std::snprintf(rate, sizeof rate, "%.3f", fps);
  // Even sizes for yuv420p; the default H.264 encoder; quiet unless something fails.
  const std::string cmd =
      shell_quote(find_ffmpeg().string()) +
      " -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s " + size + " -r " + rate +
      " -i - -vf pad=ceil(iw/2)*2:ceil(ih/2)*2 -pix_fmt yuv420p " + shell_quote(m_tmp.string());
  m_ffmpeg = ::popen(cmd.c_str(), "w");
  if (!m_ffmpeg) return "could not start ffmpeg";
  return {};
}

std::string Recorder::add_gif(const Pixels& frame) {
#ifdef TILESIM_WITH_GIF
  auto* gif = static_cast<GifFileType*>(m_gif_file);
  const std::size_t n = static_cast<std::size_t>(m_w) * m_h;
  std::vector<GifByteType> r(n), g(n), b(n), index(n);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = frame.rgba[4 * i];
    g[i] = frame.rgba[4 * i + 1];
    b[i] = frame.rgba[4 * i + 2];
  }
  int colours = 256;
  std::vector<GifColorType> map(256);
  if (GifQuantizeBuffer(m_w, m_h, &colours, r.data(), g.data(), b.data(), index.data(),
                        map.data()) == GIF_ERROR)
    return "giflib could not quantise a frame";
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.DelayTime = static_cast<int>(std::lround(100.0 / m_fps));  // hundredths of a second
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t len = EGifGCBToExtension(&gcb, ext);
  EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(len), ext);
  ColorMapObject* cmap = GifMakeMapObject(256, map.data());
  const int ok = EGifPutImageDesc(gif, 0, 0, m_w, m_h, false, cmap);
  GifFreeMapObject(cmap);
  if (ok == GIF_ERROR) return std::string("giflib: ") + GifErrorString(gif->Error);
  for (int y = 0; y < m_h; ++y)
    if (EGifPutLine(gif, index.data() + static_cast<std::size_t>(y) * m_w, m_w) == GIF_ERROR)
      return std::string("giflib: ") + GifErrorString(gif->Error);
  return {};
#else
  (void)frame;
  return "built without giflib";
#endif
}

std::string Recorder::add(const Pixels& frame) {
  if (frame.w != m_w || frame.h != m_h) return "a frame changed size while recording";
  ++m_frames;
  if (m_gif) return add_gif(frame);
  if (!m_ffmpeg) return "the recording is not open";
  if (std::fwrite(frame.rgba.data(), 1, frame.rgba.size(), m_ffmpeg) != frame.rgba.size())
    return "ffmpeg stopped reading frames";
  return {};
}

std::string Recorder::close() {
  if (m_gif) {
#ifdef TILESIM_WITH_GIF
    int err = 0;
    auto* gif = static_cast<GifFileType*>(m_gif_file);
    m_gif_file = nullptr;
    if (!gif || EGifCloseFile(gif, &err) == GIF_ERROR)
      return std::string("giflib: ") + GifErrorString(err);
    try {
      scenario::write_file_atomic(m_out, m_bytes);
    } catch (const std::exception& e) {
      return e.what();
    }
#endif
    return {};
  }
  if (!m_ffmpeg) return "the recording is not open";
  const int rc = ::pclose(m_ffmpeg);
  m_ffmpeg = nullptr;
  std::error_code ec;
  if (rc != 0) {
    std::filesystem::remove(m_tmp, ec);
    return "ffmpeg failed (exit status " + std::to_string(rc) + ")";
  }
  std::filesystem::rename(m_tmp, m_out, ec);
  if (ec) return m_out.string() + ": " + ec.message();
  return {};
}

Recorder::~Recorder() {
#ifdef TILESIM_WITH_GIF
  if (m_gif_file) {
    int err = 0;
    EGifCloseFile(static_cast<GifFileType*>(m_gif_file), &err);
  }
#endif
  if (m_ffmpeg) {
    ::pclose(m_ffmpeg);
    std::error_code ec;
    std::filesystem::remove(m_tmp, ec);
  }
}

}  // namespace tilesim::app
