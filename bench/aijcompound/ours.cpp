// bench_aijcompound (a): our kernels through the DevicePacked API (kernels/aijcompound/layouts.hpp)
// for every fixed variant the tuner could choose from: its stage-1 candidates
// (ac::layout_candidates under -max_mem_ratio) and the schedule grid (ac::schedule_grid) of the
// layout that wins stage 1 here, plus the variant the PETSc path chose (b) when it is not among
// them, so "tuned vs every fixed variant" compares within one harness. Each layout is packed on
// the host and uploaded once (not timed); the timed product is DevicePacked::mult alone.
#include "bench/aijcompound/context.hpp"

#include <algorithm>
#include <tuple>

#include "bench/common/bench_cxx.hpp"
#include "kernels/aijcompound/layouts.hpp"
#include "src/aijcompound/layouts.hpp"

namespace pgk::bench::aijcompound {

namespace kc = pgk::cuda::aijcompound;

struct Timed {
  ac::Variant v;
  Row         row;
};

using Layout = std::tuple<ac::Outer, ac::Inner, bool>; // outer, inner, +SYM
static Layout LayoutOf(const ac::Variant &v)
{
  return {v.outer, v.inner, v.symmetric};
}

// Every variant of `list` whose layout is `layout`, on one upload of that layout.
static PetscErrorCode TimeLayout(Problem &p, Timer &t, Layout layout, const std::vector<ac::Variant> &list, const Summary &s, Results &res, std::vector<Timed> *out)
{
  kc::DevicePacked dp;
  const auto [outer, inner, sym] = layout;

  PetscFunctionBegin;
  PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dp.upload(ac::pack(p.c, outer, inner, sym), t.stream));
  if (outer == ac::Outer::csr && inner == ac::Inner::aos && !sym && (double)dp.bytes() + p.vector_bytes != p.compound_bytes)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WARNING: DevicePacked::bytes of CSR-AoS (%zu) + x + y differs from the compulsory-byte model (%.0f)\n", dp.bytes(), p.compound_bytes));
  for (const ac::Variant &v : list) {
    if (LayoutOf(v) != layout) continue;
    const kc::LaunchShape shape = kc::shape_of(v);
    Timed                 tv{v, {}};
    tv.row.group     = "ours";
    tv.row.backend   = "DevicePacked " + ac::describe(v);
    tv.row.own_bytes = (double)dp.bytes() + p.vector_bytes;
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, kc::check_shape(shape));
    PetscCall(TimeHotFlushed(
        t,
        [&]() -> PetscErrorCode {
          PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, dp.mult(shape, p.xd.data(), nullptr, p.yd.data(), t.stream));
          return PETSC_SUCCESS;
        },
        &tv.row.hot, &tv.row.flushed));
    PetscCall(RelativeError(p, p.yd.data(), &tv.row.rel_err));
    if (ac::describe(v) == s.tuned_variant) tv.row.note = "the variant the PETSc path tuned to";
    PetscCall(res.add(p, s, tv.row));
    out->push_back(tv);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Every variant of `list` not timed yet, layout by layout.
static PetscErrorCode TimeList(Problem &p, Timer &t, std::vector<ac::Variant> list, const Summary &s, Results &res, std::vector<Timed> *out)
{
  std::vector<ac::Variant> todo;

  PetscFunctionBegin;
  for (const ac::Variant &v : list) {
    const bool seen = std::any_of(out->begin(), out->end(), [&](const Timed &x) { return x.v == v; }) || std::find(todo.begin(), todo.end(), v) != todo.end();
    if (!seen) todo.push_back(v);
  }
  std::vector<Layout> layouts;
  for (const ac::Variant &v : todo)
    if (std::find(layouts.begin(), layouts.end(), LayoutOf(v)) == layouts.end()) layouts.push_back(LayoutOf(v));
  for (const Layout &l : layouts) PetscCall(TimeLayout(p, t, l, todo, s, res, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The variant a description names (MatAIJCompoundGetTuning gives only the text), among every
// variant the tuner can build for this matrix; false when none matches.
static bool FindVariant(const ac::CompoundCsr &c, double max_mem_ratio, bool symmetric, const std::string &text, ac::Variant *v)
{
  std::vector<ac::Variant> all = ac::layout_candidates(c, max_mem_ratio, symmetric);
  for (ac::Outer outer : ac::allowed_outers(c, max_mem_ratio))
    for (ac::Inner inner : {ac::Inner::aos, ac::Inner::soa})
      for (bool sym : {false, true})
        if (!sym || symmetric)
          for (const ac::Variant &g : ac::schedule_grid(outer, inner, sym)) all.push_back(g);
  all.push_back(ac::default_variant(c, max_mem_ratio));
  for (const ac::Variant &x : all)
    if (ac::describe(x) == text) return *v = x, true;
  return false;
}

PetscErrorCode BenchFixedVariants(Problem &p, const Options &o, Timer &t, Summary &s, Results &res)
{
  std::vector<Timed> timed;
  ac::Variant        tuned;

  PetscFunctionBegin;
  PetscCall(TimeList(p, t, ac::layout_candidates(p.c, o.max_mem_ratio, p.symmetric), s, res, &timed));
  PetscCheck(!timed.empty(), PETSC_COMM_SELF, PETSC_ERR_PLIB, "no layout candidate for %s", p.spec.c_str());
  // Stage 1's winner by its hot time, as the tuner ranks (back-to-back products).
  const ac::Variant best1 = std::min_element(timed.begin(), timed.end(), [](const Timed &a, const Timed &b) { return a.row.hot.median < b.row.hot.median; })->v; // a copy: timed grows
  PetscCall(TimeList(p, t, ac::schedule_grid(best1.outer, best1.inner, best1.symmetric), s, res, &timed));
  // The schedules of the best layout of the other kind too (+SYM or not): without +SYM, the figure
  // a matrix that is not symmetric gets; with it, what +SYM can do here.
  if (p.symmetric) {
    const Timed *other = nullptr;
    for (const Timed &x : timed)
      if (x.v.symmetric != best1.symmetric && (!other || x.row.hot.median < other->row.hot.median)) other = &x;
    if (other) {
      const ac::Variant o2 = other->v;
      PetscCall(TimeList(p, t, ac::schedule_grid(o2.outer, o2.inner, o2.symmetric), s, res, &timed));
    }
  }
  const bool found = !s.tuned_variant.empty() && FindVariant(p.c, o.max_mem_ratio, p.symmetric, s.tuned_variant, &tuned);
  if (found) PetscCall(TimeList(p, t, {tuned}, s, res, &timed));
  else if (!s.tuned_variant.empty()) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  the tuned variant \"%s\" is not one this benchmark can build: not timed here\n", s.tuned_variant.c_str()));
  for (int m = 0; m < 2; ++m) {
    for (const Timed &x : timed) {
      const double sec = m == 0 ? x.row.hot.median : x.row.flushed.median;
      if (s.best_fixed[m] == 0 || sec < s.best_fixed[m]) {
        s.best_fixed[m] = sec;
        if (m == 1) s.best_fixed_name = ac::describe(x.v);
      }
      if (found && x.v == tuned) s.tuned_fixed[m] = sec;
      if (!x.v.symmetric && (s.best_general[m] == 0 || sec < s.best_general[m])) {
        s.best_general[m] = sec;
        if (m == 1) s.best_general_name = ac::describe(x.v);
      }
      if (found && x.v == tuned) s.user_read_bytes = x.row.own_bytes;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::aijcompound
