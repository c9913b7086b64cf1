/*
 * nn_layers.h — torch.nn's basic layers as module classes (layers.c):
 * Identity, Linear, LazyLinear, Flatten, Dropout, LayerNorm, BatchNorm1d,
 * Embedding, MSELoss, L1Loss, CrossEntropyLoss; the functional forms they
 * add (F.linear, torch.addmm, F.batch_norm); UninitializedParameter and
 * UninitializedBuffer. Included by nn.h.
 *
 * Each constructor `nn_<name>_new(...)` is nn.<Name>(...): it returns a new
 * reference to a module in training mode whose parameters are drawn from the
 * default generator as PyTorch draws them (torch.manual_seed(0); nn.Linear(2, 2)
 * gives PyTorch's weights), or NULL with PyTorch's error. The configuration
 * lives in the module's attrs under PyTorch's names (in_features, eps, ...):
 * nn_module_getattr reads it, extra_repr formats it, and setting it (as
 * `layer.p = 0.2` does) changes what forward does. Forward takes the
 * arguments of PyTorch's forward (input; input, target for losses),
 * positionally or by keyword.
 */
#ifndef NN_LAYERS_H
#define NN_LAYERS_H

/* ---------------------------------------------------------- functional */

/* F.linear(input, weight, bias): [*, in] x [out, in] (+ [out]) -> [*, out], with
   PyTorch 1.13's dispatch and grad_fns: a 2-D input with a bias is one addmm
   (AddmmBackward0), a contiguous 3-D input with a bias an addmm on the input
   viewed as 2-D (ViewBackward0), anything else matmul(input, weight.t()) then
   an in-place add of the bias. bias may be NULL. Borrows all; new reference. */
nn_tensor *nn_linear(nn_tensor *input, nn_tensor *weight, nn_tensor *bias);
/* torch.addmm(self, mat1, mat2) with beta = alpha = 1: self (broadcast to
   [n, m]) + mat1 [n, k] @ mat2 [k, m], one BLAS gemm with beta = 1 as PyTorch
   runs it. Borrows all; new reference. */
nn_tensor *nn_addmm(nn_tensor *self, nn_tensor *mat1, nn_tensor *mat2);
/* F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
   over input [N, C] or [N, C, L] (any [N, C, ...]): training normalises with the
   batch's biased variance and, when running_mean/running_var are given, updates
   them in place with momentum (the running variance from the unbiased variance);
   otherwise the running statistics normalise. Any of the four tensors may be
   NULL (the running ones only in training). grad_fn NativeBatchNormBackward0;
   float32/float64 bit-exact with PyTorch's CPU kernels for contiguous inputs
   (one thread; other layouts are made contiguous first). Borrows all; new
   reference. */
nn_tensor *nn_batch_norm(nn_tensor *input, nn_tensor *running_mean, nn_tensor *running_var, nn_tensor *weight,
                         nn_tensor *bias, bool training, double momentum, double eps);

/* ------------------------------------------------- lazy parameters */

/* torch.nn.UninitializedParameter (a Parameter subtype) and UninitializedBuffer
   (a Tensor subtype): placeholders with no shape yet (their data is an empty
   [0] tensor of their dtype), repr "<UninitializedParameter>". */
extern const nn_type nn_uninitialized_parameter_type;
extern const nn_type nn_uninitialized_buffer_type;
/* UninitializedParameter(requires_grad=True, dtype) / UninitializedBuffer(requires_grad=False, dtype);
   new references. */
nn_tensor *nn_uninitialized_parameter_new(bool requires_grad, nn_dtype dtype);
nn_tensor *nn_uninitialized_buffer_new(bool requires_grad, nn_dtype dtype);
/* torch.nn.parameter.is_lazy: true for either placeholder. */
bool nn_is_uninitialized(const nn_object *o);
/* What tensor.shape does: 0 for an ordinary tensor; -1 with RuntimeError "Can't
   access the shape of an uninitialized parameter or buffer. ..." for a placeholder. */
int nn_check_initialized(const nn_tensor *t);
/* param.materialize(shape, dtype): t (a placeholder, borrowed) gets new
   uninitialized data of the shape and dtype (dtype < 0: its own) and becomes a
   Parameter (a Tensor for a buffer), keeping its identity. 0 or -1. */
int nn_uninitialized_materialize(nn_tensor *t, int ndim, const int64_t *sizes, int dtype);

/* --------------------------------------------------------------- layers */

extern const nn_module_class nn_identity_class, nn_linear_class, nn_lazy_linear_class, nn_flatten_class,
    nn_dropout_class, nn_layer_norm_class, nn_batch_norm1d_class, nn_embedding_class, nn_mse_loss_class,
    nn_l1_loss_class, nn_cross_entropy_loss_class;

/* nn.Identity(): forward returns its argument (any object) itself. */
nn_module *nn_identity_new(void);

/* nn.Linear(in_features, out_features, bias, dtype): weight [out, in] from
   kaiming_uniform_(a=sqrt(5)), bias [out] from U(-1/sqrt(in), 1/sqrt(in)).
   repr "Linear(in_features=2, out_features=2, bias=True)". */
nn_module *nn_linear_new(int64_t in_features, int64_t out_features, bool bias, nn_dtype dtype);

/* nn.LazyLinear(out_features, bias, dtype): weight (and bias) are
   UninitializedParameters until the first call, which sets in_features from the
   input's last dim, materializes and initialises them as Linear does, and turns
   the module into a Linear (nn_module_name then says "Linear"). A state dict
   loaded before that materializes them to the loaded shapes. */
nn_module *nn_lazy_linear_new(int64_t out_features, bool bias, nn_dtype dtype);

/* nn.Flatten(start_dim=1, end_dim=-1): input.flatten(start_dim, end_dim). */
nn_module *nn_flatten_new(int64_t start_dim, int64_t end_dim);

/* nn.Dropout(p=0.5, inplace=False): F.dropout in training, the input itself in
   eval; ValueError "dropout probability has to be between 0 and 1, but got 1.5". */
nn_module *nn_dropout_new(double p, bool inplace);

/* nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True, dtype):
   n_norm dims of normalized_shape; weight ones and bias zeros when affine. */
nn_module *nn_layer_norm_new(int n_norm, const int64_t *normalized_shape, double eps, bool elementwise_affine,
                             nn_dtype dtype);

/* nn.BatchNorm1d(num_features, eps=1e-5, momentum=0.1, affine=True,
   track_running_stats=True, dtype): momentum NAN means None (a cumulative
   average over num_batches_tracked). Buffers running_mean (zeros), running_var
   (ones), num_batches_tracked (int64 0) when tracking. */
nn_module *nn_batch_norm1d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype);
/* nn.BatchNorm2d: the same over [N, C, H, W] inputs */
extern const nn_module_class nn_batch_norm2d_class;
nn_module *nn_batch_norm2d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype);
extern const nn_module_class nn_batch_norm3d_class;
nn_module *nn_batch_norm3d_new(int64_t num_features, double eps, double momentum, bool affine,
                               bool track_running_stats, nn_dtype dtype);

/* nn.Embedding(num_embeddings, embedding_dim, padding_idx, dtype): weight from
   normal_(), the padding row zeroed. has_padding_idx false means None; a negative
   padding_idx counts from the end. */
nn_module *nn_embedding_new(int64_t num_embeddings, int64_t embedding_dim, bool has_padding_idx, int64_t padding_idx,
                            nn_dtype dtype);

/* nn.MSELoss(reduction), nn.L1Loss(reduction): reduction "mean" (NULL), "sum"
   or "none", checked when called (ValueError "foo is not a valid value for
   reduction"). forward(input, target). */
nn_module *nn_mse_loss_new(const char *reduction);
nn_module *nn_l1_loss_new(const char *reduction);
/* nn.CrossEntropyLoss(reduction, ignore_index=-100, label_smoothing=0.0):
   forward(input [N, C] or [C] logits, target class indices). Its `weight`
   buffer is None (per-class weights are not supported). */
nn_module *nn_cross_entropy_loss_new(const char *reduction, int64_t ignore_index, double label_smoothing);

/* The private bases of PyTorch's module classes (torch.nn.modules.batchnorm._BatchNorm, ...): names
   in the base chains of core's classes, with no slots of their own; the front end maps each to its
   class of that name (written in the language), for __mro__, isinstance and issubclass (layers.c). */
extern const nn_module_class nn_norm_base_class, nn_batch_norm_base_class, nn_instance_norm_base_class,
    nn_convnd_class, nn_conv_transposend_class, nn_loss_base_class, nn_weighted_loss_base_class,
    nn_max_poolnd_class, nn_avg_poolnd_class, nn_adaptive_avg_poolnd_class, nn_adaptive_max_poolnd_class,
    nn_max_unpoolnd_class, nn_dropoutnd_class, nn_constant_padnd_class, nn_reflection_padnd_class,
    nn_replication_padnd_class;

/* ---------------------------------------------------------------- conv.c */

extern const nn_module_class nn_conv2d_class;

/* F.conv2d(input [N, C, H, W] or unbatched [C, H, W], weight [O, C/groups, KH, KW],
   bias [O] or NULL, stride, padding, dilation, groups) -> [N, O, OH, OW]
   (ConvolutionBackward0); PyTorch's RuntimeErrors for wrong shapes and dtypes.
   Borrows its arguments; a new reference. */
nn_tensor *nn_conv2d(nn_tensor *input, nn_tensor *weight, nn_tensor *bias, const int64_t stride[2],
                     const int64_t padding[2], const int64_t dilation[2], int64_t groups);

/* (conv_more.c) nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, dilation,
   groups, bias, dtype) (padding_mode 'zeros'; nn_conv2d_module_new for the other arguments): weight [out, in/groups, kh, kw] and
   bias [out] drawn as Linear's; repr "Conv2d(1, 20, kernel_size=(5, 5), stride=(1, 1))".
   ValueError when the channels are not divisible by groups. */
nn_module *nn_conv2d_new(int64_t in_channels, int64_t out_channels, const int64_t kernel_size[2],
                         const int64_t stride[2], const int64_t padding[2], const int64_t dilation[2], int64_t groups,
                         bool bias, nn_dtype dtype);

/* layer.reset_parameters() for Linear, LazyLinear, LayerNorm, BatchNorm1d and
   Embedding (BatchNorm1d also resets its running statistics); AttributeError
   for other modules. 0 or -1. */
int nn_layer_reset_parameters(nn_module *m);

/* For other files' module classes (layers.c's helpers): forward(self, input)'s
   tensor (borrowed, or NULL with PyTorch's TypeError naming fn's argument arg),
   and str.format(**self.__dict__) of fmt ("p={p}") as a new nn_malloc'd string. */
nn_tensor *nn_forward_tensor_arg(const char *forward, nn_object *args, nn_object *kwargs, const char *fn,
                                 const char *arg, int position);
char *nn_module_format_attrs(nn_module *m, const char *fmt);
/* _NormBase.__init__ for another class (InstanceNorm): BatchNorm's attributes,
   parameters and buffers (momentum NAN for None). */
nn_module *nn_norm_base_new(const nn_module_class *cls, int64_t num_features, double eps, double momentum, bool affine,
                            bool track_running_stats, nn_dtype dtype);

#endif
