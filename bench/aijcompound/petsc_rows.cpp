// bench_aijcompound (b) and (f): the products a PETSc user gets, through the public API only.
//   (b) MatConvert(AIJ -> MATAIJCOMPOUND), MatCreateVecs (VECCUDA), a first MatMult with
//       -mat_aijcompound_tune none (the upload and the default layout, not tuning), then
//       MatAIJCompoundTune() with -mat_aijcompound_tune joint and a fresh cache file, timed on the
//       wall clock (device synchronized); then the tuned MatMult, hot and flushed. A second
//       MatConvert of the same matrix with the same cache file must take the cached winner
//       ("cache", no search). The products of the search are read from MatView's ascii_info line
//       ("search: N products"): the public API has no getter for them.
//   (f) MatConvert(AIJ -> MATAIJCUSPARSE) and MatMult on its VECCUDA vectors, on the expansion and,
//       where it differs, on the matrix as generated.
// The converted matrices get the options prefix below, so the tuning options set here do not
// touch any other matrix of the program.
#include "bench/aijcompound/context.hpp"

#include <petscgpukit.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "bench/common/bench_timing.hpp"

namespace pgk::bench::aijcompound {

static const char kPrefix[] = "bench_aijcompound_user_";

static_assert(sizeof(PetscInt) == sizeof(Index), "src/ and PETSc use the same index width (PGK_INDEX_64)");

// A MATSEQAIJ copy of m with block size bs.
static PetscErrorCode CreateAij(const pgk::Csr &m, int bs, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, m.nrows, m.ncols, m.nrows, m.ncols));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetType(*A, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, m.rowptr.data(), m.colidx.data(), m.values.data()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// M's vectors with x = p.x (uploaded at the first device use); *type names x's type.
static PetscErrorCode Vectors(const Problem &p, Mat M, Vec *x, Vec *y, std::string *type)
{
  PetscScalar *a;
  VecType      t;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(M, x, y));
  PetscCall(VecGetType(*x, &t));
  *type = t;
  PetscCall(VecGetArrayWrite(*x, &a));
  for (size_t i = 0; i < p.x.size(); ++i) a[i] = p.x[i];
  PetscCall(VecRestoreArrayWrite(*x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// max |y - yref| / max |yref| of a PETSc vector, read where it lives.
static PetscErrorCode VecError(const Problem &p, Vec y, double *err)
{
  const PetscScalar *a;
  PetscMemType       mt;

  PetscFunctionBegin;
  PetscCall(VecGetArrayReadAndMemType(y, &a, &mt));
  if (PetscMemTypeHost(mt)) {
    std::vector<double> h(a, a + p.yref.size());
    PetscCall(RelativeErrorHost(p, h.data(), err));
  } else PetscCall(RelativeError(p, a, err));
  PetscCall(VecRestoreArrayReadAndMemType(y, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetOption(const char *name, const std::string &value)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, (std::string("-") + kPrefix + name).c_str(), value.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatView's ascii_info text of C (through a temporary file: the type views on ASCII viewers).
static PetscErrorCode InfoText(Mat C, const std::string &path, std::string *text)
{
  PetscViewer v;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path.c_str(), &v));
  PetscCall(PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(C, v));
  PetscCall(PetscViewerPopFormat(v));
  PetscCall(PetscViewerDestroy(&v));
  std::ifstream     in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  std::remove(path.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Tuning {
  std::string variant, source, kind, vec_type;
  double      gbs = 0, setup_sec = 0, tune_sec = 0;
  int         products = 0;
  bool        searched = true; // MatAIJCompoundTune called (else: the first MatMult read the cache)
};

// MatConvert, the untuned first MatMult, then MatAIJCompoundTune (joint, `cache`), timed.
static PetscErrorCode ConvertAndTune(const Problem &p, Mat A, const Options &o, const std::string &cache, PetscBool search, Mat *C, Vec *x, Vec *y, Tuning *tu)
{
  const char *variant, *source;
  PetscReal   gbs;
  std::string info;
  std::smatch m;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJCOMPOUND, MAT_INITIAL_MATRIX, C));
  PetscCall(MatSetOptionsPrefix(*C, kPrefix));
  // SYM a candidate where the off-diagonal entries mirror each other (the option a user passes;
  // MAT_SYMMETRIC, which PETSc's generators set for vec3d27 and quatsurf, does the same).
  PetscCall(SetOption("mat_aijcompound_symmetric_layout", p.symmetric ? "1" : "0"));
  PetscCall(SetOption("mat_aijcompound_tune_cache", cache));
  PetscCall(SetOption("mat_aijcompound_max_mem_ratio", std::to_string((double)o.max_mem_ratio)));
  // search: the first MatMult untuned, then the explicit MatAIJCompoundTune (which always
  // searches). Otherwise the user's path with a cache: -mat_aijcompound_tune joint, and the first
  // MatMult takes the cached winner; its time (upload included) is the tuning time reported.
  PetscCall(SetOption("mat_aijcompound_tune", search ? "none" : "joint"));
  PetscCall(Vectors(p, *C, x, y, &tu->vec_type));
  PetscCall(Timed(
      PETSC_TRUE, [&]() { return MatMult(*C, *x, *y); }, &tu->setup_sec));
  if (search) {
    PetscCall(SetOption("mat_aijcompound_tune", "joint"));
    PetscCall(Timed(
        PETSC_TRUE, [&]() { return MatAIJCompoundTune(*C); }, &tu->tune_sec));
  } else tu->tune_sec = tu->setup_sec;
  tu->searched = search;
  PetscCall(MatAIJCompoundGetTuning(*C, &variant, &source, &gbs));
  tu->variant = variant;
  tu->source  = source;
  tu->gbs     = (double)gbs;
  PetscCall(InfoText(*C, cache + ".view", &info));
  tu->products = std::regex_search(info, m, std::regex("search: ([0-9]+) products")) ? std::stoi(m[1]) : 0;
  tu->kind     = std::regex_search(info, m, std::regex("entry kind ([a-z]+)")) ? m[1].str() : "?";
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The tuning figures of one conversion, printed and recorded.
static PetscErrorCode RecordTuning(const Problem &p, const char *what, const Tuning &tu, double mult_sec, Results &res)
{
  PetscFunctionBegin;
  const double in_mults = mult_sec > 0 ? tu.tune_sec / mult_sec : 0;
  PetscCall(res.figure(&p, std::string("MatAIJCompoundTune, ") + what, "seconds", tu.tune_sec,
                       {{"variant", "\"" + tu.variant + "\""},
                        {"source", "\"" + tu.source + "\""},
                        {"products", std::to_string(tu.products)},
                        {"in_tuned_matmults", std::to_string(in_mults)},
                        {"tuner_gbps", std::to_string(tu.gbs)},
                        {"first_matmult_seconds", std::to_string(tu.setup_sec)}},
                       tu.searched ? "wall clock, device synchronized; the first MatMult (upload, default layout) is before it and not counted"
                                   : "wall clock, device synchronized; the first MatMult with -mat_aijcompound_tune joint (upload and cache lookup included)"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-58s %s (%s), %d products, %.1f ms = %.0f tuned MatMults; first MatMult (upload + default layout) %.1f ms\n", (std::string("tuning, ") + what).c_str(), tu.variant.c_str(), tu.source.c_str(), tu.products,
                        1e3 * tu.tune_sec, in_mults, 1e3 * tu.setup_sec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchUserPath(Problem &p, const Options &o, Timer &t, Summary &s, Results &res)
{
  Mat         A, C, C2;
  Vec         x, y, x2, y2;
  Tuning      first, second;
  Row         r;
  std::string cache = o.cache[0] ? std::string(o.cache) : std::string("/tmp/bench_aijcompound_tune_") + std::to_string((long)getpid()) + ".txt";

  PetscFunctionBegin;
  std::remove(cache.c_str()); // fresh: the first conversion must search
  PetscCall(CreateAij(p.expanded, p.c.bs, &A));
  PetscCall(ConvertAndTune(p, A, o, cache, PETSC_TRUE, &C, &x, &y, &first));
  if (first.kind != ac::kind_name(p.c.kind)) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WARNING: MatConvert chose entry kind %s, the benchmark detected %s\n", first.kind.c_str(), ac::kind_name(p.c.kind)));
  r.group   = "user";
  r.backend = "PETSc MatMult aijcompound, tuned: " + first.variant;
  r.note    = "source " + first.source + ", vectors " + first.vec_type + ", entry kind " + first.kind;
  PetscCall(TimeHotFlushed(
      t, [&]() { return MatMult(C, x, y); }, &r.hot, &r.flushed));
  PetscCall(VecError(p, y, &r.rel_err));
  PetscCall(res.add(p, s, r));
  PetscCall(RecordTuning(p, "fresh cache", first, r.hot.median, res));
  PetscCall(ConvertAndTune(p, A, o, cache, PETSC_FALSE, &C2, &x2, &y2, &second));
  PetscCall(RecordTuning(p, "second MatConvert, same cache, first MatMult", second, r.hot.median, res));
  s.user[0] = r.hot.median, s.user[1] = r.flushed.median;
  s.tuned_variant = first.variant, s.tuned_source = first.source, s.tuner_gbs = first.gbs;
  s.tuned_products = first.products, s.tune_seconds = first.tune_sec;
  s.cache_source = second.source, s.cache_products = second.products, s.cache_seconds = second.tune_sec;
  for (Vec *v : {&x, &y, &x2, &y2}) PetscCall(VecDestroy(v));
  for (Mat *m : {&A, &C, &C2}) PetscCall(MatDestroy(m));
  if (!o.cache[0]) std::remove(cache.c_str());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// (f) on one scalar matrix.
static PetscErrorCode PetscCuSparseRow(Problem &p, const pgk::Csr &m, const char *which, Timer &t, const Summary &s, Results &res)
{
  Mat         A;
  Vec         x, y;
  Row         r;
  std::string type;

  PetscFunctionBegin;
  PetscCall(CreateAij(m, p.c.bs, &A));
  PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INPLACE_MATRIX, &A));
  PetscCall(Vectors(p, A, &x, &y, &type));
  PetscCall(MatMult(A, x, y)); // the upload
  r.group     = "petsc";
  r.backend   = std::string("PETSc MatMult aijcusparse (") + which + ")";
  r.own_bytes = (8.0 + sizeof(PetscInt)) * (double)m.nnz() + sizeof(PetscInt) * ((double)m.nrows + 1) + p.vector_bytes;
  r.note      = "vectors " + type;
  PetscCall(TimeHotFlushed(
      t, [&]() { return MatMult(A, x, y); }, &r.hot, &r.flushed));
  PetscCall(VecError(p, y, &r.rel_err));
  PetscCall(res.add(p, s, r));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchPetscCuSparse(Problem &p, const Options &o, Timer &t, Summary &s, Results &res)
{
  PetscFunctionBegin;
  PetscCall(PetscCuSparseRow(p, p.expanded, "expanded", t, s, res));
  if (!p.same_as_generated && o.generated_rows) PetscCall(PetscCuSparseRow(p, p.generated, "as generated", t, s, res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::aijcompound
