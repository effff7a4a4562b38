static const char help[] = "MatOrdering batchrcm through MatGetOrdering(): the permutation must equal the serial\n"
                           "reference (src/rcm_serial.cpp) for the same start node, for every backend, on every\n"
                           "rank's diagonal block; prints bandwidth next to PETSc's rcm.\n"
                           "  -gen <spec> | -f <file>   the matrix (default lap3d7:n=12)\n"
                           "  -repeat <k>               order k times, every result must be identical\n"
                           "  -case ok|unassembled|nonsquare|zero_fill|false_flag (zero_fill: PgkZeroFill and the placeholder set alone;\n"
                           "        false_flag: one triangle of a band flagged MAT_STRUCTURALLY_SYMMETRIC, an error)\n"
                           "  (all -mat_ordering_batchrcm_* options apply)\n";

#include <petscgpukit.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "petsc_plugin/sys/csr_access.hpp"
#include "petsc_plugin/sys/permutation_is.hpp"
#include "src/common/envelope.hpp"
#include "src/batchrcm/rcm.hpp"
#include "src/batchrcm/serial.hpp"
#include "src/batchrcm/start_node.hpp"
#include "src/batchrcm/symmetrize.hpp"

static PetscErrorCode Reference(Mat A, std::vector<PetscInt> &ref)
{
  PgkMatCSR csr;
  char      start[64] = "peripheral";
  PetscBool diag      = PETSC_TRUE, sym_set, sym;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_start", start, sizeof start, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_batchrcm_diagonal_in_valence", &diag, NULL));
  pgk::rcm::Options o;
  if (!std::strcmp(start, "georgeliu")) o.start = pgk::rcm::StartNode::GeorgeLiu;
  else if (std::strcmp(start, "peripheral")) {
    o.start       = pgk::rcm::StartNode::Given;
    o.given_start = (PetscInt)std::atol(start);
  }
  o.count_diagonal_in_valence = diag ? true : false;
  PetscCall(MatIsStructurallySymmetricKnown(A, &sym_set, &sym));
  o.input_is_symmetric = sym_set && sym;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  ref = pgk::rcm::serial_rcm(csr.csr, o);
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Rounds of the device start-node search (kernels/batchrcm/start_node.cu,
// plan_components_device): every component of two or more vertices, but the Given one, runs
// find_start_node's Peripheral rule, one BFS per round, all of them in lockstep, so the loop
// runs as many rounds as the component that needs the most BFS passes: BFS from the smallest
// vertex, restart from the (valence, id)-smallest vertex of the last level while the number of
// levels grows. The rule is the host reference's (src/batchrcm/start_node.hpp), recounted here;
// `roots` receives the roots it ends at, in plan order, which must be the reference's.
static PetscInt PeripheralRounds(const pgk::CsrView &g, bool count_diagonal, PetscInt given, std::vector<PetscInt> &roots)
{
  const PetscInt        n = g.nrows;
  std::vector<PetscInt> comp(n, -1), level(n, -1), valence = pgk::rcm::compute_valence(g, count_diagonal);
  const auto            bfs = [&](PetscInt root, std::vector<PetscInt> &order) { // returns the number of levels
    std::fill(level.begin(), level.end(), -1);
    order.assign(1, root);
    level[root] = 0;
    for (std::size_t h = 0; h < order.size(); ++h)
      for (PetscInt e = g.rowptr[order[h]]; e < g.rowptr[order[h] + 1]; ++e)
        if (level[g.colidx[e]] < 0) {
                     level[g.colidx[e]] = level[order[h]] + 1;
                     order.push_back(g.colidx[e]);
        }
    return level[order.back()] + 1;
  };
  PetscInt              rounds = 0;
  std::vector<PetscInt> order;
  roots.clear();
  for (PetscInt seed = 0; seed < n; ++seed) {
    if (comp[seed] >= 0) continue;
    (void)bfs(seed, order);
    bool given_here = false;
    for (PetscInt v : order) {
      comp[v] = seed;
      given_here |= v == given;
    }
    if (given_here) roots.insert(roots.begin(), given); // the Given component comes first
    if (order.size() < 2 || given_here) {
      if (!given_here) roots.push_back(seed);
      continue;
    }
    PetscInt root = seed, passes = 0, previous = 0;
    for (;;) {
      const PetscInt levels = bfs(root, order);
      ++passes;
      if (previous > 0 && levels <= previous) break;
      previous      = levels;
      PetscInt best = -1;
      for (PetscInt v : order)
        if (level[v] == levels - 1 && (best < 0 || valence[v] < valence[best] || (valence[v] == valence[best] && v < best))) best = v;
      root = best;
    }
    roots.push_back(root);
    rounds = PetscMax(rounds, passes);
  }
  return rounds;
}

// Whether MatOrdering batchrcm computes on the device here: the plugin's rule (order/batchrcm.cpp).
static PetscErrorCode OrdersOnDevice(Mat A, PetscBool *device)
{
  char      backend[16] = "auto", start[64] = "peripheral";
  PetscInt  min_nnz = 200000;
  PgkMatCSR csr;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_backend", backend, sizeof backend, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_start", start, sizeof start, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ordering_batchrcm_min_parallel_nnz", &min_nnz, NULL));
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  const PetscInt nnz = csr.csr.nnz_host();
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscCall(PgkMatDeviceCurrent(A, device));
  if (!std::strcmp(backend, "gpu")) *device = PETSC_TRUE;
  else if (std::strcmp(backend, "auto") || nnz < min_nnz || !std::strcmp(start, "georgeliu")) *device = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The transfers of one MatGetOrdering on the device: the permutation and the scalars that
// kernels/ reads back, each one logged copy (kernels/common/transfer.hpp). With n local rows:
//   validate_graph_device (kernels/batchrcm/validate.cu): 2 (CheckResult after the row pointer
//     check, nnz = rowptr[n]) + 1 when nnz > 0 (CheckResult after the entry check, which also
//     counts the missing transposes when the pattern is not known to be symmetric);
//   only when some are missing: symmetrize_pattern (kernels/common/symmetrize_pattern.cu) 2 (the
//     added-entry count scanned[n], and nnz = rowptr[n]), then validate_graph_device on
//     pattern(A + A^T), 2 + 1 (its longest row);
//   plan_components_device (start_node.cu): 2 (seed_pos[n-1], flag[n-1]: the component count)
//     + 1 (searching components after search_init_kernel); all R = PeripheralRounds rounds run
//     in one kernel, whose totals come back once when R > 0 (read_search_totals);
//   split_singletons_device (reverse.cu): 1 (ChainSummary);
//   when a component has 2+ vertices: 1, the levels kernel's error word (levels.cu; gpu
//     algorithm levels, the default) or the batch kernel's Control block (batch.cu; paper, or a
//     row over 128 entries); the longest row, which picks between them, comes in CheckResult;
//   the permutation (kernels/batchrcm/driver.cu): 1, n PetscInts.
// Nothing goes to the device (CpuToGpu 0): the matrix is read where it is, and the counters
// are set by kernels and cudaMemsetAsync. n = 0 moves nothing.
static PetscErrorCode ExpectedDeviceTransfers(Mat A, PetscLogDouble *gtoc)
{
  PgkMatCSR csr;
  char      start[64] = "peripheral";
  PetscBool diag      = PETSC_TRUE, sym_set, sym;
  PetscInt  given     = -1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_start", start, sizeof start, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_ordering_batchrcm_diagonal_in_valence", &diag, NULL));
  if (std::strcmp(start, "peripheral") && std::strcmp(start, "auto")) given = (PetscInt)std::atol(start);
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  PetscCall(MatIsStructurallySymmetricKnown(csr.block, &sym_set, &sym)); // the plugin's test, in its order
  if (!sym_set) PetscCall(MatIsStructurallySymmetricKnown(A, &sym_set, &sym));
  const bool   known_symmetric = sym_set && sym;
  pgk::Csr     symmetrized;
  pgk::CsrView g = csr.csr;
  if (!known_symmetric) {
    symmetrized = pgk::rcm::symmetrize_pattern(csr.csr);
    g           = pgk::view_of(symmetrized);
  }
  std::vector<PetscInt> roots;
  const PetscInt        n = g.nrows, R = n ? PeripheralRounds(g, diag ? true : false, given, roots) : 0;
  // The recount must end where the reference's plan does, or its round count means nothing.
  pgk::rcm::Options o;
  o.start                     = given >= 0 ? pgk::rcm::StartNode::Given : pgk::rcm::StartNode::Peripheral;
  o.given_start               = given >= 0 ? given : 0;
  o.count_diagonal_in_valence = diag ? true : false;
  PetscCheck(n == 0 || roots == pgk::rcm::plan_components(g, o).roots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] the recount of the peripheral search ends at other roots than plan_components", PetscGlobalRank);
  bool chained = false; // a component of two or more vertices
  for (PetscInt i = 0; i < n && !chained; ++i)
    for (PetscInt e = g.rowptr[i]; e < g.rowptr[i + 1]; ++e) chained |= g.colidx[e] != i;
  const bool built = g.nnz_host() != csr.csr.nnz_host(); // entries were missing: pattern(A + A^T) was built
  *gtoc            = n == 0 ? 0 : 2 + (csr.csr.nnz_host() > 0 ? 1 : 0) + (built ? 2 + 2 + 1 : 0) + 3 + (R > 0 ? 1 : 0) + 1 + (chained ? 1 : 0) + 1;
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The gpu backend's index set around a fresh array: zeroed on other threads (PgkZeroFill, from
// 2^22 entries; below, or on one thread, it declines and the set's creation zeroes), then the set's
// bounds are those of every permutation of n rows. The array starts as garbage (not zero pages).
static PetscErrorCode CheckZeroFill(void)
{
  const PetscInt sizes[] = {(PetscInt)1 << 22, ((PetscInt)1 << 22) + 77, 1000};

  PetscFunctionBegin;
  for (const PetscInt n : sizes) {
    for (const PetscInt threads : {1, 4}) {
      PetscInt *array;
      IS        is;
      PetscInt  min, max;
      PetscCall(PetscMalloc1(n, &array));
      for (PetscInt i = 0; i < n; ++i) array[i] = 7 + i % 5;
      bool zeroed;
      {
        PgkZeroFill fill(array, n, threads);
        zeroed = fill.wait();
      }
      const bool expect = threads > 1 && n >= ((PetscInt)1 << 22);
      PetscCheck(zeroed == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero fill of %" PetscInt_FMT " entries on %" PetscInt_FMT " threads: %s", n, threads, zeroed ? "ran, expected to decline" : "declined, expected to run");
      if (zeroed)
        for (PetscInt i = 0; i < n; ++i) PetscCheck(array[i] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "zero fill left %" PetscInt_FMT " at %" PetscInt_FMT, array[i], i);
      PetscCall(PgkCreatePermutationISForFill(n, &array, &is, zeroed ? PETSC_TRUE : PETSC_FALSE));
      PetscCall(ISGetMinMax(is, &min, &max));
      PetscCheck(min == 0 && max == n - 1 && array == NULL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "placeholder set of %" PetscInt_FMT " rows: bounds %" PetscInt_FMT "..%" PetscInt_FMT, n, min, max);
      PetscCall(ISDestroy(&is));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "zero fill: all checks passed\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Bandwidth(Mat A, const std::vector<PetscInt> &perm, PetscInt *bw)
{
  PgkMatCSR csr;

  PetscFunctionBegin;
  PetscCall(PgkMatGetCSRStructureHost(A, &csr));
  *bw = pgk::envelope(csr.csr, perm).bandwidth;
  PetscCall(PgkMatRestoreCSR(A, &csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Order(Mat A, MatOrderingType type, std::vector<PetscInt> &perm)
{
  IS              r, c;
  const PetscInt *idx;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(MatGetOrdering(A, type, &r, &c));
  PetscCall(ISGetLocalSize(r, &n));
  PetscCall(ISGetIndices(r, &idx));
  // MPIAIJ: PETSc orders the diagonal block and returns global row numbers.
  PetscInt rstart;
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  // batchrcm on a sequential matrix: one index set for rows and columns, referenced twice (the
  // man page says so; each destroy below drops one reference). PETSc's rcm, the reference here,
  // returns two, and so does PETSc's MPIAIJ layer (global numbers): those must agree entry by entry.
  PetscBool   ours;
  PetscMPIInt size;
  PetscCall(PetscStrcmp(type, MATORDERINGBATCHRCM, &ours));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(!ours || size > 1 || r == c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetOrdering %s: expected one index set returned as rows and columns", type);
  if (r != c) {
    const PetscInt *cidx;
    PetscInt        cn;
    PetscCall(ISGetLocalSize(c, &cn));
    PetscCall(ISGetIndices(c, &cidx));
    PetscCheck(cn == n && std::equal(idx, idx + n, cidx), PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetOrdering %s: the row and column permutations differ", type);
    PetscCall(ISRestoreIndices(c, &cidx));
  }
  // The bounds PETSc recorded for the set are those of its entries (the gpu backend creates the
  // set before the permutation is downloaded into it, around a placeholder with the same bounds).
  PetscInt rmin, rmax;
  PetscCall(ISGetMinMax(r, &rmin, &rmax));
  if (n > 0)
    PetscCheck(rmin == *std::min_element(idx, idx + n) && rmax == *std::max_element(idx, idx + n), PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetOrdering %s: the set's recorded bounds [%" PetscInt_FMT ", %" PetscInt_FMT "] are not those of its entries",
               type, rmin, rmax);
  perm.assign(idx, idx + n);
  for (auto &p : perm) p -= rstart;
  PetscCall(ISRestoreIndices(r, &idx));
  PetscCall(ISDestroy(&r));
  PetscCall(ISDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "lap3d7:n=12", file[PETSC_MAX_PATH_LEN] = "", which[32] = "ok";
  PetscBool has_file;
  PetscInt  repeat = 1;
  Mat       A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_batchrcm", NULL);
  PetscCall(PetscOptionsString("-gen", "generator spec", NULL, spec, spec, sizeof spec, NULL));
  PetscCall(PetscOptionsString("-f", "matrix file", NULL, file, file, sizeof file, &has_file));
  PetscCall(PetscOptionsInt("-repeat", "repetitions", NULL, repeat, &repeat, NULL));
  PetscCall(PetscOptionsString("-case", "ok|unassembled|nonsquare|zero_fill|false_flag", NULL, which, which, sizeof which, NULL));
  PetscOptionsEnd();
  if (!std::strcmp(which, "zero_fill")) {
    PetscCall(CheckZeroFill());
    PetscCall(PetscFinalize());
    return 0;
  }
  if (!std::strcmp(which, "unassembled") || !std::strcmp(which, "nonsquare")) {
    const PetscBool nonsquare = std::strcmp(which, "nonsquare") ? PETSC_FALSE : PETSC_TRUE;
    PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
    PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, 10, nonsquare ? 12 : 10));
    PetscCall(MatSetFromOptions(A));
    PetscCall(MatSetUp(A));
    if (nonsquare) {
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    }
  } else if (!std::strcmp(which, "false_flag")) {
    // Rows i -> i + 1 and i -> i + 17 only: the peripheral search's later passes cannot reach rows
    // an earlier pass forgot, so not every row is placed (the levels algorithm checks the count).
    const PetscInt n = 340;
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 3, NULL, &A));
    PetscInt lo, hi;
    PetscCall(MatGetOwnershipRange(A, &lo, &hi));
    for (PetscInt i = lo; i < hi; ++i)
      for (const PetscInt j : {i, i + 1, i + 17})
        if (j < n) PetscCall(MatSetValue(A, i, j, i == j ? 4.0 : -1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  } else if (has_file) PetscCall(PetscGpuKitMatLoad(PETSC_COMM_WORLD, file, NULL, &A));
  else PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  {
    // An application touches its matrix first: for a device type this makes the device copy current.
    Vec x, y;
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }

  char start_option[64] = "peripheral";
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_batchrcm_start", start_option, sizeof start_option, NULL));
  std::vector<PetscInt> ref, got, first, petsc_rcm;
  const PetscLogDouble  ctog0 = petsc_ctog_ct, gtoc0 = petsc_gtoc_ct, gtoc_bytes0 = petsc_gtoc_sz;
  for (PetscInt k = 0; k < repeat; ++k) {
    PetscCall(Order(A, MATORDERINGBATCHRCM, got));
    if (k == 0) first = got;
    PetscCheck(got == first, PETSC_COMM_SELF, PETSC_ERR_PLIB, "run %" PetscInt_FMT " gave a different permutation", k);
  }
  const PetscLogDouble ctog = petsc_ctog_ct - ctog0, gtoc = petsc_gtoc_ct - gtoc0, gtoc_bytes = petsc_gtoc_sz - gtoc_bytes0;
  // Exactly the listed transfers (ExpectedDeviceTransfers) per ordering on the device, none on
  // the host; in bytes, the permutations and a few scalars (less than 1 KiB an ordering).
  PetscBool      on_device;
  PetscLogDouble per_ordering = 0;
  PetscCall(OrdersOnDevice(A, &on_device));
  if (on_device || std::strcmp(start_option, "georgeliu")) PetscCall(ExpectedDeviceTransfers(A, &per_ordering)); // the recount runs on the host tests too
  if (!on_device) per_ordering = 0;
  // The gpu backend on a host matrix uploads its structure: the row pointer, and the column
  // indices when there are any (a zero-byte copy is not logged).
  PetscBool      device_type;
  PetscLogDouble ctog_expected = 0;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &device_type, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  if (on_device && !device_type) {
    PgkMatCSR csr;
    PetscCall(PgkMatGetCSRStructureHost(A, &csr));
    ctog_expected = repeat * (1 + (csr.csr.nnz_host() > 0 ? 1 : 0));
    PetscCall(PgkMatRestoreCSR(A, &csr));
  }
  const PetscLogDouble perm_bytes = (PetscLogDouble)(repeat * sizeof(PetscInt) * got.size());
  PetscCheck(ctog == ctog_expected && gtoc == repeat * per_ordering, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] transfers ctog=%g gtoc=%g, expected ctog=%g gtoc=%g (%" PetscInt_FMT " orderings on the %s)", PetscGlobalRank, ctog, gtoc, ctog_expected,
             repeat * per_ordering, repeat, on_device ? "device" : "host");
  PetscCheck(!on_device || got.empty() || (gtoc_bytes >= perm_bytes && gtoc_bytes < perm_bytes + 1024.0 * repeat), PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] %g bytes came back for %g bytes of permutations", PetscGlobalRank, gtoc_bytes, perm_bytes);
  PetscCall(Reference(A, ref));
  PetscCheck(got == ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "batchrcm differs from the serial reference (%zu vs %zu entries)", got.size(), ref.size());
  PetscCall(Order(A, MATORDERINGRCM, petsc_rcm));
  PetscInt bw0, bw1, bw2;
  PetscCall(Bandwidth(A, {}, &bw0));
  PetscCall(Bandwidth(A, got, &bw1));
  PetscCall(Bandwidth(A, petsc_rcm, &bw2));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD,
                                    "[%d] %" PetscInt_FMT " rows: identical to the reference in %" PetscInt_FMT " runs; bandwidth natural %" PetscInt_FMT ", batchrcm %" PetscInt_FMT ", PETSc rcm %" PetscInt_FMT
                                    "; transfers ctog=%g gtoc=%g as listed (%g bytes back)\n",
                                    PetscGlobalRank, (PetscInt)got.size(), repeat, bw0, bw1, bw2, ctog, gtoc, gtoc_bytes));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "test_batchrcm: all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
