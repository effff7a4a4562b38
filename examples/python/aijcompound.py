"""MATAIJCOMPOUND (A.convert('aijcompound')) from petsc4py: MatMult against AIJ, block size 3.

    python3 aijcompound.py /path/to/libpetscgpukit.so [PETSc options]
"""
import sys

import petsc4py

petsc4py.init(['-dll_append', sys.argv[1]] + sys.argv[2:])
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402

# A 2D Laplacian with 3 unknowns per grid point (block size 3), coupled inside each point.
n, bs = 20, 3
coupling = np.array([[6.0, -1.0, 0.5], [-1.0, 6.0, -1.0], [0.5, -1.0, 6.0]])
A = PETSc.Mat().createAIJ([n * n * bs, n * n * bs], bsize=bs, nnz=5 * bs)
A.setFromOptions()
for i in range(n):
    for j in range(n):
        p = i * n + j
        A.setValuesBlocked([p], [p], coupling)
        for ii, jj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
            if 0 <= ii < n and 0 <= jj < n:
                A.setValuesBlocked([p], [ii * n + jj], -np.eye(bs))
A.assemble()

aij_type = A.getType()
C = A.convert('aijcompound', PETSc.Mat())  # without a target Mat, petsc4py converts A in place
x, y_aij = A.createVecs()
x.setArray(np.random.default_rng(2).standard_normal(x.getLocalSize()))
y = y_aij.duplicate()
A.mult(x, y_aij)
C.mult(x, y)
y.axpy(-1.0, y_aij)
diff = y.norm(PETSc.NormType.INFINITY) / y_aij.norm(PETSc.NormType.INFINITY)
print(f'{A.getType()} -> {C.getType()} (block size {C.getBlockSize()}): MatMult relative difference {diff:.1e}')
assert A.getType() == aij_type and 'compound' not in aij_type, A.getType()
assert C.getType().endswith('compoundaij'), C.getType()  # aijcompound: seq/mpicompoundaij
assert C.getBlockSize() == bs
assert diff < 1e-12, f'MatMult differs from AIJ by {diff}'

# What a FEM code calls beside the products: Dirichlet rows (the grid's first row of points; every
# rank may name any row) and a norm, on both (AIJ keeping its pattern, as aijcompound does).
rows = np.arange(0, n * bs, dtype=PETSc.IntType)
A.setOption(PETSc.Mat.Option.KEEP_NONZERO_PATTERN, True)
A.zeroRows(rows, diag=1.0)
C.zeroRows(rows, diag=1.0)
A.mult(x, y_aij)
C.mult(x, y)
y.axpy(-1.0, y_aij)
diff = y.norm(PETSc.NormType.INFINITY) / y_aij.norm(PETSc.NormType.INFINITY)
na, nc = A.norm(PETSc.NormType.FROBENIUS), C.norm(PETSc.NormType.FROBENIUS)
print(f'after zeroRows: MatMult relative difference {diff:.1e}; Frobenius norms {nc:.6g} (compound), {na:.6g} (AIJ)')
assert diff < 1e-12 and abs(nc - na) <= 1e-14 * na
for obj in (x, y, y_aij, C, A):  # device objects go before PETSc finalizes
    obj.destroy()
print('aijcompound.py: all checks passed')
