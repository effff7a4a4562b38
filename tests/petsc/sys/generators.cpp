static const char help[] = "Generates matrices on any number of ranks and compares every local row with\n"
                           "the serial generator, so a distributed matrix equals the sequential one.\n"
                           "  -gen <spec>   one specification (default: a list covering every kind)\n";

#include <petscgpukit.h>

#include <string>
#include <vector>

#include "src/matgen/generators.hpp"

static PetscErrorCode CheckOne(const char *spec)
{
  Mat      A;
  PetscInt rstart, rend;

  PetscFunctionBegin;
  PetscCall(PetscGpuKitMatCreateGenerated(PETSC_COMM_WORLD, spec, NULL, &A));
  const pgk::Csr full = pgk::gen::generate(pgk::gen::parse_spec(spec));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; ++i) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    const PetscInt b = full.rowptr[i], e = full.rowptr[i + 1];
    PetscCheck(nc == e - b, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " has %" PetscInt_FMT " entries, expected %" PetscInt_FMT, spec, i, nc, e - b);
    for (PetscInt k = 0; k < nc; ++k) {
      PetscCheck(cols[k] == full.colidx[b + k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " column mismatch", spec, i);
      PetscCheck(vals[k] == full.values[b + k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: row %" PetscInt_FMT " value mismatch", spec, i);
    }
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  const pgk::gen::Shape shape = pgk::gen::describe(pgk::gen::parse_spec(spec));
  PetscBool             sym   = PETSC_FALSE;
  PetscCall(MatIsSymmetric(A, 0.0, &sym));
  PetscCheck(!shape.symmetric || sym, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: documented symmetric but is not", spec);
  PetscInt bs;
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCheck(bs == shape.block_size, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: block size %" PetscInt_FMT, spec, bs);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-40s rows %8" PetscInt_FMT "  symmetric %s  ok\n", spec, (PetscInt)shape.nrows, sym ? "yes" : "no "));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      spec[256] = "";
  PetscBool one;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", spec, sizeof spec, &one));
  std::vector<std::string> specs;
  if (one) specs.push_back(spec);
  else
    specs = {"lap2d5:nx=13,ny=7",
             "lap3d7:n=6",
             "lap3d27:nx=5,ny=4,nz=3",
             "elast3d:n=4",
             "aniso2d:n=9,variant=1",
             "aniso2d:n=9,variant=2",
             "aniso2d:n=9,variant=3",
             "convdiff2d:n=9",
             "convdiff3d:n=5",
             "helmholtz2dc:nx=9,ny=5",
             "quatsurf:nu=7,nv=5",
             "random:n=300,deg=6,seed=3",
             "disconnected:n=200,parts=5",
             "hubrow:n=300",
             "powerlaw:n=500,communities=8",
             "path:n=17",
             "empty:n=5",
             "lap3d7:n=1"};
  for (const auto &s : specs) PetscCall(CheckOne(s.c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "test_generators_petsc: %d specifications checked\n", (int)specs.size()));
  PetscCall(PetscFinalize());
  return 0;
}
