// Mat aijcompound: what device.cpp, tune.cpp and coo.cpp share about the device copy.
#pragma once

#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"
#include "petsc_plugin/sys/device.hpp"
#include "src/aijcompound/tune.hpp"

#include <string>

#if defined(PGK_HAVE_CUDA)
#  include "kernels/aijcompound/layouts.hpp"
#  include "kernels/aijcompound/ops.hpp"
#  include "kernels/common/event_timer.hpp"
#  include "kernels/common/kernels.hpp"
#  include "kernels/common/side_stream.hpp"

namespace kc = pgk::cuda::aijcompound;

struct MatAIJCompoundDevice {
  kc::DeviceCompoundCsr master; // the values (compound CSR AoS), current when offloadmask is GPU/BOTH

  // The product layout: chosen once per pattern (tune.cpp), re-packed from master when stale.
  bool             chosen       = false;
  bool             force_search = false; // MatAIJCompoundTune(): search even where the cache has a winner
  ac::Variant      variant;
  kc::LaunchShape  shape;
  std::string      source         = "default"; // default, forced, tuned, cache
  double           gbs            = 0;         // measured GB/s of the variant (0: not measured)
  int              tuned_products = 0;         // products the last search ran
  kc::DevicePacked packed;
  bool             packed_stale = true;

  // The explicit transpose (MatMultTranspose): pattern from the host once, values on the device.
  kc::DeviceCompoundCsr        at;
  pgk::cuda::DeviceBuffer<int> at_source;
  bool                         at_built = false, at_stale = true;

  // MatAIJCompoundDeviceMultForked's stream (MPI: the local product beside the halo exchange).
  pgk::cuda::SideStream side;
};

#else
struct MatAIJCompoundDevice {
  int unused = 0;
};
#endif

// The device copy current (created at the first use; host values uploaded when newer).
PetscErrorCode MatAIJCompoundDeviceEnsure(Mat A, void *stream);
// One logged download of the values into the host compound CSR; the mask becomes BOTH.
PetscErrorCode MatAIJCompoundDeviceDownload(Mat A);
// The device values changed (on_device: by a device operation, so the mask becomes GPU): the
// packed layout and the transpose re-pack at their next use.
void MatAIJCompoundDeviceValuesChanged(Mat A, PetscBool on_device);
// The product layout chosen (options, cache or search: tune.cpp) and packed with current values.
PetscErrorCode MatAIJCompoundDevicePrepareProduct(Mat A, void *stream);
