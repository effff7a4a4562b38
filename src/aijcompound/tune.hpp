// The autotuner of Mat aijcompound (issue 10, item 5), host part: the variants (outer x inner
// layout x launch shape), the pruned joint search plan, and the cache file of winners. The timing
// itself is the caller's (the PETSc layer times the device product with CUDA events); this file
// decides what is timed and remembers what won, so it is testable without a device.
//
// Search (joint; at most kMaxTunedProducts products, warm-ups included):
//   stage 1, layouts: every outer layout within the memory cap x inner {AoS, SoA}, each with the
//     default thread schedule and one group schedule sized to the mean row length; for a matrix the
//     caller found symmetric (pattern and values) also ELL+SYM-AoS and SI-32+SYM-AoS, static;
//   stage 2, schedules: the two best layouts of stage 1 with the schedule grid of schedule_grid();
//   stage 3, confirmation: the three best variants timed again; the lowest median wins.
// `schedule` tuning runs stage 2 (and 3) on one given layout only.
//
// Determinism: the tuner chooses by measured time, so two runs may choose different variants; the
// variants with one thread per row give the same bits (src/aijcompound/README.md), a group schedule
// differs within 1e-13. The cache makes the second run of a program take the first run's choice.
#pragma once

#include "src/aijcompound/layouts.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pgk::aijcompound {

// The launch shapes of kernels/aijcompound/layouts.hpp (LaunchShape), described here without CUDA.
enum class ScheduleKind { static_rows, dynamic_rows, group_rows };
const char *schedule_kind_name(ScheduleKind kind);

struct Variant {
  Outer outer = Outer::csr;
  Inner inner = Inner::aos;
  ScheduleKind schedule = ScheduleKind::static_rows;
  int threads = 256, blocks_per_sm = 8, group = 1;
  bool symmetric = false; // the +SYM form of the outer layout (layouts.hpp)

  bool operator==(const Variant &o) const {
    return outer == o.outer && inner == o.inner && schedule == o.schedule && threads == o.threads &&
           blocks_per_sm == o.blocks_per_sm && group == o.group && symmetric == o.symmetric;
  }
  bool operator!=(const Variant &o) const { return !(*this == o); }
};
// "ELL-SoA static 256x8", "CSR-AoS group4 256x8", "SI-32+SYM-AoS static 256x8".
std::string describe(const Variant &v);

// Pattern statistics of a compound matrix (what the cache key and the heuristics read).
struct PatternStats {
  Index nbrows = 0, nnzb = 0, max_row = 0;
  double mean_row = 0;
};
PatternStats pattern_stats(const CompoundCsr &a);

// Threads per row for the group schedule: the power of two in 2..32 nearest to mean_row / 2.
int group_for(double mean_row);
// The variant used without tuning (-mat_aijcompound_tune none and no forced choice): ELL-AoS when
// within the memory cap, else SI-32, SI-16, CSR; static 256x8, or group_for() threads per row when
// the mean row is longer than 32 blocks.
Variant default_variant(const CompoundCsr &a, double max_mem_ratio);

// Outer layouts whose memory_ratio is <= max_mem_ratio (CSR always).
std::vector<Outer> allowed_outers(const CompoundCsr &a, double max_mem_ratio);
// Stage 1 candidates (joint): allowed outer x {AoS, SoA} x {static 256x8, group_for(mean_row)}; with
// `symmetric` (the caller checked pattern and values) also {ELL, SI-32} allowed +SYM, AoS, static
// 256x8 and 256x4 (which of 2048 or 1024 resident threads a SM serves +SYM depends on the entry).
std::vector<Variant> layout_candidates(const CompoundCsr &a, double max_mem_ratio, bool symmetric = false);
// Stage 2 candidates for one layout: static and dynamic over (threads, blocks_per_sm) pairs of
// 2048 or 1024 resident threads, and group 2..32 at 256x8.
std::vector<Variant> schedule_grid(Outer outer, Inner inner, bool symmetric = false);

constexpr int kTunedRuns = 3; // timed products per variant (after one warm-up)
constexpr int kMaxTunedProducts = 200;
// Products a full search costs (warm-ups included), for the <= kMaxTunedProducts budget: stage 1
// and stage 2 at (1 + kTunedRuns) products per variant, stage 3 at kConfirmRuns per finalist.
constexpr int kConfirmRuns = 5;
constexpr int kFinalists = 3;
int planned_products(std::size_t stage1, std::size_t stage2_per_layout, int layouts_in_stage2);

// The cache: one line per key. Key fields: GPU name (spaces as '_'), SM count, entry kind, bs,
// floor(log2(nbrows + 1)), mean row rounded to an integer, floor(log2(max_row + 1)), and whether
// +SYM was a candidate (written "+sym" after the kind): matrices of the same kind and shape class
// share a winner.
struct TuneKey {
  std::string gpu;
  int sms = 0;
  EntryKind kind = EntryKind::block;
  int bs = 2;
  int log2_rows = 0, mean_row = 0, log2_max_row = 0;
  bool symmetric = false;
  bool operator<(const TuneKey &o) const;
};
TuneKey make_key(const std::string &gpu, int sms, const CompoundCsr &a, bool symmetric = false);

struct TuneResult {
  Variant variant;
  double gbs = 0; // GB/s of the winner (matrix + vector bytes over its median time)
};

// The file format, version 1:
//   # petscgpukit aijcompound tuning cache v1
//   <gpu> <sms> <kind>[+sym] <bs> <log2_rows> <mean_row> <log2_max_row> <outer>[+SYM] <inner> <schedule> <threads>
//   <bpsm> <group> <gbs>
// parse_cache fills `entries` and returns "" or, for a file that does not start with the header or
// has a malformed line, a message naming the line: the caller then ignores the whole file (with a
// warning) and rewrites it on the next save. Later lines replace earlier ones with the same key.
std::string parse_cache(const std::string &text, std::map<TuneKey, TuneResult> &entries);
std::string format_cache(const std::map<TuneKey, TuneResult> &entries);

} // namespace pgk::aijcompound
