// The component plan of rcm::plan_components on the device, with the paper's Peripheral start
// nodes (internal.cuh, plan_components_device). The input checks and valences are in
// validate.cu, the chain list and the reversal in reverse.cu.
//
// Components: union-find hooking the larger root under the smaller one, so every component's
// representative is its smallest vertex, which is exactly the seed plan_components picks for it.
// The plan order is then the order of those seeds (the Given component first).
//
// Start nodes: find_start_node's Peripheral rule depends on level sets only, so all components
// run it at once: each round is one multi-source level-synchronous BFS from the current root of
// every component still searching (one grid barrier per level), then per component the depth and
// the (valence, id)-smallest vertex of its last level. All rounds run in one persistent
// cooperative kernel, so the host queues the ordering behind the search without waiting for it.
#include "kernels/batchrcm/device_loops.cuh"
#include "kernels/common/atomics.cuh"

#include <cooperative_groups.h>

#include <functional>
#include <utility>

namespace cg = cooperative_groups;

namespace pgk::cuda::rcm_detail {
namespace {

// ---- connected components ------------------------------------------------------------------

// Root of x, halving the path on the way (each visited vertex is pointed at its grandparent).
// Parents only ever move to smaller ancestors, and a vertex that has a parent never becomes a
// root again, so racing halvings and hookings keep a forest whose roots are component minima.
__device__ Index find_root(Index *parent, Index x) {
  Index p = load_relaxed(parent[x]);
  while (p != x) {
    const Index gp = load_relaxed(parent[p]);
    if (gp != p) store_relaxed(parent[x], gp);
    x = p;
    p = gp;
  }
  return x;
}

__device__ void unite(Index *parent, Index a, Index b) {
  Index ra = find_root(parent, a), rb = find_root(parent, b);
  while (ra != rb) {
    if (ra < rb) {
      const Index t = ra;
      ra = rb;
      rb = t;
    }
    const Index old = atomic_cas_t(&parent[ra], ra, rb); // hang the larger root under the smaller
    if (old == ra) return;
    ra = find_root(parent, old);
    rb = find_root(parent, rb);
  }
}

__global__ void cc_init_kernel(Index n, Index *parent) {
  for (Index i = global_thread(); i < n; i += global_threads()) parent[i] = i;
}

__global__ void cc_hook_kernel(Index n, const Index *rowptr, const Index *colidx, Index *parent) {
  // Each undirected edge once, from its larger end (the graph is symmetric).
  for_each_entry(
      rowptr, 0, n, 1, [](Index it) { return it; },
      [&](Index u, Index e) {
        const Index v = colidx[e];
        if (v < u) unite(parent, u, v);
      });
}

__global__ void cc_label_kernel(Index n, Index *parent, Index *label, Index *is_seed) {
  for (Index i = global_thread(); i < n; i += global_threads()) {
    const Index r = find_root(parent, i);
    label[i] = r;
    is_seed[i] = r == i;
  }
}

// Plan index of every vertex's component: seeds in increasing id order, except that the Given
// component comes first. Also records each component's seed and counts its vertices.
__global__ void plan_index_kernel(Index n, const Index *label, const Index *seed_pos, Index given, Index *cid,
                                  Index *seed, Index *size) {
  const Index gp = given >= 0 ? seed_pos[label[given]] : -1;
  for (Index i = global_thread(); i < n; i += global_threads()) {
    const Index p = seed_pos[label[i]];
    const Index c = gp < 0 ? p : (p == gp ? 0 : (p < gp ? p + 1 : p));
    cid[i] = c;
    if (label[i] == i) seed[c] = i;
    // One atomic per distinct component in the warp: big components would otherwise serialize.
    const unsigned active = __activemask();
    const unsigned same = __match_any_sync(active, static_cast<unsigned long long>(c));
    if ((__ffs(same) - 1) == static_cast<int>(threadIdx.x & 31))
      atomic_add_t(&size[c], static_cast<Index>(__popc(same)));
  }
}

// ---- Peripheral start nodes ---------------------------------------------------------------

struct SearchState {
  Index *root;       // current root of each component
  Index *final_root; // the answer once found
  int *prev_levels;  // levels of the previous BFS of the component; 0 before the first
  int *maxlev;
  Index *bestval, *bestid;
};

// Initial state: single vertices and the Given component are decided; the rest search.
__global__ void search_init_kernel(Index ncomp, const Index *seed, const Index *size, Index given, SearchState S,
                                   Index *active, Index *nactive) {
  for (Index c = global_thread(); c < ncomp; c += global_threads()) {
    S.prev_levels[c] = 0;
    if (given >= 0 && c == 0) {
      S.final_root[c] = given;
    } else if (size[c] == 1) {
      S.final_root[c] = seed[c];
    } else {
      S.root[c] = seed[c];
      active[atomic_add_t(nactive, Index(1))] = c;
    }
  }
}

struct SearchParams {
  const Index *rowptr, *colidx, *valence, *cid;
  SearchState S;
  Index *active[2]; // round r reads the list active[(r - 1) & 1] and writes the other
  Index na;         // components searching in round 1
  Index *queue;     // visited vertices in level order
  u32 *visit;       // round stamp of the last visit
  int *lev;         // level in the current round
  Index *count;     // [0..2] the BFS's rotating level counters; [3], [4] the next round's list size
  SearchTotals *totals;
};

// Large blocks: the grid barrier costs about one atomic per block, and narrow graphs (2D meshes)
// have thousands of levels with little work each.
constexpr int kBfsThreads = 1024;

// Level-synchronous BFS of one round from every root in queue[0, count[0]), one grid barrier
// per level. Level d reads its size from count[d % 3], appends the next level through
// count[(d+1) % 3], and clears count[(d+2) % 3]: everyone read that one (as level d-1's size)
// before the barrier that ended level d-1, and level d+1 first appends to it after the barrier
// that ends level d. Returns the vertices reached (every thread the same); *levels = the depth.
__device__ Index bfs_round(const SearchParams &P, u32 round, int *levels, cg::grid_group &grid) {
  Index base = 0;
  int d = 0;
  for (;;) {
    const Index size = load_relaxed(P.count[d % 3]);
    if (size == 0) break;
    if (global_thread() == 0) store_relaxed(P.count[(d + 2) % 3], Index(0));
    const Index next = base + size;
    Index *append = &P.count[(d + 1) % 3];
    const int child_level = d + 1;
    // Lanes per vertex: as many as keep every vertex of the level in one pass over the grid.
    int G = 1;
    while (G < 32 && static_cast<long long>(size) * (2 * G) <= static_cast<long long>(global_threads())) G *= 2;
    for_each_entry(
        P.rowptr, base, next, G, [&](Index it) { return load_relaxed(P.queue[it]); },
        [&](Index, Index e) {
          const Index w = P.colidx[e];
          if (load_relaxed(P.visit[w]) == round) return;
          if (atomicExch(&P.visit[w], round) == round) return;
          P.lev[w] = child_level;
          cg::coalesced_group g = cg::coalesced_threads();
          Index at = 0;
          if (g.thread_rank() == 0) at = atomic_add_t(append, static_cast<Index>(g.size()));
          at = g.shfl(at, 0);
          store_relaxed(P.queue[next + at + static_cast<Index>(g.thread_rank())], w);
        });
    grid.sync();
    base = next;
    ++d;
  }
  *levels = d;
  return base;
}

// Per component of the round's BFS: the deepest level, then the smallest valence in it, then the
// smallest id of that valence (find_start_node's choice), each pass ended by a grid barrier. The
// queue is in level order; walking it backwards meets the deepest vertices first, so almost every
// later thread sees the maximum already and skips the atomic.
__device__ void best_of_last_level(const SearchParams &P, Index total, cg::grid_group &grid) {
  const SearchState &S = P.S;
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = load_relaxed(P.queue[total - 1 - i]), c = P.cid[v];
    const int l = load_relaxed(P.lev[v]);
    if (load_relaxed(S.maxlev[c]) < l) atomicMax(&S.maxlev[c], l);
  }
  grid.sync();
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = load_relaxed(P.queue[i]), c = P.cid[v];
    if (load_relaxed(P.lev[v]) == load_relaxed(S.maxlev[c])) atomic_min_t(&S.bestval[c], P.valence[v]);
  }
  grid.sync();
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = load_relaxed(P.queue[i]), c = P.cid[v];
    if (load_relaxed(P.lev[v]) == load_relaxed(S.maxlev[c]) && P.valence[v] == load_relaxed(S.bestval[c]))
      atomic_min_t(&S.bestid[c], v);
  }
  grid.sync();
}

// find_start_node's Peripheral loop for every component at once, all rounds in one persistent
// cooperative kernel (no host round trip a round, so the ordering and the caller's host work
// queue behind it). A round: each searching component's BFS from its current root (a
// multi-source BFS), its deepest level's best vertex, then per component: a BFS no deeper than
// the previous one makes the root the answer, else the search restarts from the best vertex.
__global__ void __launch_bounds__(kBfsThreads, 1) peripheral_search_kernel(SearchParams P) {
  cg::grid_group grid = cg::this_grid();
  const SearchState &S = P.S;
  Index na = P.na;
  int rounds = 0, levels_total = 0;
  for (u32 round = 1; na > 0; ++round) {
    const Index *active = P.active[(round - 1) & 1];
    Index *next_active = P.active[round & 1];
    Index *next_na = &P.count[3 + (round & 1)]; // the other slot holds this round's na, maybe still being read
    // Everything read here and below was written by other blocks before a barrier of this
    // kernel: device-scope loads, so no line an earlier round left in L1 is read.
    for (Index i = global_thread(); i < na; i += global_threads()) {
      const Index c = load_relaxed(active[i]), r = load_relaxed(S.root[c]);
      P.queue[i] = r;
      P.visit[r] = round;
      P.lev[r] = 0;
      S.maxlev[c] = 0;
      S.bestval[c] = max_of<Index>();
      S.bestid[c] = max_of<Index>();
    }
    if (global_thread() == 0) {
      P.count[0] = na;
      P.count[1] = 0;
      P.count[2] = 0;
      *next_na = 0;
    }
    grid.sync();
    int levels = 0;
    const Index total = bfs_round(P, round, &levels, grid);
    levels_total += levels;
    best_of_last_level(P, total, grid);
    for (Index i = global_thread(); i < na; i += global_threads()) {
      const Index c = load_relaxed(active[i]);
      const int depth = load_relaxed(S.maxlev[c]) + 1, prev = load_relaxed(S.prev_levels[c]);
      if (prev > 0 && depth <= prev) {
        S.final_root[c] = load_relaxed(S.root[c]);
      } else {
        S.prev_levels[c] = depth;
        S.root[c] = load_relaxed(S.bestid[c]);
        next_active[atomic_add_t(next_na, Index(1))] = c;
      }
    }
    grid.sync();
    na = load_relaxed(*next_na);
    rounds = static_cast<int>(round);
  }
  if (global_thread() == 0) {
    P.totals->rounds = rounds;
    P.totals->bfs_levels = levels_total;
  }
}

} // namespace

namespace {

// Components and each vertex's plan index: cid[v] = plan index of v's component; seed and size
// per component (plan order). Returns the number of components (two scalar reads).
Index label_components(const CsrView &g, Index given, DeviceBuffer<Index> &cid, DeviceBuffer<Index> &seed,
                       DeviceBuffer<Index> &size, cudaStream_t s) {
  const Index n = g.nrows;
  const int grid_n = grid_for(n, kThreads, kMaxBlocks);
  DeviceBuffer<Index> parent(n, s), label(n, s), flag(n, s), seed_pos(n, s);
  cc_init_kernel<<<grid_n, kThreads, 0, s>>>(n, parent.data());
  PGK_CUDA_CHECK_LAUNCH();
  cc_hook_kernel<<<grid_n, kThreads, 0, s>>>(n, g.rowptr, g.colidx, parent.data());
  PGK_CUDA_CHECK_LAUNCH();
  cc_label_kernel<<<grid_n, kThreads, 0, s>>>(n, parent.data(), label.data(), flag.data());
  PGK_CUDA_CHECK_LAUNCH();
  exclusive_sum(flag.data(), seed_pos.data(), n, s);
  const Index last_seed_pos = read_scalar(seed_pos.data() + n - 1, s);
  const Index last_flag = read_scalar(flag.data() + n - 1, s);
  const Index ncomp = last_seed_pos + last_flag;

  cid = std::move(parent); // parent is no longer needed
  seed = DeviceBuffer<Index>(ncomp, s);
  size = DeviceBuffer<Index>(ncomp, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(size.data(), 0, ncomp * sizeof(Index), s));
  plan_index_kernel<<<grid_n, kThreads, 0, s>>>(n, label.data(), seed_pos.data(), given, cid.data(), seed.data(),
                                                size.data());
  PGK_CUDA_CHECK_LAUNCH();
  return ncomp;
}

// The Peripheral search, all components at once, queued on s: plan.root is complete in stream
// order when this returns, and the host has not waited for it. search_init decides the single
// vertices and the Given component and lists the rest; one read (how many are listed), then
// before_search, then one kernel for every round.
void queue_peripheral_search(const CsrView &g, const Index *valence, const rcm::Options &opts, Index given,
                             const Index *cid, const Index *seed, DevicePlan &plan, cudaStream_t s,
                             const std::function<void(const DevicePlan &)> &before_search) {
  const Index n = g.nrows, ncomp = plan.ncomp;
  DeviceBuffer<Index> cur_root(ncomp, s), bestval(ncomp, s), bestid(ncomp, s), active0(ncomp, s), active1(ncomp, s);
  DeviceBuffer<int> prev_levels(ncomp, s), maxlev(ncomp, s);
  DeviceBuffer<Index> counters(5, s); // SearchParams::count
  PGK_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 5 * sizeof(Index), s));
  SearchState S{cur_root.data(), plan.root.data(), prev_levels.data(), maxlev.data(), bestval.data(), bestid.data()};
  search_init_kernel<<<grid_for(ncomp, kThreads, kMaxBlocks), kThreads, 0, s>>>(ncomp, seed, plan.size.data(), given, S,
                                                                                active0.data(), counters.data() + 3);
  PGK_CUDA_CHECK_LAUNCH();
  const Index na = read_scalar(counters.data() + 3, s);
  if (before_search) before_search(plan);
  if (na == 0) return;
  DeviceBuffer<Index> queue(n, s);
  DeviceBuffer<u32> visit(n, s);
  DeviceBuffer<int> lev(n, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(visit.data(), 0, n * sizeof(u32), s));
  plan.totals = DeviceBuffer<SearchTotals>(1, s);
  SearchParams P{};
  P.rowptr = g.rowptr;
  P.colidx = g.colidx;
  P.valence = valence;
  P.cid = cid;
  P.S = S;
  P.active[0] = active0.data();
  P.active[1] = active1.data();
  P.na = na;
  P.queue = queue.data();
  P.visit = visit.data();
  P.lev = lev.data();
  P.count = counters.data();
  P.totals = plan.totals.data();
  const void *kernel = reinterpret_cast<const void *>(&peripheral_search_kernel);
  const int grid = cooperative_grid(kernel, kBfsThreads, 0, opts.gpu.max_blocks);
  void *args[] = {&P};
  PGK_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(kBfsThreads), args, 0, s));
  PGK_CUDA_CHECK_LAUNCH();
  // The buffers above are freed in stream order, after the kernel.
}

} // namespace

DevicePlan plan_components_device(const CsrView &g, const Index *valence, const rcm::Options &opts, cudaStream_t s,
                                  const std::function<void(const DevicePlan &)> &before_search) {
  DevicePlan plan;
  const Index n = g.nrows;
  if (n == 0) return plan;
  const Index given = opts.start == rcm::StartNode::Given ? opts.given_start : -1;
  DeviceBuffer<Index> cid, seed;
  plan.ncomp = label_components(g, given, cid, seed, plan.size, s);
  plan.comp_offset = DeviceBuffer<Index>(plan.ncomp + 1, s);
  exclusive_sum(plan.size.data(), plan.comp_offset.data(), plan.ncomp, s);
  set_device_value(plan.comp_offset.data() + plan.ncomp, n, s);
  plan.root = DeviceBuffer<Index>(plan.ncomp, s);
  queue_peripheral_search(g, valence, opts, given, cid.data(), seed.data(), plan, s, before_search);
  return plan;
}

void read_search_totals(DevicePlan &plan, cudaStream_t s) {
  if (plan.totals.size() == 0) return; // no search ran
  const SearchTotals t = plan.totals.get(0, s);
  plan.rounds = t.rounds;
  plan.bfs_levels = t.bfs_levels;
}

} // namespace pgk::cuda::rcm_detail
