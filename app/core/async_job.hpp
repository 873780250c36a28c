// Work off the UI thread: a computation keyed by its inputs runs on a worker thread with a
// progress value and a stop request; the frame loop polls for the latest finished result, so the
// window never waits. A new key supersedes the old computation (asked to stop, result dropped).
// The job owns its threads: a superseded run is joined once it finishes, and destroying the job
// asks every run to stop and joins it, so no thread outlives the data it reads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tilesim::app {

template <class R>
class AsyncJob {
 public:
  using Work = std::function<R(std::stop_token, std::atomic<double>& progress)>;

  AsyncJob() = default;
  AsyncJob(const AsyncJob&) = delete;
  AsyncJob& operator=(const AsyncJob&) = delete;
  ~AsyncJob() { stop_and_join(); }

  // Starts `work` unless `key` is already running or finished; returns whether it started.
  // A key the user cancelled is not restarted by the frame loop asking for it again; any other
  // key clears that.
  bool request(const std::string& key, Work work) {
    {
      std::lock_guard lock(m_state->mutex);
      if (key == m_state->wanted_key || key == m_state->cancelled_key) return false;
      m_state->wanted_key = key;
      m_state->cancelled_key.clear();
    }
    cancel_running();
    join_finished();
    auto run = std::make_shared<Run>();
    run->key = key;
    m_run = run;
    run->thread = std::jthread([state = m_state, run, work = std::move(work)](std::stop_token st) {
      // An exception must not leave the thread (std::terminate): it becomes the job's error.
      std::optional<R> value;
      std::string error;
      try {
        value = work(st, run->progress);
      } catch (const std::exception& e) {
        error = e.what();
      } catch (...) {
        error = "unknown error";
      }
      if (!st.stop_requested()) {
        std::lock_guard lock(state->mutex);
        if (state->wanted_key == run->key) {
          if (value) {
            state->result = std::move(value);
            state->result_key = run->key;
            state->error.clear();
          } else {
            state->error = error;
          }
        }
      }
      run->done = true;
    });
    m_runs.push_back(run);
    return true;
  }
  void cancel() {
    cancel_running();
    std::lock_guard lock(m_state->mutex);
    m_state->cancelled_key = m_state->wanted_key;
    m_state->wanted_key.clear();
  }
  // Asks every run to stop and waits for them (quitting, or the model going away). How long it
  // waits is up to the work: it must poll its stop token.
  void stop_and_join() {
    request_stop();
    for (auto& r : m_runs)
      if (r->thread.joinable()) r->thread.join();
    m_runs.clear();
  }
  void request_stop() {
    for (auto& r : m_runs) r->thread.request_stop();
  }
  // Why the last requested computation failed ("" if it did not).
  std::string error() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->error;
  }
  bool pending() const {
    return m_run && !m_run->done && !m_run->thread.get_stop_token().stop_requested();
  }
  double progress() const { return m_run ? m_run->progress.load() : 0.0; }
  // Threads started and not yet joined (superseded runs are joined at the next request).
  std::size_t threads() const { return m_runs.size(); }
  // The latest finished result and the key it belongs to (may be older than the last request).
  std::optional<R> result() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->result;
  }
  // The latest finished result, handed over once: for a result the frame loop applies to the
  // model rather than reads each frame (an opened kernel file). nullopt until the next one.
  std::optional<R> take() {
    std::lock_guard lock(m_state->mutex);
    return std::exchange(m_state->result, std::nullopt);
  }
  bool current() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->result && m_state->result_key == m_state->wanted_key;
  }

 private:
  struct Run {
    std::string key;
    std::atomic<double> progress{0.0};
    std::atomic<bool> done{false};
    std::jthread thread;
  };
  struct State {
    std::mutex mutex;
    std::string wanted_key, result_key, cancelled_key;
    std::optional<R> result;
    std::string error;
  };
  void cancel_running() {
    if (m_run && !m_run->done) m_run->thread.request_stop();
  }
  // Joins runs that have finished (they return at once), keeping those still winding down.
  void join_finished() {
    std::erase_if(m_runs, [](const std::shared_ptr<Run>& r) {
      if (!r->done) return false;
      if (r->thread.joinable()) r->thread.join();
      return true;
    });
  }
  std::shared_ptr<State> m_state = std::make_shared<State>();
  std::shared_ptr<Run> m_run;                // the latest request
  std::vector<std::shared_ptr<Run>> m_runs;  // every run not yet joined, m_run included
};

}  // namespace tilesim::app
