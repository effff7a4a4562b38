// Community detection on the device in rounds of K vertices (src/rabbitpp/batch.cpp's
// detect_communities_batch, the same parent and round for every vertex): the round loop. The
// element operations and the state they keep are described in batch_ops.hpp.
//
// Per round the host reads one record (the active count, the gathered-entry count, the arena's
// fill), then enqueues the round's kernels and CUB calls with those sizes; everything else stays
// on the device. The work of a round is O(n) for the passes over all vertices (gather lengths,
// head marks, root moves), O(T log) for the T gathered entries (sort and reduction), O(K) for
// the decisions (the best targets too: one reduction over all reduced entries, whatever the
// length of one slot's list); the only sequential loops are the acceptance runs (the sources of one target,
// in slot order, as limit_merges_per_target takes them).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda/std/functional>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/common/event_timer.hpp"
#include "kernels/rabbitpp/batch_kernels.cuh"

namespace pgk::cuda::rabbitpp_detail {
namespace {

class DeviceRounds {
public:
  DeviceRounds(const DeviceGraph &g, const Index *order, Index batch, long long arena_capacity, CubTemp &temp,
               bool time_steps)
      : n_(g.n), slots_(std::min(batch, g.n)), temp_(temp), s_(temp.stream()) {
    if (time_steps) timer_ = std::make_unique<EventTimer>(kMarks);
    rbits_ = bits_for(static_cast<unsigned long long>(n_ - 1));
    if (bits_for(static_cast<unsigned long long>(slots_)) + rbits_ > 64 ||
        bits_for(static_cast<unsigned long long>(n_)) + bits_for(static_cast<unsigned long long>(slots_)) > 64)
      throw std::invalid_argument("rabbitpp gpu: " + std::to_string(n_) + " vertices in rounds of " +
                                  std::to_string(slots_) + " do not fit the 64-bit sort keys");
    entry_capacity_ = std::max<Index>(g.nnz_g, 1); // a round gathers at most nnz(G) entries (batch_ops.hpp)
    arena_capacity_ = std::max<long long>(arena_capacity > 0 ? arena_capacity : 2LL * g.nnz_g + 1024,
                                          std::max<long long>(g.nnz_g, 1));
    allocate(g, order);
  }

  void run(DeviceDendrogram &d) {
    Index rounds = 0;
    rabbitpp_ops::RoundState st;
    for (Index round = 0;; ++round) {
      mark(kStart);
      st = begin();
      mark(kBegun);
      if (st.m == 0) {
        add_step(0, kStart, kBegun);
        break;
      }
      ++rounds;
      aggregate(st);
      mark(kAggregated);
      decide(st.m);
      mark(kDecided);
      compacted_ = false;
      store(st);
      mark(kStored);
      apply(st.m, round);
      mark(kApplied);
      add_round_steps();
    }
    for (int k = 0; k < 6; ++k) d.step_ms[k] = step_ms_[k];
    d.parent = std::move(parent_);
    d.round = std::move(round_);
    d.seq = std::move(seq_);
    d.rounds = rounds;
    d.deferred = static_cast<Index>(st.deferred_total);
    d.compactions = compactions_;
  }

private:
  // Event marks of a round (timed rounds only).
  enum Mark { kStart, kBegun, kAggregated, kDecided, kCompactStart, kCompactEnd, kStored, kApplied, kMarks };
  void mark(Mark m) {
    if (timer_) timer_->record(m, s_);
  }
  void add_step(int step, Mark from, Mark to) { step_ms_[step] += timer_ ? timer_->ms(from, to) : 0.0; }
  void add_round_steps() {
    if (!timer_) return;
    add_step(0, kStart, kBegun);
    add_step(1, kBegun, kAggregated);
    add_step(2, kAggregated, kDecided);
    add_step(3, kDecided, kStored);
    if (compacted_) add_step(4, kCompactStart, kCompactEnd);
    add_step(5, kStored, kApplied);
  }

  void allocate(const DeviceGraph &g, const Index *order) {
    const std::size_t n = static_cast<std::size_t>(n_), k = static_cast<std::size_t>(slots_);
    for (DeviceBuffer<Index> *b : {&root_, &owner_, &slot_, &parent_, &round_, &seq_, &list_len_})
      *b = DeviceBuffer<Index>(n, s_);
    offset_ = DeviceBuffer<Index>(n + 1, s_);
    strength_ = DeviceBuffer<Wide>(n, s_);
    list_begin_ = DeviceBuffer<Wide>(n, s_);
    for (DeviceBuffer<Index> *b : {&active_, &target_, &deferred_list_, &next_[0], &next_[1], &final_[0], &final_[1]})
      *b = DeviceBuffer<Index>(k, s_);
    seg_begin_ = DeviceBuffer<Index>(k + 1, s_);
    run_slot_ = DeviceBuffer<Index>(k + 1, s_);
    run_best_ = DeviceBuffer<rabbitpp_ops::Candidate>(k + 1, s_);
    runs_ = DeviceBuffer<Index>(1, s_);
    dpos_ = DeviceBuffer<Index>(k + 1, s_);
    store_off_ = DeviceBuffer<Wide>(k + 1, s_);
    target_w_ = DeviceBuffer<Weight>(k, s_);
    action_ = DeviceBuffer<std::uint8_t>(k, s_);
    inner_ = DeviceBuffer<std::uint8_t>(k, s_);
    acc_[0] = DeviceBuffer<Key>(k, s_);
    acc_[1] = DeviceBuffer<Key>(k, s_);
    reserve_entries(static_cast<Index>(std::min<long long>(entry_capacity_, 8LL * slots_ + 1024)));
    arena_root_[0] = DeviceBuffer<Index>(static_cast<std::size_t>(arena_capacity_), s_);
    arena_w_[0] = DeviceBuffer<Weight>(static_cast<std::size_t>(arena_capacity_), s_);
    state_ = DeviceBuffer<rabbitpp_ops::RoundState>(1, s_);
    PGK_CUDA_CHECK(cudaMemsetAsync(state_.data(), 0, sizeof(rabbitpp_ops::RoundState), s_));
    PGK_CUDA_CHECK(
        cudaMemcpyAsync(strength_.data(), g.strength.data(), sizeof(Wide) * n, cudaMemcpyDeviceToDevice, s_));

    r_.n = n_, r_.batch = slots_, r_.total = g.total;
    r_.g_rowptr = g.rowptr.data(), r_.g_colidx = g.colidx.data(), r_.g_weight = g.weight.data(), r_.order = order;
    r_.root = root_.data(), r_.owner = owner_.data(), r_.slot = slot_.data(), r_.parent = parent_.data();
    r_.round = round_.data(), r_.seq = seq_.data(), r_.strength = strength_.data();
    r_.list_begin = list_begin_.data(), r_.list_len = list_len_.data(), r_.offset = offset_.data();
    r_.active = active_.data(), r_.target = target_.data(), r_.deferred_list = deferred_list_.data();
    r_.seg_begin = seg_begin_.data(), r_.dpos = dpos_.data(), r_.store_off = store_off_.data();
    r_.target_w = target_w_.data(), r_.action = action_.data(), r_.inner = inner_.data();
    r_.arena_root = arena_root_[0].data(), r_.arena_w = arena_w_[0].data(), r_.arena_capacity = arena_capacity_;
    r_.state = state_.data();
    launch(init_vertices_kernel, n_, s_, r_);
  }

  // The gathered-entry buffers hold at least `count` entries (grown by half again, up to the
  // bound nnz(G): a round usually gathers far fewer, so they are sized by the rounds seen).
  void reserve_entries(Index count) {
    if (count <= entry_reserved_) return;
    entry_reserved_ =
        static_cast<Index>(std::min<long long>(entry_capacity_, static_cast<long long>(count) + count / 2));
    const std::size_t entries = static_cast<std::size_t>(entry_reserved_);
    head_ = DeviceBuffer<Index>(entries, s_);
    for (int i = 0; i < 2; ++i) {
      keys_[i] = DeviceBuffer<Key>(entries, s_);
      vals_[i] = DeviceBuffer<Weight>(entries, s_);
    }
  }

  template <class F> void run_cub(F f) { temp_.run(f); }

  // Exclusive prefix sum of a[0, count) in place.
  template <class T> void exclusive_sum(T *a, Index count) {
    run_cub([&](void *t, std::size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, a, a, count, s_); });
  }

  // 1. The active set and the gather lengths; the round's one read.
  rabbitpp_ops::RoundState begin() {
    launch_one(begin_round_kernel, s_, r_);
    launch(fill_slot_kernel, slots_, s_, r_, slots_);
    launch(gather_length_kernel, n_ + 1, s_, r_);
    exclusive_sum(offset_.data(), n_ + 1);
    launch_one(record_gathered_kernel, s_, r_);
    const rabbitpp_ops::RoundState st = read_scalar(state_.data(), s_);
    if (st.error == 1) throw std::logic_error("rabbitpp gpu: the list arena overflowed (internal error)");
    if (st.error != 0) throw std::logic_error("rabbitpp gpu: the merges of a round formed a cycle (internal error)");
    if (st.gathered > entry_capacity_)
      throw std::logic_error("rabbitpp gpu: a round gathered " + std::to_string(st.gathered) +
                             " entries, more than G's " + std::to_string(entry_capacity_) + " (internal error)");
    return st;
  }

  // 2. L(v) of every slot: gathered entries keyed (slot, root), sorted, reduced; best targets.
  void aggregate(const rabbitpp_ops::RoundState &st) {
    const Index m = st.m, count = static_cast<Index>(st.gathered);
    reserve_entries(count);
    ukeys_ = keys_[0].data();
    usums_ = vals_[0].data();
    if (count > 0) {
      Index *head = head_.data();
      PGK_CUDA_CHECK(cudaMemsetAsync(head, 0xff, sizeof(Index) * count, s_));
      launch(mark_head_kernel, n_, s_, r_, head);
      run_cub([&](void *t, std::size_t &b) {
        return cub::DeviceScan::InclusiveScan(t, b, head, head, ::cuda::maximum<Index>{}, count, s_);
      });
      launch(expand_kernel, count, s_, r_, head, keys_[0].data(), vals_[0].data(), count, m, rbits_);
      cub::DoubleBuffer<Key> keys(keys_[0].data(), keys_[1].data());
      cub::DoubleBuffer<Weight> vals(vals_[0].data(), vals_[1].data());
      const int end_bit = bits_for(static_cast<unsigned long long>(m)) + rbits_; // slot m: the sentinel
      run_cub([&](void *t, std::size_t &b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys, vals, count, 0, end_bit, s_);
      });
      ukeys_ = keys.Alternate();
      usums_ = vals.Alternate();
      const Key *sorted_keys = keys.Current();
      const Weight *sorted_vals = vals.Current();
      long long *runs = &state_.data()->unique;
      Key *uk = ukeys_;
      Weight *us = usums_;
      run_cub([&](void *t, std::size_t &b) {
        return cub::DeviceReduce::ReduceByKey(t, b, sorted_keys, uk, sorted_vals, us, runs, ::cuda::std::plus<Weight>{},
                                              count, s_);
      });
    }
    launch(segment_kernel, m + 1, s_, r_, ukeys_, m, rbits_);
    best_targets(m, count);
  }

  // Every slot's best target: one reduce-by-key on the slot over all reduced entries under
  // BetterOf (batch_ops.hpp), so a hub's long list spreads over the GPU; at most m + 1 runs.
  void best_targets(Index m, Index count) {
    launch(clear_target_kernel, m, s_, r_, m);
    if (count == 0) return;
    const thrust::counting_iterator<Index> place(0);
    const auto slot_in = thrust::make_transform_iterator(place, rabbitpp_ops::EntrySlot{ukeys_, r_.state, rbits_, m});
    const auto best_in =
        thrust::make_transform_iterator(place, rabbitpp_ops::EntryCandidate{r_, ukeys_, usums_, rbits_, m});
    Index *run_slot = run_slot_.data(), *runs = runs_.data();
    rabbitpp_ops::Candidate *run_best = run_best_.data();
    run_cub([&](void *t, std::size_t &b) {
      return cub::DeviceReduce::ReduceByKey(t, b, slot_in, run_slot, best_in, run_best, runs, rabbitpp_ops::BetterOf{},
                                            count, s_);
    });
    launch(scatter_target_kernel, m + 1, s_, r_, run_slot, run_best, runs, m);
  }

  // 3. Actions, then the per-target acceptance on the slots sorted by (target, slot).
  void decide(Index m) {
    launch(decide_kernel, m, s_, r_, m);
    const int sbits = bits_for(static_cast<unsigned long long>(m - 1));
    const int end_bit = bits_for(static_cast<unsigned long long>(n_)) + sbits; // target n: not a merge
    launch(acceptance_key_kernel, m, s_, r_, acc_[0].data(), m, sbits);
    cub::DoubleBuffer<Key> keys(acc_[0].data(), acc_[1].data());
    run_cub([&](void *t, std::size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, keys, m, 0, end_bit, s_); });
    launch_warps(accept_kernel, m, s_, r_, keys.Current(), m, sbits);
  }

  // 4. The lists of the merged vertices that had members, into the arena (compacted first when
  // this round's entries might not fit behind the used part).
  void store(const rabbitpp_ops::RoundState &st) {
    const Index m = st.m, count = static_cast<Index>(st.gathered);
    launch(store_length_kernel, m + 1, s_, r_, m);
    exclusive_sum(store_off_.data(), m + 1);
    if (st.arena_top + st.gathered > arena_capacity_) compact();
    if (count > 0) launch(store_entry_kernel, count, s_, r_, ukeys_, usums_, count, m, rbits_);
    launch(store_meta_kernel, m, s_, r_, m);
    launch_one(end_store_kernel, s_, r_, m);
  }

  // The live lists (owner unprocessed after this round's decisions) into the other arena.
  void compact() {
    mark(kCompactStart);
    compacted_ = true;
    const int other = 1 - arena_;
    if (arena_root_[other].size() == 0) {
      arena_root_[other] = DeviceBuffer<Index>(static_cast<std::size_t>(arena_capacity_), s_);
      arena_w_[other] = DeviceBuffer<Weight>(static_cast<std::size_t>(arena_capacity_), s_);
    }
    Index *offset = offset_.data(); // free: the gathered entries are built
    launch(compact_length_kernel, n_ + 1, s_, r_, offset);
    exclusive_sum(offset, n_ + 1);
    launch_warps(compact_copy_kernel, n_, s_, r_, offset, arena_root_[other].data(), arena_w_[other].data());
    launch(compact_meta_kernel, n_, s_, r_, offset);
    launch_one(end_compact_kernel, s_, r_, offset);
    arena_ = other;
    r_.arena_root = arena_root_[other].data();
    r_.arena_w = arena_w_[other].data();
    ++compactions_;
    mark(kCompactEnd);
  }

  // 5. Final roots, parents, strengths, owners, moved roots, the deferred list.
  void apply(Index m, Index round) {
    launch(chain_init_kernel, m, s_, r_, next_[0].data(), final_[0].data(), m);
    const int steps = ceil_log2(m);
    for (int t = 0; t < steps; ++t) {
      const int a = t % 2, b = 1 - a;
      launch(chain_jump_kernel, m, s_, next_[a].data(), final_[a].data(), next_[b].data(), final_[b].data(), m);
    }
    const Index *next = next_[steps % 2].data(), *final_root = final_[steps % 2].data();
    launch(apply_merge_kernel, m, s_, r_, next, final_root, m);
    launch(move_root_kernel, n_, s_, r_, final_root);
    launch(defer_flag_kernel, m + 1, s_, r_, m);
    exclusive_sum(dpos_.data(), m + 1);
    launch(finish_slot_kernel, m, s_, r_, round, m);
    launch_one(end_round_kernel, s_, r_);
  }

  const Index n_, slots_;
  CubTemp &temp_;
  const cudaStream_t s_;
  int rbits_ = 0, arena_ = 0;
  Index entry_capacity_ = 0, entry_reserved_ = 0, compactions_ = 0;
  long long arena_capacity_ = 0;
  rabbitpp_ops::Rounds r_;
  DeviceBuffer<Index> root_, owner_, slot_, parent_, round_, seq_, list_len_, offset_;
  DeviceBuffer<Wide> strength_, list_begin_, store_off_;
  DeviceBuffer<Index> active_, target_, deferred_list_, seg_begin_, dpos_, next_[2], final_[2];
  DeviceBuffer<Weight> target_w_;
  DeviceBuffer<std::uint8_t> action_, inner_;
  DeviceBuffer<Key> acc_[2], keys_[2];
  DeviceBuffer<Index> head_, run_slot_, runs_; // best targets: the reduction's runs
  DeviceBuffer<rabbitpp_ops::Candidate> run_best_;
  DeviceBuffer<Weight> vals_[2];
  DeviceBuffer<Index> arena_root_[2];
  DeviceBuffer<Weight> arena_w_[2];
  DeviceBuffer<rabbitpp_ops::RoundState> state_;
  Key *ukeys_ = nullptr;
  Weight *usums_ = nullptr;
  std::unique_ptr<EventTimer> timer_; // timed rounds only
  double step_ms_[6] = {0, 0, 0, 0, 0, 0};
  bool compacted_ = false;
};

} // namespace

void detect_communities_device(const DeviceGraph &g, Index batch, long long arena_capacity, DeviceDendrogram &d,
                               CubTemp &temp, bool time_steps) {
  DeviceRounds rounds(g, d.order.data(), std::max<Index>(1, batch), arena_capacity, temp, time_steps);
  rounds.run(d);
}

} // namespace pgk::cuda::rabbitpp_detail
