/*
 * bind_nn_lang.c — what the torch.nn layers written in the language
 * (repl/lib/torch.nn.*.py) call into:
 *   torch.convolution  ATen's convolution entry (every convolution and transposed
 *                      convolution of 1, 2 or 3 spatial dims, chosen by the weight's
 *                      rank), through which F.conv3d runs core's conv3d ops;
 *   torch._nnscope_name_grad_fn(t, name, *inputs)  names t's grad_fn as PyTorch
 *                      names the one op the layer stands for (torch.nn._grad_names.py),
 *                      when that node is the call's own (none of the inputs' nodes).
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"
#include "nn_conv3d.h"
#include "nn_layers.h"
#include "nn_custom_fn.h"
#include "nn_mod_more.h"
#include "nn_linalg.h"

/* ATen's check that input has weight's rank; sep goes between "weight" and its sizes
   (torch.convolution writes a space there, torch._convolution_mode none). */
static int check_input_rank(const nn_tensor *x, const nn_tensor *w, const char *sep)
{
    if (x->ndim == w->ndim) return 0;
    char s1[128], s2[128];
    return nn_error_set(NN_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight%s%s, but got "
                        "%d-dimensional input of size %s instead", w->ndim, w->ndim, sep,
                        nn_shape_str(w->ndim, w->sizes, s1, sizeof s1), x->ndim,
                        nn_shape_str(x->ndim, x->sizes, s2, sizeof s2));
}

/* a sequence of n ints (or of one, for all n) into v; argument position pos */
static int int_list(const char *f, const char *name, int pos, nn_object *o, int n, int64_t *v)
{
    if (!nn_is_instance(o, &nn_tuple_type) && !nn_is_list(o))
        return nn_error_set(NN_ERR_TYPE, "%s(): argument '%s' (position %d) must be tuple of ints, not %s", f, name, pos,
                            repl_type_name(o));
    int k = 0;
    int64_t sizes[NN_MAX_DIMS];
    if (repl_arg_shape(f, name, o, &k, sizes)) return -1;
    if (k == 1) {
        for (int i = 0; i < n; i++) v[i] = sizes[0];
        return 0;
    }
    if (k != n)
        return nn_error_set(NN_ERR_RUNTIME, "expected %s to be a single integer value or a list of %d values to match "
                            "the convolution dimensions, but got %s=[%d values]", name, n, name, k);
    memcpy(v, sizes, sizeof(int64_t) * (size_t)n);
    return 0;
}

static nn_object *f_convolution(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[9] = {0};
    const char *f = "convolution";
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    bool transposed = false;
    int64_t groups = 1;
    if (repl_parse_args(f, "input, weight, bias, stride, padding, dilation, transposed, output_padding, groups", args,
                        kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "weight", 2, a[1], &w) ||
        (!nn_is_none(a[2]) && repl_arg_tensor(f, "bias", 3, a[2], &b)) ||
        repl_arg_bool(f, "transposed", 7, a[6], &transposed) || repl_arg_int(f, "groups", 9, a[8], &groups))
        return NULL;
    int dims = w->ndim - 2;
    if (dims < 1 || dims > 3)
        return nn_error_set(NN_ERR_RUNTIME, "weight should have at least three dimensions"), NULL;
    int64_t stride[3], padding[3], dilation[3], outpad[3];
    if (int_list(f, "stride", 4, a[3], dims, stride) || int_list(f, "padding", 5, a[4], dims, padding) ||
        int_list(f, "dilation", 6, a[5], dims, dilation) || int_list(f, "output_padding", 8, a[7], dims, outpad) ||
        check_input_rank(x, w, " "))
        return NULL;
    if (dims == 3)
        return (nn_object *)(transposed ? nn_conv_transpose3d(x, w, b, stride, padding, outpad, groups, dilation)
                                        : nn_conv3d(x, w, b, stride, padding, dilation, groups));
    if (transposed) return (nn_object *)nn_conv_transpose(dims, x, w, b, stride, padding, outpad, groups, dilation);
    if (dims == 2) return (nn_object *)nn_conv2d(x, w, b, stride, padding, dilation, groups);
    return (nn_object *)nn_conv1d(x, w, b, stride[0], padding[0], dilation[0], groups);
}

/* torch._convolution_mode(input, weight, bias, stride, padding, dilation, groups): padding 'valid' or
   'same' (F.conv3d's string padding runs here) */
static nn_object *f_convolution_mode(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[7] = {0};
    const char *f = "_convolution_mode", *padding = NULL;
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    int64_t groups = 1;
    if (repl_parse_args(f, "input, weight, bias, stride, padding, dilation, groups", args, kwargs, a) ||
        repl_arg_tensor(f, "input", 1, a[0], &x) || repl_arg_tensor(f, "weight", 2, a[1], &w) ||
        (!nn_is_none(a[2]) && repl_arg_tensor(f, "bias", 3, a[2], &b)) ||
        repl_arg_str(f, "padding", 5, a[4], &padding) || repl_arg_int(f, "groups", 7, a[6], &groups))
        return NULL;
    int dims = w->ndim - 2;
    if (dims < 1 || dims > 3)
        return nn_error_set(NN_ERR_RUNTIME, "weight should have at least three dimensions"), NULL;
    int64_t stride[3], dilation[3];
    if (int_list(f, "stride", 4, a[3], dims, stride) || int_list(f, "dilation", 6, a[5], dims, dilation) ||
        check_input_rank(x, w, ""))
        return NULL;
    return (nn_object *)nn_conv_str(dims, x, w, b, padding, stride, dilation, groups);
}

static nn_object *f_name_grad_fn(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    if (n < 2 || (kwargs && nn_dict_len(kwargs)) || !nn_is_tensor(nn_tuple_get(args, 0)) || !nn_is_str(nn_tuple_get(args, 1)))
        return nn_error_set(NN_ERR_TYPE, "_nnscope_name_grad_fn(tensor, name, *inputs): a tensor and a str"), NULL;
    nn_tensor *t = NN_TENSOR(nn_tuple_get(args, 0));
    nn_node *node = t->grad_fn;
    bool own = node != NULL;
    for (size_t i = 2; i < n && own; i++) {
        nn_object *o = nn_tuple_get(args, i);
        if (nn_is_tensor(o) && NN_TENSOR(o)->grad_fn == node) own = false;
    }
    if (own && nn_node_set_name(node, nn_str_cstr(nn_tuple_get(args, 1))) < 0) return NULL;
    return nn_retain(&t->ob);
}

/* torch._nnscope_lu_solve(LU, pivots, B, adjoint): getrs's X (core's nn_linalg_lu_solve_getrs),
   the values torch.linalg.lu_solve (torch._linalg_solve.py) gives */
static nn_object *f_lu_solve(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[4] = {0};
    nn_tensor *lu = NULL, *piv = NULL, *b = NULL;
    int adjoint = 0;
    if (repl_parse_args("_nnscope_lu_solve", "LU, pivots, B, adjoint", args, kwargs, a) ||
        repl_arg_tensor("_nnscope_lu_solve", "LU", 1, a[0], &lu) ||
        repl_arg_tensor("_nnscope_lu_solve", "pivots", 2, a[1], &piv) ||
        repl_arg_tensor("_nnscope_lu_solve", "B", 3, a[2], &b) || (adjoint = repl_truth(a[3])) < 0)
        return NULL;
    return (nn_object *)nn_linalg_lu_solve_getrs(lu, piv, b, adjoint);
}

static const repl_function_def conv_functions[] = {
    {"_nnscope_lu_solve", f_lu_solve, "_nnscope_lu_solve(LU, pivots, B, adjoint) -> Tensor\nnnscope's own: LAPACK's getrs solve of torch.linalg.lu_solve (real float32/float64, one batch shape)."},
    {"_nnscope_name_grad_fn", f_name_grad_fn, "_nnscope_name_grad_fn(tensor, name, *inputs) -> Tensor\nnnscope's own: names tensor's grad_fn as PyTorch names the op a layer written in the language stands for, unless that node is one of the inputs'."},
    {"_nnscope_materialize", repl_lazy_materialize, "_nnscope_materialize(t, shape, dtype=None)\nnnscope's own: UninitializedParameter.materialize (bind_lazy.c)."},
    {"_nnscope_module_become", repl_lazy_module_become, "_nnscope_module_become(module, template)\nnnscope's own: module.__class__ = type(template) for a lazy module (bind_lazy.c)."},
    {"_nnscope_mute_warnings", repl_lazy_mute_warnings, "_nnscope_mute_warnings(on) -> bool\nnnscope's own: drops core's warnings while on; returns the previous setting (bind_lazy.c)."},
    {"_convolution_mode", f_convolution_mode, "_convolution_mode(input, weight, bias, stride, padding, dilation, groups) -> Tensor\nThe convolution of input by weight with padding 'valid' or 'same' (ATen's), over 1, 2 or 3 spatial dims as weight's rank says."},
    {"_nnscope_frombuffer", repl_nnscope_frombuffer, "_nnscope_frombuffer(obj, start, length, dtype, count, offset) -> Tensor\nnnscope's own: torch.frombuffer's tensor over length bytes of a bytes or bytearray from start (bind_ops_more.c)."},
    {"convolution", f_convolution, "convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups) -> Tensor\nThe convolution (or, transposed, its input gradient) of input by weight over 1, 2 or 3 spatial dims, as weight's rank says."},
};

int repl_nn_lang_add_functions(nn_object *torch)
{
    return repl_namespace_add_fns(torch, conv_functions, sizeof conv_functions / sizeof conv_functions[0]);
}
