// A cuSPARSE call's status checked in bench/ programs that call cuSPARSE themselves: a failure
// prints the call's file, line and error string and exits 1 (a benchmark has nothing to recover).
#pragma once

#include <cusparse.h>

#include <cstdio>
#include <cstdlib>

#define PGK_BENCH_CUSPARSE(call)                                                                                                                                                                                                                         \
  do {                                                                                                                                                                                                                                                   \
    const cusparseStatus_t pgk_cusparse_status_ = (call);                                                                                                                                                                                                \
    if (pgk_cusparse_status_ != CUSPARSE_STATUS_SUCCESS) {                                                                                                                                                                                               \
      std::fprintf(stderr, "%s:%d: %s: cusparse %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(pgk_cusparse_status_));                                                                                                                         \
      std::exit(1);                                                                                                                                                                                                                                      \
    }                                                                                                                                                                                                                                                    \
  } while (0)
