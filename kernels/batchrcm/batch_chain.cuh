// The Counted step of a batch (paper Alg. 5, signalCount) and the seeding of the next
// component, run by thread 0 of the block holding the batch (internal to batch.cu).
#pragma once

#include "kernels/batchrcm/batch_block.cuh"

namespace pgk::cuda::rcm_detail {

// Ids to reserve for `nodes` vertices of total weight `weight` (weights min(max(r, 1), T)),
// enough for the Walker's rule in any order of the vertices. Proof: every batch but the last is
// closed either because it holds B vertices (at most floor((N-1)/B) such, since a vertex
// follows each) or because its slots plus the next vertex's row pass T; then its weight plus the
// next batch's weight exceeds T (a vertex longer than T weighs T and is alone), and summing over
// such batches counts each batch at most twice: at most floor(2W/(T+1)) of them. The paper
// reserves 2 x the ideal count, which the two limits together can exceed; this bound cannot be,
// and for node-limited batches (meshes) it is the ideal count or one more.
__device__ __forceinline__ u64 reserve_batches(u64 nodes, u64 weight, u64 B, u64 T) {
  if (nodes == 0) return 0;
  const u64 bound = (nodes - 1) / B + (2 * weight) / (T + 1) + 1;
  return bound < nodes ? bound : nodes;
}

// Thread 0: waits until this batch has received at least signal `s`. False: abandoned.
__device__ inline bool wait_signal(const ChainParams &P, Smem &sm, u32 s, int where) {
  Spin spin;
  while (signal_of(P, sm.bc.id) < s)
    if (!spin.again(P, sm.bc.id, where)) {
      sm.bc.quit = 1;
      return false;
    }
  return true;
}

// The block's view of `quit`, which thread 0 may set at any of its waits. The second barrier
// keeps thread 0 from setting it again before every thread has read it: a thread that read a
// later value would leave the block's barriers out of step.
__device__ __forceinline__ bool synced_quit(Smem &sm) {
  __syncthreads();
  const bool q = sm.bc.quit != 0;
  __syncthreads();
  return q;
}

__device__ __forceinline__ void send_monotone(const ChainParams &P, Smem &sm, u32 s, u32 &sent,
                                              bool block_writes = true) {
  if (s <= sent) return; // a weaker signal after a stronger one would undo it
  send_signal(P, sm.bc.target, s, block_writes);
  sent = s;
}

// This batch's component is exhausted (no output, nothing reserved after it): the next root
// becomes batch `target`, set up like batch 0 (its parent range is the root alone).
__device__ inline bool seed_next_component(const ChainParams &P, Smem &sm, Index offset) {
  const u64 j = load_relaxed(P.ctl->next_root);
  if (j >= P.nroots) {
    raise_error(P, kRootsShort, static_cast<u64>(offset), 0, 0);
    return false;
  }
  const Index root = P.roots[j];
  const Index at = P.root_offset ? P.root_offset[j] : offset;
  // Every batch up to this one has finished marking and none after it exists, so a mark here
  // can only come from an earlier component.
  if (load_relaxed(P.mark[root]) != ~0ull) {
    raise_error(P, kRootOrdered, static_cast<u64>(root), 0, 0);
    return false;
  }
  const u64 s = sm.bc.target;
  store_relaxed(P.ctl->next_root, j + 1);
  store_relaxed(P.mark[root], s << 32);
  store_relaxed(P.perm[at], root);
  store_relaxed(P.comp_begin[j], at);
  Slot &next = slot_of(P, s);
  store_relaxed(next.offset, at + 1);
  store_relaxed(next.followup, static_cast<u32>(s + 1));
  return publish(P, sm.bc.id, s, at, at + 1, 0);
}

// signalCount: runs once, as soon as the children are exact and the predecessor has counted.
// Reads this batch's Counted payload and either forwards the output as an overhang (Counted)
// or fixes the batches it will generate and lets the next batch go on (Completed).
__device__ inline void count_batch(const ChainParams &P, Smem &sm, u32 &sent) {
  Bcast &bc = sm.bc;
  const Slot &me = slot_of(P, bc.id);
  const Index offset = load_relaxed(me.offset);
  const u64 followup = load_relaxed(me.followup);
  const u64 cn = load_relaxed(me.combine_nodes);
  const u64 cs = load_relaxed(me.combine_slots);
  const u64 cw = load_relaxed(me.combine_weight);
  bc.counted = 1;
  bc.out_offset = offset;
  const Index next_offset = offset + static_cast<Index>(bc.sums.cnt);
  if (next_offset == P.chain_end) {
    // Early termination: the ordering is complete once this batch writes (Sec. IV-D).
    bc.is_end = 1;
    atomicMin(&P.ctl->end_id, static_cast<u32>(bc.id));
    return;
  }
  if (followup < bc.target) {
    raise_error(P, kInternal, bc.id, 3, followup);
    bc.quit = 1;
    return;
  }
  const u64 nodes = cn + bc.sums.cnt, weight = cw + bc.sums.w, slots = cs + bc.sums.s;
  Slot &next = slot_of(P, bc.target);
  if (nodes > 0 && 2 * nodes < P.B && 2 * weight < P.T && followup > bc.target) {
    // Overhang: too little for a batch of its own; the next batch (which exists, being
    // reserved) adds it to its first batch.
    bc.forwarded = 1;
    store_relaxed(next.offset, next_offset);
    store_relaxed(next.followup, static_cast<u32>(followup));
    store_relaxed(next.combine_nodes, static_cast<u32>(nodes));
    store_relaxed(next.combine_slots, static_cast<u32>(slots));
    store_relaxed(next.combine_weight, static_cast<u32>(weight));
    send_monotone(P, sm, kCounted, sent, false); // carries only thread 0's payload
    return;
  }
  const u64 count = reserve_batches(nodes, weight, P.B, P.T);
  bc.gen_first = followup;
  bc.gen_count = count;
  bc.gen_begin = offset - static_cast<Index>(cn);
  bc.gen_cn = static_cast<u32>(cn);
  bc.gen_cs = static_cast<u32>(cs);
  const u64 next_followup = followup + count;
  // Every id up to next_followup - 1 now exists; its slot's previous occupant must be older
  // than this batch, or this batch could wait on a batch that waits on it.
  if (next_followup - bc.id > P.S) {
    raise_error(P, kQueueOverflow, bc.id, next_followup - bc.id, P.S);
    bc.quit = 1;
    return;
  }
  if (next_followup + P.S >= static_cast<u64>(kNoId)) { // ids and free_for stay below 2^32 - 1
    raise_error(P, kIdOverflow, bc.id, next_followup, 0);
    bc.quit = 1;
    return;
  }
  store_relaxed(next.combine_nodes, 0u);
  store_relaxed(next.combine_slots, 0u);
  store_relaxed(next.combine_weight, 0u);
  if (next_followup == bc.target) {
    if (!seed_next_component(P, sm, next_offset)) {
      bc.quit = 1;
      return;
    }
  } else {
    store_relaxed(next.offset, next_offset);
    store_relaxed(next.followup, static_cast<u32>(next_followup));
  }
  // Nothing forwarded: the next batch needs none of this block's writes, only the payload that
  // thread 0 stored (seeding publishes with a fence of its own).
  send_monotone(P, sm, kCompleted, sent, false);
}

} // namespace pgk::cuda::rcm_detail
