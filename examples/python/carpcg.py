"""KSPCARPCG (ksp.setType('carpcg')) from petsc4py, on a 2D Laplacian.

    python3 carpcg.py /path/to/libpetscgpukit.so [PETSc options]
"""
import sys

import petsc4py

petsc4py.init(['-dll_append', sys.argv[1]] + sys.argv[2:])
from petsc4py import PETSc  # noqa: E402


def laplacian_2d(n):
    A = PETSc.Mat().createAIJ([n * n, n * n], nnz=5)
    A.setFromOptions()
    for i in range(n):
        for j in range(n):
            row = i * n + j
            A.setValue(row, row, 4.0)
            for ii, jj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= ii < n and 0 <= jj < n:
                    A.setValue(row, ii * n + jj, -1.0)
    A.assemble()
    return A


A = laplacian_2d(30)
x_true, b = A.createVecs()
x_true.set(1.0)
A.mult(x_true, b)
x = x_true.duplicate()

ksp = PETSc.KSP().create()
ksp.setOperators(A)
ksp.setType('carpcg')
ksp.setTolerances(rtol=1e-10, max_it=5000)
ksp.setFromOptions()
ksp.solve(b, x)

reason, its = ksp.getConvergedReason(), ksp.getIterationNumber()
x.axpy(-1.0, x_true)
err = x.norm(PETSc.NormType.INFINITY)
print(f'{ksp.getType()}: reason {reason}, {its} iterations, max error {err:.2e}')
assert ksp.getType() == 'carpcg'
assert reason > 0, f'did not converge (reason {reason})'
assert err < 1e-6, f'error {err}'
print('carpcg.py: all checks passed')
