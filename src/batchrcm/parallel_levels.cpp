#include "src/batchrcm/parallel_levels.hpp"

namespace pgk::rcm {

LevelPool::LevelPool(int threads) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

LevelPool::~LevelPool() {
  stop_.store(true, std::memory_order_release);
  epoch_.fetch_add(1, std::memory_order_acq_rel);
  for (auto &w : workers_) w.join();
}

void LevelPool::run(const std::function<void(int, int)> &task) {
  task_ = &task;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  epoch_.fetch_add(1, std::memory_order_acq_rel); // publishes task_ and pending_
  task(0, threads());
  int spins = 0;
  while (pending_.load(std::memory_order_acquire) != 0)
    if (++spins > 256) std::this_thread::yield();
}

void LevelPool::work(int t) {
  std::uint64_t seen = 0;
  for (;;) {
    int spins = 0;
    std::uint64_t e;
    while ((e = epoch_.load(std::memory_order_acquire)) == seen)
      if (++spins > 256) std::this_thread::yield();
    seen = e;
    if (stop_.load(std::memory_order_acquire)) return;
    (*task_)(t, threads());
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

} // namespace pgk::rcm
