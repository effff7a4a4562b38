// A program whose error path reads freed memory, for check_valgrind_planted.sh: proves that
// check_run.sh --valgrind fails a --fail test (one that must exit non-zero) when the error path
// has a memory error, instead of accepting any non-zero exit.
//
//   pgk-planted-memory-error clean     exits 1 (an error path), no memory error
//   pgk-planted-memory-error planted   exits 1 after reading a freed buffer
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
// volatile: the read of the freed buffer must happen, whatever the optimizer proves.
volatile int *volatile stale = nullptr;
} // namespace

int main(int argc, char **argv) {
  const bool planted = argc > 1 && std::strcmp(argv[1], "planted") == 0;
  int *buffer = static_cast<int *>(std::malloc(4 * sizeof(int)));
  if (buffer == nullptr) return 2;
  buffer[0] = 1;
  stale = buffer;
  std::free(buffer);
  // Invalid read of size 4 (freed memory). Its value decides a branch: valgrind's translator
  // drops loads whose value is never used, and the read would go unseen.
  if (planted && stale[0] == 0x5eed) return 3;
  std::fprintf(stderr, "error: the %s error path\n", planted ? "planted" : "clean");
  return 1;
}
