// Matrix Market reader (https://math.nist.gov/MatrixMarket/formats.html), coordinate
// format only: sparse test matrices come in it (SuiteSparse collection), dense "array"
// files do not occur. Strict: every deviation from the format is reported with its file
// and line instead of being guessed around, because a silently misread matrix shows up
// much later as a wrong benchmark or a solver failure.
#pragma once

#include "src/common/csr.hpp"

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgk::mm {

enum class Field { Real, Integer, Complex, Pattern };
enum class Symmetry { General, Symmetric, SkewSymmetric, Hermitian };

struct Header {
  Field field;
  Symmetry symmetry;
  Index nrows, ncols;
  std::int64_t nentries; // entries stored in the file (before expansion)
};

struct Entry {
  Index row, col; // 0-based
  double re, im;  // im is 0 unless Complex; pattern entries read as re = 1
};

struct Data {
  Header header;
  std::vector<Entry> entries; // as stored in the file, in file order (NOT expanded)
};

// what() is "<file>:<line>: <reason>"; line is 1-based. A problem past the last line
// (the file ends early) is reported at line count + 1. Line 0 means the file as a whole
// (it could not be opened); what() is then "<file>: <reason>".
class ParseError : public std::runtime_error {
public:
  ParseError(const std::string &file, std::int64_t line, const std::string &reason);

  const std::string &file() const noexcept { return file_; }
  std::int64_t line() const noexcept { return line_; }
  const std::string &reason() const noexcept { return reason_; }

private:
  std::string file_;
  std::int64_t line_;
  std::string reason_;
};

// Reads a whole coordinate-format file. Banner words are case-insensitive; comment lines
// (first non-blank character '%') and blank lines may appear anywhere after the banner;
// '\r' line ends are accepted. Symmetric, skew-symmetric and hermitian files must store
// only the lower triangle (skew-symmetric: strictly lower). Throws ParseError.
Data read(std::istream &in, const std::string &name_for_messages);
Data read_file(const std::string &path);

// The full matrix: each off-diagonal entry of a symmetric / skew-symmetric / hermitian
// file followed by its mirror (transposed; skew: negated; hermitian: conjugated); pattern
// entries get value 1. Duplicates, if the file has any, are kept for the caller to sum.
std::vector<Entry> expand(const Data &data);

} // namespace pgk::mm
