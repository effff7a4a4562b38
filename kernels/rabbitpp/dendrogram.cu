// The Rabbit numbering on the device (src/rabbitpp/dendrogram.cpp's rabbit_permutation and
// community_of, equal results): children lists by one radix sort, the dendrogram's Euler tour as
// a linked list, its sampled list ranking, and the communities read off the numbering. See
// dendrogram_ops.hpp for the method. O(n log n) work; one copy (the splitter count).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "kernels/rabbitpp/dendrogram_ops.hpp"
#include "kernels/rabbitpp/internal.cuh"

namespace pgk::cuda::rabbitpp_detail {
namespace {

using namespace rabbitpp_ops;

__global__ void child_key_kernel(const Index *parent, const Index *seq, Index n, int qbits, Key *keys, Index *ids) {
  PGK_RB_FOR(v, n) {
    keys[v] = child_key(parent, seq, n, qbits, v);
    ids[v] = v;
  }
}
__global__ void link_kernel(const Key *keys, const Index *kids, Index n, int qbits, Index *first_child,
                            Index *next_sibling) {
  PGK_RB_FOR(i, n) link_children(keys, kids, n, qbits, i, first_child, next_sibling);
}
__global__ void tour_kernel(const Index *parent, const Index *first_child, const Index *next_sibling, Index nodes,
                            Index *next) {
  PGK_RB_FOR(k, nodes) next[k] = tour_next(parent, first_child, next_sibling, k);
}
__global__ void tour_head_kernel(const Index *first_child, Index n, Index *head) { tour_head(first_child, n, head); }
__global__ void splitter_flag_kernel(Index nodes, const Index *head, Index *flag) {
  PGK_RB_FOR(k, nodes + 1) splitter_flag(nodes, head, k, flag);
}
__global__ void place_splitter_kernel(Index nodes, const Index *head, const Index *number, Index *splitter) {
  PGK_RB_FOR(k, nodes) place_splitter(head, number, k, splitter);
}
__global__ void walk_kernel(const Index *next, const Index *number, const Index *splitter, const Index *head,
                            Index nodes, Index count, Index *owner, Index *local, Index *seg_count, Index *seg_next) {
  PGK_RB_FOR(c, count) walk_segment(next, number, splitter, head, nodes, c, owner, local, seg_count, seg_next);
}
__global__ void rank_jump_kernel(const Index *count_in, const Index *next_in, Index *count_out, Index *next_out,
                                 Index count) {
  PGK_RB_FOR(c, count) rank_jump(count_in, next_in, count_out, next_out, c);
}
__global__ void place_vertex_kernel(const Index *owner, const Index *local, const Index *suffix, Index n, Index *perm) {
  PGK_RB_FOR(v, n) place_vertex(owner, local, suffix, n, v, perm);
}
__global__ void community_start_kernel(const Index *perm, const Index *parent, Index n, Index *flag) {
  PGK_RB_FOR(p, n) community_start(perm, parent, p, flag);
}
__global__ void community_top_kernel(const Index *perm, const Index *parent, const Index *cid, Index n, Index *top_of) {
  PGK_RB_FOR(p, n) community_top(perm, parent, cid, p, top_of);
}
__global__ void community_of_kernel(const Index *perm, const Index *cid, const Index *top_of, Index n, Index *com) {
  PGK_RB_FOR(p, n) community_of(perm, cid, top_of, p, com);
}

// The children lists: kids sorted by child_key, first_child (n + 1, entry n the first top) and
// next_sibling. Returns the tour's successor array (2n nodes) and its head (device scalar).
void tour(const DeviceDendrogram &d, Index n, DeviceBuffer<Index> &next, DeviceBuffer<Index> &head, CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  const std::size_t un = static_cast<std::size_t>(n);
  const int qbits = bits_for(static_cast<unsigned long long>(n - 1));
  const int end_bit = bits_for(static_cast<unsigned long long>(n)) + qbits;
  DeviceBuffer<Key> k0(un, s), k1(un, s);
  DeviceBuffer<Index> v0(un, s), v1(un, s), first_child(un + 1, s), next_sibling(un, s);
  launch(child_key_kernel, n, s, d.parent.data(), d.seq.data(), n, qbits, k0.data(), v0.data());
  cub::DoubleBuffer<Key> keys(k0.data(), k1.data());
  cub::DoubleBuffer<Index> kids(v0.data(), v1.data());
  temp.run(
      [&](void *t, std::size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, keys, kids, n, 0, end_bit, s); });
  PGK_CUDA_CHECK(cudaMemsetAsync(first_child.data(), 0xff, sizeof(Index) * (un + 1), s));
  launch(link_kernel, n, s, keys.Current(), kids.Current(), n, qbits, first_child.data(), next_sibling.data());
  const Index nodes = 2 * n;
  next = DeviceBuffer<Index>(2 * un, s);
  head = DeviceBuffer<Index>(1, s);
  launch(tour_kernel, nodes, s, d.parent.data(), first_child.data(), next_sibling.data(), nodes, next.data());
  launch_one(tour_head_kernel, s, first_child.data(), n, head.data());
}

} // namespace

void rabbit_permutation_device(const DeviceDendrogram &d, Index n, DeviceBuffer<Index> &perm, DeviceBuffer<Index> &com,
                               CubTemp &temp) {
  const cudaStream_t s = temp.stream();
  if (n > (rabbitpp_ops::index_max() - 1) / 2)
    throw std::invalid_argument("rabbitpp gpu: too many vertices for the Euler tour's 2n nodes in Index");
  const std::size_t un = static_cast<std::size_t>(n);
  DeviceBuffer<Index> next, head;
  tour(d, n, next, head, temp);
  // Sampled list ranking of the 2n tour nodes.
  const Index nodes = 2 * n;
  DeviceBuffer<Index> number(2 * un + 1, s);
  launch(splitter_flag_kernel, nodes + 1, s, nodes, head.data(), number.data());
  Index *num = number.data();
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, num, num, nodes + 1, s); });
  const Index count = read_scalar(num + nodes, s); // >= 1: the head is a splitter
  const std::size_t uc = static_cast<std::size_t>(count);
  DeviceBuffer<Index> splitter(uc, s), owner(2 * un, s), local(2 * un, s);
  DeviceBuffer<Index> seg[2] = {DeviceBuffer<Index>(uc, s), DeviceBuffer<Index>(uc, s)};
  DeviceBuffer<Index> seg_next[2] = {DeviceBuffer<Index>(uc, s), DeviceBuffer<Index>(uc, s)};
  launch(place_splitter_kernel, nodes, s, nodes, head.data(), num, splitter.data());
  launch(walk_kernel, count, s, next.data(), num, splitter.data(), head.data(), nodes, count, owner.data(),
         local.data(), seg[0].data(), seg_next[0].data());
  const int steps = ceil_log2(count);
  for (int t = 0; t < steps; ++t) {
    const int a = t % 2, b = 1 - a;
    launch(rank_jump_kernel, count, s, seg[a].data(), seg_next[a].data(), seg[b].data(), seg_next[b].data(), count);
  }
  perm = DeviceBuffer<Index>(un, s);
  launch(place_vertex_kernel, n, s, owner.data(), local.data(), seg[steps % 2].data(), n, perm.data());
  // Communities: a scan of the community starts numbers them; each top is its community's last.
  DeviceBuffer<Index> cid(un, s), top_of(un, s);
  launch(community_start_kernel, n, s, perm.data(), d.parent.data(), n, cid.data());
  Index *c = cid.data();
  temp.run([&](void *t, std::size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, c, c, n, s); });
  launch(community_top_kernel, n, s, perm.data(), d.parent.data(), c, n, top_of.data());
  com = DeviceBuffer<Index>(un, s);
  launch(community_of_kernel, n, s, perm.data(), c, top_of.data(), n, com.data());
}

} // namespace pgk::cuda::rabbitpp_detail
