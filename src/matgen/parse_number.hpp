// Strict, locale-independent parsing of one whole token as a number, shared by the spec
// parser and the Matrix Market reader. std::strtod and iostreams honour the C/C++ locale
// (a program that calls setlocale could read "1.5" as 1), and std::stoi accepts trailing
// junk ("12abc"); std::from_chars does neither.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>

#if !defined(__cpp_lib_to_chars)
#include <locale>
#include <sstream>
#include <string>
#endif

namespace pgk {

enum class NumberStatus { Ok, Invalid, OutOfRange };

namespace detail {

// from_chars rejects a leading '+', which number writers (Fortran, printf("%+g")) emit.
inline std::string_view strip_plus(std::string_view t) {
  if (t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+') t.remove_prefix(1);
  return t;
}

template <class T> NumberStatus parse_integer(std::string_view t, T &out) {
  t = strip_plus(t);
  if (t.empty()) return NumberStatus::Invalid;
  const char *end = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), end, out, 10);
  if (ec == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
  if (ec != std::errc() || ptr != end) return NumberStatus::Invalid;
  return NumberStatus::Ok;
}

} // namespace detail

inline NumberStatus parse_int64(std::string_view t, std::int64_t &out) { return detail::parse_integer(t, out); }

inline NumberStatus parse_uint64(std::string_view t, std::uint64_t &out) { return detail::parse_integer(t, out); }

// Decimal or scientific notation; "nan", "inf" and "infinity" (any case) are accepted,
// callers that need finite values check. Hexadecimal floats are rejected.
inline NumberStatus parse_double(std::string_view t, double &out) {
  t = detail::strip_plus(t);
  if (t.empty()) return NumberStatus::Invalid;
#if defined(__cpp_lib_to_chars)
  const char *end = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), end, out, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
  if (ec != std::errc() || ptr != end) return NumberStatus::Invalid;
  return NumberStatus::Ok;
#else
  // Standard libraries without floating-point from_chars: a stream imbued with the
  // classic locale is locale-independent too (slower, and without nan/inf).
  std::istringstream in{std::string(t)};
  in.imbue(std::locale::classic());
  double v = 0;
  in >> v;
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) return NumberStatus::Invalid;
  out = v;
  return NumberStatus::Ok;
#endif
}

} // namespace pgk
