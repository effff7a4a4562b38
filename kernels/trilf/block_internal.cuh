// Internal steps of the device block pipeline (block_pc.hpp), one .cu file each.
// Every function takes device pointers, enqueues on `s`, and synchronizes only where it has to
// bring a scalar (a count, an error flag) back; sizes of zero launch nothing.
#pragma once

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"
#include "src/trilf/block.hpp"
#include "kernels/trilf/primitives.hpp"

#include <cuda_runtime.h>

namespace pgk::cuda::trilf::blk {

constexpr int kThreads = 256;
// Grid cap of the block steps' grid-stride loops.
constexpr long long kMaxBlocks = 65535LL * 16;

// ---- block_coarse.cu ---------------------------------------------------------------------------
// pgk::trilf::pair_along_paths on a device path order (perm, path_head per position): the
// vertices at positions (h, h+1), (h+2, h+3), ... of the path starting at h are partners; the
// last vertex of an odd path gets -1. partner: n entries, every one written.
void pair_along_paths(const Index *perm, const Index *path_head, Index n, Index *partner, cudaStream_t s);
// Coarse numbering of pair_vertices: coarse id = rank of v among the vertices that are the
// smaller member of their pair or unmatched. Returns the number of coarse vertices.
Index number_coarse(const Index *partner, Index n, DeviceBuffer<Index> &coarse_of, DeviceBuffer<Index> &members,
                    DeviceBuffer<unsigned char> &scratch, cudaStream_t s);
// coarse_graph(W, pairing) on the device; rowptr/colidx/values are (re)allocated.
void contract_graph(const CsrView &w, const Index *coarse_of, const Index *members, Index nc,
                    DeviceBuffer<Index> &rowptr, DeviceBuffer<Index> &colidx, DeviceBuffer<double> &values,
                    DeviceBuffer<unsigned char> &scratch, cudaStream_t s);

// ---- block_assemble.cu -------------------------------------------------------------------------
// order_blocks: slots[2k+t] = members[2 perm[k] + t]; pos[slots[s]] = s.
void order_blocks(const Index *members, const Index *perm, Index nb, Index *slots, Index *pos, cudaStream_t s);
struct Coverage {
  double total = 0, kept = 0, ident = 0; // omega_G, block tridiagonal share, tridiagonal share
};
// assemble_block on the device: lower/diag/upper get 4 doubles per block. path_head[k]: first
// block of k's coarse path. A non-finite value of A throws std::domain_error naming the first
// (row, column) in row-major order, like check_matrix. cov != nullptr: also the coverage sums
// (setup only; deterministic reductions).
void assemble(const CsrView &a, const Index *slots, const Index *pos, const Index *path_head, Index nb, double *lower,
              double *diag, double *upper, Coverage *cov, DeviceBuffer<unsigned char> &scratch, cudaStream_t s);

// ---- block_factor.cu ---------------------------------------------------------------------------
// factor_block in place on (lower, diag, upper) -> T~, one thread per coarse path; also the
// apply operands neg_mult = -M_k, inv = D'_k^-1, back = -D'_k^-1 U~_k. Throws
// std::domain_error like the reference (slots name the row). Returns splits and replaced.
struct FactorCounts {
  Index splits = 0, replaced = 0;
};
FactorCounts factor(Index nb, const Index *path_head, const Index *slots, double rel_tol, double *lower, double *diag,
                    double *upper, double *neg_mult, double *inv, double *back, DeviceBuffer<unsigned char> &scratch,
                    cudaStream_t s);

// ---- block_solve.cu ----------------------------------------------------------------------------
// Bytes of the per-tile workspace the scans need for nb blocks.
std::size_t scan_workspace_bytes(Index nb);
// z = T~^-1 r (transpose = false) or T~^-T r, original ordering. tmp: 2 nb doubles.
void solve(bool transpose, Index nb, const Index *slots, const double *neg_mult, const double *inv, const double *back,
           const double *r, double *z, double *tmp, unsigned char *tiles, cudaStream_t s);

} // namespace pgk::cuda::trilf::blk
