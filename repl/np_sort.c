/*
 * np_sort.c — NumPy 1.24's argsort of kind 'quicksort' (its default) and 'heapsort'
 * (numpy/core/src/npysort: aquicksort_, an introsort with a median of three, insertion
 * sort of runs of at most 16 elements, heapsort past its depth limit; aheapsort_), step for step,
 * so that the order of equal elements is NumPy's: it is not stable, and
 * np.argsort([1, 0, 1, ...]) ties come out as NumPy puts them. Floats compare as NumPy's
 * (NaN last), ints exactly.
 */
#include <math.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

#define ARGS(n) nn_object *a[n] = {0}

enum { SMALL_QUICKSORT = 15, QS_STACK = 128 };

/* the values of one row, as doubles (floats) or int64s (ints and bools) */
typedef struct keys {
    const double *d;
    const int64_t *i;
} keys;

static bool less(const keys *v, int64_t x, int64_t y)
{
    if (v->i) return v->i[x] < v->i[y];
    double a = v->d[x], b = v->d[y];
    return a < b || (b != b && a == a);
}

static int msb(int64_t n)
{
    int depth = 0;
    while (n >>= 1) depth++;
    return depth;
}

/* aheapsort_: the n indices at tosort ordered by their values */
/* Sifts tmp down from a[i] in the heap a[1..n] (indexed from 1), as NumPy's aheapsort. */
static void sift_down(const keys *v, int64_t *a, int64_t i, int64_t n, int64_t tmp)
{
    for (int64_t j = i << 1; j <= n;) {
        if (j < n && less(v, a[j], a[j + 1])) j += 1;
        if (!less(v, tmp, a[j])) break;
        a[i] = a[j];
        i = j;
        j += j;
    }
    a[i] = tmp;
}

static void aheapsort(const keys *v, int64_t *tosort, int64_t n)
{
    int64_t *a = tosort - 1; /* a heap indexed from 1 */
    for (int64_t l = n >> 1; l > 0; --l) sift_down(v, a, l, n, a[l]);
    for (; n > 1;) {
        int64_t tmp = a[n];
        a[n] = a[1];
        n -= 1;
        sift_down(v, a, 1, n, tmp);
    }
}

#define SWAP(x, y) \
    do {           \
        int64_t t_ = (x); \
        (x) = (y);  \
        (y) = t_;   \
    } while (0)

/* aquicksort_: the num indices at tosort ordered by their values */
static void aquicksort(const keys *v, int64_t *tosort, int64_t num)
{
    int64_t *pl = tosort, *pr = tosort + num - 1;
    int64_t *stack[QS_STACK], **sptr = stack;
    int depth[QS_STACK], *psdepth = depth;
    int cdepth = msb(num) * 2;
    for (;;) {
        if (cdepth < 0) {
            aheapsort(v, pl, pr - pl + 1);
            goto stack_pop;
        }
        while ((pr - pl) > SMALL_QUICKSORT) {
            int64_t *pm = pl + ((pr - pl) >> 1), *pi, *pj;
            if (less(v, *pm, *pl)) SWAP(*pm, *pl);
            if (less(v, *pr, *pm)) SWAP(*pr, *pm);
            if (less(v, *pm, *pl)) SWAP(*pm, *pl);
            int64_t vp = *pm; /* the pivot's index: its value stays where it is read */
            pi = pl;
            pj = pr - 1;
            SWAP(*pm, *pj);
            for (;;) {
                do ++pi;
                while (less(v, *pi, vp));
                do --pj;
                while (less(v, vp, *pj));
                if (pi >= pj) break;
                SWAP(*pi, *pj);
            }
            SWAP(*pi, *(pr - 1));
            if (pi - pl < pr - pi) { /* the larger part waits on the stack */
                *sptr++ = pi + 1;
                *sptr++ = pr;
                pr = pi - 1;
            } else {
                *sptr++ = pl;
                *sptr++ = pi - 1;
                pl = pi + 1;
            }
            *psdepth++ = --cdepth;
        }
        for (int64_t *pi = pl + 1; pi <= pr; ++pi) { /* insertion sort */
            int64_t vi = *pi, *pj = pi, *pk = pi - 1;
            while (pj > pl && less(v, vi, *pk)) *pj-- = *pk--;
            *pj = vi;
        }
    stack_pop:
        if (sptr == stack) break;
        pr = *(--sptr);
        pl = *(--sptr);
        cdepth = *(--psdepth);
    }
}

/* _argsort_rows(t, heap=False) -> int64 tensor of t's shape: each row (the last axis)
   argsorted as NumPy's kind 'quicksort' (or 'heapsort') does */
nn_object *repl_np_argsort_rows(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t;
    bool heap = false;
    if (repl_parse_args("_argsort_rows", "t, heap=", args, kwargs, a) ||
        repl_arg_tensor("_argsort_rows", "t", 1, a[0], &t) || repl_arg_bool("_argsort_rows", "heap", 2, a[1], &heap))
        return NULL;
    if (t->ndim == 0 || nn_dtype_is_complex(t->dtype)) {
        repl_raise_exc(EXC_ValueError, "_argsort_rows() expects a real tensor of 1+ dims");
        return NULL;
    }
    bool is_float = nn_dtype_is_floating(t->dtype);
    nn_tensor *conv = nn_to_dtype(t, is_float ? NN_FLOAT64 : NN_INT64), *hold = NULL;
    nn_tensor *cont = conv ? nn_contiguous(conv) : NULL;
    const void *data = cont ? nn_host_read(cont, &hold) : NULL;
    nn_tensor *r = data ? nn_empty_on(NN_DEVICE_CPU, t->ndim, t->sizes, NN_INT64) : NULL; /* numpy's: host memory */
    if (r) {
        int64_t len = t->sizes[t->ndim - 1], rows = len ? nn_numel(t) / len : 0;
        int64_t *o = nn_host_borrow(r);
        for (int64_t k = 0; k < rows; k++) {
            keys v = {is_float ? (const double *)data + k * len : NULL, is_float ? NULL : (const int64_t *)data + k * len};
            int64_t *idx = o + k * len;
            for (int64_t j = 0; j < len; j++) idx[j] = j;
            if (heap) aheapsort(&v, idx, len);
            else aquicksort(&v, idx, len);
        }
    }
    NN_RELEASE(hold);
    NN_RELEASE(cont);
    NN_RELEASE(conv);
    return (nn_object *)r;
}
