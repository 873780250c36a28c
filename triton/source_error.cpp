// SourceError's message: "file:line:col: reason", or "file: reason" without a position.
#include "triton/source_error.hpp"

namespace tilesim::triton {
namespace {

std::string located(const std::string& file, SourcePos pos, const std::string& message) {
  std::string out = file.empty() ? std::string("<kernel>") : file;
  if (pos.line > 0) out += ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col);
  return out + ": " + message;
}

}  // namespace

SourceError::SourceError(const std::string& file, SourcePos pos, const std::string& message)
    : sim::InvalidField("triton", located(file, pos, message)),
      m_file(file),
      m_pos(pos),
      m_reason(message) {}

}  // namespace tilesim::triton
