// The registration table (registry.hpp).
#include "petsc_plugin/sys/registry.hpp"

#include <string>

namespace {

struct TypeEntry {
  const char *petsc_class; // MatOrdering, PC, KSP, Mat
  const char *name;        // the type name PETSc's options take
  PetscErrorCode (*register_type)(void);
  const char *description;
};

const TypeEntry kTypes[] = {
    {"MatOrdering", MATORDERINGBATCHRCM, PgkRegisterOrderingBatchRCM, "Reverse Cuthill-McKee where the matrix lives (serial, all cores or GPU; one permutation)"},
    {"MatOrdering", MATORDERINGRABBITPP, PgkRegisterOrderingRabbitpp, "Rabbit Order communities + RABBIT++ regrouping (and \"rabbit\" without it), for SpMV locality; serial, all cores or GPU, one permutation"},
    {"PC", PCREORDER, PgkRegisterPCReorder, "solve with the operator permuted by any MatOrdering, on the device for device matrices"},
    {"PC", PCTRILF, PgkRegisterPCTrilf, "linear-forest tridiagonal preconditioner (Klein & Strzodka), host or device"},
    {"KSP", KSPCARPCG, PgkRegisterKSPCarpcg, "CARP-CG: CG on the double Kaczmarz sweep (sequential, multicolor, carp, cimmino), host, MPI"},
    {"Mat", MATAIJCOMPOUND, PgkRegisterMatAIJCompound, "compound entries (k x k blocks, complex, quaternion) by MatConvert, MatSetValues or COO; device layouts with tuning, host path; one rank or MPI"},
};

} // namespace

PetscErrorCode PgkRegisterTypes(void)
{
  PetscFunctionBegin;
  for (const TypeEntry &t : kTypes) PetscCall(t.register_type());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PgkViewRegisteredTypes(PetscViewer viewer)
{
  PetscFunctionBegin;
  std::string names;
  for (const TypeEntry &t : kTypes) names += std::string(names.empty() ? "" : ", ") + t.petsc_class + " " + t.name;
  PetscCall(PetscViewerASCIIPrintf(viewer, "registered types: %s\n", names.c_str()));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  for (const TypeEntry &t : kTypes) PetscCall(PetscViewerASCIIPrintf(viewer, "%s %s: %s\n", t.petsc_class, t.name, t.description));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
