// bench_rabbitpp sections 2 and 3: PETSc's MatMult after each ordering (the matrix permuted on
// the host by MatPermute, then converted to MATAIJCUSPARSE and uploaded; none of it timed), as
// a ratio to the ideal time (compulsory bytes / measured copy bandwidth) on a device, on one
// host core otherwise; then the pay-back of each ordering in SpMVs: ordering time / (MatMult
// original - MatMult after).
#include "bench/rabbitpp/context.hpp"

#include <petscgpukit.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "bench/common/bench_timing.hpp"
#include "src/common/rng.hpp"

namespace pgk::bench::rabbitpp {

// MatGetOrdering(A, type) under the budget (wall clock); *is gets the last row permutation.
static PetscErrorCode TimedOrdering(Mat A, PetscBool on_device, MatOrderingType type, const Budget &b, IS *is, Stats *s, std::string *note)
{
  PetscFunctionBegin;
  auto once = [&](double *sec) -> PetscErrorCode {
    IS c = NULL;
    PetscCall(ISDestroy(is));
    PetscCall(pgk::bench::Timed(
        on_device, [&]() { return MatGetOrdering(A, type, is, &c); }, sec));
    PetscCall(ISDestroy(&c));
    return PETSC_SUCCESS;
  };
  PetscCall(TimeBudgeted(b, once, s, note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// N of an ordering named rabbitpp_kN (N >= 1), else 0.
static int HubFactorOf(const std::string &name)
{
  const std::string prefix = "rabbitpp_k";
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return 0;
  for (size_t i = prefix.size(); i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return 0;
  return std::atoi(name.c_str() + prefix.size());
}

// The permutation of one ordering, and its time when it is computed here (rcm, batchrcm,
// rabbit; rabbitpp's times are section 1's, random's and original's are none). *is = NULL:
// the original numbering.
static PetscErrorCode OrderingOf(Problem &p, const Options &o, PetscBool gpu, const std::string &name, IS *is, Results &res)
{
  const int    threads = *std::max_element(p.threads.begin(), p.threads.end());
  const Budget host{(int)o.cpu_warmup, (int)o.runs, (int)o.min_runs, (double)o.aux_row_seconds};
  const Budget dev{(int)o.warmup, (int)o.runs, (int)o.min_runs, (double)o.aux_row_seconds};
  Stats        s;
  std::string  note, label;

  PetscFunctionBegin;
  *is = NULL;
  if (name == "original") PetscFunctionReturn(PETSC_SUCCESS);
  if (name == "random" || name == "rabbitpp") {
    std::vector<PetscInt> perm(p.n);
    std::iota(perm.begin(), perm.end(), (PetscInt)0);
    pgk::SplitMix64 rng(20250901);
    if (name == "random") pgk::shuffle(perm, rng);
    else perm = p.ref;
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, p.n, perm.data(), PETSC_COPY_VALUES, is));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (name == "rcm") { // PETSc's, on the host only; one run without warm-up
    label = "MatGetOrdering rcm (PETSc, host)";
    PetscCall(TimedOrdering(p.host, PETSC_FALSE, MATORDERINGRCM, Budget{0, 1, 1, o.aux_row_seconds}, is, &s, &note));
    note = "1 run" + (note.empty() ? "" : "; " + note);
  } else if (name == "batchrcm") { // its auto backend: gpu for the device matrix
    label = gpu ? "MatGetOrdering batchrcm gpu" : "MatGetOrdering batchrcm auto (host)";
    PetscCall(TimedOrdering(gpu ? p.dev : p.host, gpu, MATORDERINGBATCHRCM, gpu ? dev : host, is, &s, &note));
  } else if (name == "rabbit") {
    label = gpu ? "MatGetOrdering rabbit gpu" : "MatGetOrdering rabbit cpu " + std::to_string(threads) + " threads";
    PetscCall(SetRabbitppBackend(gpu ? "gpu" : "cpu", gpu ? 0 : threads));
    PetscCall(TimedOrdering(gpu ? p.dev : p.host, gpu, MATORDERINGRABBIT, gpu ? dev : host, is, &s, &note));
    PetscCall(ClearRabbitppBackend());
  } else if (HubFactorOf(name) > 0) { // rabbitpp_kN: rabbitpp with -mat_ordering_rabbitpp_hub_factor N for this call only
    const std::string k          = std::to_string(HubFactorOf(name));
    char              before[64] = "";
    PetscBool         had        = PETSC_FALSE;
    label                        = (gpu ? "MatGetOrdering rabbitpp gpu, hub factor " : "MatGetOrdering rabbitpp cpu " + std::to_string(threads) + " threads, hub factor ") + k;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_rabbitpp_hub_factor", before, sizeof before, &had));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_rabbitpp_hub_factor", k.c_str()));
    PetscCall(SetRabbitppBackend(gpu ? "gpu" : "cpu", gpu ? 0 : threads));
    PetscCall(TimedOrdering(gpu ? p.dev : p.host, gpu, MATORDERINGRABBITPP, gpu ? dev : host, is, &s, &note));
    PetscCall(ClearRabbitppBackend());
    if (had) PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_rabbitpp_hub_factor", before));
    else PetscCall(PetscOptionsClearValue(NULL, "-mat_ordering_rabbitpp_hub_factor"));
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "unknown ordering %s (random, original, rcm, batchrcm, rabbit, rabbitpp, rabbitpp_kN)", name.c_str());
  res.add(MakeRow(p, label, "seconds", s, "", 0, note));
  p.sum.order_seconds[name] = s.median;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatMult of the matrix permuted by `is` (NULL: the original), on the device with CUDA events,
// else on the host (wall clock, one core).
static PetscErrorCode TimeSpmvAfter(Problem &p, const Options &o, PetscBool gpu, IS is, Stats *s)
{
  Mat A = gpu ? p.dev : p.host, B = NULL;
  Vec x, y;

  PetscFunctionBegin;
  if (is) {
    PetscCall(MatPermute(p.host, is, is, &B));
    if (gpu) PetscCall(MatConvert(B, MATAIJCUSPARSE, MAT_INPLACE_MATRIX, &B));
    A = B;
  }
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(A, x, y)); // the upload, before the warm-up
  PetscCall(pgk::bench::TimeOp(
      gpu, (int)o.spmv_warmup, (int)o.spmv_runs, [&]() { return MatMult(A, x, y); }, s));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// SpMVs an ordering of `seconds` takes to pay back; < 0: never (not faster than the original).
static double Payback(const Summary &sum, const std::string &ordering, double seconds)
{
  const double gain = sum.spmv.at("original") - sum.spmv.at(ordering);
  return gain > 0 ? seconds / gain : -1;
}

// 3. Pay-back of every timed ordering: rabbitpp per backend of section 1, the others as timed here.
static PetscErrorCode RecordPaybacks(Problem &p, Results &res)
{
  std::vector<std::pair<std::string, std::string>> items; // (pay-back label, ordering)

  PetscFunctionBegin;
  if (!p.sum.spmv.count("original")) PetscFunctionReturn(PETSC_SUCCESS);
  for (const auto &[backend, sec] : p.sum.order_seconds) {
    const bool        of_rabbitpp = backend == "gpu" || backend.rfind("cpu ", 0) == 0;
    const std::string ordering    = of_rabbitpp ? "rabbitpp" : backend;
    if (!p.sum.spmv.count(ordering)) continue;
    const std::string label = of_rabbitpp ? "rabbitpp " + backend : backend;
    const double      spmvs = Payback(p.sum, ordering, sec);
    p.sum.payback[label]    = spmvs;
    res.add(MakeRow(p, "pay-back " + label, "spmvs", Figure(spmvs), "ordering_seconds", sec, spmvs < 0 ? "never: MatMult not faster than with the original numbering" : ""));
    if (spmvs < 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  pay-back %-28s never (MatMult not faster than the original's)\n", label.c_str()));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  pay-back %-28s %10.1f SpMVs (ordering %.4f s)\n", label.c_str(), spmvs, sec));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The ideal MatMult: compulsory bytes (values and column indices once, the row pointer, x read
// once, y written once) at the measured copy bandwidth.
static double CompulsoryBytes(const Problem &p)
{
  return 2.0 * p.n * sizeof(PetscScalar) + (p.n + 1.0) * sizeof(PetscInt) + (double)p.nnz * (sizeof(PetscInt) + sizeof(PetscScalar));
}

// 2. The rows of the MatMults, once all are measured (the notes compare them).
static PetscErrorCode RecordSpmvs(Problem &p, const Options &o, PetscBool gpu, const std::map<std::string, Stats> &mm, Results &res)
{
  const std::string type = gpu ? "MatMult aijcusparse" : "MatMult aij (1 core)";

  PetscFunctionBegin;
  for (const std::string &name : Split(o.orderings, ',')) {
    const Stats &s    = mm.at(name);
    const double vs   = p.sum.spmv.count("original") ? p.sum.spmv.at("original") / s.median : 0;
    std::string  note = "speedup vs original " + std::to_string(vs);
    if (gpu) res.add(MakeRow(p, type + " after " + name, "seconds", s, "ratio_to_ideal", s.median / p.sum.ideal, note));
    else res.add(MakeRow(p, type + " after " + name, "seconds", s, "speedup_vs_original", vs, "host run: ratio to ideal omitted"));
    const std::string faster = vs > 0 ? std::to_string(vs).substr(0, 5) + "x faster than original" : "(original not measured)";
    if (gpu) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-11s %10.4f ms  %6.3fx ideal  %s\n", name.c_str(), 1e3 * s.median, s.median / p.sum.ideal, faster.c_str()));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-11s %10.4f ms  %s\n", name.c_str(), 1e3 * s.median, faster.c_str()));
  }
  if (mm.count("rabbit"))
    for (const auto &[name, s] : mm) {
      if (name != "rabbitpp" && !HubFactorOf(name)) continue;
      const double r = s.median / mm.at("rabbit").median;
      res.add(MakeRow(p, type + " " + name + " / rabbit", "ratio", Figure(r)));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  MatMult after %s / after rabbit: %.4f (< 1: %s faster)\n", name.c_str(), r, name.c_str()));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchSpmv(Problem &p, const Options &o, PetscBool gpu, double copy_bw, Results &res)
{
  std::map<std::string, Stats> mm;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, " 2. orderings for the SpMV (times of those not timed above):\n"));
  for (const std::string &name : Split(o.orderings, ',')) {
    IS is;
    PetscCall(OrderingOf(p, o, gpu, name, &is, res));
    if (p.sum.order_seconds.count(name)) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s %9.4f s\n", ("MatGetOrdering " + name).c_str(), p.sum.order_seconds[name]));
    PetscCall(TimeSpmvAfter(p, o, gpu, is, &mm[name]));
    PetscCall(ISDestroy(&is));
    p.sum.spmv[name] = mm[name].median;
  }
  if (gpu) {
    const double bytes = CompulsoryBytes(p);
    p.sum.ideal        = bytes / copy_bw;
    res.add(MakeRow(p, "ideal MatMult (compulsory bytes / copy bandwidth)", "seconds", Figure(p.sum.ideal), "compulsory_bytes", bytes, "copy bandwidth " + std::to_string(copy_bw / 1e9) + " GB/s"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    MatMult aijcusparse, CUDA events, median of %d after %d warm-up; ideal %.4f ms = %.3g bytes / %.0f GB/s\n", (int)o.spmv_runs, (int)o.spmv_warmup, 1e3 * p.sum.ideal, bytes, copy_bw / 1e9));
  } else PetscCall(PetscPrintf(PETSC_COMM_SELF, "    MatMult aij on one host core, wall clock, median of %d after %d warm-up (no ratio to ideal on the host)\n", (int)o.spmv_runs, (int)o.spmv_warmup));
  PetscCall(RecordSpmvs(p, o, gpu, mm, res));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, " 3. pay-back (ordering time / (MatMult original - MatMult after)):\n"));
  PetscCall(RecordPaybacks(p, res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::rabbitpp
