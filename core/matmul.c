/*
 * matmul.c — matrix products: mm, bmm, dot, mv, and torch.matmul's dispatch
 * over them, each op's backward beside its forward.
 *
 * nn_matmul follows PyTorch 1.13's _matmul_impl step by step (dot, mv,
 * unsqueeze + mm + squeeze_, folding a batch into mm/mv, or expand + reshape
 * + bmm) so results carry the same grad_fn chains as PyTorch's.
 *
 * float32 and float64 go through OpenBLAS (cblas_?gemm, ?gemv, ?dot; blas.c
 * opens it on first use); an operand whose matrix dims are row- or column-major
 * is read in place (CblasTrans + leading dim), any other layout is copied
 * first. bfloat16 computes in float32; int32/int64 use plain loops (wrapping
 * as PyTorch's); float16 and bool fail as PyTorch 1.13's CPU kernels do.
 */
#include <limits.h>
#include <string.h>

#include "backend.h"
#include "nn_gemm.h"
#include "nn_half.h"
#include "nn_autocast.h"

/* ------------------------------------------------------------- dtypes */

/* PyTorch's ScalarType name, as its messages print it. */
static const char *type_title(nn_dtype dt)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "Float", [NN_FLOAT64] = "Double", [NN_FLOAT16] = "Half", [NN_BFLOAT16] = "BFloat16",
        [NN_INT64] = "Long",    [NN_INT32] = "Int",      [NN_BOOL] = "Bool",
        [NN_UINT8] = "Byte",    [NN_INT8] = "Char",      [NN_INT16] = "Short",
    };
    return names[dt];
}

static nn_tensor *retained(nn_tensor *t)
{
    NN_RETAIN(t);
    return t;
}

static bool is_int(nn_dtype dt) { return nn_dtype_is_integer(dt); }

/* The dtype a kernel computes in: bfloat16 widens to float32. */
static nn_dtype compute_dtype(nn_dtype dt) { return dt == NN_BFLOAT16 ? NN_FLOAT32 : dt; }

/* PyTorch's kernel dispatch: the kernel runs on `dispatch`'s dtype and then
   reads `other` as that type. kernel names the kernel in the message. */
static int check_dtypes(const char *kernel, nn_dtype dispatch, nn_dtype other)
{
    if (dispatch == NN_FLOAT16 || dispatch == NN_BOOL)
        return nn_error_set(NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, type_title(dispatch));
    if (other != dispatch)
        return nn_error_set(NN_ERR_RUNTIME, "expected scalar type %s but found %s", type_title(dispatch),
                            type_title(other));
    return 0;
}

/* ------------------------------------------------------------- layouts */

/* How BLAS reads a matrix in place: row-major with leading dim ld, or its
   transpose (column-major) when trans. */
typedef struct layout {
    bool trans;
    int64_t ld;
} layout;

/* The layout of the matrix in t's last two dims; false when BLAS can't read
   it in place (neither dim has unit stride, rows overlap, or ld overflows int). */
static bool matrix_layout(const nn_tensor *t, layout *l)
{
    int d = t->ndim - 2;
    int64_t r = t->sizes[d], c = t->sizes[d + 1], sr = t->strides[d], sc = t->strides[d + 1];
    int64_t rr = r > 1 ? r : 1, cc = c > 1 ? c : 1;
    if ((c <= 1 || sc == 1) && (r <= 1 || sr >= cc)) {
        l->trans = false;
        l->ld = r <= 1 ? cc : sr;
    } else if ((r <= 1 || sr == 1) && (c <= 1 || sc >= rr)) {
        l->trans = true;
        l->ld = c <= 1 ? rr : sc;
    } else {
        return false;
    }
    return l->ld <= INT_MAX;
}

/* A vector's BLAS increment; false when it needs a copy (stride 0 or too large). */
static bool vector_inc(const nn_tensor *t, int64_t *inc)
{
    int64_t n = t->sizes[0], s = t->strides[0];
    *inc = n <= 1 ? 1 : s;
    return *inc >= 1 && *inc <= INT_MAX;
}

/* t converted to dtype cd, copied to a contiguous tensor when BLAS can't read
   it in place (matrix: its last two dims; else a vector). No autograd; new reference. */
static nn_tensor *prepare(nn_tensor *t, nn_dtype cd, bool matrix)
{
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *r = nn_to_dtype(t, cd);
    layout l;
    int64_t inc;
    if (r && !(matrix ? matrix_layout(r, &l) : vector_inc(r, &inc))) {
        nn_tensor *c = nn_clone(r);
        NN_SET(r, c);
    }
    nn_set_grad_enabled(prev);
    return r;
}

/* The BLAS table for a product of these dims, or NULL with a RuntimeError set
 * when a dim overflows BLAS's int or OpenBLAS cannot be loaded. */
static const nn_blas *blas_for(int64_t n, int64_t m, int64_t k)
{
    if (n > INT_MAX || m > INT_MAX || k > INT_MAX) {
        nn_error_set(NN_ERR_RUNTIME, "matrix dimensions (%lld, %lld, %lld) are too large for BLAS", (long long)n,
                     (long long)m, (long long)k);
        return NULL;
    }
    return nn_blas_get();
}

/* Elements between consecutive matrices of a batch (0 for a single matrix). */
static int64_t batch_stride(const nn_tensor *t) { return t->ndim == 3 ? t->strides[0] : 0; }

/* ------------------------------------------------------------- kernels */


/* The matmul_loop kernel on [1, rows, cols] views of a's, b's and out's elements
   (element strides rs, cs from their offsets): one integer product. */
static int int_product(nn_tensor *out, int64_t n, int64_t m, int64_t k, nn_tensor *a, int64_t aoff, int64_t ars,
                       int64_t acs, nn_tensor *b, int64_t boff, int64_t brs, int64_t bcs, int64_t ooff)
{
    nn_tensor *va = nn_tensor_new_view(a, 3, (int64_t[]){1, n, k}, (int64_t[]){0, ars, acs}, aoff);
    nn_tensor *vb = va ? nn_tensor_new_view(b, 3, (int64_t[]){1, k, m}, (int64_t[]){0, brs, bcs}, boff) : NULL;
    nn_tensor *vo = vb ? nn_tensor_new_view(out, 3, (int64_t[]){1, n, m}, (int64_t[]){0, m, 1}, ooff) : NULL;
    int rc = vo ? NN_KERNEL(nn_backend_of(out), matmul_loop, (vo, va, vb)) : -1;
    NN_RELEASE(va);
    NN_RELEASE(vb);
    NN_RELEASE(vo);
    return rc;
}

/* Writes computed (contiguous, in the compute dtype) into out's dtype; releases computed. */
static int finish(nn_tensor *out, nn_tensor *computed)
{
    if (computed == out) {
        NN_RELEASE(computed);
        return 0;
    }
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_copy_(out, computed));
    out->storage->version = 0;
    NN_RELEASE(computed);
    return rc;
}

/* A destination in the compute dtype: out itself (retained) when it has it. */
static nn_tensor *target_for(nn_tensor *out, nn_dtype cd)
{
    if (out->dtype == cd) {
        NN_RETAIN(out);
        return out;
    }
    return nn_empty_on(nn_device_of(out), out->ndim, out->sizes, cd);
}

/* t in dtype cd (t itself, retained, when it has it). No autograd; new reference. */
static nn_tensor *as_compute(nn_tensor *t, nn_dtype cd)
{
    nn_tensor *r;
    NN_WITH_GRAD_MODE(false, r = nn_to_dtype(t, cd));
    return r;
}

/* out[i] = a[i] @ b[i] for each matrix of a batch: a [(B,) n, k], b [(B,) k, m],
   out a fresh contiguous [(B,) n, m]. Shapes and dtypes are already checked. */
static int products(nn_tensor *out, nn_tensor *a, nn_tensor *b)
{
    int64_t batch = out->ndim == 3 ? out->sizes[0] : 1;
    int64_t n = a->sizes[a->ndim - 2], k = a->sizes[a->ndim - 1], m = b->sizes[b->ndim - 1];
    nn_dtype cd = compute_dtype(out->dtype);
    if (is_int(cd)) {
        int d = a->ndim - 2, e = b->ndim - 2;
        for (int64_t i = 0; i < batch; i++) {
            if (nn_check_interrupt() < 0) return -1;
            if (int_product(out, n, m, k, a, a->offset + i * batch_stride(a), a->strides[d], a->strides[d + 1], b,
                            b->offset + i * batch_stride(b), b->strides[e], b->strides[e + 1], out->offset + i * n * m) < 0)
                return -1;
        }
        return 0;
    }
    if (out->dtype == NN_BFLOAT16 && nn_bf16_plain_product(a, b, 0)) {
        nn_tensor *r = nn_bf16_plain_matmul(a, b);
        return r ? finish(out, r) : -1;
    }
    const nn_blas *blas = blas_for(n, m, k);
    if (!blas) return -1;
    nn_tensor *ca = as_compute(a, cd), *cb = ca ? as_compute(b, cd) : NULL;
    nn_tensor *target = cb ? target_for(out, cd) : NULL;
    int rc = target ? 0 : -1;
    if (rc == 0 && out->ndim == 3 && k * n * m < 400) {
        /* ATen's bmm of small matrices: baddbmm_cpu_kernel's plain loop */
        rc = NN_KERNEL(nn_backend_of(target), matmul_loop, (target, ca, cb));
    } else if (rc == 0) {
        /* mm, and bmm as ATen's: addmm_impl_cpu_ on each matrix of the batch */
        int d = out->ndim - 2;
        for (int64_t i = 0; i < batch && rc == 0; i++) {
            if (batch > 1 && (rc = nn_check_interrupt()) < 0) break;
            nn_tensor *va = nn_tensor_new_view(ca, 2, ca->sizes + d, ca->strides + d, ca->offset + i * batch_stride(ca));
            nn_tensor *vb = nn_tensor_new_view(cb, 2, cb->sizes + d, cb->strides + d, cb->offset + i * batch_stride(cb));
            nn_tensor *vc = nn_tensor_new_view(target, 2, target->sizes + d, target->strides + d,
                                               target->offset + i * n * m);
            rc = va && vb && vc ? nn_gemm_as_aten(vc, va, vb, 0.0) : -1;
            NN_RELEASE(va);
            NN_RELEASE(vb);
            NN_RELEASE(vc);
        }
    }
    if (target) {
        if (rc == 0) rc = finish(out, target);
        else NN_RELEASE(target);
    }
    NN_RELEASE(ca);
    NN_RELEASE(cb);
    return rc;
}

/* out[n] = a[n, k] @ x[k]. */
static int matvec(nn_tensor *out, nn_tensor *a, nn_tensor *x)
{
    int64_t n = a->sizes[0], k = a->sizes[1];
    nn_dtype cd = compute_dtype(out->dtype);
    if (is_int(cd)) /* x as a [k, 1] matrix */
        return int_product(out, n, 1, k, a, a->offset, a->strides[0], a->strides[1], x, x->offset, x->strides[0], 0,
                           out->offset);
    if (out->dtype == NN_BFLOAT16 && nn_bf16_plain_product(a, x, 1)) {
        nn_tensor *xc = nn_unsqueeze(x, 1), *r = xc ? nn_bf16_plain_matmul(a, xc) : NULL;
        NN_RELEASE(xc);
        nn_tensor *flat = r ? nn_squeeze_dim(r, 1) : NULL;
        NN_RELEASE(r);
        return flat ? finish(out, flat) : -1;
    }
    const nn_blas *blas = blas_for(n, 1, k);
    if (!blas) return -1;
    nn_tensor *ca = as_compute(a, cd), *cx = ca ? as_compute(x, cd) : NULL;
    nn_tensor *target = cx ? target_for(out, cd) : NULL;
    int rc = target ? nn_gemv_as_aten(target, ca, cx) : -1; /* addmv_out_cpu's ?gemv */
    if (rc == 0) {
        rc = finish(out, target);
        target = NULL;
    } else if (rc > 0) { /* not on the CPU: the GEMM kernel, operands BLAS can read */
        NN_SET(ca, prepare(ca, cd, true));
        NN_SET(cx, ca ? prepare(cx, cd, false) : NULL);
        rc = -1;
        if (!cx) NN_SET(target, NULL);
    } else {
        NN_SET(target, NULL);
    }
    if (target) {
        layout la;
        int64_t inc;
        matrix_layout(ca, &la);
        vector_inc(cx, &inc);
        /* the GEMM kernel with x as a [k, 1] matrix (row stride inc) */
        rc = NN_KERNEL(nn_backend_of(target), gemm, (la.trans, false, n, 1, k, ca, la.ld, cx, inc, 0.0, target, 1));
        if (rc == 0) rc = finish(out, target);
        else NN_RELEASE(target);
    }
    NN_RELEASE(ca);
    NN_RELEASE(cx);
    return rc;
}

/* out (0-dim) = x[n] . y[n]. */
static int inner(nn_tensor *out, nn_tensor *x, nn_tensor *y)
{
    int64_t n = x->sizes[0];
    nn_dtype cd = compute_dtype(out->dtype);
    if (is_int(cd)) /* x as [1, n], y as [n, 1] */
        return int_product(out, 1, 1, n, x, x->offset, 0, x->strides[0], y, y->offset, y->strides[0], 0, out->offset);
    if (out->dtype == NN_BFLOAT16 && nn_bf16_plain_product(x, y, 2)) {
        nn_tensor *xr = nn_unsqueeze(x, 0), *yc = xr ? nn_unsqueeze(y, 1) : NULL;
        nn_tensor *r = yc ? nn_bf16_plain_matmul(xr, yc) : NULL, *s = r ? nn_reshape(r, 0, NULL) : NULL;
        NN_RELEASE(xr);
        NN_RELEASE(yc);
        NN_RELEASE(r);
        return s ? finish(out, s) : -1;
    }
    nn_tensor *cx = prepare(x, cd, false), *cy = cx ? prepare(y, cd, false) : NULL;
    nn_tensor *target = cy ? target_for(out, cd) : NULL;
    int rc = -1;
    if (target) {
        /* the GEMM kernel: x^T as [1, n] (x stored [n, 1], row stride ix) @ y as [n, 1] */
        int64_t ix, iy;
        vector_inc(cx, &ix);
        vector_inc(cy, &iy);
        /* PyTorch's at::dot calls BLAS ?dot, which sums in another order than a 1x1 GEMM: the dot kernel */
        rc = NN_KERNEL(nn_backend_of(target), dot, (n, cx, ix, cy, iy, target));
        if (rc == 0) rc = finish(out, target);
        else NN_RELEASE(target);
    }
    NN_RELEASE(cx);
    NN_RELEASE(cy);
    return rc;
}

/* ------------------------------------------------------------- recording */

/* Records op on out, saving each operand only when the other one needs it
   (its gradient is the other's product with the output's grad). Releases out on error. */
static nn_tensor *record_product(nn_op_id op, nn_tensor *a, nn_tensor *b, nn_tensor *out, const nn_op_params *p)
{
    nn_tensor *in[2] = {a, b};
    nn_tensor *save[2] = {b->requires_grad ? a : NULL, a->requires_grad ? b : NULL};
    if (out && nn_record(op, 2, in, 1, &out, 2, save, p) < 0) NN_SET(out, NULL);
    return out;
}

void nn_mm_layout(const nn_tensor *m, int64_t layout[4])
{
    for (int d = 0; d < 2; d++) {
        layout[d] = m->sizes[d];
        layout[2 + d] = m->strides[d];
    }
}

/* A matrix PyTorch's mm backward treats as column-major: strides (1, rows). */
static bool column_major(const int64_t layout[4])
{
    return layout[2] == 1 && layout[3] == layout[0];
}

/* (x @ y)^T, x and y borrowed. New reference, or NULL with the error set. */
static nn_tensor *product_t(nn_tensor *x, nn_tensor *y)
{
    nn_tensor *prod = nn_mm(x, y), *out = prod ? nn_t(prod) : NULL;
    NN_RELEASE(prod);
    return out;
}

/* The gradient of the first (second) operand of a product from grad g and the
   other operand: g @ other^T (other^T @ g), or for a column-major operand the
   transposed product (other @ g^T)^T ((g^T @ other)^T). */
static nn_tensor *operand_grad(nn_tensor *g, nn_tensor *other, const int64_t layout[4], bool first)
{
    bool transposed = column_major(layout);
    nn_tensor *plain = transposed ? other : g, *flipped = nn_t(transposed ? g : other), *out = NULL;
    if (flipped) {
        nn_tensor *x = first ? plain : flipped, *y = first ? flipped : plain;
        out = transposed ? product_t(x, y) : nn_mm(x, y);
    }
    NN_RELEASE(flipped);
    return out;
}

nn_tensor *nn_mm_mat1_backward(nn_tensor *g, nn_tensor *mat2, const int64_t layout1[4])
{
    return operand_grad(g, mat2, layout1, true);
}

nn_tensor *nn_mm_mat2_backward(nn_tensor *g, nn_tensor *mat1, const int64_t layout2[4])
{
    return operand_grad(g, mat1, layout2, false);
}

/* ------------------------------------------------------------- the ops */

static const char *const MM_KERNEL = "addmm_impl_cpu_";

/* The device both operands live on; RuntimeError when they differ. */
static int pair_device(nn_tensor *a, nn_tensor *b, nn_device *d)
{
    nn_tensor *both[2] = {a, b};
    return nn_common_device(2, both, d);
}

nn_tensor *nn_mm(nn_tensor *a, nn_tensor *b)
{
    NN_AUTOCAST(LOWER, nn_mm(ac_[0], ac_[1]), a, b);
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "self must be a matrix");
        return NULL;
    }
    if (b->ndim != 2) {
        nn_error_set(NN_ERR_RUNTIME, "mat2 must be a matrix");
        return NULL;
    }
    int64_t n = a->sizes[0], k = a->sizes[1], m = b->sizes[1];
    if (b->sizes[0] != k) {
        nn_error_set(NN_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)n, (long long)k, (long long)b->sizes[0], (long long)m);
        return NULL;
    }
    int64_t shape[2] = {n, m};
    nn_device d;
    if (pair_device(a, b, &d) < 0) return NULL;
    /* as PyTorch: an empty product is zeros before any dtype check */
    bool empty = n == 0 || m == 0 || k == 0;
    nn_tensor *out = empty ? nn_full_on(d, 2, shape, 0, a->dtype) : NULL;
    if (!empty && check_dtypes(MM_KERNEL, a->dtype, b->dtype) == 0) {
        out = nn_empty_on(d, 2, shape, a->dtype);
        if (out && products(out, a, b) < 0) NN_SET(out, NULL);
    }
    /* the backward picks each gradient's layout by the operands' strides, as PyTorch's */
    nn_op_params p = {.n_i = 8};
    nn_mm_layout(a, p.i);
    nn_mm_layout(b, p.i + 4);
    return record_product(NN_OP_mm, a, b, out, &p);
}

nn_tensor *nn_bmm(nn_tensor *a, nn_tensor *b)
{
    NN_AUTOCAST(LOWER, nn_bmm(ac_[0], ac_[1]), a, b);
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (a->ndim != 3) {
        nn_error_set(NN_ERR_RUNTIME, "batch1 must be a 3D tensor");
        return NULL;
    }
    if (b->ndim != 3) {
        nn_error_set(NN_ERR_RUNTIME, "batch2 must be a 3D tensor");
        return NULL;
    }
    int64_t batch = a->sizes[0], n = a->sizes[1], k = a->sizes[2], m = b->sizes[2];
    if (b->sizes[0] != batch || b->sizes[1] != k) {
        nn_error_set(NN_ERR_RUNTIME,
                     "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, "
                     "%lld].",
                     (long long)batch, (long long)k, (long long)b->sizes[0], (long long)b->sizes[1]);
        return NULL;
    }
    int64_t shape[3] = {batch, n, m};
    nn_device d;
    if (pair_device(a, b, &d) < 0) return NULL;
    /* PyTorch gives bmm's result batch2's dtype (visible only when it is empty) */
    bool empty = batch == 0 || n == 0 || m == 0 || k == 0;
    nn_tensor *out = empty ? nn_full_on(d, 3, shape, 0, b->dtype) : NULL;
    if (!empty && check_dtypes("bmm", a->dtype, b->dtype) == 0) {
        out = nn_empty_on(d, 3, shape, a->dtype);
        if (out && products(out, a, b) < 0) NN_SET(out, NULL);
    }
    return record_product(NN_OP_bmm, a, b, out, NULL);
}

nn_tensor *nn_mv(nn_tensor *a, nn_tensor *x)
{
    if (a->ndim == 0) {
        nn_error_set(NN_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    if (a->ndim != 2 || x->ndim != 1) {
        nn_error_set(NN_ERR_RUNTIME, "vector + matrix @ vector expected, got 1, %d, %d", a->ndim, x->ndim);
        return NULL;
    }
    int64_t n = a->sizes[0], k = a->sizes[1];
    if (x->sizes[0] != k) {
        nn_error_set(NN_ERR_RUNTIME, "size mismatch, got %lld, %lldx%lld,%lld", (long long)n, (long long)n,
                     (long long)k, (long long)x->sizes[0]);
        return NULL;
    }
    nn_device d;
    if (pair_device(a, x, &d) < 0) return NULL;
    /* PyTorch's mv result takes the vector's dtype; empty products skip the kernel */
    bool empty = n == 0 || k == 0;
    nn_tensor *out = empty ? nn_full_on(d, 1, &n, 0, x->dtype) : NULL;
    if (!empty && check_dtypes("addmv_impl_cpu", a->dtype, x->dtype) == 0) {
        out = nn_empty_on(d, 1, &n, x->dtype);
        if (out && matvec(out, a, x) < 0) NN_SET(out, NULL);
    }
    return record_product(NN_OP_mv, a, x, out, NULL);
}

nn_tensor *nn_dot(nn_tensor *a, nn_tensor *b)
{
    if (a->ndim != 1 || b->ndim != 1) {
        nn_error_set(NN_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        nn_error_set(NN_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but found %s and %s",
                     type_title(a->dtype), type_title(b->dtype));
        return NULL;
    }
    int64_t n = a->sizes[0];
    if (b->sizes[0] != n) {
        nn_error_set(NN_ERR_RUNTIME,
                     "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of "
                     "elements, but got %lld and %lld elements respectively",
                     (long long)n, (long long)b->sizes[0], (long long)n, (long long)b->sizes[0]);
        return NULL;
    }
    if (check_dtypes("dot", a->dtype, b->dtype) < 0) return NULL;
    nn_device d;
    if (pair_device(a, b, &d) < 0) return NULL;
    nn_tensor *out = nn_full_on(d, 0, NULL, 0, a->dtype);
    if (out && n > 0 && inner(out, a, b) < 0) NN_SET(out, NULL);
    return record_product(NN_OP_dot, a, b, out, NULL);
}

/* ------------------------------------------------------------- matmul */

/* at::_unsafe_view: t (fresh and contiguous) reshaped without being a view in
   autograd's eyes (UnsafeViewBackward0, no base). New reference. */
static nn_tensor *unsafe_view(nn_tensor *t, int ndim, const int64_t *sizes)
{
    int64_t strides[NN_MAX_DIMS];
    nn_contiguous_strides(ndim, sizes, strides);
    nn_tensor *out = nn_tensor_new_view(t, ndim, sizes, strides, t->offset);
    if (out && nn_record(NN_OP_unsafe_view, 1, &t, 1, &out, 0, NULL, NULL) < 0) NN_SET(out, NULL);
    return out;
}

nn_tensor *nn_unsafe_view_of(nn_tensor *t, int ndim, const int64_t *sizes) { return unsafe_view(t, ndim, sizes); }

/* r.squeeze_(0) on a fresh [1, m] result: r becomes [m] in place, its history
   SqueezeBackward3 over what it had. Bumps the version, as in-place ops do. */
static int squeeze0_(nn_tensor *r)
{
    nn_op_params p = {.n_i = 0, .flags = 0};
    if (nn_record_inplace(NN_OP_squeeze_inplace, r, 1, &r, 0, NULL, &p) < 0) return -1;
    r->ndim = 1;
    r->sizes[0] = r->sizes[1];
    r->strides[0] = r->strides[1];
    nn_bump_version(r);
    if (r->grad_fn) {
        nn_input_meta *m = &r->grad_fn->output_meta[0];
        m->ndim = 1;
        m->sizes[0] = r->sizes[0];
    }
    return 0;
}

/* PyTorch 1.13's should_fold: t1 (>= 3-D) times a vector or matrix runs as one
   mm/mv over t1's batch folded into rows, unless t1 is [B, n, k] with its
   matrices transposed in place (then bmm reads them transposed). */
static bool should_fold(const nn_tensor *t1, int dim2)
{
    if (t1->ndim < 3 || (dim2 != 1 && dim2 != 2)) return false;
    if (t1->ndim == 3 && dim2 == 2 && t1->strides[2] != 1 && t1->strides[0] == t1->sizes[1] * t1->sizes[2])
        return false;
    return true;
}

/* [..., n, k] @ [k(, m)] as one mm/mv; when the batch is on b (transpose),
   computes (b^T @ a^T)^T. */
static nn_tensor *folded(nn_tensor *a, nn_tensor *b)
{
    bool transpose = b->ndim > a->ndim;
    nn_tensor *t1 = transpose ? nn_transpose(b, -2, -1) : retained(a);
    nn_tensor *t2 = !transpose ? retained(b) : a->ndim == 2 ? nn_t(a) : retained(a);
    nn_tensor *t1f = NULL, *prod = NULL, *out = NULL;
    if (!t1 || !t2) goto done;
    int64_t shape[NN_MAX_DIMS], rows = 1;
    int nd = t1->ndim - 1;
    for (int d = 0; d < nd; d++) rows *= (shape[d] = t1->sizes[d]);
    bool matrix = t2->ndim == 2;
    if (matrix) shape[nd++] = t2->sizes[1];
    /* explicit sizes, not -1: [3, 5, 0] @ [0, 0] must fold too */
    t1f = nn_reshape(t1, 2, (const int64_t[]){rows, t1->sizes[t1->ndim - 1]});
    prod = !t1f ? NULL : matrix ? nn_mm(t1f, t2) : nn_mv(t1f, t2);
    out = prod ? unsafe_view(prod, nd, shape) : NULL;
    if (out && matrix && transpose) {
        nn_tensor *tr = nn_transpose(out, -2, -1);
        NN_SET(out, tr ? nn_contiguous(tr) : NULL);
        NN_RELEASE(tr);
    }
done:
    NN_RELEASE(t1);
    NN_RELEASE(t2);
    NN_RELEASE(t1f);
    NN_RELEASE(prod);
    return out;
}

/* Broadcast batch dims: expand both to [batch..., rows, cols], flatten the
   batch, bmm, and view the result as [batch..., n, p]. */
static nn_tensor *batched(nn_tensor *a, nn_tensor *b)
{
    int da = a->ndim, db = b->ndim;
    int64_t n = da > 1 ? a->sizes[da - 2] : 1, m1 = a->sizes[da - 1];
    int64_t m2 = db > 1 ? b->sizes[db - 2] : b->sizes[0], p = db > 1 ? b->sizes[db - 1] : 1;
    int nb1 = da > 2 ? da - 2 : 0, nb2 = db > 2 ? db - 2 : 0, nb;
    int64_t shape[NN_MAX_DIMS + 2], size1[NN_MAX_DIMS + 2], size2[NN_MAX_DIMS + 2];
    if (nn_broadcast_shapes(nb1, a->sizes, nb2, b->sizes, &nb, shape) < 0) return NULL;
    int64_t batch = 1;
    for (int d = 0; d < nb; d++) batch *= shape[d];
    memcpy(size1, shape, sizeof(int64_t) * (size_t)nb);
    memcpy(size2, shape, sizeof(int64_t) * (size_t)nb);
    size1[nb] = n, size1[nb + 1] = m1;
    size2[nb] = m2, size2[nb + 1] = p;
    nn_tensor *e1 = nn_expand(a, nb + 2, size1), *e2 = e1 ? nn_expand(b, nb + 2, size2) : NULL;
    nn_tensor *r1 = e2 ? nn_reshape(e1, 3, (const int64_t[]){batch, n, m1}) : NULL;
    nn_tensor *r2 = r1 ? nn_reshape(e2, 3, (const int64_t[]){batch, m2, p}) : NULL;
    nn_tensor *prod = r2 ? nn_bmm(r1, r2) : NULL, *out = NULL;
    if (prod) {
        int nd = nb;
        if (da > 1) shape[nd++] = n;
        if (db > 1) shape[nd++] = p;
        out = unsafe_view(prod, nd, shape);
    }
    NN_RELEASE(e1);
    NN_RELEASE(e2);
    NN_RELEASE(r1);
    NN_RELEASE(r2);
    NN_RELEASE(prod);
    return out;
}

nn_tensor *nn_matmul(nn_tensor *a, nn_tensor *b)
{
    NN_AUTOCAST(LOWER, nn_matmul(ac_[0], ac_[1]), a, b);
    if (!a || !b) return NULL; /* an operand a nested call failed to make (its error is current) */
    if (nn_dtype_is_complex(a->dtype) || nn_dtype_is_complex(b->dtype)) return nn_complex_matmul(a, b);
    int da = a->ndim, db = b->ndim;
    if (da == 0 || db == 0) {
        nn_error_set(NN_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da,
                     db);
        return NULL;
    }
    if (da == 1 && db == 1) return nn_dot(a, b);
    if (da == 2 && db == 1) return nn_mv(a, b);
    if (da == 2 && db == 2) return nn_mm(a, b);
    if (da == 1 && db == 2) {
        /* a.unsqueeze(0).mm(b).squeeze_(0) */
        nn_tensor *row = nn_unsqueeze(a, 0), *out = row ? nn_mm(row, b) : NULL;
        NN_RELEASE(row);
        if (out && squeeze0_(out) < 0) NN_SET(out, NULL);
        return out;
    }
    if (should_fold(a, db) || should_fold(b, da)) return folded(a, b);
    return batched(a, b);
}

/* ------------------------------------------------------------- backwards */

/* *slot = f(x, y); takes x and y (either may be NULL after a failure). */
static int grad_into(nn_tensor **slot, nn_tensor *(*f)(nn_tensor *, nn_tensor *), nn_tensor *x, nn_tensor *y)
{
    *slot = x && y ? f(x, y) : NULL;
    NN_RELEASE(x);
    NN_RELEASE(y);
    return *slot ? 0 : -1;
}

int nn_mm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1), *g = gout[0];
    /* d(a @ b): grad @ b^T for a, a^T @ grad for b, laid out as PyTorch's */
    if (nn_node_needs_input_grad(n, 0) && !(gin[0] = nn_mm_mat1_backward(g, b, n->p.i))) return -1;
    if (nn_node_needs_input_grad(n, 1) && !(gin[1] = nn_mm_mat2_backward(g, a, n->p.i + 4))) return -1;
    return 0;
}

int nn_bmm_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1), *g = gout[0];
    if (nn_node_needs_input_grad(n, 0) && grad_into(&gin[0], nn_bmm, retained(g), nn_transpose(b, 1, 2)) < 0)
        return -1;
    if (nn_node_needs_input_grad(n, 1) && grad_into(&gin[1], nn_bmm, nn_transpose(a, 1, 2), retained(g)) < 0)
        return -1;
    return 0;
}

int nn_dot_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *b = nn_node_saved(n, 1), *g = gout[0];
    /* grad is 0-dim: each vector's gradient is grad times the other */
    if (nn_node_needs_input_grad(n, 0) && grad_into(&gin[0], nn_mul, retained(g), retained(b)) < 0) return -1;
    if (nn_node_needs_input_grad(n, 1) && grad_into(&gin[1], nn_mul, retained(g), retained(a)) < 0) return -1;
    return 0;
}

int nn_mv_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    nn_tensor *a = nn_node_saved(n, 0), *x = nn_node_saved(n, 1), *g = gout[0];
    /* the matrix: the outer product grad x^T; the vector: a^T @ grad */
    if (nn_node_needs_input_grad(n, 0) && grad_into(&gin[0], nn_mul, nn_unsqueeze(g, 1), nn_unsqueeze(x, 0)) < 0)
        return -1;
    if (nn_node_needs_input_grad(n, 1) && grad_into(&gin[1], nn_mv, nn_t(a), retained(g)) < 0) return -1;
    return 0;
}
