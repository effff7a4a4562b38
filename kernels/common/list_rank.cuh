// Sampled list ranking over a graph of maximum degree 2 (paths and cycles; Klein & Strzodka's
// bidirectional pointer-jumping scan, Algorithm 3, run on a ruling set): the one sequence both
// trilf scans (cycle breaking, path order) run, parameterized by the scan's state and combine
// operator.
//
// The graph: nbr[2v + i], i in {0, 1}, the neighbours of v (-1: none), each edge in both
// endpoints' slots. The sequence:
//   1. mark:    splitters are the path ends (a free slot) and about one vertex in 16 (a fixed
//               hash of the id); flag[v] = 1 for them, flag[nv] = 0. The scan may compute
//               per-vertex data in the same pass (Scan::mark).
//   2. compact: comp = exclusive scan of flag (comp[nv] = the splitter count), sp[comp[v]] = v;
//               the count comes to the host (one scalar read, synchronizing the stream).
//   3. walk:    a thread per (splitter c, slot i) walks to the next splitter, folding the
//               segment (Scan::fold_*) and leaving on every vertex it passes what the scan
//               needs (Scan::pass); st[c] slot i = (the next splitter's compact index, or
//               END(vertex) = -(vertex + 1) at a path end, and the fold). A walk longer than nv
//               (malformed slots) stops and points back at c.
//   4. jump:    pointer jumping on the splitters, ping-pong buffers, ceil(log2 count) launches
//               of jump_step with Scan::jump as the combine operator. Direction is never
//               stored: at w = q[v][i], the slot of w that continues away from v is the one
//               that does not point back at v. A device-side stop rule (converged_before)
//               makes the launches after convergence no-ops, so nothing goes to the host.
// The caller then decodes every vertex from its splitter's final state.
//
// Scan (passed by value to the kernels: device pointers only) provides
//   using State = ...;  per splitter, with `Index q[2]`;
//   using Fold = ...;   a walk's accumulator; using Load = ...;  what a walk reads per vertex
//                       before the splitter test (so the load overlaps it);
//   __device__ void mark(Index v, Index n0, Index n1) const;
//   void clear(cudaStream_t s) const;  host: resets the per-vertex scratch after the mark;
//   __device__ Fold fold_empty() const;  Fold fold_start(Index s, int i) const;
//   __device__ Load load(Index cur) const;
//   __device__ void pass(Fold &f, Index c, int i, Index cur, int j, Index k, const Load &x) const;
//              cur: the vertex passed, j: its slot pointing back, k: hops from the splitter;
//   __device__ void store(State *st, Index c, int i, Index q, Index k, const Fold &f) const;
//              k: hops to the next splitter (1 at a path end);
//   __device__ static void jump(Index v, int i, const State &sv, const State &sx, State &o,
//                               bool &changed);
//              combines v's slot i with the record of its target x = sv.q[i] >= 0 into o, and
//              raises `changed` when that changes something that matters (the stop rule's flag).
#pragma once

#include <cstddef>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/launch.cuh"
#include "src/common/csr.hpp"

namespace pgk::cuda::list_rank {

constexpr int kThreads = 256;          // mark, compaction, jump steps
constexpr int kWalkThreads = 128;      // walks
constexpr long long kMaxBlocks = 8192; // grid cap of every launch

__device__ __forceinline__ Index end_marker(Index e) { return -(e + 1); }

__device__ __forceinline__ bool is_splitter(Index v, Index n0, Index n1) {
  if (n0 < 0 || n1 < 0) return true;
  return (static_cast<unsigned long long>(v) * 0x9E3779B97F4A7C15ull) >> 60 == 0;
}

// Device-side stop rule of the step loop: step t is a no-op once step t-2 changed nothing.
// If step c is the first that changes nothing, its output is final; step c+1 changes
// nothing either and writes the final state into the other buffer; later steps return at
// once. So after all max_steps launches the buffer max_steps % 2 holds the final state
// (the output of step max_steps-1, or of c or c+1), and flags[max_steps-1] is raised only
// if the last step still changed something. No flag goes to the host between steps.
__device__ __forceinline__ bool converged_before(const int *flags, int t) { return t >= 2 && flags[t - 2] == 0; }

// ceil(log2 n) for n >= 1 (0 for n <= 1): pointer-jumping steps that cover n - 1 hops.
inline int ceil_log2(long long n) {
  int s = 0;
  while ((1LL << s) < n) ++s;
  return s;
}

// 1. flag[v] = splitter (0/1), plus the scan's own per-vertex work; flag[nv] = 0, so the
// exclusive scan's entry nv is the count.
template <class Scan> __global__ void mark_splitters(Index nv, const Index *nbr, Index *flag, Scan scan) {
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < nv; v += Index(gridDim.x) * blockDim.x) {
    const Index n0 = nbr[2 * static_cast<std::size_t>(v)], n1 = nbr[2 * static_cast<std::size_t>(v) + 1];
    scan.mark(v, n0, n1);
    flag[v] = is_splitter(v, n0, n1) ? 1 : 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[nv] = 0;
}

// 2. comp = exclusive scan of flag[0..nv], sp[comp[v]] = v for every splitter; returns the
// count comp[nv] (one scalar read). list_rank.cu.
Index compact_splitters(Index nv, const Index *flag, Index *comp, Index *sp, cudaStream_t s);

// 3. Thread per (splitter c, slot i): the walk to the next splitter.
template <class Scan>
__global__ void walk_segments(Index cnt, Index nv, const Index *sp, const Index *nbr, const Index *comp,
                              typename Scan::State *st, Scan scan) {
  for (Index t = blockIdx.x * Index(blockDim.x) + threadIdx.x; t < 2 * cnt; t += Index(gridDim.x) * blockDim.x) {
    const Index c = t / 2;
    const int i = static_cast<int>(t % 2);
    const Index s = sp[c];
    const Index u = nbr[2 * static_cast<std::size_t>(s) + i];
    typename Scan::Fold f = scan.fold_empty();
    Index q, k = 1;
    if (u < 0) {
      q = end_marker(s);
    } else {
      f = scan.fold_start(s, i);
      Index prev = s, cur = u;
      bool bad = false;
      for (;;) {
        const Index n0 = nbr[2 * static_cast<std::size_t>(cur)], n1 = nbr[2 * static_cast<std::size_t>(cur) + 1];
        const typename Scan::Load x = scan.load(cur);
        if (is_splitter(cur, n0, n1)) break;
        if (k > nv) { // not a simple path (malformed slots): leave it unresolved
          bad = true;
          break;
        }
        const int j = n0 == prev ? 0 : 1;
        scan.pass(f, c, i, cur, j, k, x);
        prev = cur;
        cur = j == 0 ? n1 : n0;
        ++k;
      }
      q = bad ? c : comp[cur];
    }
    scan.store(st, c, i, q, k, f);
  }
}

// 4. One pointer-jumping step over the n splitters (read si, write so); flags[t] is raised
// when Scan::jump raised `changed` anywhere in the block.
template <class Scan>
__global__ void jump_step(Index n, const typename Scan::State *si, typename Scan::State *so, int *flags, int t) {
  using State = typename Scan::State;
  if (converged_before(flags, t)) return;
  bool changed = false;
  for (Index v = blockIdx.x * Index(blockDim.x) + threadIdx.x; v < n; v += Index(gridDim.x) * blockDim.x) {
    const State sv = si[v];
    State o = sv;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const Index x = sv.q[i];
      if (x >= 0) {
        const State sx = si[x];
        Scan::jump(v, i, sv, sx, o, changed);
      }
    }
    so[v] = o;
  }
  if (__syncthreads_or(changed) && threadIdx.x == 0) flags[t] = 1;
}

// What the ranking leaves for the caller's decoding (stream-ordered buffers).
template <class State> struct Ranking {
  Index count = 0;                    // splitters
  DeviceBuffer<Index> flag, comp, sp; // nv + 1 (flag[nv] = 0), nv + 1 (comp[nv] = count), nv
  DeviceBuffer<State> state[2];       // ping-pong, count each
  int final_state = 0;                // state[final_state] holds the converged records
  const State *result() const { return state[final_state].data(); }
};

// Steps 1-4 on stream s for the nv > 0 vertices of nbr. Launches: the mark (grid over nv),
// the compaction, the walks (if any splitter) and ceil(log2 count) jump steps; reads one
// scalar (the count).
template <class Scan>
void rank(Index nv, const Index *nbr, const Scan &scan, Ranking<typename Scan::State> &r, cudaStream_t s) {
  using State = typename Scan::State;
  const auto un = static_cast<std::size_t>(nv);
  r.flag = DeviceBuffer<Index>(un + 1, s);
  r.comp = DeviceBuffer<Index>(un + 1, s);
  r.sp = DeviceBuffer<Index>(un, s);
  mark_splitters<Scan><<<grid_for(nv, kThreads, kMaxBlocks), kThreads, 0, s>>>(nv, nbr, r.flag.data(), scan);
  PGK_CUDA_CHECK_LAUNCH();
  scan.clear(s);
  const Index cnt = compact_splitters(nv, r.flag.data(), r.comp.data(), r.sp.data(), s);
  r.count = cnt;
  const auto ucnt = static_cast<std::size_t>(cnt);
  r.state[0] = DeviceBuffer<State>(ucnt, s);
  r.state[1] = DeviceBuffer<State>(ucnt, s);
  State *st[2] = {r.state[0].data(), r.state[1].data()};
  if (cnt > 0) {
    walk_segments<Scan><<<grid_for(2 * static_cast<long long>(cnt), kWalkThreads, kMaxBlocks), kWalkThreads, 0, s>>>(
        cnt, nv, r.sp.data(), nbr, r.comp.data(), st[0], scan);
    PGK_CUDA_CHECK_LAUNCH();
  }
  const int max_steps = ceil_log2(cnt);
  DeviceBuffer<int> flags(static_cast<std::size_t>(max_steps > 0 ? max_steps : 1), s);
  const int grid = grid_for(cnt, kThreads, kMaxBlocks);
  if (max_steps > 0) PGK_CUDA_CHECK(cudaMemsetAsync(flags.data(), 0, sizeof(int) * max_steps, s));
  for (int t = 0; t < max_steps; ++t) {
    const int a = t % 2, b = 1 - a;
    jump_step<Scan><<<grid, kThreads, 0, s>>>(cnt, st[a], st[b], flags.data(), t);
    PGK_CUDA_CHECK_LAUNCH();
  }
  r.final_state = max_steps % 2;
}

} // namespace pgk::cuda::list_rank
