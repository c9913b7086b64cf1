/*
 * nn_mod_more.h — more of torch.nn in core: selu, glu, rrelu (act_extra.c),
 * F.pad's modes (pad.c), channel and alpha dropout (dropout_more.c) and the
 * module classes over them (modules_more.c). Inputs borrowed; results are new
 * references, or NULL with PyTorch's error set.
 */
#ifndef NN_MOD_MORE_H
#define NN_MOD_MORE_H

#include "nn_int.h"

nn_tensor *nn_selu(nn_tensor *x);
nn_tensor *nn_selu_(nn_tensor *x); /* in place: x (retained) takes the result and its history */
nn_tensor *nn_glu(nn_tensor *x, int dim);
/* training: slopes drawn from the current generator; else (lower + upper) / 2 */
nn_tensor *nn_rrelu(nn_tensor *x, double lower, double upper, bool training);
/* in place: x (retained) takes the result and its history */
nn_tensor *nn_rrelu_(nn_tensor *x, double lower, double upper, bool training);

/* pad: n_pad numbers in F.pad's order (last dim's left, right, then the dim before ...) */
typedef enum nn_pad_mode { NN_PAD_CONSTANT, NN_PAD_REFLECT, NN_PAD_REPLICATE, NN_PAD_CIRCULAR } nn_pad_mode;
nn_tensor *nn_pad(nn_tensor *x, int n_pad, const int64_t *pad, nn_pad_mode mode, double value);
nn_tensor *nn_constant_pad_nd(nn_tensor *x, int n_pad, const int64_t *pad, double value);
/* reflection (reflect) or replication padding of the last k (1..3) dims */
nn_tensor *nn_index_pad(nn_tensor *x, int k, const int64_t *pad, bool reflect);
nn_tensor *nn_circular_pad(nn_tensor *x, int k, const int64_t *pad);

/* _VF.feature_dropout / alpha_dropout / feature_alpha_dropout (inplace: the
   trailing-underscore forms, x retained and returned) */
nn_tensor *nn_dropout_kind(nn_tensor *x, double p, bool training, bool feature, bool alpha, bool inplace);
/* F.dropout1d/2d/3d (nd 1..3): their input checks and warnings, then feature dropout */
nn_tensor *nn_dropout_nd(nn_tensor *x, int nd, double p, bool training, bool inplace);

/* norms_more.c: F.group_norm (weight, bias may be NULL), F.instance_norm, and the modules */
nn_tensor *nn_group_norm(nn_tensor *x, int64_t num_groups, nn_tensor *weight, nn_tensor *bias, double eps);
nn_tensor *nn_instance_norm(nn_tensor *x, nn_tensor *running_mean, nn_tensor *running_var, nn_tensor *weight,
                            nn_tensor *bias, bool use_input_stats, double momentum, double eps);
extern const nn_module_class nn_group_norm_class, nn_instance_norm_classes[3];
nn_module *nn_group_norm_new(int64_t num_groups, int64_t num_channels, double eps, bool affine, nn_dtype dtype);
/* InstanceNorm<nd>d; momentum NAN for None */
nn_module *nn_instance_norm_new(int nd, int64_t num_features, double eps, double momentum, bool affine,
                                bool track_running_stats, nn_dtype dtype);

/* conv.c's backward as a function (defined there): the gradients of conv2d(x, w)
   (4-d, float32/float64) for gy into gin[0] (input, need_x), gin[1] (weight,
   need_w) and, where it runs in oneDNN's order (nn_conv_geom's onednn), gin[2]
   (bias, need_b; else NULL: the caller sums gy) as new references; p as the
   convolution op's params; slow: in ATen's slow_conv2d order (im2col + GEMM, one
   sample at a time) whatever path 1.13's conv2d takes for the geometry, as its
   slow_conv_transpose2d computes. 0 or -1. */
int nn_conv2d_input_weight_grads(nn_tensor *x, nn_tensor *w, nn_tensor *gy, const nn_op_params *p, bool need_x,
                                 bool need_w, bool need_b, bool slow, nn_tensor **gin);
/* conv2d(x, w) (4-d float32/float64, no bias, not recorded) in slow_conv2d's order:
   the input gradient of a transposed convolution, as slow_conv_transpose2d's
   backward computes it; new reference. */
nn_tensor *nn_conv2d_slow(nn_tensor *x, nn_tensor *w, const nn_op_params *p);

/* conv_more.c: F.conv1d, F.conv_transpose1d/2d (dims 1 or 2; arrays of dims values), the modules
   Conv1d (which 0), ConvTranspose1d (1), ConvTranspose2d (2) */
nn_tensor *nn_conv1d(nn_tensor *x, nn_tensor *w, nn_tensor *b, int64_t stride, int64_t padding, int64_t dilation,
                     int64_t groups);
nn_tensor *nn_conv_transpose(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t *stride,
                             const int64_t *padding, const int64_t *output_padding, int64_t groups,
                             const int64_t *dilation);
extern const nn_module_class nn_conv_more_classes[3];
/* the convolution of dims (1..3) spatial dims (nn_conv1d, nn_conv2d or nn_conv3d; arrays of dims values) */
nn_tensor *nn_conv_nd(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const int64_t *stride,
                      const int64_t *padding, const int64_t *dilation, int64_t groups);
/* F.conv1d/2d/3d with padding='valid' or 'same' (ATen's _convolution_mode: stride 1; an odd total
   pads one more on the right by constant_pad_nd, with 1.13's warning once) */
nn_tensor *nn_conv_str(int dims, nn_tensor *x, nn_tensor *w, nn_tensor *b, const char *padding,
                       const int64_t *stride, const int64_t *dilation, int64_t groups);
/* the arguments of a convolution module (_ConvNd.__init__'s), dims values in each array */
typedef struct nn_conv_spec {
    int64_t in, out, groups;
    int64_t kernel[2], stride[2], padding[2], dilation[2], output_padding[2];
    const char *padding_str;  /* 'valid' or 'same' (kept as the padding attribute), or NULL: the numbers */
    const char *padding_mode; /* 'zeros', 'reflect', 'replicate' or 'circular' */
    bool bias;
    nn_dtype dtype;
} nn_conv_spec;
/* Conv1d (which 0), ConvTranspose1d (1), ConvTranspose2d (2), and Conv2d, with _ConvNd's checks
   (ValueError) and attributes, _reversed_padding_repeated_twice included */
nn_module *nn_conv_more_new(int which, const nn_conv_spec *s);
nn_module *nn_conv2d_module_new(const nn_conv_spec *s);
/* _conv_forward(input, weight, bias) of a Conv1d or Conv2d (or a subclass's) module m: padding_mode's
   F.pad by _reversed_padding_repeated_twice then no padding, else the padding attribute (numbers or a
   string). Borrows; a new reference. */
nn_tensor *nn_conv_module_forward(nn_module *m, nn_tensor *x, nn_tensor *w, nn_tensor *b);

/* upsample.c: nearest or (bi)linear resize of [N, C, L] (dims 1) or [N, C, H, W] (dims 2) to out
   (scales NAN where not given), and F.interpolate's argument handling over it */
nn_tensor *nn_upsample(nn_tensor *x, int dims, const int64_t *out, const double *scales, bool linear, bool align);
/* the same with the mode named: NN_UPSAMPLE_NEAREST_EXACT takes each output's centre's source
   (mode='nearest-exact', UpsampleNearestExact{1,2}DBackward1) */
typedef enum nn_upsample_kind { NN_UPSAMPLE_NEAREST, NN_UPSAMPLE_LINEAR, NN_UPSAMPLE_NEAREST_EXACT, NN_UPSAMPLE_CUBIC } nn_upsample_kind;
nn_tensor *nn_upsample_mode(nn_tensor *x, int dims, const int64_t *out, const double *scales, nn_upsample_kind kind,
                            bool align);
nn_tensor *nn_interpolate(nn_tensor *x, nn_object *size, nn_object *scale_factor, const char *mode,
                          nn_object *align_corners, nn_object *recompute_scale_factor);

/* unpool.c: max_unpool2d to oh x ow planes; F.max_unpool2d's output size rules; MaxUnpool2d */
nn_tensor *nn_max_unpool2d(nn_tensor *x, nn_tensor *indices, int64_t oh, int64_t ow);
nn_tensor *nn_max_unpool2d_sized(nn_tensor *x, nn_tensor *indices, const int64_t k[2], const int64_t s[2],
                                 const int64_t p[2], nn_object *output_size);
extern const nn_module_class nn_max_unpool2d_class;
nn_module *nn_max_unpool2d_module_new(const int64_t k[2], const int64_t s[2], const int64_t p[2]);

/* nn_extra.c: F.normalize, F.cosine_similarity, F.pairwise_distance, F.local_response_norm,
   F.pixel_shuffle, F.pixel_unshuffle */
nn_tensor *nn_normalize(nn_tensor *x, double p, int64_t dim, double eps);
nn_tensor *nn_cosine_similarity(nn_tensor *x1, nn_tensor *x2, int64_t dim, double eps);
nn_tensor *nn_pairwise_distance(nn_tensor *x1, nn_tensor *x2, double p, double eps, bool keepdim);
nn_tensor *nn_local_response_norm(nn_tensor *x, int64_t size, double alpha, double beta, double k);
nn_tensor *nn_pixel_shuffle(nn_tensor *x, int64_t upscale_factor);
nn_tensor *nn_pixel_unshuffle(nn_tensor *x, int64_t downscale_factor);

/* Module classes: SELU, GLU, RReLU, Softmax2d, Unflatten, Dropout1d, Dropout2d,
   Dropout3d, AlphaDropout, FeatureAlphaDropout, the padding modules. A module
   keeps its settings as attributes (set by the caller from PyTorch's
   constructor arguments, normalised as PyTorch stores them); forward reads them. */
extern const nn_module_class nn_more_classes[];
/* The class named, of these and the ones above (NULL if none of them). */
const nn_module_class *nn_more_class(const char *name);
/* A module of class name with n attributes (values borrowed). */
nn_module *nn_more_module_new(const char *name, int n, const char *const *names, nn_object *const *values);

#endif
