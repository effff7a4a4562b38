// bench_rabbitpp_l2_model: which generated graphs can show RABBIT++'s regrouping on an H100-sized L2?
// A host model, no GPU: it orders a generated graph by rabbit and rabbitpp (the multicore
// backend), then replays a CSR SpMV's reads of x in row order through an LRU cache of C bytes in
// units of U bytes, with A's streamed bytes (12 per entry, 16 per row) passing through the same
// cache. It prints x's missed bytes and the modelled DRAM bytes of each ordering, and their ratio
// (rabbitpp over rabbit): the seed's cache-simulator argument (notes/002), not a measurement.
//   build/bench/bench_rabbitpp_l2_model "powerlaw:n=4000000,communities=2000,mixing=0.3" 50 64 [variant...: k[:first][:all]]
#include "src/common/csr_build.hpp"
#include "src/matgen/generators.hpp"
#include "src/rabbitpp/batch.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using pgk::Index;

namespace {

// An LRU list over a fixed node pool: x's units are nodes 0..xunits-1 (direct index), streamed
// units are recycled nodes beyond them (never hit again, they only push x out).
struct Lru {
  std::vector<std::int64_t> prev, next;
  std::vector<char>         present;
  std::int64_t              head = -1, tail = -1, size = 0, capacity, xunits, stream_next;
  Lru(std::int64_t cap, std::int64_t xu) : prev(xu + cap + 1, -1), next(xu + cap + 1, -1), present(xu + cap + 1, 0), capacity(cap), xunits(xu), stream_next(xu) {}
  void unlink(std::int64_t k)
  {
    if (prev[k] >= 0) next[prev[k]] = next[k];
    else head = next[k];
    if (next[k] >= 0) prev[next[k]] = prev[k];
    else tail = prev[k];
  }
  void push_front(std::int64_t k)
  {
    prev[k] = -1, next[k] = head;
    if (head >= 0) prev[head] = k;
    head = k;
    if (tail < 0) tail = k;
  }
  std::int64_t evict()
  { // the node freed
    const std::int64_t k = tail;
    unlink(k), present[k] = 0, --size;
    return k;
  }
  bool touch_x(std::int64_t u)
  {
    if (present[u]) {
      unlink(u), push_front(u);
      return true;
    }
    if (size == capacity) {
      const std::int64_t f = evict();
      if (f >= xunits) free_stream.push_back(f);
    }
    present[u] = 1, ++size, push_front(u);
    return false;
  }
  void stream_unit()
  {
    std::int64_t k;
    if (size == capacity) {
      k = evict();
      if (k < xunits) k = take_stream();
    } else k = take_stream();
    present[k] = 1, ++size, push_front(k);
  }
  std::vector<std::int64_t> free_stream;
  std::int64_t              take_stream()
  {
    if (!free_stream.empty()) {
      const std::int64_t k = free_stream.back();
      free_stream.pop_back();
      return k;
    }
    return stream_next++;
  }
};

struct Traffic {
  double x_missed, stream;
};

Traffic simulate(const pgk::Csr &a, const std::vector<Index> &perm, double cache_mb, int unit)
{
  const Index        n = a.nrows;
  std::vector<Index> inew(n);
  for (Index k = 0; k < n; ++k) inew[perm[k]] = k;
  const int          per_unit = unit / 8;
  const std::int64_t xunits   = (n + per_unit - 1) / per_unit;
  Lru                lru(static_cast<std::int64_t>(cache_mb * 1e6 / unit), xunits);
  double             pending = 0, streamed = 0;
  std::int64_t       misses = 0;
  for (Index k = 0; k < n; ++k) {
    const Index r = perm[k];
    for (Index e = a.rowptr[r]; e < a.rowptr[r + 1]; ++e)
      if (!lru.touch_x(inew[a.colidx[e]] / per_unit)) ++misses;
    pending += 12.0 * (a.rowptr[r + 1] - a.rowptr[r]) + 16.0;
    while (pending >= unit) lru.stream_unit(), pending -= unit, streamed += unit;
  }
  return {static_cast<double>(misses) * unit, streamed + pending};
}

} // namespace

static int run(int argc, char **argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SPEC [cache_MB=50] [unit=64] [variant...: k[:first][:all]]\n", argv[0]);
    return 2;
  }
  const double cache_mb = argc > 2 ? std::atof(argv[2]) : 50;
  const int    unit     = argc > 3 ? std::atoi(argv[3]) : 64;
  if (!(cache_mb > 0) || unit < 8 || unit % 8) {
    std::fprintf(stderr, "%s: cache_MB must be > 0 and unit a positive multiple of 8 bytes\n", argv[0]);
    return 2;
  }
  const auto     t0   = std::chrono::steady_clock::now();
  const pgk::Csr a    = pgk::gen::generate(pgk::gen::parse_spec(argv[1]));
  const auto     secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::printf("%s: %lld rows, %lld nonzeros, x %.1f MB; generated in %.1f s; cache %.0f MB, unit %d B\n", argv[1], (long long)a.nrows, (long long)a.nnz(), a.nrows * 8e-6, secs(), cache_mb, unit);
  pgk::rabbitpp::Options o;
  o.input_is_symmetric = true;
  o.regroup            = false;
  pgk::rabbitpp::Info      info;
  const std::vector<Index> rabbit     = pgk::rabbitpp::rabbitpp_batch(pgk::view_of(a), o, &info);
  const double             compulsory = 12.0 * a.nnz() + 16.0 * a.nrows + 8.0 * a.nrows;
  const Traffic            tr         = simulate(a, rabbit, cache_mb, unit);
  const double             base       = tr.stream + tr.x_missed;
  std::printf("  insularity %.3f, skew %.3f, %lld communities, modelled compulsory %.3f GB (%.1f s)\n", info.insularity, info.skew, (long long)info.communities, compulsory * 1e-9, secs());
  std::printf("  %-14s x missed %.3f GB, DRAM %.3f GB = %.3fx compulsory\n", "rabbit", tr.x_missed * 1e-9, base * 1e-9, base / compulsory);
  // Each variant: the hub factor k, then optionally ":first" (insular_first) and ":all" (hub_scope all).
  std::vector<std::string> variants;
  for (int i = 4; i < argc; ++i) variants.emplace_back(argv[i]);
  if (variants.empty()) variants.emplace_back("1");
  for (const std::string &v : variants) {
    const int k = std::atoi(v.c_str());
    o.regroup = true, o.hub_factor = k;
    o.min_skew                  = 0; // the regrouping itself, whatever the skew gate would decide (skew printed above)
    o.insular_first             = v.find(":first") != std::string::npos;
    o.hub_scope                 = v.find(":all") != std::string::npos ? pgk::rabbitpp::HubScope::All : pgk::rabbitpp::HubScope::NonInsular;
    const std::vector<Index> pp = pgk::rabbitpp::rabbitpp_batch(pgk::view_of(a), o, &info);
    const Traffic            t  = simulate(a, pp, cache_mb, unit);
    const double             d  = t.stream + t.x_missed;
    std::printf("  rabbitpp %-9s x missed %.3f GB, DRAM %.3f GB = %.3fx compulsory; over rabbit %.4f "
                "(hubs %lld, insular %lld; %.1f s)\n",
                v.c_str(), t.x_missed * 1e-9, d * 1e-9, d / compulsory, d / base, (long long)info.hubs, (long long)info.insular, secs());
  }
  return 0;
}

// The library reports bad specs and options by exceptions (an unknown generator, a hub factor below 1).
int main(int argc, char **argv)
{
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}
