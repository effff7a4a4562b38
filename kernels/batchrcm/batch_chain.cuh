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
template <class Smem> __device__ inline bool wait_signal(const ChainParams &P, Smem &sm, u32 s, int where) {
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
template <class Smem> __device__ __forceinline__ bool synced_quit(Smem &sm) {
  __syncthreads();
  const bool q = sm.bc.quit != 0;
  __syncthreads();
  return q;
}

template <class Smem> __device__ __forceinline__ void send_monotone(const ChainParams &P, Smem &sm, u32 s, u32 &sent) {
  if (s <= sent) return; // a weaker signal after a stronger one would undo it
  send_signal(P, sm.bc.target, s);
  sent = s;
}

// This batch's component is exhausted (no output, nothing reserved after it): the next root
// becomes batch `target`, set up like batch 0 (its parent range is the root alone).
template <class Smem> __device__ inline bool seed_next_component(const ChainParams &P, Smem &sm, Index offset) {
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
  Payload first{};
  first.offset = at + 1;
  first.followup = s + 1;
  first.completed = true;
  send_payload(P, s, first);
  return publish(P, sm.bc.id, s, at, at + 1, 0);
}

// What a batch passes on, or generates from: the incoming overhang plus its own children.
struct Pending {
  u64 nodes, weight, slots; // weight and slots exact unless bound
  u32 smax;                 // the largest min(row length, T + 1) among them
  bool bound;               // weight / slots are upper bounds (they hold a node-cut remainder)
};

// Sends the next batch its Counted payload: where its children go, its first generated id and
// the overhang o it receives (none: completed). False (an internal error) if o does not fit the
// payload's bits, which the forwarding rules exclude (an overhang holds fewer than B vertices
// and fewer than T slots).
__device__ __forceinline__ bool send_counted(const ChainParams &P, Bcast &bc, Index offset, u64 followup,
                                             const Pending &o, bool completed) {
  if (o.nodes > kPayMaxNodes || o.slots > kPayMaxSlots || o.weight > kPayMaxWeight || o.smax > kPayMaxSmax) {
    raise_error(P, kInternal, bc.id, 9, o.nodes);
    bc.quit = 1;
    return false;
  }
  Payload p;
  p.offset = offset;
  p.followup = followup;
  p.cn = static_cast<u32>(o.nodes);
  p.cs = static_cast<u32>(o.slots);
  p.cw = static_cast<u32>(o.weight);
  p.smax = o.smax;
  p.bound = o.bound;
  p.completed = completed;
  send_payload(P, bc.target, p);
  return true;
}

// Thread 0: waits for this batch's Counted payload. False: abandoned.
template <class Smem> __device__ inline bool wait_counted(const ChainParams &P, Smem &sm, Payload &in, int where) {
  Spin spin;
  while (!receive_payload(P, sm.bc.id, in))
    if (!spin.again(P, sm.bc.id, where)) {
      sm.bc.quit = 1;
      return false;
    }
  return true;
}

// Node cut (GpuBatchCut::Nodes): when no row among o is longer than T and none has more than
// twice the mean slots, every generated batch holds exactly min(B, T / smax) parents, whatever
// the children's order, so the count is exact at Counted time (no empty batches) and the
// remainder of fewer parents can be forwarded while the full batches are generated. 0: the
// Walker's rule applies (irregular rows, long rows, or the option off).
__device__ __forceinline__ u64 node_cut_size(const ChainParams &P, const Pending &o) {
  if (!P.node_cut || o.nodes == 0 || o.smax > P.T) return 0;
  const u64 smax = o.smax ? o.smax : 1;
  if (smax * o.nodes > 2 * o.slots) return 0;
  const u64 cut = P.T / smax;
  return cut < P.B ? cut : P.B;
}

// How many batches o makes (0 with o.nodes > 0: forwarded whole), and the remainder a node cut
// forwards. can_forward: the next batch exists (it is reserved), so it can take an overhang.
__device__ __forceinline__ u64 batches_to_generate(const ChainParams &P, const Pending &o, u64 cut, bool can_forward,
                                                   u64 &rem) {
  rem = 0;
  if (cut) {
    rem = o.nodes % cut;
    if (rem && !can_forward) { // no next batch to take it: the last batch holds fewer
      rem = 0;
      return o.nodes / cut + 1;
    }
    return o.nodes / cut;
  }
  if (o.nodes > 0 && 2 * o.nodes < P.B && 2 * o.weight < P.T && can_forward)
    return 0; // too little for a batch of its own: forwarded whole, as the paper does
  // A bound overhang may close the Walker's first batch early: one batch more (reserve_batches).
  const u64 count = reserve_batches(o.nodes, o.weight, P.B, P.T) + (o.bound && o.nodes ? 1 : 0);
  return count < o.nodes ? count : o.nodes;
}

// The generation's ids [followup, next_followup): checked against the ring and the id range.
__device__ inline bool reserve_ids(const ChainParams &P, Bcast &bc, u64 next_followup) {
  // Every id up to next_followup - 1 now exists; its slot's previous occupant must be older
  // than this batch, or this batch could wait on a batch that waits on it.
  if (next_followup - bc.id > P.S) {
    raise_error(P, kQueueOverflow, bc.id, next_followup - bc.id, P.S);
    bc.quit = 1;
    return false;
  }
  if (next_followup + P.S >= static_cast<u64>(kNoId)) { // ids and free_for stay below 2^32 - 1
    raise_error(P, kIdOverflow, bc.id, next_followup, 0);
    bc.quit = 1;
    return false;
  }
  return true;
}

// signalCount: runs once, as soon as the children are exact and the predecessor has counted.
// Takes this batch's Counted payload `in` and then either forwards everything as an overhang,
// or generates its full batches and forwards the remainder (node cut), or generates all of it
// (the next batch's payload then says completed). The payload is sent in every case; Completed
// follows on the signal word once an overhang passed on is written (finish_batch).
template <class Smem> __device__ inline void count_batch(const ChainParams &P, Smem &sm, const Payload &in) {
  Bcast &bc = sm.bc;
  const Index offset = in.offset;
  const u64 followup = in.followup;
  const u64 cn = in.cn, cs = in.cs, cw = in.cw;
  bc.counted = 1;
  bc.pred_completed = in.completed;
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
  Pending o;
  o.nodes = cn + bc.sums.cnt;
  o.weight = cw + bc.sums.w;
  o.slots = cs + bc.sums.s;
  o.smax = in.smax > bc.sums.smax ? in.smax : bc.sums.smax;
  o.bound = in.bound;
  const u64 cut = node_cut_size(P, o);
  u64 rem = 0;
  const u64 count = batches_to_generate(P, o, cut, followup > bc.target, rem);
  if (count == 0 && o.nodes > 0) {
    // Overhang: the next batch adds it to its first batch.
    bc.forwarded = 1;
    send_counted(P, bc, next_offset, followup, o, false);
    return;
  }
  bc.gen_first = followup;
  bc.gen_count = count;
  bc.gen_begin = offset - static_cast<Index>(cn);
  bc.gen_cn = static_cast<u32>(cn);
  bc.gen_cs = static_cast<u32>(cs);
  bc.gen_cut = static_cast<u32>(cut);
  const u64 next_followup = followup + count;
  if (!reserve_ids(P, bc, next_followup)) return;
  if (rem) {
    // The remainder (the last rem parents: this batch's last children, and the end of the
    // incoming overhang if it has fewer children than that) goes on; its weight and slots are
    // bounded by smax, the children's order being unknown before the sort.
    bc.split = static_cast<u32>(rem);
    const u64 w1 = o.smax ? o.smax : 1;
    const Pending r{rem, rem * w1, rem * o.smax, o.smax, true};
    send_counted(P, bc, next_offset, next_followup, r, false);
    return;
  }
  // Nothing forwarded: the next batch needs none of this block's writes. Seeding sends the
  // root's payload itself.
  if (next_followup == bc.target) {
    if (!seed_next_component(P, sm, next_offset)) bc.quit = 1;
    return;
  }
  send_counted(P, bc, next_offset, next_followup, Pending{0, 0, 0, 0, false}, true);
}

} // namespace pgk::cuda::rcm_detail
