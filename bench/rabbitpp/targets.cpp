// bench_rabbitpp section 4: the table of every record, then the Targets section (issue 9): a line
// per graph and the five targets with met / MISSED, each with the figure it was judged on.
#include "bench/rabbitpp/context.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pgk::bench::rabbitpp {

PetscErrorCode PrintTable(const Results &res)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nbench_rabbitpp on %s, commit %s\n", res.device.c_str(), res.commit.c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-44s %-50s %-20s %11s %11s %11s %4s %s\n", "matrix", "backend / ordering", "metric", "median", "min", "max", "runs", "extra; note"));
  for (const Row &r : res.rows) {
    std::string extra = r.extra_name.empty() ? "" : r.extra_name + " " + std::to_string(r.extra);
    if (!r.note.empty()) extra += (extra.empty() ? "" : "; ") + r.note;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-44s %-50s %-20s %11.4e %11.4e %11.4e %4d %s\n", r.matrix.c_str(), r.backend.c_str(), r.metric.c_str(), r.s.median, r.s.min, r.s.max, r.s.runs, extra.c_str()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static double Get(const std::map<std::string, double> &m, const std::string &k, double none = 0)
{
  auto it = m.find(k);
  return it == m.end() ? none : it->second;
}

static const char *Verdict(bool met)
{
  return met ? "met" : "MISSED";
}

// The largest thread count measured on the matrix (the "cpu 16 threads" of the targets).
static std::string MaxThreads(const Summary &s)
{
  int best = 0;
  for (const auto &[k, v] : s.order_seconds)
    if (k.rfind("cpu ", 0) == 0) best = std::max(best, std::atoi(k.c_str() + 4));
  return best ? "cpu " + std::to_string(best) + " threads" : "";
}

// One line per graph: nnz, modularity, insularity, ordering times, MatMult per ordering (x ideal
// on a device, ms on the host), rabbitpp / rabbit, pay-back.
static PetscErrorCode PrintPerGraph(const std::vector<Summary> &sums, const Options &o, PetscBool gpu)
{
  const std::vector<std::string> orderings = Split(o.orderings, ',');

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s %10s %6s %6s %9s %9s |", "graph", "nnz", "Q", "insul", "cpu max s", "gpu s"));
  for (const std::string &name : orderings) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %9s", name.substr(0, 9).c_str()));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, " | %s | %s\n", gpu ? "MatMult x ideal" : "MatMult ms (1 core)", "rabbitpp/rabbit, pay-back (SpMVs)"));
  for (const Summary &s : sums) {
    const std::string cpu = MaxThreads(s);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s %10lld %6.3f %6.3f %9.3f %9.3f |", s.matrix.c_str(), s.nnz, s.modularity, s.insularity, Get(s.order_seconds, cpu), Get(s.order_seconds, "gpu")));
    for (const std::string &name : orderings) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %9.3f", gpu ? Get(s.spmv, name) / s.ideal : 1e3 * Get(s.spmv, name)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, " | %.4f;", Get(s.spmv, "rabbitpp") / Get(s.spmv, "rabbit", NAN)));
    for (const std::string &b : {cpu, std::string("gpu")})
      if (s.payback.count("rabbitpp " + b)) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %s %.0f", b.c_str(), s.payback.at("rabbitpp " + b)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// rabbitpp no slower than rabbit on every graph; >= 5% faster (geometric mean) where insularity < 0.95.
static PetscErrorCode PrintRabbitTargets(const std::vector<Summary> &sums)
{
  double      worst = 0, lg = 0;
  int         low = 0, graphs = 0;
  std::string worst_at, low_list;

  PetscFunctionBegin;
  for (const Summary &s : sums) {
    if (!s.spmv.count("rabbit") || !s.spmv.count("rabbitpp")) continue;
    const double r = s.spmv.at("rabbitpp") / s.spmv.at("rabbit");
    ++graphs;
    if (r > worst) worst = r, worst_at = s.matrix;
    if (s.insularity >= 0 && s.insularity < 0.95) {
      lg += std::log(1 / r);
      low_list += (low++ ? ", " : "") + s.matrix;
    }
  }
  if (!graphs) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rabbitpp vs rabbit: not measured (-orderings lacks rabbit or rabbitpp)\n"));
  else {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rabbitpp no slower than rabbit on every graph: slowest MatMult ratio rabbitpp/rabbit %.4f (%s) over %d graphs: %s\n", worst, worst_at.c_str(), graphs, Verdict(worst <= 1.0)));
    if (low)
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rabbitpp >= 5%% faster than rabbit on graphs with insularity < 0.95 (geometric mean of rabbit/rabbitpp): %.4f over %d (%s): %s\n", std::exp(lg / low), low, low_list.c_str(),
                            Verdict(std::exp(lg / low) >= 1.05)));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  rabbitpp >= 5%% faster than rabbit on graphs with insularity < 0.95: no such graph in this run\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The targets stated for the target graph.
static PetscErrorCode PrintGraphTargets(const Summary &t, PetscBool gpu)
{
  const std::string cpu = MaxThreads(t);

  PetscFunctionBegin;
  if (gpu) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  GPU MatGetOrdering rabbitpp <= 0.5 s: %.4f s: %s\n", Get(t.order_seconds, "gpu"), Verdict(Get(t.order_seconds, "gpu") <= 0.5)));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  GPU MatGetOrdering rabbitpp <= 0.5 s: not measured (no device)\n"));
  if (cpu == "cpu 16 threads") PetscCall(PetscPrintf(PETSC_COMM_SELF, "  cpu 16 threads MatGetOrdering rabbitpp <= 2 s: %.4f s: %s\n", Get(t.order_seconds, cpu), Verdict(Get(t.order_seconds, cpu) <= 2)));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  cpu 16 threads MatGetOrdering rabbitpp <= 2 s: not measured (largest thread count: %s)\n", cpu.empty() ? "none" : cpu.c_str()));
  if (gpu && t.spmv.count("rabbitpp")) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  MatMult after rabbitpp <= 1.9x ideal: %.3fx (", t.spmv.at("rabbitpp") / t.ideal));
    for (const auto &[name, sec] : t.spmv)
      if (name != "rabbitpp") PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %.3fx, ", name.c_str(), sec / t.ideal));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ideal %.4f ms): %s\n", 1e3 * t.ideal, Verdict(t.spmv.at("rabbitpp") / t.ideal <= 1.9)));
  } else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  MatMult after rabbitpp <= 1.9x ideal: not measured (%s)\n", gpu ? "-orderings lacks rabbitpp" : "host run, no ideal"));
  for (const std::string &b : {std::string("gpu"), cpu}) {
    if (b.empty() || !t.payback.count("rabbitpp " + b)) continue;
    const double pb = t.payback.at("rabbitpp " + b);
    if (pb < 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  pay-back <= 500 SpMVs (rabbitpp %s): never (MatMult after rabbitpp not faster than the original's): MISSED\n", b.c_str()));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "  pay-back <= 500 SpMVs (rabbitpp %s%s): %.0f SpMVs: %s\n", b.c_str(), gpu ? "" : ", host MatMult", pb, Verdict(pb <= 500)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PrintTargets(const std::vector<Summary> &sums, const Options &o, PetscBool gpu)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nTargets (issue 9; stated for the H100 and communities:n=8000000; this run's target graph: %s)\n", o.target));
  PetscCall(PrintPerGraph(sums, o, gpu));
  auto t = std::find_if(sums.begin(), sums.end(), [&](const Summary &s) { return s.matrix == o.target; });
  if (t == sums.end()) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  the target graph %s was not in this run: its targets are not judged\n", o.target));
  else PetscCall(PrintGraphTargets(*t, gpu));
  PetscCall(PrintRabbitTargets(sums));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::rabbitpp
