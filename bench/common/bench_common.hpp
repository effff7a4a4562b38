// Benchmark harness shared by every program in bench/: repeated timings summarized as
// median/min/max, printed as a table row and appended as one JSON line to
// bench/results/<benchmark>.jsonl with the device and the commit.
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace pgk::bench {

struct Stats {
  double median = 0, min = 0, max = 0;
  int    runs = 0;
};

inline Stats summarize(std::vector<double> t)
{
  Stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  s.runs   = static_cast<int>(t.size());
  s.min    = t.front();
  s.max    = t.back();
  s.median = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return s;
}

// Runs `once` warmup times untimed, then `runs` times; `once` returns seconds.
inline Stats measure(int warmup, int runs, const std::function<double()> &once)
{
  for (int i = 0; i < warmup; ++i) once();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) t.push_back(once());
  return summarize(t);
}

struct Record {
  std::string benchmark, matrix, backend, metric = "seconds", device, commit, note;
  long long   n = 0, nnz = 0;
  Stats       stats;
  double      value_extra = 0; // e.g. GB/s or fraction of bandwidth (see note)
  std::string extra_name;
};

inline std::string json_escape(const std::string &s)
{
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}

// Appends one JSON line (creating the folder if needed); returns false if the file cannot be opened.
inline bool append_jsonl(const std::string &path, const Record &r)
{
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  FILE *f = std::fopen(path.c_str(), "a");
  if (!f) return false;
  std::fprintf(f,
               "{\"benchmark\":\"%s\",\"matrix\":\"%s\",\"n\":%lld,\"nnz\":%lld,\"backend\":\"%s\",\"metric\":\"%s\","
               "\"median\":%.9g,\"min\":%.9g,\"max\":%.9g,\"runs\":%d,\"%s\":%.6g,\"device\":\"%s\",\"commit\":\"%s\","
               "\"note\":\"%s\"}\n",
               json_escape(r.benchmark).c_str(), json_escape(r.matrix).c_str(), r.n, r.nnz, json_escape(r.backend).c_str(), json_escape(r.metric).c_str(), r.stats.median, r.stats.min, r.stats.max, r.stats.runs,
               r.extra_name.empty() ? "extra" : json_escape(r.extra_name).c_str(), r.value_extra, json_escape(r.device).c_str(), json_escape(r.commit).c_str(), json_escape(r.note).c_str());
  std::fclose(f);
  return true;
}

} // namespace pgk::bench
