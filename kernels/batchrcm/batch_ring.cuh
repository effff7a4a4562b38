// The batch records, the shared control block and the signalling chain of the device batch
// RCM (internal to batch.cu). Only thread 0 of a block touches these.
//
// Batch b lives in ring slot b % S. Who writes a slot: the batch that signals b (its
// predecessor: the signal word and the Counted payload) and the batch that generated b (the
// parent range and `published`). Every word carries the id it belongs to, so a value left by
// the slot's previous occupant b - S is never mistaken for one meant for b and no slot is ever
// reset. `free_for` names the id that may use the slot next; b sets it to b + S when it retires,
// and whoever is about to write slot b first waits for free_for == b. Every such wait is on an
// earlier batch (the queue-overflow check guarantees it), so the earliest unfinished batch can
// always move and the chain cannot deadlock while all blocks are resident.
//
// Deviation from the paper (documented in batch.cu): a batch knows from its record how many
// empty batches its generator reserved right after it (`skip`) and signals the first batch
// after them directly, so empty batches never sit in the signal chain.
#pragma once

#include "kernels/batchrcm/internal.cuh"
#include "kernels/common/atomics.cuh"

#include "src/common/csr.hpp"

namespace pgk::cuda::rcm_detail {

constexpr u32 kNoId = ~0u;
// The signal word from a batch to the next one in the chain (Alg. 5). Counted travels apart,
// as the tagged Counted payload below.
enum Signal : u32 {
  kEmpty = 0,
  kDiscovered = 1, // every earlier batch has finished marking
  kCompleted = 3,  // every overhang chained into this batch is written (and Discovered)
};

// The Counted payload (where the children go, the first id this batch generates, the incoming
// overhang) in words that each carry, in their high half, the id they are meant for. The
// receiver polls until every word names it, so the sender needs neither an order among the
// words nor a fence before them: one hop of the chain costs the stores' way to L2 and one poll,
// not a fence and a second round trip. Nothing else is read on the strength of Counted.
//   followup: the id;  offset: its low and (64-bit Index) high half;
//   combine:  nodes (bits 0-10), smax (11-23), kPayBound, kPayCompleted;  weights: slots | weight << 16
constexpr u32 kPayBound = 1u << 24;     // the overhang's slots and weight are upper bounds
constexpr u32 kPayCompleted = 1u << 25; // nothing pending: the sender counts as Completed
struct PayloadWords {
  u64 followup, offset_lo, offset_hi, combine, weights;
};

struct alignas(16) Slot {
  u64 signal;       // (id << 2) | Signal
  PayloadWords pay; // Counted payload, tagged
  u32 published;    // id once in_begin / in_end / skip are written
  u32 free_for;     // the id that may use this slot next
  u32 skip;         // empty batches reserved right after this one
  u32 pad;
  Index in_begin, in_end; // parents: perm[in_begin, in_end)
};

enum ErrorCode : int {
  kOk = 0,
  kQueueOverflow = 1, // a = batch, b = slots needed ahead of it, c = ring size
  kRootsShort = 2,    // a = vertices reached
  kRootOrdered = 3,   // a = root
  kTimeout = 4,       // a = batch, b = where
  kInternal = 5,      // a = batch, b = what, c = value
  kIdOverflow = 6,    // a = batch
  kRowTooLong = 7,    // a = batch, b = row length
};

enum Stat : int {
  kStatExecuted,
  kStatWithoutRediscovery,
  kStatBeforeSort,
  kStatAfterSort,
  kStatForwarding,
  kStatDropped,
  kStatEmpty,
  kStatBig,
  kStatPasses,
  kNumStats
};

struct Control {
  u64 next_ticket;
  u32 end_id; // the batch whose output completed the ordering; kNoId until then
  int abort;
  int error;
  int pad;
  u64 err_a, err_b, err_c;
  u64 next_root; // index of the next root to seed
  u64 stat[kNumStats];
};

struct ChainParams {
  Index n;
  const Index *rowptr, *colidx, *valence;
  bool count_diagonal;
  u32 B, T;
  bool node_cut; // rcm::GpuBatchCut::Nodes (batch_chain.cuh)
  u64 S;         // ring slots
  Slot *ring;
  u64 *mark; // slot_code of the smallest claim (see slot_code); ~0 unclaimed
  Index *perm;
  const Index *roots, *root_offset;
  Index *comp_begin;
  u64 nroots;
  Index chain_end;
  Control *ctl;
  u64 watchdog_ns;
  u64 stress;
};

__device__ __forceinline__ Slot &slot_of(const ChainParams &P, u64 id) { return P.ring[id % P.S]; }

// The mark a batch's slot claims with: (batch << 32) | (slot + 1). A root is marked
// (batch << 32) when its batch is seeded, strictly below every code of its own batch, so the
// root never counts as its own child (a stored diagonal in the root's row) on either path.
__device__ __forceinline__ u64 slot_code(u64 batch_base, u64 slot) { return batch_base | (slot + 1); }

// First error wins; everybody stops at their next wait.
__device__ inline void raise_error(const ChainParams &P, int code, u64 a, u64 b, u64 c) {
  if (atomicCAS(&P.ctl->error, 0, code) == 0) {
    P.ctl->err_a = a;
    P.ctl->err_b = b;
    P.ctl->err_c = c;
  }
  __threadfence();
  store_release(P.ctl->abort, 1);
}

__device__ __forceinline__ bool aborted(const ChainParams &P) { return load_relaxed(P.ctl->abort) != 0; }

// One spin of a wait. False when the wait must be given up: the run was aborted, batch `id`
// lies past the end of the ordering (nothing it waits for will come), or the watchdog fired.
struct Spin {
  u64 start = 0;
  u32 sleep_ns = 0;
  u32 rounds = 0;
  __device__ bool again(const ChainParams &P, u64 id, int where) {
    if (aborted(P)) return false;
    const u32 end = load_relaxed(P.ctl->end_id);
    if (end != kNoId && id > end) return false;
    if (rounds == 0) start = global_ns();
    if (++rounds % 256 == 0 && global_ns() - start > P.watchdog_ns) {
      raise_error(P, kTimeout, id, static_cast<u64>(where), 0);
      return false;
    }
    // Short back-off: a signal usually arrives within a microsecond and the chain's speed is
    // the latency of passing it on.
    if (sleep_ns) __nanosleep(sleep_ns);
    sleep_ns = sleep_ns == 0 ? 32 : (sleep_ns < 128 ? 2 * sleep_ns : 128);
    return true;
  }
};

__device__ __forceinline__ u32 signal_of(const ChainParams &P, u64 id) {
  const u64 v = load_acquire(slot_of(P, id).signal);
  return (v >> 2) == id ? static_cast<u32>(v & 3u) : kEmpty;
}

// The Counted payload as received.
struct Payload {
  Index offset;   // where the batch's children go in the ordering
  u64 followup;   // queue id of the first batch it generates
  u32 cn, cs, cw; // incoming overhang: vertices, slots, weight
  u32 smax;       // the overhang's largest min(row length, T + 1)
  bool bound;     // cs / cw are upper bounds (a node-cut remainder)
  bool completed; // the sender had nothing pending: no wait for Completed
};

// The largest overhang fields the words hold (PayloadWords: combine's and weights' bit fields).
constexpr u32 kPayMaxNodes = 0x7ff, kPayMaxSmax = 0x1fff, kPayMaxSlots = 0xffff, kPayMaxWeight = 0xffff;

__device__ __forceinline__ u64 tagged(u64 id, u64 v) { return (id << 32) | (v & 0xffffffffull); }

// Relaxed stores, no fence (see PayloadWords). Fields must fit their bits (send_counted checks).
__device__ __forceinline__ void send_payload(const ChainParams &P, u64 to, const Payload &p) {
  PayloadWords &w = slot_of(P, to).pay;
  const u64 off = static_cast<u64>(p.offset);
  store_relaxed(w.offset_lo, tagged(to, off));
  if (sizeof(Index) > 4) store_relaxed(w.offset_hi, tagged(to, off >> 32));
  store_relaxed(w.followup, tagged(to, p.followup));
  store_relaxed(w.weights, tagged(to, p.cs | (static_cast<u64>(p.cw) << 16)));
  store_relaxed(w.combine, tagged(to, p.cn | (static_cast<u64>(p.smax) << 11) | (p.bound ? kPayBound : 0u) |
                                          (p.completed ? kPayCompleted : 0u)));
}

// False until every word of batch id's payload has arrived.
__device__ __forceinline__ bool receive_payload(const ChainParams &P, u64 id, Payload &p) {
  const PayloadWords &w = slot_of(P, id).pay;
  const u64 lo = load_relaxed(w.offset_lo), fu = load_relaxed(w.followup);
  const u64 we = load_relaxed(w.weights), co = load_relaxed(w.combine);
  const u64 hi = sizeof(Index) > 4 ? load_relaxed(w.offset_hi) : id << 32;
  if (((lo ^ fu) | (lo ^ we) | (lo ^ co) | (lo ^ hi)) >> 32 || (lo >> 32) != id) return false;
  p.offset = static_cast<Index>((lo & 0xffffffffull) | (sizeof(Index) > 4 ? (hi & 0xffffffffull) << 32 : 0));
  p.followup = fu & 0xffffffffull;
  p.cs = static_cast<u32>(we & kPayMaxSlots);
  p.cw = static_cast<u32>((we >> 16) & kPayMaxWeight);
  const u32 c = static_cast<u32>(co);
  p.cn = c & kPayMaxNodes;
  p.smax = (c >> 11) & kPayMaxSmax;
  p.bound = (c & kPayBound) != 0;
  p.completed = (c & kPayCompleted) != 0;
  return true;
}

// Everything this block wrote before the caller's __syncthreads becomes visible to whoever
// acquires the signal: the fence makes thread 0's release cumulative over the block's writes
// (Discovered: the marks; Completed: the overhang's entries). The Counted payload, which needs
// no fence, travels apart (send_payload).
__device__ __forceinline__ void send_signal(const ChainParams &P, u64 to, u32 s) {
  __threadfence();
  store_release(slot_of(P, to).signal, (to << 2) | s);
}

__device__ __forceinline__ bool is_published(const ChainParams &P, u64 id) {
  return load_acquire(slot_of(P, id).published) == static_cast<u32>(id);
}
__device__ __forceinline__ bool is_free_for(const ChainParams &P, u64 id) {
  return load_acquire(slot_of(P, id).free_for) == static_cast<u32>(id);
}

// Waits until slot `id` is free, writes the parent range and publishes it. `waiter` is the
// batch doing it (the one whose abandonment ends the wait).
__device__ inline bool publish(const ChainParams &P, u64 waiter, u64 id, Index begin, Index end, u32 skip) {
  Spin spin;
  while (!is_free_for(P, id))
    if (!spin.again(P, waiter, 10)) return false;
  Slot &s = slot_of(P, id);
  store_relaxed(s.in_begin, begin);
  store_relaxed(s.in_end, end);
  store_relaxed(s.skip, skip);
  __threadfence();
  store_release(s.published, static_cast<u32>(id));
  return true;
}

__device__ __forceinline__ void retire(const ChainParams &P, u64 id) {
  __threadfence();
  store_release(slot_of(P, id).free_for, static_cast<u32>(id + P.S));
}

// rcm::CpuTuning::stress_seed analogue: a pause chosen by hashing (seed, batch, point).
__device__ inline void stress_pause(const ChainParams &P, u64 id, u64 point) {
  if (!P.stress) return;
  u64 h = P.stress ^ (id * 0x9e3779b97f4a7c15ull) ^ (point * 0xbf58476d1ce4e5b9ull);
  h = (h ^ (h >> 31)) * 0x94d049bb133111ebull;
  h ^= h >> 29;
  if ((h & 3u) == 0) __nanosleep(static_cast<u32>((h >> 8) & 8191u)); // up to ~8 us
}

} // namespace pgk::cuda::rcm_detail
