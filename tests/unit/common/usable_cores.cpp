// usable_cores() follows the calling thread's affinity mask, and a pool with the default thread
// count takes that many threads: a rank that an MPI launcher bound to one core runs one thread
// (on the GPU node, 32 carp set-up threads bound to one core took 73.8 s where one took 59.7 s).
#include "src/common/thread_pool.hpp"

#include <gtest/gtest.h>

#include <thread>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace pgk {
namespace {

TEST(UsableCores, AtLeastOneAndAtMostTheMachine) {
  const int cores = usable_cores();
  EXPECT_GE(cores, 1);
  const unsigned hw = std::thread::hardware_concurrency();
  if (hw > 0) EXPECT_LE(cores, static_cast<int>(hw));
}

#if defined(__linux__)
// Binds the calling thread to the first CPU of its mask for the test's scope, as a launcher's
// --bind-to core would, and restores the mask after.
class BoundToOneCpu {
public:
  BoundToOneCpu() {
    ok_ = pthread_getaffinity_np(pthread_self(), sizeof(saved_), &saved_) == 0;
    if (!ok_) return;
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
      if (CPU_ISSET(c, &saved_)) first = c;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ok_ = first >= 0 && pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0;
  }
  ~BoundToOneCpu() {
    if (ok_) pthread_setaffinity_np(pthread_self(), sizeof(saved_), &saved_);
  }
  bool ok() const { return ok_; }

private:
  cpu_set_t saved_{};
  bool ok_ = false;
};

TEST(UsableCores, FollowTheAffinityMask) {
  const int before = usable_cores();
  {
    BoundToOneCpu bound;
    ASSERT_TRUE(bound.ok()) << "could not read or set this thread's affinity";
    EXPECT_EQ(usable_cores(), 1);
    ThreadPool pool(0);
    EXPECT_EQ(pool.threads(), 1);
  }
  EXPECT_EQ(usable_cores(), before);
  ThreadPool pool(0);
  EXPECT_EQ(pool.threads(), before);
}

TEST(UsableCores, CountTheMaskNotTheMachine) {
  cpu_set_t mask;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask), 0);
  EXPECT_EQ(usable_cores(), CPU_COUNT(&mask));
}
#endif

} // namespace
} // namespace pgk
