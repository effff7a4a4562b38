// The tuner's plan and cache (tune.hpp).
#include "src/aijcompound/tune.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

namespace pgk::aijcompound {

const char *schedule_kind_name(ScheduleKind kind) {
  switch (kind) {
  case ScheduleKind::static_rows: return "static";
  case ScheduleKind::dynamic_rows: return "dynamic";
  case ScheduleKind::group_rows: return "group";
  }
  return "?";
}

std::string describe(const Variant &v) {
  std::ostringstream s;
  s << outer_name(v.outer) << (v.symmetric ? "+SYM" : "") << '-' << inner_name(v.inner) << ' '
    << schedule_kind_name(v.schedule);
  if (v.schedule == ScheduleKind::group_rows) s << v.group;
  s << ' ' << v.threads << 'x' << v.blocks_per_sm;
  return s.str();
}

PatternStats pattern_stats(const CompoundCsr &a) {
  PatternStats st;
  st.nbrows = a.nbrows;
  st.nnzb = a.nnzb();
  for (Index r = 0; r < a.nbrows; ++r) st.max_row = std::max(st.max_row, a.rowptr[r + 1] - a.rowptr[r]);
  st.mean_row = a.nbrows > 0 ? static_cast<double>(st.nnzb) / static_cast<double>(a.nbrows) : 0.0;
  return st;
}

int group_for(double mean_row) {
  int g = 2;
  while (g < 32 && 2.0 * g * 1.5 <= mean_row) g *= 2; // nearest power of two to mean_row / 2
  return g;
}

std::vector<Outer> allowed_outers(const CompoundCsr &a, double max_mem_ratio) {
  std::vector<Outer> out{Outer::csr};
  for (Outer o : {Outer::ell, Outer::sliced16, Outer::sliced32})
    if (memory_ratio(a, o) <= max_mem_ratio) out.push_back(o);
  return out;
}

Variant default_variant(const CompoundCsr &a, double max_mem_ratio) {
  const std::vector<Outer> allowed = allowed_outers(a, max_mem_ratio);
  Variant v;
  for (Outer o : {Outer::ell, Outer::sliced32, Outer::sliced16, Outer::csr})
    if (std::find(allowed.begin(), allowed.end(), o) != allowed.end()) {
      v.outer = o;
      break;
    }
  const double mean = pattern_stats(a).mean_row;
  if (mean > 32) {
    v.schedule = ScheduleKind::group_rows;
    v.group = group_for(mean);
  }
  return v;
}

std::vector<Variant> layout_candidates(const CompoundCsr &a, double max_mem_ratio, bool symmetric) {
  std::vector<Variant> out;
  const int g = group_for(pattern_stats(a).mean_row);
  const std::vector<Outer> allowed = allowed_outers(a, max_mem_ratio);
  for (Outer o : allowed)
    for (Inner in : {Inner::aos, Inner::soa}) {
      Variant v;
      v.outer = o;
      v.inner = in;
      out.push_back(v);
      v.schedule = ScheduleKind::group_rows;
      v.group = g;
      out.push_back(v);
    }
  // +SYM where the partners of a warp's rows sit in consecutive slots (ELL, SI-32: a stencil's
  // neighbour rows are consecutive too), walked in mirrored pairs; on CSR its gathers lost to the
  // plain layouts (bench/NOTES.md).
  // AoS only: a partner's components are one 72-byte read there, nine scattered ones in SoA (which
  // lost on every matrix of bench_aijcompound at 91f0097); this also keeps the search within 200.
  // Each timed at 2048 and at 1024 resident threads a SM (static 256x8 and 256x4): the best shape
  // depends on the entry's registers. On an H200 (bench/NOTES.md, twelfth session) the 3x3 +SYM
  // kernels on vec3d27:n=80 ran 1.27-1.32x slower at every 2048-thread shape (SI-32+SYM 256x8 0.293
  // ms, 256x4 0.231), so a 256x8 screen dropped +SYM (tuned 1.14x the best fixed variant); the
  // complex ones on helmholtz2dc ran 1.3x slower at 1024 (ELL+SYM 256x4 0.0577 ms, 256x8 0.0440), so
  // a 256x4 screen dropped them there. The second shape costs nothing in all: stage 2 then has one
  // schedule fewer to time for a +SYM layout (199 products at most either way).
  if (symmetric)
    for (Outer o : {Outer::ell, Outer::sliced32})
      if (std::find(allowed.begin(), allowed.end(), o) != allowed.end())
        for (int bpsm : {8, 4}) {
          Variant v;
          v.outer = o;
          v.symmetric = true;
          v.blocks_per_sm = bpsm;
          out.push_back(v);
        }
  return out;
}

std::vector<Variant> schedule_grid(Outer outer, Inner inner, bool symmetric) {
  std::vector<Variant> out;
  auto add = [&](ScheduleKind s, int threads, int bpsm, int group) {
    Variant v;
    v.outer = outer;
    v.inner = inner;
    v.symmetric = symmetric;
    v.schedule = s;
    v.threads = threads;
    v.blocks_per_sm = bpsm;
    v.group = group;
    out.push_back(v);
  };
  // Resident threads per SM matter more than their split (the seed's observation): 2048 and 1024.
  for (auto [t, b] : {std::pair{128, 16}, {256, 8}, {512, 4}, {1024, 2}, {128, 8}, {256, 4}, {512, 2}, {1024, 1}})
    add(ScheduleKind::static_rows, t, b, 1);
  for (auto [t, b] : {std::pair{128, 16}, {256, 8}}) add(ScheduleKind::dynamic_rows, t, b, 1);
  for (int g : {2, 4, 8, 16, 32}) add(ScheduleKind::group_rows, 256, 8, g);
  return out;
}

int planned_products(std::size_t stage1, std::size_t stage2_per_layout, int layouts_in_stage2) {
  return static_cast<int>((stage1 + stage2_per_layout * layouts_in_stage2) * (1 + kTunedRuns)) +
         kFinalists * kConfirmRuns;
}

static int log2_floor(Index v) {
  int l = 0;
  while (v > 1) v >>= 1, ++l;
  return l;
}

bool TuneKey::operator<(const TuneKey &o) const {
  return std::tie(gpu, sms, kind, bs, log2_rows, mean_row, log2_max_row, symmetric) <
         std::tie(o.gpu, o.sms, o.kind, o.bs, o.log2_rows, o.mean_row, o.log2_max_row, o.symmetric);
}

TuneKey make_key(const std::string &gpu, int sms, const CompoundCsr &a, bool symmetric) {
  const PatternStats st = pattern_stats(a);
  TuneKey k;
  k.gpu = gpu.empty() ? "unknown" : gpu;
  std::replace_if(
      k.gpu.begin(), k.gpu.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; }, '_');
  k.sms = sms;
  k.kind = a.kind;
  k.bs = a.bs;
  k.log2_rows = log2_floor(st.nbrows + 1);
  k.mean_row = static_cast<int>(std::lround(st.mean_row));
  k.log2_max_row = log2_floor(st.max_row + 1);
  k.symmetric = symmetric;
  return k;
}

static const char *kHeader = "# petscgpukit aijcompound tuning cache v1";

template <class E>
static bool parse_name(const std::string &word, E &out, const char *(*name)(E), std::initializer_list<E> all) {
  for (E e : all)
    if (word == name(e)) {
      out = e;
      return true;
    }
  return false;
}

// One cache line into (key, result); false when malformed.
static bool parse_line(const std::string &line, TuneKey &k, TuneResult &r) {
  std::istringstream s(line);
  std::string kind, outer, inner, sched, extra;
  if (!(s >> k.gpu >> k.sms >> kind >> k.bs >> k.log2_rows >> k.mean_row >> k.log2_max_row >> outer >> inner >> sched >>
        r.variant.threads >> r.variant.blocks_per_sm >> r.variant.group >> r.gbs) ||
      (s >> extra))
    return false;
  // "+sym" after the kind, "+SYM" after the outer layout
  auto strip = [](std::string &word, const std::string &suffix) {
    const bool has =
        word.size() > suffix.size() && word.compare(word.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (has) word.resize(word.size() - suffix.size());
    return has;
  };
  k.symmetric = strip(kind, "+sym");
  r.variant.symmetric = strip(outer, "+SYM");
  if (r.variant.symmetric && !k.symmetric) return false; // +SYM wins only where the matrix was symmetric
  if (!parse_name(kind, k.kind, kind_name, {EntryKind::block, EntryKind::complex, EntryKind::quaternion}) ||
      !parse_name(outer, r.variant.outer, outer_name, {Outer::csr, Outer::ell, Outer::sliced16, Outer::sliced32}) ||
      !parse_name(inner, r.variant.inner, inner_name, {Inner::aos, Inner::soa}) ||
      !parse_name(sched, r.variant.schedule, schedule_kind_name,
                  {ScheduleKind::static_rows, ScheduleKind::dynamic_rows, ScheduleKind::group_rows}))
    return false;
  const Variant &v = r.variant;
  const bool group_ok = v.schedule == ScheduleKind::group_rows
                            ? (v.group >= 2 && v.group <= 32 && (v.group & (v.group - 1)) == 0)
                            : v.group == 1;
  return k.sms > 0 && k.bs >= 2 && k.bs <= 8 && v.threads >= 32 && v.threads <= 1024 && v.threads % 32 == 0 &&
         v.blocks_per_sm >= 1 && v.threads * v.blocks_per_sm <= 2048 && group_ok && std::isfinite(r.gbs) && r.gbs >= 0;
}

std::string parse_cache(const std::string &text, std::map<TuneKey, TuneResult> &entries) {
  std::istringstream in(text);
  std::string line;
  std::map<TuneKey, TuneResult> read;
  if (!std::getline(in, line) || line != kHeader) return "the first line is not \"" + std::string(kHeader) + "\"";
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    TuneKey k;
    TuneResult r;
    if (!parse_line(line, k, r))
      return "line " + std::to_string(number) + " is malformed: \"" + line.substr(0, 120) + "\"";
    read[k] = r;
  }
  for (auto &e : read) entries[e.first] = e.second;
  return "";
}

std::string format_cache(const std::map<TuneKey, TuneResult> &entries) {
  std::ostringstream s;
  s << kHeader << '\n';
  for (const auto &[k, r] : entries) {
    const Variant &v = r.variant;
    s << k.gpu << ' ' << k.sms << ' ' << kind_name(k.kind) << (k.symmetric ? "+sym" : "") << ' ' << k.bs << ' '
      << k.log2_rows << ' ' << k.mean_row << ' ' << k.log2_max_row << ' ' << outer_name(v.outer)
      << (v.symmetric ? "+SYM" : "") << ' ' << inner_name(v.inner) << ' ' << schedule_kind_name(v.schedule) << ' '
      << v.threads << ' ' << v.blocks_per_sm << ' ' << v.group << ' ' << r.gbs << '\n';
  }
  return s.str();
}

} // namespace pgk::aijcompound
