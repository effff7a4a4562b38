// The large-row path of the device batch RCM (paper Sec. V-B; internal to batch.cu): a batch
// that is one parent whose row is longer than the shared-memory scratch T. Batches are formed so
// that only such a parent can exceed the scratch (a long vertex always gets a batch of its own),
// so the path works on one row and the children's order is (valence, position in the row).
//
// The row is read again for every pass instead of being buffered (no memory beyond the
// ordering). Ownership is re-derived on each pass: a child belongs to this batch iff its mark is
// still this batch's code for that slot, which is final once the batch has received Discovered.
//   * children that fit the scratch: one gather pass, a block sort, written;
//   * otherwise a 128-bin valence histogram over [min, max], the bins below and above the mean
//     each covering half of it (the paper's remapping of the mean to the middle bin); bins are
//     worked off from the smallest valence up, consecutive bins combined while they fit the
//     scratch; a bin that does not fit gets a histogram of its own (recursion, 64x narrower per
//     level), and a bin of a single valence is copied straight from the row into the ordering
//     in row order, which is already its final order.
#pragma once

#include "kernels/batchrcm/batch_chain.cuh"

namespace pgk::cuda::rcm_detail {

struct RowView {
  const ChainParams &P;
  Index rb, r; // the row: colidx[rb, rb + r)
  u64 code;    // batch << 32; slot i claims with slot_code(code, i)

  __device__ Index valence(Index c) const { return P.count_diagonal ? P.rowptr[c + 1] - P.rowptr[c] : P.valence[c]; }
  // Edges of this thread in tile i0 (blocked: consecutive edges per thread, so the order of
  // (thread, item) is the order in the row). own[q] false for edges owned by other batches.
  __device__ void load(Index i0, Index (&c)[kRowItems], bool (&own)[kRowItems], Index (&v)[kRowItems]) const {
    const Index t0 = i0 + static_cast<Index>(threadIdx.x) * kRowItems;
#pragma unroll
    for (int q = 0; q < kRowItems; ++q) {
      const Index i = t0 + q;
      own[q] = false;
      v[q] = 0;
      c[q] = 0;
      if (i < r) {
        c[q] = P.colidx[rb + i];
        own[q] = load_relaxed(P.mark[c[q]]) == slot_code(code, static_cast<u64>(i));
      }
    }
#pragma unroll
    for (int q = 0; q < kRowItems; ++q)
      if (own[q]) v[q] = valence(c[q]);
  }
};

// Ordered compaction of the owned children with valence in [lo, hi]: to the scratch (cnode,
// cval), or straight into the ordering at perm[out ...]. Returns the count.
template <class Smem>
__device__ inline u32 gather_range(const RowView &row, Smem &sm, Index lo, Index hi, bool to_scratch, Index out) {
  const ChainParams &P = row.P;
  u64 written = 0;
  for (Index i0 = 0; i0 < row.r; i0 += static_cast<Index>(kBlock) * kRowItems) {
    Index c[kRowItems], v[kRowItems];
    bool own[kRowItems];
    row.load(i0, c, own, v);
    u32 mine = 0;
#pragma unroll
    for (int q = 0; q < kRowItems; ++q) {
      own[q] = own[q] && v[q] >= lo && v[q] <= hi;
      mine += own[q];
    }
    u32 pos, total;
    CountScan(sm.tmp.cnt).ExclusiveSum(mine, pos, total);
#pragma unroll
    for (int q = 0; q < kRowItems; ++q) {
      if (!own[q]) continue;
      const u64 at = written + pos++;
      if (to_scratch) {
        if (at < Smem::kT) {
          sm.cnode[at] = c[q];
          sm.cval[at] = v[q];
        }
      } else {
        P.perm[out + static_cast<Index>(at)] = c[q];
      }
    }
    written += total;
    __syncthreads(); // scan storage reused by the next tile
  }
  return static_cast<u32>(written);
}

// Children with valence in [lo, hi] (at most T of them) into perm[out ...], sorted.
template <class Smem>
__device__ inline void chunk_to_ordering(const RowView &row, Smem &sm, Index lo, Index hi, Index out) {
  const u32 m = gather_range(row, sm, lo, hi, true, 0);
  if (m > row.P.T) { // the histogram counted fewer: impossible unless marks changed
    if (threadIdx.x == 0) raise_error(row.P, kInternal, sm.bc.id, 4, m);
    return;
  }
  sort_children(sm, m, false, lo, bit_width(static_cast<u64>(hi - lo)), 0);
  for (u32 k = threadIdx.x; k < m; k += kBlock) row.P.perm[out + static_cast<Index>(k)] = sm.cnode[sm.cpar[k]];
  __syncthreads();
}

// Bin arithmetic of a level, in 64-bit so that wide valence ranges cannot overflow.
struct Bins {
  long long lo, split, hi, w_lo, w_hi;
  __device__ explicit Bins(const Level &L) : lo(L.lo), split(L.split), hi(L.hi) {
    w_lo = (split - lo) / (kBins / 2) + 1;
    w_hi = hi > split ? (hi - split - 1) / (kBins / 2) + 1 : 1;
  }
  __device__ int bin(long long v) const {
    return v <= split ? static_cast<int>((v - lo) / w_lo) : kBins / 2 + static_cast<int>((v - split - 1) / w_hi);
  }
  __device__ void range(int j, long long &a, long long &b) const {
    if (j < kBins / 2) {
      a = lo + j * w_lo;
      b = a + w_lo - 1 < split ? a + w_lo - 1 : split;
    } else {
      a = split + 1 + (j - kBins / 2) * w_hi;
      b = a + w_hi - 1 < hi ? a + w_hi - 1 : hi;
    }
  }
};

// Thread 0 sets up level lv[depth]; then the whole block counts its bins.
template <class Smem>
__device__ inline void push_level(const RowView &row, Smem &sm, Index lo, Index hi, Index split, Index out) {
  if (threadIdx.x == 0) {
    Level &L = sm.u.lv[sm.bc.depth];
    L.lo = lo;
    L.hi = hi;
    L.split = split;
    L.out = out;
    L.cursor = 0;
  }
  __syncthreads();
  Level &L = sm.u.lv[sm.bc.depth];
  for (int j = threadIdx.x; j < kBins; j += kBlock) L.cnt[j] = 0;
  __syncthreads();
  const Bins bins(L);
  for (Index i0 = 0; i0 < row.r; i0 += static_cast<Index>(kBlock) * kRowItems) {
    Index c[kRowItems], v[kRowItems];
    bool own[kRowItems];
    row.load(i0, c, own, v);
#pragma unroll
    for (int q = 0; q < kRowItems; ++q)
      if (own[q] && v[q] >= lo && v[q] <= hi) atomicAdd(&L.cnt[bins.bin(v[q])], 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) ++sm.bc.depth;
  __syncthreads();
}

enum Task : int { kTaskNone, kTaskChunk, kTaskCopy, kTaskPush };

// Writes the m > T owned children, valences in [vmin, vmax] with sum vsum, to perm[out ...].
template <class Smem>
__device__ inline void histogram_sort(const RowView &row, Smem &sm, Index vmin, Index vmax, u64 vsum, u64 m, Index out,
                                      u64 &passes) {
  const ChainParams &P = row.P;
  if (threadIdx.x == 0) sm.bc.depth = 0;
  __syncthreads();
  // vmin < vmax here: with one valence the children would be a direct copy.
  Index mean = static_cast<Index>(vsum / m);
  mean = mean < vmin ? vmin : (mean >= vmax ? vmax - 1 : mean);
  push_level(row, sm, vmin, vmax, mean, out);
  ++passes;
  for (;;) {
    if (threadIdx.x == 0) {
      Bcast &bc = sm.bc;
      bc.task = kTaskNone;
      Level &L = sm.u.lv[bc.depth - 1];
      while (L.cursor < kBins && L.cnt[L.cursor] == 0) ++L.cursor;
      if (aborted(P)) {
        bc.depth = 0; // stop; the error is reported by whoever raised it
      } else if (L.cursor == kBins) {
        --bc.depth; // level worked off
      } else {
        const Bins bins(L);
        long long a, b;
        bins.range(static_cast<int>(L.cursor), a, b);
        bc.t_out = L.out;
        if (L.cnt[L.cursor] <= P.T) {
          // The paper's chunking: as many consecutive small bins as fit the scratch.
          u64 sum = 0;
          u32 j = L.cursor;
          while (j < kBins && sum + L.cnt[j] <= P.T) sum += L.cnt[j++];
          long long a2, b2;
          bins.range(static_cast<int>(j - 1), a2, b2);
          bc.task = kTaskChunk;
          bc.t_lo = static_cast<Index>(a);
          bc.t_hi = static_cast<Index>(b2);
          L.cursor = j;
          L.out += static_cast<Index>(sum);
        } else {
          bc.task = a == b ? kTaskCopy : kTaskPush;
          bc.t_lo = static_cast<Index>(a);
          bc.t_hi = static_cast<Index>(b);
          L.out += static_cast<Index>(L.cnt[L.cursor]);
          ++L.cursor;
          if (bc.task == kTaskPush && bc.depth >= kMaxDepth) {
            raise_error(P, kInternal, bc.id, 5, bc.depth);
            bc.task = kTaskNone;
            bc.depth = 0;
          }
        }
      }
    }
    __syncthreads();
    const int task = sm.bc.task;
    const Index lo = sm.bc.t_lo, hi = sm.bc.t_hi, at = sm.bc.t_out;
    const int depth = sm.bc.depth;
    __syncthreads(); // everyone has read the task before it can change
    if (task == kTaskNone && depth == 0) break;
    if (task == kTaskChunk) chunk_to_ordering(row, sm, lo, hi, at);
    else if (task == kTaskCopy) gather_range(row, sm, lo, lo, false, at);
    else if (task == kTaskPush) push_level(row, sm, lo, hi, lo + (hi - lo) / 2, at);
    if (task != kTaskNone) ++passes;
  }
}

// Discovery, count and output of a large-row batch. The signalling is the paper's, without
// speculation past the marking: the children are only rechecked once Discovered has arrived.
// Leaves sums in bc and the ordered children at perm[out_offset ...].
template <class Smem> __device__ inline void big_batch(const ChainParams &P, Smem &sm, u32 &sent, u64 *ctr) {
  const RowView row{P, sm.bc.rb, sm.bc.rlen, sm.bc.id << 32};
  if (static_cast<long long>(row.r) >= 0xffffffffll) { // slot + 1 must fit the low half of the mark
    if (threadIdx.x == 0) {
      raise_error(P, kRowTooLong, sm.bc.id, static_cast<u64>(row.r), 0);
      sm.bc.quit = 1;
    }
    __syncthreads();
    return;
  }
  for (Index i = threadIdx.x; i < row.r; i += kBlock)
    atomicMin(&P.mark[P.colidx[row.rb + i]], slot_code(row.code, static_cast<u64>(i)));
  __syncthreads();
  if (threadIdx.x == 0) {
    stress_pause(P, sm.bc.id, 1);
    sm.bc.mid = signal_of(P, sm.bc.id);
    ++ctr[sm.bc.early >= kDiscovered ? kStatWithoutRediscovery
                                     : (sm.bc.mid >= kDiscovered ? kStatBeforeSort : kStatAfterSort)];
    ++ctr[kStatBig];
    if (wait_signal(P, sm, kDiscovered, 1)) send_monotone(P, sm, kDiscovered, sent);
  }
  if (synced_quit(sm)) return;

  // Count pass: the exact children and their sums.
  Acc mine = acc_zero();
  for (Index i0 = 0; i0 < row.r; i0 += static_cast<Index>(kBlock) * kRowItems) {
    Index c[kRowItems], v[kRowItems];
    bool own[kRowItems];
    row.load(i0, c, own, v);
#pragma unroll
    for (int q = 0; q < kRowItems; ++q)
      if (own[q]) acc_add(mine, P.rowptr[c[q] + 1] - P.rowptr[c[q]], v[q], P.T);
  }
  Acc ignored, total;
  AccScan(sm.tmp.acc).ExclusiveScan(mine, ignored, acc_zero(), AccOp(), total);
  if (threadIdx.x == 0) {
    ++ctr[kStatPasses];
    sm.bc.sums = total;
    stress_pause(P, sm.bc.id, 2);
    Payload in;
    if (wait_counted(P, sm, in, 2)) count_batch(P, sm, in);
  }
  if (synced_quit(sm)) return;

  const u64 m = sm.bc.sums.cnt;
  if (m == 0) return;
  u64 passes = 0;
  if (m <= P.T) {
    chunk_to_ordering(row, sm, sm.bc.sums.vmin, sm.bc.sums.vmax, sm.bc.out_offset);
    passes = 1;
  } else if (sm.bc.sums.vmin == sm.bc.sums.vmax) {
    gather_range(row, sm, sm.bc.sums.vmin, sm.bc.sums.vmin, false, sm.bc.out_offset);
    passes = 1;
  } else {
    histogram_sort(row, sm, sm.bc.sums.vmin, sm.bc.sums.vmax, sm.bc.sums.vsum, m, sm.bc.out_offset, passes);
  }
  if (threadIdx.x == 0) ctr[kStatPasses] += passes;
  __syncthreads();
}

} // namespace pgk::cuda::rcm_detail
