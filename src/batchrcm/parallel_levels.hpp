// A small pool of spinning worker threads that expands one BFS level in parallel: the
// level-synchronous step of the host start-node search. Workers stay alive for the whole
// search, so a level costs two handshakes, not thread starts (a 3D mesh has thousands).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "src/common/csr.hpp"

namespace pgk::rcm {

class LevelPool {
public:
  explicit LevelPool(int threads);
  ~LevelPool();
  LevelPool(const LevelPool &) = delete;
  LevelPool &operator=(const LevelPool &) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs task(t, nthreads) on every thread t (the caller is t = 0) and returns when all finished.
  void run(const std::function<void(int, int)> &task);

private:
  void work(int t);
  std::vector<std::thread> workers_;
  const std::function<void(int, int)> *task_ = nullptr;
  std::atomic<std::uint64_t> epoch_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
};

} // namespace pgk::rcm
