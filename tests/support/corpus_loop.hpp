// The loop of every corpus test: one entry after another under SCOPED_TRACE(label), an
// exception failing that entry only, and a stop after `limit` failing entries (a broken
// primitive fails fast and keeps the log readable).
#pragma once

#include "tests/support/corpus.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <exception>
#include <vector>

namespace pgk::test {

inline int failure_parts() {
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return 0;
  const ::testing::TestResult *r = info->result();
  int n = 0;
  for (int k = 0; k < r->total_part_count(); ++k) n += r->GetTestPartResult(k).failed();
  return n;
}

// At most this many entries per loop when PGK_TEST_MAX_ENTRIES is set (the slowest sanitizer runs,
// tests/gpu/tests.cmake); every entry otherwise.
inline std::size_t max_entries() {
  const char *v = std::getenv("PGK_TEST_MAX_ENTRIES");
  const long n = v ? std::atol(v) : 0;
  return n > 0 ? static_cast<std::size_t>(n) : static_cast<std::size_t>(-1);
}

// f(const CorpusEntry &) for each entry; returns the number of entries visited.
template <class F> int for_each_entry(const std::vector<const CorpusEntry *> &entries, F f, int limit = 25) {
  int visited = 0, failed = 0;
  const std::size_t cap = max_entries();
  for (const CorpusEntry *e : entries) {
    if (static_cast<std::size_t>(visited) >= cap) break;
    if (failed >= limit) {
      ADD_FAILURE() << "stopped after " << failed << " failing corpus entries (" << visited << " of " << entries.size()
                    << " visited)";
      break;
    }
    const int before = failure_parts();
    try {
      SCOPED_TRACE(e->label());
      f(*e);
    } catch (const std::exception &x) {
      ADD_FAILURE() << e->name() << ": exception: " << x.what();
    }
    failed += failure_parts() > before;
    ++visited;
  }
  return visited;
}

} // namespace pgk::test
