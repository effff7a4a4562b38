// Element operations of the device Rabbit numbering (dendrogram.cu), README.md section 3:
// children lists by one sort, the Euler tour of the dendrogram as a linked list, its sampled
// list ranking (the post-order index of v = the leave-events before v's own), and the
// communities read off the numbering. Host/device (ops_common.hpp).
//
// The sort key of v is (parent, n - 1 - seq) for a merged vertex (children newest first: seq is
// the (round, pos) rank) and (n, seq) for a top, so that the tops are the children of a virtual
// root n in ascending key. Tour node 2v enters v, 2v + 1 leaves it; the tour visits the tops in
// order, each community's subtree in child order, and leaving v counts 1: so the number of
// leave-nodes before 2v + 1 is v's place in perm_rabbit (communities concatenated in top order,
// post-order within each). The ranking: splitters (the head and about one node in 32, by a fixed
// hash of the id) each walk to the next splitter, leaving on every node passed its splitter and
// the leave-count before it; pointer jumping sums the splitters' counts to the end of the list.
#pragma once

#include "kernels/rabbitpp/ops_common.hpp"

namespace pgk::cuda::rabbitpp_ops {

PGK_RB_HD Key child_key(const Index *parent, const Index *seq, Index n, int qbits, Index v) {
  const Index p = parent[v] >= 0 ? parent[v] : n;
  const Index q = p == n ? seq[v] : n - 1 - seq[v];
  return (Key(p) << qbits) | Key(q);
}

// Position i of the sorted keys (kids[i]: the vertex): its next sibling, and the first child of
// its parent (first_child has n + 1 entries, preset to -1; entry n: the first top).
PGK_RB_HD void link_children(const Key *keys, const Index *kids, Index n, int qbits, Index i, Index *first_child,
                             Index *next_sibling) {
  const Key p = keys[i] >> qbits;
  next_sibling[kids[i]] = i + 1 < n && (keys[i + 1] >> qbits) == p ? kids[i + 1] : -1;
  if (i == 0 || (keys[i - 1] >> qbits) != p) first_child[p] = kids[i];
}

// Successor of tour node k (-1: the end, after leaving the last top).
PGK_RB_HD Index tour_next(const Index *parent, const Index *first_child, const Index *next_sibling, Index k) {
  const Index v = k / 2;
  if (k % 2 == 0) {
    const Index c = first_child[v];
    return c >= 0 ? 2 * c : 2 * v + 1;
  }
  const Index sib = next_sibling[v];
  if (sib >= 0) return 2 * sib;
  return parent[v] >= 0 ? 2 * parent[v] + 1 : -1;
}

// The first node of the tour: entering the first top (one thread).
PGK_RB_HD void tour_head(const Index *first_child, Index n, Index *head) { *head = 2 * first_child[n]; }

PGK_RB_HD bool is_splitter(Index k, Index head) {
  return k == head || ((static_cast<unsigned long long>(k) * 0x9E3779B97F4A7C15ull) >> 59) == 0;
}
// flag[k] for k <= nodes (flag[nodes] = 0): the exclusive scan numbers the splitters.
PGK_RB_HD void splitter_flag(Index nodes, const Index *head, Index k, Index *flag) {
  flag[k] = k < nodes && is_splitter(k, *head) ? 1 : 0;
}
PGK_RB_HD void place_splitter(const Index *head, const Index *number, Index k, Index *splitter) {
  if (is_splitter(k, *head)) splitter[number[k]] = k;
}

// Splitter c walks to the next splitter: every node passed gets (c, leave-nodes before it in the
// segment); the segment's leave count and the next splitter's number (-1: the list ends).
PGK_RB_HD void walk_segment(const Index *next, const Index *number, const Index *splitter, const Index *head,
                            Index nodes, Index c, Index *owner, Index *local, Index *seg_count, Index *seg_next) {
  const Index h = *head;
  Index k = splitter[c], count = 0, steps = 0;
  for (;;) {
    owner[k] = c;
    local[k] = count;
    count += k % 2;
    k = next[k];
    if (k < 0 || is_splitter(k, h) || ++steps >= nodes) break; // steps: a broken tour must not hang
  }
  seg_count[c] = count;
  seg_next[c] = k >= 0 && is_splitter(k, h) ? number[k] : -1;
}

// One pointer-jumping step on the splitters: count = leave-nodes from c up to its pointer.
PGK_RB_HD void rank_jump(const Index *count_in, const Index *next_in, Index *count_out, Index *next_out, Index c) {
  const Index x = next_in[c];
  count_out[c] = count_in[c] + (x >= 0 ? count_in[x] : 0);
  next_out[c] = x >= 0 ? next_in[x] : -1;
}

// v's place: the leave-nodes before 2v + 1 = (n - those from its splitter to the end) + those
// before it in its segment.
PGK_RB_HD void place_vertex(const Index *owner, const Index *local, const Index *suffix, Index n, Index v,
                            Index *perm) {
  const Index k = 2 * v + 1;
  perm[n - suffix[owner[k]] + local[k]] = v;
}

// Communities on the numbering: position p starts one when the previous vertex is a top (the
// last of its community); after an inclusive scan of the flags, cid[p] - 1 is p's community.
PGK_RB_HD void community_start(const Index *perm, const Index *parent, Index p, Index *flag) {
  flag[p] = p == 0 || parent[perm[p - 1]] < 0 ? 1 : 0;
}
PGK_RB_HD void community_top(const Index *perm, const Index *parent, const Index *cid, Index p, Index *top_of) {
  if (parent[perm[p]] < 0) top_of[cid[p] - 1] = perm[p];
}
PGK_RB_HD void community_of(const Index *perm, const Index *cid, const Index *top_of, Index p, Index *com) {
  com[perm[p]] = top_of[cid[p] - 1];
}

} // namespace pgk::cuda::rabbitpp_ops
