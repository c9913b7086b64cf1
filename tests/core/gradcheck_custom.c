/* gradcheck cases for core/custom_fn.c (included by test_gradcheck.c): a custom
   node, as a torch.autograd.Function makes, whose backward is a C callback. */
#include "nn_custom_fn.h"

/* forward a * b^2 with b broadcast (a, b and the output saved; the output as an
   alias); backward: d/da = g b^2, d/db = 2 g a b summed over a's rows. */
static int gc_custom_backward(nn_object *state, nn_node *node, nn_tensor **gout, nn_tensor **gin)
{
    (void)state;
    nn_object *saved = nn_custom_saved_tensors(node);
    if (!saved) return -1;
    nn_tensor *a = NN_TENSOR(nn_tuple_get(saved, 0)), *b = NN_TENSOR(nn_tuple_get(saved, 1));
    nn_tensor *g = gout[0] ? (nn_tensor *)nn_retain(&gout[0]->ob) : nn_custom_output_zeros(node, 0);
    nn_tensor *bb = nn_mul(b, b), *ab = nn_mul(a, b);
    nn_tensor *two_ab = ab ? nn_mul_scalar(ab, 2.0) : NULL;
    if (g && bb && nn_custom_needs_input_grad(node, 0)) gin[0] = nn_mul(g, bb);
    if (g && two_ab && nn_custom_needs_input_grad(node, 2)) {
        nn_tensor *full = nn_mul(g, two_ab); /* b broadcast over a's rows: summed back */
        gin[2] = full ? nn_sum_to_size(full, b->ndim, b->sizes) : NULL;
        NN_RELEASE(full);
    }
    NN_RELEASE(g); NN_RELEASE(bb); NN_RELEASE(ab); NN_RELEASE(two_ab); NN_RELEASE(saved);
    return 0;
}

static const nn_custom_fn gc_custom_fns = {.backward = gc_custom_backward};

static nn_tensor *gc_custom(nn_tensor **in)
{
    nn_tensor *out;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *bb = nn_mul(in[1], in[1]);
        out = nn_mul(in[0], bb);
        NN_RELEASE(bb);
    });
    /* the middle argument is not a tensor (a Python number of the Function's apply) */
    nn_tensor *inputs[3] = {in[0], NULL, in[1]};
    nn_tensor *save[3] = {in[0], in[1], out};
    unsigned char kinds[1] = {NN_CUSTOM_OUT_DIFF};
    nn_object *state = nn_retain(nn_none());
    tu_check(nn_record_custom(&gc_custom_fns, "GcCustomBackward", state, 3, inputs, 1, &out, kinds, 3, save));
    NN_RELEASE(state);
    if (out->grad_fn) assert_string_equal(nn_grad_fn_name(out), "GcCustomBackward");
    return out;
}

static const gc_case cases_custom[] = {
    {NN_OP_custom, "custom Function node (C backward)", gc_custom, 2, {2, 1}, {{2, 3}, {3}}, -1, 1, 0},
    GC_END,
};
