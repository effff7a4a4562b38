"""Pictures from petsc4py with PETSc's image viewer: spy plots of a shuffled 2D Laplacian before
and after MatOrdering 'batchrcm', and the residual history of CG with PC 'trilf', saved in the
current folder (PNG where PETSc has libpng, PPM otherwise).

    python3 pictures.py /path/to/libpetscgpukit.so [PETSc options]
"""
import glob
import sys

import petsc4py

petsc4py.init(['-dll_append', sys.argv[1]] + sys.argv[2:])
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402

opts = PETSc.Options()
opts['draw_type'] = 'image'  # PETSc's image viewer: no X server needed
opts['draw_save_single_file'] = True  # one file a picture (else a folder of numbered frames)
opts['nox_warning'] = True  # PETSc's "no X Windows" line, printed before it reads draw_type


def laplacian_2d(n, perm):
    """The 5-point Laplacian on an n x n grid, its unknowns numbered by perm (a shuffle)."""
    A = PETSc.Mat().createAIJ([n * n, n * n], nnz=5)
    for i in range(n):
        for j in range(n):
            row = perm[i * n + j]
            A.setValue(row, row, 4.0)
            for ii, jj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= ii < n and 0 <= jj < n:
                    A.setValue(row, perm[ii * n + jj], -1.0)
    A.assemble()
    return A


def spy(M, name):
    """MatView on a draw viewer, saved as name + PETSc's default extension (a name with a dot
    would keep it: PETSc 3.26 saves 'a.png' as 'a..png')."""
    opts['draw_save'] = name  # read when the viewer creates its draw, at the first view
    viewer = PETSc.Viewer().createDraw(size=(400, 400))
    M.view(viewer)
    viewer.destroy()


n = 30
A = laplacian_2d(n, np.random.default_rng(1).permutation(n * n))
spy(A, 'before')
rperm, cperm = A.getOrdering('batchrcm')
spy(A.permute(rperm, cperm), 'after')

opts['draw_save'] = 'conv'
ksp = PETSc.KSP().create()
ksp.setOperators(A)
ksp.setType('cg')
ksp.getPC().setType('trilf')
opts['ksp_monitor'] = 'draw::draw_lg'  # PETSc's line-graph monitor: log10 of the residual norm
ksp.setFromOptions()
x, b = A.createVecs()
b.set(1.0)
ksp.solve(b, x)
its = ksp.getIterationNumber()
ksp.destroy()  # the monitor's viewer, and with it the last picture, is complete now
del opts['ksp_monitor']

for name in ('before', 'after', 'conv'):
    files = glob.glob(name + '.*')
    assert len(files) == 1, f'{name}: expected one picture, found {files}'
    print(f'{files[0]} written')
print(f'trilf + cg: {its} iterations')
print('pictures.py: all checks passed')
