// MatOrdering rabbitpp and rabbit: Rabbit Order's communities (Arai et al.) and the RABBIT++
// regrouping (Balaji et al.) where the matrix lives. Every backend runs src/rabbitpp/README.md's
// rounds of K vertices and returns the same permutation for the same options:
//   serial - src/rabbitpp/batch.cpp on one thread
//   cpu    - the same on the node's share of cores
//   gpu    - kernels/rabbitpp/ on the device matrix (only the permutation comes back)
// -mat_ordering_rabbitpp_batch 1 is the classic one-vertex-at-a-time Rabbit Order
// (src/rabbitpp/serial.cpp is its reference, equal to the backends with K = 1).
#include "petsc_plugin/sys/pgk_petsc.hpp"

#include <petsc/private/matimpl.h>

#include <vector>

#include "petsc_plugin/order/rabbitpp.hpp"
#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "petsc_plugin/sys/permutation_is.hpp"
#include "src/rabbitpp/batch.hpp"
#include "src/rabbitpp/regroup.hpp" // kMaxHubFactor (2^20, the message's bound)

PetscLogEvent PGK_EVENT_Rabbitpp;

typedef enum { RABBITPP_AUTO, RABBITPP_SERIAL, RABBITPP_CPU, RABBITPP_GPU } RabbitppBackend;
static const char *const RabbitppBackends[]  = {"auto", "serial", "cpu", "gpu", "RabbitppBackend", "RABBITPP_", NULL};
static const char *const RabbitppHubScopes[] = {"noninsular", "all", "RabbitppHubScope", "RABBITPP_HUB_", NULL};

struct RabbitppOptions {
  RabbitppBackend backend          = RABBITPP_AUTO;
  PetscInt        threads          = 0; // 0: the cores of this node shared among its ranks
  PetscInt        batch            = 0; // K; 0: pgk::rabbitpp::default_batch(n)
  PetscInt        min_parallel_nnz = 200000;
  PetscBool       insular_first    = PETSC_FALSE;
  PetscInt        hub_scope        = 0;                                            // index into RabbitppHubScopes
  PetscInt        hub_factor       = 1;                                            // a hub's in-degree is above hub_factor x nnz / n
  PetscReal       min_skew         = (PetscReal)pgk::rabbitpp::Options{}.min_skew; // the skew gate; 0: always regroup
  PetscBool       huge_pages       = PETSC_TRUE;                                   // cpu: transparent huge pages on the list arena
  PetscBool       view             = PETSC_FALSE;
};

static PetscErrorCode RabbitppGetOptions(Mat mat, PetscBool regroup, RabbitppOptions *o)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PetscObjectComm((PetscObject)mat), ((PetscObject)mat)->prefix, regroup ? "MatOrdering rabbitpp options" : "MatOrdering rabbit options (shared with rabbitpp)", "MatGetOrdering");
  PetscCall(PetscOptionsEnum("-mat_ordering_rabbitpp_backend", "Where to compute the ordering: auto (gpu for a current device copy, else cpu; one thread below min_parallel_nnz); every backend gives the same permutation", "MATORDERINGRABBITPP",
                             RabbitppBackends, (PetscEnum)o->backend, (PetscEnum *)&o->backend, NULL));
  PetscCall(
      PetscOptionsInt("-mat_ordering_rabbitpp_threads", "Threads of the cpu backend (0: cores of this node divided among its ranks, at most those it is bound to); never changes the result", "MATORDERINGRABBITPP", o->threads, &o->threads, NULL));
  PetscCall(PetscOptionsInt("-mat_ordering_rabbitpp_batch", "Vertices per merge round K (0: n/64 clamped to [1, 65536]; 1: the classic serial Rabbit Order); the result depends on K", "MATORDERINGRABBITPP", o->batch, &o->batch, NULL));
  PetscCall(PetscOptionsInt("-mat_ordering_rabbitpp_min_parallel_nnz", "auto: below this many nonzeros (local) use one thread", "MATORDERINGRABBITPP", o->min_parallel_nnz, &o->min_parallel_nnz, NULL));
  PetscCall(PetscOptionsBool("-mat_ordering_rabbitpp_huge_pages", "cpu: advise transparent huge pages on the list arena (off: 4 KiB pages, where huge-page faults wait on compaction); never changes the result", "MATORDERINGRABBITPP", o->huge_pages,
                             &o->huge_pages, NULL));
  if (regroup) {
    PetscCall(PetscOptionsBool("-mat_ordering_rabbitpp_insular_first", "Layout I|H|R (insular vertices first) instead of H|R|I", "MATORDERINGRABBITPP", o->insular_first, &o->insular_first, NULL));
    PetscCall(PetscOptionsEList("-mat_ordering_rabbitpp_hub_scope", "Hubs taken from the non-insular vertices only (the paper's Fig. 5) or from all", "MATORDERINGRABBITPP", RabbitppHubScopes, 2, RabbitppHubScopes[o->hub_scope], &o->hub_scope, NULL));
    PetscCall(PetscOptionsInt("-mat_ordering_rabbitpp_hub_factor", "A hub's in-degree is above this many times the average nnz/n (1: the paper's rule)", "MATORDERINGRABBITPP", o->hub_factor, &o->hub_factor, NULL));
    PetscCall(PetscOptionsReal("-mat_ordering_rabbitpp_min_skew", "Regroup only where the 10% longest rows hold at least this share of nnz (skewed degrees); below it the result is rabbit's (0: always, the paper's RABBIT++)", "MATORDERINGRABBITPP",
                               o->min_skew, &o->min_skew, NULL));
  }
  PetscCall(PetscOptionsBool("-mat_ordering_rabbitpp_view", "Print communities, modularity, insularity, skew, hubs and the time per phase", "MATORDERINGRABBITPP", o->view, &o->view, NULL));
  PetscOptionsEnd();
  PetscCheck(o->batch >= 0, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_OUTOFRANGE, "-mat_ordering_rabbitpp_batch must be >= 0 (0: default); got %" PetscInt_FMT, o->batch);
  PetscCheck(o->threads >= 0, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_OUTOFRANGE, "-mat_ordering_rabbitpp_threads must be >= 0 (0: default); got %" PetscInt_FMT, o->threads);
  PetscCheck(o->hub_factor >= 1 && o->hub_factor <= pgk::rabbitpp::kMaxHubFactor, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_OUTOFRANGE, "-mat_ordering_rabbitpp_hub_factor must be in [1, 2^20]; got %" PetscInt_FMT, o->hub_factor);
  PetscCheck(o->min_skew >= 0 && o->min_skew <= 1, PetscObjectComm((PetscObject)mat), PETSC_ERR_ARG_OUTOFRANGE, "-mat_ordering_rabbitpp_min_skew must be in [0, 1]; got %g", (double)o->min_skew);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RabbitppView(const char *type, const char *backend, const pgk::rabbitpp::Options &ro, PetscInt nrows, PetscInt nnz, const pgk::rabbitpp::Info &info, PetscLogDouble total)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "MatOrdering %s: %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros, backend %s", type, (PetscInt)nrows, (PetscInt)nnz, backend));
  if (ro.threads > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, " (%d thread%s)", ro.threads, ro.threads > 1 ? "s" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, ", batch K %" PetscInt_FMT ", %" PetscInt_FMT " rounds, %" PetscInt_FMT " deferrals\n", (PetscInt)ro.batch, (PetscInt)info.rounds, (PetscInt)info.deferred));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  communities %" PetscInt_FMT " (largest %" PetscInt_FMT "), modularity %.4f, insularity %.4f, insular vertices %" PetscInt_FMT ", hubs %" PetscInt_FMT ", skew %.3f\n", (PetscInt)info.communities,
                        (PetscInt)info.largest_community, info.modularity, info.insularity, (PetscInt)info.insular, (PetscInt)info.hubs, info.skew));
  if (ro.regroup) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  layout %s, hubs from %s vertices, in-degree above %d x the average\n", ro.insular_first ? "I|H|R" : "H|R|I", ro.hub_scope == pgk::rabbitpp::HubScope::All ? "all" : "non-insular", ro.hub_factor));
    if (ro.min_skew <= 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  regrouped (min_skew 0: always)\n"));
    else if (info.regrouped) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  regrouped: skew %.3f, at least min_skew %.3f\n", info.skew, ro.min_skew));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  not regrouped, the Rabbit order kept: skew %.3f below min_skew %.3f\n", info.skew, ro.min_skew));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  time: graph %.3e s, communities %.3e s, numbering %.3e s, regrouping %.3e s, total %.3e s\n", info.seconds_graph, info.seconds_communities, info.seconds_order, info.seconds_regroup, (double)total));
  PetscBool gpu, cpu;
  PetscCall(PetscStrcmp(backend, "gpu", &gpu));
  PetscCall(PetscStrcmp(backend, "cpu", &cpu));
  if (cpu) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  list arena (2 nnz(G) + 1024 entries, %s): %" PetscInt_FMT " compactions\n", ro.huge_pages ? "huge pages advised" : "4 KiB pages", (PetscInt)info.compactions));
  if (gpu) // the device's rounds are timed by step (the view's events add a wait a round)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rounds by step: begin %.3e s, aggregate %.3e s, decide %.3e s, store %.3e s (%" PetscInt_FMT " compactions: %.3e s), apply %.3e s\n", info.seconds_round_begin, info.seconds_round_aggregate,
                          info.seconds_round_decide, info.seconds_round_store, (PetscInt)info.compactions, info.seconds_round_compact, info.seconds_round_apply));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The backend: auto takes the GPU when the device copy is current (nothing moves but the
// permutation), else the cores, one thread for small matrices. All give the same permutation.
static PetscErrorCode RabbitppChooseBackend(Mat mat, const RabbitppOptions &o, const PgkMatCSR &host, RabbitppBackend *backend)
{
  PetscBool device_current;

  PetscFunctionBegin;
  *backend = o.backend;
  if (*backend != RABBITPP_AUTO) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PgkMatDeviceCurrent(mat, &device_current));
  if (device_current) *backend = RABBITPP_GPU;
  else *backend = host.csr.nnz_host() < o.min_parallel_nnz ? RABBITPP_SERIAL : RABBITPP_CPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RabbitppCompute(Mat mat, RabbitppBackend backend, const PgkMatCSR &host, const pgk::rabbitpp::Options &ro, std::vector<PetscInt> &perm, pgk::rabbitpp::Info *info)
{
  PetscFunctionBegin;
  if (backend == RABBITPP_GPU) {
    PgkMatCSR dev;
    void     *stream;
    PetscCall(PgkMatGetCSR(mat, PGK_MEM_DEVICE, &dev)); // errors for host matrix types
    PetscCall(PgkGetDeviceStream(&stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_GPU, perm = pgk::cuda::rabbitpp_gpu(dev.csr, ro, stream, info));
    PetscCall(PgkMatRestoreCSR(mat, &dev));
  } else {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, perm = pgk::rabbitpp::rabbitpp_batch(host.csr, ro, info));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetOrdering_RabbitppCommon(Mat mat, PetscBool regroup, IS *irow, IS *icol)
{
  static const char *const names[] = {"auto", "serial", "cpu", "gpu"};
  const char              *type    = regroup ? "rabbitpp" : "rabbit";
  RabbitppOptions          o;
  RabbitppBackend          backend;
  PgkMatCSR                host;
  std::vector<PetscInt>    perm;
  pgk::rabbitpp::Options   ro;
  pgk::rabbitpp::Info      info;
  PetscLogDouble           t0, t1;

  PetscFunctionBegin;
  PetscCall(PgkCheckSquareAssembled(mat, regroup ? "MatOrdering rabbitpp" : "MatOrdering rabbit"));
  PetscCall(RabbitppGetOptions(mat, regroup, &o));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(PGK_EVENT_Rabbitpp, mat, 0, 0, 0));
  PetscCall(PgkMatGetCSRStructureHost(mat, &host)); // the pattern is all an ordering reads
  PetscCall(RabbitppChooseBackend(mat, o, host, &backend));
  ro.regroup       = regroup ? true : false;
  ro.insular_first = o.insular_first ? true : false;
  ro.hub_scope     = o.hub_scope == 1 ? pgk::rabbitpp::HubScope::All : pgk::rabbitpp::HubScope::NonInsular;
  ro.hub_factor    = (int)o.hub_factor;
  ro.min_skew      = regroup ? (double)o.min_skew : 0.0;
  ro.huge_pages    = o.huge_pages ? true : false;
  ro.batch         = o.batch > 0 ? (pgk::Index)o.batch : pgk::rabbitpp::default_batch(host.csr.nrows);
  PetscBool sym_set, sym;
  PetscCall(MatIsStructurallySymmetricKnown(host.block, &sym_set, &sym));
  if (!sym_set) PetscCall(MatIsStructurallySymmetricKnown(mat, &sym_set, &sym));
  ro.input_is_symmetric = sym_set && sym ? true : false; // skips the symmetry check; same result
  // cpu: the node's share of cores, known since package initialization (no collective call here).
  ro.threads = backend == RABBITPP_SERIAL ? 1 : backend == RABBITPP_CPU ? (int)(o.threads > 0 ? o.threads : PgkNodeThreadShare()) : 0;
  PetscCall(RabbitppCompute(mat, backend, host, ro, perm, o.view ? &info : nullptr));
  PetscCall(PgkCreatePermutationISes(perm, ro.threads > 0 ? ro.threads : PgkNodeThreadShare(), irow, icol));
  PetscCall(PgkPermutationKeepInodes(mat, irow, icol));
  PetscCall(PetscLogEventEnd(PGK_EVENT_Rabbitpp, mat, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(mat, "%s: backend %s, %" PetscInt_FMT " rows, K %" PetscInt_FMT ", %.3e s\n", type, names[backend], (PetscInt)perm.size(), (PetscInt)ro.batch, (double)(t1 - t0)));
  if (o.view) PetscCall(RabbitppView(type, names[backend], ro, host.csr.nrows, host.csr.nnz_host(), info, t1 - t0));
  PetscCall(PgkMatRestoreCSR(mat, &host));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetOrdering_Rabbitpp(Mat mat, MatOrderingType, IS *irow, IS *icol)
{
  PetscFunctionBegin;
  PetscCall(MatGetOrdering_RabbitppCommon(mat, PETSC_TRUE, irow, icol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetOrdering_Rabbit(Mat mat, MatOrderingType, IS *irow, IS *icol)
{
  PetscFunctionBegin;
  PetscCall(MatGetOrdering_RabbitppCommon(mat, PETSC_FALSE, irow, icol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATORDERINGRABBITPP - "rabbitpp": Rabbit Order's hierarchical communities, each numbered
   contiguously, then the RABBIT++ regrouping (hubs, other non-insular vertices, insular vertices,
   Rabbit order kept inside each group), for the locality of SpMV on irregular matrices.
   MATORDERINGRABBIT - "rabbit": the same without the regrouping.

   Options Database Keys:
+  -mat_ordering_rabbitpp_backend <auto,serial,cpu,gpu> - auto: gpu for a current device copy, else cpu (one thread below min_parallel_nnz); all give the same permutation
.  -mat_ordering_rabbitpp_threads <n> - threads of the cpu backend (default: the node's cores divided among its ranks, at most the cores the rank is bound to)
.  -mat_ordering_rabbitpp_batch <K> - vertices per merge round (default n/64 within [1, 65536]; 1: the classic serial Rabbit Order)
.  -mat_ordering_rabbitpp_min_parallel_nnz <n> - auto's one-thread threshold (default 200000)
.  -mat_ordering_rabbitpp_huge_pages <bool> - cpu backend: advise transparent huge pages on its list arena (default true; 3-5% off the
     community phase on H100/H200 nodes; turn off where THP compaction makes faults slow); same permutation either way
.  -mat_ordering_rabbitpp_insular_first <bool> - layout I|H|R instead of H|R|I (rabbitpp only)
.  -mat_ordering_rabbitpp_hub_scope <noninsular,all> - where hubs come from (rabbitpp only)
.  -mat_ordering_rabbitpp_hub_factor <k> - hubs are the vertices whose in-degree exceeds k times the average nnz/n (default 1,
     the paper's rule; on graphs of near-uniform degree it makes about half the vertices hubs) (rabbitpp only)
.  -mat_ordering_rabbitpp_min_skew <s> - the skew gate: regroup only where the 10% longest rows hold at least this share of nnz
     (default 0.25); below it rabbitpp returns rabbit's permutation; 0: always regroup, the paper's RABBIT++ (rabbitpp only)
-  -mat_ordering_rabbitpp_view - communities, modularity, insularity, hubs, skew, time per phase and the list arena's compactions

   Notes:
   The graph is the pattern of A + A^T without the diagonal (values ignored, explicit zeros count
   as edges, NaN does not matter); a matrix without off-diagonal entries gets the identity. A hub
   is a vertex whose column holds more entries than the average nnz/n. The regrouping is for skewed
   degrees: on the H100 it took 12-18% off MatMult on power-law graphs (skew 0.39) and cost up to
   3.7% on planted-community and geometric graphs (skew 0.14-0.16), hence the gate. The algorithm, with every
   tie and choice, is in src/rabbitpp/README.md. Deterministic: the same permutation on every run,
   thread count and backend for the same options. Under MPI, `MatGetOrdering()` orders each
   rank's diagonal block. Memory of the cpu backend, besides G: the lists merged vertices keep
   for their parents, in one arena of 2 nnz(G) + 1024 entries (8 bytes each with 32-bit indices),
   compacted when full (`-mat_ordering_rabbitpp_view` counts the compactions). The row and
   column permutations are one index set, returned twice: destroy both as usual. On
   `MATSEQBAIJ` / `MATSEQSBAIJ` the graph is that of the block rows (as for PETSc's orderings) and
   the set permutes block rows; `MATMPIBAIJ` / `MATMPISBAIJ` are refused.

   Level: intermediate

.seealso: `MatGetOrdering()`, `MATORDERINGBATCHRCM`, `PCREORDER`
M*/
PetscErrorCode PgkRegisterOrderingRabbitpp(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PgkRabbitpp", PETSCGPUKIT_CLASSID, &PGK_EVENT_Rabbitpp));
  PetscCall(PetscLogEventSetCollective(PGK_EVENT_Rabbitpp, PETSC_FALSE));
  PetscCall(MatOrderingRegister(MATORDERINGRABBITPP, MatGetOrdering_Rabbitpp));
  PetscCall(MatOrderingRegister(MATORDERINGRABBIT, MatGetOrdering_Rabbit));
  PetscFunctionReturn(PETSC_SUCCESS);
}
