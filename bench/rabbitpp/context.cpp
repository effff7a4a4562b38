// bench_rabbitpp's helpers shared by its sections (context.hpp).
#include "bench/rabbitpp/context.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pgk::bench::rabbitpp {

void Results::add(const Row &r)
{
  rows.push_back(r);
  Record j;
  j.benchmark   = "rabbitpp";
  j.matrix      = r.matrix;
  j.n           = r.n;
  j.nnz         = r.nnz;
  j.backend     = r.backend;
  j.metric      = r.metric;
  j.stats       = r.s;
  j.extra_name  = r.extra_name;
  j.value_extra = r.extra;
  j.note        = r.note;
  j.device      = device;
  j.commit      = commit;
  if (!append_jsonl(jsonl, j)) std::fprintf(stderr, "cannot append to %s\n", jsonl.c_str());
}

// How many timed runs in all the budget allows, `timed` of them already done (the first run
// when there is no warm-up), `spent` seconds used; -1: the last warm-up run is the one timed run.
static int BudgetedRuns(const Budget &b, double estimate, double spent, int timed)
{
  if (estimate <= 0 || spent + estimate * (b.runs - timed) <= b.row_seconds) return b.runs;
  const int fit = timed + (int)std::floor((b.row_seconds - spent) / estimate);
  if (fit >= std::max(1, b.min_runs)) return std::min(fit, b.runs);
  if (b.min_runs <= 1 && b.warmup > 0) return -1;
  return std::max(1, b.min_runs);
}

PetscErrorCode TimeBudgeted(const Budget &b, const std::function<PetscErrorCode(double *)> &once, Stats *s, std::string *note)
{
  std::vector<double> t;
  double              estimate = 0, spent = 0;

  PetscFunctionBegin;
  note->clear();
  for (int i = 0; i < b.warmup; ++i) {
    PetscCall(once(&estimate));
    spent += estimate;
  }
  if (b.warmup == 0 && b.runs > 0) { // the first timed run is the estimate
    PetscCall(once(&estimate));
    spent += estimate;
    t.push_back(estimate);
  }
  const int runs = BudgetedRuns(b, estimate, spent, (int)t.size());
  if (runs < 0) {
    char buf[160];
    t.push_back(estimate);
    std::snprintf(buf, sizeof buf, "1 run: the warm-up run itself (a run takes %.3g s, over half the row budget of %g s)", estimate, b.row_seconds);
    *note = buf;
  } else {
    while ((int)t.size() < runs) {
      double sec;
      PetscCall(once(&sec));
      t.push_back(sec);
    }
    if (runs < b.runs) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%d runs instead of %d (row budget %g s; a run takes %.3g s)", runs, b.runs, b.row_seconds, estimate);
      *note = buf;
    }
  }
  *s = summarize(t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

Row MakeRow(const Problem &p, const std::string &backend, const std::string &metric, const Stats &s, const std::string &extra_name, double extra, const std::string &note)
{
  Row r;
  r.matrix     = p.spec;
  r.n          = p.n;
  r.nnz        = p.nnz;
  r.backend    = backend;
  r.metric     = metric;
  r.s          = s;
  r.extra_name = extra_name;
  r.extra      = extra;
  r.note       = note;
  return r;
}

Stats Figure(double v)
{
  Stats s;
  s.median = s.min = s.max = v;
  s.runs                   = 1;
  return s;
}

PetscErrorCode PermutationOf(IS is, std::vector<PetscInt> *perm)
{
  const PetscInt *idx;
  PetscInt        n;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(is, &n));
  PetscCall(ISGetIndices(is, &idx));
  perm->assign(idx, idx + n);
  PetscCall(ISRestoreIndices(is, &idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckSamePermutation(Problem &p, const std::vector<PetscInt> &perm, const std::string &who)
{
  static std::map<std::string, std::string> first; // matrix -> who gave its reference

  PetscFunctionBegin;
  if (p.ref.empty() && p.n > 0) {
    p.ref         = perm;
    first[p.spec] = who;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(perm.size() == p.ref.size(), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s on %s: %zu entries, the reference (%s) has %zu", who.c_str(), p.spec.c_str(), perm.size(), first[p.spec].c_str(), p.ref.size());
  size_t differ = 0, at = 0;
  for (size_t k = perm.size(); k-- > 0;)
    if (perm[k] != p.ref[k]) ++differ, at = k;
  PetscCheck(differ == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s on %s: the permutation differs from the reference (%s) at %zu of %zu positions, first at new index %zu (%" PetscInt_FMT " vs %" PetscInt_FMT ")", who.c_str(), p.spec.c_str(),
             first[p.spec].c_str(), differ, perm.size(), at, perm[at], p.ref[at]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SetRabbitppBackend(const char *backend, int threads)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_rabbitpp_backend", backend));
  if (threads > 0) PetscCall(PetscOptionsSetValue(NULL, "-mat_ordering_rabbitpp_threads", std::to_string(threads).c_str()));
  else PetscCall(PetscOptionsClearValue(NULL, "-mat_ordering_rabbitpp_threads"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ClearRabbitppBackend(void)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsClearValue(NULL, "-mat_ordering_rabbitpp_backend"));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_ordering_rabbitpp_threads"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::rabbitpp
