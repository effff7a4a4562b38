// The double sweeps of the device schemes (carpcg_gpu.hpp): one launch per colour and direction
// (multicolor), two per pass (cimmino: the coefficients, then the column sums), two per half
// (carp: the block sweeps, then the averaging). No host synchronisation inside a sweep.
// The CG's vector kernels are in cg.cu; the divisions that end carp's averaging across ranks in mpi_divide.cu.
#include "kernels/carpcg/internal.cuh"
#include "kernels/common/pdl.cuh"

#include <algorithm>
#include <type_traits>

namespace pgk::cuda {

namespace {

using namespace carpcg_detail;

struct Matrix {
  const Index *rowptr, *colidx;
  const double *values, *norms2;
};

Matrix matrix_of(const CarpcgDevice::Impl &d) {
  return {d.rowptr.data(), d.colidx.data(), d.values.data(), d.norms2.data()};
}

// One colour: every row of it projected by one group of G lanes. The rows of a colour touch disjoint
// unknowns, so their order (and a backward sweep's reversal within the colour) does not change
// any value: only the order of the colours matters. The operator is stored in colour order
// (setup.cu), so the colour is the stored rows first..first+count, read as contiguous runs;
// rows[] (A's row of each stored row) is only needed for b.
// Passes == 2 projects every row twice in a row: the last colour of the forward sweep followed by
// the same colour first in the backward one. A row's projections read and write only its own
// unknowns, which no other row of the colour touches, so doing both before the next row is the
// same arithmetic as two launches, with one kernel and one read of the colour's rows fewer. (A
// template argument: a run-time count costs the one-pass kernel, 16 of a double sweep's 17
// launches, more spilled registers under its launch bounds.)
// Programmatic (a colour launched after another one, whose grid is more than one wave: sweep_colour):
// a programmatic dependent launch (kernels/common/pdl.cuh) that lets the next colour be scheduled at
// once and loads its rows' heads (bounds, norm, b, first entries: nothing a colour writes) while the
// colour before it still runs, then waits for it before it touches x. Where a colour fits in one wave,
// the early blocks only take the SMs the colour before them drains on (forty-fifth session: -13% a
// double sweep at 1M rows, +3-4% at 361k).
// For groups of up to 8 lanes the ordered sum issues its G shuffles first (RowAdd, internal.cuh), under
// launch bounds of 5 blocks an SM (48 registers: room for the held products, which spill under 32);
// 5 x 132 blocks still hold a 361k-row colour on an H100/H200. Measured (bench_carpcg_chain's
// sum-48reg, 4 lanes, H200): a double sweep 85.4 -> 74.4 us at 361k rows, 198 -> 180 at 1M, 671 -> 659
// at 4M; neither part alone gains (ahead-sum spills: 91 us; ahead-48reg: 86 us). Wider groups keep
// add_in_order under 8 blocks (32 registers), unmeasured with the change.
template <int G> constexpr int kColourBlocksPerSm = G <= 8 ? 5 : 8;

template <int G, int Passes, bool Programmatic>
__global__ void __launch_bounds__(kThreads, kColourBlocksPerSm<G>)
    colour_kernel(Matrix a, const Index *rows, Index first, Index count, const double *b, double lambda, double *x) {
  const int lane = group_lane<G>();
  if (Programmatic) pdl_launch_dependents();
  bool waiting = Programmatic; // a thread that touches no x (no row, or zero rows only) needs no wait
  for (Index w = first + group_id<G>(); w < first + count; w += group_count<G>()) {
    // The bounds, the norm and b are loaded together, before the zero-row test, which would otherwise
    // hold the bounds (and so the entries and x) back by one more memory latency. Measured on an H200
    // (bench_carpcg_chain): 0.5-1% a double sweep; a colour's time is mostly not this load chain.
    const Index lo = __ldcs(a.rowptr + w), hi = __ldcs(a.rowptr + w + 1);
    const double n2 = __ldcs(a.norms2 + w), bi = b ? b[rows[w]] : 0.0;
    if (n2 == 0) continue; // a zero row (sweep.hpp)
    const RowHead head = load_row_head<G>(lo, hi, a.colidx, a.values, lane);
    if (waiting) {
      pdl_wait();
      waiting = false;
    }
    for (int pass = 0; pass < Passes; ++pass)
      project_head<G, RowAdd<G>>(head, a.colidx, a.values, n2, bi, lambda, x, lane);
  }
}

// cimmino, first step: coef_i = lambda ((b_i - a_i . x) / |a_i|^2), 0 for a zero row (whose
// entries are all zero, so it adds exact zeros to the column sums, like the host's skip).
template <int G>
__global__ void coef_kernel(Matrix a, Index n, const double *b, double lambda, const double *x, double *coef) {
  const int lane = group_lane<G>();
  for (Index i = group_id<G>(); i < n; i += group_count<G>()) {
    const double n2 = a.norms2[i];
    const double dot = ordered_dot<G>(a.rowptr[i], a.rowptr[i + 1], a.colidx, a.values, x, lane);
    if (lane == 0) coef[i] = n2 == 0 ? 0.0 : __dmul_rn(lambda, __ddiv_rn(__dsub_rn(b ? b[i] : 0.0, dot), n2));
  }
}

// cimmino, second step: out_j = base_j + sum over column j's entries, rows ascending, of
// coef_i a_ij: the host's acc_j += coef_i a_ij in natural row order, from 0.
__global__ void column_sum_kernel(Index n, const Index *colptr, const Index *rows, const Index *entry,
                                  const double *values, const double *coef, const double *base, double *out) {
  for (Index j = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<Index>(gridDim.x) * blockDim.x) {
    double s = 0;
    for (Index e = colptr[j]; e < colptr[j + 1]; ++e) s = __dadd_rn(s, __dmul_rn(coef[rows[e]], values[entry[e]]));
    out[j] = base ? __dadd_rn(base[j], s) : s;
  }
}

struct Blocks {
  Index count;
  const Index *ids; // the blocks swept: ids[0..count), or 0..count where null (all of them)
  const Index *row_ptr, *rows, *col_ptr, *cols, *local_col;
};

// carp: one group of G lanes per CARP block, kSweepThreads threads a CUDA block. The sweep is a
// chain of dependent rows, so its time is the latency of one row times the rows of a block: the
// group keeps its block's compact copy of x in shared memory (when the block's width fits the
// group's `stride` doubles; else it sweeps the copy in global memory, in the same launch), and loads
// the next row (its index, bounds, norm, right-hand side and first G entries) while it projects the
// current one, so that only shared-memory accesses and the ordered sum stay on the chain.
// The arithmetic is BlockPlan::sweep_sum's, in its order (see project_head, internal.cuh): the same bits.
// The shared array is dynamic, `stride` doubles a group (Impl::copy_stride: the widest block that
// fits kCopyPerLane doubles a lane, so no more than the blocks need); launched without it (stride 0:
// fewer than half of the blocks fit) the kernel keeps the full occupancy for its global-memory
// sweeps.
constexpr int kSweepThreads = 128;
template <int G> std::size_t sweep_shared_bytes(const CarpcgDevice::Impl &d) {
  return sizeof(double) * (kSweepThreads / G) * static_cast<std::size_t>(d.copy_stride);
}

struct RowAhead { // one row of the sweep, loaded ahead: the lane's first entry of it
  Index lo = 0, hi = 0, col = 0;
  double val = 0, norm2 = 1, bi = 0;
};

template <int G>
__device__ inline RowAhead load_row(const Matrix &a, const Blocks &blk, const double *b, Index first, Index count,
                                    Index s, bool backward, int lane) {
  RowAhead r;
  if (s >= count) return r;
  const Index i = blk.rows[first + (backward ? count - 1 - s : s)];
  r.lo = a.rowptr[i];
  r.hi = a.rowptr[i + 1];
  r.norm2 = a.norms2[i];
  r.bi = b ? b[i] : 0.0;
  if (r.lo + lane < r.hi) {
    r.col = blk.local_col[r.lo + lane];
    r.val = a.values[r.lo + lane];
  }
  return r;
}

// project_head on a row loaded ahead: the first G entries from registers, any further ones read
// here; the same products and the same order of additions. The sum is RowAdd's (shuffles first for
// up to 8 lanes): a block's rows are a serial chain, and a row's sum is on it.
template <int G>
__device__ inline void project_ahead(const RowAhead &r, const Index *cols, const double *vals, double lambda,
                                     double *copy, int lane, unsigned mask) {
  double s = 0;
  {
    const int m = r.hi - r.lo < G ? static_cast<int>(r.hi - r.lo) : G;
    const double p = lane < m ? __dmul_rn(r.val, copy[r.col]) : 0.0;
    s = RowAdd<G>{}(s, p, m, mask);
  }
  for (Index base = r.lo + G; base < r.hi; base += G) {
    const Index k = base + lane;
    const double p = k < r.hi ? __dmul_rn(vals[k], copy[cols[k]]) : 0.0;
    s = RowAdd<G>{}(s, p, r.hi - base < G ? static_cast<int>(r.hi - base) : G, mask);
  }
  const double coef = __dmul_rn(lambda, __ddiv_rn(__dsub_rn(r.bi, s), r.norm2));
  if (r.lo + lane < r.hi) copy[r.col] = __dadd_rn(copy[r.col], __dmul_rn(coef, r.val));
  for (Index k = r.lo + G + lane; k < r.hi; k += G) copy[cols[k]] = __dadd_rn(copy[cols[k]], __dmul_rn(coef, vals[k]));
}

// A block's rows are ascending, so their entries are one contiguous range [begin, end) of A (contiguous
// blocks: no gaps), and a sweep walks it up (forward) or down (backward) some 7 entries a row. Loaded
// one row ahead, each row's entries still arrive a DRAM latency after they are asked for, and a
// block's 64 rows are a serial chain: ncu at 704528a, 1M rows, 9 of a warp's 15.3 cycles an
// instruction wait on L1TEX. So each row also asks for the lines kL2Ahead entries further on into L2
// (and kL1Ahead into L1 where kL1Ahead > 0): a prefetch holds no register and nothing waits on it.
// The same loads, in the same order, give the same bits.
constexpr Index kL2Ahead = 64, kL1Ahead = 24;

__device__ inline void prefetch_l2(const void *p) { asm volatile("prefetch.L2 [%0];" ::"l"(p)); }
__device__ inline void prefetch_l1(const void *p) { asm volatile("prefetch.L1 [%0];" ::"l"(p)); }

__device__ inline void prefetch_entries(const Matrix &a, const Index *local_col, Index at, Index begin, Index end,
                                        bool backward, int lane) {
  const Index ahead = lane < 2 ? kL2Ahead : kL1Ahead;
  if (lane > 3 || ahead == 0) return;
  const Index p = backward ? at - ahead : at + ahead;
  if (p < begin || p >= end) return;
  const void *line = lane % 2 == 0 ? static_cast<const void *>(a.values + p) : static_cast<const void *>(local_col + p);
  if (lane < 2) prefetch_l2(line);
  else prefetch_l1(line);
}

// One CARP block's sweep on its copy. Instantiated twice by the kernel, once with the copy in shared
// memory and once in global memory: a pointer that may be either is a generic one, and its loads
// and stores (on the row chain) then wait as global ones do; each instantiation knows its space.
template <int G>
__device__ __forceinline__ void sweep_one_block(const Matrix &a, const Blocks &blk, const double *b, double lambda,
                                                bool backward, const double *x, Index nown, const double *ghosts,
                                                Index k, double *copy, int lane, unsigned mask) {
  const Index off = blk.col_ptr[k], width = blk.col_ptr[k + 1] - off;
  for (Index e = lane; e < width; e += G) {
    const Index c = blk.cols[off + e];
    copy[e] = c < nown ? x[c] : ghosts[c - nown];
  }
  const Index first = blk.row_ptr[k], count = blk.row_ptr[k + 1] - first;
  const Index begin = count > 0 ? a.rowptr[blk.rows[first]] : 0;
  const Index end = count > 0 ? a.rowptr[blk.rows[first + count - 1] + 1] : 0;
  RowAhead next = load_row<G>(a, blk, b, first, count, 0, backward, lane);
  __syncwarp(mask);
  for (Index s = 0; s < count; ++s) {
    const RowAhead row = next;
    next = load_row<G>(a, blk, b, first, count, s + 1, backward, lane);
    prefetch_entries(a, blk.local_col, row.lo, begin, end, backward, lane);
    project_ahead<G>(row, blk.local_col, a.values, lambda, copy, lane, mask);
    __syncwarp(mask); // the next row reads what this one wrote
  }
}

template <int G>
__global__ void __launch_bounds__(kSweepThreads)
    block_sweep_kernel(Matrix a, Blocks blk, const double *b, double lambda, bool backward, const double *x, Index nown,
                       const double *ghosts, double *copies, Index stride) {
  extern __shared__ double shared[]; // stride doubles a group (none for stride 0)
  double *local = shared + threadIdx.x / G * stride;
  const int lane = group_lane<G>();
  const unsigned mask = subwarp_mask<G>();
  for (Index t = group_id<G>(); t < blk.count; t += group_count<G>()) {
    const Index k = blk.ids ? blk.ids[t] : t;
    const Index off = blk.col_ptr[k], width = blk.col_ptr[k + 1] - off;
    if (width > stride) {
      sweep_one_block<G>(a, blk, b, lambda, backward, x, nown, ghosts, k, copies + off, lane, mask);
      continue;
    }
    sweep_one_block<G>(a, blk, b, lambda, backward, x, nown, ghosts, k, local, lane, mask);
    for (Index e = lane; e < width; e += G) copies[off + e] = local[e];
    __syncwarp(mask); // the next block of this group reuses `local`
  }
}

// carp averaging: y_j = (sum of j's copies in block order, from 0) / |L_j|, or x_j where no block
// touches j (the host's acc / mult).
__global__ void average_kernel(Index n, const Index *gather_ptr, const Index *gather_pos, const double *copies,
                               const double *x, double *y) {
  for (Index j = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; j < n;
       j += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index lo = gather_ptr[j], hi = gather_ptr[j + 1];
    double s = 0;
    for (Index p = lo; p < hi; ++p) s = __dadd_rn(s, copies[gather_pos[p]]);
    y[j] = hi > lo ? __ddiv_rn(s, static_cast<double>(hi - lo)) : x[j];
  }
}

// The sum of unknown j's copies in block order, from 0 (the host's acc_j).
__device__ inline double copies_sum(Index j, const Index *gather_ptr, const Index *gather_pos, const double *copies) {
  double s = 0;
  for (Index p = gather_ptr[j]; p < gather_ptr[j + 1]; ++p) s = __dadd_rn(s, copies[gather_pos[p]]);
  return s;
}

// carp under MPI, the averaging of one rank: s_j = copies_sum(j). An owned unknown that no other
// rank adds to is final here: y_j = s_j / m_j (global m), or x_j where no block of any rank touches
// j. The others (the received ones, every ghost) keep s_j in acc for the reverse ADD;
// divide_received_kernel finishes them. y may be x (each j is read, then written, by one thread).
// only_unshared: the owned unknowns that are not received, nothing else (carp_divide_unshared).
__global__ void sum_divide_kernel(Index ncols, Index n, const Index *gather_ptr, const Index *gather_pos,
                                  const double *copies, const double *divisor, const unsigned char *received,
                                  const double *x, double *acc, double *y, bool only_unshared) {
  const Index end = only_unshared ? n : ncols;
  for (Index j = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; j < end;
       j += static_cast<Index>(gridDim.x) * blockDim.x) {
    const bool shared = j >= n || received[j];
    if (only_unshared && shared) continue;
    const double s = copies_sum(j, gather_ptr, gather_pos, copies);
    if (!shared) y[j] = divisor[j] > 0 ? __ddiv_rn(s, divisor[j]) : x[j];
    else acc[j] = s;
  }
}

// carp under MPI, after the sweep of the boundary blocks (carp_sweep_boundary): acc_j = copies_sum(j)
// for the shared unknowns only, the received owned ones rows[k] (k < count), then the ghosts. Only
// boundary blocks touch them, so their copies are final.
__global__ void sum_shared_kernel(Index count, Index nghost, Index n, const Index *rows, const Index *gather_ptr,
                                  const Index *gather_pos, const double *copies, double *acc) {
  for (Index k = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; k < count + nghost;
       k += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index j = k < count ? rows[k] : n + (k - count);
    acc[j] = copies_sum(j, gather_ptr, gather_pos, copies);
  }
}

void copy_device(double *dst, const double *src, Index n, void *stream) {
  if (n > 0 && dst != src)
    PGK_CUDA_CHECK(cudaMemcpyAsync(dst, src, sizeof(double) * static_cast<std::size_t>(n), cudaMemcpyDeviceToDevice,
                                   as_stream(stream)));
}

} // namespace

namespace {

// Colour c's rows projected `passes` times each (colour_kernel), on x in place; false (and no launch)
// for an empty colour. after_colour: the launch before it in the stream is another colour's, so a grid
// of more than one wave may overlap its end (colour_kernel's Programmatic). The first colour of a sweep follows the
// copy or the caller's kernels, and launches plainly: every later colour's early loads then come after those have
// ended.
bool sweep_colour(const CarpcgDevice::Impl &d, int c, int passes, const double *b, double *x, void *stream,
                  bool after_colour) {
  const Index first = d.coloring->class_ptr[c], count = d.coloring->class_size(c);
  if (count == 0) return false;
  with_lanes(d.lanes, [&](auto g) {
    constexpr int G = decltype(g)::value;
    const int grid = group_grid(count, G);
    if (after_colour && grid > d.overlap_min_blocks) {
      launch_dependent(passes == 2 ? colour_kernel<G, 2, true> : colour_kernel<G, 1, true>, dim3(grid), dim3(kThreads),
                       as_stream(stream), matrix_of(d), d.color_rows.data(), first, count, b, d.opt.lambda, x);
    } else {
      auto *kernel = passes == 2 ? colour_kernel<G, 2, false> : colour_kernel<G, 1, false>;
      kernel<<<grid, kThreads, 0, as_stream(stream)>>>(matrix_of(d), d.color_rows.data(), first, count, b, d.opt.lambda,
                                                       x);
    }
  });
  PGK_CUDA_CHECK_LAUNCH();
  return true;
}

// The forward sweep (colours 0..C-1), then the backward one (C-1..0), on x in place: the last
// non-empty colour, where the two meet, in one launch that projects its rows twice.
void multicolor_double_sweep(const CarpcgDevice::Impl &d, const double *b, double *x, void *stream) {
  int last = d.coloring->ncolors - 1;
  while (last >= 0 && d.coloring->class_size(last) == 0) --last;
  if (last < 0) return;
  bool after_colour = false;
  const auto colour = [&](int c, int passes) {
    if (sweep_colour(d, c, passes, b, x, stream, after_colour)) after_colour = true;
  };
  for (int c = 0; c < last; ++c) colour(c, 1);
  colour(last, 2);
  for (int c = last - 1; c >= 0; --c) colour(c, 1);
}

} // namespace

int colour_wave_blocks(int lanes) {
  int blocks = 0;
  with_lanes(lanes,
             [&](auto g) { blocks = residency(colour_kernel<decltype(g)::value, 1, true>, kThreads, 0).blocks(); });
  return std::max(blocks, 1);
}

void CarpcgDevice::multicolor_sweep(const double *b, bool backward, double *x, void *stream) {
  const Impl &d = *impl_;
  if (!d.coloring) throw std::logic_error("carpcg device: multicolor_sweep without a multicolor set-up");
  const int nc = d.coloring->ncolors;
  for (int t = 0; t < nc; ++t) sweep_colour(d, backward ? nc - 1 - t : t, 1, b, x, stream, false);
}

void CarpcgDevice::cimmino_pass(const double *b, const double *x, const double *base, double *out, void *stream) {
  Impl &d = *impl_;
  if (d.t_colptr.size() == 0) throw std::logic_error("carpcg device: cimmino_pass without a cimmino set-up");
  if (d.n == 0) return;
  with_lanes(d.lanes, [&](auto g) {
    coef_kernel<decltype(g)::value><<<group_grid(d.n, decltype(g)::value), kThreads, 0, as_stream(stream)>>>(
        matrix_of(d), d.n, b, d.opt.lambda, x, d.coef.data());
  });
  PGK_CUDA_CHECK_LAUNCH();
  column_sum_kernel<<<thread_grid(d.ncols), kThreads, 0, as_stream(stream)>>>(
      d.ncols, d.t_colptr.data(), d.t_rows.data(), d.t_entry.data(), d.values.data(), d.coef.data(), base, out);
  PGK_CUDA_CHECK_LAUNCH();
}

namespace {

// Blocks swept: ids[0..count) (count < 0: all d.nblocks), on at most `max_grid` CUDA blocks (0: as
// many as the blocks need), each group striding over the blocks.
struct BlockSet {
  const Index *ids = nullptr;
  Index count = -1;
  int max_grid = 0;
};

// Every carp block of `set` sweeps its compact copy of x (the first step of carp_half and
// carp_sweep_divide). x: the owned unknowns (d.n), ghosts: the ghosts (d.ncols - d.n; x + d.n where
// contiguous).
void sweep_blocks(CarpcgDevice::Impl &d, const double *b, bool backward, const double *x, const double *ghosts,
                  void *stream, BlockSet set = {}) {
  if (set.count < 0) set = {nullptr, d.nblocks, set.max_grid};
  if (set.count == 0) return;
  const Blocks blk{
      set.count,           set.ids,           d.block_row_ptr.data(), d.block_rows.data(), d.block_col_ptr.data(),
      d.block_cols.data(), d.local_col.data()};
  with_lanes(d.lanes, [&](auto g) {
    constexpr int G = decltype(g)::value;
    int grid = grid_for(set.count, kSweepThreads / G, kMaxBlocks);
    if (set.max_grid > 0) grid = std::min(grid, set.max_grid);
    block_sweep_kernel<G><<<grid, kSweepThreads, sweep_shared_bytes<G>(d), as_stream(stream)>>>(
        matrix_of(d), blk, b, d.opt.lambda, backward, x, d.n, ghosts, d.copies.data(), d.copy_stride);
  });
  PGK_CUDA_CHECK_LAUNCH();
}

// The interior sweep's CUDA blocks: the fewest that take the fewest rounds (a round: every group
// sweeps one block) over `count` blocks, where possible with one CUDA block of the sweep per SM
// left free for the work that runs meanwhile (the boundary blocks, PETSc's pack and unpack).
int interior_grid_for(const CarpcgDevice::Impl &d, Index count) {
  Residency r;
  int groups = 0;
  with_lanes(d.lanes, [&](auto g) {
    constexpr int G = decltype(g)::value;
    groups = kSweepThreads / G;
    r = residency(block_sweep_kernel<G>, kSweepThreads, sweep_shared_bytes<G>(d));
  });
  const long long resident = std::max(r.blocks(), 1), spared = std::max<long long>(resident - r.sms, 1);
  const auto rounds_on = [&](long long blocks) { return (count + blocks * groups - 1) / (blocks * groups); };
  const long long usable = rounds_on(spared) > rounds_on(resident) ? resident : spared;
  const long long rounds = std::max<long long>(rounds_on(usable), 1);
  return static_cast<int>(std::max<long long>((count + rounds * groups - 1) / (rounds * groups), 1));
}

} // namespace

void CarpcgDevice::load_owned(const double *x, double *x_ext, void *stream) { copy_device(x_ext, x, impl_->n, stream); }

void CarpcgDevice::carp_sweep_divide(const double *b, bool backward, const double *x, double *acc, double *y,
                                     void *stream, const double *ghosts) {
  Impl &d = *impl_;
  if (!d.plan) throw std::logic_error("carpcg device: carp_sweep_divide without a carp set-up");
  if (d.divisor.size() != static_cast<std::size_t>(d.n) || d.received.size() != static_cast<std::size_t>(d.n))
    throw std::logic_error("carpcg device: carp_sweep_divide before set_multiplicity and set_received");
  if (d.ncols == 0) return;
  if (d.nblocks > 0) sweep_blocks(d, b, backward, x, ghosts ? ghosts : x + d.n, stream);
  sum_divide_kernel<<<thread_grid(d.ncols), kThreads, 0, as_stream(stream)>>>(
      d.ncols, d.n, d.gather_ptr.data(), d.gather_pos.data(), d.copies.data(), d.divisor.data(), d.received.data(), x,
      acc, y, false);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::split_blocks(void *stream) {
  Impl &d = *impl_;
  if (!d.plan || d.received.size() != static_cast<std::size_t>(d.n))
    throw std::logic_error("carpcg device: split_blocks before a carp set-up and set_received");
  std::vector<unsigned char> shared(static_cast<std::size_t>(d.ncols), 1); // ghosts, then the received
  std::fill(shared.begin(), shared.begin() + d.n, 0);
  for (const Index j : d.host_received_rows) shared[static_cast<std::size_t>(j)] = 1;
  std::vector<Index> boundary, interior;
  for (Index k = 0; k < d.nblocks; ++k) {
    const std::vector<Index> &cols = d.plan->cols(k);
    const bool touches =
        std::any_of(cols.begin(), cols.end(), [&](Index c) { return shared[static_cast<std::size_t>(c)] != 0; });
    (touches ? boundary : interior).push_back(k);
  }
  d.boundary_ids.upload(boundary.data(), boundary.size(), stream);
  d.interior_ids.upload(interior.data(), interior.size(), stream);
  d.n_boundary = static_cast<Index>(boundary.size());
  d.n_interior = static_cast<Index>(interior.size());
  d.interior_grid = interior_grid_for(d, d.n_interior);
  d.split = true;
}

Index CarpcgDevice::boundary_blocks() const { return impl_->n_boundary; }

void CarpcgDevice::carp_sweep_interior(const double *b, bool backward, const double *x, void *stream) {
  Impl &d = *impl_;
  if (!d.split) throw std::logic_error("carpcg device: carp_sweep_interior before split_blocks");
  sweep_blocks(d, b, backward, x, nullptr, stream, {d.interior_ids.data(), d.n_interior, d.interior_grid});
}

void CarpcgDevice::carp_sweep_boundary(const double *b, bool backward, const double *x, const double *ghosts,
                                       double *acc, void *stream) {
  Impl &d = *impl_;
  if (!d.split) throw std::logic_error("carpcg device: carp_sweep_boundary before split_blocks");
  sweep_blocks(d, b, backward, x, ghosts, stream, {d.boundary_ids.data(), d.n_boundary, 0});
  const Index count = static_cast<Index>(d.received_rows.size()), nghost = d.ncols - d.n;
  if (count + nghost == 0) return;
  sum_shared_kernel<<<thread_grid(count + nghost), kThreads, 0, as_stream(stream)>>>(
      count, nghost, d.n, d.received_rows.data(), d.gather_ptr.data(), d.gather_pos.data(), d.copies.data(), acc);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::carp_divide_unshared(const double *x, double *y, void *stream) {
  Impl &d = *impl_;
  if (!d.split) throw std::logic_error("carpcg device: carp_divide_unshared before split_blocks");
  if (d.n == 0) return;
  sum_divide_kernel<<<thread_grid(d.n), kThreads, 0, as_stream(stream)>>>(
      d.ncols, d.n, d.gather_ptr.data(), d.gather_pos.data(), d.copies.data(), d.divisor.data(), d.received.data(), x,
      nullptr, y, true);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::carp_half(const double *b, bool backward, const double *x, double *y, void *stream) {
  Impl &d = *impl_;
  if (!d.plan) throw std::logic_error("carpcg device: carp_half without a carp set-up");
  if (d.ncols != d.n)
    throw std::logic_error("carpcg device: carp_half averages one rank's blocks only (ghost columns)");
  if (d.n == 0) return;
  sweep_blocks(d, b, backward, x, x + d.n, stream);
  average_kernel<<<thread_grid(d.n), kThreads, 0, as_stream(stream)>>>(d.n, d.gather_ptr.data(), d.gather_pos.data(),
                                                                       d.copies.data(), x, y);
  PGK_CUDA_CHECK_LAUNCH();
}

void CarpcgDevice::double_sweep(const double *x, const double *b, double *y, void *stream) {
  Impl &d = *impl_;
  if (!d.ready) throw std::logic_error("carpcg device: double_sweep before a successful set-up");
  if (d.ncols != d.n) throw std::logic_error("carpcg device: double_sweep with ghost columns (the caller exchanges)");
  if (d.n == 0) return;
  // The work depends on x, b and y and on this set-up's arrays, which live as long as the cache.
  // multicolor only: its 2 x colours launches are what the graph saves (9.5% of an iteration at
  // 361k rows on an H200, 1.2% at 4M); carp's and cimmino's four kernels gained nothing, and carp
  // at 4M rows ran 0.7% slower from a graph (bench/NOTES.md, 2026-12-01).
  if (d.opt.graph && d.opt.scheme == pgk::carpcg::Scheme::Multicolor)
    d.graphs.run({x, b, y, nullptr}, stream, [&](void *s) { enqueue_double_sweep(x, b, y, s); });
  else enqueue_double_sweep(x, b, y, stream);
}

std::size_t CarpcgDevice::graph_launches() const { return impl_->graphs.launches(); }
std::size_t CarpcgDevice::graphs() const { return impl_->graphs.graphs(); }

void CarpcgDevice::enqueue_double_sweep(const double *x, const double *b, double *y, void *stream) {
  Impl &d = *impl_;
  switch (d.opt.scheme) {
  case pgk::carpcg::Scheme::Multicolor:
    copy_device(y, x, d.n, stream);
    multicolor_double_sweep(d, b, y, stream);
    break;
  case pgk::carpcg::Scheme::Cimmino:
    cimmino_pass(b, x, x, d.mid.data(), stream);
    cimmino_pass(b, d.mid.data(), d.mid.data(), y, stream);
    break;
  case pgk::carpcg::Scheme::Carp:
    carp_half(b, false, x, d.mid.data(), stream);
    carp_half(b, true, d.mid.data(), y, stream);
    break;
  case pgk::carpcg::Scheme::Sequential: throw std::logic_error("carpcg device: no sequential scheme");
  }
}

} // namespace pgk::cuda
