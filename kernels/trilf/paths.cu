// Path order of a linear forest (trilf_primitives.hpp, order_paths): every path's id (its
// smaller end) and every vertex's position on it, by the sampled list ranking of
// kernels/common/list_rank.cuh, then O(N) offsets; equal to the host reference
// (src/trilf/paths.cpp).
//
// State per splitter c and slot i in {0, 1}: q[c][i], the next splitter 2^s segments away in
// direction i, or END(e) = -(e+1) when the path end e is nearer; r[c][i], the vertices from c up
// to q (exclusive) or up to e (inclusive). The walk from each splitter along each slot leaves on
// every vertex it passes the splitter and the hop count (near[v][j]: the splitter reached through
// v's slot j); the splitters, linked by those walks, are ranked by pointer jumping; then every
// vertex adds its hops to the rank of the splitter beyond which its path continues. The ends and
// counts are exactly the pointer-jumping scan's over all vertices (they are properties of the
// path), so the order is the same.
//
// Stop rule (jump's flag): some pointer is still on a splitter after the step.
#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "kernels/common/list_rank.cuh"
#include "kernels/trilf/launch.cuh"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

// Per splitter: q[c][i] and r[c][i] in one aligned record (16 bytes with 32-bit indices).
struct alignas(4 * sizeof(Index)) PathState {
  Index q[2];
  Index r[2];
};

// The path id/position scan (list_rank.cuh's Scan). Walks: near[4v + 2j] = compact index of the
// splitter reached through v's slot j, near[4v + 2j + 1] = +k (walk left that splitter by its
// slot 0) or -k (slot 1), k the hops from it to v (-1: not reached).
struct PathScan {
  using State = PathState;
  struct Fold {};
  struct Load {};

  Index *near;
  std::size_t nv;

  __device__ void mark(Index, Index, Index) const {}
  void clear(cudaStream_t s) const {
    PGK_CUDA_CHECK(cudaMemsetAsync(near, 0xff, sizeof(Index) * 4 * nv, s)); // -1: not reached
  }
  __device__ Fold fold_empty() const { return {}; }
  __device__ Fold fold_start(Index, int) const { return {}; }
  __device__ Load load(Index) const { return {}; }
  __device__ void pass(Fold &, Index c, int i, Index cur, int j, Index k, const Load &) const {
    near[4 * static_cast<std::size_t>(cur) + 2 * j] = c;
    near[4 * static_cast<std::size_t>(cur) + 2 * j + 1] = i == 0 ? k : -k;
  }
  __device__ void store(PathState *st, Index c, int i, Index q, Index k, const Fold &) const {
    st[c].q[i] = q;
    st[c].r[i] = k;
  }
  __device__ static void jump(Index v, int i, const PathState &sv, const PathState &sx, PathState &o,
                              bool &changed) {
    const int j = sx.q[0] != v ? 0 : 1;
    o.q[i] = sx.q[j];
    o.r[i] = sv.r[i] + sx.r[j];
    changed |= o.q[i] >= 0;
  }
};

// Path id = smaller end, position counted (1-based) from it; lengths at the heads. A vertex
// left unresolved (on a cycle) raises *cyc and gets id -1.
__global__ void rank_decode(Index nv, const Index *nbr, const Index *flag, const Index *comp, const Index *near,
                            const PathState *st, Index *id, Index *pos, Index *head_len, unsigned long long *stats,
                            int *cyc) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    Index e[2], rr[2];
    bool ok = true;
    if (flag[v]) {
      const PathState sv = st[comp[v]];
      for (int j = 0; j < 2; ++j) {
        ok &= sv.q[j] < 0;
        e[j] = -sv.q[j] - 1;
        rr[j] = sv.r[j];
      }
    } else {
      for (int j = 0; j < 2; ++j) {
        const Index c = near[4 * static_cast<std::size_t>(v) + 2 * j];
        const Index kk = near[4 * static_cast<std::size_t>(v) + 2 * j + 1];
        if (c < 0) {
          ok = false;
          e[j] = rr[j] = 0;
          continue;
        }
        const int i = kk > 0 ? 0 : 1;
        const PathState sc = st[c];
        ok &= sc.q[1 - i] < 0;
        e[j] = -sc.q[1 - i] - 1;
        rr[j] = (kk > 0 ? kk : -kk) + sc.r[1 - i];
      }
    }
    if (!ok) {
      id[v] = -1;
      pos[v] = 0;
      head_len[v] = 0;
      *cyc = 1;
      continue;
    }
    const Index e0 = e[0], e1 = e[1], r0 = rr[0], r1 = rr[1];
    const bool first = e0 <= e1;
    id[v] = first ? e0 : e1;
    pos[v] = first ? r0 : r1;
    const Index len = r0 + r1 - 1;
    const bool head = (first ? e0 : e1) == v;
    head_len[v] = head ? len : 0;
    if (head) {
      atomicAdd(&stats[0], 1ull);
      atomicMax(&stats[1], static_cast<unsigned long long>(len));
    }
  }
}

__global__ void path_place(Index nv, const Index *id, const Index *pos, const Index *off, Index *perm, Index *iperm,
                           Index *path_head) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    if (id[v] < 0) continue; // not converged (order_paths throws)
    const Index start = off[id[v]];
    const Index k = start + pos[v] - 1;
    perm[k] = v;
    iperm[v] = k;
    path_head[k] = start;
  }
}

} // namespace

void order_paths(const DeviceFactor &forest, DevicePathOrder &out, void *stream) {
  if (forest.n != 2 || forest.nbr.size() != 2 * static_cast<std::size_t>(forest.nvertices))
    throw std::invalid_argument("trilf order_paths: forest must have n = 2");
  const Index nv = forest.nvertices;
  cudaStream_t s = as_stream(stream);
  out.perm.allocate(static_cast<std::size_t>(nv));
  out.iperm.allocate(static_cast<std::size_t>(nv));
  out.path_head.allocate(static_cast<std::size_t>(nv));
  out.npaths = out.longest = 0;
  if (nv == 0) return;
  const auto un = static_cast<std::size_t>(nv);
  const Index *nbr = forest.nbr.data();
  const int grid = grid_for(nv, kThreads, kMaxBlocks);
  DeviceBuffer<Index> near(4 * un, s);
  const PathScan scan{near.data(), un};
  list_rank::Ranking<PathState> ranked;
  list_rank::rank(nv, nbr, scan, ranked, s);
  DeviceBuffer<Index> id(un, s), pos(un, s), len(un, s), off(un, s);
  DeviceBuffer<unsigned long long> stats(2, s);
  DeviceBuffer<int> cyc(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(stats.data(), 0, 2 * sizeof(unsigned long long), s));
  PGK_CUDA_CHECK(cudaMemsetAsync(cyc.data(), 0, sizeof(int), s));
  rank_decode<<<grid, kThreads, 0, s>>>(nv, nbr, ranked.flag.data(), ranked.comp.data(), near.data(), ranked.result(),
                                        id.data(), pos.data(), len.data(), stats.data(), cyc.data());
  PGK_CUDA_CHECK_LAUNCH();
  // Offsets of the paths in head order (ascending smaller end): an exclusive scan of the
  // lengths stored at the heads (0 elsewhere). Integer scan: deterministic.
  std::size_t temp_bytes = 0;
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, len.data(), off.data(), nv, s));
  DeviceBuffer<unsigned char> temp(temp_bytes, s);
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, len.data(), off.data(), nv, s));
  path_place<<<grid, kThreads, 0, s>>>(nv, id.data(), pos.data(), off.data(), out.perm.data(), out.iperm.data(),
                                       out.path_head.data());
  PGK_CUDA_CHECK_LAUNCH();
  unsigned long long h[2];
  copy_to_host(h, stats.data(), sizeof h, s);
  const int live = cyc.get(0, s);
  // A vertex left unresolved (no end in some direction) lies on a cycle.
  if (live) throw std::invalid_argument("trilf order_paths: the forest contains a cycle");
  out.npaths = static_cast<Index>(h[0]);
  out.longest = static_cast<Index>(h[1]);
}

} // namespace pgk::cuda::trilf
