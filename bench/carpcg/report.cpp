// bench_carpcg: the table rows, the JSON lines and the Targets of issue 11 (context.hpp).
#include "bench/carpcg/context.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace pgk::bench::carpcg {

void Output::add(const Problem &p, const std::string &backend, const std::string &metric, const Stats &s, const std::string &extra_name, double extra, const std::string &note)
{
  Record r;
  r.benchmark   = "carpcg";
  r.matrix      = p.spec;
  r.n           = p.n;
  r.nnz         = p.nnz;
  r.backend     = backend;
  r.metric      = metric;
  r.stats       = s;
  r.extra_name  = extra_name;
  r.value_extra = extra;
  r.note        = note;
  r.device      = device;
  r.commit      = commit;
  if (append_jsonl(jsonl, r)) ++records;
  else std::fprintf(stderr, "cannot append to %s\n", jsonl.c_str());
}

// PETSc's name of the reason; DIVERGED_TIME_CAP (not a PETSc reason) when -solve_seconds stopped it;
// a '*' after a CONVERGED reason whose true residual missed 10 rtol (the KSP's own norm said yes:
// CGNE's is that of the normal equations), which the Targets do not count as converged.
static std::string ReasonName(const RowResult &r)
{
  if (r.time_capped) return "DIVERGED_TIME_CAP";
  return std::string(KSPConvergedReasons[r.reason]) + (r.reason > 0 && !r.converged() ? "*" : "");
}

static double InMatMults(const Problem &p, const RowResult &r)
{
  return p.mm.median > 0 ? r.per_it() / p.mm.median : 0;
}

// Fraction of the byte floor an iteration reaches: floor time / measured time (1 = at the floor).
static double FloorFraction(const Problem &p, const RowResult &r, const Method &m)
{
  return m.carpcg && p.floor_seconds > 0 && r.per_it() > 0 ? p.floor_seconds / r.per_it() : 0;
}

PetscErrorCode PrintProblemHeader(const Problem &p, double copy_bw)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s: %" PetscInt_FMT " rows, %lld nonzeros, %s%s; MatMult %.4f ms (median of %d)", p.spec.c_str(), p.n, p.nnz, p.symmetric ? "symmetric" : "nonsymmetric", p.spd ? " positive definite" : "",
                        1e3 * p.mm.median, p.mm.runs));
  if (copy_bw > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "; carpcg byte floor %.4f ms/iteration (%.0f bytes at %.0f GB/s)\n", 1e3 * p.floor_seconds, FloorBytes(p.n, p.nnz), copy_bw / 1e9));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s %-24s %7s %9s %10s %4s %9s %8s %7s %9s %9s\n", "method", "reason", "its", "setup s", "solve s", "runs", "ms/it", "it/MM", "floor", "rel.res", "rel.err"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PrintRow(const Problem &p, const RowResult &r, const Method &m)
{
  char its[32], floor[16] = "-";

  PetscFunctionBegin;
  if (r.its_min != r.its_max) std::snprintf(its, sizeof its, "%d-%d", (int)r.its_min, (int)r.its_max);
  else std::snprintf(its, sizeof its, "%d", (int)r.its);
  if (FloorFraction(p, r, m) > 0) std::snprintf(floor, sizeof floor, "%.3f", FloorFraction(p, r, m));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-24s %-24s %7s %9.4f %10.4f %4d %9.4f %8.2f %7s %9.2e %9.2e%s%s\n", m.name.c_str(), ReasonName(r).c_str(), its, r.setup, r.solve.median, r.solve.runs, 1e3 * r.per_it(), InMatMults(p, r), floor, r.relres,
                        r.relerr, r.runs_note.empty() ? "" : "  ", r.runs_note.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One JSON line per row: metric seconds_solve (the KSPSolve median), extra = iterations, and the
// other figures in the note as key=value words (scripts/bench-summary reads them).
void RecordRow(Output &out, const Problem &p, const RowResult &r, const Method &m)
{
  std::ostringstream note;
  note << "reason=" << ReasonName(r) << " its=" << r.its << " its_min=" << r.its_min << " its_max=" << r.its_max << " setup_s=" << r.setup << " ms_per_it=" << 1e3 * r.per_it() << " it_in_matmults=" << InMatMults(p, r);
  if (m.carpcg) note << " floor_fraction=" << FloorFraction(p, r, m);
  note << " relres=" << r.relres << " rtol=" << r.rtol << " relerr=" << r.relerr << " ksp=" << m.ksp_type << " prefix=" << m.key << "_";
  if (!r.runs_note.empty()) note << " runs_note=\"" << r.runs_note << "\"";
  out.add(p, m.name, "seconds_solve", r.solve, "iterations", (double)r.its, note.str());
}

// ---- Targets ------------------------------------------------------------------------------------

static const RowResult *Find(const ProblemSummary &s, const std::string &method)
{
  for (const RowResult &r : s.rows)
    if (r.method == method) return &r;
  return NULL;
}

static double ToSolution(const RowResult &r)
{
  return r.setup + r.solve.median;
}

// The converged carpcg row with the least time to solution (KSPSetUp + KSPSolve), or NULL.
static const RowResult *BestCarpcg(const ProblemSummary &s)
{
  const RowResult *best = NULL;
  for (const RowResult &r : s.rows)
    if (r.method.rfind("carpcg", 0) == 0 && r.converged() && (!best || ToSolution(r) < ToSolution(*best))) best = &r;
  return best;
}

static const char *Verdict(bool ok)
{
  return ok ? "met" : "MISSED";
}

// Iteration cost of each carpcg scheme against MatMult and the byte floor.
static PetscErrorCode IterationTargets(const ProblemSummary &s)
{
  PetscFunctionBegin;
  for (const RowResult &r : s.rows) {
    if (r.method.rfind("carpcg", 0) != 0 || r.its == 0) continue;
    const double it = r.per_it(), mm = s.mm > 0 ? it / s.mm : 0, fl = s.floor_seconds > 0 ? it / s.floor_seconds : 0;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s %-18s iteration %.4f ms = %.2f MatMults (<= 3: %s)", s.spec.c_str(), r.method.c_str(), 1e3 * it, mm, Verdict(mm <= 3)));
    if (fl > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " = %.2fx its byte floor (<= 1.5x: %s)\n", fl, Verdict(fl <= 1.5)));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, " (no byte floor: no copy bandwidth measured)\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The Jacobi-cost baselines that converged (the issue expects none on the indefinite problems).
static std::string ConvergedJacobiCost(const ProblemSummary &s)
{
  std::string list;
  for (const char *name : {"gmres(30)+jacobi", "bcgs+jacobi", "cgne (pc none)"}) {
    const RowResult *r = Find(s, name);
    if (r && r->converged()) list += std::string(list.empty() ? "" : ", ") + name;
  }
  return list;
}

static PetscErrorCode ProblemTargets(const ProblemSummary &s)
{
  const RowResult *best = BestCarpcg(s);
  const double     tb   = best ? ToSolution(*best) : 0;

  PetscFunctionBegin;
  if (s.kind == "fem2d" && s.n >= 300000 && s.n <= 400000) {
    if (best) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s report's class, 1e-9: %s %.3f s (<= 2.9 s: %s; %.0fx the report's 861 s)\n", s.spec.c_str(), best->method.c_str(), tb, Verdict(tb <= 2.9), 861.0 / tb));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s report's class: no carpcg scheme converged (MISSED)\n", s.spec.c_str()));
  }
  if (s.kind != "helmholtz2d") PetscFunctionReturn(PETSC_SUCCESS);
  const std::string others = ConvergedJacobiCost(s);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-36s %s: carpcg %s%s; Jacobi-cost baselines converged: %s (expected none: %s)", s.spec.c_str(), s.convection ? "nonsymmetric indefinite" : "symmetric indefinite",
                        best ? "converged with " : "did NOT converge", best ? best->method.c_str() : "", others.empty() ? "none" : others.c_str(), Verdict(others.empty())));
  const RowResult *ref = Find(s, s.convection ? "gmres(30)+bjacobi/ilu0" : "minres+jacobi");
  if (best && ref && ref->converged()) {
    const double ratio = tb / ToSolution(*ref);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "; %.3f s vs %s %.3f s = %.2fx (%s: %s)\n", tb, ref->method.c_str(), ToSolution(*ref), ratio, s.convection ? "< 1x" : "<= 3x", Verdict(s.convection ? ratio < 1 : ratio <= 3)));
  } else if (best && ref) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "; %s did not converge (%s)\n", ref->method.c_str(), s.convection ? "met" : "no ratio"));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PrintTargets(const std::vector<ProblemSummary> &sums, PetscBool gpu)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nTargets (issue 11; stated for an H100%s; time to solution = KSPSetUp + KSPSolve):\n", gpu ? "" : ", so on this host run for reference only"));
  for (const ProblemSummary &s : sums) PetscCall(IterationTargets(s));
  for (const ProblemSummary &s : sums) PetscCall(ProblemTargets(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::carpcg
