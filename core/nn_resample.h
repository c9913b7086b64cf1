/*
 * nn_resample.h — the backwards of reflect/replicate padding and upsampling as
 * ops of their own (core/resample_grad.c), for double backward.
 */
#ifndef NN_RESAMPLE_H
#define NN_RESAMPLE_H

#include "backend.h"
#include "nn_int.h"
#include "nn_mod_more.h"

/* gx (ndim, sizes; zeros, then the resample kernel's backward of g under geom); under grad mode
   (a backward run with create_graph) recorded as op with params p, whose backward applies the
   forward again. A new reference, or NULL with the error set. */
nn_tensor *nn_resample_backward(nn_tensor *g, const nn_resample_geom *geom, int ndim, const int64_t *sizes,
                                nn_op_id op, const nn_op_params *p);

/* The gradient of reflect (replicate) padding of an input of sizes (ndim dims, the last k
   padded by pad, F.pad's order) for g, the padded output's gradient (pad.c). */
nn_tensor *nn_index_pad_grad(nn_tensor *g, int ndim, const int64_t *sizes, int k, const int64_t *pad, bool reflect);

/* The gradient of nn_upsample_mode(x, dims, out, scales, kind, align) for g, x of in_sizes (upsample.c). */
nn_tensor *nn_upsample_grad(nn_tensor *g, const int64_t *in_sizes, int dims, const int64_t *out, const double *scales,
                            nn_upsample_kind kind, bool align);

#endif
