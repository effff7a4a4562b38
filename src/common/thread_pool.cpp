#include "src/common/thread_pool.hpp"

#include <algorithm>

namespace pgk {
namespace {
constexpr int kSpins = 4000; // then sleep: never burn a core that an oversubscribed machine needs
}

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ThreadPool::~ThreadPool() {
  stop_.store(true);
  publish();
  for (auto &w : workers_) w.join();
}

// Starts a new epoch and wakes the workers that went to sleep waiting for one. seq_cst on
// epoch_ and sleepers_: a worker that registers as a sleeper after this load sees the new epoch.
void ThreadPool::publish() {
  epoch_.fetch_add(1);
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
}

void ThreadPool::run(const std::function<void(int, int)> &task) {
  if (workers_.empty()) {
    task(0, 1);
    return;
  }
  task_ = &task;
  pending_.store(static_cast<int>(workers_.size()));
  publish(); // also publishes task_ and pending_
  task(0, threads());
  for (int spins = 0; pending_.load(std::memory_order_acquire) != 0;) {
    if (++spins < kSpins) continue;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_.load() == 0; });
  }
}

void ThreadPool::work(int t) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t e;
    for (int spins = 0; (e = epoch_.load()) == seen;) {
      if (++spins < kSpins) continue;
      sleepers_.fetch_add(1);
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this, seen] { return epoch_.load() != seen; });
      }
      sleepers_.fetch_sub(1);
    }
    seen = e;
    if (stop_.load()) return;
    (*task_)(t, threads());
    if (pending_.fetch_sub(1) == 1) { // the last one wakes the caller if it sleeps
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
  }
}

} // namespace pgk
