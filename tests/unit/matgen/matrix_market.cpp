#include "src/matgen/matrix_market.hpp"

#include "src/common/csr_build.hpp"
#include "tests/support/host.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pgk::mm {
namespace {

constexpr bool kIndex32 = sizeof(Index) == 4;

Data parse(const std::string &text) {
  std::istringstream in(text);
  return read(in, "test.mtx");
}

// Parsing `text` must fail at `line` with a reason containing `needle`.
void expect_error(const std::string &text, std::int64_t line, const std::string &needle) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const ParseError &e) {
    EXPECT_EQ(e.file(), "test.mtx");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(e.reason().find(needle), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()), "test.mtx:" + std::to_string(line) + ": " + e.reason());
  }
}

const std::string kRealGeneral = "%%MatrixMarket matrix coordinate real general\n";
const std::string kRealSymmetric = "%%MatrixMarket matrix coordinate real symmetric\n";

// ---- reading valid files ---------------------------------------------------------------

TEST(MatrixMarketRead, RealGeneral) {
  const Data d = parse(kRealGeneral + "% comment\n3 4 3\n1 1 1.5\n3 4 -2e3\n2 1 +7\n");
  EXPECT_EQ(d.header.field, Field::Real);
  EXPECT_EQ(d.header.symmetry, Symmetry::General);
  EXPECT_EQ(d.header.nrows, 3);
  EXPECT_EQ(d.header.ncols, 4);
  EXPECT_EQ(d.header.nentries, 3);
  ASSERT_EQ(d.entries.size(), 3u);
  EXPECT_EQ(d.entries[1].row, 2); // 0-based
  EXPECT_EQ(d.entries[1].col, 3);
  EXPECT_EQ(d.entries[1].re, -2000.0);
  EXPECT_EQ(d.entries[1].im, 0.0);
  EXPECT_EQ(d.entries[2].re, 7.0);
}

TEST(MatrixMarketRead, EveryFieldAndSymmetry) {
  const Data i = parse("%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 -42\n");
  EXPECT_EQ(i.header.field, Field::Integer);
  EXPECT_EQ(i.entries[0].re, -42.0);

  const Data c = parse("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1.5 -2\n");
  EXPECT_EQ(c.header.field, Field::Complex);
  EXPECT_EQ(c.entries[0].re, 1.5);
  EXPECT_EQ(c.entries[0].im, -2.0);

  const Data p = parse("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n2 3\n");
  EXPECT_EQ(p.header.field, Field::Pattern);
  EXPECT_EQ(p.entries[0].re, 1.0);

  EXPECT_EQ(parse(kRealSymmetric + "2 2 1\n2 1 1\n").header.symmetry, Symmetry::Symmetric);
  EXPECT_EQ(parse("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n").header.symmetry,
            Symmetry::SkewSymmetric);
  EXPECT_EQ(parse("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 1\n").header.symmetry,
            Symmetry::Hermitian);
}

TEST(MatrixMarketRead, BannerIsCaseInsensitiveAndLayoutIsLenient) {
  const Data d = parse("%%matrixmarket MATRIX Coordinate REAL General\r\n"
                       "%\r\n"
                       "\r\n"
                       "   % indented comment\n"
                       "  2   2\t2  \n"
                       "1 1 1\n"
                       "% a comment between entries\n"
                       "\n"
                       "\t2 2 2\n"
                       "\n"
                       "% trailing comment\n");
  EXPECT_EQ(d.entries.size(), 2u);
  EXPECT_EQ(d.entries[1].re, 2.0);
  // No final newline.
  EXPECT_EQ(parse(kRealGeneral + "1 1 1\n1 1 5").entries[0].re, 5.0);
}

TEST(MatrixMarketRead, EmptyMatrices) {
  const Data d = parse(kRealGeneral + "0 0 0\n");
  EXPECT_EQ(d.header.nrows, 0);
  EXPECT_TRUE(d.entries.empty());
  EXPECT_TRUE(parse(kRealGeneral + "4 3 0\n% nothing\n").entries.empty());
}

TEST(MatrixMarketRead, ValuesInScientificNotationAndSpecials) {
  const Data d = parse(kRealGeneral + "1 5 5\n1 1 1e-300\n1 2 -.5\n1 3 5.\n1 4 NaN\n1 5 -inf\n");
  EXPECT_EQ(d.entries[0].re, 1e-300);
  EXPECT_EQ(d.entries[1].re, -0.5);
  EXPECT_EQ(d.entries[2].re, 5.0);
  EXPECT_TRUE(std::isnan(d.entries[3].re));
  EXPECT_TRUE(std::isinf(d.entries[4].re));
}

// ---- errors, each at its line ----------------------------------------------------------

TEST(MatrixMarketErrors, Banner) {
  expect_error("", 1, "missing Matrix Market banner");
  expect_error("% just a comment\n2 2 0\n", 1, "missing Matrix Market banner");
  expect_error("\n" + kRealGeneral + "2 2 0\n", 1, "missing Matrix Market banner");
  expect_error("%%MatrixMarket matrix coordinate real\n2 2 0\n", 1, "expected 5 words");
  expect_error("%%MatrixMarket matrix coordinate real general extra\n", 1, "found 6");
  expect_error("%%MatrixMarket vector coordinate real general\n", 1, "unknown object 'vector'");
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "array format not supported");
  expect_error("%%MatrixMarket matrix sparse real general\n", 1, "unknown format 'sparse'");
  expect_error("%%MatrixMarket matrix coordinate double general\n", 1, "unknown field 'double'");
  expect_error("%%MatrixMarket matrix coordinate real lower\n", 1, "unknown symmetry 'lower'");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian symmetry requires the complex field");
  expect_error("%%MatrixMarket matrix coordinate pattern skew-symmetric\n", 1,
               "skew-symmetric symmetry cannot be combined with the pattern field");
}

TEST(MatrixMarketErrors, SizeLine) {
  expect_error(kRealGeneral, 2, "missing size line");
  expect_error(kRealGeneral + "% only comments\n\n", 4, "missing size line");
  expect_error(kRealGeneral + "% c\n3 3\n", 3, "expected 'rows columns entries', found 2 words");
  expect_error(kRealGeneral + "3 3 1 1\n", 2, "found 4 words");
  expect_error(kRealGeneral + "3 x 1\n", 2, "'x' is not an integer");
  expect_error(kRealGeneral + "3 3.0 1\n", 2, "'3.0' is not an integer");
  expect_error(kRealGeneral + "3 -3 1\n", 2, "'-3' is negative");
  expect_error(kRealGeneral + "3 3 99999999999999999999\n", 2, "overflows a 64-bit integer");
  expect_error(kRealSymmetric + "3 4 1\n", 2, "a symmetric matrix must be square, not 3 x 4");
}

TEST(MatrixMarketErrors, SizesBeyond32BitIndices) {
  const std::string big_rows = kRealGeneral + "3000000000 5 0\n";
  const std::string big_count = kRealGeneral + "5 5 3000000000\n";
  if (kIndex32) {
    expect_error(big_rows, 2, "exceeds the 32-bit index range");
    expect_error(big_count, 2, "entry count 3000000000 exceeds the 32-bit index range");
  } else {
    EXPECT_EQ(static_cast<std::int64_t>(parse(big_rows).header.nrows), 3000000000LL);
    // Accepted size line; then the entries are missing.
    expect_error(big_count, 3, "file ends after 0 of the 3000000000 entries");
  }
}

TEST(MatrixMarketErrors, EntryCount) {
  expect_error(kRealGeneral + "3 3 2\n1 1 1\n", 4, "file ends after 1 of the 2 entries");
  expect_error(kRealGeneral + "3 3 2\n1 1 1\n% c\n\n", 6, "file ends after 1 of the 2");
  expect_error(kRealGeneral + "3 3 1\n1 1 1\n% c\n2 2 2\n3 3 3\n", 5, "more entries than the 1 declared");
  expect_error(kRealGeneral + "3 3 0\n1 1 1\n", 3, "more entries than the 0 declared");
}

TEST(MatrixMarketErrors, Indices) {
  expect_error(kRealGeneral + "5 4 2\n1 1 1\n0 1 1\n", 4, "row index 0 is out of range [1, 5]");
  expect_error(kRealGeneral + "5 4 1\n6 1 1\n", 3, "row index 6 is out of range [1, 5]");
  expect_error(kRealGeneral + "5 4 1\n1 5 1\n", 3, "column index 5 is out of range [1, 4]");
  expect_error(kRealGeneral + "5 4 1\n1 -1 1\n", 3, "column index -1 is out of range");
  expect_error(kRealGeneral + "5 4 1\n1.5 1 1\n", 3, "row index '1.5' is not an integer");
  expect_error(kRealGeneral + "5 4 1\n1 x 1\n", 3, "column index 'x' is not an integer");
  expect_error(kRealGeneral + "5 4 1\n99999999999999999999 1 1\n", 3, "out of range");
}

TEST(MatrixMarketErrors, Values) {
  expect_error(kRealGeneral + "2 2 1\n1 1 abc\n", 3, "value 'abc' is not a number");
  expect_error(kRealGeneral + "2 2 1\n1 1 1.0.0\n", 3, "value '1.0.0' is not a number");
  expect_error(kRealGeneral + "2 2 1\n1 1 1e999\n", 3, "outside the double range");
  expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3,
               "value '1.5' is not an integer");
  expect_error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 i\n", 3,
               "imaginary part 'i' is not a number");
  expect_error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 z 0\n", 3,
               "real part 'z' is not a number");
}

TEST(MatrixMarketErrors, WordCountPerField) {
  expect_error(kRealGeneral + "2 2 1\n1 1\n", 3, "expected 3 words 'row column value' in a real file, found 2");
  expect_error(kRealGeneral + "2 2 1\n1 1 1 0\n", 3, "found 4");
  expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1\n", 3, "expected 3 words");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3,
               "expected 2 words 'row column' in a pattern file, found 3");
  expect_error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1\n", 3,
               "expected 4 words 'row column real imaginary' in a complex file, found 3");
}

TEST(MatrixMarketErrors, TriangleRules) {
  expect_error(kRealSymmetric + "3 3 2\n1 1 1\n1 3 1\n", 4,
               "entry (1, 3) lies above the diagonal; a symmetric file stores only the lower "
               "triangle");
  expect_error("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 3\n", 3, "above the diagonal");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 0\n", 4,
               "diagonal entry (2, 2) in a skew-symmetric file");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n1 2 1\n", 3,
               "a skew-symmetric file stores only the lower triangle");
  expect_error("%%MatrixMarket matrix coordinate complex hermitian\n3 3 1\n2 3 1 1\n", 3,
               "a hermitian file stores only the lower triangle");
  expect_error("%%MatrixMarket matrix coordinate complex hermitian\n3 3 1\n2 2 1 1\n", 3,
               "diagonal entry (2, 2) of a hermitian matrix has a nonzero imaginary part");
}

TEST(MatrixMarketErrors, UnreadableFile) {
  try {
    read_file("/nonexistent/dir/none.mtx");
    ADD_FAILURE() << "no exception";
  } catch (const ParseError &e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/dir/none.mtx: cannot open file");
  }
}

TEST(ParseErrorType, AccessorsAndBaseClass) {
  const ParseError e("a.mtx", 12, "something");
  EXPECT_EQ(e.file(), "a.mtx");
  EXPECT_EQ(e.line(), 12);
  EXPECT_EQ(e.reason(), "something");
  EXPECT_STREQ(e.what(), "a.mtx:12: something");
  const std::runtime_error &base = e;
  EXPECT_STREQ(base.what(), "a.mtx:12: something");
}

// ---- expansion -------------------------------------------------------------------------

TEST(MatrixMarketExpand, General) {
  const Data d = parse(kRealGeneral + "2 2 2\n1 2 3\n2 1 4\n");
  const std::vector<Entry> e = expand(d);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].row, 0);
  EXPECT_EQ(e[0].col, 1);
  EXPECT_EQ(e[0].re, 3.0);
}

TEST(MatrixMarketExpand, SymmetricMirrorsOffDiagonals) {
  const std::vector<Entry> e = expand(parse(kRealSymmetric + "3 3 3\n1 1 5\n3 1 -2\n3 3 6\n"));
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[1].row, 2);
  EXPECT_EQ(e[1].col, 0);
  EXPECT_EQ(e[2].row, 0);
  EXPECT_EQ(e[2].col, 2);
  EXPECT_EQ(e[2].re, -2.0);
}

TEST(MatrixMarketExpand, SkewNegatesHermitianConjugatesPatternIsOne) {
  const std::vector<Entry> s = expand(parse("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n"));
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].row, 0);
  EXPECT_EQ(s[1].col, 1);
  EXPECT_EQ(s[1].re, -3.0);

  const std::vector<Entry> h =
      expand(parse("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 4 0\n2 1 1 -2\n"));
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[2].row, 0);
  EXPECT_EQ(h[2].col, 1);
  EXPECT_EQ(h[2].re, 1.0);
  EXPECT_EQ(h[2].im, 2.0);

  const std::vector<Entry> sc =
      expand(parse("%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n2 1 1 -2\n"));
  EXPECT_EQ(sc[1].re, -1.0);
  EXPECT_EQ(sc[1].im, 2.0);

  const std::vector<Entry> p = expand(parse("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n"));
  ASSERT_EQ(p.size(), 3u);
  for (const Entry &x : p) {
    EXPECT_EQ(x.re, 1.0);
    EXPECT_EQ(x.im, 0.0);
  }
}

// ---- sample files in tests/data --------------------------------------------------------

std::filesystem::path data_dir() {
#ifdef PGK_TEST_DATA_DIR
  return PGK_TEST_DATA_DIR;
#else
  return "tests/data"; // when run from the repository root
#endif
}

Csr to_csr(const Data &d) {
  std::vector<Index> rows, cols;
  std::vector<double> values;
  for (const Entry &e : expand(d)) {
    rows.push_back(e.row);
    cols.push_back(e.col);
    values.push_back(e.re);
  }
  return csr_from_coo(d.header.nrows, d.header.ncols, rows, cols, values);
}

TEST(MatrixMarketFiles, GoodSamplesParse) {
  if (!std::filesystem::is_directory(data_dir())) GTEST_SKIP() << "no " << data_dir() << " (define PGK_TEST_DATA_DIR)";
  const Data s = read_file((data_dir() / "sym5_real.mtx").string());
  const Csr a = to_csr(s);
  EXPECT_EQ(a.nrows, 5);
  EXPECT_EQ(a.nnz(), 15);
  EXPECT_TRUE(test::same_csr(transpose(view_of(a)), a));
  EXPECT_EQ(test::to_dense(a)[0][4], -1.0);

  const Data g = read_file((data_dir() / "general5_real.mtx").string());
  EXPECT_EQ(g.header.symmetry, Symmetry::General);
  EXPECT_EQ(to_csr(g).nnz(), 13);
  EXPECT_EQ(test::to_dense(to_csr(g))[3][4], -0.125);

  const Data p = read_file((data_dir() / "pattern6_symmetric.mtx").string());
  EXPECT_EQ(p.header.field, Field::Pattern);
  const Csr pc = to_csr(p);
  EXPECT_EQ(pc.nnz(), 6 + 2 * 6);
  EXPECT_EQ(bandwidth(view_of(pc)), 3);

  const Data c = read_file((data_dir() / "complex4_hermitian.mtx").string());
  EXPECT_EQ(c.header.symmetry, Symmetry::Hermitian);
  const std::vector<Entry> ce = expand(c);
  EXPECT_EQ(ce.size(), 10u);
}

TEST(MatrixMarketFiles, EveryBadSampleFailsAtItsLine) {
  if (!std::filesystem::is_directory(data_dir())) GTEST_SKIP() << "no " << data_dir() << " (define PGK_TEST_DATA_DIR)";
  const std::map<std::string, std::int64_t> expected_line = {
      {"bad_array.mtx", 1},     {"bad_banner.mtx", 1},          {"bad_field.mtx", 1},  {"bad_index.mtx", 5},
      {"bad_size_line.mtx", 3}, {"bad_skew_diagonal.mtx", 5},   {"bad_tokens.mtx", 5}, {"bad_too_few.mtx", 7},
      {"bad_too_many.mtx", 6},  {"bad_upper_symmetric.mtx", 5}, {"bad_value.mtx", 5},
  };
  int seen = 0;
  for (const auto &entry : std::filesystem::directory_iterator(data_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("bad_", 0) != 0) continue;
    ++seen;
    SCOPED_TRACE(name);
    try {
      read_file(entry.path().string());
      ADD_FAILURE() << "accepted";
    } catch (const ParseError &e) {
      EXPECT_EQ(e.file(), entry.path().string());
      const auto it = expected_line.find(name);
      ASSERT_NE(it, expected_line.end()) << "add the new file to expected_line";
      EXPECT_EQ(e.line(), it->second) << e.what();
    }
  }
  EXPECT_EQ(seen, static_cast<int>(expected_line.size()));
}

} // namespace
} // namespace pgk::mm
