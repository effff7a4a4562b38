// Device batch RCM (Mlakar, Winter, Parger, Steinberger, Sec. V): one persistent block per
// worker, one batch per block at a time. The life of batch b in its block:
//
//   dequeue        take the next ticket (queue id) and wait until b's generator published it;
//                  an empty batch is retired at once (its generator signals past it)
//   discover       every slot (parent j, edge e) of the batch claims its child with
//                  atomicMin(mark, b << 32 | slot + 1), slots in (parent, row position) order, so the
//                  smallest code is the serial first discovery, across and within batches
//   recheck        keep a candidate iff its mark is still its own code: drops children that a
//                  slot of this batch found first and, if b-1 had signalled Discovered by now,
//                  every child an earlier batch owns (then the children are exact)
//   sort           CUB block radix sort by (parent, valence), stable, so ties keep the row order
//   rediscover     otherwise wait for Discovered, recheck the sorted children, trim on output
//   count          signalCount (batch_chain.cuh): the next batch's Counted payload (overhang,
//                  batch count)
//   write          the children to the ordering
//   generate       cut overhang + children into the reserved batches and publish them
//
// Deviations from the paper, and why:
//  * Candidates go to fixed slots and compaction keeps slot order (the digest's advice), not an
//    atomicAdd, so ties are the row order on every run.
//  * Batch reservation: a bound that provably covers the batches made for any order of the
//    children (reserve_batches) instead of 2 x ideal, which the node and scratch limits together
//    can exceed; unused ids become empty batches as in the paper.
//  * Empty batches stay out of the signal chain: the last real batch of a generator signals the
//    first batch after the empties (Slot::skip). They are still dequeued and retired.
//  * A batch that generates nothing and received no overhang does not wait for Completed.
//  * Counted is not a signal but a payload of self-tagged words (batch_ring.cuh): no fence and
//    no second round trip on the chain's hop.
//  * Node cut (the default, rcm::GpuBatchCut::Nodes): where rows are of similar length, batches
//    of exactly min(B, T / longest row) parents, the remainder forwarded while the full batches
//    are generated: fuller batches, so fewer hops, and no empty reservations (batch_chain.cuh).
//  * Slot codes are slot + 1 (slot_code), so a seeded root, marked with its batch's bare id, is
//    never taken for its own child on the large-row path, which rechecks ownership by equality.
//  * B may go up to 512 (two parents per thread); by default 256 (the paper's) or 512 on wide BFS
//    levels (driver.cu).
//  * T, the scratch, may go up to 4096 entries (kernel template BlockSmem<4096>, 16 entries a
//    thread); by default 2048, or 4096 on wider BFS levels (driver.cu).
//  * The large-row path (batch_big.cuh) does not speculate past marking.
//  * Components: like the CPU backend, the batch that finds its component exhausted seeds the
//    next root; rcm_gpu orders single-vertex components directly, outside the chain.
#include "kernels/batchrcm/batch_big.cuh"
#include "kernels/batchrcm/batch_normal.cuh"
#include "kernels/batchrcm/internal.cuh"
#include "kernels/common/launch.cuh"

#include "src/batchrcm/batch.hpp" // rcm::BatchQueueOverflow, shared with the CPU backend

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pgk::cuda::rcm_detail {
namespace {

enum Action : int { kRun, kNext, kExit };

// Thread 0: takes the next ticket and waits until its batch is published and the slot it will
// signal is free.
template <class Smem> __device__ void dequeue(const ChainParams &P, Smem &sm, u64 *ctr) {
  Bcast &bc = sm.bc;
  bc.quit = 0;
  bc.counted = bc.is_end = bc.forwarded = bc.split = bc.pred_completed = 0;
  bc.gen_cut = 0;
  bc.gen_count = 0;
  bc.action = kExit;
  if (aborted(P)) return;
  const u64 id = atomicAdd(&P.ctl->next_ticket, 1ull);
  bc.id = id;
  Spin spin;
  while (!is_published(P, id))
    if (!spin.again(P, id, 0)) {
      // Past the end: the ordering is complete, and so is every later ticket (Sec. IV-D).
      if (!aborted(P)) ++ctr[kStatDropped];
      return;
    }
  const u32 end = load_relaxed(P.ctl->end_id);
  if (end != kNoId && id > end) {
    ++ctr[kStatDropped];
    return;
  }
  const Slot &s = slot_of(P, id);
  bc.in_begin = load_relaxed(s.in_begin);
  bc.in_end = load_relaxed(s.in_end);
  bc.skip = load_relaxed(s.skip);
  if (bc.in_begin == bc.in_end) { // reserved but not needed
    retire(P, id);
    ++ctr[kStatEmpty];
    bc.action = kNext;
    return;
  }
  bc.target = id + 1 + bc.skip;
  while (!is_free_for(P, bc.target))
    if (!spin.again(P, id, 3)) return;
  bc.early = signal_of(P, id);
  bc.action = kRun;
}

// The Walker's generation (warp 0 cuts, the block reads weights back when they are not in cval).
template <class Smem> __device__ void walk_generation(const ChainParams &P, Smem &sm, bool weights_in_smem) {
  const u32 t = threadIdx.x;
  const u64 id = sm.bc.id;
  const Index offset = sm.bc.out_offset;
  const u32 k = sm.bc.sums.cnt;
  Walker w;
  if (t < 32) {
    w.begin(sm.bc);
    if (t == 0) __threadfence(); // the children are visible before any batch names them
  }
  if (weights_in_smem) {
    if (t < 32) w.feed(P, id, sm.cval, k, offset);
  } else {
    for (u32 x0 = 0; x0 < k; x0 += Smem::kT) {
      const u32 len = k - x0 < static_cast<u32>(Smem::kT) ? k - x0 : Smem::kT;
      for (u32 x = t; x < len; x += kBlock) {
        const Index node = P.perm[offset + static_cast<Index>(x0 + x)];
        const Index r = P.rowptr[node + 1] - P.rowptr[node];
        sm.cval[x] = r > static_cast<Index>(P.T) ? P.T + 1 : r;
      }
      __syncthreads();
      if (t < 32) w.feed(P, id, sm.cval, len, offset + static_cast<Index>(x0));
      __syncthreads();
    }
  }
  if (t < 32) w.finish(P, id, offset + static_cast<Index>(k));
}

// After the output is written: Completed, then the new batches. weights_in_smem: the
// children's weights are in cval (normal path); otherwise they are read back in windows.
template <class Smem>
__device__ void finish_batch(const ChainParams &P, Smem &sm, u32 &sent, u64 *ctr, bool weights_in_smem) {
  const u32 t = threadIdx.x;
  if (synced_quit(sm)) return;
  if (sm.bc.is_end) { // nothing after this batch is needed
    if (t == 0) ++ctr[kStatExecuted];
    return;
  }
  // A node-cut remainder within this batch's own output is written now: the next batch may use
  // it. One that reaches into the incoming overhang waits for the predecessor's Completed too.
  if (t == 0 && sm.bc.split && sm.bc.split <= sm.bc.sums.cnt) send_monotone(P, sm, kCompleted, sent);
  // Completed guarantees that the overhangs chained into this batch are written: needed to pass
  // it on (forwarded or split) or to put them into batches (gen_cn > 0), not otherwise.
  if (t == 0 && (sm.bc.forwarded || (sm.bc.gen_count > 0 && sm.bc.gen_cn > 0))) {
    stress_pause(P, sm.bc.id, 6);
    if ((sm.bc.pred_completed || wait_signal(P, sm, kCompleted, 6)) && (sm.bc.forwarded || sm.bc.split))
      send_monotone(P, sm, kCompleted, sent); // no-op if sent above
  }
  if (synced_quit(sm)) return;
  if (!sm.bc.forwarded && sm.bc.gen_count > 0) {
    if (!sm.bc.gen_cut) {
      walk_generation(P, sm, weights_in_smem);
    } else if (t < 32) {
      if (t == 0) __threadfence(); // the children are visible before any batch names them
      __syncwarp();
      publish_node_cut(P, sm.bc, sm.bc.out_offset + static_cast<Index>(sm.bc.sums.cnt));
    }
  }
  __syncthreads();
  if (t == 0) {
    retire(P, sm.bc.id);
    ++ctr[kStatExecuted];
    ctr[kStatForwarding] += sm.bc.forwarded || sm.bc.split ? 1 : 0;
  }
}

template <class Smem> __device__ void run_batch(const ChainParams &P, Smem &sm, u32 &sent, u64 *ctr) {
  const u32 t = threadIdx.x;
  const Index np = sm.bc.in_end - sm.bc.in_begin;
  if (np < 1 || np > static_cast<Index>(P.B)) { // generation never makes such a batch
    if (t == 0) raise_error(P, kInternal, sm.bc.id, 7, static_cast<u64>(np));
    return;
  }
  // Parents in blocked arrangement (parent j = t * kParentsPerThread + q), so one block scan
  // gives each parent's first slot in parent order.
  Index rb[kParentsPerThread], len[kParentsPerThread];
#pragma unroll
  for (int q = 0; q < kParentsPerThread; ++q) {
    const Index j = static_cast<Index>(t) * kParentsPerThread + q;
    rb[q] = len[q] = 0;
    if (j < np) {
      const Index p = load_relaxed(P.perm[sm.bc.in_begin + j]); // written by another block
      rb[q] = P.rowptr[p];
      len[q] = P.rowptr[p + 1] - rb[q];
    }
  }
  if (np == 1 && t == 0) {
    sm.bc.rb = rb[0];
    sm.bc.rlen = len[0];
  }
  __syncthreads();
  if (np == 1 && sm.bc.rlen > static_cast<Index>(P.T)) {
    big_batch(P, sm, sent, ctr);
    finish_batch(P, sm, sent, ctr, false);
    return;
  }
  // Only a batch of one parent can hold a row longer than T (see Walker), so the clamp below
  // only matters if that invariant were broken, which the check after the scan reports.
  u32 len32[kParentsPerThread], off[kParentsPerThread], nslots;
#pragma unroll
  for (int q = 0; q < kParentsPerThread; ++q)
    len32[q] = len[q] > static_cast<Index>(P.T) ? P.T + 1 : static_cast<u32>(len[q]);
  CountScan(sm.tmp.cnt).ExclusiveSum(len32, off, nslots);
#pragma unroll
  for (int q = 0; q < kParentsPerThread; ++q) {
    const Index j = static_cast<Index>(t) * kParentsPerThread + q;
    if (j < np) {
      sm.u.par.rb[j] = rb[q];
      sm.u.par.off[j] = off[q];
    }
  }
  if (t == 0) sm.u.par.off[np] = nslots;
  __syncthreads();
  if (nslots > P.T) {
    if (t == 0) raise_error(P, kInternal, sm.bc.id, 8, nslots);
    return;
  }
  normal_batch(P, sm, sent, ctr, static_cast<u32>(np), nslots);
  finish_batch(P, sm, sent, ctr, true);
}

// Cap: the scratch entries (kScratchSmallEntries or kScratchLargeEntries), at least P.T.
template <int Cap> __global__ void __launch_bounds__(kBlock, 2) batch_rcm_kernel(ChainParams P) {
  using Smem = BlockSmem<Cap>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Smem &sm = *reinterpret_cast<Smem *>(smem_raw);
  u64 ctr[kNumStats];
  for (int i = 0; i < kNumStats; ++i) ctr[i] = 0;
  u32 sent = kEmpty;
  for (;;) {
    if (threadIdx.x == 0) {
      dequeue(P, sm, ctr);
      sent = kEmpty;
    }
    __syncthreads();
    const int action = sm.bc.action;
    if (action == kExit) break;
    if (action == kRun) run_batch(P, sm, sent, ctr);
    __syncthreads(); // the next dequeue rewrites bc
  }
  if (threadIdx.x == 0)
    for (int i = 0; i < kNumStats; ++i)
      if (ctr[i]) atomicAdd(&P.ctl->stat[i], ctr[i]);
}

__global__ void init_ring_kernel(Slot *ring, u64 S) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < S;
       i += static_cast<u64>(gridDim.x) * blockDim.x) {
    Slot s{};
    s.signal = ~0ull;
    s.pay.followup = s.pay.offset_lo = s.pay.offset_hi = s.pay.combine = s.pay.weights = ~0ull; // tag kNoId
    s.published = kNoId;
    s.free_for = static_cast<u32>(i);
    ring[i] = s;
  }
}

// Batch 0: the first root, as if a predecessor had counted and completed.
__global__ void init_first_batch_kernel(ChainParams P) {
  const Index root = P.roots[0];
  const Index at = P.root_offset ? P.root_offset[0] : 0;
  P.mark[root] = 0;
  P.perm[at] = root;
  P.comp_begin[0] = at;
  Control &c = *P.ctl;
  c.next_ticket = 0;
  c.end_id = kNoId;
  c.abort = 0;
  c.error = 0;
  c.err_a = c.err_b = c.err_c = 0;
  c.next_root = 1;
  for (int i = 0; i < kNumStats; ++i) c.stat[i] = 0;
  // Batch 0's Counted payload, encoded as every batch's is: its children from at + 1 on, batch 1
  // the first it generates, no overhang, nothing pending before it.
  Payload first{};
  first.offset = at + 1;
  first.followup = 1;
  first.completed = true;
  send_payload(P, 0, first);
  Slot &s = P.ring[0];
  s.in_begin = at;
  s.in_end = at + 1;
  s.skip = 0;
  s.published = 0;
  s.signal = (0ull << 2) | kCompleted;
}

[[noreturn]] void throw_chain_error(const Control &c, Index n) {
  const auto a = std::to_string(c.err_a), b = std::to_string(c.err_b), v = std::to_string(c.err_c);
  switch (c.error) {
  case kQueueOverflow:
    throw rcm::BatchQueueOverflow("gpu batch rcm: batch " + a + " needs " + b +
                                  " queue slots ahead of it but queue_slots is " + v +
                                  "; raise Options::gpu.queue_slots");
  case kRootsShort: throw std::invalid_argument("rcm: the roots reach " + a + " of " + std::to_string(n) + " vertices");
  case kRootOrdered: throw std::invalid_argument("rcm: root " + a + " lies in a component that is already ordered");
  case kTimeout:
    throw std::runtime_error("gpu batch rcm: batch " + a + " waited longer than watchdog_seconds (at " + b +
                             "); the kernel was aborted");
  case kIdOverflow: throw std::runtime_error("gpu batch rcm: batch ids exceed 32 bits at batch " + a);
  case kRowTooLong:
    throw std::runtime_error("gpu batch rcm: row of " + b + " entries exceeds the 2^32 slot limit of the marks");
  default: throw std::runtime_error("gpu batch rcm: internal error " + b + " at batch " + a + " (value " + v + ")");
  }
}

} // namespace

int cooperative_grid(const void *kernel, int block, std::size_t smem, int max_blocks) {
  int dev = 0, coop = 0;
  PGK_CUDA_CHECK(cudaGetDevice(&dev));
  PGK_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (!coop) throw Error("rcm: the device does not support cooperative launches (persistent kernels)");
  int grid = residency(kernel, block, smem).blocks();
  if (max_blocks > 0) grid = std::min(grid, max_blocks);
  if (grid < 1) throw Error("rcm: the persistent kernel does not fit on a multiprocessor");
  return grid;
}

ChainResult run_batch_chain_device(const CsrView &g, const Index *valence, bool count_diagonal,
                                   const rcm::GpuTuning &opts, const ChainRun &run, Index *perm, Index *comp_begin,
                                   cudaStream_t s) {
  const Index n = g.nrows;
  std::size_t slots = run.ring_slots;
  if (slots == 0)
    slots = static_cast<std::size_t>(std::min<long long>(static_cast<long long>(n) + run.nroots + 2, 1ll << 20));
  if (slots < 2) slots = 2;

  DeviceBuffer<u64> mark(static_cast<std::size_t>(n), s);
  DeviceBuffer<Slot> ring(slots, s);
  DeviceBuffer<Control> ctl(1, s);
  PGK_CUDA_CHECK(cudaMemsetAsync(mark.data(), 0xff, static_cast<std::size_t>(n) * sizeof(u64), s));

  ChainParams P{};
  P.n = n;
  P.rowptr = g.rowptr;
  P.colidx = g.colidx;
  P.valence = valence;
  P.count_diagonal = count_diagonal;
  P.B = static_cast<u32>(opts.batch_nodes);
  P.T = static_cast<u32>(opts.batch_valence);
  P.node_cut = opts.batch_cut == rcm::GpuBatchCut::Nodes;
  P.S = slots;
  P.ring = ring.data();
  P.mark = mark.data();
  P.perm = perm;
  P.roots = run.roots;
  P.root_offset = run.root_offset;
  P.comp_begin = comp_begin;
  P.nroots = static_cast<u64>(run.nroots);
  P.chain_end = run.chain_end;
  P.ctl = ctl.data();
  P.watchdog_ns = static_cast<u64>(std::max(opts.watchdog_seconds, 0.001) * 1e9);
  P.stress = opts.stress_seed;

  init_ring_kernel<<<grid_for(static_cast<long long>(slots), 256, 1024), 256, 0, s>>>(P.ring, P.S);
  PGK_CUDA_CHECK_LAUNCH();
  init_first_batch_kernel<<<1, 1, 0, s>>>(P);
  PGK_CUDA_CHECK_LAUNCH();

  const bool large = P.T > static_cast<u32>(kScratchSmallEntries);
  const std::size_t smem = large ? sizeof(BlockSmem<kScratchLargeEntries>) : sizeof(BlockSmem<kScratchSmallEntries>);
  const void *kernel = large ? reinterpret_cast<const void *>(&batch_rcm_kernel<kScratchLargeEntries>)
                             : reinterpret_cast<const void *>(&batch_rcm_kernel<kScratchSmallEntries>);
  PGK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  ChainResult res;
  res.blocks = cooperative_grid(kernel, kBlock, smem, opts.max_blocks);
  void *args[] = {&P};
  PGK_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(res.blocks), dim3(kBlock), args, smem, s));
  PGK_CUDA_CHECK_LAUNCH();
  if (run.while_running && *run.while_running) (*run.while_running)(); // host work while the device orders

  const Control c = ctl.get(0, s);
  if (c.error != kOk) throw_chain_error(c, n);
  if (c.end_id == kNoId) throw std::runtime_error("gpu batch rcm: the kernel ended before the ordering was complete");
  res.executed = c.stat[kStatExecuted];
  res.without_rediscovery = c.stat[kStatWithoutRediscovery];
  res.before_sort = c.stat[kStatBeforeSort];
  res.after_sort = c.stat[kStatAfterSort];
  res.forwarding = c.stat[kStatForwarding];
  res.dropped = c.stat[kStatDropped];
  res.empty = c.stat[kStatEmpty];
  res.big = c.stat[kStatBig];
  res.histogram_passes = c.stat[kStatPasses];
  res.next_root = c.next_root;
  return res;
}

} // namespace pgk::cuda::rcm_detail
