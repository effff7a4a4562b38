# Mat aijcompound (issue 10), host path: MatConvert from AIJ/BAIJ, every operation against the AIJ
# original (relative 1e-13), KSP iteration counts, the view, bad input; MPI (MATMPIAIJCOMPOUND) below.
set(T $<TARGET_FILE:test_aijcompound>)
set(OK --expect "all checks passed")
set(CHK ${OK} --expect "MatMultTransposeAdd +relative" --expect "MatInvertBlockDiagonal +relative" --expect "MatConvert back to AIJ +\\|\\|B - A\\|\\|_F = 0" --expect "MatDuplicate, MatAXPY: ok" --expect "MatConvert back to BAIJ +\\|\\|B - A\\|\\|_F = 0" --expect "MatConvert back to DENSE +\\|\\|B - A\\|\\|_F = 0" --expect "MatConvert back to SELL +\\|\\|B - A\\|\\|_F = 0" --expect "reassembled: MatMultTransposeAdd")

# Operations against the original: elast3d (bs 3, blocks), complex (bs 2), quaternion (bs 4);
# from AIJ and from BAIJ, and in place.
pgk_test(petsc.aijcompound.elast3d LABELS petsc ARGS ${CHK} --expect "converted elast3d:n=5 to seqcompoundaij" -- ${T} -gen elast3d:n=5 -check)
# The compound generators: quatsurf (quaternion, auto-detected), helmholtz2dc (complex), vec3d27 (full 3x3 blocks).
pgk_test(petsc.aijcompound.quatsurf LABELS petsc ARGS ${CHK} --expect "entry kind quaternion" -- ${T} -gen quatsurf:n=8 -check -mat_view ::ascii_info)
pgk_test(petsc.aijcompound.helmholtz2dc LABELS petsc ARGS ${CHK} --expect "entry kind complex" -- ${T} -gen helmholtz2dc:n=8 -check -mat_view ::ascii_info)
pgk_test(petsc.aijcompound.vec3d27 LABELS petsc ARGS ${CHK} --expect "entry kind block" -- ${T} -gen vec3d27:n=4 -check -mat_view ::ascii_info)
pgk_test(petsc.aijcompound.elast3d_baij LABELS petsc ARGS ${CHK} -- ${T} -gen elast3d:n=4 -from baij -check)
pgk_test(petsc.aijcompound.elast3d_inplace LABELS petsc ARGS ${CHK} -- ${T} -gen elast3d:n=4 -inplace -check)
foreach(kind complex quaternion)
  pgk_test(petsc.aijcompound.${kind} LABELS petsc ARGS ${CHK} --expect "entry kind ${kind} \\(-mat_aijcompound_entry auto\\)"
           -- ${T} -build ${kind} -check -mat_view ::ascii_info)
  # forced: MatDiagonalScale (scalings varying inside blocks) stores real blocks; re-assembling
  # such values with the kind still forced is the structure error
  pgk_test(petsc.aijcompound.${kind}_forced LABELS petsc ARGS ${OK} --expect "entry kind ${kind} \\(-mat_aijcompound_entry ${kind}\\)" --expect "MatDuplicate, MatAXPY: ok"
           -- ${T} -build ${kind} -check -reassemble 0 -mat_aijcompound_entry ${kind} -mat_view ::ascii_info)
  pgk_test(petsc.aijcompound.${kind}_forced_reassembled LABELS petsc ARGS --fail --expect "-mat_aijcompound_entry ${kind}: not every stored"
           -- ${T} -build ${kind} -check -mat_aijcompound_entry ${kind})
  pgk_test(petsc.aijcompound.${kind}_as_blocks LABELS petsc ARGS ${CHK} --expect "entry kind block \\(-mat_aijcompound_entry block\\)"
           -- ${T} -build ${kind} -check -mat_aijcompound_entry block -mat_view ::ascii_info)
  # auto falls back to real blocks when one block breaks the structure
  pgk_test(petsc.aijcompound.${kind}_perturbed LABELS petsc ARGS ${CHK} --expect "entry kind block \\(-mat_aijcompound_entry auto\\)"
           -- ${T} -build ${kind} -perturb -check -mat_view ::ascii_info)
endforeach()

# -mat_type aijcompound: assembled through MatSetFromOptions + MatSetValues (an inner AIJ, converted
# at MAT_FINAL_ASSEMBLY); -check also re-assembles values after MatScale (CheckReassembly).
pgk_test(petsc.aijcompound.mat_type LABELS petsc ARGS ${CHK} --expect "assembled elast3d:n=4 to seqcompoundaij" -- ${T} -gen elast3d:n=4 -assembled -mat_type aijcompound -check)
pgk_test(petsc.aijcompound.mat_type_cg LABELS petsc ARGS ${OK} --expect "same iteration count" --expect "entry kind block"
         -- ${T} -gen elast3d:n=6 -assembled -mat_type aijcompound -solve -ksp_type cg -pc_type pbjacobi -ksp_rtol 1e-8 -mat_view ::ascii_info)
# Assembled with block size 1 (no compound entries; what PETSc's DMDA does with its interpolation, made
# with the DM's matrix type): the matrix becomes the MATAIJ it was assembled into. (MatConvert of a
# block-size-1 matrix stays an error below.)
pgk_test(petsc.aijcompound.mat_type_bs1 LABELS petsc ARGS ${CHK} --expect "assembled lap3d7:n=3 to seqaij" -- ${T} -gen lap3d7:n=3 -assembled -mat_type aijcompound -check)

# The view.
pgk_test(petsc.aijcompound.view LABELS petsc ARGS ${OK} --expect "type: seqcompoundaij" --expect "rows=375, cols=375, bs=3"
         --expect "entry kind block \\(-mat_aijcompound_entry auto\\), bs 3, 9 scalars per entry"
         --expect "block rows 125, block columns 125, stored blocks [0-9]+, layout CSR \\(host\\)" -- ${T} -gen elast3d:n=5 -mat_view ::ascii_info)
pgk_test(petsc.aijcompound.petscgpukit_view LABELS petsc ARGS ${OK} --expect "Mat aijcompound: compound entries" -- ${T} -petscgpukit_view)

# KSP: CG + pbjacobi / jacobi / none take as many iterations as on the AIJ original.
foreach(pc pbjacobi jacobi none)
  pgk_test(petsc.aijcompound.cg_${pc} LABELS petsc ARGS ${OK} --expect "same iteration count" --expect "KSP on seqcompoundaij: CONVERGED_RTOL"
           -- ${T} -gen elast3d:n=6 -solve -ksp_type cg -pc_type ${pc} -ksp_rtol 1e-8)
endforeach()
pgk_test(petsc.aijcompound.gmres_quaternion LABELS petsc ARGS ${OK} --expect "same iteration count"
         -- ${T} -build quaternion -solve -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-10)

# Bad input and what is not supported: clear errors.
pgk_test(petsc.aijcompound.bs1 LABELS petsc ARGS --fail --expect "needs a block size 2\\.\\.8 .* the matrix has block size 1" -- ${T} -gen lap3d7:n=4)
pgk_test(petsc.aijcompound.forced_quaternion LABELS petsc ARGS --fail --expect "-mat_aijcompound_entry quaternion: not every stored 4x4 block has the quaternion form"
         -- ${T} -build quaternion -perturb -mat_aijcompound_entry quaternion)
pgk_test(petsc.aijcompound.forced_quaternion_bs3 LABELS petsc ARGS --fail --expect "-mat_aijcompound_entry quaternion needs block size 4, the matrix has 3"
         -- ${T} -gen elast3d:n=3 -mat_aijcompound_entry quaternion)
pgk_test(petsc.aijcompound.forced_complex LABELS petsc ARGS --fail --expect "-mat_aijcompound_entry complex: not every stored 2x2 block has the complex form"
         -- ${T} -build complex -perturb -mat_aijcompound_entry complex)
# Factorizations are of the expansion (MATSEQAIJ's factor, handed the expanded matrix; factor.cpp):
# LU and Cholesky as many iterations as on AIJ; ILU(k) and ICC(k) too where the blocks are full
# (quaternion and vec3d27 here; elsewhere the expansion's whole blocks give ILU BAIJ's fill, see
# tutorial.ex2.aijcompound_ilu*). The orderings read MatGetRowIJ's expanded structure.
foreach(pc lu cholesky)
  pgk_test(petsc.aijcompound.${pc} LABELS petsc ARGS ${OK} --expect "same iteration count" -- ${T} -gen elast3d:n=4 -solve -ksp_type gmres -pc_type ${pc})
endforeach()
foreach(pc ilu icc)
  pgk_test(petsc.aijcompound.${pc} LABELS petsc ARGS ${OK} --expect "same iteration count" -- ${T} -build quaternion -solve -ksp_type gmres -pc_type ${pc})
  pgk_test(petsc.aijcompound.${pc}_levels_rcm LABELS petsc ARGS ${OK} --expect "same iteration count"
           -- ${T} -gen vec3d27:n=5 -solve -ksp_type gmres -pc_type ${pc} -pc_factor_levels 1 -pc_factor_mat_ordering_type rcm)
endforeach()
# The steps one by one with new values before each numeric step (the symbolic step's expansion
# serves the numeric step only at the same values).
foreach(pc lu ilu cholesky icc)
  pgk_test(petsc.aijcompound.factor_steps_${pc} LABELS petsc ARGS ${OK} --expect "${pc} steps with new values before each numeric step: the original's solutions"
           -- ${T} -gen vec3d27:n=4 -factor_steps ${pc}) # (full blocks: ILU(0) and ICC(0) of the expansion are AIJ's)
endforeach()
pgk_test(petsc.aijcompound.ilu_batchrcm LABELS petsc ARGS ${OK} --expect "same iteration count"
         -- ${T} -gen vec3d27:n=5 -solve -ksp_type gmres -pc_type ilu -pc_factor_mat_ordering_type batchrcm)
# MatSOR (PCSOR, PCEISENSTAT with MatMultDiagonalBlock), MatGetRow (PCKACZMARZ) on the cached expansion
foreach(pc sor eisenstat kaczmarz)
  pgk_test(petsc.aijcompound.${pc} LABELS petsc ARGS ${OK} --expect "same iteration count" -- ${T} -gen vec3d27:n=5 -solve -ksp_type gmres -pc_type ${pc})
endforeach()
pgk_test(petsc.aijcompound.mpi_sor LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" -- ${T} -gen elast3d:n=5 -solve -ksp_type gmres -pc_type sor ${PGK_GPU_OPTS})
# An explicit solver type: PETSc's prefix lookup must find this type's handler, not MATSEQAIJ's
# (a type name beginning with "seqaij" crashed here); ILUDT is not MATSEQAIJ's: a clear error.
pgk_test(petsc.aijcompound.ilu_solver_petsc LABELS petsc ARGS ${OK} --expect "same iteration count"
         -- ${T} -build quaternion -solve -ksp_type gmres -pc_type ilu -pc_factor_mat_solver_type petsc)
pgk_test(petsc.aijcompound.qr LABELS petsc ARGS --fail --expect "Mat seqcompoundaij has no QR factorization"
         -- ${T} -gen elast3d:n=4 -solve -solve_converted_only -ksp_type lsqr -pc_type qr)
# PCGAMG: graph and products of the expansion (product.cpp); the iterations of the AIJ original
pgk_test(petsc.aijcompound.gamg LABELS petsc ARGS ${OK} --expect "same iteration count" -- ${T} -gen elast3d:n=4 -solve -pc_type gamg)
pgk_test(petsc.aijcompound.gamg_quaternion_mpi LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" -- ${T} -gen quatsurf:n=8 -solve -ksp_type gmres -pc_type gamg ${PGK_GPU_OPTS})

# ---- MPI: MATMPIAIJCOMPOUND against the MPIAIJ original (every operation, relative 1e-13; the
# conversion back exactly) on 2 and 3 ranks, converted (from AIJ, BAIJ, in place) and assembled.
set(MPICHK ${CHK} --expect "to mpicompoundaij")
pgk_test(petsc.aijcompound.mpi LABELS petsc NP 2 ARGS ${MPICHK} --expect "converted elast3d:n=4 to mpicompoundaij"
         --expect "entry kind block \\(-mat_aijcompound_entry auto\\) on every rank, bs 3" --expect "\\[0\\] block rows 32, diagonal block [0-9]+ stored blocks, off-diagonal block [0-9]+ stored blocks in [0-9]+ ghost block columns"
         --expect "\\[1\\] block rows 32," -- ${T} -gen elast3d:n=4 -check -mat_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_np3 LABELS petsc NP 3 ARGS ${MPICHK} -- ${T} -gen elast3d:n=5 -check ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_baij LABELS petsc NP 2 ARGS ${MPICHK} -- ${T} -gen elast3d:n=4 -from baij -check ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_inplace LABELS petsc NP 3 ARGS ${MPICHK} -- ${T} -gen elast3d:n=4 -inplace -check ${PGK_GPU_OPTS})
# a format other than ::ascii_info views the expanded matrix
pgk_test(petsc.aijcompound.mpi_view_expanded LABELS petsc NP 2 ARGS ${OK} --expect "type: mpicompoundaij" --expect "row 0: +\\(0, 10\\.\\)"
         -- ${T} -gen elast3d:n=2 -mat_view ${PGK_GPU_OPTS})
# MATMPIAIJCOMPOUND asked for by name on one rank (from MATSEQAIJ, through MATMPIAIJ): no ghosts
pgk_test(petsc.aijcompound.mpi_type_one_rank LABELS petsc ARGS ${MPICHK} --expect "\\[0\\] block rows 64, diagonal block [0-9]+ stored blocks, off-diagonal block 0 stored blocks in 0 ghost block columns"
         -- ${T} -gen elast3d:n=4 -convert_type mpicompoundaij -check -mat_view ::ascii_info)
pgk_test(petsc.aijcompound.mpi_type_one_rank_quaternion LABELS petsc ARGS ${MPICHK} --expect "entry kind quaternion \\(-mat_aijcompound_entry auto\\) on every rank"
         -- ${T} -build quaternion -convert_type mpicompoundaij -check -mat_view ::ascii_info)
# From MATMPIAIJCUSPARSE with CUDA vectors (the host copy is read; lvec is VECSEQCUDA): not run on
# the CPU-only machine, where --gpu skips it
pgk_test(gpu.aijcompound.mpi_from_aijcusparse LABELS "gpu;petsc" NP 2 ARGS --gpu ${MPICHK} --expect "converted elast3d:n=4 to mpicompoundaij"
         -- ${T} -gen elast3d:n=4 -orig_mat_type aijcusparse -check -solve -ksp_type cg -pc_type bjacobi -sub_pc_type pbjacobi ${PGK_GPU_OPTS})
# MatBindToCPU on the converted matrix: bound, it computes on the host whole (blocks, ghost vector,
# MatCreateVecs' type), through a re-assembly too, and computes where it did before once unbound.
# On this machine "as made" is the host; on the device machine it is the device (the gpu tests).
set(BIND_HOST "bound to the CPU yes, diagonal block yes, vectors (mpi|seq), MatMult result on the device only no")
set(BIND_ANY "bound to the CPU (yes, diagonal block yes, vectors (mpi|seq), MatMult result on the device only no|no, diagonal block no, vectors (mpi|seq)cuda, MatMult result on the device only yes)")
pgk_test(petsc.aijcompound.mpi_bind_to_cpu LABELS petsc NP 2 ARGS ${OK} --expect "^bound: ${BIND_HOST}" --expect "^bound, reassembled: ${BIND_HOST}"
         --expect "^as made: ${BIND_ANY}" --expect "^unbound: ${BIND_ANY}" --expect "MatMult \\(unbound\\) +relative"
         -- ${T} -gen elast3d:n=4 -bind_check ${PGK_GPU_OPTS})
set(BIND_DEVICE "bound to the CPU no, diagonal block no, vectors (mpi|seq)cuda, MatMult result on the device only yes")
foreach(np 1 2)
  pgk_test(gpu.aijcompound.bind_to_cpu_np${np} LABELS "gpu;petsc" NP ${np} ARGS --gpu ${OK} --expect "converted elast3d:n=4 to (mpi|seq)compoundaij"
           --expect "^as made: ${BIND_DEVICE}" --expect "^bound: ${BIND_HOST}" --expect "^bound, reassembled: ${BIND_HOST}" --expect "^unbound: ${BIND_DEVICE}"
           --expect "MatMult \\(unbound\\) +relative" -- ${T} -gen elast3d:n=4 -bind_check ${PGK_GPU_OPTS})
endforeach()
# The same on one rank (MATSEQAIJCUSPARSE source, as examples/python/aijcompound.py on the GPU).
pgk_test(gpu.aijcompound.from_aijcusparse LABELS "gpu;petsc" ARGS --gpu ${CHK} --expect "converted elast3d:n=4 to seqcompoundaij"
         -- ${T} -gen elast3d:n=4 -orig_mat_type aijcusparse -check -solve -ksp_type cg -pc_type pbjacobi ${PGK_GPU_OPTS})
# -mat_type aijcompound on 2 ranks: MatSetFromOptions + MatMPIAIJSetPreallocation + MatSetValues into an
# inner MATMPIAIJ (with -build most values belong to another rank), converted at MAT_FINAL_ASSEMBLY;
# -check re-assembles after MatScale with values of other ranks' rows too.
pgk_test(petsc.aijcompound.mat_type_mpi LABELS petsc NP 2 ARGS ${MPICHK} --expect "assembled elast3d:n=4 to mpicompoundaij" -- ${T} -gen elast3d:n=4 -assembled -mat_type aijcompound -check ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mat_type_mpi_np3 LABELS petsc NP 3 ARGS ${MPICHK} --expect "assembled quaternion to mpicompoundaij" --expect "entry kind quaternion"
         -- ${T} -build quaternion -assembled -mat_type aijcompound -check -mat_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mat_type_mpi_bs1 LABELS petsc NP 2 ARGS ${OK} --expect "assembled lap3d7:n=3 to mpiaij" -- ${T} -gen lap3d7:n=3 -assembled -mat_type aijcompound -check ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_bs1 LABELS petsc NP 2 ARGS --fail --expect "needs a block size 2\\.\\.8 .* the matrix has block size 1" -- ${T} -gen lap3d7:n=4 ${PGK_GPU_OPTS})
foreach(kind complex quaternion)
  # auto: the form holds on every rank, so both ranks store it; ::ascii_info_detail shows each rank's
  # blocks (no -check here: its MatDiagonalScale makes real blocks, and the re-assemblies are viewed too)
  pgk_test(petsc.aijcompound.mpi_${kind} LABELS petsc NP 2 ARGS ${OK} --expect "entry kind ${kind} \\(-mat_aijcompound_entry auto\\) on every rank"
           --expect "\\[1\\] off-diagonal block:" --reject "entry kind block" --expect "same iteration count"
           -- ${T} -build ${kind} -solve -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-10 -mat_view ::ascii_info_detail ${PGK_GPU_OPTS})
  pgk_test(petsc.aijcompound.mpi_${kind}_check LABELS petsc NP 2 ARGS ${MPICHK} -- ${T} -build ${kind} -check ${PGK_GPU_OPTS})
  # one block of rank 0 breaks the form: rank 1, whose blocks all have it, stores real blocks too
  pgk_test(petsc.aijcompound.mpi_${kind}_perturbed LABELS petsc NP 2 ARGS ${MPICHK} --expect "entry kind block \\(-mat_aijcompound_entry auto\\) on every rank"
           --expect "\\[1\\] diagonal block:" --reject "entry kind ${kind}" -- ${T} -build ${kind} -perturb -check -mat_view ::ascii_info_detail ${PGK_GPU_OPTS})
  pgk_test(petsc.aijcompound.mpi_${kind}_forced_perturbed LABELS petsc NP 2 ARGS --fail --expect "-mat_aijcompound_entry ${kind}: not every stored .* \\(on some rank\\)"
           -- ${T} -build ${kind} -perturb -mat_aijcompound_entry ${kind} ${PGK_GPU_OPTS})
  # the last rank owns no rows, converted and assembled (assembled: it sets values of the other ranks' rows)
  pgk_test(petsc.aijcompound.mpi_${kind}_empty_rank LABELS petsc NP 2 ARGS ${MPICHK} --expect "\\[1\\] block rows 0, diagonal block 0 stored blocks"
           -- ${T} -build ${kind} -empty_last_rank -check -mat_view ::ascii_info ${PGK_GPU_OPTS})
  pgk_test(petsc.aijcompound.mat_type_mpi_${kind}_empty_rank LABELS petsc NP 3 ARGS ${MPICHK} --expect "\\[2\\] block rows 0,"
           -- ${T} -build ${kind} -empty_last_rank -assembled -mat_type aijcompound -check -mat_view ::ascii_info ${PGK_GPU_OPTS})
endforeach()
# KSP on 2 ranks: as many iterations as on MPIAIJ; PCBJACOBI's sub-solver gets the diagonal block,
# a seqcompoundaij (MatGetDiagonalBlock)
foreach(pc pbjacobi jacobi)
  pgk_test(petsc.aijcompound.mpi_cg_${pc} LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" --expect "KSP on mpicompoundaij: CONVERGED_RTOL"
           -- ${T} -gen elast3d:n=6 -solve -ksp_type cg -pc_type ${pc} -ksp_rtol 1e-8 ${PGK_GPU_OPTS})
endforeach()
pgk_test(petsc.aijcompound.mpi_cg_bjacobi LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" --expect "type: seqcompoundaij"
         -- ${T} -gen elast3d:n=6 -solve -ksp_type cg -pc_type bjacobi -sub_pc_type pbjacobi -ksp_rtol 1e-8 -ksp_view ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mat_type_mpi_cg LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" --expect "type: mpicompoundaij"
         -- ${T} -gen elast3d:n=6 -assembled -mat_type aijcompound -solve -ksp_type cg -pc_type bjacobi -sub_pc_type jacobi -ksp_rtol 1e-8 -mat_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_gmres_quaternion LABELS petsc NP 3 ARGS ${OK} --expect "same iteration count"
         -- ${T} -build quaternion -solve -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-10 ${PGK_GPU_OPTS})
# Factorizations: a clear error on the MPI matrix (PETSc's own have none in parallel either); PCBJACOBI's
# default ILU factors each rank's diagonal block (a seqcompoundaij): the iterations of MPIAIJ.
pgk_test(petsc.aijcompound.mpi_ilu LABELS petsc NP 2 ARGS --fail --expect "Mat mpicompoundaij has no ILU factorization"
         -- ${T} -gen elast3d:n=4 -solve -solve_converted_only -ksp_type gmres -pc_type ilu ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_bjacobi_ilu LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count"
         -- ${T} -build quaternion -solve -ksp_type gmres -pc_type bjacobi ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_bjacobi_icc LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count"
         -- ${T} -gen vec3d27:n=5 -solve -ksp_type cg -pc_type bjacobi -sub_pc_type icc ${PGK_GPU_OPTS})

# valgrind (VG, VGOK from tests/petsc/sys/tests.cmake): conversion, assembly, solve and an error path
# clean under memcheck, no PETSc object left behind (-malloc_dump).
pgk_test(valgrind.aijcompound.convert LABELS "valgrind;petsc" ARGS ${VGOK} ${CHK} -- ${VG} ${T} -build quaternion -check -inplace -malloc_debug -malloc_dump)
pgk_test(valgrind.aijcompound.assembled LABELS "valgrind;petsc" ARGS ${VGOK} ${CHK} --expect "same iteration count"
         -- ${VG} ${T} -gen elast3d:n=3 -assembled -mat_type aijcompound -check -solve -ksp_type cg -pc_type pbjacobi -malloc_debug -malloc_dump)
# on 2 ranks, the last with no rows: assembly with other ranks' values, the ghost scatter, every operation
set(VGMPI ${VG} --suppressions=${CMAKE_CURRENT_LIST_DIR}/pmix-valgrind.supp)
pgk_test(valgrind.aijcompound.mpi LABELS "valgrind;petsc" NP 2 ARGS ${VGOK} ${CHK} --expect "\\[1\\] block rows 0,"
         -- ${VGMPI} ${T} -build complex -assembled -mat_type aijcompound -empty_last_rank -check -mat_view ::ascii_info -malloc_debug -malloc_dump ${PGK_GPU_OPTS})
pgk_test(valgrind.aijcompound.factor_steps LABELS "valgrind;petsc" ARGS ${VGOK} ${OK} --expect "cholesky steps with new values"
         -- ${VG} ${T} -gen vec3d27:n=3 -factor_steps cholesky -malloc_debug -malloc_dump)
pgk_test(valgrind.aijcompound.error LABELS "valgrind;petsc" ARGS ${VGOK} --fail --expect "not every stored 4x4 block has the quaternion form"
         -- ${VG} ${T} -build quaternion -perturb -mat_aijcompound_entry quaternion -malloc_debug -malloc_dump)

# ---- What a FEM code or a driver program calls beside the products (test_aijcompound_user_ops):
# MatZeroRows (Dirichlet rows; x and b), MatNorm, MatCopy and MatLoad, each against the AIJ original
# (MatZeroRows: AIJ with MAT_KEEP_NONZERO_PATTERN, b and the converted-back matrix exactly equal).
set(U $<TARGET_FILE:test_aijcompound_user_ops>)
set(UB ${CMAKE_CURRENT_BINARY_DIR}/user_ops)
set(UOK ${OK} --expect "MatZeroRows \\(diag 1\\.\\): b and the matrix equal the original's" --expect "MatNorm 1, frobenius, infinity: equal to the original's"
        --expect "MatCopy into a duplicate, another pattern and MATAIJ: equal to the original")
pgk_test(petsc.aijcompound.user_ops LABELS petsc ARGS ${UOK} --expect "MatLoad: seqcompoundaij, block size 3"
         -- ${U} -gen elast3d:n=4 -zero_rows -norm -copy -load ${UB}_elast3d.bin -load_mat_type aijcompound)
# 2 ranks: most rows named by the rank that does not own them; MatLoad gives the MPI type
pgk_test(petsc.aijcompound.user_ops_mpi LABELS petsc NP 2 ARGS ${UOK} --expect "MatLoad: mpicompoundaij, block size 3"
         -- ${U} -gen elast3d:n=4 -zero_rows -norm -copy -load ${UB}_elast3d_mpi.bin -load_mat_type aijcompound ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.user_ops_diag0 LABELS petsc ARGS ${OK} --expect "MatZeroRows \\(diag 0\\.\\): b and the matrix equal" -- ${U} -gen elast3d:n=3 -zero_rows -diag 0)
# Whole block rows keep quaternion / complex entries; part of a block row stores real blocks (on every rank)
pgk_test(petsc.aijcompound.user_ops_quaternion LABELS petsc NP 3 ARGS ${UOK} --expect "entry kind quaternion \\(-mat_aijcompound_entry auto\\) on every rank"
         -- ${U} -gen quatsurf:n=6 -zero_rows -norm -copy -final_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.user_ops_quaternion_partial LABELS petsc ARGS ${OK} --expect "MatZeroRows \\(diag 1\\., part of a block row\\)" --expect "entry kind block \\(-mat_aijcompound_entry auto\\), bs 4"
         -- ${U} -gen quatsurf:n=6 -zero_rows -partial -final_view ::ascii_info)
pgk_test(petsc.aijcompound.user_ops_complex_partial_mpi LABELS petsc NP 2 ARGS ${OK} --expect "MatZeroRows \\(diag 1\\., part of a block row\\)" --expect "entry kind block \\(-mat_aijcompound_entry auto\\) on every rank, bs 2"
         -- ${U} -gen helmholtz2dc:n=6 -zero_rows -partial -final_view ::ascii_info ${PGK_GPU_OPTS})
# MatLoad: the entry kind from the options of the loaded matrix's prefix; a file of block size 1 is an error
pgk_test(petsc.aijcompound.user_ops_load_complex LABELS petsc ARGS ${OK} --expect "MatLoad: seqcompoundaij, block size 2" --expect "entry kind complex \\(-mat_aijcompound_entry auto\\)"
         -- ${U} -gen helmholtz2dc:n=6 -load ${UB}_complex.bin -load_mat_type aijcompound -load_mat_view ::ascii_info)
pgk_test(petsc.aijcompound.user_ops_load_as_blocks LABELS petsc ARGS ${OK} --expect "entry kind block \\(-mat_aijcompound_entry block\\)"
         -- ${U} -gen helmholtz2dc:n=6 -load ${UB}_blocks.bin -load_mat_type aijcompound -load_mat_aijcompound_entry block -load_mat_view ::ascii_info)
pgk_test(petsc.aijcompound.user_ops_load_bs1 LABELS petsc ARGS --fail --expect "Mat aijcompound needs a block size 2\\.\\.8 .* the matrix has block size 1"
         -- ${U} -gen lap3d7:n=4 -load ${UB}_bs1.bin -load_mat_type aijcompound)
# (-viewer_binary_skip_info: the .info file beside the binary file would set the block size 1 again)
pgk_test(petsc.aijcompound.user_ops_load_block_size_option LABELS petsc ARGS ${OK} --expect "MatLoad: seqcompoundaij, block size 2"
         -- ${U} -gen lap3d7:n=4 -load ${UB}_bs1_as2.bin -load_mat_type aijcompound -matload_block_size 2 -viewer_binary_skip_info)
# MatZeroRowsColumns (symmetric Dirichlet elimination, b -= A(:, rows) x): 1 rank equal, 2 ranks b within 1e-14
set(ZRC --expect "MatZeroRowsColumns \\(diag 1\\.[^)]*\\): b and the matrix equal the original's")
pgk_test(petsc.aijcompound.user_ops_zero_rows_columns LABELS petsc ARGS ${OK} ${ZRC} -- ${U} -gen elast3d:n=4 -zero_rows_columns)
pgk_test(petsc.aijcompound.user_ops_zero_rows_columns_mpi LABELS petsc NP 2 ARGS ${OK} ${ZRC} --expect "entry kind complex \\(-mat_aijcompound_entry auto\\) on every rank"
         -- ${U} -gen helmholtz2dc:n=6 -zero_rows_columns -final_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.user_ops_zero_rows_columns_partial_mpi LABELS petsc NP 3 ARGS ${OK} ${ZRC} --expect "entry kind block \\(-mat_aijcompound_entry auto\\) on every rank, bs 4"
         -- ${U} -gen quatsurf:n=6 -zero_rows_columns -partial -final_view ::ascii_info ${PGK_GPU_OPTS})
# MatCreateSubMatrix: whole blocks kept give the compound type (entry kind kept), part of a block MATAIJ
pgk_test(petsc.aijcompound.user_ops_submatrix LABELS petsc ARGS ${OK} --expect "MatCreateSubMatrix: seqcompoundaij" --expect "MatCreateSubMatrix \\(initial, reused\\): equal"
         --expect "entry kind quaternion" -- ${U} -gen quatsurf:n=6 -submatrix -final_view ::ascii_info)
pgk_test(petsc.aijcompound.user_ops_submatrix_mpi LABELS petsc NP 3 ARGS ${OK} --expect "MatCreateSubMatrix: mpicompoundaij" --expect "MatCreateSubMatrix \\(initial, reused\\): equal"
         -- ${U} -gen elast3d:n=4 -submatrix ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.user_ops_submatrix_partial_mpi LABELS petsc NP 2 ARGS ${OK} --expect "MatCreateSubMatrix: mpiaij" --expect "MatCreateSubMatrix \\(initial, reused\\): equal"
         -- ${U} -gen elast3d:n=4 -submatrix -partial ${PGK_GPU_OPTS})
# MatIncreaseOverlap + MatCreateSubMatrices (PCASM's calls), initial and reused
pgk_test(petsc.aijcompound.user_ops_submatrices LABELS petsc ARGS ${OK} --expect "MatIncreaseOverlap, MatCreateSubMatrices \\(initial, reused\\): equal"
         -- ${U} -gen elast3d:n=5 -submatrices)
pgk_test(petsc.aijcompound.user_ops_submatrices_mpi LABELS petsc NP 2 ARGS ${OK} --expect "MatIncreaseOverlap, MatCreateSubMatrices \\(initial, reused\\): equal"
         -- ${U} -gen helmholtz2dc:n=8 -submatrices ${PGK_GPU_OPTS})
# MatGetOrdering (MatGetRowIJ gives the expansion's structure): every ordering equal to the expansion's
set(ORD --expect "MatGetOrdering natural, rcm, nd, qmd, batchrcm, rabbitpp: equal to the expansion's")
pgk_test(petsc.aijcompound.user_ops_orderings LABELS petsc ARGS ${OK} ${ORD} -- ${U} -gen elast3d:n=4 -orderings)
pgk_test(petsc.aijcompound.user_ops_orderings_mpi LABELS petsc NP 2 ARGS ${OK} ${ORD} -- ${U} -gen quatsurf:n=6 -orderings ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.user_ops_rows LABELS petsc ARGS ${OK} --expect "MatGetRow, MatGetValues: equal to the original's" -- ${U} -gen elast3d:n=4 -rows)
pgk_test(petsc.aijcompound.user_ops_rows_mpi LABELS petsc NP 3 ARGS ${OK} --expect "MatGetRow, MatGetValues: equal to the original's" -- ${U} -gen quatsurf:n=6 -rows ${PGK_GPU_OPTS})
pgk_test(petsc.aijcompound.mpi_kaczmarz LABELS petsc NP 2 ARGS ${OK} --expect "same iteration count" -- ${T} -gen vec3d27:n=5 -solve -ksp_type gmres -pc_type kaczmarz ${PGK_GPU_OPTS})
# MatProduct with a compound operand (MATAIJ's product of the expansions; PCGAMG's A P and P^T A P):
# initial, MatProductNumeric after the values changed (the expansion is refreshed), MAT_REUSE_MATRIX
set(PRODOK ${OK} --expect "MatMatMult, MatPtAP, MatTransposeMatMult .initial, numeric, reused.: (seq|mpi)aij, equal to the original's")
pgk_test(petsc.aijcompound.user_ops_products LABELS petsc ARGS ${PRODOK} -- ${U} -gen elast3d:n=4 -products)
pgk_test(petsc.aijcompound.user_ops_products_complex LABELS petsc ARGS ${PRODOK} -- ${U} -gen helmholtz2dc:n=10 -products)
pgk_test(petsc.aijcompound.user_ops_products_mpi LABELS petsc NP 3 ARGS ${PRODOK} -- ${U} -gen quatsurf:n=6 -products ${PGK_GPU_OPTS})
# MatTranspose (of this type again; initial and reused) and MatIsSymmetric / MatIsHermitian, against the original
set(TRANSOK ${OK} --expect "MatTranspose .initial, reused.: (seq|mpi)compoundaij, equal to the original's")
pgk_test(petsc.aijcompound.user_ops_transpose LABELS petsc ARGS ${TRANSOK} --expect "MatIsSymmetric true" -- ${U} -gen elast3d:n=4 -transpose)
pgk_test(petsc.aijcompound.user_ops_transpose_complex LABELS petsc ARGS ${TRANSOK} --expect "MatIsSymmetric false" -- ${U} -gen helmholtz2dc:n=10 -transpose)
pgk_test(petsc.aijcompound.user_ops_transpose_mpi LABELS petsc NP 3 ARGS ${TRANSOK} -- ${U} -gen quatsurf:n=6 -transpose ${PGK_GPU_OPTS})
pgk_test(valgrind.aijcompound.sor_kaczmarz LABELS "valgrind;petsc" ARGS ${VGOK} ${OK} --expect "same iteration count"
         -- ${VG} ${T} -gen vec3d27:n=3 -solve -ksp_type gmres -pc_type composite -pc_composite_pcs sor,kaczmarz -malloc_debug -malloc_dump)
pgk_test(valgrind.aijcompound.user_ops_mpi LABELS "valgrind;petsc" NP 2 ARGS ${VGOK} ${UOK} --expect "MatIncreaseOverlap, MatCreateSubMatrices"
         -- ${VGMPI} ${U} -gen quatsurf:n=4 -zero_rows -zero_rows_columns -norm -copy -submatrix -submatrices -rows -products -transpose -malloc_debug -malloc_dump ${PGK_GPU_OPTS})
pgk_test(valgrind.aijcompound.user_ops LABELS "valgrind;petsc" ARGS ${VGOK} ${UOK}
         -- ${VG} ${U} -gen quatsurf:n=4 -zero_rows -zero_rows_columns -norm -copy -submatrix -orderings -rows -products -transpose -load ${UB}_valgrind.bin -load_mat_type aijcompound -malloc_debug -malloc_dump)
# On the device: the converted matrix from MATAIJCUSPARSE with CUDA vectors, so the values the host
# operations change must reach the device copy (uploaded at its next use) and the products agree.
pgk_test(gpu.aijcompound.user_ops LABELS "gpu;petsc" ARGS --gpu ${UOK}
         -- ${U} -gen elast3d:n=4 -orig_mat_type aijcusparse -zero_rows -norm -copy -products -transpose -final_view ::ascii_info ${PGK_GPU_OPTS})
pgk_test(gpu.aijcompound.user_ops_quaternion_partial_mpi LABELS "gpu;petsc" NP 2 ARGS --gpu ${OK} --expect "entry kind block \\(-mat_aijcompound_entry auto\\) on every rank, bs 4"
         -- ${U} -gen quatsurf:n=6 -orig_mat_type aijcusparse -zero_rows -partial -norm -copy -final_view ::ascii_info ${PGK_GPU_OPTS})
