// Input validation of CSR arrays: the serial reference for kernels/common/csr_check.cu.
// Every component runs this (on the host or the device, where the matrix lives) before
// trusting a matrix, so that bad input becomes a clear error instead of a wrong answer.
#pragma once

#include "src/common/csr.hpp"

namespace pgk {

// Counts of each defect; all zero means the CSR is well formed and every value is finite.
struct CsrCheck {
  long long bad_rowptr = 0;       // i with rowptr[i+1] < rowptr[i], or rowptr[0] != 0
  long long bad_colidx = 0;       // entries with a column outside [0, ncols)
  long long unsorted_rows = 0;    // rows whose columns are not strictly increasing
  long long nonfinite = 0;        // NaN or Inf values (0 when values is null)
  long long empty_rows = 0;       // rows with no entry
  long long missing_diagonal = 0; // rows i < ncols with no entry in column i

  bool structure_ok() const { return bad_rowptr == 0 && bad_colidx == 0 && unsorted_rows == 0; }
  bool operator==(const CsrCheck &o) const {
    return bad_rowptr == o.bad_rowptr && bad_colidx == o.bad_colidx && unsorted_rows == o.unsorted_rows &&
           nonfinite == o.nonfinite && empty_rows == o.empty_rows && missing_diagonal == o.missing_diagonal;
  }
};

// Host reference. A row with a bad row pointer is not scanned further (its extent is unknown).
CsrCheck check_csr(const CsrView &a);

} // namespace pgk
