/*
 * complex_value.c — Python's complex number as a core value: the objects
 * complex tensors' item() and tolist() give and torch.tensor reads, with
 * CPython's repr ('2j', '(1-0.5j)'), hash and equality with the real numbers.
 */
#include <math.h>
#include <string.h>

#include "nn_int.h"

typedef struct complex_obj {
    nn_object ob;
    double re, im;
} complex_obj;

static void complex_dealloc(nn_object *self) { nn_free(self); }

/* CPython's repr of one part: float's repr without its ".0" */
static void part_repr(double v, char *buf, size_t n)
{
    nn_format_float(v, buf, n);
    size_t len = strlen(buf);
    if (len > 2 && strcmp(buf + len - 2, ".0") == 0) buf[len - 2] = '\0';
}

static char *complex_repr(nn_object *self)
{
    const complex_obj *c = (const complex_obj *)self;
    char re[64], im[64], out[160];
    part_repr(c->im, im, sizeof im);
    if (c->re == 0 && !signbit(c->re)) {
        snprintf(out, sizeof out, "%sj", im);
    } else {
        part_repr(c->re, re, sizeof re);
        bool sign = im[0] == '-' || im[0] == '+';
        snprintf(out, sizeof out, "(%s%s%sj)", re, sign ? "" : "+", im);
    }
    return nn_strdup(out);
}

/* CPython's: hash(re) + 1000003 * hash(im), so 2+0j hashes as 2.0 */
static int64_t complex_hash(nn_object *self)
{
    const complex_obj *c = (const complex_obj *)self;
    nn_object *re = nn_float_new(c->re), *im = nn_float_new(c->im);
    int64_t h = re && im ? (int64_t)(((uint64_t)nn_hash(re) + 1000003ull * (uint64_t)nn_hash(im)) & INT64_MAX) : 0;
    NN_RELEASE(re);
    NN_RELEASE(im);
    return h;
}

static int complex_equal(nn_object *a, nn_object *b)
{
    if (!nn_is_complex(b) && b->type != &nn_float_type && b->type != &nn_int_type && b->type != &nn_bool_type) return 0;
    double ar, ai, br, bi;
    nn_complex_parts(a, &ar, &ai);
    nn_complex_parts(b, &br, &bi);
    return ar == br && ai == bi;
}

const nn_type nn_complex_type = {.name = "complex", .dealloc = complex_dealloc, .repr = complex_repr,
                                 .hash = complex_hash, .equal = complex_equal, .equal_any = true};

nn_object *nn_complex_new(double re, double im)
{
    complex_obj *c = nn_malloc(sizeof *c);
    if (!c) return NULL;
    nn_object_init(&c->ob, &nn_complex_type);
    c->re = re;
    c->im = im;
    return &c->ob;
}

void nn_complex_parts(const nn_object *o, double *re, double *im)
{
    if (nn_is_complex(o)) {
        *re = ((const complex_obj *)o)->re;
        *im = ((const complex_obj *)o)->im;
    } else {
        *re = nn_float_value(o);
        *im = 0;
    }
}
