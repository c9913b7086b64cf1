/*
 * bind_inplace.c — a tensor's augmented assignment (`t += x`, `w -= lr * w.grad`),
 * as PyTorch's Tensor.__iadd__ & co.: the tensor itself is written (aliases and
 * the model holding it see the new values; a leaf stays the same leaf), with
 * PyTorch's errors for a leaf that requires grad, a result of another shape or
 * of a dtype the tensor can't hold. Python numbers take part as wrapped numbers.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"

const char *repl_shape_text(const nn_tensor *t, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (k < n) snprintf(buf + k, n - k, "]");
    return buf;
}

int repl_tensor_result_fits(nn_tensor *a, nn_tensor *r)
{
    char s1[256], s2[256];
    if (r->ndim != a->ndim || memcmp(r->sizes, a->sizes, sizeof(int64_t) * (size_t)a->ndim) != 0)
        return nn_error_set(NN_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                            repl_shape_text(a, s1, sizeof s1), repl_shape_text(r, s2, sizeof s2));
    bool narrowing = (nn_dtype_is_floating(r->dtype) && !nn_dtype_is_floating(a->dtype)) ||
                     (a->dtype == NN_BOOL && r->dtype != NN_BOOL);
    if (narrowing)
        return nn_error_set(NN_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                            nn_dtype_scalar_name(r->dtype), nn_dtype_scalar_name(a->dtype));
    return 0;
}

int repl_tensor_write_result(nn_tensor *a, nn_tensor *r)
{
    return repl_tensor_result_fits(a, r) < 0 ? -1 : nn_index_put_(a, 0, NULL, r);
}

nn_object *repl_tensor_inplace(repl_binop op, nn_object *a, nn_object *b)
{
    if (!nn_is_tensor(a) || op == REPL_MATMUL || (op >= REPL_LT && op <= REPL_NE)) return NULL;
    nn_tensor *t = NN_TENSOR(a);
    int rc;
    if (op <= REPL_DIV) {
        nn_tensor *y = repl_as_tensor(b);
        if (!y) return NULL; /* not a number or tensor: Python's fallback to t + b */
        rc = op == REPL_ADD ? nn_add_(t, y, 1.0) : op == REPL_SUB ? nn_sub_(t, y)
           : op == REPL_MUL ? nn_mul_(t, y) : nn_div_(t, y);
        NN_RELEASE(y);
    } else {
        /* //=, %=, **=, &=, |=, ^=: computed aside, then written */
        nn_object *r = repl_tensor_binary(op, a, b);
        if (!r) return NULL;
        rc = nn_is_tensor(r) ? repl_tensor_write_result(t, NN_TENSOR(r)) : -1;
        NN_RELEASE(r);
    }
    return rc < 0 || nn_inference_inplace_check(t) < 0 ? NULL : nn_retain(a);
}
