/* gradcheck cases for core/reduce.c (included by test_gradcheck.c). */

static nn_tensor *gc_sum(nn_tensor **in) { return nn_sum(in[0], 1, (const int[]){1}, false); }
static nn_tensor *gc_sum_keep(nn_tensor **in) { return nn_sum(in[0], 2, (const int[]){0, -1}, true); }
static nn_tensor *gc_sum_all(nn_tensor **in) { return nn_sum(in[0], 0, NULL, false); }
static nn_tensor *gc_mean(nn_tensor **in) { return nn_mean(in[0], 1, (const int[]){0}, false); }
static nn_tensor *gc_mean_all(nn_tensor **in) { return nn_mean(in[0], 0, NULL, false); }

static nn_tensor *gc_var(nn_tensor **in) { return nn_var(in[0], 1, (const int[]){1}, true, false); }
static nn_tensor *gc_var_keep(nn_tensor **in) { return nn_var(in[0], 2, (const int[]){0, 2}, false, true); }
static nn_tensor *gc_var_all(nn_tensor **in) { return nn_var(in[0], 0, NULL, true, false); }
static nn_tensor *gc_std(nn_tensor **in) { return nn_std(in[0], 1, (const int[]){-1}, true, false); }
static nn_tensor *gc_std_all(nn_tensor **in) { return nn_std(in[0], 0, NULL, false, false); }
/* var_mean / std_mean: one output of the two-output node each (the script
   torch_var_mean.py checks both at once against PyTorch) */
static nn_tensor *gc_moments_mean(nn_tensor *a, int n_dims, const int *dims, bool take_sqrt, bool want_mean)
{
    nn_tensor *v, *m;
    if (nn_var_mean(a, n_dims, dims, true, false, take_sqrt, &v, &m) < 0) return NULL;
    NN_RELEASE(want_mean ? v : m);
    return want_mean ? m : v;
}
static nn_tensor *gc_var_mean_var(nn_tensor **in) { return gc_moments_mean(in[0], 1, (const int[]){1}, false, false); }
static nn_tensor *gc_var_mean_mean(nn_tensor **in) { return gc_moments_mean(in[0], 1, (const int[]){1}, false, true); }
static nn_tensor *gc_var_mean_all(nn_tensor **in) { return gc_moments_mean(in[0], 0, NULL, false, false); }
static nn_tensor *gc_std_mean_std(nn_tensor **in) { return gc_moments_mean(in[0], 1, (const int[]){0}, true, false); }
static nn_tensor *gc_std_mean_mean(nn_tensor **in) { return gc_moments_mean(in[0], 0, NULL, true, true); }
static nn_tensor *gc_max_all(nn_tensor **in) { return nn_max_all(in[0]); }
static nn_tensor *gc_min_all(nn_tensor **in) { return nn_min_all(in[0]); }

static nn_tensor *gc_extreme_dim(nn_tensor *a, int dim, bool keepdim, bool is_max)
{
    nn_tensor *values, *indices;
    if ((is_max ? nn_max_dim : nn_min_dim)(a, dim, keepdim, &values, &indices) < 0) return NULL;
    NN_RELEASE(indices);
    return values;
}
static nn_tensor *gc_max_dim(nn_tensor **in) { return gc_extreme_dim(in[0], 1, false, true); }
static nn_tensor *gc_max_dim_keep(nn_tensor **in) { return gc_extreme_dim(in[0], 0, true, true); }
static nn_tensor *gc_min_dim(nn_tensor **in) { return gc_extreme_dim(in[0], -1, false, false); }

static nn_tensor *gc_norm2_all(nn_tensor **in) { return nn_norm(in[0], 2, 0, NULL, false); }
static nn_tensor *gc_norm2_dim(nn_tensor **in) { return nn_norm(in[0], 2, 1, (const int[]){1}, false); }
static nn_tensor *gc_norm1(nn_tensor **in) { return nn_norm(in[0], 1, 1, (const int[]){0}, true); }
static nn_tensor *gc_norm_inf(nn_tensor **in) { return nn_norm(in[0], INFINITY, 1, (const int[]){1}, false); }
static nn_tensor *gc_norm_ninf(nn_tensor **in) { return nn_norm(in[0], -INFINITY, 0, NULL, false); }
static nn_tensor *gc_norm3(nn_tensor **in) { return nn_norm(in[0], 3, 2, (const int[]){0, 2}, false); }
static nn_tensor *gc_norm15(nn_tensor **in) { return nn_norm(in[0], 1.5, 1, (const int[]){-1}, true); }
static nn_tensor *gc_norm05(nn_tensor **in) { return nn_norm(in[0], 0.5, 1, (const int[]){1}, false); }

static const gc_case cases_reduce[] = {
    {NN_OP_sum, "sum dim 1", gc_sum, 1, {3}, {{2, 3, 4}}, -1, 1, 0},
    {NN_OP_sum, "sum dims 0,-1 keepdim", gc_sum_keep, 1, {3}, {{2, 3, 4}}, -1, 1, 0},
    {NN_OP_sum_all, "sum all", gc_sum_all, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_mean, "mean dim 0", gc_mean, 1, {2}, {{3, 2}}, -1, 1, 0},
    {NN_OP_mean_all, "mean all", gc_mean_all, 1, {2}, {{3, 2}}, -1, 1, 0},
    {NN_OP_var, "var dim 1 unbiased", gc_var, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_var, "var dims 0,2 biased keepdim", gc_var_keep, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_var, "var all", gc_var_all, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_var_mean, "var_mean dim 1 (var)", gc_var_mean_var, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_var_mean, "var_mean dim 1 (mean)", gc_var_mean_mean, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_var_mean, "var_mean all (var)", gc_var_mean_all, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_std_mean, "std_mean dim 0 (std)", gc_std_mean_std, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_std_mean, "std_mean all (mean)", gc_std_mean_mean, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_std, "std dim -1", gc_std, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_std, "std all biased", gc_std_all, 1, {3}, {{2, 2, 2}}, -1, 1, 0},
    {NN_OP_max_all, "max all", gc_max_all, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_min_all, "min all", gc_min_all, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_max_dim, "max dim 1", gc_max_dim, 1, {3}, {{2, 4, 3}}, -1, 1, 0},
    {NN_OP_max_dim, "max dim 0 keepdim", gc_max_dim_keep, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_min_dim, "min dim -1", gc_min_dim, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=2 all", gc_norm2_all, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=2 dim 1", gc_norm2_dim, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=1 dim 0 keepdim", gc_norm1, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=inf dim 1", gc_norm_inf, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=-inf all", gc_norm_ninf, 1, {2}, {{2, 3}}, -1, 1, 0},
    {NN_OP_norm, "norm p=3 dims 0,2", gc_norm3, 1, {3}, {{2, 3, 2}}, -1, 1, 0},
    {NN_OP_norm, "norm p=1.5 dim -1 keepdim", gc_norm15, 1, {2}, {{3, 4}}, -1, 1, 0},
    {NN_OP_norm, "norm p=0.5 dim 1", gc_norm05, 1, {2}, {{3, 4}}, 0.2, 2, 0},
    GC_END,
};
