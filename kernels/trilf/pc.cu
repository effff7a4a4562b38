// pgk::cuda::TrilfDevice (pc_gpu.hpp): the scalar PC trilf pipeline on the device,
// weights -> [0,2]-factor -> cycle breaking -> path order -> T -> factorization, and the
// apply by affine scans. Each step is a primitive of primitives.hpp /
// internal.hpp; this file sequences them, times the phases with CUDA events, and
// fills SetupInfo as pgk::trilf::Preconditioner does (only scalars come back to the host).
#include <cuda_runtime.h>

#include <stdexcept>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/event_timer.hpp"
#include "kernels/trilf/block_pc.hpp"
#include "kernels/trilf/pc_gpu.hpp"
#include "kernels/trilf/gtsv.hpp"
#include "kernels/trilf/internal.hpp"
#include "kernels/trilf/primitives.hpp"

namespace pgk::cuda {

using namespace pgk::cuda::trilf;

struct TrilfDevice::Impl {
  pgk::trilf::Options opt;
  Index n = 0;
  bool ready = false;
  DeviceFactor factor;             // the forest after cycle breaking
  DeviceBuffer<Index> factor_copy; // the [0,2]-factor before cycle breaking (tests)
  DevicePathOrder order;
  DeviceTridiagonal t;
  // The values-only update: where T's entries lie in A's value array (set-up records them), A's
  // entry count then, and the T the update assembles and factors before it replaces t (kept
  // across updates, so an update allocates nothing).
  DeviceBuffer<Index> positions;
  Index nnz = 0;
  DeviceTridiagonal spare;
  mutable ScanWorkspace ws;             // apply scratch (one apply at a time per object)
  std::unique_ptr<BlockPipeline> block; // the 2x2 block variant (opt.block) instead of the above
  TrilfSolver solver = TrilfSolver::Scan;
  std::unique_ptr<GtsvSolver> gtsv; // when solver != Scan
  pgk::trilf::SetupInfo info;
  TrilfPhaseTimes times;
};

namespace {

void validate_options(const pgk::trilf::Options &opt) {
  pgk::trilf::validate(opt.factor);
  if (!opt.block && opt.factor.max_degree != 2)
    throw std::invalid_argument("trilf extract_linear_forest: max_degree must be 2");
  if (!(opt.pivot.rel_tol >= 0 && opt.pivot.rel_tol < 1))
    throw std::invalid_argument("trilf factor: rel_tol must lie in [0, 1)");
}

} // namespace

TrilfDevice::TrilfDevice() : impl_(new Impl) {}
TrilfDevice::~TrilfDevice() = default;

void TrilfDevice::setup(const CsrView &a, const pgk::trilf::Options &opt, void *stream) {
  validate_options(opt);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  auto fresh = std::make_unique<Impl>(); // the old state survives a failed setup untouched
  Impl &m = *fresh;
  m.opt = opt;
  m.n = a.nrows;
  EventTimer ev(7);
  ev.record(0, s);
  DeviceWeightGraph w;
  build_weight_graph(a, opt.factor.weight, w, stream); // checks A (trilf weights: ...)
  ev.record(1, s);
  if (opt.block && impl_->solver != TrilfSolver::Scan)
    throw std::invalid_argument("trilf: the cuSPARSE solver (gtsv2) takes the scalar variant only");
  if (opt.block) {
    // Pairing, coarse graph and everything after it: BlockPipeline (block_pc.hpp).
    m.block = std::make_unique<BlockPipeline>();
    m.block->setup(a, w.view, opt, stream, m.info, m.times);
    m.times.weights = ev.ms(0, 1);
    m.ready = true;
    m.solver = impl_->solver;
    *impl_ = std::move(m);
    return;
  }
  parallel_factor(w.view, opt.factor, m.factor, stream);
  ev.record(2, s);
  const std::size_t slots = m.factor.nbr.size();
  m.factor_copy.allocate(slots);
  if (slots)
    PGK_CUDA_CHECK(
        cudaMemcpyAsync(m.factor_copy.data(), m.factor.nbr.data(), sizeof(Index) * slots, cudaMemcpyDeviceToDevice, s));
  const Index factor_edges = m.factor.edges;
  const Index broken = break_cycles(m.factor, w.view, stream);
  ev.record(3, s);
  order_paths(m.factor, m.order, stream);
  ev.record(4, s);
  CoverageSums cov;
  assemble_tridiagonal(a, m.order, m.t, &cov, stream, &m.positions);
  m.nnz = w.a_nnz;
  ev.record(5, s);
  factor_tridiagonal(m.t, m.order, opt.pivot.rel_tol, stream);
  ev.record(6, s);
  m.ws.reserve(m.n);
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));

  pgk::trilf::SetupInfo &info = m.info;
  info.forest.rounds_run = m.factor.rounds_run;
  info.forest.maximal = m.factor.maximal;
  info.forest.factor_edges = factor_edges;
  info.forest.cycles_broken = broken;
  info.forest.forest_edges = factor_edges - broken;
  info.npaths = m.order.npaths;
  info.longest = m.order.longest;
  info.splits = m.t.splits;
  info.replaced = m.t.replaced;
  info.c_id = cov.total > 0 ? cov.identity / cov.total : 1.0;
  info.c_pi = cov.total > 0 ? cov.kept / cov.total : 1.0;
  m.times.weights = ev.ms(0, 1);
  m.times.factor = ev.ms(1, 2);
  m.times.cycles = ev.ms(2, 3);
  m.times.paths = ev.ms(3, 4);
  m.times.assemble = ev.ms(4, 5);
  m.times.lu = ev.ms(5, 6);
  m.ready = true;
  m.solver = impl_->solver;
  if (m.solver != TrilfSolver::Scan) {
    m.gtsv = std::make_unique<GtsvSolver>();
    m.gtsv->setup(m.t, m.solver == TrilfSolver::Gtsv2, stream);
  }
  *impl_ = std::move(m); // same object: references from info() / times() stay valid
}

void TrilfDevice::set_solver(TrilfSolver solver, void *stream) {
  Impl &m = *impl_;
  m.solver = solver;
  m.gtsv.reset();
  if (m.ready && !m.block && solver != TrilfSolver::Scan) {
    m.gtsv = std::make_unique<GtsvSolver>();
    m.gtsv->setup(m.t, solver == TrilfSolver::Gtsv2, stream);
  }
}

TrilfSolver TrilfDevice::solver() const { return impl_->solver; }

void TrilfDevice::update_values(const CsrView &a, void *stream) {
  Impl &m = *impl_;
  if (!m.ready) throw std::invalid_argument("trilf device: update_values before setup");
  if (a.nrows != m.n) throw std::invalid_argument("trilf: update_values with a matrix of another size");
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (m.block) {
    m.block->update_values(a, stream, m.info, m.times);
    return;
  }
  // Same pattern (the caller's contract; the entry count is checked): only the values are
  // checked, and T is gathered through the positions the set-up recorded.
  check_values_device(a, m.nnz, "trilf assemble", stream);
  EventTimer ev(3);
  ev.record(0, s);
  gather_tridiagonal(a.values, m.positions, m.n, m.spare, stream);
  ev.record(1, s);
  factor_tridiagonal(m.spare, m.order, m.opt.pivot.rel_tol, stream); // throws before anything changes
  ev.record(2, s);
  PGK_CUDA_CHECK(cudaStreamSynchronize(s));
  std::swap(m.t, m.spare);
  if (m.gtsv) m.gtsv->setup(m.t, m.solver == TrilfSolver::Gtsv2, stream);
  m.info.splits = m.t.splits;
  m.info.replaced = m.t.replaced;
  m.times.assemble = ev.ms(0, 1);
  m.times.lu = ev.ms(1, 2);
}

void TrilfDevice::apply(const double *r, double *z, void *stream) const {
  if (!impl_->ready) throw std::invalid_argument("trilf device: apply before setup");
  if (impl_->block) return impl_->block->apply(r, z, stream);
  if (impl_->gtsv && impl_->gtsv->solve(impl_->order, r, z, false, stream)) return;
  solve_tridiagonal(impl_->t, impl_->order, impl_->ws, r, z, false, stream);
}

void TrilfDevice::apply_transpose(const double *r, double *z, void *stream) const {
  if (!impl_->ready) throw std::invalid_argument("trilf device: apply before setup");
  if (impl_->block) return impl_->block->apply_transpose(r, z, stream);
  if (impl_->gtsv && impl_->gtsv->solve(impl_->order, r, z, true, stream)) return;
  solve_tridiagonal(impl_->t, impl_->order, impl_->ws, r, z, true, stream);
}

bool TrilfDevice::ready() const { return impl_->ready; }
Index TrilfDevice::size() const { return impl_->n; }
const pgk::trilf::SetupInfo &TrilfDevice::info() const { return impl_->info; }
const TrilfPhaseTimes &TrilfDevice::times() const { return impl_->times; }

std::vector<Index> TrilfDevice::factor_neighbours() const { return impl_->factor_copy.download(nullptr); }
std::vector<Index> TrilfDevice::forest_neighbours() const { return impl_->factor.nbr.download(nullptr); }
std::vector<Index> TrilfDevice::permutation() const {
  if (impl_->block) return impl_->block->slots(nullptr);
  return impl_->order.perm.download(nullptr);
}

pgk::trilf::Tridiagonal TrilfDevice::tridiagonal() const {
  pgk::trilf::Tridiagonal t;
  t.lower = impl_->t.lower.download(nullptr);
  t.diag = impl_->t.diag.download(nullptr);
  t.upper = impl_->t.upper.download(nullptr);
  return t;
}

std::vector<double> TrilfDevice::pivots() const { return impl_->t.pivot.download(nullptr); }
std::vector<double> TrilfDevice::multipliers() const { return impl_->t.mult.download(nullptr); }

} // namespace pgk::cuda
