// The RABBIT++ regrouping and the figures on the device (src/rabbitpp/regroup.cpp's regroup and
// figures, equal results): insular and hub flags per vertex, a stable three-way partition of
// perm_rabbit (a one-pass radix sort on the 2-bit place: stable, so each group keeps the Rabbit
// order), and for -view the per-community sums (exact integers), whose modularity the host sums
// in ascending top id as figures() does, bit for bit.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <vector>

#include "kernels/rabbitpp/internal.cuh"
#include "kernels/rabbitpp/regroup_ops.hpp"
#include "src/rabbitpp/regroup.hpp"

namespace pgk::cuda::rabbitpp_detail {
namespace {

using namespace rabbitpp_ops;
using UIndex = RowSum;

// One warp per vertex: the lanes test 32 entries of its row at a time and stop at the first chunk
// with an edge leaving the community (a hub's long row is shared, and usually left early).
__global__ void flags_kernel(const Index *g_rowptr, const Index *g_colidx, const Index *com, const Index *indeg,
                             Index n, Index nnz, int hub_factor, Index *insular, Index *hub) {
  const int lane = threadIdx.x % 32;
  PGK_RB_FOR_WARP(v, n) {
    const Index c = com[v], end = g_rowptr[v + 1];
    bool outside = false;
    for (Index base = g_rowptr[v]; base < end && !outside; base += 32) {
      const Index e = base + lane;
      outside = __any_sync(0xffffffffu, e < end && leads_outside(g_colidx, com, c, e));
    }
    if (lane == 0) {
      insular[v] = outside ? 0 : 1;
      hub[v] = hub_flag(indeg, n, nnz, hub_factor, v);
    }
  }
}

// in_top null or *in_top >= min_entries: the skew gate passed, else every key is 0 (Rabbit order).
__global__ void place_kernel(const Index *perm, const Index *insular, const Index *hub, bool all_hubs,
                             bool insular_first, const UIndex *in_top, UIndex min_entries, Index n, std::uint8_t *keys,
                             Index *vals) {
  const bool skewed = in_top == nullptr || *in_top >= min_entries;
  PGK_RB_FOR(p, n) {
    keys[p] = skewed ? place_at(perm, insular, hub, all_hubs, insular_first, p) : std::uint8_t{0};
    vals[p] = perm[p];
  }
}

// One warp per vertex: the lanes sum the row's weight inside the community, lane 0 adds it.
__global__ void community_sums_kernel(const Index *g_rowptr, const Index *g_colidx, const std::uint8_t *g_weight,
                                      const Wide *g_strength, const Index *com, Index n, CommunitySums *sums) {
  const int lane = threadIdx.x % 32;
  PGK_RB_FOR_WARP(v, n) {
    const Index c = com[v];
    Wide inside = 0;
    for (Index e = g_rowptr[v] + lane; e < g_rowptr[v + 1]; e += 32)
      inside += weight_inside(g_colidx, g_weight, com, c, e);
    for (int offset = 16; offset > 0; offset /= 2) inside += __shfl_down_sync(0xffffffffu, inside, offset);
    if (lane == 0) add_to_community(sums, c, inside, g_strength[v]);
  }
}

__global__ void row_length_kernel(CsrView a, UIndex *len) { PGK_RB_FOR(v, a.nrows) len[v] = row_length(a, v); }

struct HasMembers {
  __device__ bool operator()(const CommunitySums &c) const { return c.size > 0; }
};

// The counts of the figures, read in one copy.
struct FigureRecord {
  long long communities;
  Index insular, hubs;
  UIndex in_top;
};

} // namespace

VertexFlags vertex_flags(const DeviceGraph &g, const Index *com, int hub_factor, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  VertexFlags f;
  f.insular = DeviceBuffer<Index>(static_cast<std::size_t>(g.n), s);
  f.hub = DeviceBuffer<Index>(static_cast<std::size_t>(g.n), s);
  launch_warps(flags_kernel, g.n, s, g.rowptr.data(), g.colidx.data(), com, g.indeg.data(), g.n, g.nnz_a, hub_factor,
               f.insular.data(), f.hub.data());
  return f;
}

void longest_tenth_entries(const CsrView &a, UIndex *in_top, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const Index n = a.nrows;
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<UIndex> l0(un, s), l1(un, s);
  launch(row_length_kernel, n, s, a, l0.data());
  cub::DoubleBuffer<UIndex> len(l0.data(), l1.data());
  const int end_bit = bits_for(static_cast<unsigned long long>(n)); // lengths <= n
  temp.run(
      [&](void *t, std::size_t &b) { return cub::DeviceRadixSort::SortKeysDescending(t, b, len, n, 0, end_bit, s); });
  const UIndex *longest = len.Current();
  temp.run([&](void *t, std::size_t &b) {
    return cub::DeviceReduce::Sum(t, b, longest, in_top, rabbitpp::longest_tenth(n), s);
  });
}

void regroup_device(const DeviceGraph &g, const VertexFlags &flags, const Index *perm_rabbit,
                    const rabbitpp::Options &opt, const UIndex *in_top, UIndex min_entries, DeviceBuffer<Index> &out,
                    CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const Index n = g.n;
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<std::uint8_t> k0(un, s), k1(un, s);
  DeviceBuffer<Index> v0(un, s);
  out = DeviceBuffer<Index>(un, s);
  launch(place_kernel, n, s, perm_rabbit, flags.insular.data(), flags.hub.data(),
         opt.hub_scope == rabbitpp::HubScope::All, opt.insular_first, in_top, min_entries, n, k0.data(), v0.data());
  cub::DoubleBuffer<std::uint8_t> keys(k0.data(), k1.data());
  cub::DoubleBuffer<Index> vals(v0.data(), out.data());
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, n, 0, 2, s); });
  if (vals.Current() != out.data())
    PGK_CUDA_CHECK(cudaMemcpyAsync(out.data(), vals.Current(), sizeof(Index) * un, cudaMemcpyDeviceToDevice, s));
}

std::int64_t figures_device(const DeviceGraph &g, const VertexFlags &flags, const Index *com, const UIndex *in_top,
                            rabbitpp::Info &info, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const Index n = g.n;
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<CommunitySums> sums(un, s), tops(un, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, sizeof(CommunitySums) * un, s));
  launch_warps(community_sums_kernel, n, s, g.rowptr.data(), g.colidx.data(), g.weight.data(), g.strength.data(), com,
               n, sums.data());
  DeviceBuffer<FigureRecord> rec(1, s);
  FigureRecord *r = rec.data();
  const CommunitySums *in = sums.data();
  CommunitySums *out = tops.data();
  // Communities in ascending top id (the select keeps the order).
  temp.run([&](void *t, std::size_t &b) {
    return cub::DeviceSelect::If(t, b, in, out, &r->communities, n, HasMembers{}, s);
  });
  const Index *insular = flags.insular.data(), *hub = flags.hub.data();
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceReduce::Sum(t, b, insular, &r->insular, n, s); });
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceReduce::Sum(t, b, hub, &r->hubs, n, s); });
  // Skew: the entries of the 10% longest rows, read with the record.
  PGK_CUDA_CHECK(cudaMemcpyAsync(&r->in_top, in_top, sizeof(UIndex), cudaMemcpyDeviceToDevice, s));
  const FigureRecord h = read_scalar(r, s);
  std::vector<CommunitySums> c(static_cast<std::size_t>(h.communities));
  copy_to_host(c.data(), tops.data(), sizeof(CommunitySums) * c.size(), s);
  // figures(): the same integers summed in the same order, in double.
  const double total = static_cast<double>(g.total);
  std::int64_t inside_all = 0;
  for (const CommunitySums &x : c) {
    ++info.communities;
    info.largest_community = std::max(info.largest_community, static_cast<Index>(x.size));
    inside_all += x.inside;
    const std::int64_t inside = x.inside, tot = x.tot;
    if (g.total > 0) info.modularity += inside / total - (tot / total) * (tot / total);
  }
  info.insularity = g.total > 0 ? inside_all / total : 1.0;
  info.insular = h.insular;
  info.hubs = h.hubs;
  info.skew = g.nnz_a > 0 ? static_cast<double>(h.in_top) / static_cast<double>(g.nnz_a) : 0.0;
  return static_cast<std::int64_t>(h.in_top);
}

} // namespace pgk::cuda::rabbitpp_detail
