/* gradcheck cases for core/activations.c (included by test_gradcheck.c): the
   in-place activations, each run on a copy (in * 1) of the leaf input, since
   a leaf that requires grad cannot be written in place. */

/* in[0] * 1 with op applied in place; returns the written tensor (new reference) */
static nn_tensor *gc_inplace(nn_tensor **in, int (*op)(nn_tensor *, double, double), double p0, double p1)
{
    nn_tensor *y = nn_mul_scalar(in[0], 1.0);
    if (y && op(y, p0, p1) < 0) NN_SET(y, NULL);
    return y;
}

static int gc_relu_op(nn_tensor *t, double p0, double p1) { (void)p0; (void)p1; return nn_relu_(t); }
static int gc_leaky_relu_op(nn_tensor *t, double p0, double p1) { (void)p1; return nn_leaky_relu_(t, p0); }
static int gc_elu_op(nn_tensor *t, double p0, double p1) { (void)p1; return nn_elu_(t, p0); }
static int gc_silu_op(nn_tensor *t, double p0, double p1) { (void)p0; (void)p1; return nn_silu_(t); }
static int gc_threshold_op(nn_tensor *t, double p0, double p1) { return nn_threshold_(t, p0, p1); }

static nn_tensor *gc_relu_(nn_tensor **in) { return gc_inplace(in, gc_relu_op, 0, 0); }
static nn_tensor *gc_leaky_relu_(nn_tensor **in) { return gc_inplace(in, gc_leaky_relu_op, 0.1, 0); }
static nn_tensor *gc_elu_(nn_tensor **in) { return gc_inplace(in, gc_elu_op, 1.3, 0); }
static nn_tensor *gc_silu_(nn_tensor **in) { return gc_inplace(in, gc_silu_op, 0, 0); }
static nn_tensor *gc_threshold_(nn_tensor **in) { return gc_inplace(in, gc_threshold_op, 0.1, 2.0); }

static const gc_case cases_activations[] = {
    {NN_OP_relu, "relu_", gc_relu_, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_leaky_relu_inplace, "leaky_relu_", gc_leaky_relu_, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_elu_inplace, "elu_", gc_elu_, 1, {2}, {{2, 4}}, -2, 2, 0},
    {NN_OP_silu, "silu_", gc_silu_, 1, {2}, {{2, 4}}, -4, 4, 0},
    {NN_OP_threshold_inplace, "threshold_ (value above threshold)", gc_threshold_, 1, {2}, {{2, 3}}, -1, 1, 0},
    GC_END,
};
