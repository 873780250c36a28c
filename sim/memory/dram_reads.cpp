#include "sim/memory/dram_reads.hpp"

#include <algorithm>

namespace tilesim::sim {

double DramReads::issue(std::int64_t t, std::int64_t bytes) {
  while (!m_ends.empty() && m_ends.top().first <= t) {
    m_in_flight -= m_ends.top().second;
    m_ends.pop();
  }
  m_in_flight += bytes;
  return static_cast<double>(m_in_flight) / m_sms;
}

void DramReads::traffic(std::int64_t read_bytes, std::int64_t write_bytes) {
  const double bytes = static_cast<double>(read_bytes + write_bytes);
  if (bytes <= 0) return;
  const double w = std::min(1.0, bytes / m_window);
  m_share = std::clamp(m_share + w * (static_cast<double>(read_bytes) / bytes - m_share),
                       kMinReadShare, kMaxReadShare);
}

}  // namespace tilesim::sim
