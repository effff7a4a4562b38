// The kernels of the merge rounds (batch.cu): one element operation of batch_ops.hpp per
// thread (or per warp where a long list is shared by the lanes). Included by batch.cu only.
#pragma once

#include "kernels/rabbitpp/batch_ops.hpp"
#include "kernels/rabbitpp/internal.cuh"

namespace pgk::cuda::rabbitpp_detail {

using namespace rabbitpp_ops;

__global__ void init_vertices_kernel(Rounds r) {
  PGK_RB_FOR(x, r.n) {
    r.root[x] = x;
    r.owner[x] = r.slot[x] = r.parent[x] = r.round[x] = r.seq[x] = -1;
    r.list_begin[x] = 0;
    r.list_len[x] = 0;
  }
}

// ---- 1. active set, 2. aggregation --------------------------------------------------------------

__global__ void begin_round_kernel(Rounds r) { begin_round(r); }
__global__ void fill_slot_kernel(Rounds r, Index slots) { PGK_RB_FOR(s, slots) fill_slot(r, s); }
__global__ void gather_length_kernel(Rounds r) { PGK_RB_FOR(x, r.n + 1) gather_length(r, x); }
__global__ void record_gathered_kernel(Rounds r) { record_gathered(r); }
__global__ void mark_head_kernel(Rounds r, Index *head) { PGK_RB_FOR(x, r.n) mark_head(r, head, x); }
__global__ void expand_kernel(Rounds r, const Index *head, Key *keys, Weight *vals, Index count, Index m, int rbits) {
  PGK_RB_FOR(e, count) expand_entry(r, head, keys, vals, e, m, rbits);
}

// ---- 3. decisions ---------------------------------------------------------------------------------

__global__ void segment_kernel(Rounds r, const Key *ukeys, Index m, int rbits) {
  PGK_RB_FOR(s, m + 1) segment_begin(r, ukeys, s, rbits);
}

__global__ void clear_target_kernel(Rounds r, Index m) { PGK_RB_FOR(s, m) clear_target(r, s); }
__global__ void scatter_target_kernel(Rounds r, const Index *run_slot, const Candidate *run_best, const Index *runs,
                                      Index m) {
  PGK_RB_FOR(j, m + 1) scatter_target(r, run_slot, run_best, runs, j, m);
}

__global__ void decide_kernel(Rounds r, Index m) { PGK_RB_FOR(s, m) decide(r, s); }
__global__ void acceptance_key_kernel(Rounds r, Key *keys, Index m, int sbits) {
  PGK_RB_FOR(s, m) keys[s] = acceptance_key(r, s, sbits);
}
// accept_run with a warp per sorted position: at the first position of a target's run the lanes
// load 32 sources at a time (slot, weight, strength), and every lane takes the same decisions in
// slot order from those registers (shuffles), so a run of thousands of sources costs one load
// round trip per 32 instead of three per source. Lane q defers its own source.
__global__ void accept_kernel(Rounds r, const Key *keys, Index m, int sbits) {
  const int lane = threadIdx.x % 32;
  const Key smask = low_mask(sbits);
  PGK_RB_FOR_WARP(i, m) {
    const Index t = run_target(r, keys, i, sbits);
    if (t < 0) continue;
    Wide joined = r.strength[t];
    for (Index base = i;; base += 32) {
      const Index j = base + lane;
      const bool mine = j < m && static_cast<Index>(keys[j] >> sbits) == t;
      const Index s = mine ? static_cast<Index>(keys[j] & smask) : 0;
      const Weight w = mine ? r.target_w[s] : 0;
      const Wide sv = mine ? r.strength[r.active[s]] : 0;
      const unsigned in_run = __ballot_sync(0xffffffffu, mine); // a prefix of the lanes: the run is contiguous
      for (int q = 0; q < 32 && (in_run >> q) & 1u; ++q) {
        const Weight wq = __shfl_sync(0xffffffffu, w, q);
        const Wide svq = __shfl_sync(0xffffffffu, sv, q);
        if (!accept_source(wq, svq, r.total, joined) && lane == q) r.action[s] = kDefer;
      }
      if (in_run != 0xffffffffu) break;
    }
  }
}

// ---- 4. lists -------------------------------------------------------------------------------------

__global__ void store_length_kernel(Rounds r, Index m) { PGK_RB_FOR(s, m + 1) store_length(r, s, m); }
__global__ void store_entry_kernel(Rounds r, const Key *ukeys, const Weight *usums, Index count, Index m, int rbits) {
  PGK_RB_FOR(i, count) store_entry(r, ukeys, usums, i, m, rbits);
}
__global__ void store_meta_kernel(Rounds r, Index m) { PGK_RB_FOR(s, m) store_meta(r, s, m); }
__global__ void end_store_kernel(Rounds r, Index m) { end_store(r, m); }

__global__ void compact_length_kernel(Rounds r, Index *count) { PGK_RB_FOR(x, r.n + 1) compact_length(r, count, x); }
// One warp per vertex: a live list's entries copied by the lanes.
__global__ void compact_copy_kernel(Rounds r, const Index *offset, Index *to_root, Weight *to_w) {
  const int lane = threadIdx.x % 32;
  PGK_RB_FOR_WARP(x, r.n) {
    if (!list_live(r, x)) continue;
    for (Index k = lane; k < r.list_len[x]; k += 32) compact_entry(r, offset, to_root, to_w, x, k);
  }
}
__global__ void compact_meta_kernel(Rounds r, const Index *offset) { PGK_RB_FOR(x, r.n) compact_meta(r, offset, x); }
__global__ void end_compact_kernel(Rounds r, const Index *offset) { end_compact(r, offset); }

// ---- 5. apply -------------------------------------------------------------------------------------

__global__ void chain_init_kernel(Rounds r, Index *next, Index *final_root, Index m) {
  PGK_RB_FOR(s, m) chain_init(r, next, final_root, s);
}
__global__ void chain_jump_kernel(const Index *next_in, const Index *final_in, Index *next_out, Index *final_out,
                                  Index m) {
  PGK_RB_FOR(s, m) chain_jump(next_in, final_in, next_out, final_out, s);
}
__global__ void apply_merge_kernel(Rounds r, const Index *next, const Index *final_root, Index m) {
  PGK_RB_FOR(s, m) apply_merge(r, next, final_root, s);
}
__global__ void move_root_kernel(Rounds r, const Index *final_root) { PGK_RB_FOR(y, r.n) move_root(r, final_root, y); }
__global__ void defer_flag_kernel(Rounds r, Index m) { PGK_RB_FOR(s, m + 1) defer_flag(r, s, m); }
__global__ void finish_slot_kernel(Rounds r, Index round_no, Index m) { PGK_RB_FOR(s, m) finish_slot(r, s, round_no); }
__global__ void end_round_kernel(Rounds r) { end_round(r); }

} // namespace pgk::cuda::rabbitpp_detail
