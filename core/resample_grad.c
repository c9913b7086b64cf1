/*
 * resample_grad.c — the backwards of reflect/replicate padding and of upsampling
 * as ops of their own, so that a backward run with create_graph=True builds a
 * graph (double backward, as PyTorch 1.13's ReflectionPad2DBackwardBackward0,
 * UpsampleBilinear2DBackwardBackward1 ...). The backward is linear in the
 * gradient: its own backward is the forward op again, applied to the incoming
 * gradient (so any order of derivative works).
 */
#include "backend.h"
#include "nn_mod_more.h"
#include "nn_resample.h"

nn_tensor *nn_resample_backward(nn_tensor *g, const nn_resample_geom *geom, int ndim, const int64_t *sizes,
                                nn_op_id op, const nn_op_params *p)
{
    nn_tensor *gc = NULL;
    NN_WITH_GRAD_MODE(false, gc = nn_contiguous(g));
    nn_tensor *gx = gc ? nn_zeros_on(nn_device_of(gc), ndim, sizes, g->dtype) : NULL;
    if (gx && NN_KERNEL(nn_backend_of(gx), resample, (geom, true, gx, gc)) < 0) NN_SET(gx, NULL);
    NN_RELEASE(gc);
    /* recorded only under create_graph (grad mode on inside a backward) */
    if (gx && nn_grad_enabled() && nn_record(op, 1, &g, 1, &gx, 0, NULL, p) < 0) NN_SET(gx, NULL);
    return gx;
}

/* the padding's backward's backward: the padding of the incoming gradient */
static int index_pad_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    gin[0] = nn_index_pad(gout[0], n->p.n_i / 2, n->p.i, n->p.flags);
    return gin[0] ? 0 : -1;
}

int nn_reflection_pad1d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }
int nn_reflection_pad2d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }
int nn_reflection_pad3d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }
int nn_replication_pad1d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }
int nn_replication_pad2d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }
int nn_replication_pad3d_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return index_pad_backward_backward(n, gout, gin); }

/* the upsampling's backward's backward: the upsampling of the incoming gradient (upsample.c's p layout) */
static int upsample_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)
{
    int dims = (int)n->p.i[0];
    int64_t out[3];
    double scales[3];
    for (int d = 0; d < dims; d++) out[d] = n->p.i[4 + d], scales[d] = n->p.f[d];
    gin[0] = nn_upsample_mode(gout[0], dims, out, scales, (nn_upsample_kind)(n->p.flags & 3), n->p.flags & 4);
    return gin[0] ? 0 : -1;
}

#define UPSAMPLE_BB(name)                                                                                              \
    int nn_##name##_backward_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin)                                   \
    {                                                                                                                  \
        return upsample_backward_backward(n, gout, gin);                                                               \
    }
UPSAMPLE_BB(upsample_nearest1d)
UPSAMPLE_BB(upsample_nearest2d)
UPSAMPLE_BB(upsample_nearest3d)
UPSAMPLE_BB(upsample_linear1d)
UPSAMPLE_BB(upsample_bilinear2d)
UPSAMPLE_BB(upsample_trilinear3d)
UPSAMPLE_BB(upsample_bicubic2d)
UPSAMPLE_BB(upsample_nearest_exact1d)
UPSAMPLE_BB(upsample_nearest_exact2d)
UPSAMPLE_BB(upsample_nearest_exact3d)
