// The one main of the device tests (tests/gpu/**): GoogleTest, a global environment that
// probes the device once and says what it found, and the corpus size.
//
//   <test binary> [gtest flags] [--small]
//     --small   the sanitizer subset of the corpus and of the option sets (also
//               PGK_TEST_CORPUS=small)
// Without a usable device every test is skipped with the reason; with PGK_REQUIRE_GPU=1 every
// test fails instead (tests/support/device.hpp).
#include "tests/support/corpus.hpp"
#include "tests/support/device.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

namespace {

class DeviceEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    const pgk::test::DeviceStatus &s = pgk::test::device_status();
    if (s.usable)
      std::printf("[ device   ] %s; corpus: %s\n", s.description.c_str(), pgk::test::small_corpus() ? "small" : "full");
    else
      std::printf("[ device   ] none: %s (%s)\n", s.reason.c_str(),
                  pgk::test::gpu_required() ? "PGK_REQUIRE_GPU=1: every test fails" : "every test is skipped");
    std::fflush(stdout);
  }
};

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0) {
      pgk::test::set_small_corpus(true);
    } else {
      std::fprintf(stderr, "%s: unknown argument %s (usage: [gtest flags] [--small])\n", argv[0], argv[i]);
      return 2;
    }
  }
  ::testing::AddGlobalTestEnvironment(new DeviceEnvironment);
  return RUN_ALL_TESTS();
}
