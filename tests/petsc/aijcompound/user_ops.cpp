static const char help[] = "Mat aijcompound under the operations a FEM code or a driver program calls beside the products:\n"
                           "MatZeroRows (Dirichlet rows), MatNorm, MatCopy and MatLoad, each against the AIJ original.\n"
                           "  -gen <spec>           generator specification (default elast3d:n=4)\n"
                           "  -zero_rows            MatZeroRows with x and b on both (AIJ with MAT_KEEP_NONZERO_PATTERN): b and the\n"
                           "                        matrix must come out equal; the rows are every 5th block row (whole), named by\n"
                           "                        rank (index mod size) so that most belong to another rank\n"
                           "  -zero_rows_columns    the same with MatZeroRowsColumns (b -= A(:, rows) x too)\n"
                           "  -partial              with -zero_rows / -submatrix: also one scalar row of block row 3 (part of a block row)\n"
                           "  -diag <1>             with -zero_rows: the diagonal value\n"
                           "  -norm                 MatNorm 1, Frobenius and infinity against the original (relative 1e-14)\n"
                           "  -submatrix            MatCreateSubMatrix without every 5th block row (initial and reused) against the original's\n"
                           "  -submatrices          MatIncreaseOverlap and MatCreateSubMatrices as PCASM calls them (initial, reused)\n"
                           "  -orderings            MatGetOrdering (natural, rcm, nd, qmd, batchrcm, rabbitpp) equal to the expansion's\n"
                           "  -rows                 MatGetRow and MatGetValues (this rank's rows) against the original's\n"
                           "  -products             MatMatMult, MatPtAP, MatTransposeMatMult with a rectangular AIJ (initial, numeric, reused)\n"
                           "  -transpose            MatTranspose (initial, reused), MatIsSymmetric, MatIsHermitian\n"
                           "  -copy                 MatCopy into a duplicate, into another pattern and into MATAIJ: each equals the original\n"
                           "  -load <file>          the original written to file (binary), then read by MatLoad into a matrix with\n"
                           "                        prefix load_ (-load_mat_type aijcompound): it must equal the original\n"
                           "  -final_view ::ascii_info  views the converted matrix at the end (-load_mat_view: the loaded one)\n";

#include <petscgpukit.h>
#include <petscksp.h>

#include "tests/petsc/aijcompound/common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

// The rows -zero_rows names on this rank: scalar rows of every 5th block row (from 2), and with
// partial one scalar row of block row 3; entry k of the global list goes to rank k mod size.
static PetscErrorCode ZeroRowList(Mat A, PetscBool partial, std::vector<PetscInt> *rows)
{
  PetscInt    bs, N;
  PetscMPIInt rank, size;
  PetscInt    k = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetSize(A, &N, NULL));
  for (PetscInt I = 2; I < N / bs; I += 5)
    for (PetscInt i = 0; i < bs; ++i, ++k)
      if (k % size == rank) rows->push_back(I * bs + i);
  if (partial && 3 * bs + 1 < N && rank == size - 1) rows->push_back(3 * bs + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatZeroRows, or MatZeroRowsColumns (b -= A(:, rows) x too: on one rank the same operations in
// MATSEQAIJ's order, so b is equal; across ranks the sums' order differs, b within 1e-14).
static PetscErrorCode CheckZeroRows(Mat A, Mat C, PetscBool partial, PetscScalar diag, PetscBool columns)
{
  std::vector<PetscInt> rows;
  Vec                   x, bA, bC;
  PetscBool             equal;

  PetscFunctionBegin;
  PetscCall(ZeroRowList(A, partial, &rows));
  PetscCall(MatCreateVecs(C, &x, &bC));
  PetscCall(FillVec(x, 1));
  PetscCall(FillVec(bC, 2));
  PetscCall(MatCreateVecs(A, NULL, &bA));
  PetscCall(FillVec(bA, 2));
  PetscCall(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  if (columns) {
    PetscReal   nd, nb;
    PetscMPIInt size;
    PetscCall(MatZeroRowsColumns(A, (PetscInt)rows.size(), rows.data(), diag, x, bA));
    PetscCall(MatZeroRowsColumns(C, (PetscInt)rows.size(), rows.data(), diag, x, bC));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCall(VecEqual(bA, bC, &equal));
    PetscCall(VecNorm(bA, NORM_INFINITY, &nb));
    PetscCall(VecAXPY(bC, -1.0, bA));
    PetscCall(VecNorm(bC, NORM_INFINITY, &nd));
    PetscCheck(equal || (size > 1 && nd <= 1e-14 * nb), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatZeroRowsColumns: b differs from the original's by %g", (double)nd);
  } else {
    PetscCall(MatZeroRows(A, (PetscInt)rows.size(), rows.data(), diag, x, bA));
    PetscCall(MatZeroRows(C, (PetscInt)rows.size(), rows.data(), diag, x, bC));
    PetscCall(VecEqual(bA, bC, &equal));
    PetscCheck(equal, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatZeroRows: b differs from the original's");
  }
  PetscCall(CheckConvertBack(A, C, MATAIJ));
  {
    PetscReal nd, nu;
    Vec       yA, yC;
    PetscCall(VecDuplicate(bA, &yA));
    PetscCall(VecDuplicate(bC, &yC));
    PetscCall(MatMult(A, x, yA));
    PetscCall(MatMult(C, x, yC));
    PetscCall(VecCopy(yC, bA)); // yC's values in the original's vector type
    PetscCall(VecAXPY(bA, -1.0, yA));
    PetscCall(VecNorm(bA, NORM_2, &nd));
    PetscCall(VecNorm(yA, NORM_2, &nu));
    PetscCheck(nd <= 1e-13 * nu, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatMult after MatZeroRows: relative difference %g", (double)(nd / nu));
    PetscCall(VecDestroy(&yA));
    PetscCall(VecDestroy(&yC));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatZeroRows%s (diag %g%s): b and the matrix equal the original's\n", columns ? "Columns" : "", (double)PetscRealPart(diag), partial ? ", part of a block row" : ""));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&bA));
  PetscCall(VecDestroy(&bC));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckNorms(Mat A, Mat C)
{
  const NormType types[] = {NORM_1, NORM_FROBENIUS, NORM_INFINITY};

  PetscFunctionBegin;
  for (NormType t : types) {
    PetscReal na, nc;
    PetscCall(MatNorm(A, t, &na));
    PetscCall(MatNorm(C, t, &nc));
    PetscCheck(std::fabs(na - nc) <= 1e-14 * na, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatNorm %s: %.17g against the original's %.17g", NormTypes[t], (double)nc, (double)na);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatNorm 1, frobenius, infinity: equal to the original's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatCopy(C, D) for D a duplicate without values, D of another pattern (the diagonal blocks only),
// and D a MATAIJ: each converts back to the original exactly.
static PetscErrorCode CheckCopy(Mat A, Mat C)
{
  Mat       D, I;
  MatType   type;
  PetscInt  bs;
  PetscReal norm;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(C, MAT_DO_NOT_COPY_VALUES, &D));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &norm));
  PetscCheck(norm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatDuplicate without values is not zero");
  PetscCall(MatCopy(C, D, SAME_NONZERO_PATTERN));
  PetscCall(CheckConvertBack(A, D, MATAIJ));
  PetscCall(MatDestroy(&D));
  // the identity's pattern, of C's type
  PetscCall(MatGetType(C, &type));
  PetscCall(MatGetBlockSize(C, &bs));
  {
    PetscInt m, n, rstart, rend;
    PetscCall(MatGetLocalSize(A, &m, &n));
    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, m, n, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, &I));
    PetscCall(MatSetBlockSize(I, bs));
    for (PetscInt i = rstart; i < rend; ++i) PetscCall(MatSetValue(I, i, i, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(I, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(I, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(MatConvert(I, type, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatDestroy(&I));
  PetscCall(MatCopy(C, D, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckConvertBack(A, D, MATAIJ));
  PetscCall(MatDestroy(&D));
  // into MATAIJ
  PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &D));
  PetscCall(MatCopy(C, D, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatAXPY(D, -1.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &norm));
  PetscCheck(norm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatCopy into MATAIJ is not the original");
  PetscCall(MatDestroy(&D));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatCopy into a duplicate, another pattern and MATAIJ: equal to the original\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatCreateSubMatrix with the rows and columns of every block row but those = 2 mod 5 (whole blocks:
// of the compound type) or also without one scalar row (part of a block: MATAIJ), then again with
// MAT_REUSE_MATRIX after MatScale: each equals the original's submatrix.
static PetscErrorCode CheckSubMatrix(Mat A, Mat C, PetscBool partial)
{
  std::vector<PetscInt> keep;
  PetscInt              bs, rstart, rend;
  IS                    is;
  Mat                   SA, SC;
  MatType               type;

  PetscFunctionBegin;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; ++r)
    if ((r / bs) % 5 != 2 && !(partial && r == 3 * bs + 1)) keep.push_back(r);
  PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, (PetscInt)keep.size(), keep.data(), PETSC_COPY_VALUES, &is));
  if (!partial) PetscCall(ISSetBlockSize(is, bs));
  PetscCall(MatCreateSubMatrix(A, is, is, MAT_INITIAL_MATRIX, &SA));
  PetscCall(MatCreateSubMatrix(C, is, is, MAT_INITIAL_MATRIX, &SC));
  PetscCall(MatGetType(SC, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatCreateSubMatrix: %s\n", type));
  PetscCall(CheckConvertBack(SA, SC, MATAIJ));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatScale(C, 2.0));
  PetscCall(MatCreateSubMatrix(A, is, is, MAT_REUSE_MATRIX, &SA));
  PetscCall(MatCreateSubMatrix(C, is, is, MAT_REUSE_MATRIX, &SC));
  PetscCall(CheckConvertBack(SA, SC, MATAIJ));
  PetscCall(MatScale(A, 0.5));
  PetscCall(MatScale(C, 0.5));
  PetscCall(MatDestroy(&SA));
  PetscCall(MatDestroy(&SC));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatCreateSubMatrix (initial, reused): equal to the original's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// What PCASM does: two local index sets (this rank's first and second half of rows) grown by
// MatIncreaseOverlap (2 levels: a superset of the original's, since the expansion's pattern holds
// whole blocks), sorted, MatCreateSubMatrices, then MAT_REUSE_MATRIX after MatScale: every
// submatrix equals the original's on the same index sets.
static PetscErrorCode CheckSubMatrices(Mat A, Mat C)
{
  PetscInt rstart, rend, half;
  IS       isa[2], isc[2];
  Mat     *sa, *sc;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  half = (rend - rstart) / 2;
  PetscCall(ISCreateStride(PETSC_COMM_SELF, half, rstart, 1, &isa[0]));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, rend - rstart - half, rstart + half, 1, &isa[1]));
  for (int k = 0; k < 2; ++k) PetscCall(ISDuplicate(isa[k], &isc[k]));
  PetscCall(MatIncreaseOverlap(A, 2, isa, 2));
  PetscCall(MatIncreaseOverlap(C, 2, isc, 2));
  for (int k = 0; k < 2; ++k) { // the original's set, or (whole blocks) more: what isa lacks of isc is empty
    IS       lack;
    PetscInt nlack;
    PetscCall(ISDifference(isa[k], isc[k], &lack));
    PetscCall(ISGetLocalSize(lack, &nlack));
    PetscCheck(nlack == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatIncreaseOverlap: index set %d lacks %" PetscInt_FMT " of the original's rows", k, nlack);
    PetscCall(ISDestroy(&lack));
    PetscCall(ISSort(isc[k])); // as PCASM does
    PetscCall(ISDestroy(&isa[k]));
    PetscCall(ISDuplicate(isc[k], &isa[k])); // the submatrices compared on the same index sets
  }
  PetscCall(MatCreateSubMatrices(A, 2, isa, isa, MAT_INITIAL_MATRIX, &sa));
  PetscCall(MatCreateSubMatrices(C, 2, isc, isc, MAT_INITIAL_MATRIX, &sc));
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 2; ++k) {
      PetscReal norm;
      Mat       D; // (MATMPIAIJ's submatrices must not be merged into by MatAXPY: a copy)
      PetscCall(MatDuplicate(sc[k], MAT_COPY_VALUES, &D));
      PetscCall(MatAXPY(D, -1.0, sa[k], DIFFERENT_NONZERO_PATTERN));
      PetscCall(MatNorm(D, NORM_FROBENIUS, &norm));
      PetscCall(MatDestroy(&D));
      PetscCheck(norm == 0.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatCreateSubMatrices: submatrix %d differs from the original's (%g)", k, (double)norm);
    }
    if (round) break;
    PetscCall(MatScale(A, 2.0));
    PetscCall(MatScale(C, 2.0));
    PetscCall(MatCreateSubMatrices(A, 2, isa, isa, MAT_REUSE_MATRIX, &sa));
    PetscCall(MatCreateSubMatrices(C, 2, isc, isc, MAT_REUSE_MATRIX, &sc));
  }
  PetscCall(MatScale(A, 0.5));
  PetscCall(MatScale(C, 0.5));
  PetscCall(MatDestroySubMatrices(2, &sa));
  PetscCall(MatDestroySubMatrices(2, &sc));
  for (int k = 0; k < 2; ++k) PetscCall(ISDestroy(&isa[k]));
  for (int k = 0; k < 2; ++k) PetscCall(ISDestroy(&isc[k]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatIncreaseOverlap, MatCreateSubMatrices (initial, reused): equal to the original's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatGetOrdering on the compound matrix (its MatGetRowIJ: the expansion's structure, scalar rows)
// against the same ordering of the expansion as MATSEQAIJ without inodes (with them PETSc's rcm, nd
// and qmd order the inode graph): equal index sets (one rank; MPI: the diagonal block).
static PetscErrorCode CheckOrderings(Mat C)
{
  const char *types[] = {MATORDERINGNATURAL, MATORDERINGRCM, MATORDERINGND, MATORDERINGQMD, "batchrcm", "rabbitpp"};
  Mat         Cd, E;
  PetscBool   mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)C, MATMPIAIJCOMPOUND, &mpi));
  if (mpi) PetscCall(MatGetDiagonalBlock(C, &Cd));
  else Cd = C;
  PetscCall(MatConvert(Cd, MATSEQAIJ, MAT_INITIAL_MATRIX, &E));
  PetscCall(MatSetOption(E, MAT_USE_INODES, PETSC_FALSE)); // the compound matrix orders scalar rows, not inodes
  PetscCall(MatAssemblyBegin(E, MAT_FINAL_ASSEMBLY));      // (the inode table is built at assembly)
  PetscCall(MatAssemblyEnd(E, MAT_FINAL_ASSEMBLY));
  for (const char *t : types) {
    IS        rc, cc, re, ce;
    PetscBool same;
    PetscInt  n, m;
    PetscCall(MatGetLocalSize(Cd, &m, NULL));
    PetscCall(MatGetOrdering(Cd, t, &rc, &cc));
    PetscCall(MatGetOrdering(E, t, &re, &ce));
    PetscCall(ISEqualUnsorted(rc, re, &same));
    PetscCall(ISGetLocalSize(rc, &n));
    PetscCheck(same && n == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetOrdering %s on the compound matrix differs from the expansion's (size %" PetscInt_FMT ")", t, n);
    for (IS *is : {&rc, &cc, &re, &ce}) PetscCall(ISDestroy(is));
  }
  PetscCall(MatDestroy(&E));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatGetOrdering natural, rcm, nd, qmd, batchrcm, rabbitpp: equal to the expansion's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatGetRow and MatGetValues (this rank's rows; the cached expansion): every row's stored scalars
// equal the original's values at those columns (the expansion stores whole blocks: explicit zeros
// where the original stores nothing), and a row of the original is within the compound row.
static PetscErrorCode CheckRows(Mat A, Mat C)
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(C, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; ++r) {
    PetscInt                 nc, na;
    const PetscInt          *cc, *ca;
    const PetscScalar       *vc, *va;
    std::vector<PetscInt>    cols;
    std::vector<PetscScalar> vals, got;
    PetscCall(MatGetRow(C, r, &nc, &cc, &vc));
    cols.assign(cc, cc + nc);
    vals.assign(vc, vc + nc);
    PetscCall(MatRestoreRow(C, r, &nc, &cc, &vc));
    got.resize((size_t)nc);
    PetscCall(MatGetValues(A, 1, &r, nc, cols.data(), got.data()));
    for (PetscInt k = 0; k < nc; ++k) PetscCheck(got[k] == vals[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRow: row %" PetscInt_FMT " column %" PetscInt_FMT " differs from the original", r, cols[k]);
    PetscCall(MatGetValues(C, 1, &r, nc, cols.data(), got.data()));
    for (PetscInt k = 0; k < nc; ++k) PetscCheck(got[k] == vals[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetValues: row %" PetscInt_FMT " column %" PetscInt_FMT " differs from MatGetRow", r, cols[k]);
    PetscCall(MatGetRow(A, r, &na, &ca, &va));
    for (PetscInt k = 0; k < na; ++k) PetscCheck(std::binary_search(cols.begin(), cols.end(), ca[k]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRow: row %" PetscInt_FMT " lacks column %" PetscInt_FMT, r, ca[k]);
    PetscCall(MatRestoreRow(A, r, &na, &ca, &va));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatGetRow, MatGetValues: equal to the original's\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The original written to file, then MatLoad into a matrix set up from the options under prefix load_.
static PetscErrorCode CheckLoad(Mat A, const char *file)
{
  PetscViewer viewer;
  Mat         L;
  MatType     type;
  PetscInt    bs;

  PetscFunctionBegin;
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &L));
  PetscCall(MatSetOptionsPrefix(L, "load_"));
  PetscCall(MatSetFromOptions(L));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &viewer));
  PetscCall(MatLoad(L, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatGetType(L, &type));
  PetscCall(MatGetBlockSize(L, &bs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatLoad: %s, block size %" PetscInt_FMT "\n", type, bs));
  PetscCall(MatViewFromOptions(L, NULL, "-mat_view")); // -load_mat_view
  PetscCall(CheckConvertBack(A, L, MATAIJ));
  PetscCall(MatDestroy(&L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// |X - Y|_F <= 1e-14 |Y|_F, or an error naming what. Y is taken to X's type first: a product of
// a device compound matrix is MATAIJ (the expansion's, on the host) while the original's is
// MATAIJCUSPARSE, and PETSc's MatAXPY across types preallocates with the row block size for the
// columns too (MatPreallocatorPreallocate), an error for A P with A's block size 3 and 7 columns.
static PetscErrorCode CheckClose(Mat X, Mat Y, const char *what)
{
  Mat       Dif, Yx;
  PetscReal nd, ny;
  MatType   xtype;

  PetscFunctionBegin;
  PetscCall(MatGetType(X, &xtype));
  PetscCall(MatConvert(Y, xtype, MAT_INITIAL_MATRIX, &Yx));
  PetscCall(MatDuplicate(X, MAT_COPY_VALUES, &Dif));
  PetscCall(MatAXPY(Dif, -1.0, Yx, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatDestroy(&Yx));
  PetscCall(MatNorm(Dif, NORM_FROBENIUS, &nd));
  PetscCall(MatNorm(Y, NORM_FROBENIUS, &ny));
  PetscCall(MatDestroy(&Dif));
  PetscCheck(nd <= 1e-14 * ny, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s differs from the original's: %g of %g", what, (double)nd, (double)ny);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMatMult, MatPtAP and MatTransposeMatMult of C with a rectangular MATAIJ P (two entries a row, as
// an aggregation prolongator), against the same of the original A: at set-up; by MatProductNumeric
// after both were scaled (the expansion the product holds must be refreshed); by MAT_REUSE_MATRIX
// after a second scaling.
static PetscErrorCode CheckProducts(Mat A, Mat C)
{
  Mat      P, DC[3], DA[3];
  PetscInt m, rstart, rend, N, nc = 7;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, m, PETSC_DECIDE, PETSC_DETERMINE, nc, 2, NULL, 2, NULL, &P));
  for (PetscInt i = rstart; i < rend; ++i) {
    PetscCall(MatSetValue(P, i, (i * nc) / N, 1.0 + 0.01 * (PetscReal)(i % 5), ADD_VALUES));
    PetscCall(MatSetValue(P, i, (i * 3 + 1) % nc, 0.5, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  for (int round = 0; round < 3; ++round) {
    const MatReuse reuse = round == 0 ? MAT_INITIAL_MATRIX : MAT_REUSE_MATRIX;
    if (round > 0) {
      PetscCall(MatScale(A, 1.5));
      PetscCall(MatScale(C, 1.5));
    }
    if (round == 1) { // numeric only, on the products made at round 0
      for (int k = 0; k < 3; ++k) PetscCall(MatProductNumeric(DC[k]));
    } else {
      PetscCall(MatMatMult(C, P, reuse, PETSC_DETERMINE, &DC[0]));
      PetscCall(MatPtAP(C, P, reuse, PETSC_DETERMINE, &DC[1]));
      PetscCall(MatTransposeMatMult(C, P, reuse, PETSC_DETERMINE, &DC[2]));
    }
    PetscCall(MatMatMult(A, P, reuse, PETSC_DETERMINE, &DA[0]));
    PetscCall(MatPtAP(A, P, reuse, PETSC_DETERMINE, &DA[1]));
    PetscCall(MatTransposeMatMult(A, P, reuse, PETSC_DETERMINE, &DA[2]));
    PetscCall(CheckClose(DC[0], DA[0], "MatMatMult"));
    PetscCall(CheckClose(DC[1], DA[1], "MatPtAP"));
    PetscCall(CheckClose(DC[2], DA[2], "MatTransposeMatMult"));
  }
  MatType type;
  PetscCall(MatGetType(DC[1], &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMatMult, MatPtAP, MatTransposeMatMult (initial, numeric, reused): %s, equal to the original's\n", type));
  for (int k = 0; k < 3; ++k) {
    PetscCall(MatDestroy(&DC[k]));
    PetscCall(MatDestroy(&DA[k]));
  }
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatTranspose of C (initial; reused after MatScale of both) against the original's, exactly, and of
// C's type again; MatIsSymmetric and (one rank) MatIsHermitian, tolerance 0 and 1e-12, give the original's answers.
static PetscErrorCode CheckTranspose(Mat A, Mat C)
{
  Mat         At, Ct;
  MatType     type;
  PetscBool   sa, sc;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (int round = 0; round < 2; ++round) {
    const MatReuse reuse = round == 0 ? MAT_INITIAL_MATRIX : MAT_REUSE_MATRIX;
    if (round > 0) {
      PetscCall(MatScale(A, 0.5));
      PetscCall(MatScale(C, 0.5));
    }
    PetscCall(MatTranspose(A, reuse, &At));
    PetscCall(MatTranspose(C, reuse, &Ct));
    PetscCall(CheckConvertBack(At, Ct, MATAIJ));
  }
  PetscCall(MatGetType(Ct, &type));
  for (PetscReal tol : {0.0, 1e-12}) {
    PetscCall(MatIsSymmetric(A, tol, &sa));
    PetscCall(MatIsSymmetric(C, tol, &sc));
    PetscCheck(sa == sc, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatIsSymmetric: %d, the original's %d", (int)sc, (int)sa);
    if (size > 1) continue; // (MATMPIAIJ has no MatIsHermitian: the same error for both)
    PetscCall(MatIsHermitian(A, tol, &sa));
    PetscCall(MatIsHermitian(C, tol, &sc));
    PetscCheck(sa == sc, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatIsHermitian: %d, the original's %d", (int)sc, (int)sa);
  }
  PetscCall(MatIsSymmetric(C, 0.0, &sc));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatTranspose (initial, reused): %s, equal to the original's; MatIsSymmetric %s, as the original\n", type, sc ? "true" : "false"));
  PetscCall(MatDestroy(&At));
  PetscCall(MatDestroy(&Ct));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "elast3d:n=4", file[PETSC_MAX_PATH_LEN] = "";
  PetscBool zero_rows = PETSC_FALSE, zero_rows_columns = PETSC_FALSE, partial = PETSC_FALSE, norm = PETSC_FALSE, copy = PETSC_FALSE, load, submatrix = PETSC_FALSE, submatrices = PETSC_FALSE, orderings = PETSC_FALSE, rows = PETSC_FALSE,
            products = PETSC_FALSE, transpose = PETSC_FALSE;
  PetscScalar diag = 1.0;
  Mat         A, C;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zero_rows", &zero_rows, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zero_rows_columns", &zero_rows_columns, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-partial", &partial, NULL));
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-diag", &diag, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-norm", &norm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-copy", &copy, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-submatrix", &submatrix, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-submatrices", &submatrices, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-orderings", &orderings, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-rows", &rows, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-products", &products, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-transpose", &transpose, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-load", file, sizeof file, &load));
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, "orig_", &A));
  if (load) PetscCall(CheckLoad(A, file));
  if (norm || copy || zero_rows || zero_rows_columns || submatrix || submatrices || orderings || rows || products || transpose) { // (-load alone also takes originals of block size 1)
    PetscCall(MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, &C));
    PetscCall(MatSetOptionsPrefix(C, NULL)); // the conversion took the original's prefix
    if (norm) PetscCall(CheckNorms(A, C));
    if (copy) PetscCall(CheckCopy(A, C));
    if (submatrix) PetscCall(CheckSubMatrix(A, C, partial));
    if (submatrices) PetscCall(CheckSubMatrices(A, C));
    if (orderings) PetscCall(CheckOrderings(C));
    if (rows) PetscCall(CheckRows(A, C));
    if (zero_rows) PetscCall(CheckZeroRows(A, C, partial, diag, PETSC_FALSE));
    if (zero_rows_columns) PetscCall(CheckZeroRows(A, C, partial, diag, PETSC_TRUE));
    if (products) PetscCall(CheckProducts(A, C));   // (scales A and C both)
    if (transpose) PetscCall(CheckTranspose(A, C)); // (scales A and C both)
    PetscCall(MatViewFromOptions(C, NULL, "-final_view"));
    PetscCall(MatDestroy(&C));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all checks passed\n"));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
