#include "sim/timing/shared_pipe.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace tilesim::sim {
namespace {

// Virtual ps a job's finish may lie above the virtual time at its (rounded-up) finish time: the
// rounding error of the virtual time's sums, far below a ps.
constexpr double kSlack = 1e-3;

}  // namespace

void SharedPipe::advance(std::int64_t t) {
  if (!m_jobs.empty())
    m_vtime += static_cast<double>(t - m_vtime_at) / static_cast<double>(m_jobs.size());
  m_vtime_at = t;
}

void SharedPipe::join(std::int64_t t, std::int64_t work, Job job) {
  advance(t);
  job.finish = m_vtime + static_cast<double>(work);
  job.joined = t;
  m_jobs.push_back(job);
  m_version = (m_version + 1) & 0x3FFFFFFF;
}

std::int64_t SharedPipe::next_finish() const {
  if (m_jobs.empty()) return -1;
  double first = m_jobs.front().finish;
  for (const Job& j : m_jobs) first = std::min(first, j.finish);
  const double n = static_cast<double>(m_jobs.size());
  const auto t = m_vtime_at + static_cast<std::int64_t>(std::ceil((first - m_vtime) * n));
  return std::max(t, m_vtime_at);
}

void SharedPipe::finish_by(std::int64_t t, std::vector<Job>* done) {
  advance(t);
  done->clear();
  std::erase_if(m_jobs, [&](const Job& j) {
    if (j.finish > m_vtime + kSlack) return false;
    done->push_back(j);
    return true;
  });
  std::sort(done->begin(), done->end(), [](const Job& a, const Job& b) {
    return std::tie(a.finish, a.pid) < std::tie(b.finish, b.pid);
  });
  m_version = (m_version + 1) & 0x3FFFFFFF;
}

}  // namespace tilesim::sim
