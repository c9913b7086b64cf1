/*
 * tensor_index_value.c — Tensor.__index__ for the language's sequences: a tensor
 * of one element of an integer or bool dtype stands for its int, so
 * `itos[word_idx]`, `(a, b)[t]` and `'abc'[t]` work as in PyTorch; any other
 * tensor is PyTorch's TypeError.
 */
#include "eval_int.h"

int repl_tensor_index(nn_tensor *t, int64_t *out)
{
    if (nn_numel(t) != 1 || nn_dtype_is_floating(t->dtype))
        return repl_raise_exc(EXC_TypeError, "only integer tensors of a single element can be converted to an index");
    int64_t zeros[t->ndim > 0 ? t->ndim : 1];
    for (int d = 0; d < t->ndim; d++) zeros[d] = 0;
    *out = nn_get_int64(t, zeros);
    return nn_error_current() ? -1 : 0;
}
