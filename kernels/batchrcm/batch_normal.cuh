// The normal path of the device batch RCM (internal to batch.cu): a batch whose parents' rows
// fit the shared-memory scratch. Its phases (discover, recheck, sort, rediscover, count, write;
// see batch.cu) are the helpers below, forced inline into normal_batch: the persistent kernel
// stays one function. The recheck stays in normal_batch itself: split out as well, it made
// ptxas spill 32 more bytes in the kernel (the kernel runs at its 128-register cap), while with
// this split the generated code has the instructions and the register, stack and spill counts of
// the unsplit function (checked on the PTX and ptxas -v, 32- and 64-bit indices).
#pragma once

#include "kernels/batchrcm/batch_chain.cuh"

namespace pgk::cuda::rcm_detail {

// Parent j owning slot i: the last j with off[j] <= i.
template <class Smem> __device__ __forceinline__ u32 find_parent(const Smem &sm, u32 np, u32 i) {
  u32 lo = 0, hi = np - 1;
  while (lo < hi) {
    const u32 mid = (lo + hi + 1) / 2;
    if (sm.u.par.off[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Discover: every slot claims its child (striped slots, so neighbouring threads read
// neighbouring entries of a row); the candidates go to the scratch in slot order. Then thread 0
// learns whether the predecessor had signalled Discovered (sm.bc.mid; then the children are
// exact) and passes Discovered on if so.
template <class Smem>
__device__ __forceinline__ void discover(const ChainParams &P, Smem &sm, u32 &sent, u64 *ctr, u64 code, u32 np,
                                         u32 nslots) {
  constexpr int kItems = Smem::kItems;
  const u32 t = threadIdx.x;
  Index c[kItems];
  bool cand[kItems];
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 i = t + q * kBlock;
    c[q] = -1;
    if (i < nslots) {
      const u32 j = find_parent(sm, np, i);
      sm.cpar[i] = static_cast<u16>(j);
      c[q] = P.colidx[sm.u.par.rb[j] + static_cast<Index>(i - sm.u.par.off[j])];
    }
  }
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u64 mine = slot_code(code, t + q * kBlock);
    cand[q] = c[q] >= 0 && atomicMin(&P.mark[c[q]], mine) > mine;
  }
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 i = t + q * kBlock;
    if (i >= nslots) continue;
    Index node = -1, v = 0, r = 0;
    if (cand[q]) {
      node = c[q];
      r = P.rowptr[node + 1] - P.rowptr[node];
      v = P.count_diagonal ? r : P.valence[node];
    }
    sm.cnode[i] = node;
    sm.cval[i] = v;
    sm.cw[i] = static_cast<u16>(r > static_cast<Index>(P.T) ? P.T + 1 : r);
  }
  __syncthreads(); // every claim of this batch is made

  if (t == 0) {
    stress_pause(P, sm.bc.id, 1);
    sm.bc.mid = signal_of(P, sm.bc.id);
    ++ctr[sm.bc.early >= kDiscovered ? kStatWithoutRediscovery
                                     : (sm.bc.mid >= kDiscovered ? kStatBeforeSort : kStatAfterSort)];
    if (sm.bc.mid >= kDiscovered) send_monotone(P, sm, kDiscovered, sent); // our marks are placed
  }
  __syncthreads();
}

// Late rediscovery (children not exact yet), step 1: thread 0 waits for Discovered and passes
// it on.
template <class Smem> __device__ __forceinline__ void await_discovered(const ChainParams &P, Smem &sm, u32 &sent) {
  if (threadIdx.x == 0) {
    stress_pause(P, sm.bc.id, 3);
    if (wait_signal(P, sm, kDiscovered, 4)) send_monotone(P, sm, kDiscovered, sent);
  }
}

// Step 2: rechecks the m sorted children, which are trimmed on output (that keeps each parent's
// run sorted). valid: this thread's kept ranks (bit q: rank t*kItems + q); first_out: its first
// output position. Thread 0 stores the sums and counts the batch if the predecessor has.
template <class Smem>
__device__ __forceinline__ void rediscover(const ChainParams &P, Smem &sm, u64 code, u32 m, u32 &valid,
                                           u32 &first_out) {
  constexpr int kItems = Smem::kItems;
  const u32 t = threadIdx.x;
  Acc again = acc_zero();
  valid = 0;
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 rank = t * kItems + q;
    if (rank >= m) continue;
    const u32 idx = sm.cpar[rank];
    if (load_relaxed(P.mark[sm.cnode[idx]]) != slot_code(code, sm.cslot[idx])) continue;
    valid |= 1u << q;
    acc_add(again, sm.cw[idx], sm.cval[idx], P.T);
  }
  Acc kept_before, kept;
  AccScan(sm.tmp.acc).ExclusiveScan(again, kept_before, acc_zero(), AccOp(), kept);
  first_out = kept_before.cnt;
  if (t == 0) {
    sm.bc.sums = kept;
    Payload in;
    if (receive_payload(P, sm.bc.id, in)) count_batch(P, sm, in);
  }
}

// Writes the valid children of the m sorted ones to the ordering from first_out on, and keeps
// their weights, in output order, in cval for generation.
template <class Smem>
__device__ __forceinline__ void write_children(const ChainParams &P, Smem &sm, u32 m, u32 valid, u32 first_out) {
  constexpr int kItems = Smem::kItems;
  const u32 t = threadIdx.x;
  const Index offset = sm.bc.out_offset;
  Index wv[kItems];
  u32 p = first_out;
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 rank = t * kItems + q;
    wv[q] = 0;
    if (rank >= m || !(valid >> q & 1u)) continue;
    const u32 idx = sm.cpar[rank];
    P.perm[offset + static_cast<Index>(p++)] = sm.cnode[idx];
    wv[q] = sm.cw[idx];
  }
  __syncthreads(); // cw / cval reads done
  p = first_out;
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 rank = t * kItems + q;
    if (rank >= m || !(valid >> q & 1u)) continue;
    sm.cval[p++] = wv[q];
  }
  __syncthreads();
}

// A batch whose parents' rows fit the scratch: discover, recheck, sort, rediscover if needed,
// count, write. Leaves the children's weights in output order in cval.
template <class Smem, int kItems = Smem::kItems>
__device__ inline void normal_batch(const ChainParams &P, Smem &sm, u32 &sent, u64 *ctr, u32 np, u32 nslots) {
  const u32 t = threadIdx.x;
  const u64 code = sm.bc.id << 32;
  discover(P, sm, sent, ctr, code, np, nslots);
  const bool exact = sm.bc.mid >= kDiscovered;
  // Recheck and compact in slot order (blocked: thread t owns slots [t*kItems, ...)).
  Index nd[kItems], vv[kItems];
  u16 ww[kItems], pp[kItems], ss[kItems];
  u32 keep = 0;
  Acc acc = acc_zero();
#pragma unroll
  for (int q = 0; q < kItems; ++q) {
    const u32 i = t * kItems + q;
    nd[q] = vv[q] = 0;
    ww[q] = pp[q] = ss[q] = 0;
    if (i >= nslots) continue;
    const Index node = sm.cnode[i];
    if (node < 0 || load_relaxed(P.mark[node]) != slot_code(code, i)) continue;
    keep |= 1u << q;
    nd[q] = node;
    vv[q] = sm.cval[i];
    ww[q] = sm.cw[i];
    pp[q] = sm.cpar[i];
    ss[q] = static_cast<u16>(i);
    acc_add(acc, ww[q], vv[q], P.T);
  }
  Acc before, total;
  AccScan(sm.tmp.acc).ExclusiveScan(acc, before, acc_zero(), AccOp(), total);
  __syncthreads(); // all slots read before the in-place compaction
  {
    u32 pos = before.cnt;
#pragma unroll
    for (int q = 0; q < kItems; ++q) {
      if (!(keep >> q & 1u)) continue;
      sm.cnode[pos] = nd[q];
      sm.cval[pos] = vv[q];
      sm.cw[pos] = ww[q];
      sm.cpar[pos] = pp[q];
      sm.cslot[pos] = ss[q];
      ++pos;
    }
  }
  if (t == 0) {
    sm.bc.sums = total;
    if (exact) {
      stress_pause(P, sm.bc.id, 2);
      Payload in;
      if (receive_payload(P, sm.bc.id, in)) count_batch(P, sm, in); // early count: before sorting
    }
  }
  if (synced_quit(sm)) return;

  const u32 m = total.cnt;
  const int vbits = m ? bit_width(static_cast<u64>(total.vmax)) : 0;
  const int pbits = bit_width(np - 1);
  if (pbits + vbits > 64) { // valences beyond 2^56: cannot happen with real graphs
    if (t == 0) {
      raise_error(P, kInternal, sm.bc.id, 6, static_cast<u64>(total.vmax));
      sm.bc.quit = 1;
    }
    __syncthreads();
    return;
  }
  sort_children(sm, m, true, 0, vbits, pbits);

  u32 valid = ~0u, first_out = t * kItems; // all sorted children, unless rediscovered
  if (!exact) {
    await_discovered(P, sm, sent);
    if (synced_quit(sm)) return;
    rediscover(P, sm, code, m, valid, first_out);
    if (synced_quit(sm)) return;
  }
  if (t == 0 && !sm.bc.counted) {
    stress_pause(P, sm.bc.id, 5);
    Payload in;
    if (wait_counted(P, sm, in, 5)) count_batch(P, sm, in);
  }
  if (synced_quit(sm)) return;
  write_children(P, sm, m, valid, first_out);
}

} // namespace pgk::cuda::rcm_detail
