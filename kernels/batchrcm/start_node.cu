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
// every component still searching (a persistent cooperative kernel, one grid barrier per level),
// then per component the depth and the (valence, id)-smallest vertex of its last level.
#include "kernels/batchrcm/device_loops.cuh"
#include "kernels/common/atomics.cuh"

#include <cooperative_groups.h>

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

struct BfsParams {
  const Index *rowptr, *colidx;
  Index *queue; // visited vertices in level order
  u32 *visit;   // round stamp of the last visit
  int *lev;     // level in the current round
  u32 round;
  Index *count;      // three rotating level counters, see bfs_kernel
  Index *visited;    // out: vertices reached
  int *levels_total; // out: += levels of this round
};

__global__ void round_start_kernel(Index na, const Index *active, SearchState S, BfsParams B) {
  for (Index i = global_thread(); i < na; i += global_threads()) {
    const Index c = active[i], r = S.root[c];
    B.queue[i] = r;
    B.visit[r] = B.round;
    B.lev[r] = 0;
    S.maxlev[c] = 0;
    S.bestval[c] = max_of<Index>();
    S.bestid[c] = max_of<Index>();
  }
  if (global_thread() == 0) {
    B.count[0] = na;
    B.count[1] = 0;
    B.count[2] = 0;
  }
}

// Level-synchronous BFS from every root in queue[0, count[0]), one grid barrier per level.
// Level d reads its size from count[d % 3], appends the next level through count[(d+1) % 3],
// and clears count[(d+2) % 3]: everyone read that one (as level d-1's size) before the barrier
// that ended level d-1, and level d+1 first appends to it after the barrier that ends level d.
// Large blocks: the grid barrier costs about one atomic per block, and narrow graphs (2D meshes)
// have thousands of levels with little work each.
constexpr int kBfsThreads = 1024;

__global__ void __launch_bounds__(kBfsThreads, 1) bfs_kernel(BfsParams B) {
  cg::grid_group grid = cg::this_grid();
  Index base = 0;
  int d = 0;
  for (;;) {
    const Index size = load_relaxed(B.count[d % 3]);
    if (size == 0) break;
    if (global_thread() == 0) store_relaxed(B.count[(d + 2) % 3], Index(0));
    const Index next = base + size;
    Index *append = &B.count[(d + 1) % 3];
    const u32 round = B.round;
    const int child_level = d + 1;
    // Lanes per vertex: as many as keep every vertex of the level in one pass over the grid.
    int G = 1;
    while (G < 32 && static_cast<long long>(size) * (2 * G) <= static_cast<long long>(global_threads())) G *= 2;
    for_each_entry(
        B.rowptr, base, next, G, [&](Index it) { return load_relaxed(B.queue[it]); },
        [&](Index, Index e) {
          const Index w = B.colidx[e];
          if (load_relaxed(B.visit[w]) == round) return;
          if (atomicExch(&B.visit[w], round) == round) return;
          B.lev[w] = child_level;
          cg::coalesced_group g = cg::coalesced_threads();
          Index at = 0;
          if (g.thread_rank() == 0) at = atomic_add_t(append, static_cast<Index>(g.size()));
          at = g.shfl(at, 0);
          store_relaxed(B.queue[next + at + static_cast<Index>(g.thread_rank())], w);
        });
    grid.sync();
    base = next;
    ++d;
  }
  if (global_thread() == 0) {
    *B.visited = base;
    *B.levels_total += d;
  }
}

// Deepest level per component. The queue is in level order; walking it backwards meets the
// deepest vertices first, so almost every later thread sees the maximum already and skips the
// atomic.
__global__ void deepest_kernel(const Index *visited, const Index *queue, const Index *cid, const int *lev,
                               SearchState S) {
  const Index total = *visited;
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = queue[total - 1 - i];
    const Index c = cid[v];
    if (S.maxlev[c] < lev[v]) atomicMax(&S.maxlev[c], lev[v]);
  }
}

__global__ void best_valence_kernel(const Index *visited, const Index *queue, const Index *cid, const int *lev,
                                    const Index *valence, SearchState S) {
  const Index total = *visited;
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = queue[i], c = cid[v];
    if (lev[v] == S.maxlev[c]) atomic_min_t(&S.bestval[c], valence[v]);
  }
}

__global__ void best_id_kernel(const Index *visited, const Index *queue, const Index *cid, const int *lev,
                               const Index *valence, SearchState S) {
  const Index total = *visited;
  for (Index i = global_thread(); i < total; i += global_threads()) {
    const Index v = queue[i], c = cid[v];
    if (lev[v] == S.maxlev[c] && valence[v] == S.bestval[c]) atomic_min_t(&S.bestid[c], v);
  }
}

// find_start_node's loop, one step per round: the BFS just made from root[c] has maxlev+1
// levels; no more than the previous one: root[c] is the answer; else restart from the best
// vertex of the last level.
__global__ void round_end_kernel(Index na, const Index *active, SearchState S, Index *next_active, Index *next_na) {
  for (Index i = global_thread(); i < na; i += global_threads()) {
    const Index c = active[i];
    const int levels = S.maxlev[c] + 1;
    if (S.prev_levels[c] > 0 && levels <= S.prev_levels[c]) {
      S.final_root[c] = S.root[c];
    } else {
      S.prev_levels[c] = levels;
      S.root[c] = S.bestid[c];
      next_active[atomic_add_t(next_na, Index(1))] = c;
    }
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

// The Peripheral search, all components at once: plan.root, plan.rounds and plan.bfs_levels.
// Reads one scalar per round (the components still searching) and, if any round ran, the level
// count.
void peripheral_search(const CsrView &g, const Index *valence, const rcm::Options &opts, Index given, const Index *cid,
                       const Index *seed, DevicePlan &plan, cudaStream_t s) {
  const Index n = g.nrows, ncomp = plan.ncomp;
  const int grid_n = grid_for(n, kThreads, kMaxBlocks);
  plan.root = DeviceBuffer<Index>(ncomp, s);
  DeviceBuffer<Index> cur_root(ncomp, s), bestval(ncomp, s), bestid(ncomp, s), active(ncomp, s), next_active(ncomp, s);
  DeviceBuffer<int> prev_levels(ncomp, s), maxlev(ncomp, s);
  DeviceBuffer<Index> counters(8, s); // [0..2] level counters, [3] visited, [4] active count
  DeviceBuffer<int> levels_total(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 8 * sizeof(Index), s));
  PGK_CUDA_CHECK(cudaMemsetAsync(levels_total.data(), 0, sizeof(int), s));
  SearchState S{cur_root.data(), plan.root.data(), prev_levels.data(), maxlev.data(), bestval.data(), bestid.data()};
  search_init_kernel<<<grid_for(ncomp, kThreads, kMaxBlocks), kThreads, 0, s>>>(ncomp, seed, plan.size.data(), given, S,
                                                                                active.data(), counters.data() + 4);
  PGK_CUDA_CHECK_LAUNCH();
  Index na = read_scalar(counters.data() + 4, s);
  if (na == 0) return;
  DeviceBuffer<Index> queue(n, s);
  DeviceBuffer<u32> visit(n, s);
  DeviceBuffer<int> lev(n, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(visit.data(), 0, n * sizeof(u32), s));
  BfsParams B{g.rowptr, g.colidx,        queue.data(),        visit.data(),       lev.data(),
              0,        counters.data(), counters.data() + 3, levels_total.data()};
  const void *bfs = reinterpret_cast<const void *>(&bfs_kernel);
  const int bfs_grid = cooperative_grid(bfs, kBfsThreads, 0, opts.gpu.max_blocks);
  for (u32 round = 1; na > 0; ++round) {
    B.round = round;
    const int grid_na = grid_for(na, kThreads, kMaxBlocks);
    round_start_kernel<<<grid_na, kThreads, 0, s>>>(na, active.data(), S, B);
    PGK_CUDA_CHECK_LAUNCH();
    void *args[] = {&B};
    PGK_CUDA_CHECK(cudaLaunchCooperativeKernel(bfs, dim3(bfs_grid), dim3(kBfsThreads), args, 0, s));
    deepest_kernel<<<grid_n, kThreads, 0, s>>>(B.visited, queue.data(), cid, lev.data(), S);
    PGK_CUDA_CHECK_LAUNCH();
    best_valence_kernel<<<grid_n, kThreads, 0, s>>>(B.visited, queue.data(), cid, lev.data(), valence, S);
    PGK_CUDA_CHECK_LAUNCH();
    best_id_kernel<<<grid_n, kThreads, 0, s>>>(B.visited, queue.data(), cid, lev.data(), valence, S);
    PGK_CUDA_CHECK_LAUNCH();
    PGK_CUDA_CHECK(cudaMemsetAsync(counters.data() + 4, 0, sizeof(Index), s));
    round_end_kernel<<<grid_na, kThreads, 0, s>>>(na, active.data(), S, next_active.data(), counters.data() + 4);
    PGK_CUDA_CHECK_LAUNCH();
    na = read_scalar(counters.data() + 4, s);
    std::swap(active, next_active);
    plan.rounds = static_cast<int>(round);
  }
  plan.bfs_levels = read_scalar(levels_total.data(), s);
}

} // namespace

DevicePlan plan_components_device(const CsrView &g, const Index *valence, const rcm::Options &opts, cudaStream_t s) {
  DevicePlan plan;
  const Index n = g.nrows;
  if (n == 0) return plan;
  const Index given = opts.start == rcm::StartNode::Given ? opts.given_start : -1;
  DeviceBuffer<Index> cid, seed;
  plan.ncomp = label_components(g, given, cid, seed, plan.size, s);
  peripheral_search(g, valence, opts, given, cid.data(), seed.data(), plan, s);
  plan.comp_offset = DeviceBuffer<Index>(plan.ncomp + 1, s);
  exclusive_sum(plan.size.data(), plan.comp_offset.data(), plan.ncomp, s);
  set_device_value(plan.comp_offset.data() + plan.ncomp, n, s);
  return plan;
}

} // namespace pgk::cuda::rcm_detail
