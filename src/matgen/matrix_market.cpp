#include "src/matgen/matrix_market.hpp"

#include "src/matgen/parse_number.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <istream>
#include <limits>
#include <string_view>

namespace pgk::mm {

ParseError::ParseError(const std::string &file, std::int64_t line, const std::string &reason)
    : std::runtime_error(line > 0 ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason),
      file_(file), line_(line), reason_(reason) {}

namespace {

constexpr std::int64_t kIndexMax = std::numeric_limits<Index>::max();
constexpr const char *kBannerForm = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Whitespace-separated words of a line: all are counted, the first kMax kept.
struct Words {
  static constexpr int kMax = 6;
  std::array<std::string_view, kMax> word;
  int count = 0;
};

Words split(std::string_view line) {
  Words w;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (w.count < Words::kMax) w.word[w.count] = line.substr(start, i - start);
    ++w.count;
  }
  return w;
}

bool blank_or_comment(const std::string &line) {
  const auto first = std::find_if_not(line.begin(), line.end(), is_space);
  return first == line.end() || *first == '%';
}

const char *field_name(Field f) {
  switch (f) {
  case Field::Real: return "real";
  case Field::Integer: return "integer";
  case Field::Complex: return "complex";
  case Field::Pattern: return "pattern";
  }
  return "?";
}

const char *symmetry_name(Symmetry s) {
  switch (s) {
  case Symmetry::General: return "general";
  case Symmetry::Symmetric: return "symmetric";
  case Symmetry::SkewSymmetric: return "skew-symmetric";
  case Symmetry::Hermitian: return "hermitian";
  }
  return "?";
}

// Line-by-line input that knows the current line number for error messages.
class Lines {
public:
  Lines(std::istream &in, const std::string &name) : in_(in), name_(name) {}

  // Next line, without a trailing '\r'; false at end of input.
  bool next(std::string &line) {
    if (!std::getline(in_, line)) {
      if (in_.bad()) throw ParseError(name_, line_ + 1, "read error");
      return false;
    }
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  // Next line that is neither blank nor a comment.
  bool next_data(std::string &line) {
    while (next(line)) {
      if (!blank_or_comment(line)) return true;
    }
    return false;
  }

  [[noreturn]] void fail(const std::string &reason) const { throw ParseError(name_, line_, reason); }
  // For input that ends too early: the line after the last one.
  [[noreturn]] void fail_at_end(const std::string &reason) const { throw ParseError(name_, line_ + 1, reason); }

private:
  std::istream &in_;
  const std::string &name_;
  std::int64_t line_ = 0;
};

Header read_banner(Lines &lines) {
  std::string line;
  if (!lines.next(line)) lines.fail_at_end("empty input: missing Matrix Market banner " + std::string(kBannerForm));
  const Words w = split(line);
  if (w.count == 0 || lower(w.word[0]) != "%%matrixmarket")
    lines.fail("missing Matrix Market banner: the first line must be " + std::string(kBannerForm));
  if (w.count != 5)
    lines.fail("malformed banner: expected 5 words " + std::string(kBannerForm) + ", found " + std::to_string(w.count));
  if (lower(w.word[1]) != "matrix")
    lines.fail("unknown object '" + std::string(w.word[1]) + "' (only 'matrix' is supported)");

  const std::string format = lower(w.word[2]);
  if (format == "array") lines.fail("array format not supported (only coordinate)");
  if (format != "coordinate") lines.fail("unknown format '" + std::string(w.word[2]) + "' (expected coordinate)");

  Header h{};
  const std::string field = lower(w.word[3]);
  if (field == "real") h.field = Field::Real;
  else if (field == "integer") h.field = Field::Integer;
  else if (field == "complex") h.field = Field::Complex;
  else if (field == "pattern") h.field = Field::Pattern;
  else lines.fail("unknown field '" + std::string(w.word[3]) + "' (expected real, integer, complex or pattern)");

  const std::string symmetry = lower(w.word[4]);
  if (symmetry == "general") h.symmetry = Symmetry::General;
  else if (symmetry == "symmetric") h.symmetry = Symmetry::Symmetric;
  else if (symmetry == "skew-symmetric") h.symmetry = Symmetry::SkewSymmetric;
  else if (symmetry == "hermitian") h.symmetry = Symmetry::Hermitian;
  else
    lines.fail("unknown symmetry '" + std::string(w.word[4]) +
               "' (expected general, symmetric, skew-symmetric or hermitian)");

  // Combinations the format excludes: they have no consistent meaning.
  if (h.symmetry == Symmetry::Hermitian && h.field != Field::Complex)
    lines.fail("hermitian symmetry requires the complex field, not " + std::string(field_name(h.field)));
  if (h.symmetry == Symmetry::SkewSymmetric && h.field == Field::Pattern)
    lines.fail("skew-symmetric symmetry cannot be combined with the pattern field");
  return h;
}

void read_size_line(Lines &lines, Header &h) {
  std::string line;
  if (!lines.next_data(line)) lines.fail_at_end("missing size line 'rows columns entries'");
  const Words w = split(line);
  if (w.count != 3)
    lines.fail("bad size line: expected 'rows columns entries', found " + std::to_string(w.count) + " word" +
               (w.count == 1 ? "" : "s"));
  std::int64_t v[3];
  for (int k = 0; k < 3; ++k) {
    const std::string word(w.word[k]);
    const NumberStatus st = parse_int64(word, v[k]);
    if (st == NumberStatus::Invalid) lines.fail("bad size line: '" + word + "' is not an integer");
    if (st == NumberStatus::OutOfRange) lines.fail("bad size line: '" + word + "' overflows a 64-bit integer");
    if (v[k] < 0) lines.fail("bad size line: '" + word + "' is negative");
  }
  if (v[0] > kIndexMax || v[1] > kIndexMax)
    lines.fail("matrix size " + std::to_string(v[0]) + " x " + std::to_string(v[1]) +
               " exceeds the 32-bit index range (build with PGK_INDEX_64)");
  if (v[2] > kIndexMax)
    lines.fail("entry count " + std::to_string(v[2]) + " exceeds the 32-bit index range (build with PGK_INDEX_64)");
  if (h.symmetry != Symmetry::General && v[0] != v[1])
    lines.fail(std::string("a ") + symmetry_name(h.symmetry) + " matrix must be square, not " + std::to_string(v[0]) +
               " x " + std::to_string(v[1]));
  h.nrows = static_cast<Index>(v[0]);
  h.ncols = static_cast<Index>(v[1]);
  h.nentries = v[2];
}

// 1-based index word -> 0-based Index in [0, n).
Index read_index(const Lines &lines, std::string_view word, Index n, const char *what) {
  std::int64_t v = 0;
  const NumberStatus st = parse_int64(word, v);
  if (st == NumberStatus::Invalid)
    lines.fail(std::string(what) + " index '" + std::string(word) + "' is not an integer");
  if (st == NumberStatus::OutOfRange || v < 1 || v > n)
    lines.fail(std::string(what) + " index " + std::string(word) + " is out of range [1, " + std::to_string(n) + "]");
  return static_cast<Index>(v - 1);
}

double read_value(const Lines &lines, std::string_view word, Field field, const char *what) {
  if (field == Field::Integer) {
    std::int64_t v = 0;
    const NumberStatus st = parse_int64(word, v);
    if (st == NumberStatus::Invalid) lines.fail(std::string(what) + " '" + std::string(word) + "' is not an integer");
    if (st == NumberStatus::OutOfRange)
      lines.fail(std::string(what) + " '" + std::string(word) + "' overflows a 64-bit integer");
    return static_cast<double>(v);
  }
  double v = 0;
  const NumberStatus st = parse_double(word, v);
  if (st == NumberStatus::Invalid) lines.fail(std::string(what) + " '" + std::string(word) + "' is not a number");
  if (st == NumberStatus::OutOfRange)
    lines.fail(std::string(what) + " '" + std::string(word) + "' is outside the double range");
  return v;
}

} // namespace

Data read(std::istream &in, const std::string &name_for_messages) {
  Lines lines(in, name_for_messages);
  Data data;
  data.header = read_banner(lines);
  Header &h = data.header;
  read_size_line(lines, h);

  const int words = h.field == Field::Pattern ? 2 : h.field == Field::Complex ? 4 : 3;
  const char *layout = h.field == Field::Pattern   ? "row column"
                       : h.field == Field::Complex ? "row column real imaginary"
                                                   : "row column value";
  // A corrupt size line must not make us allocate terabytes before reading anything.
  data.entries.reserve(static_cast<std::size_t>(std::min<std::int64_t>(h.nentries, 1 << 20)));
  std::string line;
  while (lines.next_data(line)) {
    if (static_cast<std::int64_t>(data.entries.size()) == h.nentries)
      lines.fail("more entries than the " + std::to_string(h.nentries) + " declared in the size line");
    const Words w = split(line);
    if (w.count != words)
      lines.fail("expected " + std::to_string(words) + " words '" + layout + "' in a " + field_name(h.field) +
                 " file, found " + std::to_string(w.count));
    Entry e{};
    e.row = read_index(lines, w.word[0], h.nrows, "row");
    e.col = read_index(lines, w.word[1], h.ncols, "column");
    if (h.field == Field::Pattern) {
      e.re = 1.0;
    } else if (h.field == Field::Complex) {
      e.re = read_value(lines, w.word[2], h.field, "real part");
      e.im = read_value(lines, w.word[3], h.field, "imaginary part");
    } else {
      e.re = read_value(lines, w.word[2], h.field, "value");
    }

    if (h.symmetry != Symmetry::General) {
      const std::string where = "(" + std::to_string(e.row + 1) + ", " + std::to_string(e.col + 1) + ")";
      if (e.row < e.col)
        lines.fail("entry " + where + " lies above the diagonal; a " + symmetry_name(h.symmetry) +
                   " file stores only the lower triangle");
      if (e.row == e.col && h.symmetry == Symmetry::SkewSymmetric)
        lines.fail("diagonal entry " + where + " in a skew-symmetric file (its diagonal is zero and is not stored)");
      if (e.row == e.col && h.symmetry == Symmetry::Hermitian && e.im != 0)
        lines.fail("diagonal entry " + where + " of a hermitian matrix has a nonzero imaginary part");
    }
    data.entries.push_back(e);
  }
  if (static_cast<std::int64_t>(data.entries.size()) < h.nentries)
    lines.fail_at_end("file ends after " + std::to_string(data.entries.size()) + " of the " +
                      std::to_string(h.nentries) + " entries declared in the size line");
  return data;
}

Data read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file");
  return read(in, path);
}

std::vector<Entry> expand(const Data &data) {
  const Symmetry sym = data.header.symmetry;
  const bool pattern = data.header.field == Field::Pattern;
  std::vector<Entry> out;
  out.reserve(sym == Symmetry::General ? data.entries.size() : 2 * data.entries.size());
  for (Entry e : data.entries) {
    if (pattern) {
      e.re = 1.0;
      e.im = 0.0;
    }
    out.push_back(e);
    if (sym == Symmetry::General || e.row == e.col) continue;
    Entry m{e.col, e.row, e.re, e.im};
    if (sym == Symmetry::SkewSymmetric) {
      m.re = -e.re;
      m.im = -e.im;
    } else if (sym == Symmetry::Hermitian) {
      m.im = -e.im;
    }
    out.push_back(m);
  }
  return out;
}

} // namespace pgk::mm
