// BlockPipeline (block_pc.hpp): the block variant's setup, update and apply, composed
// from the shared primitives (primitives.hpp) and the block steps (block_*.cu).
#include "kernels/trilf/block_pc.hpp"
#include "kernels/trilf/block_internal.cuh"
#include "kernels/common/event_timer.hpp"

#include <stdexcept>

namespace pgk::cuda::trilf {
namespace {

double share(double part, double total) { return total > 0 ? part / total : 1.0; }

// pgk::trilf::parallel_factor on a graph without vertices still runs its rounds: the first
// uncharged round proposes nothing and stops (M_max = k + 1, maximal). The device primitive
// returns early for 0 vertices (rounds_run = 0); this restores the reference's counts so that
// SetupInfo matches for n = 0.
void empty_graph_rounds(const pgk::trilf::FactorOptions &o, DeviceFactor &f) {
  f.rounds_run = o.rounds;
  f.maximal = false;
  for (int k = 0; k < o.rounds; ++k)
    if (!pgk::trilf::is_charged_round(o, k)) {
      f.rounds_run = k + 1;
      f.maximal = true;
      break;
    }
}

} // namespace

void BlockPipeline::setup(const CsrView &a, const CsrView &w, const pgk::trilf::Options &opt, void *stream,
                          pgk::trilf::SetupInfo &info, TrilfPhaseTimes &times) {
  ready_ = false;
  if (!(opt.pivot.rel_tol >= 0 && opt.pivot.rel_tol < 1))
    throw std::invalid_argument("trilf factor_block: rel_tol must lie in [0, 1)");
  if (a.nrows != a.ncols || w.nrows != a.nrows)
    throw std::invalid_argument("trilf block: A must be square and W must match it");
  const auto s = static_cast<cudaStream_t>(stream);
  pivot_ = opt.pivot;
  n_ = a.nrows;
  info = pgk::trilf::SetupInfo();
  EventTimer ev(4);
  ev.record(0, s);

  // factor: pairing, coarse numbering, coarse graph, coarse [0,2]-factor.
  pgk::trilf::FactorOptions o1 = opt.factor, o2 = opt.factor;
  o1.max_degree = 1;
  o2.max_degree = 2;
  pair(w, opt.pairing, o1, o2, stream);
  const Index nc = blk::number_coarse(pairing_.nbr.data(), n_, coarse_of_, members_, scratch_, s);
  blk::contract_graph(w, coarse_of_.data(), members_.data(), nc, crow_, ccol_, cval_, scratch_, s);
  CsrView cw;
  cw.nrows = cw.ncols = nc;
  cw.rowptr = crow_.data();
  cw.colidx = ccol_.data();
  cw.values = cval_.data();
  DeviceFactor f2;
  parallel_factor(cw, o2, f2, stream);
  ev.record(1, s);
  if (n_ == 0) {
    empty_graph_rounds(opt.pairing == pgk::trilf::PairRule::Forest ? o2 : o1, pairing_);
    empty_graph_rounds(o2, f2);
  }
  const Index factor_edges = f2.edges;

  // cycles, paths (coarse), then the block order.
  const Index broken = break_cycles(f2, cw, stream);
  ev.record(2, s);
  order_paths(f2, corder_, stream);
  nb_ = nc;
  slots_.allocate(2 * static_cast<std::size_t>(nb_));
  pos_.allocate(static_cast<std::size_t>(n_));
  blk::order_blocks(members_.data(), corder_.perm.data(), nb_, slots_.data(), pos_.data(), s);
  ev.record(3, s);
  times.factor = ev.ms(0, 1);
  times.cycles = ev.ms(1, 2);
  times.paths = ev.ms(2, 3);

  info.block.pairs = n_ - nc;
  info.block.ghosts = nc - info.block.pairs;
  info.block.pairing_rounds = pairing_.rounds_run;
  info.block.coarse.rounds_run = f2.rounds_run;
  info.block.coarse.maximal = f2.maximal;
  info.block.coarse.factor_edges = factor_edges;
  info.block.coarse.cycles_broken = broken;
  info.block.coarse.forest_edges = factor_edges - broken;
  info.npaths = corder_.npaths;
  info.longest = corder_.longest;

  const auto nb4 = 4 * static_cast<std::size_t>(nb_);
  for (DeviceBuffer<double> *b : {&lower_, &diag_, &upper_, &neg_mult_, &inv_, &back_}) b->allocate(nb4);
  tmp_.allocate(2 * static_cast<std::size_t>(nb_));
  tiles_.allocate(blk::scan_workspace_bytes(nb_));
  assemble_and_factor(a, true, stream, info, times);
  ready_ = true;
}

void BlockPipeline::pair(const CsrView &w, pgk::trilf::PairRule rule, const pgk::trilf::FactorOptions &o1,
                         const pgk::trilf::FactorOptions &o2, void *stream) {
  if (rule == pgk::trilf::PairRule::Matching) {
    parallel_factor(w, o1, pairing_, stream); // the paper's [0,1]-factor
    return;
  }
  // The scalar variant's forest (same options, same bits), cut into pairs along its paths.
  DeviceFactor fine;
  parallel_factor(w, o2, fine, stream);
  break_cycles(fine, w, stream);
  DevicePathOrder order;
  order_paths(fine, order, stream);
  pairing_.n = 1;
  pairing_.nvertices = n_;
  pairing_.nbr.allocate(static_cast<std::size_t>(n_));
  blk::pair_along_paths(order.perm.data(), order.path_head.data(), n_, pairing_.nbr.data(),
                        static_cast<cudaStream_t>(stream));
  pairing_.rounds_run = fine.rounds_run;
  pairing_.maximal = fine.maximal;
  pairing_.edges = 0; // not used: the pair count comes from the coarse numbering
  // `order` is freed on return: finish using it first.
  PGK_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

void BlockPipeline::update_values(const CsrView &a, void *stream, pgk::trilf::SetupInfo &info, TrilfPhaseTimes &times) {
  if (a.nrows != n_) throw std::invalid_argument("trilf: update_values with a matrix of another size");
  ready_ = false;
  assemble_and_factor(a, false, stream, info, times);
  ready_ = true;
}

void BlockPipeline::assemble_and_factor(const CsrView &a, bool with_coverage, void *stream, pgk::trilf::SetupInfo &info,
                                        TrilfPhaseTimes &times) {
  const auto s = static_cast<cudaStream_t>(stream);
  EventTimer ev(3);
  ev.record(0, s);
  blk::Coverage cov;
  blk::assemble(a, slots_.data(), pos_.data(), corder_.path_head.data(), nb_, lower_.data(), diag_.data(),
                upper_.data(), with_coverage ? &cov : nullptr, scratch_, s);
  ev.record(1, s);
  const blk::FactorCounts fc =
      blk::factor(nb_, corder_.path_head.data(), slots_.data(), pivot_.rel_tol, lower_.data(), diag_.data(),
                  upper_.data(), neg_mult_.data(), inv_.data(), back_.data(), scratch_, s);
  ev.record(2, s);
  times.assemble = ev.ms(0, 1);
  times.lu = ev.ms(1, 2);
  splits_ = fc.splits;
  replaced_ = fc.replaced;
  info.splits = fc.splits;
  info.replaced = fc.replaced;
  if (with_coverage) {
    info.c_id = share(cov.ident, cov.total);
    info.c_pi = share(cov.kept, cov.total);
  }
}

void BlockPipeline::apply(const double *r, double *z, void *stream) const {
  if (!ready_) throw std::logic_error("trilf block: apply before a successful setup");
  blk::solve(false, nb_, slots_.data(), neg_mult_.data(), inv_.data(), back_.data(), r, z, tmp_.data(), tiles_.data(),
             static_cast<cudaStream_t>(stream));
}

void BlockPipeline::apply_transpose(const double *r, double *z, void *stream) const {
  if (!ready_) throw std::logic_error("trilf block: apply before a successful setup");
  blk::solve(true, nb_, slots_.data(), neg_mult_.data(), inv_.data(), back_.data(), r, z, tmp_.data(), tiles_.data(),
             static_cast<cudaStream_t>(stream));
}

std::vector<Index> BlockPipeline::slots(void *stream) const { return slots_.download(stream); }

std::vector<Index> BlockPipeline::partner(void *stream) const { return pairing_.nbr.download(stream); }

std::vector<Index> BlockPipeline::path_start(void *stream) const {
  const std::vector<Index> head = corder_.path_head.download(stream);
  std::vector<Index> ps;
  for (Index k = 0; k < nb_; ++k)
    if (head[static_cast<std::size_t>(k)] == k) ps.push_back(k);
  ps.push_back(nb_);
  return ps;
}

pgk::Csr BlockPipeline::coarse_graph(void *stream) const {
  pgk::Csr c;
  c.nrows = c.ncols = nb_;
  c.rowptr = crow_.download(stream);
  c.colidx = ccol_.download(stream);
  c.values = cval_.download(stream);
  return c;
}

pgk::trilf::BlockTridiagonal BlockPipeline::assembled(const CsrView &a, void *stream) const {
  const auto nb4 = 4 * static_cast<std::size_t>(nb_);
  DeviceBuffer<double> l(nb4), d(nb4), u(nb4);
  DeviceBuffer<unsigned char> scratch;
  blk::assemble(a, slots_.data(), pos_.data(), corder_.path_head.data(), nb_, l.data(), d.data(), u.data(), nullptr,
                scratch, static_cast<cudaStream_t>(stream));
  pgk::trilf::BlockTridiagonal t;
  t.lower = l.download(stream);
  t.diag = d.download(stream);
  t.upper = u.download(stream);
  return t;
}

pgk::trilf::BlockTridiagonalFactor BlockPipeline::factor(void *stream) const {
  pgk::trilf::BlockTridiagonalFactor f;
  f.slots = slots_.download(stream);
  f.mult = neg_mult_.download(stream);
  for (double &m : f.mult) m = -m;
  f.inv_pivot = inv_.download(stream);
  f.effective.lower = lower_.download(stream);
  f.effective.diag = diag_.download(stream);
  f.effective.upper = upper_.download(stream);
  f.splits = splits_;
  f.replaced = replaced_;
  return f;
}

} // namespace pgk::cuda::trilf
