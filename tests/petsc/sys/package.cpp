static const char help[] = "Checks petscgpukit's package initialization, version and view.\n";

#include <petscgpukit.h>

int main(int argc, char **argv)
{
  PetscInt    major, minor, patch;
  const char *commit;
  PetscBool   has_cuda;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitInitializePackage()); // idempotent
  PetscCall(PetscGpuKitGetVersion(&major, &minor, &patch, &commit, &has_cuda));
  PetscCheck(major == PETSCGPUKIT_VERSION_MAJOR && minor == PETSCGPUKIT_VERSION_MINOR && patch == PETSCGPUKIT_VERSION_PATCH, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "version mismatch");
  PetscCheck(PETSCGPUKIT_CLASSID != 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "class id not registered");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "version %" PetscInt_FMT ".%" PetscInt_FMT ".%" PetscInt_FMT " commit %s cuda %s\n", major, minor, patch, commit, has_cuda ? "yes" : "no"));
  PetscCall(PetscGpuKitView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "generators:\n"));
  PetscCall(PetscGpuKitGeneratorList(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
