// bench_trilf's kernel level (kernel_phases.hpp): what the device trilf costs without PETSc
// around it, next to what the PC calls cost.
#include "bench/trilf/kernel_phases.hpp"

#include <petscdevice_cuda.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <sstream>
#include <vector>

#include "bench/common/bench_cxx.hpp"
#include "bench/common/bench_timing.hpp"
#include "kernels/trilf/pc_gpu.hpp"
#include "kernels/trilf/primitives.hpp"
#include "src/common/rng.hpp"
#include "src/matgen/generators.hpp"
#include "src/trilf/pc.hpp"

namespace pgk::bench {
namespace {

namespace dt = pgk::cuda::trilf;

// The device copy of the matrix (the PETSc matrix's own arrays are not public API).
struct DeviceMatrix {
  pgk::cuda::DeviceBuffer<Index>  rowptr, colidx;
  pgk::cuda::DeviceBuffer<double> values;
  CsrView                         view{};
  DeviceMatrix(const Csr &a, void *stream)
  {
    rowptr.upload(a.rowptr.data(), a.rowptr.size(), stream);
    colidx.upload(a.colidx.data(), a.colidx.size(), stream);
    values.upload(a.values.data(), a.values.size(), stream);
    view        = view_of(a);
    view.rowptr = rowptr.data();
    view.colidx = colidx.data();
    view.values = values.data();
  }
};

std::vector<double> RandomVector(std::size_t n, std::uint64_t seed)
{
  SplitMix64          rng(seed);
  std::vector<double> v(n);
  for (double &x : v) x = 2 * rng.uniform() - 1;
  return v;
}

double RelDiff(const std::vector<double> &x, const std::vector<double> &y)
{
  double num = 0, den = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

// Release threshold of the device's default memory pool: PETSc raises it at initialization (freed
// memory stays in the pool); CUDA's default, 0, returns memory at every synchronization.
PetscErrorCode PoolThreshold(unsigned long long *get, const unsigned long long *set)
{
  int                dev = 0;
  cudaMemPool_t      pool;
  unsigned long long v = 0;

  PetscFunctionBegin;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  if (get) {
    PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v));
    *get = v;
  }
  if (set) {
    v = *set;
    PetscCallCUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v));
    if (*set == 0) PetscCallCUDA(cudaMemPoolTrimTo(pool, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Variant {
  std::string    name; // as bench_trilf's rows: "trilf", "trilf bs2"
  trilf::Options opt;
  int            pc = -1; // index into KernelPhaseArgs::pc, -1: no PC call to compare with
};

struct KernelTimes {
  Stats                 setup, setup_default_pool, apply, apply_transpose, update, update_default_pool;
  cuda::TrilfPhaseTimes phases, phases_default_pool;
  trilf::SetupInfo      info;
};

// Setup (after a warm-up one) and update_values with the memory pool as it is and with CUDA's
// default pool; apply and apply_transpose.
PetscErrorCode TimeVariant(pgk::cuda::TrilfDevice &dev, const CsrView &a, const trilf::Options &opt, void *stream, const KernelPhaseArgs &args, KernelTimes *kt)
{
  const std::size_t               n = static_cast<std::size_t>(a.nrows);
  const std::vector<double>       b = RandomVector(n, 3);
  pgk::cuda::DeviceBuffer<double> r, z(n);
  unsigned long long              kept  = 0;
  const unsigned long long        zero  = 0;
  auto                            setup = [&]() -> PetscErrorCode {
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dev.setup(a, opt, stream));
    return PETSC_SUCCESS;
  };
  auto update = [&]() -> PetscErrorCode {
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dev.update_values(a, stream));
    return PETSC_SUCCESS;
  };

  PetscFunctionBegin;
  PetscCall(TimeOp(PETSC_TRUE, 1, 3, setup, &kt->setup));
  kt->phases = dev.times();
  kt->info   = dev.info();
  PetscCall(TimeOp(PETSC_TRUE, 1, 3, update, &kt->update));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, r.upload(b.data(), n, stream));
  PetscCall(TimeOp(
      PETSC_TRUE, args.warmup, args.runs,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dev.apply(r.data(), z.data(), stream));
        return PETSC_SUCCESS;
      },
      &kt->apply));
  PetscCall(TimeOp(
      PETSC_TRUE, args.warmup, args.runs,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dev.apply_transpose(r.data(), z.data(), stream));
        return PETSC_SUCCESS;
      },
      &kt->apply_transpose));
  PetscCall(PoolThreshold(&kept, &zero));
  PetscCall(TimeOp(PETSC_TRUE, 1, 3, setup, &kt->setup_default_pool));
  kt->phases_default_pool = dev.times();
  PetscCall(TimeOp(PETSC_TRUE, 1, 3, update, &kt->update_default_pool));
  PetscCall(PoolThreshold(NULL, &kept));
  PetscCall(setup()); // leave it set up with PETSc's pool
  PetscFunctionReturn(PETSC_SUCCESS);
}

std::string Phases(const cuda::TrilfPhaseTimes &t)
{
  std::ostringstream os;
  os.precision(4);
  os << "weights " << t.weights << " factor " << t.factor << " cycles " << t.cycles << " paths " << t.paths << " assemble " << t.assemble << " lu " << t.lu << " ms";
  return os.str();
}

// One line of the table: the PC call (if any) and the kernel, in ms and in MatMults.
PetscErrorCode Line(const std::string &variant, const char *op, double pc_s, const Stats &k, double mm, const RecordFn &record, const std::string &note = "")
{
  char pc_ms[32] = "-", pc_mm[32] = "-";

  PetscFunctionBegin;
  if (pc_s > 0) {
    PetscCall(PetscSNPrintf(pc_ms, sizeof pc_ms, "%.4f", 1e3 * pc_s));
    PetscCall(PetscSNPrintf(pc_mm, sizeof pc_mm, "%.2f", pc_s / mm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s %-26s %10s %10.4f %8s %8.2f\n", variant.c_str(), op, pc_ms, 1e3 * k.median, pc_mm, k.median / mm));
  std::ostringstream n;
  n << "in MatMults " << k.median / mm;
  if (pc_s > 0) n << "; PC call " << pc_s << " s";
  if (!note.empty()) n << "; " << note;
  PetscCheck(record(variant + " kernel " + op, k, n.str()), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot append a record");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ReportVariant(const Variant &v, const KernelTimes &kt, const KernelPhaseArgs &args, const RecordFn &record)
{
  const double      mm = args.matmult;
  const PcCallTimes pc = v.pc >= 0 ? args.pc[v.pc] : PcCallTimes();
  const auto       &in = kt.info;

  PetscFunctionBegin;
  PetscCall(Line(v.name, "setup", pc.setup, kt.setup, mm, record, Phases(kt.phases)));
  PetscCall(Line(v.name, "setup (CUDA default pool)", 0, kt.setup_default_pool, mm, record, Phases(kt.phases_default_pool)));
  PetscCall(Line(v.name, "update_values", pc.refactor, kt.update, mm, record));
  PetscCall(Line(v.name, "update_values (CUDA pool)", 0, kt.update_default_pool, mm, record));
  PetscCall(Line(v.name, "apply", pc.apply, kt.apply, mm, record));
  PetscCall(Line(v.name, "apply_transpose", pc.apply_transpose, kt.apply_transpose, mm, record));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s setup phases: %s; with CUDA's default pool: %s\n", "", Phases(kt.phases).c_str(), Phases(kt.phases_default_pool).c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s paths %lld longest %lld cycles %lld rounds %d pairs %lld splits %lld replaced %lld c_id %.3f c_pi %.3f\n", "", (long long)in.npaths, (long long)in.longest, (long long)in.forest.cycles_broken,
                        in.forest.rounds_run, (long long)in.block.pairs, (long long)in.splits, (long long)in.replaced, in.c_id, in.c_pi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The scalar primitives one by one (median of 5 after one warm-up, allocations included).
PetscErrorCode TimePrimitives(const CsrView &a, const trilf::Options &opt, void *stream, double mm, const RecordFn &record)
{
  dt::DeviceWeightGraph w;
  dt::DeviceFactor      f;
  dt::DevicePathOrder   o;
  std::vector<Index>    slots;
  trilf::FactorOptions  one = opt.factor;
  Stats                 tw, tf, tc, tp, tr;

  PetscFunctionBegin;
  one.rounds = 1;
  PetscCall(TimeOp(
      PETSC_TRUE, 1, 5,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dt::build_weight_graph(a, opt.factor.weight, w, stream));
        return PETSC_SUCCESS;
      },
      &tw));
  PetscCall(TimeOp(
      PETSC_TRUE, 1, 5,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dt::parallel_factor(w.view, opt.factor, f, stream));
        return PETSC_SUCCESS;
      },
      &tf));
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, slots = f.nbr.download(stream));
  // Cycle breaking works in place: every run starts from the factor again (upload included).
  PetscCall(TimeOp(
      PETSC_TRUE, 1, 5,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, f.nbr.upload(slots.data(), slots.size(), stream); dt::break_cycles(f, w.view, stream));
        return PETSC_SUCCESS;
      },
      &tc));
  PetscCall(TimeOp(
      PETSC_TRUE, 1, 5,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dt::order_paths(f, o, stream));
        return PETSC_SUCCESS;
      },
      &tp));
  PetscCall(TimeOp(
      PETSC_TRUE, 1, 5,
      [&]() -> PetscErrorCode {
        PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dt::parallel_factor(w.view, one, f, stream));
        return PETSC_SUCCESS;
      },
      &tr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s primitives: weights %.3f factor %.3f (1 round %.3f) cycles %.3f (incl. upload) paths %.3f ms\n", "trilf", 1e3 * tw.median, 1e3 * tf.median, 1e3 * tr.median, 1e3 * tc.median, 1e3 * tp.median));
  const std::pair<const char *, const Stats *> rows[] = {{"weights", &tw}, {"factor", &tf}, {"factor 1 round", &tr}, {"cycles (incl. upload)", &tc}, {"paths", &tp}};
  for (const auto &[name, s] : rows) {
    std::ostringstream note;
    note << "in MatMults " << s->median / mm;
    PetscCheck(record(std::string("trilf kernel primitive ") + name, *s, note.str()), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot append a record");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The large case against the host reference: the same permutation and paths, apply to 1e-12.
PetscErrorCode HostCheck(const Csr &a, const pgk::cuda::TrilfDevice &dev, const trilf::Options &opt, void *stream)
{
  const std::size_t               n = static_cast<std::size_t>(a.nrows);
  const std::vector<double>       b = RandomVector(n, 3);
  std::vector<double>             x(n), zh;
  pgk::cuda::DeviceBuffer<double> r, z(n);

  PetscFunctionBegin;
  const auto                  t0 = std::chrono::steady_clock::now();
  const trilf::Preconditioner pc(view_of(a), opt);
  const double                host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  pc.apply(b.data(), x.data());
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, r.upload(b.data(), n, stream); dev.apply(r.data(), z.data(), stream); zh = z.download(stream));
  const double e    = RelDiff(zh, x);
  const bool   perm = dev.permutation() == pc.order().perm;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s host reference: setup %.0f ms; permutation equal %d, paths %lld/%lld, apply rel. error %.2e\n", "trilf", host_ms, (int)perm, (long long)dev.info().npaths, (long long)pc.info().npaths, e));
  PetscCheck(perm && e <= 1e-12 && dev.info().npaths == pc.info().npaths, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the device trilf differs from the host reference (apply rel. error %g)", e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

PetscErrorCode TrilfKernelPhases(const KernelPhaseArgs &args, const RecordFn &record)
{
  cudaStream_t cs;
  Csr          a;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&cs));
  void *stream = cs;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, a = gen::generate(gen::parse_spec(args.spec)));
  PetscCheck(a.nrows == args.rows, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %lld rows generated, the PETSc matrix has %lld", args.spec.c_str(), (long long)a.nrows, args.rows);
  std::vector<Variant> variants(3);
  variants[0]                          = {"trilf", trilf::Options(), 0};
  variants[1]                          = {"trilf bs2", trilf::Options(), 1};
  variants[1].opt.block                = true;
  variants[2]                          = {"trilf bs2 uncharged", variants[1].opt, -1};
  variants[2].opt.factor.charge_period = 1; // never charged
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  kernel level (kernels/trilf on the same matrix, CUDA events on PETSc's stream), next to the PC calls:\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-22s %-26s %10s %10s %8s %8s\n", "variant", "operation", "PC call ms", "kernel ms", "PC/MM", "kern/MM"));
  std::unique_ptr<DeviceMatrix> d;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, d = std::make_unique<DeviceMatrix>(a, stream));
  for (const Variant &v : variants) {
    pgk::cuda::TrilfDevice dev;
    KernelTimes            kt;
    PetscCall(TimeVariant(dev, d->view, v.opt, stream, args, &kt));
    PetscCall(ReportVariant(v, kt, args, record));
    if (v.opt.block) continue;
    PetscCall(TimePrimitives(d->view, v.opt, stream, args.matmult, record));
    if (args.host_check) PetscCall(HostCheck(a, dev, v.opt, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench
