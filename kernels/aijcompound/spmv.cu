// The SpMV kernels of DevicePacked::mult: one template over (entry kind, outer layout, inner
// layout) per schedule, instantiated for every combination and picked at run time.
//
// Bit for bit with pgk::aijcompound::packed_mult (one thread per row): the entry kinds below
// perform the operations of apply_entry (src/aijcompound/entry.hpp) for each accumulator in the
// same order, through __dmul_rn / __dadd_rn so that nvcc never fuses a multiply and an add (the
// host reference is compiled without contraction). A block is applied column by column (the
// column-major storage order); that interleaves the accumulators differently from the host's
// row-by-row loop, but each accumulator still sees a_i0 x_0, a_i1 x_1, ... in order, which is
// all that determines its bits. The loads are free to go in any order.
//
// Memory access: bs is a compile-time constant, so an entry's components and the accumulators
// live in registers. AoS entries of an even size are read as double2 (the value array is ours,
// cudaMalloc-aligned); x blocks of an even bs are read as double2 when x is 16-byte aligned
// (checked per launch: a caller may pass an offset array). ELL / SI slots of consecutive rows are
// consecutive, so a warp of one-thread-per-row reads consecutive slots (SoA: one coalesced load
// per component). +SYM (a symmetric matrix): a strictly lower position loads its partner's entry
// (an upper one of a row at most a bandwidth earlier, usually still in L2; for a warp of ELL / SI
// rows of a stencil the partners are consecutive slots too) and applies its transpose
// (apply_transposed: the same operations, in the same order, as apply on the transposed entry, so
// the loads can stream instead of holding a transposed copy in registers).
#include "kernels/aijcompound/spmv.cuh"
#include "kernels/aijcompound/spmv_entry.cuh"
#include "kernels/common/cuda_check.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace pgk::cuda::aijcompound {
namespace {

using namespace spmv_detail;

// Where row r's positions are: position j at slot first + j * stride, j < len.
struct RowRange {
  int first, len, stride, row;
};

template <ac::Outer O> __device__ __forceinline__ RowRange row_range(const SpmvArgs &a, int r) {
  if constexpr (O == ac::Outer::csr) {
    const int b = __ldg(a.ptr + r);
    return {b, __ldg(a.ptr + r + 1) - b, 1, r};
  } else if constexpr (O == ac::Outer::ell) {
    return {r, __ldg(a.ptr + r), a.nrows_pad, r};
  } else {
    constexpr int h = O == ac::Outer::sliced16 ? 16 : 32;
    const int off = __ldg(a.ptr + r / h);
    return {off + r % h, (__ldg(a.ptr + r / h + 1) - off) / h, h, r};
  }
}

// Loads in flight per thread. A row's positions used to be walked one at a time: the column
// index, then (sliced: after a branch on it being padding) the entry and x, and for +SYM the own
// position's loads, apply, then the lower one's. Now a thread issues the columns and entries of
// `chunk` positions (+SYM: of both positions of `chunk` mirrored steps) before it waits on any of
// them, then their x blocks, then applies them in row order (the same operations in the same
// order: the bits do not change). Measured on an H200 (bench/NOTES.md, 2026-11-29), chunk 1 is
// the best: the tuned 3x3 product went from 0.0496 to 0.0441 ms (vec3d27:n=47, ELL+SYM-AoS), the
// quaternion one from 0.0589 to 0.0571 (SI-32+SYM-AoS); chunks of 2 and 4 took more registers
// (quaternion SI-32-AoS 40 -> 70), were slower for quaternion and complex entries and no faster
// for 3x3. PGK_AIJC_CHUNK sets it for such measurements.
//
// Quaternion entries with chunk 1 also read the next position's column (+SYM: the next mirrored
// step's columns and partner) before applying the present one, so a position's entry and x loads
// are issued at once instead of after its column arrives. On an H200 (bench/NOTES.md, 2026-12-01,
// A/B in one run) the tuned quaternion product went from 0.0576-0.0581 to 0.0555-0.0563 ms
// (SI-32+SYM-AoS; 0.842 -> 0.866-0.882 of the copy bandwidth), the other static AoS quaternion
// variants gained 0-7% (the sliced SoA ones lost 5%, which the tuner does not pick); for 3x3
// blocks the +SYM products lost 3-11% and for complex entries the AoS group and static products
// up to 34%, so those keep the walk above.
// PGK_AIJC_PREFETCH=0 turns it off for such measurements.
#ifndef PGK_AIJC_CHUNK
#define PGK_AIJC_CHUNK 1
#endif
#ifndef PGK_AIJC_PREFETCH
#define PGK_AIJC_PREFETCH 1
#endif
// Whether E's walks read the next position's indices ahead (quaternion entries, chunk 1).
template <class E> constexpr bool prefetch_indices() {
  return PGK_AIJC_PREFETCH && PGK_AIJC_CHUNK == 1 && std::is_same_v<E, QuaternionEntry>;
}
template <class E> constexpr int chunk_positions() {
  static_assert(PGK_AIJC_CHUNK >= 1, "PGK_AIJC_CHUNK: positions in flight per thread, at least 1");
  return PGK_AIJC_CHUNK;
}

// x block c into xb when c >= 0 (a sliced layout's padding has c < 0: xb is then unused).
template <class E> __device__ __forceinline__ void load_x(const SpmvArgs &a, bool xpairs, int c, double (&xb)[E::bs]) {
  if (c >= 0) load<E::bs>(a.x + static_cast<std::int64_t>(c) * E::bs, xpairs, xb);
}

// The column of slot s of row r (sliced padding: -1): a 32-bit column, or with N (column
// offsets, spmv.cuh) row + a 16-bit offset, its padding marker mapped to -1.
template <bool N> __device__ __forceinline__ int column(const SpmvArgs &a, int r, int s) {
  if constexpr (N) {
    const int d = __ldg(a.col_offset + s);
    return d == ac::kOffsetPadding ? -1 : r + d;
  } else {
    return __ldg(a.col + s);
  }
}

// One position's column and slot; c = -1 past the row's end (the slot is then the row's first).
struct Position {
  int c, s;
};

// The plain layouts: positions lane, lane + group, ... of the row, `chunk` of them at a time.
// Positions past the row's end are loaded from the chunk's first slot and marked c = -1.
template <class E, ac::Outer O, ac::Inner I, bool N>
__device__ __forceinline__ void plain_share(const SpmvArgs &a, bool xpairs, const RowRange &rr, int lane, int group,
                                            double (&acc)[E::bs]) {
  constexpr int U = chunk_positions<E>();
  if constexpr (prefetch_indices<E>()) {
    // One position at a time, its column read one position ahead: the entry and x loads of a
    // position are issued as soon as the previous one's are, the column's latency off the chain.
    auto position = [&](int j) {
      const int s = rr.first + (j < rr.len ? j : 0) * rr.stride;
      return Position{j < rr.len ? column<N>(a, rr.row, s) : -1, s};
    };
    Position cur = position(lane);
    for (int j = lane; j < rr.len; j += group) {
      double v[E::esize], xb[E::bs];
      load_entry<E::esize, I>(a.val, cur.s, a.nslots, v);
      load_x<E>(a, xpairs, cur.c, xb);
      const Position next = position(j + group);
      if (cur.c >= 0) E::apply(v, xb, acc);
      cur = next;
    }
  } else {
    for (int j0 = lane; j0 < rr.len; j0 += U * group) {
      int c[U];
      double v[U][E::esize], xb[U][E::bs];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int j = j0 + u * group;
        const int s = rr.first + (j < rr.len ? j : j0) * rr.stride;
        c[u] = column<N>(a, rr.row, s);
        if (j >= rr.len) c[u] = -1;
        load_entry<E::esize, I>(a.val, s, a.nslots, v[u]);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) load_x<E>(a, xpairs, c[u], xb[u]);
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (c[u] >= 0) E::apply(v[u], xb[u], acc);
    }
  }
}

// +SYM, one thread per row, in mirrored pairs from the diagonal as the host's packed_row: at step
// k the own position nl + k, then the lower position nl - k (k >= 1), so that a partner is read at
// about the step its owner reads it (an L2 hit). `chunk` steps at a time (two positions each); a lower
// position's entry is its partner's slot, applied transposed.
template <class E, ac::Outer O, ac::Inner I, bool N>
__device__ __forceinline__ void mirrored_share(const SpmvArgs &a, bool xpairs, const RowRange &rr, int nl,
                                               double (&acc)[E::bs]) {
  constexpr int K = chunk_positions<E>();
  if (rr.len == 0) return;
  const int steps = max(rr.len - nl, nl + 1);
  if constexpr (prefetch_indices<E>()) {
    // One mirrored step at a time, its columns and partner read one step ahead (as plain_share).
    struct Step {
      Position own, low; // low.s: the partner's slot
    };
    auto step = [&](int k) {
      const bool own = k < steps && nl + k<rr.len, low = k> 0 && k <= nl && k < steps;
      const int so = rr.first + (own ? nl + k : 0) * rr.stride, sl = rr.first + (low ? nl - k : 0) * rr.stride;
      return Step{{own ? column<N>(a, rr.row, so) : -1, so},
                  {low ? column<N>(a, rr.row, sl) : -1, low ? __ldg(a.partner + sl) : so}};
    };
    Step cur = step(0);
    for (int k = 0; k < steps; ++k) {
      double vo[E::esize], vl[E::esize], xo[E::bs], xl[E::bs];
      load_entry<E::esize, I>(a.val, cur.own.s, a.nslots, vo);
      load_entry<E::esize, I>(a.val, cur.low.s, a.nslots, vl);
      load_x<E>(a, xpairs, cur.own.c, xo);
      load_x<E>(a, xpairs, cur.low.c, xl);
      const Step next = step(k + 1);
      if (cur.own.c >= 0) E::apply(vo, xo, acc);
      if (cur.low.c >= 0) E::apply_transposed(vl, xl, acc);
      cur = next;
    }
  } else {
    for (int k0 = 0; k0 < steps; k0 += K) {
      int c[2 * K], e[2 * K];
      double v[2 * K][E::esize], xb[2 * K][E::bs];
#pragma unroll
      for (int q = 0; q < K; ++q) {
        const int k = k0 + q;
        const bool own = k < steps && nl + k<rr.len, low = k> 0 && k <= nl && k < steps;
        const int so = rr.first + (own ? nl + k : 0) * rr.stride, sl = rr.first + (low ? nl - k : 0) * rr.stride;
        c[2 * q] = own ? column<N>(a, rr.row, so) : -1;
        c[2 * q + 1] = low ? column<N>(a, rr.row, sl) : -1;
        e[2 * q] = so;
        e[2 * q + 1] = low ? __ldg(a.partner + sl) : so;
      }
#pragma unroll
      for (int p = 0; p < 2 * K; ++p) load_entry<E::esize, I>(a.val, e[p], a.nslots, v[p]);
#pragma unroll
      for (int p = 0; p < 2 * K; ++p) load_x<E>(a, xpairs, c[p], xb[p]);
#pragma unroll
      for (int q = 0; q < K; ++q) {
        if (c[2 * q] >= 0) E::apply(v[2 * q], xb[2 * q], acc);
        if (c[2 * q + 1] >= 0) E::apply_transposed(v[2 * q + 1], xb[2 * q + 1], acc);
      }
    }
  }
}

// Position j of row r (slot s) into acc: its own entry, or (lower) its partner's transposed.
template <class E, ac::Outer O, ac::Inner I, bool N>
__device__ __forceinline__ void apply_position(const SpmvArgs &a, bool xpairs, const RowRange &rr, int s, bool lower,
                                               double (&acc)[E::bs]) {
  const int c = column<N>(a, rr.row, s);
  if constexpr (O == ac::Outer::sliced16 || O == ac::Outer::sliced32)
    if (c < 0) return;
  double v[E::esize], xb[E::bs];
  load_entry<E::esize, I>(a.val, lower ? __ldg(a.partner + s) : s, a.nslots, v);
  load<E::bs>(a.x + static_cast<std::int64_t>(c) * E::bs, xpairs, xb);
  if (lower) E::apply_transposed(v, xb, acc);
  else E::apply(v, xb, acc);
}

// acc = this thread's share of row r: positions lane, lane + group, ... in row order (all of
// them for one thread per row). Sliced padding (column -1) is skipped, never multiplied. +SYM with
// one thread per row walks in mirrored pairs (mirrored_share; complex entries one position at a
// time, in the same order); +SYM groups keep the row order (lower positions through partners).
template <class E, ac::Outer O, ac::Inner I, bool S, bool N>
__device__ __forceinline__ void row_share(const SpmvArgs &a, bool xpairs, int r, int lane, int group,
                                          double (&acc)[E::bs]) {
#pragma unroll
  for (int i = 0; i < E::bs; ++i) acc[i] = 0.0;
  const RowRange rr = row_range<O>(a, r);
  if constexpr (S) {
    const int nl = __ldg(a.lower + r);
    if (group == 1 && E::esize > 2) {
      mirrored_share<E, O, I, N>(a, xpairs, rr, nl, acc);
    } else if (group == 1) {
      // Complex entries keep the walk of one position at a time: their ELL+SYM product measured
      // 0.0434 ms that way and 0.0500 through mirrored_share (helmholtz2dc:n=1120, H200).
      for (int k = 0; k < max(rr.len - nl, nl + 1); ++k) {
        if (nl + k < rr.len) apply_position<E, O, I, N>(a, xpairs, rr, rr.first + (nl + k) * rr.stride, false, acc);
        if (k > 0 && k <= nl) apply_position<E, O, I, N>(a, xpairs, rr, rr.first + (nl - k) * rr.stride, true, acc);
      }
    } else {
      for (int j = lane; j < rr.len; j += group)
        apply_position<E, O, I, N>(a, xpairs, rr, rr.first + j * rr.stride, j < nl, acc);
    }
  } else {
    plain_share<E, O, I, N>(a, xpairs, rr, lane, group, acc);
  }
}

// y_r = acc (+ z_r after the full row sum). z may be y: each element is read before it is written,
// by the same thread, so z is read with a plain load.
template <int BS> __device__ __forceinline__ void store_row(const SpmvArgs &a, int r, const double (&acc)[BS]) {
  const std::int64_t o = static_cast<std::int64_t>(r) * BS;
#pragma unroll
  for (int i = 0; i < BS; ++i) a.y[o + i] = a.z ? __dadd_rn(acc[i], a.z[o + i]) : acc[i];
}

template <class E> bool x_pairs(const SpmvArgs &a) {
  return E::bs % 2 == 0 && reinterpret_cast<std::uintptr_t>(a.x) % 16 == 0;
}

// static_rows: block b starts at row threads * b and strides by threads * gridDim.
template <class E, ac::Outer O, ac::Inner I, bool S, bool N>
__global__ void spmv_static(const SpmvArgs a, bool xpairs) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < a.nbrows; r += stride) {
    double acc[E::bs];
    row_share<E, O, I, S, N>(a, xpairs, static_cast<int>(r), 0, 1, acc);
    store_row<E::bs>(a, static_cast<int>(r), acc);
  }
}

// dynamic_rows: each block takes the next blockDim rows from counter[0]. When a block has seen the
// counter pass nbrows it counts itself finished in counter[1]; the last one to finish resets both,
// so the next launch starts from 0 without a memset. Every other block has then taken its last
// rows (the fence orders each block's last take before its finish count).
template <class E, ac::Outer O, ac::Inner I, bool S, bool N>
__global__ void spmv_dynamic(const SpmvArgs a, bool xpairs) {
  __shared__ unsigned int first;
  for (;;) {
    if (threadIdx.x == 0) first = atomicAdd(a.counter, blockDim.x);
    __syncthreads();
    const std::int64_t r = static_cast<std::int64_t>(first) + threadIdx.x;
    const bool done = first >= static_cast<unsigned int>(a.nbrows);
    __syncthreads(); // everyone has read `first` before thread 0 overwrites it
    if (done) break;
    if (r < a.nbrows) {
      double acc[E::bs];
      row_share<E, O, I, S, N>(a, xpairs, static_cast<int>(r), 0, 1, acc);
      store_row<E::bs>(a, static_cast<int>(r), acc);
    }
  }
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(a.counter + 1, 1u) == gridDim.x - 1) {
      __threadfence();
      atomicExch(a.counter, 0u);
      atomicExch(a.counter + 1, 0u);
    }
  }
}

// group_rows: `group` consecutive lanes per row (groups never straddle a warp: blockDim is a
// multiple of 32 and group divides 32). The warp loops while any of its rows exists, so every
// lane takes part in every shuffle. The lanes' partial sums are combined by a butterfly
// (__shfl_xor_sync, distances group/2, ..., 1): a fixed tree, and since a + b == b + a exactly,
// every lane of the group ends with the same bits; lane l then stores components l, l + group, ...
template <class E, ac::Outer O, ac::Inner I, bool S, bool N>
__global__ void spmv_group(const SpmvArgs a, bool xpairs, int group) {
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x / group;
  const int lane = static_cast<int>(threadIdx.x % 32) % group;
  for (std::int64_t base = (tid & ~std::int64_t(31)) / group; base < a.nbrows; base += stride) {
    const std::int64_t r = base + static_cast<int>(threadIdx.x % 32) / group;
    const bool active = r < a.nbrows;
    double acc[E::bs];
    if (active) {
      row_share<E, O, I, S, N>(a, xpairs, static_cast<int>(r), lane, group, acc);
    } else {
#pragma unroll
      for (int i = 0; i < E::bs; ++i) acc[i] = 0.0;
    }
    for (int d = group / 2; d > 0; d /= 2)
#pragma unroll
      for (int i = 0; i < E::bs; ++i) acc[i] = __dadd_rn(acc[i], __shfl_xor_sync(0xffffffffu, acc[i], d, group));
    if (!active) continue;
    const std::int64_t o = r * E::bs;
#pragma unroll
    for (int i = 0; i < E::bs; ++i)
      if (i % group == lane) a.y[o + i] = a.z ? __dadd_rn(acc[i], a.z[o + i]) : acc[i];
  }
}

// The most threads a block of `kernel` can have (its registers), cached per kernel by the caller.
template <class K> int max_block_threads(K kernel) {
  cudaFuncAttributes at{};
  PGK_CUDA_CHECK(cudaFuncGetAttributes(&at, kernel));
  return at.maxThreadsPerBlock / 32 * 32;
}

// kernel on `grid` blocks of `threads`; where the kernel's registers allow fewer threads a block (an
// 8x8 +SYM kernel has two load paths), the same threads in more, smaller blocks: every schedule maps
// rows through blockDim and gridDim, so the rows and each one's sum are the same.
template <class K, class... Args>
void launch_fitted(K kernel, int max_threads, int grid, int threads, cudaStream_t stream, Args... args) {
  if (threads > max_threads) {
    grid = static_cast<int>((static_cast<long long>(grid) * threads + max_threads - 1) / max_threads);
    threads = max_threads;
  }
  kernel<<<grid, threads, 0, stream>>>(args...);
}

template <class E, ac::Outer O, ac::Inner I, bool S, bool N>
void launch(const SpmvArgs &a, const LaunchShape &shape, int grid, cudaStream_t stream) {
  const bool xpairs = x_pairs<E>(a);
  static const int max_static = max_block_threads(spmv_static<E, O, I, S, N>),
                   max_dynamic = max_block_threads(spmv_dynamic<E, O, I, S, N>),
                   max_group = max_block_threads(spmv_group<E, O, I, S, N>);
  switch (shape.schedule) {
  case Schedule::static_rows:
    launch_fitted(spmv_static<E, O, I, S, N>, max_static, grid, shape.threads, stream, a, xpairs);
    break;
  case Schedule::dynamic_rows:
    launch_fitted(spmv_dynamic<E, O, I, S, N>, max_dynamic, grid, shape.threads, stream, a, xpairs);
    break;
  case Schedule::group_rows:
    launch_fitted(spmv_group<E, O, I, S, N>, max_group, grid, shape.threads, stream, a, xpairs, shape.group);
    break;
  }
  PGK_CUDA_CHECK_LAUNCH();
}

template <ac::Outer O> using OuterTag = std::integral_constant<ac::Outer, O>;
template <ac::Inner I> using InnerTag = std::integral_constant<ac::Inner, I>;

// Calls f(entry type) for (kind, bs): checked by the caller (upload).
template <class F> void with_entry(ac::EntryKind kind, int bs, F &&f) {
  if (kind == ac::EntryKind::complex) return f(ComplexEntry{});
  if (kind == ac::EntryKind::quaternion) return f(QuaternionEntry{});
  switch (bs) {
  case 2: return f(BlockEntry<2>{});
  case 3: return f(BlockEntry<3>{});
  case 4: return f(BlockEntry<4>{});
  case 5: return f(BlockEntry<5>{});
  case 6: return f(BlockEntry<6>{});
  case 7: return f(BlockEntry<7>{});
  default: return f(BlockEntry<8>{});
  }
}

template <class F> void with_outer(ac::Outer outer, F &&f) {
  switch (outer) {
  case ac::Outer::csr: return f(OuterTag<ac::Outer::csr>{});
  case ac::Outer::ell: return f(OuterTag<ac::Outer::ell>{});
  case ac::Outer::sliced16: return f(OuterTag<ac::Outer::sliced16>{});
  case ac::Outer::sliced32: return f(OuterTag<ac::Outer::sliced32>{});
  }
}

template <class F> void with_inner(ac::Inner inner, F &&f) {
  if (inner == ac::Inner::aos) return f(InnerTag<ac::Inner::aos>{});
  return f(InnerTag<ac::Inner::soa>{});
}

} // namespace

void launch_spmv(const SpmvArgs &args, const LaunchShape &shape, int grid, cudaStream_t stream) {
  with_entry(args.kind, args.bs, [&](auto entry) {
    with_outer(args.outer, [&](auto outer) {
      with_inner(args.inner, [&](auto inner) {
        using E = decltype(entry);
        constexpr ac::Outer O = decltype(outer)::value;
        constexpr ac::Inner I = decltype(inner)::value;
        // Offset kernels exist only for the kinds that read offsets (spmv.cuh): fewer instances.
        if constexpr (reads_column_offsets(E::kind)) {
          if (args.offsets) {
            if (args.symmetric) launch<E, O, I, true, true>(args, shape, grid, stream);
            else launch<E, O, I, false, true>(args, shape, grid, stream);
            return;
          }
        } else if (args.offsets) {
          throw std::logic_error(std::string("aijcompound: column offsets for ") + ac::kind_name(E::kind) +
                                 " entries, which read 32-bit columns");
        }
        if (args.symmetric) launch<E, O, I, true, false>(args, shape, grid, stream);
        else launch<E, O, I, false, false>(args, shape, grid, stream);
      });
    });
  });
}

} // namespace pgk::cuda::aijcompound
