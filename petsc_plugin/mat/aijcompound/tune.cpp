// Mat aijcompound: choosing the product layout x schedule on the device (issue 10, item 5). The
// plan and the cache format are src/aijcompound/tune.hpp; this file times the candidates with CUDA
// events on the device copy, reads the options and keeps the cache file.
//
// Options (A's prefix): -mat_aijcompound_tune none|schedule|joint (joint), -mat_aijcompound_tune_cache
// <file> (default $XDG_CACHE_HOME or ~/.cache, /petscgpukit/aijcompound-tune.txt; "none": no cache),
// -mat_aijcompound_max_mem_ratio <2.0>, and to force parts of the variant -mat_aijcompound_outer
// csr|ell|si16|si32 (+SYM: csrsym|ellsym|si16sym|si32sym), -mat_aijcompound_inner aos|soa,
// -mat_aijcompound_schedule static|dynamic|group with -mat_aijcompound_threads,
// -mat_aijcompound_blocks_per_sm, -mat_aijcompound_group.
//
// +SYM (src/aijcompound/layouts.hpp: the lower entries through their upper partners, about half
// the values a product reads) is a candidate when -mat_aijcompound_symmetric_layout is true, by
// default when A is known symmetric (MatSetOption(A, MAT_SYMMETRIC or MAT_SPD, PETSC_TRUE)), and
// the matrix is: a symmetric pattern (host) and symmetric values (device check). Every change of
// values re-checks them; values no longer symmetric send the product to the same variant without
// +SYM (PetscInfo says so). +SYM forced on a matrix that is not symmetric runs without it.
#include "petsc_plugin/mat/aijcompound/device.hpp"
#include "src/aijcompound/symmetric.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <unistd.h>

#define Data MatAIJCompoundData

PetscLogEvent MAT_AIJCompoundTune = 0;

#if defined(PGK_HAVE_CUDA)

static const char *const  TuneModes[]  = {"none", "schedule", "joint", "MatAIJCompoundTuneMode", "MAT_AIJCOMPOUND_TUNE_", NULL};
static const char *const  OuterNames[] = {"auto", "csr", "ell", "si16", "si32", "csrsym", "ellsym", "si16sym", "si32sym", "MatAIJCompoundOuter", "MAT_AIJCOMPOUND_OUTER_", NULL};
static constexpr PetscInt kOuterPlain  = 4; // OuterNames 1..4: the plain layouts, 5..8 the same +SYM
static const char *const  InnerNames[] = {"auto", "aos", "soa", "MatAIJCompoundInner", "MAT_AIJCOMPOUND_INNER_", NULL};
static const char *const  SchedNames[] = {"auto", "static", "dynamic", "group", "MatAIJCompoundSchedule", "MAT_AIJCOMPOUND_SCHEDULE_", NULL};

struct TuneOptions {
  PetscInt    mode = 2, outer = 0, inner = 0, schedule = 0, threads = 256, bpsm = 8, group = 0;
  PetscReal   max_mem_ratio    = 2.0;
  PetscBool   symmetric_layout = PETSC_FALSE; // default: A known symmetric
  std::string cache;
  bool        forced_sym() const { return outer > kOuterPlain; }
  bool        forced() const { return outer || inner || schedule; }
};

static std::string DefaultCachePath()
{
  const char       *xdg = std::getenv("XDG_CACHE_HOME"), *home = std::getenv("HOME");
  const std::string base = xdg && *xdg ? xdg : std::string(home && *home ? home : "/tmp") + "/.cache";
  return base + "/petscgpukit/aijcompound-tune.txt";
}

static PetscErrorCode ReadTuneOptions(Mat A, TuneOptions *o)
{
  char      path[PETSC_MAX_PATH_LEN] = "";
  PetscBool set = PETSC_FALSE, flg = PETSC_FALSE, spd_set = PETSC_FALSE, spd = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatIsSymmetricKnown(A, &set, &flg));
  PetscCall(MatIsSPDKnown(A, &spd_set, &spd));
  o->symmetric_layout = (PetscBool)((set && flg) || (spd_set && spd));
  PetscOptionsBegin(PETSC_COMM_SELF, ((PetscObject)A)->prefix, "Mat aijcompound device options", "Mat");
  PetscCall(PetscOptionsEList("-mat_aijcompound_tune", "layout x schedule search at the first device MatMult", "MatAIJCompoundTune", TuneModes, 3, TuneModes[o->mode], &o->mode, NULL));
  PetscCall(PetscOptionsString("-mat_aijcompound_tune_cache", "file of tuned winners (none: no cache)", "MatAIJCompoundTune", "", path, sizeof(path), NULL));
  PetscCall(PetscOptionsReal("-mat_aijcompound_max_mem_ratio", "padded layouts above this multiple of the CSR bytes are not used", "MatAIJCompoundTune", o->max_mem_ratio, &o->max_mem_ratio, NULL));
  PetscCall(PetscOptionsBool("-mat_aijcompound_symmetric_layout", "+SYM layouts are candidates (the values are checked on the device) (default: A known symmetric)", "MatAIJCompoundTune", o->symmetric_layout, &o->symmetric_layout, NULL));
  PetscCall(PetscOptionsEList("-mat_aijcompound_outer", "outer layout", "MatAIJCompoundTune", OuterNames, 9, OuterNames[0], &o->outer, NULL));
  PetscCall(PetscOptionsEList("-mat_aijcompound_inner", "inner layout", "MatAIJCompoundTune", InnerNames, 3, InnerNames[0], &o->inner, NULL));
  PetscCall(PetscOptionsEList("-mat_aijcompound_schedule", "rows to threads", "MatAIJCompoundTune", SchedNames, 4, SchedNames[0], &o->schedule, NULL));
  PetscCall(PetscOptionsInt("-mat_aijcompound_threads", "threads per block (forced schedule)", "MatAIJCompoundTune", o->threads, &o->threads, NULL));
  PetscCall(PetscOptionsInt("-mat_aijcompound_blocks_per_sm", "blocks per SM (forced schedule)", "MatAIJCompoundTune", o->bpsm, &o->bpsm, NULL));
  PetscCall(PetscOptionsInt("-mat_aijcompound_group", "threads per row of the group schedule (0: from the mean row)", "MatAIJCompoundTune", o->group, &o->group, NULL));
  PetscOptionsEnd();
  o->cache = path[0] ? path : DefaultCachePath();
  if (o->cache == "none") o->cache.clear();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// The default variant with the forced parts of the options applied.
static ac::Variant ForcedVariant(const ac::CompoundCsr &c, const TuneOptions &o, bool symmetric)
{
  ac::Variant v = ac::default_variant(c, o.max_mem_ratio);
  if (o.outer) {
    v.outer     = (ac::Outer)((o.outer - 1) % kOuterPlain);
    v.symmetric = o.forced_sym() && symmetric;
  }
  if (o.inner) v.inner = (ac::Inner)(o.inner - 1);
  if (o.schedule) {
    v.schedule      = (ac::ScheduleKind)(o.schedule - 1);
    v.threads       = (int)o.threads;
    v.blocks_per_sm = (int)o.bpsm;
    v.group         = v.schedule == ac::ScheduleKind::group_rows ? (o.group ? (int)o.group : ac::group_for(ac::pattern_stats(c).mean_row)) : 1;
  }
  return v;
}

// Packs the pattern of layout (outer, inner) of A on the host, uploads it and fills the values from
// the device copy (the host's may be stale, so they are neither packed nor uploaded): 3 logged
// uploads (+SYM: 5). The search packs up to a dozen layouts, so the host passes (proportional to the
// stored blocks) run on this rank's share of the node's cores. sym: the +SYM form from A's
// symmetric-pattern arrays, found once per choice (SymmetricLayoutAllowed); null: without +SYM.
static PetscErrorCode PackLayout(Mat A, ac::Outer outer, ac::Inner inner, const ac::SymmetricPattern *sym, kc::DevicePacked *p, void *stream)
{
  Mat_SeqAIJCompound *d = Data(A);

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    std::vector<pgk::Index> slots;
    const int               threads = (int)PgkNodeThreadShare();
    p->upload_pattern(sym ? ac::pack_pattern(d->c, outer, inner, &slots, threads, *sym) : ac::pack_pattern(d->c, outer, inner, &slots, threads), stream);
    p->set_value_slots(slots, stream);
    p->repack(d->dev->master.values.data(), stream);
  });
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether +SYM may be used: asked for (options or A's symmetry flag), a symmetric pattern (host;
// its arrays into *sym, which every +SYM packing of this choice reuses) and symmetric values (the
// device copy's, checked on a CSR+SYM packing: 5 uploads, 1 download).
static PetscErrorCode SymmetricLayoutAllowed(Mat A, const TuneOptions &o, void *stream, ac::SymmetricPattern *sym, bool *allowed)
{
  const ac::CompoundCsr &c       = Data(A)->c;
  bool                   pattern = false;

  PetscFunctionBegin;
  *allowed = false;
  if (!o.symmetric_layout || c.nnzb() == 0 || (o.outer && !o.forced_sym())) PetscFunctionReturn(PETSC_SUCCESS);
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, pattern = ac::symmetric_pattern(c, &sym->diag, &sym->partner, (int)PgkNodeThreadShare()));
  if (pattern) {
    kc::DevicePacked p;
    PetscCall(PackLayout(A, ac::Outer::csr, ac::Inner::aos, sym, &p, stream));
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, *allowed = p.values_symmetric(stream));
  }
  PetscCall(PetscInfo(A, "aijcompound: +SYM layouts %s\n", *allowed ? "allowed" : pattern ? "not used: the values are not symmetric" : "not used: the pattern is not symmetric"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static std::string GpuName()
{
  std::string s = pgk::cuda::current_device_description();
  return s.substr(0, s.find(" ("));
}

// The cache file's entries; a missing file is empty, a damaged one is ignored with a warning.
static PetscErrorCode LoadCache(const std::string &path, std::map<ac::TuneKey, ac::TuneResult> *entries)
{
  PetscFunctionBegin;
  std::ifstream in(path);
  if (!in) PetscFunctionReturn(PETSC_SUCCESS);
  std::stringstream text;
  text << in.rdbuf();
  const std::string why = ac::parse_cache(text.str(), *entries);
  if (!why.empty()) {
    entries->clear();
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "WARNING: aijcompound: tuning cache %s ignored (%s); it is rewritten after the next tuning\n", path.c_str(), why.c_str()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Adds one winner: the file is re-read (other programs may have added entries), then replaced
// atomically (a temporary file renamed over it). Failure to write is a PetscInfo line, not an error.
static PetscErrorCode SaveCache(Mat A, const std::string &path, const ac::TuneKey &key, const ac::TuneResult &r)
{
  std::map<ac::TuneKey, ac::TuneResult> entries;

  PetscFunctionBegin;
  PetscCall(LoadCache(path, &entries));
  entries[key] = r;
  std::error_code   ec;
  const std::string tmp = path + ".tmp." + std::to_string((long)getpid());
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  {
    std::ofstream out(tmp);
    out << ac::format_cache(entries);
    if (!out) ec = std::make_error_code(std::errc::io_error);
  }
  if (!ec) std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    PetscCall(PetscInfo(A, "aijcompound: could not write the tuning cache %s\n", path.c_str()));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct Timed {
  ac::Variant v;
  double      ms;
};

// Device time of one timed product without the host's launch latency (hold_stream): the
// candidates differ by a few percent, a 5-10 us launch gap is a sixth of a product.
static constexpr double kLaunchCoverUs = 20;

// Median of `runs` timed products of one packed layout with variant v (after one warm-up when
// warm_up); *products counts every product.
static PetscErrorCode TimeVariant(const kc::DevicePacked &p, const ac::Variant &v, const double *x, double *y, int runs, bool warm_up, void *stream, int *products, double *ms)
{
  std::vector<double> t;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    const kc::LaunchShape shape = kc::shape_of(v);
    pgk::cuda::EventTimer timer(2);
    if (warm_up) p.mult(shape, x, nullptr, y, stream), ++*products;
    for (int r = 0; r < runs; ++r) {
      pgk::cuda::hold_stream(stream, kLaunchCoverUs); // time the product, not its launch
      timer.record(0, stream);
      p.mult(shape, x, nullptr, y, stream);
      timer.record(1, stream);
      t.push_back(timer.ms(0, 1));
      ++*products;
    }
  });
  std::sort(t.begin(), t.end());
  *ms = t[t.size() / 2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Times every variant of `list` (grouped by layout, each layout packed once) into `out`.
static PetscErrorCode TimeList(Mat A, const std::vector<ac::Variant> &list, const ac::SymmetricPattern *sym, const double *x, double *y, int runs, bool warm_up, void *stream, int *products, std::vector<Timed> *out)
{
  std::vector<ac::Variant> todo = list;

  PetscFunctionBegin;
  auto layout_of = [](const ac::Variant &v) { return std::tuple(v.outer, v.inner, v.symmetric); };
  std::stable_sort(todo.begin(), todo.end(), [&](const ac::Variant &a, const ac::Variant &b) { return layout_of(a) < layout_of(b); });
  kc::DevicePacked p;
  for (size_t i = 0; i < todo.size(); ++i) {
    if (i == 0 || layout_of(todo[i]) != layout_of(todo[i - 1])) PetscCall(PackLayout(A, todo[i].outer, todo[i].inner, todo[i].symmetric ? sym : nullptr, &p, stream));
    double ms;
    PetscCall(TimeVariant(p, todo[i], x, y, runs, warm_up, stream, products, &ms));
    out->push_back({todo[i], ms});
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void SortByTime(std::vector<Timed> &t)
{
  std::stable_sort(t.begin(), t.end(), [](const Timed &a, const Timed &b) { return a.ms < b.ms; });
}

// The search of src/aijcompound/tune.hpp: layouts (joint only), schedules of the two best
// layouts, confirmation of the three best. Returns the winner and its median time. sym: A's
// symmetric-pattern arrays when +SYM is allowed (its layouts are then candidates), else null.
static PetscErrorCode Search(Mat A, const TuneOptions &o, const ac::SymmetricPattern *sym, const ac::Variant &start, void *stream, Timed *best, int *products)
{
  const ac::CompoundCsr          &c = Data(A)->c;
  std::vector<Timed>              all;
  std::vector<ac::Variant>        stage2;
  pgk::cuda::DeviceBuffer<double> x, y;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, {
    const std::vector<double> ones((size_t)c.nbcols * c.bs, 1.0);
    x.allocate(std::max<size_t>(ones.size(), 1));
    y.allocate(std::max<size_t>((size_t)c.nbrows * c.bs, 1));
    pgk::cuda::copy_to_device(x.data(), ones.data(), ones.size() * sizeof(double), stream);
  });
  std::vector<std::tuple<ac::Outer, ac::Inner, bool>> layouts{{start.outer, start.inner, start.symmetric}};
  if (o.mode == 2) {
    std::vector<ac::Variant> candidates = ac::layout_candidates(c, o.max_mem_ratio, sym != nullptr);
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(), [&](const ac::Variant &v) { return (o.outer && (v.outer != start.outer || v.symmetric != start.symmetric)) || (o.inner && v.inner != start.inner); }),
                     candidates.end()); // forced parts stay
    if (candidates.empty()) candidates.push_back(start);
    PetscCall(TimeList(A, candidates, sym, x.data(), y.data(), ac::kTunedRuns, true, stream, products, &all));
    SortByTime(all);
    layouts.clear();
    for (const Timed &t : all)
      if (layouts.size() < 2 && std::find(layouts.begin(), layouts.end(), std::tuple(t.v.outer, t.v.inner, t.v.symmetric)) == layouts.end()) layouts.push_back({t.v.outer, t.v.inner, t.v.symmetric});
  }
  for (auto [outer, inner, sym] : layouts)
    for (const ac::Variant &v : ac::schedule_grid(outer, inner, sym))
      if (std::none_of(all.begin(), all.end(), [&](const Timed &t) { return t.v == v; })) stage2.push_back(v);
  PetscCall(TimeList(A, stage2, sym, x.data(), y.data(), ac::kTunedRuns, true, stream, products, &all));
  SortByTime(all);
  std::vector<ac::Variant> finalists;
  for (size_t i = 0; i < all.size() && (int)i < ac::kFinalists; ++i) finalists.push_back(all[i].v);
  std::vector<Timed> confirmed;
  PetscCall(TimeList(A, finalists, sym, x.data(), y.data(), ac::kConfirmRuns, false, stream, products, &confirmed));
  SortByTime(confirmed);
  *best = confirmed.front();
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Chooses the variant of A's device copy (options, cache, or search) and packs it.
static PetscErrorCode Choose(Mat A, void *stream)
{
  Mat_SeqAIJCompound   *d   = Data(A);
  MatAIJCompoundDevice *dev = d->dev.get();
  TuneOptions           o;

  PetscFunctionBegin;
  bool                 symmetric = false;
  ac::SymmetricPattern sym; // the pattern arrays of every +SYM packing below
  PetscCall(ReadTuneOptions(A, &o));
  PetscCall(SymmetricLayoutAllowed(A, o, stream, &sym, &symmetric));
  const bool sym_refused = o.forced_sym() && !symmetric;
  if (sym_refused) PetscCall(PetscInfo(A, "aijcompound: -mat_aijcompound_outer %s, but the matrix is not symmetric (or -mat_aijcompound_symmetric_layout is false): without +SYM\n", OuterNames[o.outer]));
  dev->variant         = ForcedVariant(d->c, o, symmetric);
  dev->source          = sym_refused ? "forced, not symmetric" : o.forced() ? "forced" : "default";
  dev->gbs             = 0;
  dev->tuned_products  = 0;
  const bool  search   = o.mode > 0 && d->c.nnzb() > 0 && !(o.outer && o.inner && o.schedule);
  double      tuned_ms = 0; // > 0: a search ran; its rate is known once the winner is packed
  ac::TuneKey key;
  if (search) {
    std::map<ac::TuneKey, ac::TuneResult> cache;
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, key = ac::make_key(GpuName(), kc::sm_count(), d->c, symmetric));
    if (!o.cache.empty() && !o.forced() && !dev->force_search) PetscCall(LoadCache(o.cache, &cache));
    const auto hit = cache.find(key);
    if (hit != cache.end() && (o.mode == 2 || (hit->second.variant.outer == dev->variant.outer && hit->second.variant.inner == dev->variant.inner && hit->second.variant.symmetric == dev->variant.symmetric))) {
      dev->variant = hit->second.variant;
      dev->gbs     = hit->second.gbs;
      dev->source  = "cache";
      PetscCall(PetscInfo(A, "aijcompound: %s from the tuning cache %s\n", ac::describe(dev->variant).c_str(), o.cache.c_str()));
    } else {
      Timed best{dev->variant, 0.0};
      PetscCall(PetscLogEventBegin(MAT_AIJCompoundTune, A, 0, 0, 0));
      PetscCall(Search(A, o, symmetric ? &sym : nullptr, dev->variant, stream, &best, &dev->tuned_products));
      PetscCall(PetscLogEventEnd(MAT_AIJCompoundTune, A, 0, 0, 0));
      dev->variant = best.v;
      dev->source  = "tuned";
      tuned_ms     = best.ms;
    }
  }
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, kc::check_shape(kc::shape_of(dev->variant)));
  dev->shape = kc::shape_of(dev->variant);
  PetscCall(PackLayout(A, dev->variant.outer, dev->variant.inner, dev->variant.symmetric ? &sym : nullptr, &dev->packed, stream));
  if (tuned_ms > 0) { // the winner's bytes from its packed copy (no second pack and upload to count them)
    const double bytes = (double)dev->packed.bytes() + 8.0 * d->c.bs * ((double)d->c.nbrows + (double)d->c.nbcols);
    dev->gbs           = bytes / (tuned_ms * 1e-3) / 1e9;
    PetscCall(PetscInfo(A, "aijcompound: tuned %s, %.1f GB/s, %d products (-mat_aijcompound_tune %s)\n", ac::describe(dev->variant).c_str(), dev->gbs, dev->tuned_products, TuneModes[o.mode]));
    if (!o.cache.empty() && !o.forced()) PetscCall(SaveCache(A, o.cache, key, {dev->variant, dev->gbs}));
  }
  dev->packed_stale = false;
  dev->chosen       = true;
  dev->force_search = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// New values in a +SYM packing: checked (1 download); no longer symmetric, the product keeps its
// layout and schedule without +SYM.
static PetscErrorCode RecheckSymmetric(Mat A, void *stream)
{
  MatAIJCompoundDevice *dev = Data(A)->dev.get();
  bool                  ok  = true;

  PetscFunctionBegin;
  PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, ok = dev->packed.values_symmetric(stream));
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(A, "aijcompound: the new values are not symmetric; the product leaves +SYM\n"));
  dev->variant.symmetric = false;
  dev->source            = "values no longer symmetric";
  dev->gbs               = 0;
  PetscCall(PackLayout(A, dev->variant.outer, dev->variant.inner, nullptr, &dev->packed, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundDevicePrepareProduct(Mat A, void *stream)
{
  MatAIJCompoundDevice *dev = Data(A)->dev.get();

  PetscFunctionBegin;
  if (!dev->chosen) PetscCall(Choose(A, stream));
  else if (dev->packed_stale) {
    PgkCallCxx(PETSC_COMM_SELF, PETSC_ERR_LIB, dev->packed.repack(dev->master.values.data(), stream));
    if (dev->variant.symmetric) PetscCall(RecheckSymmetric(A, stream));
  }
  dev->packed_stale = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else
PetscErrorCode MatAIJCompoundDevicePrepareProduct(Mat, void *)
{
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "aijcompound: this petscgpukit was built without its CUDA kernels");
}
#endif

PetscErrorCode MatAIJCompoundDeviceView(Mat A, PetscViewer viewer)
{
#if !defined(PGK_HAVE_CUDA)
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "device: not used (built without the CUDA kernels)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
#else
  MatAIJCompoundDevice *dev = Data(A)->dev.get();

  PetscFunctionBegin;
  if (!dev || !dev->chosen) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "device: %s\n", MatAIJCompoundUseDevice(A) ? (dev ? "values on the device, product layout not chosen yet (first MatMult)" : "not used yet") : "not used (host path)"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "device layout %s (%s), %.1f MB%s", ac::describe(dev->variant).c_str(), dev->source.c_str(), dev->packed.bytes() / 1e6, dev->packed.column_offsets() ? ", columns as 16-bit offsets" : ""));
  if (dev->gbs > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", %.1f GB/s when tuned", dev->gbs));
  if (dev->tuned_products > 0) PetscCall(PetscViewerASCIIPrintf(viewer, " (search: %d products)", dev->tuned_products));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
#endif
}

PetscErrorCode MatAIJCompoundTune(Mat A)
{
  PetscBool is;
  void     *stream;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCOMPOUND, &is));
  if (!is) {
    Mat Ad = nullptr; // MPI: the diagonal block is the tuned one
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJCOMPOUND, &is));
    PetscCheck(is, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "MatAIJCompoundTune: not a Mat aijcompound (%s)", ((PetscObject)A)->type_name);
    PetscCall(MatGetDiagonalBlock(A, &Ad));
    PetscCall(MatAIJCompoundTune(Ad));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!MatAIJCompoundUseDevice(A)) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PGK_HAVE_CUDA)
  PetscCall(PgkGetDeviceStream(&stream));
  PetscCall(MatAIJCompoundDeviceEnsure(A, stream));
  Data(A)->dev->chosen       = false;
  Data(A)->dev->force_search = true; // an explicit request searches, whatever the cache holds
  PetscCall(MatAIJCompoundDevicePrepareProduct(A, stream));
#else
  (void)stream;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundGetTuning(Mat A, const char **variant, const char **source, PetscReal *gbs)
{
  static thread_local std::string text;
  PetscBool                       is;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCOMPOUND, &is));
  if (!is) {
    Mat Ad = nullptr;
    PetscCall(MatGetDiagonalBlock(A, &Ad));
    PetscCall(MatAIJCompoundGetTuning(Ad, variant, source, gbs));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  text = "host CSR";
  if (source) *source = "host";
  if (gbs) *gbs = 0;
#if defined(PGK_HAVE_CUDA)
  MatAIJCompoundDevice *dev = Data(A)->dev.get();
  if (dev && dev->chosen) {
    text = ac::describe(dev->variant);
    if (source) *source = dev->source.c_str();
    if (gbs) *gbs = dev->gbs;
  }
#endif
  if (variant) *variant = text.c_str();
  PetscFunctionReturn(PETSC_SUCCESS);
}
