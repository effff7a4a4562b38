// A small pool of worker threads for the multicore backends: workers stay alive for a whole
// computation and spin briefly between steps, so a parallel step costs two handshakes instead of
// thread starts (an ordering runs hundreds or thousands of steps); a worker that waits longer
// sleeps on a condition variable, so an oversubscribed machine is not slowed down. Callers write results to disjoint
// places or combine them in a fixed order, so results never depend on the thread count or the schedule.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pgk {

// The cores this thread may run on: its affinity mask's size where the system has one (Linux), else
// std::thread::hardware_concurrency(); at least 1. An MPI launcher that binds a rank to one core
// (Open MPI does when it starts 1 or 2 ranks) leaves one, and threads beyond it would only take
// turns on that core: at 144M rows 32 set-up threads on one core took 73.8 s where one took 59.7 s.
int usable_cores();

class ThreadPool {
public:
  // threads <= 0: usable_cores(). The caller is thread 0.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs task(t, nthreads) on every thread t and returns when all have finished.
  void run(const std::function<void(int, int)> &task);
  // f(i) for every i in [begin, end), in contiguous chunks of at least `grain` per thread.
  template <class F> void parallel_for(std::int64_t begin, std::int64_t end, std::int64_t grain, F &&f) {
    const std::int64_t n = end - begin;
    if (n <= 0) return;
    const int parts = static_cast<int>(std::min<std::int64_t>(threads(), (n + grain - 1) / (grain > 0 ? grain : 1)));
    if (parts <= 1) {
      for (std::int64_t i = begin; i < end; ++i) f(i);
      return;
    }
    run([&](int t, int) {
      if (t >= parts) return;
      const std::int64_t lo = begin + n * t / parts, hi = begin + n * (t + 1) / parts;
      for (std::int64_t i = lo; i < hi; ++i) f(i);
    });
  }

  // f(t, i) for every i in [begin, end), handed out in chunks of `chunk` to whichever thread t
  // is free (uneven work per item). The schedule varies; callers make results independent of it.
  template <class F> void parallel_dynamic(std::int64_t begin, std::int64_t end, std::int64_t chunk, F &&f) {
    if (end - begin <= chunk || threads() == 1) {
      for (std::int64_t i = begin; i < end; ++i) f(0, i);
      return;
    }
    std::atomic<std::int64_t> next{begin};
    run([&](int t, int) {
      for (std::int64_t lo; (lo = next.fetch_add(chunk, std::memory_order_relaxed)) < end;)
        for (std::int64_t i = lo, hi = std::min(end, lo + chunk); i < hi; ++i) f(t, i);
    });
  }

  // f(t, lo, hi) for consecutive ranges [lo, hi) of `chunk` items covering [0, n), each handed to
  // whichever thread t is free (rows of uneven length: a long row still leaves other chunks).
  template <class F> void parallel_ranges(std::int64_t n, std::int64_t chunk, F &&f) {
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    parallel_dynamic(0, chunks, 1, [&](int t, std::int64_t c) { f(t, c * chunk, std::min(n, c * chunk + chunk)); });
  }

private:
  void work(int t);
  void publish();
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<int> sleepers_{0};
  const std::function<void(int, int)> *task_ = nullptr;
  std::atomic<std::uint64_t> epoch_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
};

// Flat passes over shorter ranges than this stay on the calling thread: a parallel step costs a
// handshake with every worker (microseconds), which a pass over 2^15 entries no longer notices.
constexpr std::int64_t kSliceGrain = std::int64_t{1} << 15;

// f(t, lo, hi) on one contiguous slice [lo, hi) of [begin, end) per thread t of `pool` (any pool
// with threads() and run(task(t, nthreads)): ThreadPool, the orderings' LevelPool), skipping empty
// slices; on this thread alone, as f(0, begin, end), when there is no pool, it has one thread, or
// the range is shorter than `grain`. The slices depend on the thread count only, so a pass whose
// slices write disjoint places gives the same result on any number of threads.
template <class Pool, class F>
void for_slices(Pool *pool, std::int64_t begin, std::int64_t end, std::int64_t grain, F &&f) {
  if (end <= begin) return;
  if (!pool || pool->threads() == 1 || end - begin < grain) {
    f(0, begin, end);
    return;
  }
  pool->run([&](int t, int nt) {
    const std::int64_t len = end - begin, lo = begin + len * t / nt, hi = begin + len * (t + 1) / nt;
    if (lo < hi) f(t, lo, hi);
  });
}

// A hint to fetch *p into the cache: the memory-bound host loops issue it some entries ahead of a
// random read whose address they already know (no effect where the compiler has no builtin).
inline void prefetch(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

} // namespace pgk
