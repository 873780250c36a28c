// An SM's shared-memory pipe as the transposes on it use it: processor sharing (the load/store
// unit takes the warps' requests round robin, so n tiles in progress each go at 1/n of the
// pipe's rate). The pipe's virtual time runs at 1/n per ps; a job joining at virtual time v
// with w ps of work finishes at v + w, so finish order is fixed when it joins; only the real
// times move as jobs come and go (docs/MODEL.md, *transpose*). Deterministic: +, -, / and ceil
// on doubles, ties by pid.
#pragma once

#include <cstdint>
#include <vector>

namespace tilesim::sim {

class SharedPipe {
 public:
  // One job: the program's transpose step and its event's index (-1: none kept).
  struct Job {
    double finish = 0;  // virtual ps
    std::int64_t pid = 0, step = 0, event = -1;
    std::int64_t joined = 0;  // ps
    int slot = 0;
  };

  // Jobs in progress: what a load round waits behind.
  int jobs() const { return static_cast<int>(m_jobs.size()); }
  // Bumped by every join and finish: a finish time asked for earlier is stale once it moves.
  // Kept in 0 .. 2^30 (it rides in an int).
  int version() const { return m_version; }

  // A job of `work` ps joins at `t` (its finish, joined are filled in here).
  void join(std::int64_t t, std::int64_t work, Job job);
  // When the next job finishes (whole ps, rounded up), or -1 with none in progress.
  std::int64_t next_finish() const;
  // The jobs done by `t` (called at a next_finish() time), in order of (finish, pid), replace
  // the contents of *done.
  void finish_by(std::int64_t t, std::vector<Job>* done);

 private:
  void advance(std::int64_t t);

  std::vector<Job> m_jobs;
  double m_vtime = 0;
  std::int64_t m_vtime_at = 0;
  int m_version = 0;
};

}  // namespace tilesim::sim
