#!/usr/bin/env bash
# SNES ex19 (the trilf tests' problem) on the device, 1 rank, under GMRES variants: per Newton step's
# iterations and GMRES's "far from" restart check (-info :ksp). Run on a GPU node inside the set-up
# bundle: bench/diag/ex19_device_gmres_probe.sh BUILD_DIR OUT_DIR
set -u
b=${1:?build dir}; out=${2:?out dir}; mkdir -p "$out"
ex=$b/tests/tutorial_snes_ex19 lib=$b/petsc_plugin/libpetscgpukit.so
base=(-dll_append "$lib" -da_refine 4 -ksp_type gmres -ksp_rtol 1e-8 -snes_converged_reason -ksp_converged_reason
      -lidvelocity 100 -grashof 1e4 -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0 -info :ksp)
probe() { # name, options...
  local name=$1; shift
  local t0; t0=$(date +%s)
  timeout 240 "$ex" "${base[@]}" "$@" >"$out/$name.log" 2>&1
  echo "$name: $(sed -n -e 's/.*Linear solve converged due to [A-Z_]* iterations \([0-9]*\).*/\1/p' \
    -e 's/.*Linear solve did not converge due to \([A-Z_]*\) iterations \([0-9]*\).*/X\2/p' "$out/$name.log" | tr '\n' ' ')| far-from lines $(grep -c 'far from' "$out/$name.log") | $(($(date +%s) - t0)) s" >>"$out/summary.txt"
}
for pc in jacobi trilf; do
  probe ${pc}_r300_cgs2_a -pc_type $pc -ksp_gmres_restart 300 -ksp_gmres_cgs_refinement_type refine_always
  probe ${pc}_r300_cgs2_b -pc_type $pc -ksp_gmres_restart 300 -ksp_gmres_cgs_refinement_type refine_always
  probe ${pc}_r300_mgs -pc_type $pc -ksp_gmres_restart 300 -ksp_gmres_modifiedgramschmidt
  probe ${pc}_r30_a -pc_type $pc
  probe ${pc}_r30_b -pc_type $pc
done
