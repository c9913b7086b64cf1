/*
 * stdlib.c — where `import math` finds the standard library's modules that the
 * language defines: one table of names and makers (each module is one file,
 * repl/mod_*.c), then the modules written wholly in the language
 * (repl/lib/NAME.py, pylib.c), a per-interpreter cache so that a module is made on its first
 * import only (none at start-up) and every import gives the same object, and
 * the helpers the module files share. Not here: the modules of the bindings
 * (torch, sys: bind_torch.c).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "bigint.h"
#include "stdlib_int.h"

/* The modules, by import name; a dotted name is a submodule (os.path), which
   its parent's maker imports to set it as an attribute. */
static const struct {
    const char *name;
    nn_object *(*make)(void);
} modules[] = {
    {"abc", repl_mod_abc},
    {"binascii", repl_mod_binascii},
    {"_bz2", repl_mod_bz2_c},
    {"builtins", repl_mod_builtins},
    {"__future__", repl_mod_future},
    {"cmath", repl_mod_cmath},
    {"collections", repl_mod_collections},
    {"copy", repl_mod_copy},
    {"dataclasses", repl_mod_dataclasses},
    {"functools", repl_mod_functools},
    {"_green", repl_mod_green},
    {"_weakref", repl_mod_weakref},
    {"_stdio", repl_mod_stdio},
    {"gc", repl_mod_gc},
    {"hashlib", repl_mod_hashlib},
    {"_host", repl_mod_host},
    {"importlib", repl_mod_importlib},
    {"io", repl_mod_io},
    {"itertools", repl_mod_itertools},
    {"json", repl_mod_json},
    {"_lzma", repl_mod_lzma_c},
    {"matplotlib._term", repl_mod_matplotlib_term},
    {"math", repl_mod_math},
    {"_nnimport", repl_mod_nnimport},
    {"numpy", repl_mod_numpy},
    {"numpy.fft", repl_mod_numpy_fft},
    {"numpy.linalg", repl_mod_numpy_linalg},
    {"numpy.random", repl_mod_numpy_random},
    {"os", repl_mod_os},
    {"os.path", repl_mod_os_path},
    {"pickle", repl_mod_pickle},
    {"random", repl_mod_random},
    {"re", repl_mod_re},
    {"safetensors", repl_mod_safetensors},
    {"safetensors.torch", repl_mod_safetensors_torch},
    {"string", repl_mod_string},
    {"struct", repl_mod_struct},
    {"subprocess", repl_mod_subprocess},
    {"time", repl_mod_time},
    {"traceback", repl_mod_traceback},
    {"torch.amp.autocast_mode", repl_mod_autocast_mode},
    {"torch.autograd.anomaly_mode", repl_mod_anomaly_mode},
    {"torch.autograd.function", repl_mod_autograd_function},
    {"torch.autograd.grad_mode", repl_mod_grad_mode},
    {"torch.backends", repl_mod_torch_backends},
    {"torch.backends.cuda", repl_mod_torch_backends_cuda},
    {"torch.backends.cudnn", repl_mod_torch_backends_cudnn},
    {"torch.backends.mps", repl_mod_torch_backends_mps},
    {"torch.optim.lr_scheduler", repl_mod_lr_scheduler},
    {"torch.storage", repl_mod_torch_storage},
    {"torch.optim.optimizer", repl_mod_optim_optimizer},
    {"torch.utils", repl_mod_torch_utils},
    {"torch.utils.data", repl_mod_data},
    {"typing", repl_mod_typing},
    {"unicodedata", repl_mod_unicodedata},
    {"zlib", repl_mod_zlib},
    {"warnings", repl_mod_warnings},
};

/* PyTorch's submodules whose names nnscope keeps in their package
   (`from torch.nn.modules.loss import MSELoss` is torch.nn's MSELoss) */
static const struct {
    const char *name, *package, *names;
} reexports[] = {
#define SUBMODULE(name, package, names) {name, package, names},
#include "submodules.def"
#undef SUBMODULE
};

/* Where nnscope writes the private bases that user code subclasses
   (`class FocalLoss(_Loss)`): a listed name the package lacks is looked up here. */
static const struct {
    const char *name, *module;
} private_homes[] = {
    {"torch.nn.modules.loss", "torch.nn._losses_more"},
    {"torch.nn.modules.conv", "torch.nn._layers3d"},
    {"torch.nn.modules.batchnorm", "torch.nn._norm_bases"},
    {"torch.nn.modules.instancenorm", "torch.nn._instancenorm_base"},
    {"torch.nn.modules.pooling", "torch.nn._pool_bases"},
    {"torch.nn.modules.dropout", "torch.nn._dropout_pad_bases"},
    {"torch.nn.modules.padding", "torch.nn._dropout_pad_bases"},
};

/* name's value from package, else from module name's private home; NULL
   without an error when neither has it */
static nn_object *reexported_value(nn_object *package, const char *module, const char *name)
{
    nn_object *v = repl_get_attr(package, name);
    for (size_t i = 0; !v && nn_error_current() == NN_ERR_ATTRIBUTE && i < sizeof private_homes / sizeof *private_homes; i++) {
        if (strcmp(private_homes[i].name, module) != 0) continue;
        nn_error_clear();
        nn_object *home = repl_stdlib_module(private_homes[i].module);
        v = home ? repl_get_attr(home, name) : NULL;
        NN_RELEASE(home);
    }
    if (!v && nn_error_current() == NN_ERR_ATTRIBUTE) nn_error_clear();
    return v;
}

/* The module of a reexports entry: those of its names the package has (a name
   it lacks stays missing: `from ... import` then raises CPython's ImportError);
   NULL without an error when name is none or the package has none of them. */
static nn_object *reexport_module(const char *name)
{
    static const char *building; /* torch.autograd.gradcheck: the package's name is its function, not this module */
    size_t i = 0;
    while (i < sizeof reexports / sizeof *reexports && strcmp(reexports[i].name, name) != 0) i++;
    if (i == sizeof reexports / sizeof *reexports || building == reexports[i].name) return NULL;
    building = reexports[i].name;
    nn_object *package = repl_import_by_name(reexports[i].package), *m = package ? repl_module_new(name) : NULL;
    size_t found = 0;
    for (const char *p = reexports[i].names; m && *p;) {
        size_t len = strcspn(p, " ");
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)len, p);
        p += len + (p[len] == ' ');
        nn_object *v = reexported_value(package, name, word);
        if (!v && !nn_error_current()) continue;
        if (repl_mod_set(m, word, v) < 0) NN_SET(m, NULL);
        else found++;
    }
    NN_RELEASE(package);
    building = NULL;
    if (m && !found) NN_SET(m, NULL);
    return m;
}

/* whether name is a word of the space-separated list words */
static bool listed_word(const char *words, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = words; (p = strstr(p, name)); p += len)
        if ((p == words || p[-1] == ' ') && (p[len] == ' ' || !p[len])) return true;
    return false;
}

nn_object *repl_stdlib_reexport(const char *package, const char *name)
{
    char full[256];
    if (snprintf(full, sizeof full, "%s.%s", package, name) >= (int)sizeof full) return NULL;
    for (size_t i = 0; i < sizeof reexports / sizeof *reexports; i++) {
        if (!strcmp(reexports[i].name, full)) return repl_stdlib_module(full);
        /* a submodule written in the language (for its private bases) still has the
           names its package exports */
        if (!strcmp(reexports[i].name, package) && listed_word(reexports[i].names, name)) {
            nn_object *home = repl_import_by_name(reexports[i].package);
            nn_object *v = home ? repl_get_attr(home, name) : NULL;
            NN_RELEASE(home);
            return v;
        }
    }
    return NULL;
}

nn_object *repl_stdlib_module(const char *name)
{
    if (!repl_current) return NULL; /* the bindings without an interpreter (tests) */
    nmap *cache = &repl_current->stdlib_modules;
    nn_object *m = repl_nmap_get(cache, name);
    if (m) return nn_retain(m);
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++) {
        if (strcmp(modules[i].name, name) != 0) continue;
        m = modules[i].make();
        if (m && repl_nmap_set(cache, name, m) < 0) NN_SET(m, NULL);
        return m;
    }
    const char *source = repl_pylib_source(name);
    if (!source) {
        m = reexport_module(name);
        if (m && repl_nmap_set(cache, name, m) < 0) NN_SET(m, NULL);
        return m;
    }
    /* cached before it runs, as sys.modules: a module that imports itself back
       (collections.abc -> collections -> collections.abc) gets it, not a second copy */
    m = repl_module_new(name);
    if (!m) return NULL;
    char filename[64];
    snprintf(filename, sizeof filename, "<frozen %s>", name);
    if (repl_nmap_set(cache, name, m) < 0 || repl_builtin_sub_wrap_module(m) < 0 ||
        repl_exec_module_source(m, ((module_obj *)m)->name, source, filename) < 0) {
        repl_nmap_del(cache, name);
        NN_SET(m, NULL);
    }
    return m;
}

void repl_run_atexit(repl_interp *in)
{
    if (!in) return;
    nn_object *m = repl_nmap_get(&in->stdlib_modules, "atexit"); /* never imported: nothing registered */
    repl_interp *prev = repl_current;
    repl_current = in;
    if (m) {
        NN_RETAIN(m);
        nn_object *r = repl_call_method(m, "_run_exitfuncs", NULL, 0);
        if (r) NN_RELEASE(r);
        else NN_RELEASE(repl_take_exception()); /* the functions' own errors are reported in it */
        NN_RELEASE(m);
    }
    repl_sys_flush_std_files(); /* then, as CPython's shutdown, sys.stdout and sys.stderr */
    repl_current = prev;
}

/* Names of a built-in namespace that a module of the language defines
   (torch.autograd.Function is torch.autograd.function's). */
static const struct {
    const char *ns, *name, *module;
} aliases[] = {
    {"torch.autograd", "Function", "torch.autograd.function"},
    {"torch.autograd", "detect_anomaly", "torch.autograd.anomaly_mode"},
    {"torch.autograd", "set_detect_anomaly", "torch.autograd.anomaly_mode"},
    {"torch.autograd", "gradcheck", "torch.autograd._gradcheck"},
    {"torch.autograd", "gradgradcheck", "torch.autograd._gradcheck"},
    {"torch", "is_anomaly_enabled", "torch.autograd.anomaly_mode"},
    {"torch", "is_anomaly_check_nan_enabled", "torch.autograd.anomaly_mode"},
    {"torch", "inference_mode", "torch.autograd.grad_mode"},
    {"torch", "is_inference_mode_enabled", "torch.autograd.grad_mode"},
    {"torch.autograd", "inference_mode", "torch.autograd.grad_mode"},
    {"torch.optim", "Optimizer", "torch.optim.optimizer"},
    {"torch.optim", "RMSprop", "torch.optim.optimizer"},
    {"torch.optim", "Adagrad", "torch.optim.optimizer"},
    {"torch.optim", "Adadelta", "torch.optim.optimizer"},
    {"torch.optim", "LBFGS", "torch.optim.lbfgs"},
    {"torch.optim", "Adamax", "torch.optim._more"},
    {"torch.optim", "NAdam", "torch.optim._more"},
    {"torch.optim", "RAdam", "torch.optim._more"},
    {"torch.optim", "Rprop", "torch.optim._more"},
    {"torch.optim", "ASGD", "torch.optim._more"},
    {"torch", "memory_format", "torch._memory_format"},
    {"torch", "contiguous_format", "torch._memory_format"},
    {"torch", "preserve_format", "torch._memory_format"},
    {"torch", "channels_last", "torch._memory_format"},
    {"torch", "channels_last_3d", "torch._memory_format"},
    {"torch.optim", "lbfgs", "torch.optim.lbfgs"},
    {"torch.nn.utils", "prune", "torch.nn.utils.prune"},
    {"torch.nn.utils", "weight_norm", "torch.nn.utils._weight_norm"},
    {"torch.nn.utils", "remove_weight_norm", "torch.nn.utils._weight_norm"},
    {"torch.nn.utils", "parametrize", "torch.nn.utils.parametrize"},
    {"torch.nn.utils", "parametrizations", "torch.nn.utils.parametrizations"},
    {"torch.nn.utils", "spectral_norm", "torch.nn.utils._spectral_norm"},
    {"torch.nn.utils", "remove_spectral_norm", "torch.nn.utils._spectral_norm"},
    {"torch.autograd", "functional", "torch.autograd.functional"},
    {"torch", "random", "torch.random"},
    {"torch.optim", "swa_utils", "torch.optim.swa_utils"},
    {"torch.nn", "TransformerDecoderLayer", "torch.nn._transformer"},
    {"torch.nn", "TransformerDecoder", "torch.nn._transformer"},
    {"torch.nn", "Transformer", "torch.nn._transformer"},
    {"torch", "set_default_tensor_type", "torch._more"},
    {"torch", "is_floating_point", "torch._more"},
    {"torch", "broadcast_shapes", "torch._more"},
    {"torch", "broadcast_tensors", "torch._more"},
    {"torch", "block_diag", "torch._more"},
    {"torch", "cartesian_prod", "torch._more"},
    {"torch", "combinations", "torch._more"},
    {"torch", "tril_indices", "torch._more"},
    {"torch", "triu_indices", "torch._more"},
    {"torch", "concat", "torch._more"},
    {"torch", "concatenate", "torch._more"},
    {"torch", "isin", "torch._more"},
    {"torch", "vander", "torch._more"},
    {"torch", "gradient", "torch._more"},
    {"torch", "logaddexp2", "torch._more"},
    {"torch", "signbit", "torch._more"},
    {"torch", "nanmedian", "torch._more"},
    {"torch", "index_put", "torch._more"},
    {"torch", "index_put_", "torch._more"},
    {"torch", "argwhere", "torch._more"},
    {"torch", "inner", "torch._more"},
    {"torch", "vdot", "torch._more"},
    {"torch", "tensor_split", "torch._more"},
    {"torch", "hsplit", "torch._more"},
    {"torch", "vsplit", "torch._more"},
    {"torch", "unflatten", "torch._tensor_more"},
    {"torch.nn.functional", "relu_", "torch._more"},
    {"torch.nn.functional", "elu_", "torch._more"},
    {"torch.nn.functional", "leaky_relu_", "torch._more"},
    {"torch.nn.functional", "hardtanh_", "torch._more"},
    {"torch.nn", "Conv3d", "torch.nn._layers3d"},
    {"torch.nn", "ConvTranspose3d", "torch.nn._layers3d"},
    {"torch.nn", "MaxPool3d", "torch.nn._layers3d"},
    {"torch.nn", "AvgPool3d", "torch.nn._layers3d"},
    {"torch.nn", "AdaptiveAvgPool3d", "torch.nn._layers3d"},
    {"torch.nn", "AdaptiveMaxPool3d", "torch.nn._layers3d"},
    {"torch.nn", "Fold", "torch.nn._layers3d"},
    {"torch.nn", "Unfold", "torch.nn._layers3d"},
    {"torch.nn", "ChannelShuffle", "torch.nn._layers3d"},
    {"torch.nn.functional", "conv3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "conv_transpose3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "max_pool3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "max_pool3d_with_indices", "torch.nn._layers3d"},
    {"torch.nn.functional", "avg_pool3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "adaptive_avg_pool3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "adaptive_max_pool3d", "torch.nn._layers3d"},
    {"torch.nn.functional", "adaptive_max_pool3d_with_indices", "torch.nn._layers3d"},
    {"torch.nn.functional", "fold", "torch.nn._layers3d"},
    {"torch.nn.functional", "unfold", "torch.nn._layers3d"},
    {"torch.nn.functional", "channel_shuffle", "torch.nn._layers3d"},
    {"torch", "conv3d", "torch.nn._layers3d"},
    {"torch", "conv_transpose3d", "torch.nn._layers3d"},
    {"torch", "max_pool3d", "torch.nn._layers3d"},
    {"torch", "channel_shuffle", "torch.nn._layers3d"},
    {"torch.nn", "EmbeddingBag", "torch.nn._bag_grid"},
    {"torch.nn", "SyncBatchNorm", "torch.nn._more_nn"},
    {"torch.nn.functional", "conv_tbc", "torch.nn._more_nn"},
    {"torch", "conv_tbc", "torch.nn._more_nn"},
    {"torch.nn.functional", "embedding_bag", "torch.nn._bag_grid"},
    {"torch.nn.functional", "grid_sample", "torch.nn._bag_grid"},
    {"torch.nn.functional", "affine_grid", "torch.nn._bag_grid"},
    {"torch.nn", "Bilinear", "torch.nn._layers_extra"},
    {"torch.nn", "AdaptiveMaxPool1d", "torch.nn._layers3d"},
    {"torch.nn.functional", "bilinear", "torch.nn._layers_extra"},
    {"torch.nn.functional", "adaptive_max_pool1d", "torch.nn._layers3d"},
    {"torch.nn.functional", "adaptive_max_pool1d_with_indices", "torch.nn._layers3d"},
    {"torch.nn.functional", "adaptive_max_pool2d_with_indices", "torch.nn._layers_extra"},
    {"torch.nn.functional", "max_pool1d_with_indices", "torch.nn._layers_extra"},
    {"torch.nn.functional", "max_pool2d_with_indices", "torch.nn._layers_extra"},
    {"torch", "bilinear", "torch.nn._layers_extra"},
    {"torch.nn", "SoftMarginLoss", "torch.nn._losses_more"},
    {"torch.nn", "MultiLabelSoftMarginLoss", "torch.nn._losses_more"},
    {"torch.nn", "HingeEmbeddingLoss", "torch.nn._losses_more"},
    {"torch.nn", "PoissonNLLLoss", "torch.nn._losses_more"},
    {"torch.nn", "GaussianNLLLoss", "torch.nn._losses_more"},
    {"torch.nn", "MultiMarginLoss", "torch.nn._losses_more"},
    {"torch.nn", "MultiLabelMarginLoss", "torch.nn._losses_more"},
    {"torch.nn", "TripletMarginWithDistanceLoss", "torch.nn._losses_more"},
    {"torch.nn", "LPPool1d", "torch.nn._losses_more"},
    {"torch.nn", "LPPool2d", "torch.nn._losses_more"},
    {"torch.nn", "MaxUnpool1d", "torch.nn._losses_more"},
    {"torch.nn", "MaxUnpool3d", "torch.nn._losses_more"},
    {"torch.nn.functional", "soft_margin_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "multilabel_soft_margin_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "hinge_embedding_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "poisson_nll_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "gaussian_nll_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "multi_margin_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "multilabel_margin_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "triplet_margin_with_distance_loss", "torch.nn._losses_more"},
    {"torch.nn.functional", "lp_pool1d", "torch.nn._losses_more"},
    {"torch.nn.functional", "lp_pool2d", "torch.nn._losses_more"},
    {"torch.nn.functional", "max_unpool1d", "torch.nn._losses_more"},
    {"torch.nn.functional", "max_unpool3d", "torch.nn._losses_more"},
    {"torch.nn.functional", "gumbel_softmax", "torch.nn._layers_extra"},
    {"torch.nn.functional", "pdist", "torch.nn._layers_extra"},
    {"torch.nn.functional", "threshold_", "torch.nn._layers_extra"},
    {"torch.nn.functional", "celu_", "torch.nn._layers_extra"},
    {"torch", "pdist", "torch.nn._layers_extra"},
    {"torch.nn", "CTCLoss", "torch.nn._losses_more"},
    {"torch.nn.functional", "ctc_loss", "torch.nn._losses_more"},
    {"torch", "distributions", "torch.distributions"}, /* the module itself */
    {"torch", "special", "torch.special"},
    {"torch", "functional", "torch.functional"}, /* the module itself */
    {"torch", "testing", "torch.testing"},
    {"torch", "matrix_exp", "torch._matrix_exp"},
    {"torch.linalg", "matrix_exp", "torch._matrix_exp"},
    {"torch.linalg", "solve_triangular", "torch._solve_triangular"},
    {"torch.linalg", "lu_solve", "torch._linalg_solve"},
    {"torch.linalg", "matmul", "torch._linalg_more"},
    {"torch.linalg", "diagonal", "torch._linalg_more"},
    {"torch.linalg", "vander", "torch._linalg_more"},
    {"torch.linalg", "cond", "torch._linalg_more"},
    {"torch.linalg", "tensorinv", "torch._linalg_more"},
    {"torch.linalg", "tensorsolve", "torch._linalg_more"},
    {"torch.linalg", "solve_ex", "torch._linalg_more"},
    {"torch.linalg", "inv_ex", "torch._linalg_more"},
    {"torch", "cholesky_solve", "torch._linalg_solve"},
    {"torch", "chain_matmul", "torch._linalg_solve"},
    {"torch", "frombuffer", "torch._frombuffer"},
    {"torch", "stft", "torch._stft"},
    {"torch", "istft", "torch._stft"},
    {"torch", "triangular_solve", "torch._solve_triangular"},
    {"torch", "storage", "torch.storage"}, /* the module itself */
    {"torch", "UntypedStorage", "torch.storage"},
    {"torch", "TypedStorage", "torch.storage"},
    {"torch", "FloatStorage", "torch.storage"},
    {"torch", "DoubleStorage", "torch.storage"},
    {"torch", "HalfStorage", "torch.storage"},
    {"torch", "BFloat16Storage", "torch.storage"},
    {"torch", "LongStorage", "torch.storage"},
    {"torch", "IntStorage", "torch.storage"},
    {"torch", "ShortStorage", "torch.storage"},
    {"torch", "CharStorage", "torch.storage"},
    {"torch", "ByteStorage", "torch.storage"},
    {"torch", "BoolStorage", "torch.storage"},
    {"torch", "is_storage", "torch.storage"},
    {"torch", "typename", "torch.storage"},
    {"torch", "distributed", "torch.distributed"}, /* the module itself */
    {"torch.nn", "parallel", "torch.nn.parallel"}, /* the module itself */
    {"torch.nn", "DataParallel", "torch.nn.parallel"},
    {"torch.cuda", "amp", "torch.cuda.amp"}, /* the module itself */
    {"torch", "autocast", "torch.amp.autocast_mode"},
    {"torch", "is_autocast_cpu_enabled", "torch.amp.autocast_mode"},
    {"torch", "set_autocast_cpu_enabled", "torch.amp.autocast_mode"},
    {"torch", "get_autocast_cpu_dtype", "torch.amp.autocast_mode"},
    {"torch", "set_autocast_cpu_dtype", "torch.amp.autocast_mode"},
    {"torch", "is_autocast_enabled", "torch.amp.autocast_mode"},
    {"torch", "set_autocast_enabled", "torch.amp.autocast_mode"},
    {"torch", "get_autocast_gpu_dtype", "torch.amp.autocast_mode"},
    {"torch", "set_autocast_gpu_dtype", "torch.amp.autocast_mode"},
    {"torch", "is_autocast_cache_enabled", "torch.amp.autocast_mode"},
    {"torch", "set_autocast_cache_enabled", "torch.amp.autocast_mode"},
    {"torch", "autocast_increment_nesting", "torch.amp.autocast_mode"},
    {"torch", "autocast_decrement_nesting", "torch.amp.autocast_mode"},
    {"torch", "clear_autocast_cache", "torch.amp.autocast_mode"},
    {"torch", "amp", "torch.amp"}, /* the module itself */
    {"torch", "jit", "torch.jit"}, /* the module itself */
    {"torch", "version", "torch.version"}, /* the module itself */
    {"torch", "multiprocessing", "torch.multiprocessing"}, /* the module itself */
    {"torch", "cpu", "torch.cpu"}, /* the module itself */
    {"torch.cpu", "amp", "torch.cpu.amp"}, /* the module itself */
    {"sys", "stdin", "_sys_stdin"},
    {"sys", "stdout", "_sys_stdio"},
    {"sys", "stderr", "_sys_stdio"},
    {"sys", "__stdout__", "_sys_stdio"},
    {"sys", "__stderr__", "_sys_stdio"},
    {"sys", "__stdin__", "_sys_stdin"},
    {"torch", "dist", "torch._names_more"},
    {"torch", "deg2rad", "torch._names_more"},
    {"torch", "rad2deg", "torch._names_more"},
    {"torch", "fmax", "torch._names_more"},
    {"torch", "fmin", "torch._names_more"},
    {"torch", "masked_scatter", "torch._names_more"},
    {"torch", "dropout", "torch._names_more"},
    {"torch", "alpha_dropout", "torch._names_more"},
    {"torch", "layer_norm", "torch._names_more"},
    {"torch", "group_norm", "torch._names_more"},
    {"torch", "batch_norm", "torch._names_more"},
    {"torch", "instance_norm", "torch._names_more"},
    {"torch", "embedding", "torch._names_more"},
    {"torch", "pixel_shuffle", "torch._names_more"},
    {"torch", "pixel_unshuffle", "torch._names_more"},
    {"torch", "selu", "torch._names_more"},
    {"torch", "celu", "torch._names_more"},
    {"torch", "threshold", "torch._names_more"},
    {"torch", "rrelu", "torch._names_more"},
    {"torch", "hardshrink", "torch._names_more"},
    {"torch.nn", "LazyConv1d", "torch.nn._lazy"},
    {"torch.nn", "LazyConv2d", "torch.nn._lazy"},
    {"torch.nn", "LazyConv3d", "torch.nn._lazy"},
    {"torch.nn", "LazyConvTranspose1d", "torch.nn._lazy"},
    {"torch.nn", "LazyConvTranspose2d", "torch.nn._lazy"},
    {"torch.nn", "LazyConvTranspose3d", "torch.nn._lazy"},
    {"torch.nn", "LazyBatchNorm1d", "torch.nn._lazy"},
    {"torch.nn", "LazyBatchNorm2d", "torch.nn._lazy"},
    {"torch.nn", "LazyBatchNorm3d", "torch.nn._lazy"},
    {"torch.nn", "LazyInstanceNorm1d", "torch.nn._lazy"},
    {"torch.nn", "LazyInstanceNorm2d", "torch.nn._lazy"},
    {"torch.nn", "LazyInstanceNorm3d", "torch.nn._lazy"},
    {"torch.nn", "UninitializedParameter", "torch.nn._lazy"},
    {"torch.nn", "UninitializedBuffer", "torch.nn._lazy"},
    {"torch", "addmm", "torch._blas_index"},
    {"torch", "baddbmm", "torch._blas_index"},
    {"torch", "addbmm", "torch._blas_index"},
    {"torch", "addmv", "torch._blas_index"},
    {"torch", "addr", "torch._blas_index"},
    {"torch", "index_copy", "torch._blas_index"},
    {"torch", "index_fill", "torch._blas_index"},
    {"torch.nn", "AdaptiveLogSoftmaxWithLoss", "torch.nn._adaptive"},
    {"torch.nn", "FractionalMaxPool2d", "torch.nn._fractional"},
    {"torch.nn", "FractionalMaxPool3d", "torch.nn._fractional"},
    {"torch.nn.functional", "fractional_max_pool2d", "torch.nn._fractional"},
    {"torch.nn.functional", "fractional_max_pool3d", "torch.nn._fractional"},
    {"torch.nn.functional", "fractional_max_pool2d_with_indices", "torch.nn._fractional"},
    {"torch.nn.functional", "fractional_max_pool3d_with_indices", "torch.nn._fractional"},
    {"torch.nn.functional", "multi_head_attention_forward", "torch.nn._mha"},
    {"torch.nn.init", "trunc_normal_", "torch.nn._init_more"},
    {"torch.nn.init", "eye_", "torch.nn._init_more"},
    {"torch.nn.init", "dirac_", "torch.nn._init_more"},
    {"torch.nn.init", "orthogonal_", "torch.nn._init_more"},
    {"torch.nn.init", "sparse_", "torch.nn._init_more"},
    {"torch.nn.init", "uniform", "torch.nn._init_more"},
    {"torch.nn.init", "normal", "torch.nn._init_more"},
    {"torch.nn.init", "constant", "torch.nn._init_more"},
    {"torch.nn.init", "eye", "torch.nn._init_more"},
    {"torch.nn.init", "dirac", "torch.nn._init_more"},
    {"torch.nn.init", "xavier_uniform", "torch.nn._init_more"},
    {"torch.nn.init", "xavier_normal", "torch.nn._init_more"},
    {"torch.nn.init", "kaiming_uniform", "torch.nn._init_more"},
    {"torch.nn.init", "kaiming_normal", "torch.nn._init_more"},
    {"torch.nn.init", "orthogonal", "torch.nn._init_more"},
    {"torch.nn.init", "sparse", "torch.nn._init_more"},
};

/* Whether name is an item of module m's list attribute list_name (its __all__, ...). */
static bool module_lists(nn_object *m, const char *list_name, const char *name)
{
    nn_object *list = repl_get_attr(m, list_name);
    bool found = false;
    for (size_t i = 0; list && nn_is_list(list) && !found && i < nn_list_len(list); i++) {
        nn_object *item = nn_list_get(list, i);
        found = nn_is_str(item) && strcmp(nn_str_cstr(item), name) == 0;
    }
    if (!list) nn_error_clear();
    NN_RELEASE(list);
    return found;
}

bool repl_stdlib_lists(const char *module, const char *list_name, const char *name)
{
    static bool loading; /* a name missing while the module itself loads is missing */
    if (loading) return false;
    loading = true;
    nn_object *m = repl_stdlib_module(module);
    loading = false;
    bool found = m && module_lists(m, list_name, name);
    NN_RELEASE(m);
    return found;
}

nn_object *repl_stdlib_listed(const char *module, const char *list_name, const char *name)
{
    if (!repl_stdlib_lists(module, list_name, name)) return NULL;
    nn_object *m = repl_stdlib_module(module);
    nn_object *v = m ? repl_get_attr(m, name) : NULL;
    NN_RELEASE(m);
    return v;
}

nn_object *repl_stdlib_alias(const char *ns, const char *name)
{
    /* names written in the language in a module that lists them in its __all__:
       torch's other names of what is there, torch.cuda's answers without CUDA */
    static const char *const listing[][2] = {{"torch", "torch._aliases"}, {"torch.cuda", "torch.cuda._nocuda"}};
    for (size_t i = 0; i < sizeof listing / sizeof *listing; i++) {
        if (strcmp(ns, listing[i][0]) != 0) continue;
        nn_object *v = repl_stdlib_listed(listing[i][1], "__all__", name);
        if (v || nn_error_current()) return v;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++) {
        if (strcmp(aliases[i].ns, ns) != 0 || strcmp(aliases[i].name, name) != 0) continue;
        nn_object *m = repl_stdlib_module(aliases[i].module);
        size_t ns_len = strlen(ns);
        if (strncmp(aliases[i].module, ns, ns_len) == 0 && aliases[i].module[ns_len] == '.' &&
            strcmp(aliases[i].module + ns_len + 1, name) == 0)
            return m; /* a submodule written in the language */
        nn_object *v = m ? repl_get_attr(m, name) : NULL;
        NN_RELEASE(m);
        return v;
    }
    return NULL;
}

int repl_mod_set(nn_object *m, const char *name, nn_object *v)
{
    if (!v) return -1;
    int rc = repl_set_attr(m, name, v);
    NN_RELEASE(v);
    return rc;
}

/* A function of a module of values (math, os, os.path, re, string, ...): it
   receives the built-in value of an instance of a subclass of str, int, list, ...
   (os.path.join(MyStr('a'), 'b')); ud is its table entry. */
static nn_object *values_call(void *ud, nn_object *args, nn_object *kwargs)
{
    const repl_mod_fn *f = ud;
    nn_object *a = repl_native_args(args), *k = a ? repl_native_kwargs(kwargs) : NULL;
    nn_object *r = a && (k || !kwargs) ? f->fn(NULL, a, k) : NULL;
    NN_RELEASE(a);
    NN_RELEASE(k);
    return r;
}

/* o's os.fspath() when o is an os.PathLike object (a pathlib.Path: an instance
   whose class has __fspath__), else o; new reference or NULL */
static nn_object *fspath_of(nn_object *o)
{
    if (o->type != &repl_instance_type || !repl_class_lookup(((instance_obj *)o)->cls, "__fspath__")) return nn_retain(o);
    return repl_call_method(o, "__fspath__", NULL, 0);
}

/* A function of os or os.path: as values_call, with os.PathLike arguments
   (pathlib.Path) given as their paths, as CPython's os functions take them. */
static nn_object *paths_call(void *ud, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    nn_object *a = nn_tuple_new(n), *k = kwargs ? nn_dict_new() : NULL, *key, *v, *r = NULL;
    for (size_t i = 0; a && i < n; i++) {
        nn_object *p = fspath_of(nn_tuple_get(args, i));
        if (!p) NN_SET(a, NULL);
        else nn_tuple_set(a, i, p);
    }
    size_t pos = 0;
    while (a && k && nn_dict_next(kwargs, &pos, &key, &v)) {
        nn_object *p = fspath_of(v);
        if (!p || nn_dict_set(k, key, p) < 0) NN_SET(k, NULL);
        NN_RELEASE(p);
    }
    if (a && (k || !kwargs)) r = values_call(ud, a, k);
    NN_RELEASE(a);
    NN_RELEASE(k);
    return r;
}

/* How a module's functions take their arguments: as given (copy, pickle, json
   handle objects themselves), as values (a subclass instance as its built-in
   value) or as values and paths. */
typedef enum { TAKES_OBJECTS, TAKES_VALUES, TAKES_PATHS } arg_kind;

static arg_kind module_takes(nn_object *m)
{
    static const char *const names[] = {"math", "string", "re", "time", "statistics", "struct", NULL};
    if (m->type != &repl_module_type) return TAKES_OBJECTS;
    const char *name = ((module_obj *)m)->name;
    if (!strcmp(name, "os") || !strcmp(name, "posixpath")) return TAKES_PATHS;
    for (int i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0) return TAKES_VALUES;
    return TAKES_OBJECTS;
}

int repl_mod_add_fns(nn_object *m, const repl_mod_fn *fns, size_t n)
{
    arg_kind takes = module_takes(m);
    nn_cfunc call = takes == TAKES_PATHS ? paths_call : values_call;
    for (size_t i = 0; i < n; i++)
        if (repl_mod_set(m, fns[i].name, takes != TAKES_OBJECTS ? nn_cfunction_new(fns[i].name, call, (void *)&fns[i], NULL)
                                                                : nn_cfunction_new(fns[i].name, fns[i].fn, NULL, NULL)) < 0)
            return -1;
    return 0;
}

int repl_mod_nargs(const char *fname, nn_object *args, nn_object *kwargs, int min, int max)
{
    if (kwargs && nn_dict_len(kwargs)) return repl_raise_exc(EXC_TypeError, "%s() takes no keyword arguments", fname);
    int n = args ? (int)nn_tuple_len(args) : 0;
    return repl_check_arity(fname, n, min, max) < 0 ? -1 : n;
}

int repl_check_arity(const char *fname, int n, int min, int max)
{
    if (n >= min && n <= max) return 0;
    if (min == max && min == 0) return repl_raise_exc(EXC_TypeError, "%s() takes no arguments (%d given)", fname, n);
    if (min == max && min == 1)
        return repl_raise_exc(EXC_TypeError, "%s() takes exactly one argument (%d given)", fname, n);
    if (min == max) return repl_raise_exc(EXC_TypeError, "%s expected %d arguments, got %d", fname, min, n);
    if (n < min)
        return repl_raise_exc(EXC_TypeError, "%s expected at least %d argument%s, got %d", fname, min,
                              min == 1 ? "" : "s", n);
    return repl_raise_exc(EXC_TypeError, "%s expected at most %d argument%s, got %d", fname, max, max == 1 ? "" : "s",
                          n);
}

int repl_mod_real(nn_object *o, double *out)
{
    if (nn_is_float(o) || nn_is_int(o) || nn_is_bool(o)) {
        *out = nn_float_value(o);
        return 0;
    }
    nn_object *f = NULL;
    if (o->type != &nn_str_type && o->type != &nn_none_type) {
        /* a 0-dim tensor or a class with __float__: what float() makes of it */
        f = repl_call_object(&repl_current->float_cls->ob, &o, 1, NULL);
        if (!f) {
            nn_object *e = repl_take_exception();
            bool type_error = e && repl_exc_matches(e, &repl_current->exc_classes[EXC_TypeError]->ob);
            if (!type_error) {
                repl_raise_object(e); /* a tensor of several elements: its own error */
                NN_RELEASE(e);
                return -1;
            }
            NN_RELEASE(e);
        }
    }
    if (!f || !nn_is_float(f)) {
        NN_RELEASE(f);
        return repl_raise_exc(EXC_TypeError, "must be real number, not %s", repl_value_type_name(o));
    }
    *out = nn_float_value(f);
    NN_RELEASE(f);
    return 0;
}

int repl_mod_int(nn_object *o, int64_t *out)
{
    if (repl_base_value(o) && nn_is_int(repl_base_value(o))) o = repl_base_value(o); /* class I(int) */
    if (nn_is_int(o) || nn_is_bool(o)) {
        *out = nn_int_value(o);
        return 0;
    }
    if (repl_is_bigint(o)) return repl_raise_exc(EXC_OverflowError, "Python int too large to convert to C long");
    return repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(o));
}

nn_object *repl_mod_kwarg(nn_object *kwargs, const char *name)
{
    return kwargs ? nn_dict_get_str(kwargs, name) : NULL;
}

int repl_mod_kwargs_only(const char *fname, nn_object *kwargs, const char *const *names)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *const *n = names;
        while (*n && strcmp(*n, nn_str_cstr(k)) != 0) n++;
        if (!*n)
            return repl_raise_exc(EXC_TypeError, "%s() got an unexpected keyword argument '%s'", fname, nn_str_cstr(k));
    }
    return 0;
}

nn_object *repl_mod_attr(nn_object *self, const char *name)
{
    nn_object *v = self && self->type == &repl_instance_type ? repl_nmap_get(&((instance_obj *)self)->attrs, name) : NULL;
    if (!v) repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute '%s'", repl_value_type_name(self), name);
    return v;
}

int repl_mod_check_self(const char *fname, nn_object *args)
{
    nn_object *self = nn_tuple_len(args) ? nn_tuple_get(args, 0) : NULL;
    if (!self || self->type != &repl_instance_type)
        return repl_raise_exc(EXC_TypeError, "%s() needs an instance as its first argument", fname);
    return 0;
}

class_obj *repl_mod_class(const char *module, const char *name, nn_cfunc ctor, const repl_mod_fn *methods, size_t n)
{
    return repl_mod_subclass(module, name, repl_current->object_cls, ctor, methods, n);
}

class_obj *repl_mod_subclass(const char *module, const char *name, class_obj *base, nn_cfunc ctor,
                             const repl_mod_fn *methods, size_t n)
{
    class_obj *c = repl_lang_class_new(name, base, -1);
    if (!c) return NULL;
    c->module = module;
    c->ctor = ctor;
    for (size_t i = 0; i < n && methods[i].name; i++) {
        nn_object *f = nn_cfunction_new(methods[i].name, methods[i].fn, NULL, NULL);
        int rc = f ? repl_nmap_set(&c->dict, methods[i].name, f) : -1;
        NN_RELEASE(f);
        if (rc < 0) {
            NN_RELEASE(c);
            return NULL;
        }
    }
    return c;
}

nn_object *repl_mod_from_source(const char *name, const repl_mod_fn *helpers, size_t n, const char *source)
{
    nn_object *m = repl_module_new(name);
    if (!m) return NULL;
    char filename[64];
    snprintf(filename, sizeof filename, "<frozen %s>", name);
    if (repl_mod_add_fns(m, helpers, n) < 0 || repl_builtin_sub_wrap_module(m) < 0 || /* zlib.crc32(B(b'x')) */
        /* the module's own copy of its name: the classes it defines keep pointing at it, and
           the caller's name may be a buffer on its stack (torch.distributions reached as an
           attribute) */
        repl_exec_module_source(m, ((module_obj *)m)->name, source, filename) < 0)
        NN_SET(m, NULL);
    return m;
}

bool repl_memory_room(size_t bytes)
{
    /* asked of the kernel directly, as glibc's malloc asks for a block this large:
       through the allocator a sanitizer build would abort on the refusal */
    void *room = bytes ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
    if (room == MAP_FAILED) return false;
    if (room) munmap(room, bytes);
    return true;
}
