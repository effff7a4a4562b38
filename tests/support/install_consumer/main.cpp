// Links the installed petscgpukit (tests/check_install.sh) and prints its view.
#include <petscgpukit.h>
int main(int argc, char **argv) {
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscGpuKitInitializePackage());
  PetscCall(PetscGpuKitView(PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscFinalize());
  return 0;
}
