/*
 * nn_int.h — core's private header: the op list, autograd nodes, the
 * recording API ops use, and the elementwise iteration helper.
 * Only files in core/ include it.
 */
#ifndef NN_INT_H
#define NN_INT_H

#include "nn.h"

/* ---------------------------------------------------------------- op list */

typedef enum nn_op_id {
#define OP(id, grad_name, doc) NN_OP_##id,
#include "ops.def"
#undef OP
    NN_OP_COUNT
} nn_op_id;

typedef struct nn_op_info {
    const char *name;      /* "add" */
    const char *grad_name; /* "AddBackward0" */
    const char *doc;
} nn_op_info;
extern const nn_op_info nn_op_table[NN_OP_COUNT];

/* Scalar and integer arguments an op keeps for its backward. */
typedef struct nn_op_params {
    double f[4];
    int64_t i[3 * NN_MAX_DIMS + 2];
    int n_i;
    int flags;
} nn_op_params;

/* ---------------------------------------------------------------- autograd */

/* Where a gradient goes: an input slot of another node, or a leaf's .grad. */
typedef struct nn_edge {
    nn_node *node;   /* owned, or NULL */
    nn_tensor *leaf; /* owned, or NULL */
    int input_nr;    /* which output of node the gradient belongs to */
} nn_edge;

/* Shape and dtype of an op input, to check and shape the gradients for it. */
typedef struct nn_input_meta {
    int ndim;
    nn_dtype dtype;
    int64_t sizes[NN_MAX_DIMS];
} nn_input_meta;

typedef struct nn_saved {
    nn_tensor *tensor; /* owned; an alias without grad_fn when is_output */
    uint64_t version;  /* storage version when saved */
    bool is_output;
    nn_tensor *original; /* borrowed-for-identity: the tensor that was saved (never dereferenced) */
    const char *producer; /* grad_fn name of the saved tensor when saved, for messages */
    int producer_output_nr;
} nn_saved;

#define NN_NODE_MAX_SAVED 6

typedef struct nn_hook {
    int64_t id;
    nn_object *fn; /* owned callable: fn(grad) -> grad or None */
    int output_nr;
    struct nn_hook *next;
} nn_hook;

struct nn_hook_list {
    nn_hook *first;
};

/* C callbacks on a node (module backward hooks): pre runs on the incoming
   gradients before the backward and may replace them; post runs after it with
   the gradients it produced for its inputs and may replace those. */
typedef struct nn_node_callback {
    int (*pre)(nn_object *state, nn_node *node, nn_tensor **grad_outputs);
    int (*post)(nn_object *state, nn_node *node, nn_tensor **grad_inputs, nn_tensor **grad_outputs);
    nn_object *state; /* owned */
    struct nn_node_callback *next;
} nn_node_callback;

struct nn_node {
    nn_object ob;
    nn_op_id op;
    uint64_t sequence_nr;
    int n_inputs;
    nn_edge *next;            /* n_inputs edges */
    nn_input_meta *input_meta;/* n_inputs entries */
    int n_outputs;
    nn_input_meta *output_meta; /* n_outputs entries: shapes of the op's results */
    int n_saved;
    nn_saved saved[NN_NODE_MAX_SAVED];
    nn_op_params p;
    void *extra;              /* op-specific data the params don't fit; freed with free_extra */
    void (*free_extra)(void *);
    bool released;            /* saved tensors freed by a backward without retain_graph */
    nn_hook_list hooks;       /* hooks of non-leaf outputs, by output_nr */
    nn_tensor **retained;     /* n_outputs weak pointers: outputs that retain_grad() */
    uint64_t retained_raw;    /* bit k: output k's retain_grad() came before its first hook, so (as 1.13,
                                 which runs them in that order) it keeps the gradient before the hooks */
    nn_node_callback *callbacks;
    const char *name;          /* interned: a name given after recording (node_name.c), or NULL */
    nn_object *anomaly_trace;  /* owned: where the node was made, kept in anomaly mode (anomaly.c), or NULL */
    /* engine scratch, valid during one backward pass */
    uint64_t epoch;
    int dependencies;
    nn_tensor **buffer;       /* n_outputs accumulated incoming gradients */
    bool needed;              /* a restricted walk (autograd.grad): leads to a wanted input */
};

/* The signature every op's backward has. grad_outputs[node->n_outputs] are borrowed
   (NULL for an output that got no gradient); the function stores new references
   (or NULL) into grad_inputs[node->n_inputs] for each input with
   nn_node_needs_input_grad. Runs with grad mode off unless create_graph. */
typedef int (*nn_backward_fn)(nn_node *node, nn_tensor **grad_outputs, nn_tensor **grad_inputs);
#define OP(id, grad_name, doc) int nn_##id##_backward(nn_node *node, nn_tensor **grad_outputs, nn_tensor **grad_inputs);
#include "ops.def"
#undef OP
extern const nn_backward_fn nn_backward_table[NN_OP_COUNT];

/* True when grad mode is on and any of the n inputs (NULLs allowed) requires grad. */
bool nn_needs_grad(int n, nn_tensor *const *inputs);
/* Records op on outputs[0..n_out): creates the node with edges to inputs, saves
   the n_save tensors (an output among them is saved as an alias, no cycle; a NULL
   leaves its slot empty), copies
   params (may be NULL). Does nothing and returns 0 when !nn_needs_grad. */
int nn_record(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out, nn_tensor *const *outputs,
              int n_save, nn_tensor *const *save, const nn_op_params *params);
/* x's entries along dim 0 as x->sizes[0] new tensors (copies) in outs, recorded as
   one UnbindBackward0 node (nnfunc.c); 0, or -1 with nothing in outs. */
int nn_unbind_copies(nn_tensor *x, nn_tensor **outs);
/* F.mse_loss/l1_loss/smooth_l1_loss/huber_loss's UserWarning when the target's size
   differs from the input's (they broadcast); 0, or -1 when the warning became an error. */
int nn_loss_size_warning(const nn_tensor *input, const nn_tensor *target);
/* The op observer (op_observer.c); nn_record calls it. */
extern nn_op_observer_fn nn_op_observer;
void nn_op_observe(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out, nn_tensor *const *outputs);
/* The backward observer (op_observer.c); the engine calls it after each node. */
extern nn_backward_observer_fn nn_backward_observer;
void nn_backward_observe(nn_node *n, nn_tensor *const *received, nn_tensor *const *made);
/* Calls the optimizer observer, if any (nn_optimizer_step after a step). */
void nn_optimizer_observe(nn_optimizer *opt);
/* Borrowed saved tensor i of a node. */
static inline nn_tensor *nn_node_saved(nn_node *n, int i) { return n->saved[i].tensor; }
static inline bool nn_node_needs_input_grad(const nn_node *n, int i)
{
    return n->next[i].node != NULL || n->next[i].leaf != NULL;
}
/* Adds a callback to the node (last to run last); borrows state (retains it). */
int nn_node_add_callback(nn_node *n, int (*pre)(nn_object *, nn_node *, nn_tensor **),
                         int (*post)(nn_object *, nn_node *, nn_tensor **, nn_tensor **), nn_object *state);
/* Saved tensors outside a node's fixed slots (custom_fn.c): fills s as nn_record
   saves t (an output as an alias without history; NULL leaves s empty); the
   version check that raises PyTorch's in-place error; the error for saved
   tensors freed by a backward. 0, or -1 with the error. */
int nn_saved_init(nn_saved *s, nn_tensor *t, bool is_output, int output_nr, const char *node_name);
int nn_saved_check(nn_saved *s);
int nn_saved_freed_error(void);
/* Links a saved output to its node n for a create_graph backward (link), or unlinks it. */
void nn_saved_link(nn_node *n, nn_saved *s, bool link);
/* A node recorded outside nn_record: created with edges to inputs (NULLs
   allowed), attached to an output, or only given output k's metadata. */
nn_node *nn_node_create(nn_op_id op, int n_in, nn_tensor *const *inputs, int n_out);
void nn_node_attach(nn_node *n, nn_tensor *out, int output_nr);
void nn_node_output_meta(nn_node *n, nn_tensor *out, int output_nr);
/* Anomaly mode (anomaly.c): the forward traceback a new node keeps (a new
   reference, or NULL when the mode is off); after a node's backward (rc its
   status), reports the node and fails on a NaN among its results. 0 or -1. */
nn_object *nn_anomaly_capture(void);
int nn_anomaly_check(nn_node *n, int rc, nn_tensor **grad_inputs);
/* Frees a custom node's saved tensors (a backward without retain_graph). */
void nn_custom_release(nn_node *n);
/* Sum grad down to the given shape (undo broadcasting); returns a new reference. */
nn_tensor *nn_sum_to_size(nn_tensor *grad, int ndim, const int64_t *sizes);
/* ATen's norm_backward (reduce.c): the p-norm's gradient of self times g, where g and
   norm (the forward's result) come expanded to self's shape and dims[nd] are the
   reduced dims; built from differentiable ops. New reference, or NULL. */
nn_tensor *nn_norm_grad(int nd, const int *dims, nn_tensor *self, nn_tensor *g, nn_tensor *norm, double p);
/* Bump the version counter after an in-place write. */
static inline void nn_bump_version(nn_tensor *t) { t->storage->version++; }

/* a * b of sizes in 64 unsigned bits, as PyTorch's int64 arithmetic wraps: a
   zero-size tensor's other dims may multiply beyond int64 ((2**62, 3, 0)), and a
   0 among them makes the wrapped product exact */
static inline int64_t nn_wrapping_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
/* For an in-place op on t (in grad mode): error if t is a leaf requiring grad, a
   view of one, or an output of unbind/split/chunk (or a view of one) with history. */
int nn_check_inplace(nn_tensor *t);
/* nn_check_inplace, then the NotImplementedError of nn_record_inplace for a view t
   whose write would record (inputs: the op's, t among them), before anything is written. */
int nn_check_inplace_record(nn_tensor *t, int n_in, nn_tensor *const *inputs);
/* PyTorch's RuntimeError for an in-place write into output output_nr of node_name,
   a view made by a multi-output view op; -1. */
int nn_multi_output_inplace_error(const char *node_name, int output_nr);
/* For an in-place op that has written into t: gives t the history of op. */
int nn_record_inplace(nn_op_id op, nn_tensor *t, int n_in, nn_tensor *const *inputs,
                      int n_save, nn_tensor *const *save, const nn_op_params *params);
/* nn_record_inplace that also gives the op's node extra data (freed with free_extra, also on failure). */
int nn_record_inplace_extra(nn_op_id op, nn_tensor *t, int n_in, nn_tensor *const *inputs, int n_save,
                            nn_tensor *const *save, const nn_op_params *params, void *extra, void (*free_extra)(void *));
/* PyTorch's CopySlices for an in-place op on a view (copy_slices.c): whether nnscope can record it (the
   view's dtype is its base's, the base is contiguous, the view is the op's first input), and the view's
   geometry kept on a CopySlices node (with fn, the op's node, retained) or an AsStridedBackward0 node
   (fn NULL). */
bool nn_copy_slices_fits(const nn_tensor *view, int n_in, nn_tensor *const *inputs);
int nn_copy_slices_attach(nn_node *n, nn_node *fn, const nn_tensor *view);
/* After an in-place write into the view t recorded as fn (input 0: t's old history, one output): the
   base's grad_fn becomes CopySlices over fn, t's AsStridedBackward0 of the base (autograd.c). */
int nn_rebase_view_history(nn_tensor *t, nn_node *fn);

/* ----------------------------------------------------------------- tensors */

/* A tensor header over storage (retained), sizes and strides given; new reference. */
nn_tensor *nn_tensor_new_view(nn_tensor *src, int ndim, const int64_t *sizes, const int64_t *strides,
                              int64_t offset);
/* t views src's storage, offset, shape and dtype, no checks (set_data.c). */
void nn_tensor_take_data(nn_tensor *t, nn_tensor *src);
/* Drops a storage reference (a large freed block may be kept for reuse). */
void nn_storage_release(nn_storage *s);
/* Dropout's noise for a, 0 < p <= 1: bernoulli(1 - p) / (1 - p) of a's shape (PyTorch's
   draws), or a 0-dim zero when p == 1. New tensor or NULL. */
nn_tensor *nn_dropout_noise(const nn_tensor *a, double p);
/* Frees every storage block kept for reuse. */
void nn_storage_cache_flush(void);
/* Frees the ints and floats kept for reuse (value.c); from now on freed ones are
   kept only when keep_freed (nn_set_allocator: only under the default allocator). */
void nn_number_cache_flush(bool keep_freed);
/* Contiguous strides for sizes. */
void nn_contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides);
/* Normalise a dim index into [0, ndim); IndexError when out of range. */
int nn_wrap_dim(int dim, int ndim, int *out);
/* "[2, 3]" into buf (for messages). */
const char *nn_shape_str(int ndim, const int64_t *sizes, char *buf, size_t n);

/* Broadcast shapes a and b into out; RuntimeError with PyTorch's message when they don't fit. */
int nn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out);
/* Fill *view (a header on the stack, not refcounted) with t broadcast to sizes. */
void nn_broadcast_into(const nn_tensor *t, int ndim, const int64_t *sizes, nn_tensor *view);

/* ------------------------------------------------------------ iteration */

/* A strided loop body: data[k] points at the first element of operand k,
   strides[k] is its byte stride, n the element count. */
typedef void (*nn_loop_fn)(char **data, const int64_t *strides, int64_t n, void *ctx);
#define NN_MAX_OPERANDS 4
/* (The host loop that runs such a body, nn_foreach, is the CPU backend's:
   core/cpu/nn_cpu.h. Other code runs one through the map kernel.) */

/* Elementwise loads and stores of any dtype as double. */
double nn_load_double(const void *p, nn_dtype dt);
void nn_store_double(void *p, nn_dtype dt, double v);
/* An element as int64: the integer dtypes and bool exactly (int64 past 2**53 too),
   the floating ones as x86's conversion (INT64_MIN out of range). */
int64_t nn_load_int64(const void *p, nn_dtype dt);

/* ------------------------------------------------------------ reductions */

/* The layout reductions work on: the reduced dims moved last, made contiguous.
   data is a new reference to a contiguous tensor viewed as [outer, inner];
   out_shape/out_ndim the result's shape (with 1s for reduced dims when keepdim). */
typedef struct nn_reduction_layout {
    nn_tensor *data;
    int64_t outer, inner;
    int out_ndim;
    int64_t out_shape[NN_MAX_DIMS];
    bool reduced[NN_MAX_DIMS];   /* which input dims are reduced */
} nn_reduction_layout;
/* n_dims == 0 reduces all dims. 0, or -1 with an error (bad dim, repeated dim). */
int nn_reduction_layout_make(nn_tensor *a, int n_dims, const int *dims, bool keepdim, nn_reduction_layout *l);
/* The length of t's rows as TensorIterator's inner loop sees them (its trailing
   dims that lie densely in memory), or 0 when the last dim of size > 1 is
   strided (core/unary.c). */
int64_t nn_dense_row(const nn_tensor *t);
/* Stores the reduction's dims and keepdim in params (for the backward). */
void nn_reduction_params(const nn_reduction_layout *l, bool keepdim, int ndim, nn_op_params *p);
/* The gradient of a reduction's output brought back to the input's shape
   (unsqueezed where keepdim was false, then expanded); new reference. */
nn_tensor *nn_reduction_grad_expand(nn_node *n, nn_tensor *grad);

/* ------------------------------------------------------------------- BLAS */

#include <cblas.h>

/* OpenBLAS's entry points (blas.c opens the library on first use). */
typedef struct nn_blas {
    __typeof__(cblas_sgemm) *sgemm;
    __typeof__(cblas_dgemm) *dgemm;
    __typeof__(cblas_sgemv) *sgemv;
    __typeof__(cblas_dgemv) *dgemv;
    __typeof__(cblas_sdot) *sdot;
    __typeof__(cblas_ddot) *ddot;
    /* A product computed a block of columns at a time has the whole product's bits:
       true for OpenBLAS's SkylakeX-family sgemm/dgemm kernels, which sum each output
       element the same way whatever N is; its Haswell/Zen kernels take another path for
       the columns of a partial panel, so there a block's bits differ (PyTorch, which
       computes the whole product, is only matched unblocked). */
    bool columns_blockable;
} nn_blas;

/* The BLAS table, loading OpenBLAS the first time (thread-safe). Returns NULL
 * with a RuntimeError set when the library or one of its symbols is missing. */
const nn_blas *nn_blas_get(void);

/* oneDNN's ISA as PyTorch 1.13 meets it (onednn_isa.c): whether its cap
 * (ONEDNN_MAX_CPU_ISA) lets it run AVX-512 code, and whether ATen hands bfloat16
 * products, gelu and convolutions to it (an AVX-512 BW/VL/DQ CPU, under that cap). */
bool nn_onednn_allows_avx512(void);
bool nn_onednn_bf16(void);

/* ------------------------------------------------------------------- text */

/* A growable nn_malloc'd string for reprs and messages (text.c). Start with
   nn_text t = {0}; a failed allocation marks it failed (MemoryError set), after
   which appends do nothing and nn_text_finish returns NULL. */
typedef struct nn_text {
    char *buf;
    size_t len, cap;
    bool failed;
} nn_text;
void nn_text_add(nn_text *t, const char *s, size_t n);
void nn_text_puts(nn_text *t, const char *s);
void nn_text_chars(nn_text *t, char c, int64_t n);
void nn_text_printf(nn_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends an nn_malloc'd string and frees it; NULL marks the text failed. */
void nn_text_take(nn_text *t, char *s);
/* The string (new; "" when nothing was added), or NULL when building failed. */
char *nn_text_finish(nn_text *t);
/* Python's repr(float) of v into out. */
void nn_format_float(double v, char *out, size_t n);

/* Run fn set to enabled, restoring it afterwards. */
#define NN_WITH_GRAD_MODE(enabled, body) do { bool prev__ = nn_set_grad_enabled(enabled); body; nn_set_grad_enabled(prev__); } while (0)

/* Indexing with more than one index tensor (index_multi.c); view.c's nn_index
   and index put send such an index there. */
int nn_index_tensor_count(int n, const nn_index_item *items);
nn_tensor *nn_index_multi(nn_tensor *t, int n, const nn_index_item *items);
int nn_index_put_multi_raw(nn_tensor *t, int n, const nn_index_item *items, nn_tensor *value);

#endif
