#!/bin/bash
# PCGAMG on a device MATMPIAIJCOMPOUND (converted from the generator's AIJ) against the generator's
# AIJ as MATMPIAIJCUSPARSE, 2 ranks, alternated; on a GPU node after run-gpu-suite-part setup.
#   bench/diag/gamg_compound_ab.sh LABEL RUNS
# Prints -log_view's KSPSolve, PCSetUp, MatMult, PCApply and the transfer events per run.
set -u
label=${1:?label} runs=${2:-10}
cd /tmp/r/petscgpukit-bundle || exit 3
export LD_LIBRARY_PATH=$PWD/syslibs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
one() {
  timeout 120 mpiexec -n 2 build/tests/test_aijcompound -gen elast3d:n=40 -solve -solve_converted_only -ksp_type cg -pc_type gamg \
    -ksp_rtol 1e-8 -log_view -use_gpu_aware_mpi 0 "$@" 2>&1 |
    grep -E "^KSP on|^MatMult |^PCApply|^PCSetUp |^KSPSolve|^VecCUDACopy|^MatCUSPARSCopy|^MatPtAP |^MatConvert|rror"
}
for i in $(seq 1 "$runs"); do
  echo "## $label compound run $i"; one
  echo "## $label cusparse run $i"; one -assembled -mat_type aijcusparse
done
