// bench_rabbitpp section 1: the ordering time as a user gets it (MatGetOrdering rabbitpp with
// -mat_ordering_rabbitpp_backend cpu -mat_ordering_rabbitpp_threads t on the host MATAIJ, gpu
// on the MATAIJCUSPARSE copy; wall clock, the device synchronized; on the most threads also on
// the same arrays without the generator's symmetry flag, as a user's matrix), then the same orderings
// called directly (pgk::rabbitpp::rabbitpp_batch, pgk::cuda::rabbitpp_gpu) for the time of each
// phase and the figures (modularity, insularity, ...). Every permutation, from every backend and
// every call, is checked equal to the first one.
#include "bench/rabbitpp/context.hpp"

#include <petscgpukit.h>

#include <algorithm>
#include <chrono>

#include "bench/common/bench_cxx.hpp"
#include "bench/common/bench_timing.hpp"
#include "src/rabbitpp/batch.hpp"
#if defined(PGK_HAVE_CUDA)
#  include <cuda_runtime.h>
#  include <petscdevice_cuda.h>

#  include "kernels/rabbitpp/rabbitpp_gpu.hpp"
#endif

namespace pgk::bench::rabbitpp {

static_assert(sizeof(PetscInt) == sizeof(pgk::Index), "the library's index width is PETSc's");

// MatGetOrdering(A, type) under the budget; *perm gets the last call's row permutation.
static PetscErrorCode TimeMatGetOrdering(Mat A, PetscBool on_device, MatOrderingType type, const Budget &b, std::vector<PetscInt> *perm, Stats *s, std::string *note)
{
  PetscFunctionBegin;
  auto once = [&](double *sec) -> PetscErrorCode {
    IS r = NULL, c = NULL;
    PetscCall(pgk::bench::Timed(
        on_device, [&]() { return MatGetOrdering(A, type, &r, &c); }, sec));
    PetscCall(PermutationOf(r, perm));
    PetscCall(ISDestroy(&r));
    PetscCall(ISDestroy(&c));
    return PETSC_SUCCESS;
  };
  PetscCall(TimeBudgeted(b, once, s, note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintTiming(const std::string &what, const Stats &s, const std::string &note)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s %9.4f s (median of %d, min %.4f, max %.4f)%s%s\n", what.c_str(), s.median, s.runs, s.min, s.max, note.empty() ? "" : "; ", note.c_str()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The generators flag symmetric kinds (MAT_SYMMETRIC), so the plugin skips its check of the
// pattern's symmetry. A user's matrix assembled without the flag pays for the check: this row
// orders a matrix on the same arrays with no flag, on the most threads of the list.
static PetscErrorCode TimeUnflagged(Problem &p, const Budget &cpu, Results &res)
{
  Mat                   B;
  PetscBool             known, sym;
  const PetscScalar    *v;
  std::vector<PetscInt> perm;
  Stats                 s;
  std::string           note;
  const int             t     = *std::max_element(p.threads.begin(), p.threads.end());
  const std::string     label = "cpu " + std::to_string(t) + " threads, no symmetry flag";

  PetscFunctionBegin;
  PetscCall(MatIsStructurallySymmetricKnown(p.host, &known, &sym));
  if (!known) PetscFunctionReturn(PETSC_SUCCESS); // the rows above are unflagged already
  PetscCall(MatSeqAIJGetArrayRead(p.host, &v));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, p.n, p.n, (PetscInt *)p.csr.rowptr, (PetscInt *)p.csr.colidx, (PetscScalar *)v, &B));
  PetscCall(SetRabbitppBackend("cpu", t));
  PetscCall(TimeMatGetOrdering(B, PETSC_FALSE, MATORDERINGRABBITPP, cpu, &perm, &s, &note));
  PetscCall(MatDestroy(&B));
  PetscCall(MatSeqAIJRestoreArrayRead(p.host, &v));
  PetscCall(CheckSamePermutation(p, perm, "MatGetOrdering rabbitpp " + label));
  res.add(MakeRow(p, "MatGetOrdering rabbitpp " + label, "seconds", s, "", 0, note));
  PetscCall(PrintTiming(label, s, note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchOrderingTimes(Problem &p, const Options &o, PetscBool gpu, Results &res)
{
  std::vector<PetscInt> perm;
  Stats                 s;
  std::string           note;
  const Budget          cpu{(int)o.cpu_warmup, (int)o.runs, (int)o.min_runs, (double)o.row_seconds};
  const Budget          dev{(int)o.warmup, (int)o.runs, (int)o.min_runs, (double)o.row_seconds};

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, " 1. MatGetOrdering rabbitpp (wall clock, what a user calls):\n"));
  for (int t : p.threads) {
    const std::string label = "cpu " + std::to_string(t) + " threads";
    PetscCall(SetRabbitppBackend("cpu", t));
    PetscCall(TimeMatGetOrdering(p.host, PETSC_FALSE, MATORDERINGRABBITPP, cpu, &perm, &s, &note));
    PetscCall(CheckSamePermutation(p, perm, "MatGetOrdering rabbitpp " + label));
    res.add(MakeRow(p, "MatGetOrdering rabbitpp " + label, "seconds", s, "", 0, note));
    p.sum.order_seconds[label] = s.median;
    PetscCall(PrintTiming(label + " (host MATAIJ)", s, note));
  }
  PetscCall(TimeUnflagged(p, cpu, res));
  if (gpu) {
    PetscCall(SetRabbitppBackend("gpu", 0));
    PetscCall(TimeMatGetOrdering(p.dev, PETSC_TRUE, MATORDERINGRABBITPP, dev, &perm, &s, &note));
    PetscCall(CheckSamePermutation(p, perm, "MatGetOrdering rabbitpp gpu"));
    res.add(MakeRow(p, "MatGetOrdering rabbitpp gpu", "seconds", s, "", 0, note));
    p.sum.order_seconds["gpu"] = s.median;
    PetscCall(PrintTiming("gpu (MATAIJCUSPARSE)", s, note));
  }
  PetscCall(ClearRabbitppBackend());
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The phases of the direct calls (the last s.runs calls were the timed ones, see TimeBudgeted)
// and the figures of the last call.
static PetscErrorCode RecordPhases(Problem &p, const std::string &label, const std::vector<pgk::rabbitpp::Info> &calls, const Stats &wall, const std::string &note, Results &res)
{
  std::vector<double> graph, communities, numbering, regroup, sum;

  PetscFunctionBegin;
  for (size_t k = calls.size() - (size_t)wall.runs; k < calls.size(); ++k) {
    const pgk::rabbitpp::Info &i = calls[k];
    graph.push_back(i.seconds_graph);
    communities.push_back(i.seconds_communities);
    numbering.push_back(i.seconds_order);
    regroup.push_back(i.seconds_regroup);
    sum.push_back(i.seconds_graph + i.seconds_communities + i.seconds_order + i.seconds_regroup);
  }
  const Stats g = summarize(graph), c = summarize(communities), n = summarize(numbering), r = summarize(regroup), t = summarize(sum);
  res.add(MakeRow(p, label, "seconds_graph", g, "", 0, note));
  res.add(MakeRow(p, label, "seconds_communities", c, "", 0, note));
  res.add(MakeRow(p, label, "seconds_numbering", n, "", 0, note));
  res.add(MakeRow(p, label, "seconds_regroup", r, "", 0, note));
  res.add(MakeRow(p, label, "seconds_phases", t, "", 0, note));
  res.add(MakeRow(p, label, "seconds_call", wall, "", 0, "wall clock of the call, the figures' extra pass included" + (note.empty() ? "" : "; " + note)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s graph %.4f + communities %.4f + numbering %.4f + regroup %.4f = %.4f s (medians of %d; call %.4f s)\n", label.c_str(), g.median, c.median, n.median, r.median, t.median, t.runs, wall.median));
  const pgk::rabbitpp::Info &last = calls.back();
  if (last.seconds_round_begin > 0) { // the device's rounds by step (the last call; its events add a wait a round)
    const double steps[] = {last.seconds_round_begin, last.seconds_round_aggregate, last.seconds_round_decide, last.seconds_round_store, last.seconds_round_compact, last.seconds_round_apply};
    const char  *names[] = {"seconds_round_begin", "seconds_round_aggregate", "seconds_round_decide", "seconds_round_store", "seconds_round_compact", "seconds_round_apply"};
    for (int k = 0; k < 6; ++k)
      res.add(MakeRow(p, label, names[k], summarize({steps[k]}), "", 0, "the last timed call's rounds by step (CUDA events, a wait a round); " + std::to_string(last.rounds) + " rounds, " + std::to_string(last.compactions) + " compactions"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s rounds by step: begin %.4f, aggregate %.4f, decide %.4f, store %.4f (compactions %" PetscInt_FMT ": %.4f), apply %.4f s\n", "", steps[0], steps[1], steps[2], steps[3], (PetscInt)last.compactions,
                          steps[4], steps[5]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Modularity, insularity and the other figures of one ordering (README.md section 5).
static PetscErrorCode RecordFigures(Problem &p, const std::string &which, const pgk::rabbitpp::Info &i, Results &res)
{
  PetscFunctionBegin;
  const std::string label = which + " figures";
  res.add(MakeRow(p, label, "modularity", Figure(i.modularity)));
  res.add(MakeRow(p, label, "insularity", Figure(i.insularity)));
  res.add(MakeRow(p, label, "communities", Figure((double)i.communities), "largest", (double)i.largest_community));
  res.add(MakeRow(p, label, "hubs", Figure((double)i.hubs), "insular_vertices", (double)i.insular));
  res.add(MakeRow(p, label, "skew", Figure(i.skew)));
  res.add(MakeRow(p, label, "rounds", Figure((double)i.rounds), "deferred", (double)i.deferred));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s modularity %.4f, insularity %.4f, %lld communities (largest %lld), %lld hubs, %lld insular vertices, skew %.3f, %lld rounds\n", label.c_str(), i.modularity, i.insularity, (long long)i.communities,
                        (long long)i.largest_community, (long long)i.hubs, (long long)i.insular, i.skew, (long long)i.rounds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// pgk::rabbitpp::rabbitpp_batch on `threads` threads, called directly on the host arrays.
static PetscErrorCode DirectCpu(Problem &p, const Options &o, int threads, bool regroup, const Budget &b, std::vector<pgk::rabbitpp::Info> *calls, Stats *wall, std::string *note)
{
  pgk::rabbitpp::Options ro = o.ordering;
  PetscBool              known, sym;

  PetscFunctionBegin;
  ro.regroup = regroup;
  ro.threads = threads;
  // As the plugin does: a matrix flagged structurally symmetric is read in place, so that these
  // phases are those of the flagged MatGetOrdering row above.
  PetscCall(MatIsStructurallySymmetricKnown(p.host, &known, &sym));
  ro.input_is_symmetric = known && sym;
  auto once             = [&](double *sec) -> PetscErrorCode {
    pgk::rabbitpp::Info     info;
    std::vector<pgk::Index> q;
    const auto              t0 = std::chrono::steady_clock::now();
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_LIB, q = pgk::rabbitpp::rabbitpp_batch(p.csr, ro, &info));
    *sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    calls->push_back(info);
    if (regroup) PetscCall(CheckSamePermutation(p, std::vector<PetscInt>(q.begin(), q.end()), "rabbitpp_batch " + std::to_string(threads) + " threads (direct)"));
    return PETSC_SUCCESS;
  };
  PetscCall(TimeBudgeted(b, once, wall, note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PGK_HAVE_CUDA)
// pgk::cuda::rabbitpp_gpu called directly on a device copy of the CSR arrays (uploaded here, not
// timed) on PETSc's stream; its phases are device events.
static PetscErrorCode DirectGpu(Problem &p, const Options &o, bool regroup, const Budget &b, std::vector<pgk::rabbitpp::Info> *calls, Stats *wall, std::string *note)
{
  pgk::rabbitpp::Options ro       = o.ordering;
  pgk::Index            *d_rowptr = nullptr, *d_colidx = nullptr;
  cudaStream_t           stream;
  pgk::CsrView           dv = p.csr;

  PetscFunctionBegin;
  ro.regroup = regroup;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaMalloc(&d_rowptr, sizeof(pgk::Index) * (p.n + 1)));
  PetscCallCUDA(cudaMalloc(&d_colidx, sizeof(pgk::Index) * (p.nnz ? p.nnz : 1)));
  PetscCallCUDA(cudaMemcpy(d_rowptr, p.csr.rowptr, sizeof(pgk::Index) * (p.n + 1), cudaMemcpyHostToDevice));
  PetscCallCUDA(cudaMemcpy(d_colidx, p.csr.colidx, sizeof(pgk::Index) * p.nnz, cudaMemcpyHostToDevice));
  dv.rowptr = d_rowptr;
  dv.colidx = d_colidx;
  dv.values = nullptr;
  auto once = [&](double *sec) -> PetscErrorCode {
    pgk::rabbitpp::Info     info;
    std::vector<pgk::Index> q;
    PetscCall(pgk::bench::DeviceSync(PETSC_TRUE));
    const auto t0 = std::chrono::steady_clock::now();
    PGK_BENCH_CALL_CXX(PETSC_COMM_SELF, PETSC_ERR_GPU, q = pgk::cuda::rabbitpp_gpu(dv, ro, (void *)stream, &info));
    *sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    calls->push_back(info);
    if (regroup) PetscCall(CheckSamePermutation(p, std::vector<PetscInt>(q.begin(), q.end()), "rabbitpp_gpu (direct)"));
    return PETSC_SUCCESS;
  };
  PetscCall(TimeBudgeted(b, once, wall, note));
  PetscCallCUDA(cudaFree(d_rowptr));
  PetscCallCUDA(cudaFree(d_colidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode BenchPhases(Problem &p, const Options &o, PetscBool gpu, Results &res)
{
  std::vector<pgk::rabbitpp::Info> calls, rabbit;
  Stats                            wall;
  std::string                      note;
  const int                        threads = *std::max_element(p.threads.begin(), p.threads.end());
  // No host warm-up: the MatGetOrdering rows just ran the same code on the same matrix.
  const Budget cpu{0, (int)o.phase_runs, (int)o.min_runs, (double)o.row_seconds};
  const Budget single{0, 1, 1, (double)o.row_seconds}; // rabbit's figures: one call

  PetscFunctionBegin;
  (void)gpu; // used by the device calls only
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    direct calls, time per phase (host: steady clock; device: CUDA events):\n"));
  PetscCall(DirectCpu(p, o, threads, true, cpu, &calls, &wall, &note));
  PetscCall(RecordPhases(p, "rabbitpp_batch " + std::to_string(threads) + " threads (direct)", calls, wall, note, res));
  const pgk::rabbitpp::Info figures = calls.back(); // the host's figures are the reference
#if defined(PGK_HAVE_CUDA)
  if (gpu) {
    const Budget dev{(int)o.warmup, (int)o.runs, (int)o.min_runs, (double)o.row_seconds};
    calls.clear();
    PetscCall(DirectGpu(p, o, true, dev, &calls, &wall, &note));
    PetscCall(RecordPhases(p, "rabbitpp_gpu (direct)", calls, wall, note, res));
    PetscCall(DirectGpu(p, o, false, single, &rabbit, &wall, &note)); // the cheaper way to rabbit's figures
  }
#endif
  if (rabbit.empty()) PetscCall(DirectCpu(p, o, threads, false, single, &rabbit, &wall, &note));
  PetscCall(RecordFigures(p, "rabbitpp", figures, res));
  PetscCall(RecordFigures(p, "rabbit", rabbit.back(), res));
  p.sum.modularity        = figures.modularity;
  p.sum.insularity        = figures.insularity;
  p.sum.modularity_rabbit = rabbit.back().modularity;
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace pgk::bench::rabbitpp
