/*
 * cpu/index_more.c — the CPU's `index` kernel codes from NN_INDEX_CUMPROD_GRAD on
 * (core/backend.h's nn_index_op): the exact gradient of cumprod along a dim whose
 * input has a zero (select.c's nn_cumprod_backward). nn_cpu_index_histo_ops
 * (cpu/histo.c) hands the codes it does not know on to here.
 */
#include "nn_cpu.h"
#include "nn_cpu_select.h"

static double load(const char *base, int64_t i, nn_dtype dt) { return nn_load_double(base + i * (int64_t)nn_dtype_size(dt), dt); }

/* t[0] = d(sum g * cumprod(x)) / dx over [outer, len, inner], x t[1], g t[2]:
   O(len^2) products, so a zero in x is exact (no division) */
static int cumprod_grad(nn_kernel_args *a)
{
    nn_tensor *r = a->t[0];
    const nn_tensor *x = a->t[1], *g = a->t[2];
    int64_t outer = a->i[0], len = a->i[1], inner = a->i[2];
    const char *xs = nn_data_ptr(x), *gs = nn_data_ptr(g);
    char *rs = nn_data_ptr(r);
    size_t es = nn_dtype_size(r->dtype);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++)
            for (int64_t i = 0; i < len; i++) {
                double total = 0, prefix = 1;
                for (int64_t k = 0; k < i; k++) prefix *= load(xs, (o * len + k) * inner + in, x->dtype);
                double run = prefix;
                for (int64_t j = i; j < len; j++) {
                    if (j > i) run *= load(xs, (o * len + j) * inner + in, x->dtype);
                    total += load(gs, (o * len + j) * inner + in, g->dtype) * run;
                }
                nn_store_double(rs + (size_t)((o * len + i) * inner + in) * es, r->dtype, total);
            }
    return 0;
}

int nn_cpu_index_more_ops(nn_index_op op, nn_kernel_args *a)
{
    switch (op) {
    case NN_INDEX_CUMPROD_GRAD: return cumprod_grad(a);
    default: break;
    }
    return nn_error_set(NN_ERR_RUNTIME, "index kernel: unknown op code %d", (int)op);
}
