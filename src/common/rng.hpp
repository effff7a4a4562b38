// Deterministic pseudo-random numbers for the test-data generators.
//
// Why not <random>: the engines are specified bit for bit, but std::uniform_*_distribution
// and std::shuffle are not; libstdc++, libc++ and MSVC map the same engine output to
// different values, so "seed=1" would name a different matrix on each platform and a
// benchmark or a failing test could not be reproduced elsewhere. Everything here is
// defined exactly: splitmix64 (Steele, Lea & Flood 2014, constants from Vigna's reference
// code), integer -> double by exact power-of-two scaling, and bounded integers by
// rejection sampling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pgk {

class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}

  std::uint64_t next_u64() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) on the grid k * 2^-53. The top 53 bits fit a double's significand
  // and the scaling is by a power of two, so both steps are exact: no rounding, hence no
  // dependence on compiler, FPU mode or platform.
  double uniform() noexcept { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, bound). Rejects the lowest (2^64 mod bound) raw values so that
  // every residue is equally likely (the arc4random_uniform method); Lemire's
  // multiply-shift would need a 128-bit product, which standard C++ does not have.
  // Expected draws per call are below 2. bound == 0 returns 0 without drawing.
  std::uint64_t bounded(std::uint64_t bound) noexcept {
    if (bound == 0) return 0;
    const std::uint64_t threshold = (0 - bound) % bound; // == 2^64 mod bound
    for (;;) {
      const std::uint64_t r = next_u64();
      if (r >= threshold) return r % bound;
    }
  }

private:
  std::uint64_t state_;
};

// Seed of an independent stream `stream` of `seed`. Generators draw different aspects of
// a matrix (edges, a permutation, values) from separate streams, so that e.g. the
// community assignment of a graph can be recomputed without regenerating its edges.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) noexcept {
  SplitMix64 outer(seed);
  SplitMix64 inner(outer.next_u64() ^ (stream * 0xD1B54A32D192ED03ull));
  return inner.next_u64();
}

// Fisher-Yates shuffle driven by SplitMix64 (std::shuffle's use of the engine is
// implementation-defined, see above).
template <class T> void shuffle(std::vector<T> &v, SplitMix64 &rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.bounded(i));
    std::swap(v[i - 1], v[j]);
  }
}

} // namespace pgk
