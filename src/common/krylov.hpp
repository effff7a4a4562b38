// Plain host Krylov solvers for measuring a preconditioner on the references (no PETSc): the
// iteration counts of left-preconditioned GMRES(restart) and preconditioned CG from x = 0, for
// unit tests and host benchmarks that compare preconditioner variants in the same run.
#pragma once

#include <functional>
#include <vector>

#include "src/common/csr.hpp"

namespace pgk::krylov {

using Vector = std::vector<double>;
// out = M^-1 in (both of the matrix's size).
using Precondition = std::function<void(const double *in, double *out)>;

void multiply(const Csr &a, const Vector &x, Vector &y); // y = A x
double dot(const Vector &u, const Vector &v);

// Left-preconditioned GMRES(restart) with modified Gram-Schmidt, as PETSc's default: stops when
// the preconditioned residual norm (the Arnoldi estimate, confirmed at each restart) is
// <= rtol |M^-1 b|. The iterations, or -1 without convergence in max_it (or a non-finite residual).
int gmres_iterations(const Csr &a, const Vector &b, const Precondition &m, double rtol, int max_it, int restart = 30);

// Preconditioned CG: stops when |r| <= rtol |b|. The iterations, or -1.
int cg_iterations(const Csr &a, const Vector &b, const Precondition &m, double rtol, int max_it);

} // namespace pgk::krylov
