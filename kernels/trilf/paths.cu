// Bidirectional pointer-jumping scans over a [0,2]-factor (Klein & Strzodka, Algorithm 3):
// cycle breaking with the min edge-key operator (break_cycles) and path id/position
// (order_paths), both equal to the host reference (src/trilf_paths.cpp).
//
// State per vertex v and slot i in {0, 1} (ping-pong buffers, read s / write s+1):
//   q[v][i]: the vertex 2^s hops from v in direction i, or END(e) = -(e+1) when the path end
//            e is nearer;
//   cycles: key[v][i] = min edge key over those hops; paths: r[v][i] = vertices from v up to
//           q (exclusive) or up to e (inclusive).
// Direction is never stored: at w = q[v][i], the slot of w that continues away from v is
// the one that does not point back at v. On a cycle whose length is exactly 2^(s+1) both
// slots of w point at v; then both halves are folded in (the whole cycle), so the min key is
// still the cycle's. Only the scans' access pattern needs no random-access iterator.
//
// Early stop: each step raises a flag when it still changed something that matters (paths:
// a pointer still on a vertex; cycles: a pointer reached an end, or a min key changed). A
// step that changes none of that proves convergence (see the comment at the kernels). The
// host reads the flag of step s-1 while step s runs (one step of look-ahead: the steps
// after convergence are no-ops), so the device never idles on a flag read; at most
// ceil(log2 N) steps run.
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <type_traits>
#include <stdexcept>

#include "kernels/trilf/common.cuh"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda::trilf {
namespace {

using namespace detail;

__device__ inline Index end_marker(Index e) { return -(e + 1); }

// Edge key (w, min id, max id) as (w, code): code = 2*lo + s, s the slot of hi among lo's
// two ascending slots, so codes order edges exactly as (lo, hi) does. With 32-bit indices
// the code fits 32 bits (lo < 2^31).
using Code = std::conditional_t<sizeof(Index) == 4, unsigned int, unsigned long long>;
constexpr Code kNoCode = ~Code(0);
__device__ inline bool key_less(double wa, Code ca, double wb, Code cb) {
  return wa < wb || (wa == wb && ca < cb);
}

// The whole state of a vertex in one aligned record (32 bytes with 32-bit indices: one
// sector), so a step reads one record per vertex and one per neighbour.
struct alignas(sizeof(Index) == 4 ? 32 : 16) CycleState {
  double kw[2];
  Code kc[2];
  Index q[2];
};

// Device-side stop rule of the step loop: step t is a no-op once step t-2 changed nothing.
// If step c is the first that changes nothing, its output is final; step c+1 changes
// nothing either and writes the final state into the other buffer; later steps return at
// once. So after all max_steps launches the buffer max_steps % 2 holds the final state
// (the output of step max_steps-1, or of c or c+1), and flags[max_steps-1] is raised only
// if the last step still changed something. No flag goes to the host between steps.
__device__ inline bool converged_before(const int *flags, int t) { return t >= 2 && flags[t - 2] == 0; }

// One step. flag: a pointer reached an end in this step, or a min key changed. If neither
// happens in step s, every path pointer was already an end (a path with a pointer left on a
// vertex has a vertex exactly 2^s from its end, which reaches the end now) and every cycle
// of length L already had 2^s >= L (otherwise the vertex 2^s before the cycle's minimum edge
// would gain it now: keys are unique). A vertex whose both pointers are ends reads nothing
// else.
__global__ void cycle_step(Index nv, const CycleState *si, CycleState *so, int *flags, int t) {
  if (converged_before(flags, t)) return;
  bool changed = false;
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    const CycleState sv = si[v];
    CycleState o = sv;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const Index x = sv.q[i];
      if (x >= 0) {
        const CycleState sx = si[x];
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
    }
    so[v] = o;
  }
  if (__syncthreads_or(changed) && threadIdx.x == 0) flags[t] = 1;
}

// Per vertex: q[v][i] and r[v][i] in one aligned record (16 bytes with 32-bit indices).
struct alignas(4 * sizeof(Index)) PathState {
  Index q[2];
  Index r[2];
};

// flag: some pointer still on a vertex after this step (not converged).
__global__ void path_step(Index nv, const PathState *si, PathState *so, int *flags, int t) {
  if (converged_before(flags, t)) return;
  bool live = false;
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    const PathState sv = si[v];
    PathState o = sv;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const Index x = sv.q[i];
      if (x >= 0) {
        const PathState sx = si[x];
        const int j = sx.q[0] != v ? 0 : 1;
        o.q[i] = sx.q[j];
        o.r[i] = sv.r[i] + sx.r[j];
        live |= o.q[i] >= 0;
      }
    }
    so[v] = o;
  }
  if (__syncthreads_or(live) && threadIdx.x == 0) flags[t] = 1;
}

// ---- order_paths: list ranking over a ruling set --------------------------------------------
// Splitters: the path ends (a free slot) and about one vertex in 16 (a fixed hash of the
// id). A thread per (splitter, direction) walks to the next splitter, leaving on every vertex
// it passes the splitter and the hop count (near[v][j]: the splitter reached through v's slot
// j); the splitters, linked by those walks, are ranked by pointer jumping (PathState on
// compact indices, END markers holding vertex ids); then every vertex adds its hops to the
// rank of the splitter beyond which its path continues. The ends and counts are exactly the
// pointer-jumping scan's (they are properties of the path), so the order is the same.
__device__ inline bool is_splitter(Index v, Index n0, Index n1) {
  if (n0 < 0 || n1 < 0) return true;
  return (static_cast<unsigned long long>(v) * 0x9E3779B97F4A7C15ull) >> 60 == 0;
}

// flag[v] = splitter (0/1); flag[nv] = 0, so the exclusive scan's entry nv is the count.
__global__ void rank_mark(Index nv, const Index *nbr, Index *flag) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x)
    flag[v] = is_splitter(v, nbr[2 * static_cast<std::size_t>(v)], nbr[2 * static_cast<std::size_t>(v) + 1]) ? 1 : 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[nv] = 0;
}

__global__ void rank_scatter(Index nv, const Index *flag, const Index *comp, Index *sp) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x)
    if (flag[v]) sp[comp[v]] = v;
}

// near[4v + 2j] = compact index of the splitter reached through v's slot j, near[4v + 2j + 1]
// = +k (walk left that splitter by its slot 0) or -k (slot 1), k the hops from it to v.
__global__ void rank_walk(Index cnt, Index nv, const Index *sp, const Index *nbr, const Index *comp, PathState *st,
                          Index *near) {
  for (Index t = blockIdx.x * Index(blockDim.x) + threadIdx.x; t < 2 * cnt; t += Index(gridDim.x) * blockDim.x) {
    const Index c = t / 2;
    const int i = static_cast<int>(t % 2);
    const Index s = sp[c];
    const Index u = nbr[2 * static_cast<std::size_t>(s) + i];
    Index q, r;
    if (u < 0) {
      q = end_marker(s);
      r = 1;
    } else {
      Index prev = s, cur = u, k = 1;
      bool bad = false;
      for (;;) {
        const Index n0 = nbr[2 * static_cast<std::size_t>(cur)], n1 = nbr[2 * static_cast<std::size_t>(cur) + 1];
        if (is_splitter(cur, n0, n1)) break;
        if (k > nv) { // not a simple path (malformed slots): leave it unresolved
          bad = true;
          break;
        }
        const int j = n0 == prev ? 0 : 1;
        near[4 * static_cast<std::size_t>(cur) + 2 * j] = c;
        near[4 * static_cast<std::size_t>(cur) + 2 * j + 1] = i == 0 ? k : -k;
        prev = cur;
        cur = j == 0 ? n1 : n0;
        ++k;
      }
      q = bad ? c : comp[cur];
      r = k;
    }
    st[c].q[i] = q;
    st[c].r[i] = r;
  }
}

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

// ---- break_cycles: the same ruling set -----------------------------------------------------
// Splitters as in order_paths. A walk from each splitter along each slot to the next splitter
// folds the keys of the edges it passes (the segment's min key) and leaves the splitter's
// compact index on the vertices it passes; cycle_step then runs on the splitters (a segment
// is an edge with its min key: keys stay unique, so the stop rule holds), and every vertex
// reads whether its splitter lies on a cycle and that cycle's min key. A cycle without a
// splitter (short ones, mostly) is cut by its smallest vertex, which walks it once. The cut
// edges are the cycles' min-key edges, as in the scan over all vertices.
struct EdgeKeys {
  double kw[2];
  Code kc[2];
};

// ek[v]: key of the edge in each slot (cycle_init's values); flag[v]: splitter; flag[nv] = 0.
__global__ void cyc_keys(Index nv, const Index *nbr, CsrView w, EdgeKeys *ek, Index *flag) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    EdgeKeys o;
    Index n[2];
    for (int i = 0; i < 2; ++i) {
      const Index u = nbr[2 * static_cast<std::size_t>(v) + i];
      n[i] = u;
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
    flag[v] = is_splitter(v, n[0], n[1]) ? 1 : 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[nv] = 0;
}

// Thread per (splitter c, slot i): st[c] slot i = (next splitter or END(c's vertex), min key of
// the segment); near[v] = c for every vertex v passed.
__global__ void cyc_walk(Index cnt, Index nv, const Index *sp, const Index *nbr, const Index *comp, const EdgeKeys *ek,
                         CycleState *st, Index *near) {
  for (Index t = blockIdx.x * Index(blockDim.x) + threadIdx.x; t < 2 * cnt; t += Index(gridDim.x) * blockDim.x) {
    const Index c = t / 2;
    const int i = static_cast<int>(t % 2);
    const Index s = sp[c];
    const Index u = nbr[2 * static_cast<std::size_t>(s) + i];
    Index q;
    double bw = INFINITY;
    Code bc = kNoCode;
    if (u < 0) {
      q = end_marker(s);
    } else {
      bw = ek[s].kw[i];
      bc = ek[s].kc[i];
      Index prev = s, cur = u, k = 1;
      bool bad = false;
      for (;;) {
        const Index n0 = nbr[2 * static_cast<std::size_t>(cur)], n1 = nbr[2 * static_cast<std::size_t>(cur) + 1];
        const EdgeKeys ec = ek[cur];
        if (is_splitter(cur, n0, n1)) break;
        if (k > nv) {
          bad = true;
          break;
        }
        const int j = n0 == prev ? 0 : 1;
        near[cur] = c;
        const double ow = ec.kw[1 - j];
        const Code oc = ec.kc[1 - j];
        if (key_less(ow, oc, bw, bc)) {
          bw = ow;
          bc = oc;
        }
        prev = cur;
        cur = j == 0 ? n1 : n0;
        ++k;
      }
      q = bad ? c : comp[cur];
    }
    st[c].q[i] = q;
    st[c].kw[i] = bw;
    st[c].kc[i] = bc;
  }
}

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

// Launches `step(t, flags)` for t = 0 .. max_steps-1 (each a no-op after convergence, see
// converged_before); flags: max_steps zeroed words, device-resident (nothing is read here).
template <class Step> void launch_steps(int max_steps, int *flags, cudaStream_t s, Step step) {
  if (max_steps == 0) return;
  PGK_CUDA_CHECK(cudaMemsetAsync(flags, 0, sizeof(int) * max_steps, s));
  for (int t = 0; t < max_steps; ++t) step(t, flags);
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
  const int grid = grid_for(nv);
  // The cut reads the old slots of other vertices: cut from a copy into f.nbr in place.
  AsyncBuffer<Index> old(m, s);
  PGK_CUDA_CHECK(cudaMemcpyAsync(old.data(), f.nbr.data(), sizeof(Index) * m, cudaMemcpyDeviceToDevice, s));
  const Index *nbr = old.data();
  AsyncBuffer<EdgeKeys> ek(un, s);
  AsyncBuffer<Index> flag(un + 1, s), comp(un + 1, s), sp(un, s), near(un, s);
  cyc_keys<<<grid, kThreads, 0, s>>>(nv, nbr, w, ek.data(), flag.data());
  PGK_CUDA_CHECK_LAUNCH();
  PGK_CUDA_CHECK(cudaMemsetAsync(near.data(), 0xff, sizeof(Index) * un, s)); // -1: not reached
  {
    std::size_t tb = 0;
    PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, flag.data(), comp.data(), nv + 1, s));
    AsyncBuffer<unsigned char> tmp(tb, s);
    PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.data(), tb, flag.data(), comp.data(), nv + 1, s));
  }
  rank_scatter<<<grid, kThreads, 0, s>>>(nv, flag.data(), comp.data(), sp.data());
  PGK_CUDA_CHECK_LAUNCH();
  const Index cnt = comp.get(un); // splitters (synchronizes)
  const auto ucnt = static_cast<std::size_t>(cnt);
  AsyncBuffer<CycleState> st0(ucnt, s), st1(ucnt, s);
  CycleState *st[2] = {st0.data(), st1.data()};
  if (cnt > 0) {
    cyc_walk<<<grid_for(2 * static_cast<long long>(cnt), 128), 128, 0, s>>>(cnt, nv, sp.data(), nbr, comp.data(), ek.data(),
                                                                            st[0], near.data());
    PGK_CUDA_CHECK_LAUNCH();
  }
  const int max_steps = ceil_log2(cnt);
  AsyncBuffer<int> flags(static_cast<std::size_t>(max_steps > 0 ? max_steps : 1), s);
  const int cgrid = grid_for(cnt);
  launch_steps(max_steps, flags.data(), s, [&](int t, int *fl) {
    const int a = t % 2, b = 1 - a;
    cycle_step<<<cgrid, kThreads, 0, s>>>(cnt, st[a], st[b], fl, t);
    PGK_CUDA_CHECK_LAUNCH();
  });
  const int fin = max_steps % 2;
  AsyncBuffer<unsigned long long> cycles(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(cycles.data(), 0, sizeof(unsigned long long), s));
  cyc_cut<<<grid, kThreads, 0, s>>>(nv, nbr, flag.data(), comp.data(), near.data(), st[fin], f.nbr.data(), cycles.data());
  PGK_CUDA_CHECK_LAUNCH();
  cyc_lonely<<<grid, kThreads, 0, s>>>(nv, nbr, flag.data(), near.data(), ek.data(), f.nbr.data(), cycles.data());
  PGK_CUDA_CHECK_LAUNCH();
  const Index broken = static_cast<Index>(cycles.get(0));
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
  const int grid = grid_for(nv);
  AsyncBuffer<Index> flag(un + 1, s), comp(un + 1, s), sp(un, s), near(4 * un, s);
  rank_mark<<<grid, kThreads, 0, s>>>(nv, nbr, flag.data());
  PGK_CUDA_CHECK_LAUNCH();
  PGK_CUDA_CHECK(cudaMemsetAsync(near.data(), 0xff, sizeof(Index) * 4 * un, s)); // -1: not reached
  {
    std::size_t tb = 0;
    PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tb, flag.data(), comp.data(), nv + 1, s));
    AsyncBuffer<unsigned char> tmp(tb, s);
    PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp.data(), tb, flag.data(), comp.data(), nv + 1, s));
  }
  rank_scatter<<<grid, kThreads, 0, s>>>(nv, flag.data(), comp.data(), sp.data());
  PGK_CUDA_CHECK_LAUNCH();
  const Index cnt = comp.get(un); // splitters (synchronizes)
  const auto ucnt = static_cast<std::size_t>(cnt);
  AsyncBuffer<PathState> st0(ucnt, s), st1(ucnt, s);
  PathState *st[2] = {st0.data(), st1.data()};
  if (cnt > 0) {
    rank_walk<<<grid_for(2 * static_cast<long long>(cnt), 128), 128, 0, s>>>(cnt, nv, sp.data(), nbr, comp.data(), st[0],
                                                                             near.data());
    PGK_CUDA_CHECK_LAUNCH();
  }
  const int max_steps = ceil_log2(cnt);
  AsyncBuffer<int> flags(static_cast<std::size_t>(max_steps > 0 ? max_steps : 1), s);
  const int cgrid = grid_for(cnt);
  launch_steps(max_steps, flags.data(), s, [&](int t, int *fl) {
    const int a = t % 2, b = 1 - a;
    path_step<<<cgrid, kThreads, 0, s>>>(cnt, st[a], st[b], fl, t);
    PGK_CUDA_CHECK_LAUNCH();
  });
  const int fin = max_steps % 2;
  AsyncBuffer<Index> id(un, s), pos(un, s), len(un, s), off(un, s);
  AsyncBuffer<unsigned long long> stats(2, s);
  AsyncBuffer<int> cyc(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(stats.data(), 0, 2 * sizeof(unsigned long long), s));
  PGK_CUDA_CHECK(cudaMemsetAsync(cyc.data(), 0, sizeof(int), s));
  rank_decode<<<grid, kThreads, 0, s>>>(nv, nbr, flag.data(), comp.data(), near.data(), st[fin], id.data(), pos.data(),
                                        len.data(), stats.data(), cyc.data());
  PGK_CUDA_CHECK_LAUNCH();
  // Offsets of the paths in head order (ascending smaller end): an exclusive scan of the
  // lengths stored at the heads (0 elsewhere). Integer scan: deterministic.
  std::size_t temp_bytes = 0;
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, len.data(), off.data(), nv, s));
  AsyncBuffer<unsigned char> temp(temp_bytes, s);
  PGK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, len.data(), off.data(), nv, s));
  path_place<<<grid, kThreads, 0, s>>>(nv, id.data(), pos.data(), off.data(), out.perm.data(), out.iperm.data(),
                                       out.path_head.data());
  PGK_CUDA_CHECK_LAUNCH();
  unsigned long long h[2];
  int live = 0;
  PGK_CUDA_CHECK(cudaMemcpyAsync(h, stats.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  PGK_CUDA_CHECK(cudaMemcpyAsync(&live, cyc.data(), sizeof(int), cudaMemcpyDeviceToHost, s));
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
  // A vertex left unresolved (no end in some direction) lies on a cycle.
  if (live) throw std::invalid_argument("trilf order_paths: the forest contains a cycle");
  out.npaths = static_cast<Index>(h[0]);
  out.longest = static_cast<Index>(h[1]);
}

} // namespace pgk::cuda::trilf
