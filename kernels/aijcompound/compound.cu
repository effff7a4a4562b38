// The device compound CSR (upload, download of the values), the device `auto` entry detection
// (has_form), the compression of a block matrix to complex/quaternion entries, and the COO value
// assembly: the device side of src/aijcompound/compound.cpp and coo.cpp.
//
// diagpos is computed on the host at upload, from the pattern the caller already holds (one
// binary search per block row), and uploaded with it; the same pass records the first block row
// without a diagonal block (missing_diagonal), which shift checks without a copy.
#include "kernels/aijcompound/entry.cuh"
#include "kernels/aijcompound/ops.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/launch.cuh"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace pgk::cuda::aijcompound {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 1 << 16;

int grid(Offset items) { return grid_for(items, kThreads, kMaxBlocks); }

std::vector<int> to_int(const std::vector<Index> &v) { return std::vector<int>(v.begin(), v.end()); }

// Sets kind, sizes and the three index arrays (3 uploads; none for an empty array).
void upload_structure(DeviceCompoundCsr &d, const ac::CompoundCsr &a, void *stream) {
  ac::validate(a);
  if (a.nnzb() > INT_MAX || a.nbcols > INT_MAX)
    throw std::invalid_argument("aijcompound: the device compound CSR has 32-bit indices; " + std::to_string(a.nnzb()) +
                                " blocks in " + std::to_string(a.nbcols) + " block columns do not fit");
  d.kind = a.kind;
  d.bs = a.bs;
  d.nbrows = a.nbrows;
  d.nbcols = a.nbcols;
  d.nnzb = a.nnzb();
  std::vector<int> diag(static_cast<std::size_t>(a.nbrows), -1);
  d.missing_diagonal = -1;
  for (Index bi = 0; bi < std::min(a.nbrows, a.nbcols); ++bi) {
    const auto first = a.colidx.begin() + a.rowptr[bi], last = a.colidx.begin() + a.rowptr[bi + 1];
    const auto it = std::lower_bound(first, last, bi);
    if (it != last && *it == bi) diag[bi] = static_cast<int>(it - a.colidx.begin());
    else if (d.missing_diagonal < 0) d.missing_diagonal = bi;
  }
  const std::vector<int> rowptr = to_int(a.rowptr), colidx = to_int(a.colidx);
  d.rowptr.upload(rowptr.data(), rowptr.size(), stream);
  d.colidx.upload(colidx.data(), colidx.size(), stream);
  d.diagpos.upload(diag.data(), diag.size(), stream);
}

// has_form: thread per stored block; a block whose first column does not reproduce it through
// the target's expanded form (== on doubles, as ac::detect_*) raises the flag.
__global__ void has_form_kernel(const double *__restrict__ values, Offset nnzb, ac::EntryKind target, int bs,
                                int *flag) {
  for (Offset e = thread_index(); e < nnzb; e += grid_stride()) {
    const double *dense = values + e * bs * bs;
    bool ok = true;
    for (int j = 0; j < bs && ok; ++j)
      for (int i = 0; i < bs && ok; ++i) ok = expanded_value(target, bs, dense, 1, i, j) == dense[j * bs + i];
    if (!ok) atomicExch(flag, 1);
  }
}

// compress: out component c of entry e = component c (first column, c < bs) of the dense block.
__global__ void compress_kernel(const double *__restrict__ in, Offset nout, int es, int bs, double *__restrict__ out) {
  for (Offset t = thread_index(); t < nout; t += grid_stride()) out[t] = in[(t / es) * bs * bs + t % es];
}

__global__ void coo_kernel(const Index *__restrict__ jmap, const Index *__restrict__ perm, const double *__restrict__ v,
                           Offset nvalues, bool add, double *__restrict__ values) {
  for (Offset t = thread_index(); t < nvalues; t += grid_stride()) {
    const Index lo = jmap[t], hi = jmap[t + 1];
    if (lo == hi) { // no contribution: kept bit for bit (add) or +0.0 (insert)
      if (!add) values[t] = 0.0;
      continue;
    }
    double sum = 0.0;
    for (Index p = lo; p < hi; ++p) sum = __dadd_rn(sum, v[perm[p]]);
    values[t] = __dadd_rn(add ? values[t] : 0.0, sum);
  }
}

template <class T> void copy_device(DeviceBuffer<T> &dst, const DeviceBuffer<T> &src, void *stream) {
  dst.allocate(src.size());
  if (src.size() > 0)
    PGK_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(T), cudaMemcpyDeviceToDevice, as_stream(stream)));
}

void check_form_target(const DeviceCompoundCsr &a, ac::EntryKind target, const char *what) {
  const int bs = target == ac::EntryKind::complex ? 2 : target == ac::EntryKind::quaternion ? 4 : 0;
  if (bs == 0 || a.kind != ac::EntryKind::block || a.bs != bs)
    throw std::invalid_argument(std::string("aijcompound: ") + what + " needs a block matrix with bs 2 (complex) or " +
                                "4 (quaternion) and that target; got " + ac::kind_name(a.kind) + " bs " +
                                std::to_string(a.bs) + " to " + ac::kind_name(target));
}

} // namespace

void DeviceCompoundCsr::upload(const ac::CompoundCsr &a, void *stream) {
  upload_structure(*this, a, stream);
  values.upload(a.values.data(), a.values.size(), stream);
}

void DeviceCompoundCsr::upload_pattern(const ac::CompoundCsr &a, void *stream) {
  upload_structure(*this, a, stream);
  values.allocate(static_cast<std::size_t>(nvalues()));
  if (nvalues() > 0)
    PGK_CUDA_CHECK(
        cudaMemsetAsync(values.data(), 0, static_cast<std::size_t>(nvalues()) * sizeof(double), as_stream(stream)));
}

void DeviceCompoundCsr::download_values(ac::CompoundCsr &a, void *stream) const {
  if (a.kind != kind || a.bs != bs || a.nbrows != nbrows || a.nbcols != nbcols || a.nnzb() != nnzb)
    throw std::invalid_argument("aijcompound: download_values into a matrix of another kind, size or pattern");
  a.values.resize(static_cast<std::size_t>(nvalues()));
  copy_to_host(a.values.data(), values.data(), a.values.size() * sizeof(double), stream);
}

bool has_form(const DeviceCompoundCsr &a, ac::EntryKind target, void *stream) {
  check_form_target(a, target, "has_form");
  DeviceBuffer<int> flag(1, stream);
  PGK_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, sizeof(int), as_stream(stream)));
  if (a.nnzb > 0) {
    has_form_kernel<<<grid(a.nnzb), kThreads, 0, as_stream(stream)>>>(a.values.data(), a.nnzb, target, a.bs,
                                                                      flag.data());
    PGK_CUDA_CHECK_LAUNCH();
  }
  return flag.get(0, stream) == 0;
}

void compress(const DeviceCompoundCsr &a, ac::EntryKind target, DeviceCompoundCsr &out, void *stream) {
  check_form_target(a, target, "compress");
  if (&out == &a) throw std::invalid_argument("aijcompound: compress needs a separate output");
  out.kind = target;
  out.bs = a.bs;
  out.nbrows = a.nbrows;
  out.nbcols = a.nbcols;
  out.nnzb = a.nnzb;
  out.missing_diagonal = a.missing_diagonal;
  copy_device(out.rowptr, a.rowptr, stream);
  copy_device(out.colidx, a.colidx, stream);
  copy_device(out.diagpos, a.diagpos, stream);
  out.values.allocate(static_cast<std::size_t>(out.nvalues()));
  if (out.nvalues() > 0) {
    compress_kernel<<<grid(out.nvalues()), kThreads, 0, as_stream(stream)>>>(a.values.data(), out.nvalues(),
                                                                             out.esize(), a.bs, out.values.data());
    PGK_CUDA_CHECK_LAUNCH();
  }
}

void coo_assemble(const Index *jmap, const Index *perm, const double *v, Index nvalues, bool add, double *values,
                  void *stream) {
  if (nvalues < 0) throw std::invalid_argument("aijcompound: coo_assemble with a negative size");
  if (nvalues == 0) return;
  coo_kernel<<<grid(nvalues), kThreads, 0, as_stream(stream)>>>(jmap, perm, v, nvalues, add, values);
  PGK_CUDA_CHECK_LAUNCH();
}

} // namespace pgk::cuda::aijcompound
