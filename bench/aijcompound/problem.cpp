// bench_aijcompound: one matrix of the run (generation, entry kind, expansion, x, the reference
// product) and the hot / L2-flushed device timer (context.hpp).
#include "bench/aijcompound/context.hpp"
#include "src/aijcompound/symmetric.hpp"
#include "src/common/thread_pool.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>

#include <petscgpukit.h>

#include "bench/common/bench_cxx.hpp"
#include "kernels/common/event_timer.hpp"
#include "kernels/common/transfer.hpp"
#include "src/aijcompound/ops.hpp"
#include "src/common/csr_build.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"

namespace pgk::bench::aijcompound {

bool Options::has(const char *group) const
{
  for (const std::string &g : Split(rows, ','))
    if (g == group) return true;
  return false;
}

// The entry kind MatConvert's -mat_aijcompound_entry auto chooses: quaternion (bs 4) or complex
// (bs 2) where every block has that exact form, else real blocks.
static ac::EntryKind DetectKind(const CsrView &v, int bs)
{
  if (bs == 4 && ac::detect_quaternion(v)) return ac::EntryKind::quaternion;
  if (bs == 2 && ac::detect_complex(v)) return ac::EntryKind::complex;
  return ac::EntryKind::block;
}

// Compound CSR-AoS with 4-byte indices (DevicePacked::bytes of CSR-AoS) + x read + y written.
static void ByteModel(Problem *p)
{
  const ac::CompoundCsr &c = p->c;
  p->vector_bytes          = 8.0 * c.bs * ((double)c.nbrows + (double)c.nbcols);
  p->compound_bytes        = (double)c.nnzb() * (8.0 * c.esize() + 4.0) + 4.0 * ((double)c.nbrows + 1) + p->vector_bytes;
}

// The spec's suffix that renumbers the generated matrix by block RCM.
static const char kRcmSuffix[] = "@rcm";

// The generated matrix renumbered blockwise by MatGetOrdering(MATORDERINGBATCHRCM) (the user's call,
// equal to the serial RCM reference) on its block pattern: a periodic mesh's seam couplings
// (quatsurf's torus: rows n (n - 1) apart) come near the diagonal, so that a device copy can hold
// its columns as 16-bit offsets from the row.
static PetscErrorCode RenumberByBlockRcm(Problem *p, ac::EntryKind kind, int bs)
{
  ac::CompoundCsr     blocks;
  Mat                 G;
  IS                  rperm, cperm;
  const PetscInt     *old;
  std::vector<double> ones;

  PetscFunctionBegin;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    blocks = ac::from_scalar(view_of(p->generated), kind, bs);
    ones.assign(blocks.colidx.size(), 1.0);
  });
  // PetscInt is Index (the static_assert in petsc_rows.cpp), so G shares the block pattern.
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, (PetscInt)blocks.nbrows, (PetscInt)blocks.nbcols, (PetscInt *)blocks.rowptr.data(), (PetscInt *)blocks.colidx.data(), ones.data(), &G));
  PetscCall(MatGetOrdering(G, MATORDERINGBATCHRCM, &rperm, &cperm));
  PetscCall(ISGetIndices(rperm, &old));
  std::vector<Index> perm((size_t)p->generated.nrows); // perm[new] = old, scalar rows
  for (Index k = 0; k < blocks.nbrows; ++k)
    for (int i = 0; i < bs; ++i) perm[(size_t)(k * bs + i)] = (Index)old[k] * bs + i;
  PetscCall(ISRestoreIndices(rperm, &old));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&G));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_LIB, p->generated = pgk::permute_symmetric(p->generated, perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CreateProblem(const std::string &spec, Problem *p)
{
  pgk::gen::Shape shape;

  PetscFunctionBegin;
  p->spec                    = spec;
  const bool        rcm      = spec.size() > sizeof kRcmSuffix - 1 && spec.compare(spec.size() - (sizeof kRcmSuffix - 1), std::string::npos, kRcmSuffix) == 0;
  const std::string gen_spec = rcm ? spec.substr(0, spec.size() - (sizeof kRcmSuffix - 1)) : spec;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, {
    const pgk::gen::Spec s = pgk::gen::parse_spec(gen_spec);
    shape                  = pgk::gen::describe(s);
    if (shape.block_size >= 2 && shape.block_size <= 8) p->generated = pgk::gen::generate(s);
  });
  PetscCheck(shape.block_size >= 2 && shape.block_size <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: block size %d; the benchmark needs a compound generator (vec3d27, elast3d, quatsurf, helmholtz2dc: block size 2..8)", spec.c_str(),
             (int)shape.block_size);
  const int bs = (int)shape.block_size;
  if (rcm) PetscCall(RenumberByBlockRcm(p, DetectKind(view_of(p->generated), bs), bs));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    const CsrView v = view_of(p->generated);
    p->c            = ac::from_scalar(v, DetectKind(v, bs), bs);
    p->expanded     = ac::expand(p->c);
  });
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_LIB, p->symmetric = ac::is_symmetric(p->c, pgk::usable_cores()));
  p->same_as_generated = p->expanded.rowptr == p->generated.rowptr && p->expanded.colidx == p->generated.colidx && p->expanded.values == p->generated.values;
  // x: dyadic values in [-1, 1) from a fixed seed, so every run multiplies the same vector.
  pgk::SplitMix64 rng(20251010);
  p->x.resize((size_t)p->c.nbcols * bs);
  for (double &v : p->x) v = 2 * rng.uniform() - 1;
  p->yref.assign((size_t)p->c.nbrows * bs, 0.0);
  ac::mult(p->c, p->x.data(), p->yref.data());
  ByteModel(p);
  cudaStream_t stream;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, {
    p->xd.upload(p->x.data(), p->x.size(), stream);
    p->yd.allocate(p->yref.size());
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RelativeErrorHost(const Problem &p, const double *y, double *err)
{
  double dmax = 0, ymax = 0;

  PetscFunctionBegin;
  for (size_t i = 0; i < p.yref.size(); ++i) {
    dmax = std::isnan(y[i]) ? INFINITY : std::max(dmax, std::fabs(y[i] - p.yref[i]));
    ymax = std::max(ymax, std::fabs(p.yref[i]));
  }
  *err = ymax > 0 ? dmax / ymax : dmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RelativeError(const Problem &p, const double *y_device, double *err)
{
  std::vector<double> y(p.yref.size());
  cudaStream_t        stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, pgk::cuda::copy_to_host(y.data(), y_device, y.size() * sizeof(double), stream));
  PetscCall(RelativeErrorHost(p, y.data(), err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UploadCsr32(const std::vector<Index> &rowptr, const std::vector<Index> &colidx, const std::vector<double> &values, cudaStream_t stream, DeviceCsr32 *d)
{
  PetscFunctionBegin;
  PetscCheck(!rowptr.empty() && (long long)rowptr.back() <= INT_MAX && (long long)rowptr.size() <= INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "the cuSPARSE rows use 32-bit indices: %lld entries do not fit",
             (long long)(rowptr.empty() ? 0 : rowptr.back()));
  const std::vector<int> ptr(rowptr.begin(), rowptr.end()), col(colidx.begin(), colidx.end());
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, {
    d->rowptr.upload(ptr.data(), ptr.size(), stream);
    d->colidx.upload(col.data(), col.size(), stream);
    d->values.upload(values.data(), values.size(), stream);
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The wait queued ahead of a hot run: longer than the host needs to launch one op (a PETSc
// MatMult with its vector accessors, or a cuSPARSE call: 5-30 us).
static constexpr double kHotLeadUs = 100;

// One timed run: flush or wait, event, op, event; seconds between the events.
static PetscErrorCode RunOnce(Timer &t, const Op &op, bool flush, pgk::cuda::EventTimer &ev, unsigned int *sink, double *sec)
{
  PetscFunctionBegin;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, {
    // Both modes queue work ahead of the first mark, so the span is the device's time for op,
    // not the host's launch latency (event_timer.hpp, hold_stream): the flush, or a wait.
    if (flush) FlushL2(t.flush.data(), t.flush.size(), sink, t.stream);
    else pgk::cuda::hold_stream(t.stream, kHotLeadUs);
    ev.record(0, t.stream);
  });
  PetscCall(op());
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, {
    ev.record(1, t.stream);
    *sec = 1e-3 * ev.ms(0, 1);
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TimeHotFlushed(Timer &t, const Op &op, Stats *hot, Stats *flushed)
{
  pgk::cuda::DeviceBuffer<unsigned int> sink;

  PetscFunctionBegin;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, sink.allocate(1));
  std::unique_ptr<pgk::cuda::EventTimer> ev;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, ev = std::make_unique<pgk::cuda::EventTimer>(2));
  for (int mode = 0; mode < 2; ++mode) {
    std::vector<double> times;
    for (int i = 0; i < t.warmup + t.runs; ++i) {
      double sec = 0;
      PetscCall(RunOnce(t, op, mode == 1, *ev, sink.data(), &sec));
      if (i >= t.warmup) times.push_back(sec);
    }
    *(mode == 0 ? hot : flushed) = summarize(times);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::aijcompound
