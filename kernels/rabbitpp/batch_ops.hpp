// Element operations of the device merge rounds (batch.cu), src/rabbitpp/README.md section 2 in
// the layout the device keeps. Host/device (ops_common.hpp): tests/unit/rabbitpp runs them in
// host loops against detect_communities_batch.
//
// State (per vertex unless said otherwise):
//   root[x]        x's community root at the start of the round (every vertex, kept exact: after
//                  each round the vertices whose root merged are moved to the new root).
//   owner[x]       for a merged x whose edges still have to be aggregated: the unprocessed root
//                  whose next aggregation reads them (README: the root's L gathers the lists of
//                  the vertices merged into it, and of those merged into them in the same round);
//                  -1 when nobody will read them again (consumed, or the root is a top).
//   list_begin/len x's compacted list L(x) in the list arena, stored when x merged with members
//                  of its own (README's lazy aggregation); len 0: x's data is its row of G.
//   slot[x]        x's slot in this round's active set, -1 outside it.
//   strength       str of every root (start of round while deciding, updated when applying).
//   parent, round, seq: the dendrogram: seq = the vertex's place in (round, pos) order.
// A round:
//   1. active set: the deferred vertices of the last round, then the next ones of the order.
//   2. aggregation: every active v gathers its row and the data of the vertices it owns
//      (offsets by a scan of per-vertex lengths; each gathered entry finds its vertex by a
//      max-scan of head marks), each entry keyed (slot, root of its column) - entries inside v's
//      community get the sentinel slot m -, sorted, and reduced by key (exact integer sums).
//   3. best target per slot (largest int64 gain, ties to the smallest root), decisions with the
//      mutual-pair rule, then per target the acceptance in slot (= processing) order.
//   4. lists stored for the merged vertices that had members; the arena is compacted when full.
//   5. apply: final roots by pointer jumping along the round's merges, parents, strengths added
//      to the final roots (exact), owners, roots moved, deferred list compacted in order.
#pragma once

#include "kernels/rabbitpp/ops_common.hpp"

namespace pgk::cuda::rabbitpp_ops {

// The scalars of the round loop, in device memory; the host reads the record once per round.
struct RoundState {
  long long gathered = 0;       // T: entries gathered this round
  long long unique = 0;         // U: distinct (slot, root) keys (written by the reduction)
  long long arena_top = 0;      // entries used in the current list arena
  long long deferred_total = 0; // deferrals so far (Info::deferred)
  Index m = 0;                  // active vertices of this round
  Index deferred = 0;           // vertices the last round deferred (this round's first slots)
  Index frontier = 0;           // first position of the processing order not taken yet
  Index processed = 0;          // vertices processed (top or merged) before this round
  int error = 0;                // internal errors: 1 list arena overflow, 2 a cycle of merges
};

// Raw pointers to the round state (device arrays, or host arrays in the emulation).
struct Rounds {
  Index n = 0, batch = 0;
  Wide total = 0;
  const Index *g_rowptr = nullptr, *g_colidx = nullptr, *order = nullptr;
  const std::uint8_t *g_weight = nullptr;
  Index *root = nullptr, *owner = nullptr, *slot = nullptr, *parent = nullptr, *round = nullptr, *seq = nullptr;
  Wide *strength = nullptr, *list_begin = nullptr;
  Index *list_len = nullptr;
  Index *offset = nullptr; // n + 1: gathered entries per vertex, then their exclusive scan
  Index *active = nullptr, *target = nullptr, *deferred_list = nullptr; // batch each
  Index *seg_begin = nullptr, *dpos = nullptr;                          // batch + 1 each
  Wide *store_off = nullptr;                                            // batch + 1
  Weight *target_w = nullptr;
  std::uint8_t *action = nullptr, *inner = nullptr;
  Index *arena_root = nullptr; // the current list arena
  Weight *arena_w = nullptr;
  Wide arena_capacity = 0;
  RoundState *state = nullptr;
};

PGK_RB_HD Key low_mask(int bits) { return bits >= 64 ? ~Key(0) : (Key(1) << bits) - 1; }

// ---- 1. the active set ----------------------------------------------------------------------

// One thread: m = min(K, deferred + unprocessed not yet taken).
PGK_RB_HD void begin_round(const Rounds &r) {
  RoundState &st = *r.state;
  const long long avail = static_cast<long long>(st.deferred) + (r.n - st.frontier);
  st.m = static_cast<Index>(avail < r.batch ? avail : r.batch);
}

// Slot s (< batch): the deferred vertices in their order, then the order from the frontier.
PGK_RB_HD void fill_slot(const Rounds &r, Index s) {
  const RoundState &st = *r.state;
  if (s >= st.m) return;
  const Index v = s < st.deferred ? r.deferred_list[s] : r.order[st.frontier + (s - st.deferred)];
  r.active[s] = v;
  r.slot[v] = s;
  r.inner[s] = 0;
}

// ---- 2. aggregation ---------------------------------------------------------------------------

// Entries x (< n) contributes to this round: an active vertex its row of G, a vertex owned by an
// active one its list (or row); offset[n] = 0. Marks the owners that have members (inner).
PGK_RB_HD void gather_length(const Rounds &r, Index x) {
  if (x == r.n) {
    r.offset[x] = 0;
    return;
  }
  Index len = 0;
  if (r.slot[x] >= 0) {
    len = r.g_rowptr[x + 1] - r.g_rowptr[x];
  } else if (r.owner[x] >= 0) {
    const Index so = r.slot[r.owner[x]];
    if (so >= 0) {
      len = r.list_len[x] > 0 ? r.list_len[x] : r.g_rowptr[x + 1] - r.g_rowptr[x];
      r.inner[so] = 1;
    }
  }
  r.offset[x] = len;
}

// One thread, after the exclusive scan of the lengths: T, and the frontier moves past this
// round's new vertices.
PGK_RB_HD void record_gathered(const Rounds &r) {
  RoundState &st = *r.state;
  st.gathered = r.offset[r.n];
  st.unique = 0;
  st.frontier += st.m - st.deferred;
}

// head[offset[x]] = x for every x with entries (head preset to -1; a max-scan then gives every
// entry the vertex it comes from).
PGK_RB_HD void mark_head(const Rounds &r, Index *head, Index x) {
  if (r.offset[x + 1] > r.offset[x]) head[r.offset[x]] = x;
}

// Gathered entry e: key (slot, root of its column), or the sentinel (m, 0) when that root is
// the active vertex itself (an edge inside its community); value: the weight.
PGK_RB_HD void expand_entry(const Rounds &r, const Index *head, Key *keys, Weight *vals, Index e, Index m, int rbits) {
  const Index x = head[e], k = e - r.offset[x];
  Index s = r.slot[x], to;
  Weight w;
  if (s < 0 && r.list_len[x] > 0) {
    s = r.slot[r.owner[x]];
    const Wide p = r.list_begin[x] + k;
    to = r.arena_root[p];
    w = r.arena_w[p];
  } else {
    if (s < 0) s = r.slot[r.owner[x]];
    const Index p = r.g_rowptr[x] + k;
    to = r.g_colidx[p];
    w = r.g_weight[p];
  }
  const Index root = r.root[to];
  keys[e] = root == r.active[s] ? Key(m) << rbits : (Key(s) << rbits) | Key(root);
  vals[e] = w;
}

// ---- 3. decisions -----------------------------------------------------------------------------

// Slot s (<= m): where its entries start among the U reduced keys (s = m: the sentinel run).
PGK_RB_HD void segment_begin(const Rounds &r, const Key *ukeys, Index s, int rbits) {
  r.seg_begin[s] = lower_bound_key(ukeys, static_cast<Index>(r.state->unique), Key(s) << rbits);
}

// A merge candidate: gain = w * total - str(v) * str(u) (exact: w, str <= total < 2^31.5).
struct Candidate {
  Wide gain;
  Index root;
  Weight w;
};
PGK_RB_HD Candidate no_candidate() { return Candidate{0, index_max(), 0}; }
// x before y: larger gain, ties to the smaller root (a total order: any reduction order agrees).
PGK_RB_HD bool better(const Candidate &x, const Candidate &y) {
  return x.gain > y.gain || (x.gain == y.gain && x.root < y.root);
}
// Reduced entry i of a slot whose vertex has strength str_v; only positive gains compete.
PGK_RB_HD Candidate candidate(const Rounds &r, const Key *ukeys, const Weight *usums, Index i, Wide str_v, Key rmask) {
  const Index u = static_cast<Index>(ukeys[i] & rmask);
  const Weight w = usums[i];
  const Wide gain = static_cast<Wide>(w) * r.total - str_v * r.strength[u];
  return gain > 0 ? Candidate{gain, u, w} : no_candidate();
}
PGK_RB_HD void set_target(const Rounds &r, Index s, const Candidate &best) {
  r.target[s] = best.gain > 0 ? best.root : -1;
  r.target_w[s] = best.gain > 0 ? best.w : 0;
}

// The best target of every slot, as one reduction by slot over the T places of the reduced entries
// (the device runs a reduce-by-key over them all: with a warp per slot, a community root's list,
// 320k entries on lap3d7 at 16.8M rows, was left to one warp's 32 lanes while the GPU idled).
// Place i < U: its slot (m for the sentinel run) and its candidate; the places U..T-1, which the
// reduction of the gathered entries left unused, join the sentinel run.
struct EntrySlot {
  const Key *ukeys;
  const RoundState *state;
  int rbits;
  Index m;
  PGK_RB_HD Index operator()(Index i) const { return i < state->unique ? static_cast<Index>(ukeys[i] >> rbits) : m; }
};
struct EntryCandidate {
  Rounds r;
  const Key *ukeys;
  const Weight *usums;
  int rbits;
  Index m;
  PGK_RB_HD Candidate operator()(Index i) const {
    if (i >= r.state->unique) return no_candidate();
    const Index s = static_cast<Index>(ukeys[i] >> rbits);
    return s < m ? candidate(r, ukeys, usums, i, r.strength[r.active[s]], low_mask(rbits)) : no_candidate();
  }
};
// The better of two candidates. `better` is a total order on the candidates of one slot (their
// roots differ), so any order of the reduction gives the same best.
struct BetterOf {
  PGK_RB_HD Candidate operator()(const Candidate &x, const Candidate &y) const { return better(x, y) ? x : y; }
};
// Every slot starts without a target; run j of the reduction (j < runs) gives its slot the best.
PGK_RB_HD void clear_target(const Rounds &r, Index s) { set_target(r, s, no_candidate()); }
PGK_RB_HD void scatter_target(const Rounds &r, const Index *run_slot, const Candidate *run_best, const Index *runs,
                              Index j, Index m) {
  if (j < *runs && run_slot[j] < m) set_target(r, run_slot[j], run_best[j]);
}

// Slot s: top (no positive gain), deferred (mutual pair, the later slot waits), or merge.
PGK_RB_HD void decide(const Rounds &r, Index s) {
  const Index t = r.target[s];
  if (t < 0) {
    r.action[s] = kTop;
    return;
  }
  const Index ts = r.slot[t];
  r.action[s] = ts >= 0 && r.target[ts] == r.active[s] && ts < s ? kDefer : kMerge;
}

// Sort key of slot s for the acceptance: (target, slot) for a merge, (n, slot) otherwise.
PGK_RB_HD Key acceptance_key(const Rounds &r, Index s, int sbits) {
  const Index t = r.action[s] == kMerge ? r.target[s] : r.n;
  return (Key(t) << sbits) | Key(s);
}

// The target of sorted position i if i starts the run of a target's sources, else -1.
PGK_RB_HD Index run_target(const Rounds &r, const Key *keys, Index i, int sbits) {
  const Index t = static_cast<Index>(keys[i] >> sbits);
  return t >= r.n || (i > 0 && static_cast<Index>(keys[i - 1] >> sbits) == t) ? -1 : t;
}
// Source with weight w to the target and strength sv, after sources of total strength joined -
// str(t) were accepted: accepted (joined grows) while its gain stays positive.
PGK_RB_HD bool accept_source(Weight w, Wide sv, Wide total, Wide &joined) {
  if (static_cast<Wide>(w) * total - sv * joined <= 0) return false;
  joined += sv;
  return true;
}
// The sources of one target, in slot order, from the first position of its run in the sorted
// keys: each is accepted while its gain against the target's strength plus the accepted ones'
// stays positive (limit_merges_per_target); the others are deferred. (The device runs this loop
// with a warp per run: batch_kernels.cuh, accept_kernel.)
PGK_RB_HD void accept_run(const Rounds &r, const Key *keys, Index i, Index m, int sbits) {
  const Index t = run_target(r, keys, i, sbits);
  if (t < 0) return;
  Wide joined = r.strength[t];
  const Key smask = low_mask(sbits);
  for (Index j = i; j < m && static_cast<Index>(keys[j] >> sbits) == t; ++j) {
    const Index s = static_cast<Index>(keys[j] & smask);
    if (!accept_source(r.target_w[s], r.strength[r.active[s]], r.total, joined)) r.action[s] = kDefer;
  }
}

// ---- 4. lists -----------------------------------------------------------------------------------

// Slot s (<= m): entries of the list it stores (a merge that had members), 0 otherwise.
PGK_RB_HD void store_length(const Rounds &r, Index s, Index m) {
  r.store_off[s] = s < m && r.action[s] == kMerge && r.inner[s] ? r.seg_begin[s + 1] - r.seg_begin[s] : 0;
}

// Reduced entry i (< U) of a storing slot into the arena, after the exclusive scan of
// store_off; nothing when the arena would overflow (end_store reports it).
PGK_RB_HD void store_entry(const Rounds &r, const Key *ukeys, const Weight *usums, Index i, Index m, int rbits) {
  if (i >= r.state->unique) return;
  const Index s = static_cast<Index>(ukeys[i] >> rbits);
  if (s >= m || r.store_off[s + 1] == r.store_off[s]) return;
  const Wide top = r.state->arena_top;
  if (top + r.store_off[m] > r.arena_capacity) return;
  const Wide p = top + r.store_off[s] + (i - r.seg_begin[s]);
  r.arena_root[p] = static_cast<Index>(ukeys[i] & low_mask(rbits));
  r.arena_w[p] = usums[i];
}
PGK_RB_HD void store_meta(const Rounds &r, Index s, Index m) {
  const Wide len = r.store_off[s + 1] - r.store_off[s], top = r.state->arena_top;
  if (len == 0 || top + r.store_off[m] > r.arena_capacity) return;
  r.list_begin[r.active[s]] = top + r.store_off[s];
  r.list_len[r.active[s]] = static_cast<Index>(len);
}
PGK_RB_HD void end_store(const Rounds &r, Index m) {
  RoundState &st = *r.state;
  if (st.arena_top + r.store_off[m] > r.arena_capacity) st.error = 1;
  else st.arena_top += r.store_off[m];
}

// A stored list that someone will still read after this round (decisions made): its owner is
// unprocessed and not processed now. Compaction of the arena keeps exactly these.
PGK_RB_HD bool list_live(const Rounds &r, Index x) {
  const Index o = r.owner[x];
  if (r.list_len[x] == 0 || o < 0 || r.round[o] >= 0) return false;
  const Index so = r.slot[o];
  return so < 0 || r.action[so] == kDefer;
}
// Compaction: per vertex (<= n) the entries it keeps, scanned into the new offsets.
PGK_RB_HD void compact_length(const Rounds &r, Index *count, Index x) {
  count[x] = x < r.n && list_live(r, x) ? r.list_len[x] : 0;
}
// Entry k of x's live list to the new arena at the scanned offset.
PGK_RB_HD void compact_entry(const Rounds &r, const Index *offset, Index *to_root, Weight *to_w, Index x, Index k) {
  const Wide from = r.list_begin[x] + k, to = static_cast<Wide>(offset[x]) + k;
  to_root[to] = r.arena_root[from];
  to_w[to] = r.arena_w[from];
}
// After the copy: live lists point into the new arena, the others are dropped.
PGK_RB_HD void compact_meta(const Rounds &r, const Index *offset, Index x) {
  if (list_live(r, x)) r.list_begin[x] = offset[x];
  else r.list_len[x] = 0;
}
PGK_RB_HD void end_compact(const Rounds &r, const Index *offset) { r.state->arena_top = offset[r.n]; }

// ---- 5. apply -----------------------------------------------------------------------------------

// Chains of the round's merges, on slots: a merge into an active vertex that merges too links to
// that slot; otherwise the chain ends and its final root is known.
PGK_RB_HD void chain_init(const Rounds &r, Index *next, Index *final_root, Index s) {
  next[s] = -1;
  if (r.action[s] != kMerge) {
    final_root[s] = r.active[s];
    return;
  }
  const Index t = r.target[s], ts = r.slot[t];
  if (ts >= 0 && r.action[ts] == kMerge) {
    next[s] = ts;
    final_root[s] = -1; // known once the pointer reaches the chain's end
  } else {
    final_root[s] = t;
  }
}
// One pointer-jumping step (ping-pong buffers).
PGK_RB_HD void chain_jump(const Index *next_in, const Index *final_in, Index *next_out, Index *final_out, Index s) {
  const Index x = next_in[s];
  next_out[s] = x >= 0 ? next_in[x] : -1;
  final_out[s] = x >= 0 ? final_in[x] : final_in[s];
}

// Merge of slot s: parent, strength added to the final root (as at the start of the round),
// owner (the final root if it stays unprocessed: inactive and unprocessed, or deferred now).
PGK_RB_HD void apply_merge(const Rounds &r, const Index *next, const Index *final_root, Index s) {
  if (r.action[s] != kMerge) return;
  if (next[s] >= 0) r.state->error = 2;
  const Index v = r.active[s], root = final_root[s];
  r.parent[v] = r.target[s];
  add_exact(&r.strength[root], r.strength[v]);
  const Index sr = r.slot[root];
  const bool pending = sr >= 0 ? r.action[sr] == kDefer : r.round[root] < 0;
  r.owner[v] = pending ? root : -1;
}

// Vertex y: its root merged this round -> the final root.
PGK_RB_HD void move_root(const Rounds &r, const Index *final_root, Index y) {
  const Index s = r.slot[r.root[y]];
  if (s >= 0 && r.action[s] == kMerge) r.root[y] = final_root[s];
}

// Slot s (<= m): 1 if deferred (exclusive scan: the deferred list's positions).
PGK_RB_HD void defer_flag(const Rounds &r, Index s, Index m) { r.dpos[s] = s < m && r.action[s] == kDefer ? 1 : 0; }

// Slot s: a deferred vertex to its place in the list, a processed one gets its round and its
// place in (round, pos) order; the slot is released.
PGK_RB_HD void finish_slot(const Rounds &r, Index s, Index round_no) {
  const Index v = r.active[s];
  if (r.action[s] == kDefer) {
    r.deferred_list[r.dpos[s]] = v;
  } else {
    r.round[v] = round_no;
    r.seq[v] = r.state->processed + (s - r.dpos[s]);
  }
  r.slot[v] = -1;
}

PGK_RB_HD void end_round(const Rounds &r) {
  RoundState &st = *r.state;
  const Index d = r.dpos[st.m];
  st.deferred = d;
  st.processed += st.m - d;
  st.deferred_total += d;
}

} // namespace pgk::cuda::rabbitpp_ops
