# Mat aijcompound (issue 10), host path: MatConvert from AIJ/BAIJ, every operation against the AIJ
# original (relative 1e-13), KSP iteration counts, the view, bad input, MPI (a clear error).
set(T $<TARGET_FILE:test_aijcompound>)
set(OK --expect "all checks passed")
set(CHK ${OK} --expect "MatMultTransposeAdd +relative" --expect "MatInvertBlockDiagonal +relative" --expect "MatConvert back to AIJ +\\|\\|B - A\\|\\|_F = 0" --expect "MatDuplicate, MatAXPY: ok" --expect "reassembled: MatMultTransposeAdd")

# Operations against the original: elast3d (bs 3, blocks), complex (bs 2), quaternion (bs 4);
# from AIJ and from BAIJ, and in place.
pgk_test(petsc.aijcompound.elast3d LABELS petsc ARGS ${CHK} --expect "converted elast3d:n=5 to seqcompoundaij" -- ${T} -gen elast3d:n=5 -check)
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
pgk_test(petsc.aijcompound.mat_type_bs1 LABELS petsc ARGS --fail --expect "Mat aijcompound needs a block size 2\\.\\.8" -- ${T} -gen lap3d7:n=3 -assembled -mat_type aijcompound)
pgk_test(petsc.aijcompound.mat_type_mpi LABELS petsc NP 2 ARGS --fail --expect "Mat aijcompound: MPI not yet supported" -- ${T} -gen elast3d:n=4 -assembled -mat_type aijcompound)

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
foreach(pc ilu lu icc)
  string(TOUPPER ${pc} PC)
  pgk_test(petsc.aijcompound.${pc} LABELS petsc ARGS --fail --expect "Mat seqcompoundaij has no ${PC} factorization .*MatConvert\\(\\) to MATSEQAIJ"
           -- ${T} -gen elast3d:n=4 -solve -ksp_type gmres -pc_type ${pc})
endforeach()
# An explicit solver type: PETSc's prefix lookup must find this type's handler, not MATSEQAIJ's
# (a type name beginning with "seqaij" crashed here).
pgk_test(petsc.aijcompound.ilu_solver_petsc LABELS petsc ARGS --fail --expect "Mat seqcompoundaij has no ILU factorization"
         -- ${T} -gen elast3d:n=4 -solve -ksp_type gmres -pc_type ilu -pc_factor_mat_solver_type petsc)
pgk_test(petsc.aijcompound.gamg LABELS petsc ARGS --fail --expect "No method creategraph for Mat of type seqcompoundaij" -- ${T} -gen elast3d:n=4 -solve -pc_type gamg)

# MPI: not yet supported, a clear error on every rank count above one.
pgk_test(petsc.aijcompound.mpi LABELS petsc NP 2 ARGS --fail --expect "Mat aijcompound: MPI not yet supported" -- ${T} -gen elast3d:n=4 -check)

# valgrind (VG, VGOK from tests/petsc/sys/tests.cmake): conversion, assembly, solve and an error path
# clean under memcheck, no PETSc object left behind (-malloc_dump).
pgk_test(valgrind.aijcompound.convert LABELS "valgrind;petsc" ARGS ${VGOK} ${CHK} -- ${VG} ${T} -build quaternion -check -inplace -malloc_debug -malloc_dump)
pgk_test(valgrind.aijcompound.assembled LABELS "valgrind;petsc" ARGS ${VGOK} ${CHK} --expect "same iteration count"
         -- ${VG} ${T} -gen elast3d:n=3 -assembled -mat_type aijcompound -check -solve -ksp_type cg -pc_type pbjacobi -malloc_debug -malloc_dump)
pgk_test(valgrind.aijcompound.error LABELS "valgrind;petsc" ARGS ${VGOK} --fail --expect "not every stored 4x4 block has the quaternion form"
         -- ${VG} ${T} -build quaternion -perturb -mat_aijcompound_entry quaternion -malloc_debug -malloc_dump)
