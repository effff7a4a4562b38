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
constexpr u32 kSlotsBound = 1u << 31; // flag in Slot::combine_smax

// The signal from a batch to the next one in the chain, in increasing strength (Alg. 5).
enum Signal : u32 {
  kEmpty = 0,
  kDiscovered = 1, // every earlier batch has finished marking
  kCounted = 2,    // offset, followup and incoming overhang are known
  kCompleted = 3,  // besides, every overhang chained into this batch is written
};

struct alignas(16) Slot {
  u64 signal;                                       // (id << 2) | Signal
  u32 published;                                    // id once in_begin / in_end / skip are written
  u32 free_for;                                     // the id that may use this slot next
  u32 followup;                                     // Counted payload: queue id of the first batch this one generates
  u32 combine_nodes, combine_slots, combine_weight; // Counted payload: incoming overhang
  u32 skip;                                         // empty batches reserved right after this one
  u32 combine_smax;       // Counted payload: the overhang's largest min(row length, T + 1), | kSlotsBound
                          // when combine_slots / combine_weight are upper bounds (a node-cut remainder)
  Index offset;           // Counted payload: where this batch's children go in the ordering
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

// Everything this block wrote before the caller's __syncthreads becomes visible to whoever
// acquires the signal: the fence makes thread 0's release cumulative over the block's writes.
// Without block_writes the signal only carries what thread 0 itself stored before it (the
// Counted payload), which the release alone orders; that saves a fence on the chain's
// critical path.
__device__ __forceinline__ void send_signal(const ChainParams &P, u64 to, u32 s, bool block_writes = true) {
  if (block_writes) __threadfence();
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
