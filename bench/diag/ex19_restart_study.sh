#!/usr/bin/env bash
# SNES ex19's per-Newton-step GMRES iterations, trilf against jacobi, under three Gram-Schmidt
# variants that differ only in rounding: whether a per-step comparison at a given restart judges the
# preconditioner or rounding (bench/results/ex19_restart_study_cpu.txt).
#   bench/diag/ex19_restart_study.sh BUILD_DIR LABEL [extra ex19 options, e.g. -ksp_gmres_restart 300]
# NPS (default "1 2"): the rank counts. One line per run: the steps' counts (X: not converged).
set -u
build=${1:?usage: ex19_restart_study.sh BUILD_DIR LABEL [options]}; label=${2:?label}; shift 2
ex=$build/tests/tutorial_snes_ex19 lib=$build/petsc_plugin/libpetscgpukit.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for np in ${NPS:-1 2}; do
  for v in "cgs" "mgs:-ksp_gmres_modifiedgramschmidt" "refine:-ksp_gmres_cgs_refinement_type refine_always"; do
    vname=${v%%:*} vopt=""
    [[ $v == *:* ]] && vopt=${v#*:}
    for pc in trilf jacobi; do
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086 # vopt holds an option and its value
      out=$(mpiexec -n "$np" "$ex" -dll_append "$lib" -da_refine 4 -ksp_type gmres -ksp_rtol 1e-8 -snes_converged_reason \
        -ksp_converged_reason -lidvelocity 100 -grashof 1e4 -pc_type $pc $vopt "$@" 2>&1)
      t1=$(date +%s.%N)
      steps=$(printf '%s\n' "$out" | sed -n -e 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' \
        -e 's/.*Linear solve did not converge due to \([A-Z_]*\).*/X/p' | tr '\n' ' ')
      echo "$label np=$np $vname $pc: $steps | $(printf '%s\n' "$out" | grep -o 'Nonlinear solve [a-z ]*' | head -1) $(echo "$t1 - $t0" | bc) s"
    done
  done
done
