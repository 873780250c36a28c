// Reading the framebuffer back into a PNG: glReadPixels (bottom-up rows), flipped, encoded by
// stb_image_write into memory, and written atomically like scenarios.
#define GL_GLEXT_PROTOTYPES
// glfw3.h must come first: it includes GL/gl.h, which glext.h needs.
#include <GLFW/glfw3.h>
// clang-format off
#include <GL/glext.h>
// clang-format on
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/platform/platform.hpp"
#include "scenario/file_io.hpp"

namespace tilesim::app {

std::string Platform::read_pixels(std::optional<Rect> area, Pixels& out) const {
  const int fw = static_cast<int>(width()), fh = static_cast<int>(height());
  Rect r = area.value_or(Rect{0, 0, float(fw), float(fh)});
  const int x0 = std::clamp(static_cast<int>(std::floor(r.x)), 0, fw);
  const int y0 = std::clamp(static_cast<int>(std::floor(r.y)), 0, fh);
  const int x1 = std::clamp(static_cast<int>(std::ceil(r.x + r.w)), 0, fw);
  const int y1 = std::clamp(static_cast<int>(std::ceil(r.y + r.h)), 0, fh);
  const int w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) return "nothing to capture";
  std::vector<unsigned char> px(static_cast<std::size_t>(w) * h * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fh - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  out.w = w;
  out.h = h;
  out.rgba.resize(px.size());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(px.data() + (h - 1 - y) * row, row, out.rgba.data() + y * row);
  for (std::size_t i = 3; i < out.rgba.size(); i += 4) out.rgba[i] = 255;  // opaque figure
  return {};
}

std::string Platform::write_png(const std::filesystem::path& path, std::optional<Rect> area) const {
  Pixels p;
  if (auto err = read_pixels(area, p); !err.empty()) return err;
  const std::size_t row = static_cast<std::size_t>(p.w) * 4;
  std::string bytes;
  const auto sink = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), size);
  };
  if (!stbi_write_png_to_func(sink, &bytes, p.w, p.h, 4, p.rgba.data(), static_cast<int>(row)))
    return "PNG encoding failed";
  try {
    scenario::write_file_atomic(path, bytes);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace tilesim::app
