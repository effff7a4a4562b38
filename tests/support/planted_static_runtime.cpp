// Linked with -static-libstdc++ (tests/CMakeLists.txt): check_shared_runtime.sh must reject it.
#include <sstream>
#include <string>

extern "C" int pgk_planted_format(int n) {
  std::ostringstream s;
  s << n;
  return (int)s.str().size();
}
