// MatOrdering batchrcm: Reverse Cuthill-McKee computed where the matrix lives, identical to
// the serial reference (src/batchrcm/serial.hpp) for the same start node, on every backend:
//   serial - src/batchrcm/level_rcm.cpp on one thread (host algorithm levels, the default), or
//            src/batchrcm/serial.cpp (host algorithm paper: the reference, Alg. 1 of Mlakar et al.)
//   cpu    - src/batchrcm/level_rcm.cpp on all cores (levels), or src/batchrcm/batch.cpp
//            (paper: speculative batch RCM, Alg. 4/5)
//   gpu    - kernels/batchrcm/: levels.cu (level-synchronous, one cooperative kernel; gpu
//            algorithm levels, the default, for rows of up to 128 entries) or batch.cu
//            (speculative batch RCM with persistent thread blocks; gpu algorithm paper)
// All take the same pgk::rcm::Options. levels fuses the start-node search with the ordering (the
// last BFS of the search is the ordering pass); George-Liu's finder and graphs too large for its
// packed claims take the paper's path.
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <petsc/private/matimpl.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "petsc_plugin/order/batchrcm.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "petsc_plugin/sys/permutation_is.hpp"
#include "src/common/envelope.hpp"
#include "src/batchrcm/batch.hpp"
#include "src/batchrcm/level_rcm.hpp"
#include "src/batchrcm/serial.hpp"

PetscLogEvent PGK_EVENT_RcmOrdering;

typedef enum { BATCHRCM_AUTO, BATCHRCM_SERIAL, BATCHRCM_CPU, BATCHRCM_GPU } BatchRCMBackend;
static const char *const BatchRCMBackends[] = {"auto", "serial", "cpu", "gpu", "BatchRCMBackend", "BATCHRCM_", NULL};
typedef enum { BATCHRCM_LEVELS, BATCHRCM_PAPER } BatchRCMAlgorithm;
static const char *const BatchRCMAlgorithms[] = {"levels", "paper", "BatchRCMAlgorithm", "BATCHRCM_", NULL};

struct BatchRCMOptions {
  BatchRCMBackend     backend             = BATCHRCM_AUTO;
  BatchRCMAlgorithm   host_algorithm      = BATCHRCM_LEVELS;
  BatchRCMAlgorithm   gpu_algorithm       = BATCHRCM_LEVELS;
  PetscInt            threads             = 0; // 0: the cores of this node shared among its ranks
  PetscInt            min_parallel_nnz    = 200000;
  PetscInt            min_cpu_nnz         = 2500000; // host data: below it one thread wins (bench/NOTES.md)
  PetscBool           diagonal_in_valence = PETSC_TRUE;
  PetscBool           view                = PETSC_FALSE;
  pgk::rcm::StartNode start               = pgk::rcm::StartNode::Peripheral;
  PetscInt            given_start         = 0;
};

static PetscErrorCode BatchRCMGetOptions(Mat mat, BatchRCMOptions *o)
{
  char      start[64] = "peripheral";
  PetscBool set;

  PetscFunctionBegin;
  PetscOptionsBegin(PetscObjectComm((PetscObject)mat), ((PetscObject)mat)->prefix, "MatOrdering batchrcm options", "MatGetOrdering");
  PetscCall(PetscOptionsEnum("-mat_ordering_batchrcm_backend", "Where to compute the ordering: auto (serial below min_parallel_nnz, else gpu for device data, else cpu from min_cpu_nnz)", "MATORDERINGBATCHRCM", BatchRCMBackends, (PetscEnum)o->backend,
                             (PetscEnum *)&o->backend, NULL));
  PetscCall(PetscOptionsEnum("-mat_ordering_batchrcm_host_algorithm", "serial and cpu backends: levels (level-synchronous, start-node search fused with the ordering) or paper (serial: Alg. 1, the reference; cpu: speculative batches, Alg. 4/5)",
                             "MATORDERINGBATCHRCM", BatchRCMAlgorithms, (PetscEnum)o->host_algorithm, (PetscEnum *)&o->host_algorithm, NULL));
  PetscCall(PetscOptionsEnum("-mat_ordering_batchrcm_gpu_algorithm", "gpu backend: levels (level-synchronous, one cooperative kernel; rows of up to 128 entries, else paper) or paper (speculative batches, persistent blocks)", "MATORDERINGBATCHRCM",
                             BatchRCMAlgorithms, (PetscEnum)o->gpu_algorithm, (PetscEnum *)&o->gpu_algorithm, NULL));
  PetscCall(PetscOptionsInt("-mat_ordering_batchrcm_threads", "Threads of the cpu backend (0: cores of this node divided among its ranks, at most those it is bound to)", "MATORDERINGBATCHRCM", o->threads, &o->threads, NULL));
  PetscCall(PetscOptionsInt("-mat_ordering_batchrcm_min_parallel_nnz", "auto: below this many nonzeros (local) use the serial backend", "MATORDERINGBATCHRCM", o->min_parallel_nnz, &o->min_parallel_nnz, NULL));
  PetscCall(PetscOptionsInt("-mat_ordering_batchrcm_min_cpu_nnz", "auto, host data: below this many nonzeros (local) use the serial backend, from it the cpu backend", "MATORDERINGBATCHRCM", o->min_cpu_nnz, &o->min_cpu_nnz, NULL));
  PetscCall(PetscOptionsString("-mat_ordering_batchrcm_start", "Start node: peripheral (repeated BFS, the paper), georgeliu (SPARSPAK fnroot, PETSc's rcm) or a row index", "MATORDERINGBATCHRCM", start, start, sizeof start, &set));
  PetscCall(PetscOptionsBool("-mat_ordering_batchrcm_diagonal_in_valence", "Count a stored diagonal entry in a node's valence (the paper's convention)", "MATORDERINGBATCHRCM", o->diagonal_in_valence, &o->diagonal_in_valence, NULL));
  PetscCall(PetscOptionsBool("-mat_ordering_batchrcm_view", "Print bandwidth and profile before and after, and the time per phase", "MATORDERINGBATCHRCM", o->view, &o->view, NULL));
  PetscOptionsEnd();
  PetscCheck(o->threads >= 0, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_OUTOFRANGE, "-mat_ordering_batchrcm_threads must be >= 0 (0: default); got %" PetscInt_FMT, o->threads);
  if (!std::strcmp(start, "peripheral") || !std::strcmp(start, "auto")) o->start = pgk::rcm::StartNode::Peripheral;
  else if (!std::strcmp(start, "georgeliu")) o->start = pgk::rcm::StartNode::GeorgeLiu;
  else {
    char *end;
    long  v = std::strtol(start, &end, 10);
    PetscCheck(*start && !*end && v >= 0, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_WRONG, "-mat_ordering_batchrcm_start: expected peripheral, georgeliu or a row index; got '%s'", start);
    o->start       = pgk::rcm::StartNode::Given;
    o->given_start = (PetscInt)v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The bandwidth and profile, before and after, come from one pass over the host structure on the
// cpu backend's threads (the node's share of cores for the other backends): with a serial pass
// per envelope, the report cost 200-500 ms on a 7M-nonzero matrix, several times the ordering.
static PetscErrorCode BatchRCMView(const char *backend, PetscBool levels, const BatchRCMOptions &o, PetscInt threads, const pgk::CsrView &host_graph, const std::vector<PetscInt> &perm, const pgk::rcm::Stats &st, PetscBool sym_known,
                                   PetscLogDouble total)
{
  pgk::EnvelopeChange env;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, env = pgk::envelope_change(host_graph, perm, (int)(threads > 0 ? threads : PgkNodeThreadShare())));
  const pgk::Envelope &before = env.before, &after = env.after;
  const char          *start = o.start == pgk::rcm::StartNode::GeorgeLiu ? "georgeliu" : o.start == pgk::rcm::StartNode::Given ? "given" : "peripheral";
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "MatOrdering batchrcm: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, backend %s", host_graph.nrows, host_graph.nnz_host(), backend));
  if (threads > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, " (%" PetscInt_FMT " threads)", threads));
  if (std::strcmp(backend, "gpu")) PetscCall(PetscPrintf(PETSC_COMM_SELF, ", host algorithm %s", levels ? "levels" : "paper"));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, ", gpu algorithm %s", levels ? "levels" : o.gpu_algorithm == BATCHRCM_LEVELS ? "paper (a row over 128 entries)" : "paper"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, ", start node %s, %" PetscInt_FMT " components\n", start, (PetscInt)st.components));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  bandwidth %" PetscInt_FMT " -> %" PetscInt_FMT ", profile %lld -> %lld\n", (PetscInt)before.bandwidth, (PetscInt)after.bandwidth, (long long)before.profile, (long long)after.profile));
  // Host backends only: the device path decides symmetry on the device and does not say.
  if (std::strcmp(backend, "gpu"))
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  pattern: %s\n", sym_known ? "structurally symmetric (flag set), ordered as is" : st.pattern_symmetrized ? "not symmetric, ordered on pattern(A + A^T)" : "checked symmetric, ordered as is"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  time: symmetrize %.3e s, start node %.3e s, ordering %.3e s, total %.3e s\n", st.symmetrize_seconds, st.start_node_seconds, st.ordering_seconds, (double)total));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The backend, decided from the host structure (which every AIJ type keeps current, so the
// decision moves nothing) and where the values live. auto: serial below the size where
// parallelism pays; else the GPU when the device copy is current; else all cores from the size
// where they beat one (min_cpu_nnz: the thread starts and level handshakes cost more than they
// save below it, measured on an H200 node, bench/NOTES.md), one below it. George-Liu's finder
// needs the serial BFS order, so auto keeps it on the host.
static PetscErrorCode BatchRCMChooseBackend(Mat mat, const BatchRCMOptions &o, const PgkMatCSR &host, BatchRCMBackend *backend)
{
  PetscBool      device_current = PETSC_FALSE;
  const PetscInt nnz            = host.csr.nnz_host();

  PetscFunctionBegin;
  *backend = o.backend;
  if (*backend != BATCHRCM_AUTO) PetscFunctionReturn(PETSC_SUCCESS);
  if (nnz < o.min_parallel_nnz) *backend = BATCHRCM_SERIAL;
  else {
    if (o.start != pgk::rcm::StartNode::GeorgeLiu) PetscCall(PgkMatDeviceCurrent(mat, &device_current));
    *backend = device_current ? BATCHRCM_GPU : nnz < o.min_cpu_nnz ? BATCHRCM_SERIAL : BATCHRCM_CPU;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The GPU backend's index set, destroyed on an early (error) return unless handed out.
struct GpuPermutationSet {
  IS        is  = nullptr;
  PetscInt *idx = nullptr; // the set's array: the permutation once the ordering returned
  ~GpuPermutationSet() { (void)ISDestroy(&is); }
};

// A PetscMalloc1 array, freed on an early (error) return unless released to PETSc.
struct OwnedIndices {
  PetscInt *p = nullptr;
  ~OwnedIndices() { (void)PetscFree(p); }
};

// rcm_gpu_into on the device pattern `dev`, downloading into a fresh array that becomes the set's
// while the device orders (its while_ordering hook): the array's pages are faulted in, and PETSc's
// bounds scan of a new set runs, while the device searches start nodes and orders (levels; the
// paper's kernel: while it orders) instead of after the download (40 and 16 ms at 14.7M rows on an
// H200 node, bench/NOTES.md). The download then fills the set's array.
static PetscErrorCode GpuOrderIntoSet(const pgk::CsrView &dev, const pgk::rcm::Options &ropts, void *stream, pgk::rcm::Stats *st, pgk::cuda::RcmGpuInfo *info, GpuPermutationSet *set)
{
  const PetscInt n = dev.nrows;
  OwnedIndices   array;
  PetscErrorCode made = PETSC_SUCCESS;
  PetscBool      is_view;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-is_view", &is_view)); // would show the placeholder
  PetscCall(PetscMalloc1(n, &array.p));
  set->idx = array.p;
  std::function<void()> while_ordering;
  // The array's zero fill on other threads from here, through the start-node search (the hook
  // waits for it): left to the hook, it outlasted the level-synchronous ordering at 14.7M rows.
  // Not with -is_view: the download would then race the fill (no hook waits for it).
  PgkZeroFill fill(array.p, is_view ? 0 : n, PgkNodeThreadShare());
  if (!is_view) while_ordering = [&] { made = PgkCreatePermutationISForFill(n, &array.p, &set->is, fill.wait() ? PETSC_TRUE : PETSC_FALSE); };
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::rcm_gpu_into(dev, ropts, stream, set->idx, st, info, while_ordering));
  PetscCall(made);
  if (set->is) PetscCall(PetscObjectStateIncrease((PetscObject)set->is)); // the permutation replaced the placeholder
  else {                                                                  // n = 0 (no ordering ran) or -is_view
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, array.p, PETSC_OWN_POINTER, &set->is));
    array.p = nullptr;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The host structure uploaded (two logged copies) and ordered on the device into the set.
static PetscErrorCode UploadAndOrder(const pgk::CsrView &host, const pgk::rcm::Options &ropts, void *stream, pgk::rcm::Stats *st, pgk::cuda::RcmGpuInfo *info, GpuPermutationSet *set)
{
  pgk::cuda::DeviceBuffer<pgk::Index> rowptr, colidx;
  const std::size_t                   nnz = (std::size_t)host.nnz_host();
  pgk::CsrView                        dev = host;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, {
    rowptr.allocate((std::size_t)host.nrows + 1);
    colidx.allocate(nnz);
    pgk::cuda::copy_to_device(rowptr.data(), host.rowptr, sizeof(pgk::Index) * ((std::size_t)host.nrows + 1), stream);
    pgk::cuda::copy_to_device(colidx.data(), host.colidx, sizeof(pgk::Index) * nnz, stream);
  });
  dev.rowptr = rowptr.data();
  dev.colidx = colidx.data();
  dev.values = nullptr;
  PetscCall(GpuOrderIntoSet(dev, ropts, stream, st, info, set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The permutation by the chosen backend. serial and cpu order the host structure they are
// given (every AIJ type keeps it current on the host, device types too: nothing to download)
// into `perm`; gpu orders the device arrays of a device matrix, which are the one other access
// to the matrix, and copies the permutation straight into the array of the index set `gset`
// (GpuOrderIntoSet): what comes back to the host is the permutation and the scalars
// kernels/batchrcm reads (all logged, see tests/petsc/batchrcm/batchrcm.cpp). gpu on a host
// matrix uploads its structure first (logged), as asked, rather than refusing. `levels`: the host
// backends' algorithm in; for gpu, the algorithm that ran out (levels, or paper for long rows).
// level_rcm, whose broken-symmetry error names what made the promise here: PETSc's flag.
static std::vector<PetscInt> LevelRcmNamingTheFlag(const pgk::CsrView &g, const pgk::rcm::Options &o, int threads, pgk::rcm::Stats *st)
{
  try {
    return pgk::rcm::level_rcm(g, o, threads, st);
  } catch (const pgk::rcm::NotSymmetric &e) {
    throw std::invalid_argument(std::string("MatOrdering batchrcm: the matrix is flagged structurally symmetric (MAT_STRUCTURALLY_SYMMETRIC or MAT_SYMMETRIC) but its pattern is not; unset the flag (") + e.what() + ")");
  }
}

static PetscErrorCode BatchRCMCompute(Mat mat, BatchRCMBackend backend, PetscBool *levels, const PgkMatCSR &host, const pgk::rcm::Options &ropts, std::vector<PetscInt> &perm, GpuPermutationSet &gset, pgk::rcm::Stats &st)
{
  PetscBool             device_type;
  pgk::cuda::RcmGpuInfo info;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)host.block, MATSEQAIJCUSPARSE, &device_type));
  if (backend == BATCHRCM_GPU && !device_type) {
    void *stream;
    PetscCheck(PgkDeviceAvailable(), PETSC_COMM_SELF, PETSC_ERR_SUP, "MatOrdering batchrcm: -mat_ordering_batchrcm_backend gpu needs a usable CUDA device to upload the %s matrix to, and this run has none; use -mat_ordering_batchrcm_backend cpu",
               ((PetscObject)host.block)->type_name);
    PetscCall(PgkGetDeviceStream(&stream));
    PetscCall(UploadAndOrder(host.csr, ropts, stream, &st, &info, &gset));
  } else if (backend == BATCHRCM_GPU) {
    PgkMatCSR dev;
    void     *stream;
    PetscCall(PgkMatGetCSR(mat, PGK_MEM_DEVICE, &dev));
    PetscCall(PgkGetDeviceStream(&stream));
    // A nonsymmetric pattern is replaced by pattern(A + A^T) on the device (input_is_symmetric).
    PetscCall(GpuOrderIntoSet(dev.csr, ropts, stream, &st, &info, &gset));
    PetscCall(PgkMatRestoreCSR(mat, &dev));
  } else if (*levels) {
    const int threads = backend == BATCHRCM_CPU ? ropts.cpu.threads : 1;
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, perm = LevelRcmNamingTheFlag(host.csr, ropts, threads, &st));
  } else if (backend == BATCHRCM_CPU) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, perm = pgk::rcm::batch_rcm_cpu(host.csr, ropts, &st));
  } else {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, perm = pgk::rcm::serial_rcm(host.csr, ropts, &st));
  }
  if (backend == BATCHRCM_GPU) *levels = info.levels ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetOrdering_BatchRCM(Mat mat, MatOrderingType type, IS *irow, IS *icol)
{
  static const char *const names[] = {"auto", "serial", "cpu", "gpu"};
  BatchRCMOptions          o;
  BatchRCMBackend          backend;
  PgkMatCSR                host;
  std::vector<PetscInt>    perm;
  GpuPermutationSet        gset;
  pgk::rcm::Stats          st;
  pgk::rcm::Options        ropts;
  PetscBool                sym_set, sym;
  PetscLogDouble           t0, t1;

  PetscFunctionBegin;
  (void)type;
  PetscCall(PgkCheckSquareAssembled(mat, "MatOrdering batchrcm"));
  PetscCall(BatchRCMGetOptions(mat, &o));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PGK_EVENT_RcmOrdering, mat, 0, 0, 0));
  PetscCall(PgkMatGetCSRStructureHost(mat, &host)); // the pattern is all an ordering reads
  PetscCall(BatchRCMChooseBackend(mat, o, host, &backend));
  PetscCall(MatIsStructurallySymmetricKnown(host.block, &sym_set, &sym));
  if (!sym_set) PetscCall(MatIsStructurallySymmetricKnown(mat, &sym_set, &sym));
  PetscCheck(o.start != pgk::rcm::StartNode::Given || o.given_start < host.csr.nrows || host.csr.nrows == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-mat_ordering_batchrcm_start %" PetscInt_FMT " is not a row of the %" PetscInt_FMT "-row (local) matrix", o.given_start, host.csr.nrows);
  ropts.start                     = o.start;
  ropts.given_start               = o.given_start;
  ropts.count_diagonal_in_valence = o.diagonal_in_valence ? true : false;
  ropts.input_is_symmetric        = sym_set && sym ? true : false;
  ropts.gpu.algorithm             = o.gpu_algorithm == BATCHRCM_LEVELS ? pgk::rcm::GpuAlgorithm::Levels : pgk::rcm::GpuAlgorithm::Batch;
  // cpu: the node's share of cores, known since package initialization: no collective call
  // here, where only the ranks whose block is large enough arrive.
  ropts.cpu.threads = (int)(backend != BATCHRCM_CPU ? 0 : o.threads > 0 ? o.threads : PgkNodeThreadShare());
  // levels where it applies (not George-Liu, claims that fit 64 bits); the view says which ran.
  PetscBool levels = PETSC_FALSE;
  if (backend != BATCHRCM_GPU && o.host_algorithm == BATCHRCM_LEVELS) PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, levels = pgk::rcm::level_rcm_supports(host.csr, ropts) ? PETSC_TRUE : PETSC_FALSE);
  PetscCall(BatchRCMCompute(mat, backend, &levels, host, ropts, perm, gset, st));
  // One index set for rows and columns: gpu's holds the downloaded array; the host backends'
  // vector is copied on the threads the ordering ran on.
  const PetscInt n = host.csr.nrows;
  if (o.view && gset.is) perm.assign(gset.idx, gset.idx + n); // the view's envelope reads a vector
  if (gset.is) PetscCall(PgkPermutationISAsBoth(&gset.is, irow, icol));
  else PetscCall(PgkCreatePermutationISes(perm, backend == BATCHRCM_SERIAL ? 1 : ropts.cpu.threads, irow, icol));
  PetscCall(PgkPermutationKeepInodes(mat, irow, icol));
  PetscCall(PetscLogEventEnd(PGK_EVENT_RcmOrdering, mat, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(mat, "batchrcm: backend %s, %" PetscInt_FMT " rows, start node %.3e s, ordering %.3e s\n", names[backend], n, st.start_node_seconds, st.ordering_seconds));
  if (o.view) PetscCall(BatchRCMView(names[backend], levels, o, ropts.cpu.threads, host.csr, perm, st, ropts.input_is_symmetric ? PETSC_TRUE : PETSC_FALSE, t1 - t0)); // the host structure it holds: no transfer
  PetscCall(PgkMatRestoreCSR(mat, &host));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATORDERINGBATCHRCM - "batchrcm": Reverse Cuthill-McKee computed where the matrix lives, on
   the GPU (level-synchronous in one cooperative kernel, or the paper's speculative batches) or on
   all CPU cores (level-synchronous, or multicore batch RCM),
   giving exactly the ordering of the serial reference for the same start node.

   Options Database Keys:
+  -mat_ordering_batchrcm_backend <auto,serial,cpu,gpu> - where to order. auto: serial below -mat_ordering_batchrcm_min_parallel_nnz
     local nonzeros; else gpu when the device copy of the matrix is current; else cpu from -mat_ordering_batchrcm_min_cpu_nnz, serial
     below it. gpu on a host matrix uploads its structure
.  -mat_ordering_batchrcm_host_algorithm <levels,paper> - serial and cpu backends: levels (default; level-synchronous, each level's
     children claimed by atomic minimum and sorted by parent position, valence and row position, the start-node search's last BFS
     serving as the ordering pass) or paper (serial: Alg. 1, the reference; cpu: speculative batches, Alg. 4/5). George-Liu's
     finder always takes paper
.  -mat_ordering_batchrcm_gpu_algorithm <levels,paper> - gpu backend: levels (default; the same level-synchronous algorithm in one
     cooperative kernel, three grid barriers a level; graphs with a row over 128 entries take paper) or paper (speculative batches
     in persistent thread blocks, Mlakar et al.)
.  -mat_ordering_batchrcm_threads <n> - threads of the cpu backend (default: the node's cores divided among its ranks, at most
     the cores the rank is bound to)
.  -mat_ordering_batchrcm_min_parallel_nnz <n> - auto: serial below this many local nonzeros (default 200000)
.  -mat_ordering_batchrcm_min_cpu_nnz <n> - auto, host data: serial below this many local nonzeros, cpu from it (default 2500000)
.  -mat_ordering_batchrcm_start <peripheral,georgeliu,index> - start node of the first component
.  -mat_ordering_batchrcm_diagonal_in_valence <bool> - count a stored diagonal in the valence (default true)
-  -mat_ordering_batchrcm_view - bandwidth and profile before and after, time per phase

   Notes:
   Ties between children of one parent are broken by ascending valence, then by position in
   the parent's row. Disconnected graphs are ordered component by component: the smallest
   unordered row seeds the next component, whose start node is found by the chosen finder,
   and each component is reversed in place. A structurally nonsymmetric matrix is ordered on
   the pattern of A + A^T; explicit zeros count as entries (the ordering uses the pattern only).
   Unless the structural-symmetry flag is set, the pattern is checked first (one binary search
   per entry, in parallel; on the device inside the input check's pass over the entries) and
   A + A^T is built only when it is not symmetric.
   Under MPI, `MatGetOrdering()` orders each rank's diagonal block. The row and column
   permutations are one index set, returned twice (as `MATORDERINGSPECTRAL` does): destroy
   both as usual. gpu creates that set while the device orders and copies the permutation
   straight into its array (with -is_view, after the copy, so the view shows the permutation).
   On `MATSEQBAIJ` / `MATSEQSBAIJ` the graph is that of the block rows (SBAIJ with both
   triangles), as for PETSc's orderings, and the set permutes block rows; `MATMPIBAIJ` /
   `MATMPISBAIJ` are refused. A structural-symmetry flag is trusted; where a false one makes the
   host levels algorithm miss rows, that is an error naming the flag.

   Level: intermediate

.seealso: `MatGetOrdering()`, `MATORDERINGRCM`, `PCFactorSetMatOrderingType()`
M*/
PetscErrorCode PgkRegisterOrderingBatchRCM(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PgkBatchRCM", PETSCGPUKIT_CLASSID, &PGK_EVENT_RcmOrdering));
  PetscCall(PetscLogEventSetCollective(PGK_EVENT_RcmOrdering, PETSC_FALSE));
  PetscCall(MatOrderingRegister(MATORDERINGBATCHRCM, MatGetOrdering_BatchRCM));
  PetscFunctionReturn(PETSC_SUCCESS);
}
