/*
 * nn_pool.h — pooling ops (pool.c) and the pooling module classes
 * (pool_modules.c), included by nn.h. Inputs are [C, H, W] or [N, C, H, W]
 * (1-d forms: [C, L] or [N, C, L]); windows are per (H, W). Ops borrow their
 * inputs and return a new reference, or NULL with PyTorch's RuntimeError.
 */
#ifndef NN_POOL_H
#define NN_POOL_H

/* Max pooling; *indices (when indices is not NULL) receives a new int64 tensor
   of each maximum's flat position h * W + w in its plane. */
nn_tensor *nn_max_pool2d(nn_tensor *x, const int64_t kernel[2], const int64_t stride[2], const int64_t padding[2],
                         const int64_t dilation[2], bool ceil_mode, nn_tensor **indices);
/* Average pooling; divisor_override 0 means none. */
nn_tensor *nn_avg_pool2d(nn_tensor *x, const int64_t kernel[2], const int64_t stride[2], const int64_t padding[2],
                         bool ceil_mode, bool count_include_pad, int64_t divisor_override);
nn_tensor *nn_adaptive_avg_pool2d(nn_tensor *x, const int64_t output_size[2]);
nn_tensor *nn_adaptive_max_pool2d(nn_tensor *x, const int64_t output_size[2], nn_tensor **indices);
nn_tensor *nn_max_pool1d(nn_tensor *x, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation,
                         bool ceil_mode, nn_tensor **indices);
nn_tensor *nn_avg_pool1d(nn_tensor *x, int64_t kernel, int64_t stride, int64_t padding, bool ceil_mode,
                         bool count_include_pad);
nn_tensor *nn_adaptive_avg_pool1d(nn_tensor *x, int64_t output_size);

/* torch.nn.functional's pooling and the pooling modules' forward: sizes as
   Python objects (borrowed; NULL stride/padding/dilation: defaults). For the
   adaptive kinds kernel_size is the output size. A new tensor, or a new
   (output, indices) tuple when return_indices. */
typedef enum nn_pool_kind {
    NN_POOL_MAX1D, NN_POOL_MAX2D, NN_POOL_AVG1D, NN_POOL_AVG2D,
    NN_POOL_ADAPTIVE_AVG1D, NN_POOL_ADAPTIVE_AVG2D, NN_POOL_ADAPTIVE_MAX2D,
} nn_pool_kind;
typedef struct nn_pool_args {
    nn_object *kernel_size, *stride, *padding, *dilation;
    bool ceil_mode, return_indices, count_include_pad;
    int64_t divisor_override; /* -1: None */
} nn_pool_args;
nn_object *nn_pool_call(nn_pool_kind kind, nn_tensor *x, const nn_pool_args *args);

/* The module classes; their attributes are what nn_pool_module_new sets
   (names[i] = values[i], borrowed, NULL for None), as PyTorch's __init__ does. */
extern const nn_module_class nn_max_pool1d_class, nn_max_pool2d_class, nn_avg_pool1d_class, nn_avg_pool2d_class,
    nn_adaptive_avg_pool1d_class, nn_adaptive_avg_pool2d_class, nn_adaptive_max_pool2d_class;
nn_module *nn_pool_module_new(const nn_module_class *cls, int n, const char *const *names, nn_object *const *values);

#endif
