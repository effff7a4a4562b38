// Options, statistics and small graph helpers shared by every Reverse Cuthill-McKee backend
// (serial reference, multicore batch RCM, device version).
//
// Conventions every backend follows, so that all of them return the same permutation:
//  * Graph: a square CSR pattern whose row p lists the neighbours of p. It must be
//    structurally symmetric (use symmetrize_pattern, or Options::input_is_symmetric = false).
//    Values are ignored; rows need not be sorted, duplicates and self loops are allowed.
//  * Valence v(n): the number of entries stored in row n (the paper's r[n+1] - r[n]), so a
//    stored diagonal and duplicate entries count. With count_diagonal_in_valence = false the
//    entries of row n whose column is n are left out (PETSc's symmetric MatGetRowIJ graph has
//    no diagonal, so this is the setting that matches PETSc's degree).
//  * Tie rule: a vertex is the child of its neighbour that comes first in the Cuthill-McKee
//    order. The children of one parent are ordered by ascending valence; children of equal
//    valence keep the order in which they appear in the parent's row (a stable sort).
//  * Components: ordered one after another, see plan_components (rcm_start_node.hpp).
//  * Reversal: per component. Each component's Cuthill-McKee sequence is reversed in place,
//    and the components keep the order in which they were planned (like SPARSPAK/PETSc genrcm).
//    For a connected graph this is plain reverse(CM order).
//  * Result: perm[new] = old.
#pragma once

#include "src/common/csr.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace pgk {
class ThreadPool;
}

namespace pgk::rcm {

enum class StartNode {
  Peripheral, // the paper's repeated BFS: restart from the lowest-valence node of the last level
  GeorgeLiu,  // SPARSPAK FNROOT (George & Liu), the finder behind PETSc's MATORDERINGRCM
  Given,      // Options::given_start; the other components use Peripheral
};

// Tuning of the multicore backend (batch_rcm_cpu*, batch.hpp); the other backends ignore it.
struct CpuTuning {
  int threads = 0;                   // worker threads; 0: pgk::usable_cores()
  Index max_batch_nodes = 512;       // B: parents per batch
  Index max_batch_valence = 16384;   // T: target for the children scratch of one batch (valence sum)
  std::size_t queue_slots = 1 << 17; // ring of batch records; >= 2
  int batches_per_worker = 2;        // batches one worker may hold at once (paper: 2 on the CPU)
  // Testing only: nonzero inserts pseudo-random yields and spins (seeded by this value) inside
  // and between the steps of each batch. On few cores, small batches rarely overlap, so the
  // speculative paths would go untested; the pauses make them overlap. Results are unaffected.
  std::uint64_t stress_seed = 0;
};

// How the device backend cuts a batch's children (and the overhang it received) into new
// batches. The permutation is the same either way; only the number of batches differs.
enum class GpuBatchCut {
  Walker, // the paper's: a batch closes at B parents or T scratch entries, in output order; an
          // output of less than half a batch is forwarded whole to the next batch
  Nodes,  // rows of similar length: batches of exactly min(B, T / longest row) parents, the
          // remainder forwarded; falls back to Walker per batch for long or irregular rows
};

// The device backend's algorithm. Both give the serial reference's permutation.
enum class GpuAlgorithm {
  Levels, // level-synchronous Cuthill-McKee in one cooperative kernel, three grid barriers a
          // level (kernels/batchrcm/levels.cu); graphs with a row over 128 entries run Batch.
          // The default: on an H200 its ordering phase took 3.8x less than Batch's on
          // lap3d7:n=128, 5.7x on lap3d27:n=100, 3.1x on lap2d5:n=3000, 5.2x on lap3d7:n=245 and
          // 1.8x on a path of 100k vertices (bench/NOTES.md, twentieth session).
  Batch,  // the paper's speculative batches in a persistent kernel (kernels/batchrcm/batch.cu)
};

// Tuning of the device backend (pgk::cuda::rcm_gpu*, kernels/batchrcm/rcm_gpu.hpp); the other
// backends ignore it.
struct GpuTuning {
  // B: parents per batch, 1..512 (the paper's 256), or 0: chosen from the start-node search,
  // 512 where its BFS levels hold 4096 vertices or more on average, else 256 (256 when the roots
  // are given). A batch is bounded by T as well, so B above 256 only matters for rows of fewer
  // than 8 entries. Measured on an H200 with the node cut: 512 is 4-10% faster on 3D 7-point
  // meshes (5.5k-20k vertices a level) and 12% slower on a 2D 5-point one (1.5k a level), whose
  // chain then has too few batches a level to overlap their discovery.
  int batch_nodes = 0;
  // T: a batch's shared-memory scratch in row entries, 2..4096, or 0: chosen from the start-node
  // search, 4096 where its BFS levels hold 8192 vertices or more on average and indices are
  // 32-bit, else 2048 (2048 when the roots are given). Up to 2048 runs the small-scratch kernel,
  // above it the large one (twice the shared memory, one block a multiprocessor with 64-bit
  // indices). Measured on an H200 (bench/NOTES.md): the large scratch makes batches of rows of 7
  // or 27 entries 1.75-2x fuller (T / row length parents instead of 292 or 75), and took the
  // ordering phase 1.4x down on lap3d27:n=100 and 1.1x on lap3d7:n=245, but its batches take
  // longer, which costs 1.3x on lap3d7:n=128 (5.5k vertices a level) and 1.5x on a 2D mesh.
  int batch_valence = 0;
  GpuBatchCut batch_cut = GpuBatchCut::Nodes;
  GpuAlgorithm algorithm = GpuAlgorithm::Levels;
  int levels_blocks = 0; // Levels: blocks of its grid (1: one block, block barriers only); 0: max_blocks
  // Ring of batch records (80 bytes each); 0 picks min(n + #components + 2, 2^20), which never
  // wraps below a million vertices. Too small a ring is reported (BatchQueueOverflow).
  std::size_t queue_slots = 0;
  int max_blocks = 0;             // caps the persistent grids (batch kernel, BFS); 0: occupancy x multiprocessors
  double watchdog_seconds = 60.0; // a single wait longer than this aborts (never a hang)
  // Testing only: nonzero inserts pseudo-random sleeps between the steps of each batch so that
  // the speculative paths overlap differently on every seed. Results are unaffected.
  std::uint64_t stress_seed = 0;
};

// The one options struct of every RCM entry point (serial, multicore, device): the ordering
// rules, which all backends follow alike, and each backend's own tuning. The *_from_roots entry
// points read count_diagonal_in_valence and their tuning only: the roots replace start and
// given_start, and their graph must already be symmetric.
struct Options {
  StartNode start = StartNode::Peripheral;
  Index given_start = 0;                 // used with StartNode::Given
  bool count_diagonal_in_valence = true; // true: the paper's r[n+1] - r[n]
  // false: the pattern is not known to be symmetric. The host backends then check it (sorted
  // rows, symmetric: ordered as is) and build pattern(A + A^T) only when the check fails; the
  // permutation is that of pattern(A + A^T) either way.
  bool input_is_symmetric = true;
  CpuTuning cpu; // batch_rcm_cpu only
  GpuTuning gpu; // pgk::cuda::rcm_gpu only
};

// Thrown where an ordering finds that a graph promised symmetric (input_is_symmetric) is not,
// so that a caller can name what made the promise (PETSc's structural-symmetry flag).
struct NotSymmetric : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Filled by the top-level entry points when a pointer is passed. Times are wall-clock seconds.
struct Stats {
  double symmetrize_seconds = 0;    // only when Options::input_is_symmetric is false: check + build
  bool pattern_symmetrized = false; // host backends: pattern(A + A^T) was built (the check failed)
  double start_node_seconds = 0;    // plan_components: pseudo-peripheral roots of every component
  double ordering_seconds = 0;      // the core ordering from the given roots, reversal included
  Index components = 0;
  // Batch backends only.
  // Every executed batch took exactly one of the three discovery paths of Alg. 5.
  std::uint64_t batches_executed = 0;                 // taken from the queue and run to the end
  std::uint64_t batches_without_rediscovery = 0;      // predecessors had all discovered before it began
  std::uint64_t batches_rediscovered_before_sort = 0; // ... had by the end of its discovery
  std::uint64_t batches_rediscovered_after_sort = 0;  // waited for Discovered after sorting
  std::uint64_t batches_forwarding_overhang = 0;      // output too small, passed on to the next batch
  std::uint64_t batches_dropped = 0;                  // taken after the permutation was complete
  int threads = 0;
};

// Throws std::invalid_argument unless g is a square CSR graph with a well-formed row pointer
// and every column index in [0, n). Costs one pass over the arrays; with a pool, long arrays are
// checked on its threads (the message, naming the first bad row or entry, is the same).
void validate_graph(const CsrView &g, ThreadPool *pool = nullptr);

// v(n) for every vertex, following the valence rule above; on the pool's threads when given (each
// thread writes, and so first touches, its own slice).
std::vector<Index> compute_valence(const CsrView &g, bool count_diagonal, ThreadPool *pool = nullptr);

// True when p holds every value of [0, n) exactly once.
bool is_permutation(const std::vector<Index> &p, Index n);

} // namespace pgk::rcm
