#!/usr/bin/env bash
# SNES ex19's per-Newton-step GMRES iterations, trilf against jacobi, under GMRES variants: whether a
# per-step comparison at a given restart judges the preconditioner or rounding
# (bench/results/ex19_restart_study_cpu.txt, bench/results/ex19_device_gmres_probe_h100.txt).
#   bench/diag/ex19_restart_study.sh BUILD_DIR LABEL [extra ex19 options, e.g. -ksp_gmres_restart 300]
# NPS (default "1 2"): the rank counts. VARIANTS: "name:options" entries (default: the three Gram-Schmidt
# variants that differ only in rounding). REPEAT (default 1): runs of each. TIMEOUT (s, default 600).
# One line per run: the steps' counts (X<n>: not converged after n iterations), the lines of GMRES's
# restart check ("far from", printed under -info :ksp), the wall seconds. The device probe was
#   NPS=1 REPEAT=2 VARIANTS="r300_cgs2:-ksp_gmres_restart 300 -ksp_gmres_cgs_refinement_type refine_always
#   |r300_mgs:-ksp_gmres_restart 300 -ksp_gmres_modifiedgramschmidt|r30:" ex19_restart_study.sh BUILD probe
#   -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0 -info :ksp
set -u
build=${1:?usage: ex19_restart_study.sh BUILD_DIR LABEL [options]}; label=${2:?label}; shift 2
ex=$build/tests/tutorial_snes_ex19 lib=$build/petsc_plugin/libpetscgpukit.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
IFS='|' read -r -a variants <<<"${VARIANTS:-cgs:|mgs:-ksp_gmres_modifiedgramschmidt|refine:-ksp_gmres_cgs_refinement_type refine_always}"
for np in ${NPS:-1 2}; do
  for v in "${variants[@]}"; do
    vname=${v%%:*} vopt=${v#*:}
    for pc in trilf jacobi; do
      for ((run = 1; run <= ${REPEAT:-1}; run++)); do
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086 # vopt holds options and their values
        out=$(timeout "${TIMEOUT:-600}" mpiexec -n "$np" "$ex" -dll_append "$lib" -da_refine 4 -ksp_type gmres -ksp_rtol 1e-8 \
          -snes_converged_reason -ksp_converged_reason -lidvelocity 100 -grashof 1e4 -pc_type $pc $vopt "$@" 2>&1)
        t1=$(date +%s.%N)
        steps=$(printf '%s\n' "$out" | sed -n -e 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' \
          -e 's/.*Linear solve did not converge due to [A-Z_]* iterations \([0-9]*\).*/X\1/p' | tr '\n' ' ')
        echo "$label np=$np $vname $pc run $run: $steps | $(printf '%s\n' "$out" | grep -o 'Nonlinear solve [a-z ]*' | head -1)" \
          "| far-from lines $(printf '%s\n' "$out" | grep -c 'far from') | $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
      done
    done
  done
done
