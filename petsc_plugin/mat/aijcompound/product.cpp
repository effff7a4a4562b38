// Mat aijcompound (sequential and MPI): MatProduct with a compound operand (PCGAMG's A P and P^T A P,
// a user's MatMatMult / MatPtAP / MatTransposeMatMult), and MatCreateGraph (PCGAMG's strength graph).
// The product is MATAIJ's, of the operands' scalar expansions: each the matrix's cached expansion
// (expansion_cache.cpp: one conversion shared by the graph, the products and MatSOR, kept while the
// matrix lives), in the way PETSc treats its virtual transpose (src/mat/impls/transpose/transm.c):
// the compound operands are replaced by expansions in the product, and MATAIJ's own
// MatProductSetFromOptions chooses the algorithm. The result is MATAIJ, or MATAIJCUSPARSE where every
// operand is on the device (a device compound matrix's expansion is MATAIJCUSPARSE).
//
// Values stay current two ways. A MAT_REUSE_MATRIX call (MatMatMult, MatPtAP, ...) hands the
// compound operand back (MatProductReplaceMats); PETSc sees a type other than the expansion's and
// sets the product up again through this file, with the current expansion. A direct
// MatProductNumeric() after the compound values changed finds the operand's object state moved: the
// numeric step below copies the new values into the product's expansion (same pattern) first.
#include "petsc_plugin/mat/aijcompound/aijcompound.hpp"
#include "petsc_plugin/sys/csr_access.hpp"

namespace {

constexpr const char *kCtxName = "MatProductCtx_AIJCompound";

struct ProductCtx {
  Mat              original[3]    = {nullptr, nullptr, nullptr}; // the compound operands (A, B, C), or null
  Mat              expansion[3]   = {nullptr, nullptr, nullptr};
  PetscObjectState state[3]       = {0, 0, 0}; // each original's state when its expansion was made
  PetscErrorCode (*numeric)(Mat)  = nullptr;   // MATAIJ's numeric step, and its data
  PetscErrorCode (*symbolic)(Mat) = nullptr;
  PetscCtxDestroyFn *destroy      = nullptr;
  void              *data         = nullptr;
};

} // namespace

static PetscErrorCode ProductCtxDestroy(PetscCtxRt ptr)
{
  ProductCtx *ctx = *(ProductCtx **)ptr;

  PetscFunctionBegin;
  if (ctx->data && ctx->destroy) PetscCall((*ctx->destroy)(&ctx->data));
  for (int k = 0; k < 3; ++k) {
    PetscCall(MatDestroy(&ctx->original[k]));
    PetscCall(MatDestroy(&ctx->expansion[k]));
  }
  delete ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IsCompound(Mat M, PetscBool *compound)
{
  PetscFunctionBegin;
  *compound = PETSC_FALSE;
  if (M) PetscCall(PetscObjectTypeCompareAny((PetscObject)M, compound, MATSEQAIJCOMPOUND, MATMPIAIJCOMPOUND, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Copies the values of each compound operand whose state moved into its expansion (same pattern).
static PetscErrorCode RefreshExpansions(ProductCtx *ctx)
{
  PetscFunctionBegin;
  for (int k = 0; k < 3; ++k) {
    PetscObjectState state;
    if (!ctx->original[k]) continue;
    PetscCall(PetscObjectStateGet((PetscObject)ctx->original[k], &state));
    if (state == ctx->state[k]) continue;
    Mat fresh; // the cache's, rebuilt for the new state (the product keeps its own, older object)
    PetscCall(MatAIJCompoundCachedExpansion(ctx->original[k], &fresh));
    if (fresh != ctx->expansion[k]) PetscCall(MatCopy(fresh, ctx->expansion[k], SAME_NONZERO_PATTERN));
    PetscCall(PetscObjectStateGet((PetscObject)ctx->original[k], &ctx->state[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetCtx(Mat D, ProductCtx **ctx)
{
  PetscContainer container;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)D, kCtxName, (PetscObject *)&container));
  PetscCheck(container, PetscObjectComm((PetscObject)D), PETSC_ERR_PLIB, "%s missing", kCtxName);
  PetscCall(PetscContainerGetPointer(container, (void **)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductNumeric_AIJCompound(Mat D)
{
  ProductCtx *ctx;

  PetscFunctionBegin;
  MatCheckProduct(D, 1);
  ctx = (ProductCtx *)D->product->data;
  PetscCheck(ctx, PetscObjectComm((PetscObject)D), PETSC_ERR_PLIB, "product data empty");
  PetscCall(RefreshExpansions(ctx));
  D->product->data = ctx->data; // MATAIJ's step sees its own data
  PetscCall((*ctx->numeric)(D));
  D->product->data = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MATAIJ's symbolic step; then this file's context moves from the container composed on D (where it
// waited, since MATAIJ's symbolic step wants the product's data empty) into the product, wrapping
// MATAIJ's numeric step and data; the product's destroy (MatProductClear, MatDestroy) frees it all.
static PetscErrorCode MatProductSymbolic_AIJCompound(Mat D)
{
  ProductCtx    *ctx;
  PetscContainer container;

  PetscFunctionBegin;
  MatCheckProduct(D, 1);
  PetscCall(GetCtx(D, &ctx));
  PetscCall((*ctx->symbolic)(D));
  ctx->numeric           = D->ops->productnumeric;
  ctx->destroy           = D->product->destroy;
  ctx->data              = D->product->data;
  D->ops->productnumeric = MatProductNumeric_AIJCompound;
  D->product->destroy    = ProductCtxDestroy;
  D->product->data       = ctx;
  PetscCall(PetscObjectQuery((PetscObject)D, kCtxName, (PetscObject *)&container));
  PetscCall(PetscContainerSetCtxDestroy(container, NULL)); // the product owns ctx now
  PetscCall(PetscObjectCompose((PetscObject)D, kCtxName, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Whether the product's operands, compound ones replaced by their expansions, mix cuSPARSE AIJ with
// host AIJ: PETSc 3.26 has a MatProduct for seqaijcusparse with seqaij (on the host) but none for
// mpiaijcusparse with mpiaij. A device compound matrix's cached expansion is MATAIJCUSPARSE, so a
// user's product of it with a host AIJ matrix would otherwise find no implementation.
static PetscErrorCode MixesDeviceAndHostAIJ(const Mat ops[3], PetscBool *mixed)
{
  PetscBool device = PETSC_FALSE, host = PETSC_FALSE;

  PetscFunctionBegin;
  for (int k = 0; k < 3; ++k) {
    PetscBool cusparse, aij;
    if (!ops[k]) continue;
    PetscCall(PgkMatIsCusparse(ops[k], &cusparse));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)ops[k], &aij, MATSEQAIJ, MATMPIAIJ, ""));
    device = (PetscBool)(device || cusparse);
    host   = (PetscBool)(host || aij);
  }
  *mixed = (PetscBool)(device && host);
  PetscFunctionReturn(PETSC_SUCCESS);
}

// A product that mixes them takes host copies of its device expansions (MATAIJ, the product's own,
// refreshed like the cached ones): the host product PETSc has, and the result MATAIJ.
static PetscErrorCode UseHostExpansions(ProductCtx *ctx, Mat D)
{
  Mat       ops[3] = {D->product->A, D->product->B, D->product->C};
  PetscBool mixed  = PETSC_FALSE;

  PetscFunctionBegin;
  for (int k = 0; k < 3; ++k)
    if (ctx->expansion[k]) ops[k] = ctx->expansion[k];
  PetscCall(MixesDeviceAndHostAIJ(ops, &mixed));
  if (!mixed) PetscFunctionReturn(PETSC_SUCCESS);
  for (int k = 0; k < 3; ++k) {
    PetscBool cusparse;
    Mat       host;
    if (!ctx->expansion[k]) continue;
    PetscCall(PgkMatIsCusparse(ctx->expansion[k], &cusparse));
    if (!cusparse) continue;
    PetscCall(MatConvert(ctx->expansion[k], MATAIJ, MAT_INITIAL_MATRIX, &host));
    PetscCall(MatDestroy(&ctx->expansion[k]));
    ctx->expansion[k] = host;
  }
  PetscCall(PetscInfo(D, "MatProduct %s: device expansions with a host AIJ operand: on host copies of the expansions\n", MatProductTypes[D->product->type]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

// Composed on every compound matrix as "MatProductSetFromOptions_anytype_C" (PETSc queries it on A,
// then B, then C when no implementation matches the operand types).
static PetscErrorCode MatProductSetFromOptions_AIJCompound(Mat D)
{
  Mat            ops[3] = {D->product->A, D->product->B, D->product->C};
  PetscContainer container;
  ProductCtx    *ctx = new ProductCtx();

  PetscFunctionBegin;
  for (int k = 0; k < 3; ++k) {
    PetscBool compound;
    PetscCall(IsCompound(ops[k], &compound));
    if (!compound) continue;
    PetscCall(PetscObjectReference((PetscObject)ops[k]));
    ctx->original[k] = ops[k];
    PetscCall(MatAIJCompoundCachedExpansion(ops[k], &ctx->expansion[k])); // shared with MatCreateGraph, MatSOR
    PetscCall(PetscObjectReference((PetscObject)ctx->expansion[k]));
    PetscCall(PetscObjectStateGet((PetscObject)ops[k], &ctx->state[k])); // (the expansion may have synced values)
  }
  PetscCall(UseHostExpansions(ctx, D));
  PetscCall(PetscInfo(D, "MatProduct %s with compound operands: the product of their scalar expansions\n", MatProductTypes[D->product->type]));
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)D), &container));
  PetscCall(PetscContainerSetPointer(container, ctx));
  PetscCall(PetscContainerSetCtxDestroy(container, ProductCtxDestroy));
  PetscCall(PetscObjectCompose((PetscObject)D, kCtxName, (PetscObject)container)); // until the symbolic step (or D's end)
  PetscCall(PetscContainerDestroy(&container));
  PetscCall(MatProductReplaceMats(ctx->expansion[0], ctx->expansion[1], ctx->expansion[2], D));
  PetscCall(MatProductSetFromOptions(D));
  if (D->ops->productsymbolic) {
    ctx->symbolic           = D->ops->productsymbolic;
    D->ops->productsymbolic = MatProductSymbolic_AIJCompound;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

// MatCreateGraph (PCGAMG's strength graph): the expansion's, MATAIJ or MATAIJCUSPARSE (same block
// size, so the same graph of nodes as for the AIJ original).
static PetscErrorCode MatCreateGraph_AIJCompound(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, PetscInt num_idx, PetscInt index[], Mat *graph)
{
  Mat E;

  PetscFunctionBegin;
  PetscCall(MatAIJCompoundCachedExpansion(A, &E));
  PetscCall(MatCreateGraph(E, sym, scale, filter, num_idx, index, graph));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJCompoundSetProductOps(Mat A)
{
  PetscFunctionBegin;
  A->ops->creategraph = MatCreateGraph_AIJCompound;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", MatProductSetFromOptions_AIJCompound));
  PetscFunctionReturn(PETSC_SUCCESS);
}
