"""MatGetOrdering 'batchrcm' and 'rabbitpp' from petsc4py on a shuffled 2D Laplacian.

    python3 ordering.py /path/to/libpetscgpukit.so [PETSc options]
"""
import sys

import petsc4py

petsc4py.init(['-dll_append', sys.argv[1]] + sys.argv[2:])
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402


def laplacian_2d(n, perm):
    """The 5-point Laplacian on an n x n grid, its unknowns numbered by perm (a shuffle)."""
    A = PETSc.Mat().createAIJ([n * n, n * n], nnz=5)
    A.setFromOptions()
    for i in range(n):
        for j in range(n):
            row = perm[i * n + j]
            A.setValue(row, row, 4.0)
            for ii, jj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= ii < n and 0 <= jj < n:
                    A.setValue(row, perm[ii * n + jj], -1.0)
    A.assemble()
    return A


def bandwidth(A):
    ia, ja, _ = A.getValuesCSR()
    rows = np.repeat(np.arange(len(ia) - 1), np.diff(ia))
    return int(np.max(np.abs(rows - ja)))


n = 30
A = laplacian_2d(n, np.random.default_rng(1).permutation(n * n))
before = bandwidth(A)
for ordering in ('batchrcm', 'rabbitpp'):
    rperm, cperm = A.getOrdering(ordering)
    p = rperm.getIndices()
    assert sorted(p) == list(range(n * n)), f'{ordering}: not a permutation'
    assert list(cperm.getIndices()) == list(p), f'{ordering}: row and column permutations differ'
    B = A.permute(rperm, cperm)
    after = bandwidth(B)
    print(f'{ordering}: valid permutation of {n * n} rows, bandwidth {before} -> {after}')
    if ordering == 'batchrcm':  # RCM's purpose is a small bandwidth: about n on this grid
        assert after <= 2 * n, f'batchrcm: bandwidth {after} > {2 * n}'
    B.destroy()
print('ordering.py: all checks passed')
