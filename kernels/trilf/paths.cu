// Linear forest and path order of PC trilf (primitives.hpp): cycle breaking of a
// [0,2]-factor (break_cycles) and the path id/position of every vertex (order_paths), both by
// Klein & Strzodka's bidirectional pointer-jumping scan (Algorithm 3), run as the sampled list
// ranking of kernels/common/list_rank.cuh with two different states and combine operators;
// equal to the host reference (src/trilf/paths.cpp).
//
// break_cycles, state per splitter c and slot i in {0, 1}: q[c][i], the next splitter 2^s
// segments away in direction i, or END(e) = -(e+1) when the path end e is nearer; key[c][i],
// the min edge key over those segments. On a cycle whose length is exactly 2^(s+1) segments
// both slots of the target point back at c; then both halves are folded in (the whole cycle), so
// the min key is still the cycle's. The walk from each splitter along each slot folds the keys
// of the edges it passes (the segment's min key) and leaves the splitter's compact index on the
// vertices it passes; the jump steps run on the splitters (a segment is an edge with its min
// key: keys stay unique, so the stop rule holds), and every vertex reads whether its splitter
// lies on a cycle and that cycle's min key. A cycle without a splitter (short ones, mostly) is
// cut by its smallest vertex, which walks it once. The cut edges are the cycles' min-key edges,
// as in the scan over all vertices. Stop rule (jump's flag): a pointer reached an end in this
// step, or a min key changed. If neither happens in step s, every path pointer was already an
// end (a path with a pointer left on a vertex has a vertex exactly 2^s from its end, which
// reaches the end now) and every cycle of length L already had 2^s >= L (otherwise the vertex
// 2^s before the cycle's minimum edge would gain it now: keys are unique).
//
// order_paths, state per splitter: q[c][i] as above; r[c][i], the vertices from c up to q
// (exclusive) or up to e (inclusive). The walks leave on every vertex they pass the splitter and
// the hop count (near[v][j]: the splitter reached through v's slot j); the splitters, linked by
// those walks, are ranked by pointer jumping; then every vertex adds its hops to the rank of the
// splitter beyond which its path continues. The ends and counts are exactly the pointer-jumping
// scan's over all vertices (they are properties of the path), so the order is the same. Stop
// rule: some pointer is still on a splitter after the step.
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "kernels/common/csr_search.cuh"
#include "kernels/common/cub_temp.cuh"
#include "kernels/common/list_rank.cuh"
#include "kernels/trilf/launch.cuh"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

// ---- break_cycles: the min edge-key scan ----------------------------------------------------

// Edge key (w, min id, max id) as (w, code): code = 2*lo + s, s the slot of hi among lo's
// two ascending slots, so codes order edges exactly as (lo, hi) does. With 32-bit indices
// the code fits 32 bits (lo < 2^31).
using Code = std::conditional_t<sizeof(Index) == 4, unsigned int, unsigned long long>;
constexpr Code kNoCode = ~Code(0);
__device__ inline bool key_less(double wa, Code ca, double wb, Code cb) { return wa < wb || (wa == wb && ca < cb); }

// The whole state of a splitter in one aligned record (32 bytes with 32-bit indices: one
// sector), so a step reads one record per splitter and one per target.
struct alignas(sizeof(Index) == 4 ? 32 : 16) CycleState {
  double kw[2];
  Code kc[2];
  Index q[2];
};

// Key of the edge in each slot of a vertex (INFINITY / kNoCode for a free slot).
struct EdgeKeys {
  double kw[2];
  Code kc[2];
};

// The min edge-key scan (list_rank.cuh's Scan). mark: the edge keys of every vertex; walks:
// min key of the segment, near[v] = the splitter whose walk passed v (-1: none).
struct CycleScan {
  using State = CycleState;
  struct Fold {
    double w;
    Code c;
  };
  using Load = EdgeKeys;

  CsrView w;
  const Index *nbr;
  EdgeKeys *ek;
  Index *near;
  std::size_t nv;

  __device__ void mark(Index v, Index n0, Index n1) const {
    EdgeKeys o;
    const Index n[2] = {n0, n1};
    for (int i = 0; i < 2; ++i) {
      const Index u = n[i];
      if (u >= 0) {
        const Index e = find_in_row(w.rowptr, w.colidx, v, u);
        const Index lo = u < v ? u : v, hi = u < v ? v : u;
        o.kw[i] = e >= 0 ? w.values[e] : 0.0;
        o.kc[i] = Code(2) * static_cast<Code>(lo) + (nbr[2 * static_cast<std::size_t>(lo)] == hi ? 0 : 1);
      } else {
        o.kw[i] = INFINITY;
        o.kc[i] = kNoCode;
      }
    }
    ek[v] = o;
  }
  void clear(cudaStream_t s) const {
    PGK_CUDA_CHECK(cudaMemsetAsync(near, 0xff, sizeof(Index) * nv, s)); // -1: not reached
  }
  __device__ Fold fold_empty() const { return Fold{INFINITY, kNoCode}; }
  __device__ Fold fold_start(Index s, int i) const { return Fold{ek[s].kw[i], ek[s].kc[i]}; }
  __device__ Load load(Index cur) const { return ek[cur]; }
  __device__ void pass(Fold &f, Index c, int, Index cur, int j, Index, const EdgeKeys &ec) const {
    near[cur] = c;
    const double ow = ec.kw[1 - j];
    const Code oc = ec.kc[1 - j];
    if (key_less(ow, oc, f.w, f.c)) {
      f.w = ow;
      f.c = oc;
    }
  }
  __device__ void store(CycleState *st, Index c, int i, Index q, Index, const Fold &f) const {
    st[c].q[i] = q;
    st[c].kw[i] = f.w;
    st[c].kc[i] = f.c;
  }
  __device__ static void jump(Index v, int i, const CycleState &sv, const CycleState &sx, CycleState &o,
                              bool &changed) {
    double bw = sv.kw[i];
    Code bc = sv.kc[i];
    const Index a = sx.q[0], b = sx.q[1];
    const int j = a != v ? 0 : (b != v ? 1 : -1);
#pragma unroll
    for (int t = 0; t < 2; ++t)
      if (j < 0 || j == t) {
        const double ow = sx.kw[t];
        const Code oc = sx.kc[t];
        if (key_less(ow, oc, bw, bc)) {
          bw = ow;
          bc = oc;
        }
      }
    const Index nq = j < 0 ? v : (j == 0 ? a : b);
    changed |= nq < 0 || bc != sv.kc[i];
    o.q[i] = nq;
    o.kw[i] = bw;
    o.kc[i] = bc;
  }
};

__device__ inline void drop_slot(Index &s0, Index &s1, Index drop) {
  if (s0 == drop) {
    s0 = s1;
    s1 = -1;
  } else if (s1 == drop) {
    s1 = -1;
  }
}

// cycle_cut for the vertices reached by a walk (or splitters); the others are copied.
__global__ void cyc_cut(Index nv, const Index *nbr, const Index *flag, const Index *comp, const Index *near,
                        const CycleState *st, Index *out, unsigned long long *cycles) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    Index s0 = nbr[2 * static_cast<std::size_t>(v)], s1 = nbr[2 * static_cast<std::size_t>(v) + 1];
    const Index c = flag[v] ? comp[v] : near[v];
    if (c >= 0) {
      const Index q0 = st[c].q[0];
      if (q0 >= 0) {
        const Code code = st[c].kc[0];
        const Index lo = static_cast<Index>(code >> 1);
        const Index hi = nbr[2 * static_cast<std::size_t>(lo) + (code & 1)];
        const Index drop = v == lo ? hi : (v == hi ? lo : -1);
        if (drop >= 0) drop_slot(s0, s1, drop);
        if (v == lo) atomicAdd(cycles, 1ull);
      }
    }
    out[2 * static_cast<std::size_t>(v)] = s0;
    out[2 * static_cast<std::size_t>(v) + 1] = s1;
  }
}

// Cycles without a splitter: the smallest vertex walks its cycle, finds the min key and cuts
// (after cyc_cut, which copied these vertices' slots to out).
__global__ void cyc_lonely(Index nv, const Index *nbr, const Index *flag, const Index *near, const EdgeKeys *ek,
                           Index *out, unsigned long long *cycles) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    if (flag[v] || near[v] >= 0) continue;
    Index prev = v, cur = nbr[2 * static_cast<std::size_t>(v)], k = 0;
    bool leader = cur >= 0;
    while (leader && cur != v) {
      if (cur < v || ++k > nv) {
        leader = false;
        break;
      }
      const Index n0 = nbr[2 * static_cast<std::size_t>(cur)], n1 = nbr[2 * static_cast<std::size_t>(cur) + 1];
      const Index nxt = n0 == prev ? n1 : n0;
      prev = cur;
      cur = nxt;
      if (cur < 0) leader = false;
    }
    if (!leader) continue;
    double bw = ek[v].kw[0];
    Code bc = ek[v].kc[0];
    prev = v;
    cur = nbr[2 * static_cast<std::size_t>(v)];
    while (cur != v) {
      const Index n0 = nbr[2 * static_cast<std::size_t>(cur)], n1 = nbr[2 * static_cast<std::size_t>(cur) + 1];
      const int j = n0 == prev ? 0 : 1;
      const double ow = ek[cur].kw[1 - j];
      const Code oc = ek[cur].kc[1 - j];
      if (key_less(ow, oc, bw, bc)) {
        bw = ow;
        bc = oc;
      }
      prev = cur;
      cur = j == 0 ? n1 : n0;
    }
    const Index lo = static_cast<Index>(bc >> 1);
    const Index hi = nbr[2 * static_cast<std::size_t>(lo) + (bc & 1)];
    Index a0 = out[2 * static_cast<std::size_t>(lo)], a1 = out[2 * static_cast<std::size_t>(lo) + 1];
    drop_slot(a0, a1, hi);
    out[2 * static_cast<std::size_t>(lo)] = a0;
    out[2 * static_cast<std::size_t>(lo) + 1] = a1;
    Index b0 = out[2 * static_cast<std::size_t>(hi)], b1 = out[2 * static_cast<std::size_t>(hi) + 1];
    drop_slot(b0, b1, lo);
    out[2 * static_cast<std::size_t>(hi)] = b0;
    out[2 * static_cast<std::size_t>(hi) + 1] = b1;
    atomicAdd(cycles, 1ull);
  }
}

// ---- order_paths: the path id/position scan -------------------------------------------------

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
  __device__ static void jump(Index v, int i, const PathState &sv, const PathState &sx, PathState &o, bool &changed) {
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

Index break_cycles(DeviceFactor &f, const CsrView &w, void *stream) {
  if (f.n != 2) throw std::invalid_argument("trilf break_cycles: factor must have n = 2");
  const Index nv = f.nvertices;
  if (w.nrows != nv || f.nbr.size() != 2 * static_cast<std::size_t>(nv))
    throw std::invalid_argument("trilf break_cycles: sizes differ");
  if (nv == 0) return 0;
  cudaStream_t s = as_stream(stream);
  const std::size_t m = 2 * static_cast<std::size_t>(nv);
  const auto un = static_cast<std::size_t>(nv);
  const int grid = grid_for(nv, kThreads, kMaxBlocks);
  // The cut reads the old slots of other vertices: cut from a copy into f.nbr in place.
  DeviceBuffer<Index> old(m, s);
  PGK_CUDA_CHECK(cudaMemcpyAsync(old.data(), f.nbr.data(), sizeof(Index) * m, cudaMemcpyDeviceToDevice, s));
  const Index *nbr = old.data();
  DeviceBuffer<EdgeKeys> ek(un, s);
  DeviceBuffer<Index> near(un, s);
  const CycleScan scan{w, nbr, ek.data(), near.data(), un};
  list_rank::Ranking<CycleState> ranked;
  list_rank::rank(nv, nbr, scan, ranked, s);
  DeviceBuffer<unsigned long long> cycles(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(cycles.data(), 0, sizeof(unsigned long long), s));
  cyc_cut<<<grid, kThreads, 0, s>>>(nv, nbr, ranked.flag.data(), ranked.comp.data(), near.data(), ranked.result(),
                                    f.nbr.data(), cycles.data());
  PGK_CUDA_CHECK_LAUNCH();
  cyc_lonely<<<grid, kThreads, 0, s>>>(nv, nbr, ranked.flag.data(), near.data(), ek.data(), f.nbr.data(),
                                       cycles.data());
  PGK_CUDA_CHECK_LAUNCH();
  const Index broken = static_cast<Index>(cycles.get(0, s));
  f.edges -= broken;
  return broken;
}

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
  CubTemp(s).run(
      [&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, len.data(), off.data(), nv, s); });
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
