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

#include "trilf_common.cuh"
#include "trilf_primitives.hpp"

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

__global__ void cycle_init(Index nv, const Index *nbr, CsrView w, CycleState *st) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    CycleState o;
    for (int i = 0; i < 2; ++i) {
      const Index u = nbr[2 * static_cast<std::size_t>(v) + i];
      if (u >= 0) {
        const Index e = find_in_row(w.rowptr, w.colidx, v, u);
        const Index lo = u < v ? u : v, hi = u < v ? v : u;
        o.q[i] = u;
        o.kw[i] = e >= 0 ? w.values[e] : 0.0;
        o.kc[i] = Code(2) * static_cast<Code>(lo) + (nbr[2 * static_cast<std::size_t>(lo)] == hi ? 0 : 1);
      } else {
        o.q[i] = end_marker(v);
        o.kw[i] = INFINITY;
        o.kc[i] = kNoCode;
      }
    }
    st[v] = o;
  }
}

// One step. flag: a pointer reached an end in this step, or a min key changed. If neither
// happens in step s, every path pointer was already an end (a path with a pointer left on a
// vertex has a vertex exactly 2^s from its end, which reaches the end now) and every cycle
// of length L already had 2^s >= L (otherwise the vertex 2^s before the cycle's minimum edge
// would gain it now: keys are unique). A vertex whose both pointers are ends reads nothing
// else.
__global__ void cycle_step(Index nv, const CycleState *si, CycleState *so, int *flag) {
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
  if (__syncthreads_or(changed) && threadIdx.x == 0) *flag = 1;
}

// On a cycle (pointer still on a vertex), both ends of the cycle's minimum edge drop each
// other. Reads the factor's slots (old: other vertices' slots are read) and writes `out`.
__global__ void cycle_cut(Index nv, const Index *nbr, const CycleState *st, Index *out, unsigned long long *cycles) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    Index s0 = nbr[2 * static_cast<std::size_t>(v)], s1 = nbr[2 * static_cast<std::size_t>(v) + 1];
    const CycleState sv = st[v];
    if (sv.q[0] >= 0) {
      const Code code = sv.kc[0];
      const Index lo = static_cast<Index>(code >> 1);
      const Index hi = nbr[2 * static_cast<std::size_t>(lo) + (code & 1)];
      const Index drop = v == lo ? hi : (v == hi ? lo : -1);
      if (drop >= 0) {
        if (s0 == drop) {
          s0 = s1;
          s1 = -1;
        } else if (s1 == drop) {
          s1 = -1;
        }
      }
      if (v == lo) atomicAdd(cycles, 1ull);
    }
    out[2 * static_cast<std::size_t>(v)] = s0;
    out[2 * static_cast<std::size_t>(v) + 1] = s1;
  }
}

// Per vertex: q[v][i] and r[v][i] in one aligned record (16 bytes with 32-bit indices).
struct alignas(4 * sizeof(Index)) PathState {
  Index q[2];
  Index r[2];
};

__global__ void path_init(Index nv, const Index *nbr, PathState *st) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    PathState o;
    for (int i = 0; i < 2; ++i) {
      const Index u = nbr[2 * static_cast<std::size_t>(v) + i];
      o.q[i] = u >= 0 ? u : end_marker(v);
      o.r[i] = 1;
    }
    st[v] = o;
  }
}

// flag: some pointer still on a vertex after this step (not converged).
__global__ void path_step(Index nv, const PathState *si, PathState *so, int *flag) {
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
  if (__syncthreads_or(live) && threadIdx.x == 0) *flag = 1;
}

// Path id = smaller end, position counted (1-based) from it; lengths at the heads.
__global__ void path_decode(Index nv, const PathState *st, Index *id, Index *pos, Index *head_len,
                            unsigned long long *stats) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    const PathState sv = st[v];
    const Index e0 = -sv.q[0] - 1, e1 = -sv.q[1] - 1;
    const Index r0 = sv.r[0], r1 = sv.r[1];
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
    const Index start = off[id[v]];
    const Index k = start + pos[v] - 1;
    perm[k] = v;
    iperm[v] = k;
    path_head[k] = start;
  }
}

// Runs `step(t, flag)` for t = 0.. with one step of look-ahead on the flags; returns the
// number of steps run and whether the last flag read was still raised.
template <class Step> int run_steps(int max_steps, cudaStream_t s, Step step, bool *still_live) {
  *still_live = false;
  if (max_steps == 0) return 0;
  AsyncBuffer<int> flags(static_cast<std::size_t>(max_steps), s);
  PGK_CUDA_CHECK(cudaMemsetAsync(flags.data(), 0, sizeof(int) * max_steps, s));
  PinnedWords host(static_cast<std::size_t>(max_steps));
  EventRing ev(max_steps);
  int run = 0;
  for (int t = 0; t < max_steps; ++t) {
    step(t, flags.data() + t);
    PGK_CUDA_CHECK(cudaMemcpyAsync(host.data() + t, flags.data() + t, sizeof(int), cudaMemcpyDeviceToHost, s));
    PGK_CUDA_CHECK(cudaEventRecord(ev[t], s));
    run = t + 1;
    if (t >= 1) {
      PGK_CUDA_CHECK(cudaEventSynchronize(ev[t - 1]));
      if (static_cast<int>(host[t - 1] & 0xffffffffu) == 0) break;
    }
  }
  PGK_CUDA_CHECK(cudaEventSynchronize(ev[run - 1]));
  *still_live = static_cast<int>(host[run - 1] & 0xffffffffu) != 0;
  return run;
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
  AsyncBuffer<CycleState> st0(static_cast<std::size_t>(nv), s), st1(static_cast<std::size_t>(nv), s);
  CycleState *st[2] = {st0.data(), st1.data()};
  const int grid = grid_for(nv);
  cycle_init<<<grid, kThreads, 0, s>>>(nv, f.nbr.data(), w, st[0]);
  PGK_CUDA_CHECK_LAUNCH();
  bool live = false;
  const int steps = run_steps(ceil_log2(nv), s, [&](int t, int *flag) {
    const int a = t % 2, b = 1 - a;
    cycle_step<<<grid, kThreads, 0, s>>>(nv, st[a], st[b], flag);
    PGK_CUDA_CHECK_LAUNCH();
  }, &live);
  const int fin = steps % 2;
  // The cut reads the old slots of other vertices: cut from a copy into f.nbr in place.
  AsyncBuffer<Index> old(m, s);
  PGK_CUDA_CHECK(cudaMemcpyAsync(old.data(), f.nbr.data(), sizeof(Index) * m, cudaMemcpyDeviceToDevice, s));
  AsyncBuffer<unsigned long long> cycles(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(cycles.data(), 0, sizeof(unsigned long long), s));
  cycle_cut<<<grid, kThreads, 0, s>>>(nv, old.data(), st[fin], f.nbr.data(), cycles.data());
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
  // State per vertex: q0, q1, r0, r1 side by side, so a jump reads one 16-byte group.
  AsyncBuffer<PathState> st0(static_cast<std::size_t>(nv), s), st1(static_cast<std::size_t>(nv), s);
  PathState *st[2] = {st0.data(), st1.data()};
  const int grid = grid_for(nv);
  path_init<<<grid, kThreads, 0, s>>>(nv, forest.nbr.data(), st[0]);
  PGK_CUDA_CHECK_LAUNCH();
  bool live = false;
  const int steps = run_steps(ceil_log2(nv), s, [&](int t, int *flag) {
    const int a = t % 2, b = 1 - a;
    path_step<<<grid, kThreads, 0, s>>>(nv, st[a], st[b], flag);
    PGK_CUDA_CHECK_LAUNCH();
  }, &live);
  // ceil(log2 N) steps cover every path; a pointer left on a vertex means a cycle.
  if (live) throw std::invalid_argument("trilf order_paths: the forest contains a cycle");
  const int fin = steps % 2;
  const auto un = static_cast<std::size_t>(nv);
  AsyncBuffer<Index> id(un, s), pos(un, s), len(un, s), off(un, s);
  AsyncBuffer<unsigned long long> stats(2, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(stats.data(), 0, 2 * sizeof(unsigned long long), s));
  path_decode<<<grid, kThreads, 0, s>>>(nv, st[fin], id.data(), pos.data(), len.data(), stats.data());
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
  PGK_CUDA_CHECK(cudaMemcpyAsync(h, stats.data(), sizeof h, cudaMemcpyDeviceToHost, s));
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
  out.npaths = static_cast<Index>(h[0]);
  out.longest = static_cast<Index>(h[1]);
}

} // namespace pgk::cuda::trilf
