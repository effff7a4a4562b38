#include "src/common/thread_pool.hpp"

#include <algorithm>

#if defined(__linux__)
#include <sched.h>
#endif

namespace pgk {
namespace {
constexpr int kSpins = 4000; // then sleep: never burn a core that an oversubscribed machine needs

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }
} // namespace

int usable_cores() {
#if defined(__linux__)
  // A mask sized for up to 64K CPUs (the fixed cpu_set_t holds 1024); sched_getaffinity(0) reads
  // the calling thread's.
  constexpr int kMaxCpus = 1 << 16;
  cpu_set_t *set = CPU_ALLOC(kMaxCpus);
  if (set) {
    const std::size_t bytes = CPU_ALLOC_SIZE(kMaxCpus);
    CPU_ZERO_S(bytes, set);
    const int count = sched_getaffinity(0, bytes, set) == 0 ? CPU_COUNT_S(bytes, set) : 0;
    CPU_FREE(set);
    if (count > 0) return count;
  }
#endif
  return hardware_threads();
}

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = usable_cores();
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
