// Shared by the carpcg kernels: the device data of one operator (CarpcgDevice::Impl) and the
// row projection of src/carpcg/sweep.cpp done by a group of G lanes (G = 4..32, set-up's lanes).
//
// Bitwise agreement with the host reference needs the same operations in the same order:
// every product and sum goes through __dmul_rn / __dadd_rn, which nvcc never contracts into a
// fused multiply-add (the host build does not contract either: no -mfma), and a row's dot
// product is summed in storage order, the lanes' products handed to the sum one by one by
// shuffles (the loads are parallel, the additions sequential as on the host), whatever G is.
#pragma once

#include "kernels/carpcg/carpcg_gpu.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/graph_cache.hpp"
#include "kernels/common/launch.cuh"

#include <optional>
#include <type_traits>
#include <vector>

namespace pgk::cuda {

struct CarpcgDevice::Impl {
  CarpcgDeviceOptions opt;
  CarpcgSetupTimes times;
  bool ready = false;
  Index n = 0, ncols = 0, nnz = 0; // ncols > n: a rank's rows over owned unknowns and ghosts
  DeviceBuffer<Index> rowptr, colidx;
  DeviceBuffer<double> values, norms2;
  DeviceBuffer<double> mid; // the result of the first half of a double sweep
  // multicolor: the rows grouped by colour (device), the class offsets (host). The operator's
  // arrays above (rowptr, colidx, values, norms2) then hold the rows in that order: stored row w
  // is A's row row_of[w] (row_of = color_rows; nullptr for the other schemes: natural order).
  std::optional<pgk::carpcg::Coloring> coloring;
  DeviceBuffer<Index> color_rows;
  const Index *row_of = nullptr;
  // cimmino: the transpose (columns' rows ascending, and the position of each entry in a's
  // value array), the coefficients of a pass.
  DeviceBuffer<Index> t_colptr, t_rows, t_entry;
  DeviceBuffer<double> coef;
  // carp: the BlockPlan as device arrays; `copies` holds every block's compact copy.
  std::optional<pgk::carpcg::BlockPlan> plan;
  Index nblocks = 0;
  DeviceBuffer<Index> block_row_ptr, block_rows, block_col_ptr, block_cols, local_col;
  DeviceBuffer<Index> gather_ptr, gather_pos; // per unknown: its positions in `copies`, block order
  DeviceBuffer<double> copies, weights;
  // The shared doubles a group of the block sweep keeps its block's copy in (sweeps.cu; 0: every copy
  // in global memory): the widest block within the cap of kCopyPerLane * lanes doubles, not the cap.
  // fem2d's 64-row blocks span about 196 columns, so at 8 lanes a CUDA block takes 25 KiB instead of
  // 32 and 8 fit an SM instead of 6 (the registers' limit; ncu at 1M rows: 979 CUDA blocks, 1.24
  // waves at 6 an SM, one wave at 8). 0 where fewer than half of the blocks fit: the shared array
  // halves the resident groups at its cap, so where most blocks do not fit (few, long blocks, as in
  // 65536 blocks over 16M rows) their global-memory sweep would run at half the occupancy.
  Index copy_stride = 0;
  DeviceBuffer<double> divisor; // set_multiplicity: the global |L_j| of the owned unknowns
  // set_received: the owned unknowns other ranks add ghost sums to (a flag per owned unknown, and
  // their list), whose division waits for the reverse ADD.
  DeviceBuffer<unsigned char> received;
  DeviceBuffer<Index> received_rows;
  std::vector<Index> host_received_rows;
  // split_blocks: the blocks touching a shared unknown (received or ghost) and the others, and the
  // interior sweep's CUDA blocks.
  bool split = false;
  DeviceBuffer<Index> boundary_ids, interior_ids;
  Index n_boundary = 0, n_interior = 0;
  int interior_grid = 1;
  DeviceBuffer<double> ghost_divisor; // set_ghost_multiplicity: the global |L_j| of the ghosts
  std::vector<double> host_weights;
  // dots: per-block partial sums and the results.
  DeviceBuffer<double> partials, dot_out;
  int lanes = 32;              // lanes per row (carpcg_lanes_per_row)
  long overlap_min_blocks = 0; // multicolor: opt.overlap_min_blocks resolved (-1: colour_wave_blocks)
  GraphCache graphs;           // double_sweep's graphs, keyed by (x, b, y): dropped with this set-up
};

// multicolor: how many CUDA blocks of the colour kernel with `lanes` lanes a row the device holds at
// once (sweeps.cu): by default a colour with more blocks than that overlaps the colour before it.
int colour_wave_blocks(int lanes);

namespace carpcg_detail {

constexpr int kThreads = 256; // 8 warps per block in the warp-per-row kernels
constexpr long long kMaxBlocks = 1 << 16;
constexpr int kCopyPerLane = 32; // carp: shared-memory doubles per lane of a group (sweeps.cu)
constexpr int kDotBlocks = 1024; // the dots' partial sums per dot (fixed order: at most this many)

// The G lanes (G = 4, 8, 16 or 32, a power of two dividing the warp) that share one row: lane
// `group_lane()` of group `subwarp_mask<G>()` (kernels/common/launch.cuh) within the warp. A group's lanes run the same
// loops, so the group-masked shuffles and syncs below only ever wait for each other.
template <int G> __device__ inline int group_lane() { return static_cast<int>(threadIdx.x % G); }
template <int G> __device__ inline Index group_id() {
  return (blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x) / G;
}
template <int G> __device__ inline Index group_count() { return static_cast<Index>(gridDim.x) * blockDim.x / G; }

// Adds the group's products p (lane t's = entry base + t, m <= G of them) to s in lane order.
template <int G> __device__ inline double add_in_order(double s, double p, int m, unsigned mask) {
  for (int t = 0; t < m; ++t) s = __dadd_rn(s, __shfl_sync(mask, p, t, G));
  return s;
}

// add_in_order as the projection's default way to add the lanes' products (a type, so that an
// experiment can hand project_head another order-keeping addition: bench/carpcg/chain_sweep.cu).
template <int G> struct AddInOrder {
  __device__ double operator()(double s, double p, int m, unsigned mask) const {
    return add_in_order<G>(s, p, m, mask);
  }
};

// add_in_order with the G shuffles issued first (a compile-time trip count, so none waits for the
// addition before it) and the m additions after, in lane order: the same sums. The products are held
// in G registers, so the kernel needs room for them (the multicolor colour kernel's launch bounds).
template <int G> struct AddShufflesFirst {
  __device__ double operator()(double s, double p, int m, unsigned mask) const {
    double q[G];
#pragma unroll
    for (int t = 0; t < G; ++t) q[t] = __shfl_sync(mask, p, t, G);
#pragma unroll
    for (int t = 0; t < G; ++t)
      if (t < m) s = __dadd_rn(s, q[t]);
    return s;
  }
};

// The ordered sum of short rows (groups of up to 8 lanes): shuffles first; wider groups would hold
// 16 or 32 products in registers, so they keep add_in_order. Used by the colour kernel (multicolor),
// carp's block sweeps (project_ahead) and ordered_dot (cimmino's coefficients, the residual).
template <int G> using RowAdd = std::conditional_t<(G <= 8), AddShufflesFirst<G>, AddInOrder<G>>;

// Group-uniform: a row's dot product a_i . x summed in storage order (lo..hi), every lane of the
// group gets it. The lanes load in parallel; the sum takes their products one by one, so the
// additions (and the bits) are the same for every G and the host's.
template <int G>
__device__ inline double ordered_dot(Index lo, Index hi, const Index *cols, const double *vals, const double *x,
                                     int lane) {
  const unsigned mask = subwarp_mask<G>();
  double s = 0;
  for (Index base = lo; base < hi; base += G) {
    const Index k = base + lane;
    const double p = k < hi ? __dmul_rn(vals[k], x[cols[k]]) : 0.0;
    s = RowAdd<G>{}(s, p, hi - base < G ? static_cast<int>(hi - base) : G, mask);
  }
  return s;
}

// What a lane of a row's group of G lanes loads before it reads x: the row's entries lo..hi and
// the lane's first two entries (columns and values; the lane keeps them in registers for the
// update). The norm and b are the caller's. Loading it apart from the projection lets a caller issue these loads early
// (before a wait), and the projection is then the same operations on the same values.
struct RowHead {
  Index lo, hi, c0, c1;
  double v0, v1;
};

// A's arrays are read with streaming loads (ld.global.cs: evict first in L1 and L2): a colour
// touches most of x (a row's unknowns are disjoint from the colour's other rows'), so x is what L2
// should keep between the colours, and A is read once a sweep.
template <int G>
__device__ inline RowHead load_row_head(Index lo, Index hi, const Index *cols, const double *vals, int lane) {
  const Index k0 = lo + lane, k1 = lo + G + lane;
  return {lo,
          hi,
          k0 < hi ? __ldcs(cols + k0) : 0,
          k1 < hi ? __ldcs(cols + k1) : 0,
          k0 < hi ? __ldcs(vals + k0) : 0.0,
          k1 < hi ? __ldcs(vals + k1) : 0.0};
}

// The projection of one row (sweep.cpp's project_row) from its head, group-uniform, in
// ordered_dot's order; entries past the first 2G are read here. The lanes update distinct unknowns.
template <int G, class Add = AddInOrder<G>>
__device__ inline void project_head(const RowHead &r, const Index *cols, const double *vals, double norm2, double bi,
                                    double lambda, double *x, int lane, Add add = {}) {
  const unsigned mask = subwarp_mask<G>();
  const Index k0 = r.lo + lane, k1 = r.lo + G + lane, hi = r.hi;
  const double p0 = k0 < hi ? __dmul_rn(r.v0, x[r.c0]) : 0.0, p1 = k1 < hi ? __dmul_rn(r.v1, x[r.c1]) : 0.0;
  const Index len = hi - r.lo;
  double s = add(0.0, p0, len < G ? static_cast<int>(len) : G, mask);
  if (len > G) s = add(s, p1, len - G < G ? static_cast<int>(len - G) : G, mask);
  for (Index base = r.lo + 2 * G; base < hi; base += G) {
    const Index k = base + lane;
    const double p = k < hi ? __dmul_rn(__ldcs(vals + k), x[__ldcs(cols + k)]) : 0.0;
    s = add(s, p, hi - base < G ? static_cast<int>(hi - base) : G, mask);
  }
  const double coef = __dmul_rn(lambda, __ddiv_rn(__dsub_rn(bi, s), norm2));
  if (k0 < hi) x[r.c0] = __dadd_rn(x[r.c0], __dmul_rn(coef, r.v0));
  if (k1 < hi) x[r.c1] = __dadd_rn(x[r.c1], __dmul_rn(coef, r.v1));
  for (Index k = r.lo + 2 * G + lane; k < hi; k += G) x[cols[k]] = __dadd_rn(x[cols[k]], __dmul_rn(coef, vals[k]));
}

// Blocks of kThreads threads for `rows` groups of G lanes.
inline int group_grid(Index rows, int lanes) { return grid_for(rows, kThreads / lanes, kMaxBlocks); }
inline int thread_grid(Index items) { return grid_for(items, kThreads, kMaxBlocks); }

} // namespace carpcg_detail
} // namespace pgk::cuda
