// How batch RCM cuts a run of newly ordered vertices into batches (paper Sec. IV-C). Pure
// functions of the vertex count and weights, so every backend (CPU now, device later) forms
// the same batches, and the queue ids that a batch reserves at Counted time ("early
// generation") are exactly the batches it later fills.
//
// Weight of a vertex: min(valence, T). A vertex heavier than T is counted as T: it gets a batch
// of its own anyway, and the clamp keeps the batch count <= the vertex count, so no batch is
// ever empty.
#pragma once

#include "src/common/csr.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pgk::rcm::detail {

inline std::uint64_t batch_weight(Index valence, std::uint64_t max_batch_valence) {
  const auto v = static_cast<std::uint64_t>(valence < 0 ? 0 : valence);
  return std::min(v, max_batch_valence);
}

// The number of batches for `nodes` vertices of total weight `weight`: as few as respect
// both the node limit B and the weight limit T, were the vertices packed optimally. Packed
// in order the weight limit can be exceeded (the paper accepts that on the CPU; scratch grows).
inline std::uint64_t batch_count(std::uint64_t nodes, std::uint64_t weight, std::uint64_t B, std::uint64_t T) {
  if (nodes == 0) return 0;
  return std::max((nodes + B - 1) / B, (weight + T - 1) / T);
}

// Cuts `nodes` vertices (weights w(0), ..., w(nodes-1), summing to `weight`) into exactly
// `count` = batch_count(...) contiguous batches; bounds receives count + 1 offsets.
// Rule for each batch, with R vertices and weight W left for m batches:
//   take at least max(1, R - (m-1)B) vertices (so the rest fits B per batch) and at most
//   min(B, R - (m-1)) (so no later batch is empty); between those, keep adding vertices while
//   the batch weight is below the average W/m still to place (the paper's balancing rule) and
//   the next vertex still fits under T (so a heavy vertex tends to start a batch of its own).
template <class WeightOf>
void split_batches(std::uint64_t nodes, std::uint64_t weight, std::uint64_t count, std::uint64_t B, std::uint64_t T,
                   WeightOf w, std::vector<std::uint64_t> &bounds) {
  bounds.clear();
  bounds.push_back(0);
  std::uint64_t pos = 0, left = nodes, left_weight = weight;
  for (std::uint64_t j = 0; j < count; ++j) {
    const std::uint64_t m = count - j;
    const std::uint64_t fits_later = (m - 1) * B;
    const std::uint64_t min_take = std::max<std::uint64_t>(1, left > fits_later ? left - fits_later : 0);
    const std::uint64_t max_take = std::min(B, left - (m - 1));
    const std::uint64_t target = (left_weight + m - 1) / m; // w < target  <=>  w * m < W
    std::uint64_t take = 0, batch_w = 0;
    while (take < min_take) batch_w += w(pos + take++);
    while (take < max_take && batch_w < target && batch_w + w(pos + take) <= T) batch_w += w(pos + take++);
    pos += take;
    left -= take;
    left_weight -= batch_w;
    bounds.push_back(pos);
  }
}

} // namespace pgk::rcm::detail
