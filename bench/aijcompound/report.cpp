// bench_aijcompound: the table, the JSON lines (bench/results/bench_aijcompound.jsonl: one line
// per row and timing mode, one per tuning figure) and the Targets section of issue 10.
#include "bench/aijcompound/context.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace pgk::bench::aijcompound {

static std::string Num(double v)
{
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", v);
  return std::isfinite(v) ? b : "null";
}

static std::string Str(const std::string &s)
{
  return "\"" + json_escape(s) + "\"";
}

// One JSON object from (key, JSON value) pairs.
static std::string Object(const std::vector<std::pair<std::string, std::string>> &fields)
{
  std::string line = "{";
  for (const auto &[k, v] : fields) line += (line.size() > 1 ? "," : "") + Str(k) + ":" + v;
  return line + "}\n";
}

static void Append(const std::string &path, const std::string &line, int *records)
{
  std::error_code ec; // a missing -results folder is created, as the other benchmarks do
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  FILE *f = std::fopen(path.c_str(), "a");
  if (!f) {
    std::fprintf(stderr, "cannot append to %s\n", path.c_str());
    return;
  }
  std::fputs(line.c_str(), f);
  std::fclose(f);
  ++*records;
}

// The fields every record of matrix p has.
static std::vector<std::pair<std::string, std::string>> MatrixFields(const Problem &p)
{
  return {{"benchmark", Str("aijcompound")},
          {"matrix", Str(p.spec)},
          {"kind", Str(ac::kind_name(p.c.kind))},
          {"bs", std::to_string(p.c.bs)},
          {"n", std::to_string(p.rows())},
          {"nnz", std::to_string((long long)p.expanded.nnz())},
          {"nnzb", std::to_string((long long)p.c.nnzb())},
          {"nnz_generated", std::to_string((long long)p.generated.nnz())},
          {"compound_bytes", Num(p.compound_bytes)}};
}

PetscErrorCode Results::add(const Problem &p, const Summary &s, const Row &r)
{
  double gbs[2], frac[2], speedup[2];

  PetscFunctionBegin;
  for (int m = 0; m < 2; ++m) {
    const Stats &st = m == 0 ? r.hot : r.flushed;
    gbs[m]          = p.compound_bytes / st.median / 1e9;
    frac[m]         = copy_bw > 0 ? p.compound_bytes / st.median / copy_bw : 0;
    speedup[m]      = s.cusparse_best[m] > 0 ? s.cusparse_best[m] / st.median : 0;
    auto f          = MatrixFields(p);
    f.insert(f.end(), {{"backend", Str(r.backend)},
                       {"group", Str(r.group)},
                       {"mode", Str(m == 0 ? "hot" : "flushed")},
                       {"metric", Str("seconds")},
                       {"median", Num(st.median)},
                       {"min", Num(st.min)},
                       {"max", Num(st.max)},
                       {"runs", std::to_string(st.runs)},
                       {"gbps_compound", Num(gbs[m])},
                       {"frac_copy", Num(frac[m])},
                       {"copy_gbps", Num(copy_bw / 1e9)},
                       {"own_bytes", r.own_bytes > 0 ? Num(r.own_bytes) : "null"},
                       {"gbps_own", r.own_bytes > 0 ? Num(r.own_bytes / st.median / 1e9) : "null"},
                       {"speedup_vs_best_cusparse", Num(speedup[m])},
                       {"rel_err", Num(r.rel_err)},
                       {"device", Str(device)},
                       {"commit", Str(commit)},
                       {"note", Str(r.note)}});
    Append(jsonl, Object(f), &records);
  }
  char sp[2][16];
  for (int m = 0; m < 2; ++m) {
    if (speedup[m] > 0) std::snprintf(sp[m], sizeof sp[m], "%6.2fx", speedup[m]);
    else std::snprintf(sp[m], sizeof sp[m], "%7s", "-");
  }
  const char *bad = r.rel_err > 1e-12 || std::isnan(r.rel_err) ? "  WRONG RESULT" : "";
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-58s %9.4f %7.1f %5.3f %s  %9.4f %7.1f %5.3f %s  %8.1e%s%s%s\n", r.backend.c_str(), 1e3 * r.hot.median, gbs[0], frac[0], sp[0], 1e3 * r.flushed.median, gbs[1], frac[1], sp[1], r.rel_err, bad,
                        r.note.empty() ? "" : "  ", r.note.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Results::figure(const Problem *p, const std::string &backend, const std::string &metric, double value, const std::vector<std::pair<std::string, std::string>> &fields, const std::string &note)
{
  PetscFunctionBegin;
  std::vector<std::pair<std::string, std::string>> f;
  if (p) f = MatrixFields(*p);
  else f = {{"benchmark", Str("aijcompound")}, {"matrix", Str("-")}};
  f.insert(f.end(), {{"backend", Str(backend)}, {"metric", Str(metric)}, {"median", Num(value)}, {"min", Num(value)}, {"max", Num(value)}, {"runs", "1"}});
  f.insert(f.end(), fields.begin(), fields.end());
  f.insert(f.end(), {{"device", Str(device)}, {"commit", Str(commit)}, {"note", Str(note)}});
  Append(jsonl, Object(f), &records);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PrintHeader(const Problem &p, double copy_bw)
{
  const ac::CompoundCsr &c = p.c;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n== %s: %s entries (bs %d, %d scalars stored each), %lld rows, %lld stored entries, %lld scalar nonzeros expanded", p.spec.c_str(), ac::kind_name(c.kind), c.bs, c.esize(), p.rows(), (long long)c.nnzb(),
                        (long long)p.expanded.nnz()));
  if (p.same_as_generated) PetscCall(PetscPrintf(PETSC_COMM_SELF, " (= as generated)\n"));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "; as generated %lld (its blocks %.0f%% full)\n", (long long)p.generated.nnz(), 100.0 * (double)p.generated.nnz() / (double)p.expanded.nnz()));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "   compulsory bytes %.1f MB (compound CSR-AoS, 4-byte indices: %.1f MB; x + y: %.1f MB): %.4f ms at the copy bandwidth\n", p.compound_bytes / 1e6, (p.compound_bytes - p.vector_bytes) / 1e6,
                        p.vector_bytes / 1e6, 1e3 * p.compound_bytes / copy_bw));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-58s %9s %7s %5s %7s  %9s %7s %5s %7s  %8s\n", "row", "hot ms", "GB/s", "copy", "x cuS", "flush ms", "GB/s", "copy", "x cuS", "rel err"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// One target line: met when both timing modes meet it (value >= goal, or <= goal when !at_least).
static PetscErrorCode Target(const Summary &s, const char *what, const double v[2], double goal, bool at_least, const char *unit, const std::string &extra = "")
{
  PetscFunctionBegin;
  if (v[0] <= 0 || v[1] <= 0) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s %s: not measured\n", "-", s.spec.c_str(), what));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  const bool met = at_least ? v[0] >= goal && v[1] >= goal : v[0] <= goal && v[1] <= goal;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s %s: %.3f%s flushed, %.3f%s hot (target %s %.2f%s)%s\n", met ? "met" : "MISSED", s.spec.c_str(), what, v[1], unit, v[0], unit, at_least ? ">=" : "<=", goal, unit, extra.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Ratio(const double num[2], const double den[2], double out[2])
{
  for (int m = 0; m < 2; ++m) out[m] = num[m] > 0 && den[m] > 0 ? num[m] / den[m] : 0;
}

static PetscErrorCode MatrixTargets(const Summary &s, double copy_bw)
{
  double v[2];

  PetscFunctionBegin;
  if (s.nnz < 20000000) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s %lld scalar nonzeros: below the issue's 20M, not a figure for the targets\n", "note", s.spec.c_str(), s.nnz));
  for (int m = 0; m < 2; ++m) v[m] = s.user[m] > 0 ? s.compound_bytes / s.user[m] / copy_bw : 0;
  PetscCall(Target(s, "tuned MatMult, fraction of copy bandwidth", v, 0.85, true, ""));
  Ratio(s.cusparse_best, s.user, v);
  if (s.kind == "block" && s.bs == 3) PetscCall(Target(s, "3x3: speedup over cuSPARSE's best (CSR, BSR)", v, 1.35, true, "x"));
  if (s.tuned_variant.find("+SYM-") != std::string::npos) { // +SYM: what it reads, and the figure without it
    double w[2];
    for (int m = 0; m < 2; ++m) w[m] = s.user[m] > 0 && s.user_read_bytes > 0 ? s.user_read_bytes / s.user[m] / copy_bw : 0;
    PetscCall(
        PetscPrintf(PETSC_COMM_SELF,
                    "  %-9s %-22s the tuned MatMult uses +SYM (the matrix is symmetric: lower entries through their upper partners): it reads %.1f MB of the %.1f compulsory for CSR, %.3f flushed / %.3f hot of the copy bandwidth by its own bytes\n",
                    "info", s.spec.c_str(), s.user_read_bytes / 1e6, s.compound_bytes / 1e6, w[1], w[0]));
    Ratio(s.cusparse_best, s.best_general, w);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s without +SYM (a matrix that is not symmetric): best fixed %s, %.3fx flushed / %.3fx hot over cuSPARSE's best\n", "info", s.spec.c_str(), s.best_general_name.c_str(), w[1], w[0]));
  }
  Ratio(s.bsr_best, s.user, v);
  if (s.kind == "quaternion") PetscCall(Target(s, "quaternion: speedup over cuSPARSE BSR 4x4", v, 3.0, true, "x"));
  Ratio(s.complex_csr, s.user, v);
  if (s.kind == "complex") PetscCall(Target(s, "complex: speed vs cuSPARSE complex CSR", v, 0.95, true, "x"));
  Ratio(s.tuned_fixed, s.best_fixed, v);
  PetscCall(Target(s, "tuned / best fixed variant (same harness)", v, 1.03, false, "", " best fixed: " + s.best_fixed_name));
  Ratio(s.user, s.best_fixed, v);
  if (v[0] > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s PETSc MatMult (tuned) / best fixed DevicePacked product: %.3f flushed, %.3f hot (MatMult's own overhead included)\n", "info", s.spec.c_str(), v[1], v[0]));
  const double in_mults = s.user[0] > 0 ? s.tune_seconds / s.user[0] : 0;
  if (s.tuned_products < 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s tuning: not measured\n", "-", s.spec.c_str()));
  else
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s tuning: %d products (target <= 200; source %s); its wall time %.1f ms = %.0f tuned MatMults (host packing of the candidate layouts included)\n",
                          s.tuned_products <= 200 && s.tuned_source == "tuned" ? "met" : "MISSED", s.spec.c_str(), s.tuned_products, s.tuned_source.c_str(), 1e3 * s.tune_seconds, in_mults));
  if (s.cache_products >= 0)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-9s %-22s second MatConvert: source %s, %d products, %.1f ms (target: from the cache, no search)\n", s.cache_source == "cache" && s.cache_products == 0 ? "met" : "MISSED", s.spec.c_str(),
                          s.cache_source.c_str(), s.cache_products, 1e3 * s.cache_seconds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PrintTargets(const std::vector<Summary> &sums, double copy_bw)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nTargets (issue 10, H100, double, >= 20M scalar nonzeros; 'met' needs the flushed and the hot timing; the tuned MatMult is the PETSc user path):\n"));
  for (const Summary &s : sums) PetscCall(MatrixTargets(s, copy_bw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::aijcompound
