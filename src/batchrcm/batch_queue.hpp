// The ring of batch records behind the multicore batch RCM (internal to batch_worker.cpp and batch.cpp).
//
// Batch b lives in slot b % S. Three parties write a slot: the predecessor b-1 (signal and the
// Counted payload), the batch that generated b (its parent range, then `published`), and
// nobody else. Every atomic value carries the batch id it belongs to, so a value left over
// from the slot's previous occupant b-S can never be mistaken for one meant for b, and no slot
// ever needs resetting.
//
// Reuse: `free_for` names the id that may use the slot next. Batch b-S sets it to b when it
// retires (it reads its own slot until then, and its predecessor's last write to it, the
// Completed signal, precedes that). Anyone about to write slot b first checks free_for == b.
#pragma once

#include "src/common/csr.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace pgk::rcm::detail {

using BatchId = std::uint64_t;
inline constexpr BatchId kNoBatch = ~BatchId{0};

// The signal from batch b-1 to batch b, in increasing strength (paper Alg. 5).
enum Signal : unsigned {
  kEmpty = 0,
  kDiscovered = 1, // every batch before b has finished marking
  kCounted = 2,    // b's output offset, followup id and incoming overhang are known
  kCompleted = 3,  // besides, every overhang chained into b is written to the permutation
};

struct alignas(64) Slot {
  std::atomic<BatchId> signal{kNoBatch};    // (b << 2) | Signal, release by the writer
  std::atomic<BatchId> published{kNoBatch}; // b once in_begin/in_end are written
  std::atomic<BatchId> free_for{kNoBatch};
  // Counted payload, written by b-1 before it releases kCounted or kCompleted.
  Index offset = 0;        // where b's children go in the permutation
  BatchId followup = 0;    // queue id of the first batch b generates
  Index combine_nodes = 0; // overhang: vertices just before `offset` that b must batch
  std::uint64_t combine_weight = 0;
  // Parent range in the permutation, written by b's generator before `published`.
  Index in_begin = 0;
  Index in_end = 0;
};

class Ring {
public:
  explicit Ring(BatchId slots) : size_(slots), slots_(new Slot[slots]) {
    for (BatchId i = 0; i < slots; ++i) slots_[i].free_for.store(i, std::memory_order_relaxed);
  }
  BatchId size() const { return size_; }
  Slot &operator[](BatchId id) { return slots_[id % size_]; }

  // The signal batch `id` has received (kEmpty if none yet).
  unsigned signal_of(BatchId id) {
    const BatchId v = (*this)[id].signal.load(std::memory_order_acquire);
    return (v >> 2) == id ? static_cast<unsigned>(v & 3u) : kEmpty;
  }
  void send_signal(BatchId to, unsigned s) { (*this)[to].signal.store((to << 2) | s, std::memory_order_release); }
  bool is_published(BatchId id) { return (*this)[id].published.load(std::memory_order_acquire) == id; }
  void publish(BatchId id, Index begin, Index end) {
    Slot &s = (*this)[id];
    s.in_begin = begin;
    s.in_end = end;
    s.published.store(id, std::memory_order_release);
  }
  bool is_free_for(BatchId id) { return (*this)[id].free_for.load(std::memory_order_acquire) == id; }
  void retire(BatchId id) { (*this)[id].free_for.store(id + size_, std::memory_order_release); }

private:
  BatchId size_;
  std::unique_ptr<Slot[]> slots_;
};

} // namespace pgk::rcm::detail
