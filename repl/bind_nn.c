/*
 * bind_nn.c — torch.nn in the language: the module classes as callable class
 * objects with PyTorch's constructor keywords, nn.Module's methods and
 * attributes on module instances, containers' indexing, hook handles,
 * load_state_dict's result, torch.nn.functional, torch.nn.init,
 * torch.nn.modules.module's global hooks and torch.nn.parameter.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_mod_more.h"

#define ARGS(n) nn_object *a[n] = {0} /* slots the spec lacks stay NULL */
#define MOD(m) ((nn_object *)(m))

static nn_object *none(void) { return nn_retain(nn_none()); }

/* ------------------------------------------------------------ constructors */

#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)

CTOR(Linear)
{
    ARGS(5);
    int64_t in = 0, out = 0;
    bool bias = true;
    int dtype = -1;
    const char *f = "Linear.__init__";
    if (repl_parse_args(f, "self, in_features, out_features, bias=, device=, dtype=", args, kwargs, a) ||
        repl_arg_int(f, "in_features", 1, a[0], &in) || repl_arg_int(f, "out_features", 2, a[1], &out) ||
        repl_arg_bool(f, "bias", 3, a[2], &bias) || repl_arg_dtype(f, "dtype", 0, a[4], &dtype))
        return NULL;
    return MOD(nn_linear_new(in, out, bias, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype));
}

CTOR(LazyLinear)
{
    ARGS(4);
    int64_t out = 0;
    bool bias = true;
    int dtype = -1;
    const char *f = "LazyLinear.__init__";
    if (repl_parse_args(f, "self, out_features, bias=, device=, dtype=", args, kwargs, a) ||
        repl_arg_int(f, "out_features", 1, a[0], &out) || repl_arg_bool(f, "bias", 2, a[1], &bias) ||
        repl_arg_dtype(f, "dtype", 0, a[3], &dtype))
        return NULL;
    return MOD(nn_lazy_linear_new(out, bias, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype));
}

CTOR(Identity) { return MOD(nn_identity_new()); }

CTOR(Flatten)
{
    ARGS(2);
    int64_t s = 1, e = -1;
    const char *f = "Flatten.__init__";
    if (repl_parse_args(f, "self, start_dim=, end_dim=", args, kwargs, a) ||
        repl_arg_dim(f, "start_dim", 1, a[0], -1, &s) || repl_arg_dim(f, "end_dim", 2, a[1], -1, &e))
        return NULL;
    return MOD(nn_flatten_new(s, e));
}

static nn_object *inplace_only(const char *f, nn_object *args, nn_object *kwargs, nn_module *(*mk)(bool))
{
    ARGS(1);
    bool inplace = false;
    if (repl_parse_args(f, "self, inplace=", args, kwargs, a) || repl_arg_bool(f, "inplace", 1, a[0], &inplace))
        return NULL;
    return MOD(mk(inplace));
}

CTOR(ReLU) { return inplace_only("ReLU.__init__", args, kwargs, nn_relu_new); }
CTOR(SiLU) { return inplace_only("SiLU.__init__", args, kwargs, nn_silu_new); }

CTOR(GELU)
{
    ARGS(1);
    const char *approx = NULL;
    if (repl_parse_args("GELU.__init__", "self, approximate=", args, kwargs, a) ||
        repl_arg_str("GELU.__init__", "approximate", 1, a[0], &approx))
        return NULL;
    return MOD(nn_gelu_new(approx));
}

CTOR(PReLU)
{
    ARGS(4);
    int64_t n = 1;
    double init = 0.25;
    int dtype = -1;
    const char *f = "PReLU.__init__";
    if (repl_parse_args(f, "self, num_parameters=, init=, device=, dtype=", args, kwargs, a) ||
        repl_arg_int(f, "num_parameters", 1, a[0], &n) || repl_arg_double(f, "init", 2, a[1], &init) ||
        repl_arg_dtype(f, "dtype", 0, a[3], &dtype))
        return NULL;
    return MOD(nn_prelu_new(n, init, dtype));
}

static nn_object *no_args(const char *f, nn_object *args, nn_object *kwargs, nn_module *(*mk)(void))
{
    ARGS(1);
    if (repl_parse_args(f, "self", args, kwargs, a)) return NULL;
    return MOD(mk());
}

CTOR(Sigmoid) { return no_args("Sigmoid.__init__", args, kwargs, nn_sigmoid_new); }
CTOR(Tanh) { return no_args("Tanh.__init__", args, kwargs, nn_tanh_new); }

CTOR(Threshold)
{
    ARGS(3);
    bool inplace = false;
    if (repl_parse_args("Threshold.__init__", "self, threshold, value, inplace=", args, kwargs, a) ||
        repl_arg_bool("Threshold.__init__", "inplace", 3, a[2], &inplace))
        return NULL;
    return MOD(nn_threshold_new(a[0], a[1], inplace));
}

CTOR(LeakyReLU)
{
    ARGS(2);
    bool inplace = false;
    if (repl_parse_args("LeakyReLU.__init__", "self, negative_slope=, inplace=", args, kwargs, a) ||
        repl_arg_bool("LeakyReLU.__init__", "inplace", 2, a[1], &inplace))
        return NULL;
    return MOD(nn_leaky_relu_new(a[0], inplace));
}

CTOR(ELU)
{
    ARGS(2);
    bool inplace = false;
    if (repl_parse_args("ELU.__init__", "self, alpha=, inplace=", args, kwargs, a) ||
        repl_arg_bool("ELU.__init__", "inplace", 2, a[1], &inplace))
        return NULL;
    return MOD(nn_elu_new(a[0], inplace));
}

CTOR(Softplus)
{
    ARGS(2);
    if (repl_parse_args("Softplus.__init__", "self, beta=, threshold=", args, kwargs, a)) return NULL;
    return MOD(nn_softplus_new(a[0], a[1]));
}

CTOR(Softmax)
{
    ARGS(1);
    if (repl_parse_args("Softmax.__init__", "self, dim=", args, kwargs, a)) return NULL;
    return MOD(nn_softmax_new(a[0]));
}

CTOR(LogSoftmax)
{
    ARGS(1);
    if (repl_parse_args("LogSoftmax.__init__", "self, dim=", args, kwargs, a)) return NULL;
    return MOD(nn_log_softmax_new(a[0]));
}

CTOR(Dropout)
{
    ARGS(2);
    double p = 0.5;
    bool inplace = false;
    if (repl_parse_args("Dropout.__init__", "self, p=, inplace=", args, kwargs, a) ||
        repl_arg_double("Dropout.__init__", "p", 1, a[0], &p) ||
        repl_arg_bool("Dropout.__init__", "inplace", 2, a[1], &inplace))
        return NULL;
    return MOD(nn_dropout_new(p, inplace));
}

CTOR(LayerNorm)
{
    ARGS(5);
    double eps = 1e-5;
    bool affine = true;
    int dtype = -1, n = 0;
    int64_t shape[NN_MAX_DIMS];
    const char *f = "LayerNorm.__init__";
    if (repl_parse_args(f, "self, normalized_shape, eps=, elementwise_affine=, device=, dtype=", args, kwargs, a) ||
        repl_arg_double(f, "eps", 2, a[1], &eps) || repl_arg_bool(f, "elementwise_affine", 3, a[2], &affine) ||
        repl_arg_dtype(f, "dtype", 0, a[4], &dtype))
        return NULL;
    if (nn_is_int(a[0])) {
        n = 1;
        shape[0] = nn_int_value(a[0]);
    } else if (repl_arg_shape(f, "normalized_shape", a[0], &n, shape)) {
        return NULL;
    }
    return MOD(nn_layer_norm_new(n, shape, eps, affine, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype));
}

static nn_object *batch_norm_ctor(const char *f, int dims, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    int64_t nf = 0;
    double eps = 1e-5, mom = 0.1;
    bool affine = true, track = true;
    int dtype = -1;
    if (repl_parse_args(f, "self, num_features, eps=, momentum=, affine=, track_running_stats=, device=, dtype=", args,
                        kwargs, a) ||
        repl_arg_int(f, "num_features", 1, a[0], &nf) || repl_arg_double(f, "eps", 2, a[1], &eps) ||
        repl_arg_bool(f, "affine", 4, a[3], &affine) || repl_arg_bool(f, "track_running_stats", 5, a[4], &track) ||
        repl_arg_dtype(f, "dtype", 0, a[6], &dtype))
        return NULL;
    if (a[2] && nn_is_none(a[2])) mom = NAN;
    else if (repl_arg_double(f, "momentum", 3, a[2], &mom)) return NULL;
    return MOD((dims == 3 ? nn_batch_norm3d_new : dims == 2 ? nn_batch_norm2d_new : nn_batch_norm1d_new)(nf, eps, mom, affine, track,
                                                                   dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype));
}

CTOR(BatchNorm1d) { return batch_norm_ctor("BatchNorm1d.__init__", 1, args, kwargs); }
CTOR(BatchNorm2d) { return batch_norm_ctor("BatchNorm2d.__init__", 2, args, kwargs); }
CTOR(BatchNorm3d) { return batch_norm_ctor("BatchNorm3d.__init__", 3, args, kwargs); }

CTOR(Embedding)
{
    ARGS(10);
    int64_t num = 0, dim = 0, pad = 0;
    int dtype = -1;
    const char *f = "Embedding.__init__";
    if (repl_parse_args(f,
                        "self, num_embeddings, embedding_dim, padding_idx=, max_norm=, norm_type=, "
                        "scale_grad_by_freq=, sparse=, _weight=, device=, dtype=",
                        args, kwargs, a) ||
        repl_arg_int(f, "num_embeddings", 1, a[0], &num) || repl_arg_int(f, "embedding_dim", 2, a[1], &dim) ||
        repl_arg_dtype(f, "dtype", 0, a[9], &dtype))
        return NULL;
    bool has_pad = a[2] && !nn_is_none(a[2]);
    if (has_pad && repl_arg_int(f, "padding_idx", 3, a[2], &pad)) return NULL;
    nn_tensor *weight = NULL; /* _weight: the parameter wraps it (no draws, no zeroed padding row) */
    if (a[7] && !nn_is_none(a[7]) && repl_arg_tensor(f, "_weight", 8, a[7], &weight)) return NULL;
    if (weight && (weight->ndim != 2 || weight->sizes[0] != num || weight->sizes[1] != dim))
        return nn_error_set(NN_ERR_ASSERTION, "Shape of weight does not match num_embeddings and embedding_dim"), NULL;
    size_t state_n = weight ? nn_generator_state_size() : 0;
    unsigned char *state = weight ? nn_malloc(state_n) : NULL;
    if (weight && !state) return NULL;
    if (state) nn_generator_get_state(nn_default_generator(), state);
    nn_module *m = nn_embedding_new(num, dim, has_pad, pad, weight ? weight->dtype : dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
    if (state && nn_generator_set_state(nn_default_generator(), state, state_n) < 0) NN_SET(m, NULL);
    nn_free(state);
    nn_tensor *p = m && weight ? nn_parameter_new(weight, true) : NULL;
    if (m && weight && (!p || nn_module_register_parameter(m, "weight", p) < 0)) NN_SET(m, NULL);
    NN_RELEASE(p);
    /* max_norm, norm_type, scale_grad_by_freq, sparse: kept as given (forward renorms with max_norm) */
    static const char *const kept[4] = {"max_norm", "norm_type", "scale_grad_by_freq", "sparse"};
    for (int i = 0; m && i < 4; i++)
        if (a[3 + i] && nn_module_setattr(m, kept[i], a[3 + i]) < 0) NN_SET(m, NULL);
    return MOD(m);
}

static nn_object *loss_ctor(const char *f, nn_object *args, nn_object *kwargs, nn_module *(*mk)(const char *))
{
    ARGS(3);
    const char *red = NULL;
    if (repl_parse_args(f, "self, size_average=, reduce=, reduction=", args, kwargs, a) ||
        repl_arg_str(f, "reduction", 3, a[2], &red) || repl_legacy_reduction(a[0], a[1], &red))
        return NULL;
    return MOD(mk(red));
}

CTOR(MSELoss) { return loss_ctor("MSELoss.__init__", args, kwargs, nn_mse_loss_new); }
CTOR(L1Loss) { return loss_ctor("L1Loss.__init__", args, kwargs, nn_l1_loss_new); }

CTOR(Sequential)
{
    if (kwargs && nn_dict_len(kwargs)) {
        nn_error_set(NN_ERR_TYPE, "Sequential.__init__() got an unexpected keyword argument");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    if (n == 1 && nn_is_dict(nn_tuple_get(args, 0))) return MOD(nn_sequential_new_from_dict(nn_tuple_get(args, 0)));
    return MOD(nn_sequential_new_from_objects(n, ((nn_tuple *)args)->items));
}

CTOR(ModuleList)
{
    ARGS(1);
    if (repl_parse_args("ModuleList.__init__", "self, modules=", args, kwargs, a)) return NULL;
    return MOD(nn_module_list_new(a[0] && !nn_is_none(a[0]) ? a[0] : NULL));
}

CTOR(ModuleDict)
{
    ARGS(1);
    if (repl_parse_args("ModuleDict.__init__", "self, modules=", args, kwargs, a)) return NULL;
    return MOD(nn_module_dict_new(a[0] && !nn_is_none(a[0]) ? a[0] : NULL));
}

CTOR(ParameterList)
{
    ARGS(1);
    if (repl_parse_args("ParameterList.__init__", "self, values=", args, kwargs, a)) return NULL;
    return MOD(nn_parameter_list_new(a[0] && !nn_is_none(a[0]) ? a[0] : NULL));
}

CTOR(ParameterDict)
{
    ARGS(1);
    if (repl_parse_args("ParameterDict.__init__", "self, parameters=", args, kwargs, a)) return NULL;
    return MOD(nn_parameter_dict_new(a[0] && !nn_is_none(a[0]) ? a[0] : NULL, false));
}

CTOR(Module)
{
    ARGS(1);
    if (repl_parse_args("Module.__init__", "self", args, kwargs, a)) return NULL;
    return MOD(nn_module_new(&repl_module_base_class));
}

CTOR(MultiStep)
{
    ARGS(2);
    double g = 0;
    int64_t n = 0;
    if (repl_parse_args("MultiStep.__init__", "self, gamma, n_steps", args, kwargs, a) ||
        repl_arg_double("MultiStep.__init__", "gamma", 1, a[0], &g) ||
        repl_arg_int("MultiStep.__init__", "n_steps", 2, a[1], &n))
        return NULL;
    return MOD(nn_multistep_new(g, n));
}

CTOR(FeedForward)
{
    ARGS(8);
    nn_feed_forward_options o;
    nn_feed_forward_options_default(&o);
    int64_t dm = 0, dff = 0;
    const char *f = "FeedForward.__init__";
    if (repl_parse_args(f, "self, d_model, d_ff, dropout=, activation=, is_gated=, bias1=, bias2=, bias_gate=", args,
                        kwargs, a) ||
        repl_arg_int(f, "d_model", 1, a[0], &dm) || repl_arg_int(f, "d_ff", 2, a[1], &dff) ||
        repl_arg_double(f, "dropout", 3, a[2], &o.dropout) || repl_arg_bool(f, "is_gated", 5, a[4], &o.is_gated) ||
        repl_arg_bool(f, "bias1", 6, a[5], &o.bias1) || repl_arg_bool(f, "bias2", 7, a[6], &o.bias2) ||
        repl_arg_bool(f, "bias_gate", 8, a[7], &o.bias_gate))
        return NULL;
    o.activation = a[3];
    return MOD(nn_feed_forward_new(dm, dff, &o));
}

CTOR(TensorDict)
{
    ARGS(3);
    int n = 0;
    int64_t bs[NN_MAX_DIMS];
    if (repl_parse_args("TensorDict.__init__", "self, source, batch_size=, device=", args, kwargs, a)) return NULL;
    if (a[1] && !nn_is_none(a[1])) {
        if (nn_is_int(a[1])) {
            n = 1;
            bs[0] = nn_int_value(a[1]);
        } else if (repl_arg_shape("TensorDict.__init__", "batch_size", a[1], &n, bs)) {
            return NULL;
        }
    }
    return (nn_object *)nn_tensordict_new(nn_is_none(a[0]) ? NULL : a[0], n, bs);
}

CTOR(Parameter)
{
    ARGS(2);
    bool rg = true;
    nn_tensor *data = NULL;
    if (repl_parse_args("Parameter.__new__", "data=, requires_grad=", args, kwargs, a) ||
        repl_arg_tensor("Parameter.__new__", "data", 1, a[0] && !nn_is_none(a[0]) ? a[0] : NULL, &data) ||
        repl_arg_bool("Parameter.__new__", "requires_grad", 2, a[1], &rg))
        return NULL;
    if (!data) {
        nn_tensor *e = nn_empty(1, (const int64_t[]){0}, nn_default_dtype());
        if (!e) return NULL;
        nn_tensor *p = nn_parameter_new(e, rg);
        NN_RELEASE(e);
        return (nn_object *)p;
    }
    return (nn_object *)nn_parameter_new(data, rg);
}

/* ------------------------------------------------------------ module methods */

#define MM(name) static nn_object *mm_##name(nn_object *self, nn_object *args, nn_object *kwargs)
#define SELF NN_MODULE(self)

static nn_object *status(int rc) { return rc ? NULL : none(); }
static nn_object *self_or_null(nn_object *self, int rc) { return rc ? NULL : nn_retain(self); }
/* PyTorch's traversals are generators: the items (taken) as one named qualname */
static nn_object *generator(nn_object *items, const char *qualname)
{
    nn_object *g = repl_generator_from_list(items, qualname);
    NN_RELEASE(items);
    return g;
}

MM(parameters)
{
    ARGS(1);
    bool recurse = true;
    if (repl_parse_args("parameters", "self, recurse=", args, kwargs, a) ||
        repl_arg_bool("parameters", "recurse", 1, a[0], &recurse))
        return NULL;
    return generator(nn_module_parameters(SELF, recurse), "Module.parameters");
}

static nn_object *named(const char *f, nn_object *self, nn_object *args, nn_object *kwargs, int which)
{
    ARGS(3);
    const char *prefix = "";
    bool recurse = true, dedup = true;
    if (repl_parse_args(f, "self, prefix=, recurse=, remove_duplicate=", args, kwargs, a) ||
        repl_arg_str(f, "prefix", 1, a[0], &prefix) || repl_arg_bool(f, "recurse", 2, a[1], &recurse) ||
        repl_arg_bool(f, "remove_duplicate", 3, a[2], &dedup))
        return NULL;
    return which ? generator(nn_module_named_buffers(SELF, prefix, recurse, dedup), "Module.named_buffers")
                 : generator(nn_module_named_parameters(SELF, prefix, recurse, dedup), "Module.named_parameters");
}

MM(named_parameters) { return named("named_parameters", self, args, kwargs, 0); }
MM(named_buffers) { return named("named_buffers", self, args, kwargs, 1); }

MM(buffers)
{
    ARGS(1);
    bool recurse = true;
    if (repl_parse_args("buffers", "self, recurse=", args, kwargs, a) ||
        repl_arg_bool("buffers", "recurse", 1, a[0], &recurse))
        return NULL;
    return generator(nn_module_buffers(SELF, recurse), "Module.buffers");
}

MM(children)
{
    ARGS(1);
    if (repl_parse_args("children", "self", args, kwargs, a)) return NULL;
    return generator(nn_module_children(SELF), "Module.children");
}

MM(named_children)
{
    ARGS(1);
    if (repl_parse_args("named_children", "self", args, kwargs, a)) return NULL;
    return generator(nn_module_named_children(SELF), "Module.named_children");
}

MM(modules)
{
    ARGS(1);
    if (repl_parse_args("modules", "self", args, kwargs, a)) return NULL;
    return generator(nn_module_modules(SELF), "Module.modules");
}

MM(named_modules)
{
    ARGS(3);
    const char *prefix = "";
    bool dedup = true;
    if (repl_parse_args("named_modules", "self, memo=, prefix=, remove_duplicate=", args, kwargs, a) ||
        repl_arg_str("named_modules", "prefix", 2, a[1], &prefix) ||
        repl_arg_bool("named_modules", "remove_duplicate", 3, a[2], &dedup))
        return NULL;
    return generator(nn_module_named_modules(SELF, prefix, dedup), "Module.named_modules");
}

MM(state_dict)
{
    ARGS(3);
    const char *prefix = "";
    bool keep = false;
    if (repl_parse_args("state_dict", "self, *, destination=, prefix=, keep_vars=", args, kwargs, a) ||
        repl_arg_str("state_dict", "prefix", 0, a[1], &prefix) || repl_arg_bool("state_dict", "keep_vars", 0, a[2], &keep))
        return NULL;
    if (a[0] && nn_is_dict(a[0])) /* into the caller's destination, as a parent's state_dict passes it */
        return nn_module_state_dict_into(SELF, a[0], prefix, keep) < 0 ? NULL : nn_retain(a[0]);
    return nn_module_state_dict(SELF, prefix, keep);
}

/* load_state_dict's result: _IncompatibleKeys(missing_keys=[...], unexpected_keys=[...]),
   a NamedTuple: a tuple subtype (indexing and unpacking are the tuple's) whose two
   attributes are its items. */
static char *incompat_repr(nn_object *self)
{
    nn_object *m = nn_tuple_get(self, 0), *u = nn_tuple_get(self, 1);
    if (nn_list_len(m) == 0 && nn_list_len(u) == 0) return nn_strdup("<All keys matched successfully>");
    char *ms = nn_repr(m), *us = ms ? nn_repr(u) : NULL;
    char *r = NULL;
    if (us) {
        size_t n = strlen(ms) + strlen(us) + 64;
        r = nn_malloc(n);
        if (r) snprintf(r, n, "_IncompatibleKeys(missing_keys=%s, unexpected_keys=%s)", ms, us);
    }
    nn_free(ms);
    nn_free(us);
    return r;
}

/* the tuple slots are filled in by repl_tuple_as */
static nn_type incompat_type = {.name = "_IncompatibleKeys", .repr = incompat_repr, .base = &nn_tuple_type};

/* An _IncompatibleKeys of pair (missing, unexpected), a tuple whose lists are shared,
   so a hook that edits them edits load_state_dict's. pair borrowed; new reference. */
static nn_object *incompat_new(nn_object *pair)
{
    nn_object *r = nn_tuple_pack(2, nn_tuple_get(pair, 0), nn_tuple_get(pair, 1));
    return r ? repl_tuple_as(r, &incompat_type) : NULL;
}

MM(load_state_dict)
{
    ARGS(2);
    bool strict = true;
    if (repl_parse_args("load_state_dict", "self, state_dict, strict=", args, kwargs, a) ||
        repl_arg_bool("load_state_dict", "strict", 2, a[1], &strict))
        return NULL;
    if (!nn_is_dict(a[0])) {
        nn_error_set(NN_ERR_TYPE, "Expected state_dict to be dict-like, got <class '%s'>.", repl_type_name(a[0]));
        return NULL;
    }
    nn_object *pair = nn_module_load_state_dict(SELF, a[0], strict, false);
    nn_object *r = pair ? incompat_new(pair) : NULL;
    NN_RELEASE(pair);
    return r;
}

MM(train)
{
    ARGS(1);
    bool mode = true;
    if (repl_parse_args("train", "self, mode=", args, kwargs, a)) return NULL;
    if (a[0] && !nn_is_bool(a[0])) {
        nn_error_set(NN_ERR_VALUE, "training mode is expected to be boolean");
        return NULL;
    }
    if (a[0]) mode = nn_is_true(a[0]);
    return self_or_null(self, nn_module_train(SELF, mode));
}

MM(eval)
{
    ARGS(1);
    if (repl_parse_args("eval", "self", args, kwargs, a)) return NULL;
    return self_or_null(self, nn_module_train(SELF, false));
}

MM(requires_grad_)
{
    ARGS(1);
    bool rg = true;
    if (repl_parse_args("requires_grad_", "self, requires_grad=", args, kwargs, a) ||
        repl_arg_bool("requires_grad_", "requires_grad", 1, a[0], &rg))
        return NULL;
    return self_or_null(self, nn_module_requires_grad_(SELF, rg));
}

MM(zero_grad)
{
    ARGS(1);
    bool stn = true; /* the seeds' default (PyTorch 2's), not 1.13's False */
    if (repl_parse_args("zero_grad", "self, set_to_none=", args, kwargs, a) ||
        repl_arg_bool("zero_grad", "set_to_none", 1, a[0], &stn))
        return NULL;
    return status(nn_module_zero_grad(SELF, stn));
}

static nn_object *cast(const char *f, nn_object *self, nn_object *args, nn_object *kwargs, nn_dtype dt)
{
    ARGS(1);
    if (repl_parse_args(f, "self", args, kwargs, a)) return NULL;
    return self_or_null(self, nn_module_to_dtype(SELF, dt));
}

MM(half) { return cast("half", self, args, kwargs, NN_FLOAT16); }
MM(float) { return cast("float", self, args, kwargs, NN_FLOAT32); }
MM(double) { return cast("double", self, args, kwargs, NN_FLOAT64); }
MM(bfloat16) { return cast("bfloat16", self, args, kwargs, NN_BFLOAT16); }

MM(type)
{
    ARGS(1);
    int dt = -1;
    if (repl_parse_args("type", "self, dst_type", args, kwargs, a) || repl_arg_dtype("type", "dst_type", 1, a[0], &dt))
        return NULL;
    if (dt < 0) return nn_retain(self);
    return self_or_null(self, nn_module_type_(SELF, (nn_dtype)dt));
}

MM(to)
{
    ARGS(5);
    if (repl_parse_args("to", "self, a=, b=, non_blocking=, *, dtype=, device=", args, kwargs, a)) return NULL;
    nn_object *cands[4] = {a[0], a[1], a[3], a[4]};
    for (int i = 0; i < 4; i++) {
        nn_object *o = cands[i];
        if (!o || nn_is_none(o) || nn_is_bool(o)) continue;
        int rc = 0;
        if (repl_is_dtype(o)) {
            if (!nn_dtype_is_floating(repl_dtype_value(o))) {
                nn_error_set(NN_ERR_TYPE, "nn.Module.to only accepts floating point or complex dtypes, but got "
                                          "desired dtype=%s",
                             nn_dtype_name(repl_dtype_value(o)));
                return NULL;
            }
            rc = nn_module_to_dtype(SELF, repl_dtype_value(o));
        } else if (nn_is_str(o)) {
            rc = nn_module_to_device(SELF, nn_str_cstr(o));
        } else if (repl_is_device(o)) {
            char *name = nn_str(o);
            if (!name) return NULL;
            rc = nn_module_to_device(SELF, name);
            nn_free(name);
        } else if (nn_is_tensor(o)) {
            if (nn_dtype_is_floating(NN_TENSOR(o)->dtype)) rc = nn_module_to_dtype(SELF, NN_TENSOR(o)->dtype);
        } else {
            nn_error_set(NN_ERR_TYPE, "to() received an invalid combination of arguments - got (%s)",
                         repl_type_name(o));
            return NULL;
        }
        if (rc) return NULL;
    }
    return nn_retain(self);
}

static nn_object *device_method(const char *f, nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args(f, "self, device=", args, kwargs, a)) return NULL;
    char name[32];
    if (a[0] && nn_is_int(a[0])) snprintf(name, sizeof name, "%s:%lld", f, (long long)nn_int_value(a[0]));
    else snprintf(name, sizeof name, "%s", f);
    int rc = nn_module_to_device(SELF, name);
    if (rc && !strcmp(f, "cuda") && nn_error_current() == NN_ERR_RUNTIME) /* PyTorch's assert without CUDA */
        nn_error_set(NN_ERR_ASSERTION, "Torch not compiled with CUDA enabled");
    return self_or_null(self, rc);
}

MM(cpu) { return device_method("cpu", self, args, kwargs); }
MM(cuda) { return device_method("cuda", self, args, kwargs); }
MM(ipu) { return device_method("ipu", self, args, kwargs); }
MM(xpu) { return device_method("xpu", self, args, kwargs); }
MM(mtia) { return device_method("mtia", self, args, kwargs); }

MM(to_empty)
{
    ARGS(1);
    const char *dev = "cpu";
    if (repl_parse_args("to_empty", "self, *, device", args, kwargs, a)) return NULL;
    if (!repl_is_device(a[0]) && repl_arg_str("to_empty", "device", 0, a[0], &dev)) return NULL;
    return self_or_null(self, nn_module_to_empty(SELF, dev));
}

MM(share_memory)
{
    ARGS(1);
    if (repl_parse_args("share_memory", "self", args, kwargs, a)) return NULL;
    return self_or_null(self, nn_module_share_memory(SELF));
}

MM(apply)
{
    ARGS(1);
    if (repl_parse_args("apply", "self, fn", args, kwargs, a)) return NULL;
    return self_or_null(self, nn_module_apply(SELF, a[0]));
}

static nn_object *add_module_impl(const char *f, nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    const char *name = NULL;
    if (repl_parse_args(f, "self, name, module", args, kwargs, a)) return NULL;
    if (!nn_is_str(a[0])) {
        nn_error_set(NN_ERR_TYPE, "module name should be a string. Got %s", repl_type_name(a[0]));
        return NULL;
    }
    name = nn_str_cstr(a[0]);
    if (!nn_is_none(a[1]) && !nn_is_module(a[1])) {
        nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", repl_type_name(a[1]));
        return NULL;
    }
    return status(nn_module_add_module(SELF, name, nn_is_none(a[1]) ? NULL : NN_MODULE(a[1])));
}

MM(add_module) { return add_module_impl("add_module", self, args, kwargs); }
MM(register_module) { return add_module_impl("register_module", self, args, kwargs); }

MM(register_parameter)
{
    ARGS(2);
    const char *name = NULL;
    if (repl_parse_args("register_parameter", "self, name, param", args, kwargs, a) ||
        repl_arg_str("register_parameter", "name", 1, a[0], &name))
        return NULL;
    if (!nn_is_none(a[1]) && !nn_is_parameter(a[1])) {
        nn_error_set(NN_ERR_TYPE, "cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)",
                     nn_is_tensor(a[1]) ? "torch.FloatTensor" : repl_type_name(a[1]), name ? name : "");
        return NULL;
    }
    return status(nn_module_register_parameter(SELF, name ? name : "", nn_is_none(a[1]) ? NULL : NN_TENSOR(a[1])));
}

MM(register_buffer)
{
    ARGS(3);
    const char *name = NULL;
    bool persistent = true;
    if (repl_parse_args("register_buffer", "self, name, tensor, persistent=", args, kwargs, a) ||
        repl_arg_str("register_buffer", "name", 1, a[0], &name) ||
        repl_arg_bool("register_buffer", "persistent", 3, a[2], &persistent))
        return NULL;
    if (!nn_is_none(a[1]) && !nn_is_tensor(a[1])) {
        nn_error_set(NN_ERR_TYPE, "cannot assign '%s' object to buffer '%s' (torch Tensor or None required)",
                     repl_type_name(a[1]), name ? name : "");
        return NULL;
    }
    return status(
        nn_module_register_buffer(SELF, name ? name : "", nn_is_none(a[1]) ? NULL : NN_TENSOR(a[1]), persistent));
}

static nn_object *lookup(const char *f, nn_object *self, nn_object *args, nn_object *kwargs, int which)
{
    ARGS(1);
    const char *target = NULL;
    if (repl_parse_args(f, "self, target", args, kwargs, a) || repl_arg_str(f, "target", 1, a[0], &target)) return NULL;
    nn_object *r = NULL;
    switch (which) {
    case 0: r = MOD(nn_module_get_submodule(SELF, target ? target : "")); break;
    case 1: r = (nn_object *)nn_module_get_parameter(SELF, target ? target : ""); break;
    case 2: r = (nn_object *)nn_module_get_buffer(SELF, target ? target : ""); break;
    }
    return nn_retain(r);
}

MM(get_submodule) { return lookup("get_submodule", self, args, kwargs, 0); }
MM(get_parameter) { return lookup("get_parameter", self, args, kwargs, 1); }
MM(get_buffer) { return lookup("get_buffer", self, args, kwargs, 2); }

MM(set_submodule)
{
    ARGS(3);
    const char *target = NULL;
    bool strict = false;
    if (repl_parse_args("set_submodule", "self, target, module, strict=", args, kwargs, a) ||
        repl_arg_str("set_submodule", "target", 1, a[0], &target) ||
        repl_arg_bool("set_submodule", "strict", 3, a[2], &strict))
        return NULL;
    if (!nn_is_module(a[1])) {
        nn_error_set(NN_ERR_TYPE, "`module` is not an nn.Module, found %s", repl_type_name(a[1]));
        return NULL;
    }
    return status(nn_module_set_submodule(SELF, target ? target : "", NN_MODULE(a[1]), strict));
}

MM(get_extra_state)
{
    ARGS(1);
    if (repl_parse_args("get_extra_state", "self", args, kwargs, a)) return NULL;
    const nn_module_class *c = NN_MODULE_SLOT(SELF->cls, get_extra_state);
    if (c) return c->get_extra_state(SELF);
    nn_error_set(NN_ERR_RUNTIME, "Reached a code path in Module.get_extra_state() that should never be called. "
                                 "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-"
                                 "report.yml to report this bug.");
    return NULL;
}

MM(extra_repr)
{
    ARGS(1);
    if (repl_parse_args("extra_repr", "self", args, kwargs, a)) return NULL;
    const nn_module_class *c = NN_MODULE_SLOT(SELF->cls, extra_repr);
    if (!c) return nn_str_new("");
    char *s = c->extra_repr(SELF);
    if (!s) return NULL;
    nn_object *r = nn_str_new(s);
    nn_free(s);
    return r;
}

MM(_get_name)
{
    ARGS(1);
    if (repl_parse_args("_get_name", "self", args, kwargs, a)) return NULL;
    return nn_str_new(nn_module_name(SELF));
}

MM(forward)
{
    const nn_module_class *c = NN_MODULE_SLOT(SELF->cls, forward);
    if (!c) {
        nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Module [%s] is missing the required \"forward\" function",
                     nn_module_name(SELF));
        return NULL;
    }
    return c->forward(SELF, args, kwargs);
}

MM(reset_parameters)
{
    ARGS(1);
    if (repl_parse_args("reset_parameters", "self", args, kwargs, a)) return NULL;
    return status(nn_layer_reset_parameters(SELF));
}

/* Conv1d/Conv2d._conv_forward(input, weight, bias): the module's convolution with other parameters
   (subclasses that override forward call it, e.g. weight-standardized convolutions) */
MM(_conv_forward)
{
    ARGS(3);
    const char *f = "_conv_forward";
    nn_tensor *x = NULL, *w = NULL, *b = NULL;
    if (repl_parse_args(f, "input, weight, bias", args, kwargs, a) || repl_arg_tensor(f, "input", 1, a[0], &x) ||
        repl_arg_tensor(f, "weight", 2, a[1], &w) || (!nn_is_none(a[2]) && repl_arg_tensor(f, "bias", 3, a[2], &b)))
        return NULL;
    return (nn_object *)nn_conv_module_forward(SELF, x, w, b);
}

/* Core calls state-dict hooks with the module first and load post-hooks with a
   (missing, unexpected) pair; an adapter passes PyTorch's arguments instead. */
typedef enum adapt_kind {
    ADAPT_WITHOUT_MODULE,     /* _register_load_state_dict_pre_hook(hook): hook(state_dict, prefix, ...) */
    ADAPT_INCOMPATIBLE_KEYS,  /* load post-hooks: hook(module, _IncompatibleKeys) */
} adapt_kind;

typedef struct hook_adapter {
    nn_object *hook; /* owned */
    adapt_kind kind;
} hook_adapter;

static void hook_adapter_free(void *ud)
{
    NN_RELEASE(((hook_adapter *)ud)->hook);
    nn_free(ud);
}

static void hook_adapter_traverse(void *ud, nn_visit_fn visit, void *arg) { visit(((hook_adapter *)ud)->hook, arg); }

static nn_object *hook_adapter_call(void *ud, nn_object *args, nn_object *kwargs)
{
    hook_adapter *h = ud;
    size_t n = nn_tuple_len(args);
    nn_object *call_args = NULL;
    if (h->kind == ADAPT_WITHOUT_MODULE) {
        call_args = nn_tuple_new(n ? n - 1 : 0);
        for (size_t i = 1; call_args && i < n; i++) nn_tuple_set(call_args, i - 1, nn_retain(nn_tuple_get(args, i)));
    } else if (n == 2) {
        nn_object *keys = incompat_new(nn_tuple_get(args, 1));
        call_args = keys ? nn_tuple_pack(2, nn_tuple_get(args, 0), keys) : NULL;
        NN_RELEASE(keys);
    } else {
        call_args = nn_retain(args);
    }
    if (!call_args) return NULL;
    nn_object *r = nn_call(h->hook, call_args, kwargs);
    NN_RELEASE(call_args);
    return r;
}

/* hook wrapped for kind; a new reference. */
static nn_object *hook_adapter_new(nn_object *hook, adapt_kind kind)
{
    hook_adapter *h = nn_malloc(sizeof *h);
    if (!h) return NULL;
    h->hook = nn_retain(hook);
    h->kind = kind;
    nn_object *f = nn_cfunction_new("hook", hook_adapter_call, h, hook_adapter_free);
    if (!f) hook_adapter_free(h);
    else if (nn_cfunction_set_traverse(f, hook_adapter_traverse) < 0) NN_SET(f, NULL);
    return f;
}

static nn_object *hook(const char *f, nn_object *self, nn_object *args, nn_object *kwargs, nn_hook_kind kind)
{
    ARGS(5);
    nn_hook_options o = {false, false, false};
    bool with_module = false;
    bool private_load_pre = !strcmp(f, "_register_load_state_dict_pre_hook");
    if (repl_parse_args(f, private_load_pre ? "self, hook, with_module=" : "self, hook, *, prepend=, with_kwargs=, always_call=",
                        args, kwargs, a) ||
        (private_load_pre ? repl_arg_bool(f, "with_module", 2, a[1], &with_module)
                          : repl_arg_bool(f, "prepend", 0, a[1], &o.prepend) ||
                                repl_arg_bool(f, "with_kwargs", 0, a[2], &o.with_kwargs) ||
                                repl_arg_bool(f, "always_call", 0, a[3], &o.always_call)))
        return NULL;
    nn_object *fn = NULL;
    if (private_load_pre && !with_module) fn = hook_adapter_new(a[0], ADAPT_WITHOUT_MODULE);
    else if (kind == NN_HOOK_LOAD_POST) fn = hook_adapter_new(a[0], ADAPT_INCOMPATIBLE_KEYS);
    else fn = nn_retain(a[0]);
    if (!fn) return NULL;
    nn_object *handle = nn_module_register_hook(SELF, kind, fn, o);
    NN_RELEASE(fn);
    return handle;
}

#define HOOK(name, kind) MM(name) { return hook(#name, self, args, kwargs, kind); }
HOOK(register_forward_pre_hook, NN_HOOK_FORWARD_PRE)
HOOK(register_forward_hook, NN_HOOK_FORWARD)
HOOK(register_full_backward_pre_hook, NN_HOOK_BACKWARD_PRE)
HOOK(register_full_backward_hook, NN_HOOK_FULL_BACKWARD)
HOOK(register_backward_hook, NN_HOOK_BACKWARD)
HOOK(register_state_dict_pre_hook, NN_HOOK_STATE_DICT_PRE)
HOOK(_register_state_dict_hook, NN_HOOK_STATE_DICT_POST)
HOOK(register_state_dict_post_hook, NN_HOOK_STATE_DICT_POST)
HOOK(register_load_state_dict_pre_hook, NN_HOOK_LOAD_PRE)
HOOK(_register_load_state_dict_pre_hook, NN_HOOK_LOAD_PRE)
HOOK(register_load_state_dict_post_hook, NN_HOOK_LOAD_POST)

/* container methods */
MM(append)
{
    ARGS(1);
    if (repl_parse_args("append", "self, value", args, kwargs, a)) return NULL;
    int rc;
    if (nn_module_is_a(self, &nn_sequential_class)) rc = nn_sequential_append(SELF, a[0]);
    else if (nn_module_is_a(self, &nn_module_list_class)) rc = nn_module_list_append(SELF, a[0]);
    else rc = nn_parameter_list_append(SELF, a[0]);
    return self_or_null(self, rc);
}

MM(extend)
{
    ARGS(1);
    if (repl_parse_args("extend", "self, values", args, kwargs, a)) return NULL;
    int rc;
    if (nn_module_is_a(self, &nn_sequential_class)) rc = nn_sequential_extend(SELF, a[0]);
    else if (nn_module_is_a(self, &nn_module_list_class)) rc = nn_module_list_extend(SELF, a[0]);
    else rc = nn_parameter_list_extend(SELF, a[0]);
    return self_or_null(self, rc);
}

MM(insert)
{
    ARGS(2);
    int64_t idx = 0;
    if (repl_parse_args("insert", "self, index, module", args, kwargs, a) ||
        repl_arg_int("insert", "index", 1, a[0], &idx))
        return NULL;
    if (nn_module_is_a(self, &nn_sequential_class)) return self_or_null(self, nn_sequential_insert(SELF, idx, a[1]));
    return status(nn_module_list_insert(SELF, idx, a[1]));
}

MM(pop)
{
    ARGS(1);
    if (repl_parse_args("pop", "self, key", args, kwargs, a)) return NULL;
    if (nn_module_is_a(self, &nn_module_dict_class) || nn_module_is_a(self, &nn_parameter_dict_class)) {
        const char *k = NULL;
        if (repl_arg_str("pop", "key", 1, a[0], &k)) return NULL;
        return nn_module_is_a(self, &nn_module_dict_class) ? nn_module_dict_pop(SELF, k ? k : "")
                                                          : nn_parameter_dict_pop(SELF, k ? k : "");
    }
    int64_t idx = 0;
    if (repl_arg_int("pop", "key", 1, a[0], &idx)) return NULL;
    if (nn_module_is_a(self, &nn_sequential_class)) return nn_sequential_pop(SELF, idx);
    return nn_module_list_pop(SELF, idx);
}

static nn_object *dict_view(const char *f, nn_object *self, nn_object *args, nn_object *kwargs, int which)
{
    ARGS(1);
    if (repl_parse_args(f, "self", args, kwargs, a)) return NULL;
    if (nn_module_is_a(self, &nn_module_dict_class))
        return which == 0 ? nn_module_dict_keys(SELF) : which == 1 ? nn_module_dict_values(SELF) : nn_module_dict_items(SELF);
    return which == 0 ? nn_parameter_dict_keys(SELF) : which == 1 ? nn_parameter_dict_values(SELF)
                                                                  : nn_parameter_dict_items(SELF);
}

MM(keys) { return dict_view("keys", self, args, kwargs, 0); }
MM(values) { return dict_view("values", self, args, kwargs, 1); }
MM(items) { return dict_view("items", self, args, kwargs, 2); }

MM(update)
{
    ARGS(1);
    if (repl_parse_args("update", "self, modules", args, kwargs, a)) return NULL;
    if (nn_module_is_a(self, &nn_module_dict_class)) return status(nn_module_dict_update(SELF, a[0]));
    return status(nn_parameter_dict_update(SELF, a[0], false));
}

static const repl_method_def module_methods[] = {
    {"parameters", mm_parameters,
     "parameters(recurse=True)\n"
     "Returns an iterator over module parameters."},
    {"named_parameters", mm_named_parameters,
     "named_parameters(prefix='', recurse=True)\n"
     "Returns an iterator over module parameters, yielding both the name of the parameter as well as the parameter itself."},
    {"buffers", mm_buffers,
     "buffers(recurse=True)\n"
     "Returns an iterator over module buffers."},
    {"named_buffers", mm_named_buffers,
     "named_buffers(prefix='', recurse=True)\n"
     "Returns an iterator over module buffers, yielding both the name of the buffer as well as the buffer itself."},
    {"children", mm_children,
     "children()\n"
     "Returns an iterator over immediate children modules."},
    {"named_children", mm_named_children,
     "named_children()\n"
     "Returns an iterator over immediate children modules, yielding both the name of the module as well as the module itself."},
    {"modules", mm_modules,
     "modules()\n"
     "Returns an iterator over all modules in the network."},
    {"named_modules", mm_named_modules,
     "named_modules(memo=None, prefix='', remove_duplicate=True)\n"
     "Returns an iterator over all modules in the network, yielding both the name of the module as well as the module itself."},
    {"state_dict", mm_state_dict,
     "state_dict(*args, destination=None, prefix='', keep_vars=False)\n"
     "Returns a dictionary containing references to the whole state of the module."},
    {"load_state_dict", mm_load_state_dict,
     "load_state_dict(state_dict, strict=True)\n"
     "Copies parameters and buffers from state_dict into this module and its descendants."},
    {"_load_from_state_dict", repl_module_load_from_state_dict,
     "_load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)\n"
     "Copies parameters and buffers from state_dict into only this module, but not its descendants."},
    {"_save_to_state_dict", repl_module_save_to_state_dict,
     "_save_to_state_dict(destination, prefix, keep_vars)\n"
     "Saves module state to destination dictionary, containing a state of the module, but not its descendants."},
    {"train", mm_train,
     "train(mode=True)\n"
     "Sets the module in training mode."},
    {"eval", mm_eval,
     "eval()\n"
     "Sets the module in evaluation mode."},
    {"requires_grad_", mm_requires_grad_,
     "requires_grad_(requires_grad=True)\n"
     "Change if autograd should record operations on parameters in this module."},
    {"zero_grad", mm_zero_grad,
     "zero_grad(set_to_none=True)\n"
     "Sets gradients of all model parameters to zero (to None by default)."},
    {"half", mm_half,
     "half()\n"
     "Casts all floating point parameters and buffers to half datatype."},
    {"float", mm_float,
     "float()\n"
     "Casts all floating point parameters and buffers to float datatype."},
    {"double", mm_double,
     "double()\n"
     "Casts all floating point parameters and buffers to double datatype."},
    {"bfloat16", mm_bfloat16,
     "bfloat16()\n"
     "Casts all floating point parameters and buffers to bfloat16 datatype."},
    {"type", mm_type,
     "type(dst_type)\n"
     "Casts all parameters and buffers to dst_type."},
    {"to", mm_to,
     "to(*args, **kwargs)\n"
     "Moves and/or casts the parameters and buffers."},
    {"cpu", mm_cpu,
     "cpu()\n"
     "Moves all model parameters and buffers to the CPU."},
    {"cuda", mm_cuda,
     "cuda(device=None)\n"
     "Moves all model parameters and buffers to the GPU."},
    {"ipu", mm_ipu,
     "ipu(device=None)\n"
     "Moves all model parameters and buffers to the IPU."},
    {"xpu", mm_xpu,
     "xpu(device=None)\n"
     "Moves all model parameters and buffers to the XPU."},
    {"mtia", mm_mtia,
     "mtia(device=None)\n"
     "Moves all model parameters and buffers to the MTIA."},
    {"to_empty", mm_to_empty,
     "to_empty(*, device)\n"
     "Moves the parameters and buffers to the specified device without copying storage."},
    {"share_memory", mm_share_memory,
     "share_memory()\n"
     "Moves the parameters and buffers to shared memory (a no-op here)."},
    {"apply", mm_apply,
     "apply(fn)\n"
     "Applies fn recursively to every submodule (as returned by .children()) as well as self."},
    {"add_module", mm_add_module,
     "add_module(name, module)\n"
     "Adds a child module to the current module."},
    {"register_module", mm_register_module,
     "register_module(name, module)\n"
     "Alias for add_module."},
    {"register_parameter", mm_register_parameter,
     "register_parameter(name, param)\n"
     "Adds a parameter to the module."},
    {"register_buffer", mm_register_buffer,
     "register_buffer(name, tensor, persistent=True)\n"
     "Adds a buffer to the module."},
    {"get_submodule", mm_get_submodule,
     "get_submodule(target)\n"
     "Returns the submodule given by target if it exists, otherwise throws an error."},
    {"set_submodule", mm_set_submodule,
     "set_submodule(target, module)\n"
     "Sets the submodule given by target if it exists, otherwise throws an error."},
    {"get_parameter", mm_get_parameter,
     "get_parameter(target)\n"
     "Returns the parameter given by target if it exists, otherwise throws an error."},
    {"get_buffer", mm_get_buffer,
     "get_buffer(target) -> Tensor\n"
     "Returns the buffer given by target if it exists, otherwise throws an error."},
    {"get_extra_state", mm_get_extra_state,
     "get_extra_state()\n"
     "Returns any extra state to include in the module's state_dict."},
    {"extra_repr", mm_extra_repr,
     "extra_repr()\n"
     "Set the extra representation of the module."},
    {"_get_name", mm__get_name,
     "_get_name() -> str\n"
     "Returns the module's class name."},
    {"forward", mm_forward,
     "forward(*input)\n"
     "Defines the computation performed at every call."},
    {"register_forward_pre_hook", mm_register_forward_pre_hook,
     "register_forward_pre_hook(hook, *, prepend=False, with_kwargs=False)\n"
     "Registers a forward pre-hook on the module."},
    {"register_forward_hook", mm_register_forward_hook,
     "register_forward_hook(hook, *, prepend=False, with_kwargs=False, always_call=False)\n"
     "Registers a forward hook on the module."},
    {"register_full_backward_pre_hook", mm_register_full_backward_pre_hook,
     "register_full_backward_pre_hook(hook, prepend=False)\n"
     "Registers a backward pre-hook on the module."},
    {"register_full_backward_hook", mm_register_full_backward_hook,
     "register_full_backward_hook(hook, prepend=False)\n"
     "Registers a backward hook on the module."},
    {"register_backward_hook", mm_register_backward_hook,
     "register_backward_hook(hook)\n"
     "Registers a backward hook on the module."},
    {"register_state_dict_pre_hook", mm_register_state_dict_pre_hook,
     "register_state_dict_pre_hook(hook)\n"
     "Registers a pre-hook run before the module's state_dict is made."},
    {"_register_state_dict_hook", mm__register_state_dict_hook,
     "_register_state_dict_hook(hook)\n"
     "Registers a hook run after the state_dict is made: hook(module, state_dict, prefix, local_metadata)."},
    {"register_state_dict_post_hook", mm_register_state_dict_post_hook,
     "register_state_dict_post_hook(hook)\n"
     "Registers a post-hook run after the module's state_dict is made."},
    {"register_load_state_dict_pre_hook", mm_register_load_state_dict_pre_hook,
     "register_load_state_dict_pre_hook(hook)\n"
     "Registers a pre-hook run before the module's load_state_dict."},
    {"_register_load_state_dict_pre_hook", mm__register_load_state_dict_pre_hook,
     "_register_load_state_dict_pre_hook(hook, with_module=False)\n"
     "Registers a pre-hook run before load_state_dict: hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)."},
    {"register_load_state_dict_post_hook", mm_register_load_state_dict_post_hook,
     "register_load_state_dict_post_hook(hook)\n"
     "Registers a post hook to be run after module's load_state_dict is called."},
    {NULL, NULL, NULL},
};

static const repl_method_def list_methods[] = {
    {"append", mm_append,
     "append(module)\n"
     "Appends a given module to the end of the list."},
    {"extend", mm_extend,
     "extend(modules)\n"
     "Appends modules from a Python iterable to the end of the list."},
    {"insert", mm_insert,
     "insert(index, module)\n"
     "Insert a given module before a given index in the list."},
    {"pop", mm_pop,
     "pop(key)\n"
     "Removes and returns the module (or parameter) at index key."},
    {NULL, NULL, NULL},
};
static const repl_method_def reset_methods[] = {
    {"reset_parameters", mm_reset_parameters,
     "reset_parameters()\n"
     "Re-initializes the parameters (and buffers) as the constructor did."},
    {NULL, NULL, NULL},
};
static const repl_method_def conv_methods[] = {
    {"reset_parameters", mm_reset_parameters,
     "reset_parameters()\n"
     "Re-initializes the weight and bias as the constructor did."},
    {"_conv_forward", mm__conv_forward,
     "_conv_forward(input, weight, bias)\n"
     "The module's convolution (its padding, padding_mode, stride, dilation, groups) with this weight and bias."},
    {NULL, NULL, NULL},
};
static const repl_method_def dict_methods[] = {
    {"keys", mm_keys,
     "keys()\n"
     "Return an iterable of the ModuleDict keys."},
    {"values", mm_values,
     "values()\n"
     "Return an iterable of the ModuleDict values."},
    {"items", mm_items,
     "items()\n"
     "Return an iterable of the ModuleDict key/value pairs."},
    {"pop", mm_pop,
     "pop(key)\n"
     "Remove key from the ModuleDict and return its module."},
    {"update", mm_update,
     "update(modules)\n"
     "Update the ModuleDict (or ParameterDict) with the key-value pairs from a mapping or an iterable, overwriting existing keys."},
    {NULL, NULL, NULL},
};

/* Which extra methods a module class's instances have (getattr and method_at agree). */
static bool derives(const nn_module_class *c, const nn_module_class *base)
{
    for (; c; c = c->base)
        if (c == base) return true;
    return false;
}
static bool is_list_class(const nn_module_class *c)
{
    return derives(c, &nn_sequential_class) || derives(c, &nn_module_list_class) ||
           derives(c, &nn_parameter_list_class);
}
static bool is_dict_class(const nn_module_class *c)
{
    return derives(c, &nn_module_dict_class) || derives(c, &nn_parameter_dict_class);
}
static bool is_conv_class(const nn_module_class *c) /* not transposed */
{
    return derives(c, &nn_conv2d_class) || derives(c, &nn_conv_more_classes[0]);
}
static bool has_reset_parameters(const nn_module_class *c)
{
    return derives(c, &nn_linear_class) || derives(c, &nn_lazy_linear_class) || derives(c, &nn_layer_norm_class) ||
           derives(c, &nn_batch_norm1d_class) || derives(c, &nn_batch_norm2d_class) ||
           derives(c, &nn_batch_norm3d_class) || derives(c, &nn_embedding_class) || derives(c, &nn_conv2d_class) ||
           derives(c, &nn_conv_more_classes[0]) || derives(c, &nn_conv_more_classes[1]) ||
           derives(c, &nn_conv_more_classes[2]);
}

/* A module class's methods: Module's, then its container or reset_parameters ones. */
static bool module_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    const nn_module_class *c = cls->module_class;
    const repl_method_def *const tables[] = {module_methods, is_list_class(c) ? list_methods
                                                            : is_dict_class(c) ? dict_methods
                                                            : is_conv_class(c) ? conv_methods
                                                            : has_reset_parameters(c) ? reset_methods : NULL,
                                             NULL};
    return repl_tables_method_at(tables, i, out);
}

bool repl_module_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    return module_method_at(cls, i, out);
}

#define NNCLASS(N, Q, C, DOC) {#N, "torch.nn.modules." Q "." #N, c_##N, NULL, &C, DOC, module_method_at}
static const repl_class_def nn_classes[] = {
    NNCLASS(Linear, "linear", nn_linear_class,
            "Linear(in_features, out_features, bias=True, device=None, dtype=None)\n"
            "Applies a linear transformation to the incoming data: y = xA^T + b.\n"
            "\n"
            "Args:\n"
            "    in_features: size of each input sample\n"
            "    out_features: size of each output sample\n"
            "    bias: If set to False, the layer will not learn an additive bias. Default: True\n"
            "\n"
            "Shape:\n"
            "    - Input: (*, H_in) where * means any number of dimensions including none\n"
            "      and H_in = in_features.\n"
            "    - Output: (*, H_out) where all but the last dimension are the same shape\n"
            "      as the input and H_out = out_features.\n"
            "\n"
            "Attributes:\n"
            "    weight: the learnable weights of the module of shape (out_features, in_features).\n"
            "        The values are initialized from U(-sqrt(k), sqrt(k)), where k = 1 / in_features\n"
            "    bias: the learnable bias of the module of shape (out_features). If bias is True,\n"
            "        the values are initialized from U(-sqrt(k), sqrt(k)) where k = 1 / in_features"),
    NNCLASS(LazyLinear, "linear", nn_lazy_linear_class,
            "LazyLinear(out_features, bias=True, device=None, dtype=None)\n"
            "A torch.nn.Linear module where in_features is inferred."),
    NNCLASS(Identity, "linear", nn_identity_class,
            "Identity(*args, **kwargs)\n"
            "A placeholder identity operator that is argument-insensitive."),
    NNCLASS(Flatten, "flatten", nn_flatten_class,
            "Flatten(start_dim=1, end_dim=-1)\n"
            "Flattens a contiguous range of dims into a tensor."),
    NNCLASS(ReLU, "activation", nn_relu_class,
            "ReLU(inplace=False)\n"
            "Applies the rectified linear unit function element-wise:\n"
            "\n"
            "    ReLU(x) = (x)^+ = max(0, x)\n"
            "\n"
            "Args:\n"
            "    inplace: can optionally do the operation in-place. Default: False\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input."),
    NNCLASS(GELU, "activation", nn_gelu_class,
            "GELU(approximate='none')\n"
            "Applies the Gaussian Error Linear Units function:\n"
            "\n"
            "    GELU(x) = x * Phi(x)\n"
            "\n"
            "where Phi(x) is the Cumulative Distribution Function for Gaussian Distribution.\n"
            "\n"
            "When the approximate argument is 'tanh', Gelu is estimated with:\n"
            "\n"
            "    GELU(x) = 0.5 * x * (1 + Tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))\n"
            "\n"
            "Args:\n"
            "    approximate (str, optional): the gelu approximation algorithm to use:\n"
            "        'none' | 'tanh'. Default: 'none'\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input."),
    NNCLASS(PReLU, "activation", nn_prelu_class,
            "PReLU(num_parameters=1, init=0.25, device=None, dtype=None)\n"
            "Applies the element-wise function PReLU(x) = max(0, x) + a * min(0, x) with a learnable a:\n"
            "\n"
            "    PReLU(x) = max(0, x) + a * min(0, x)\n"
            "\n"
            "or\n"
            "\n"
            "    PReLU(x) = x       if x >= 0\n"
            "               a * x   otherwise\n"
            "\n"
            "Here a is a learnable parameter. When called without arguments, nn.PReLU() uses a\n"
            "single parameter a across all input channels. If called with nn.PReLU(nChannels),\n"
            "a separate a is used for each input channel.\n"
            "\n"
            "Weight decay should not be used when learning a for good performance.\n"
            "Channel dim is the 2nd dim of input. When input has dims < 2, then there is no\n"
            "channel dim and the number of channels = 1.\n"
            "\n"
            "Args:\n"
            "    num_parameters (int): number of a to learn. Although it takes an int as input,\n"
            "        there are only two values legitimate: 1, or the number of channels at input.\n"
            "        Default: 1\n"
            "    init (float): the initial value of a. Default: 0.25\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input.\n"
            "\n"
            "Attributes:\n"
            "    weight (Tensor): the learnable weights of shape (num_parameters)."),
    NNCLASS(Sigmoid, "activation", nn_sigmoid_class,
            "Sigmoid()\n"
            "Applies the element-wise function Sigmoid(x) = 1 / (1 + exp(-x)):\n"
            "\n"
            "    Sigmoid(x) = sigma(x) = 1 / (1 + exp(-x))\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input."),
    NNCLASS(Tanh, "activation", nn_tanh_class,
            "Tanh()\n"
            "Applies the Hyperbolic Tangent (Tanh) function element-wise.\n"
            "\n"
            "Tanh is defined as:\n"
            "\n"
            "    Tanh(x) = tanh(x) = (exp(x) - exp(-x)) / (exp(x) + exp(-x))\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input."),
    NNCLASS(Threshold, "activation", nn_threshold_class,
            "Threshold(threshold, value, inplace=False)\n"
            "Thresholds each element of the input Tensor.\n"
            "\n"
            "Threshold is defined as:\n"
            "\n"
            "    y = x       if x > threshold\n"
            "        value   otherwise\n"
            "\n"
            "Args:\n"
            "    threshold: The value to threshold at\n"
            "    value: The value to replace with\n"
            "    inplace: can optionally do the operation in-place. Default: False\n"
            "\n"
            "Shape:\n"
            "    - Input: (*), where * means any number of dimensions.\n"
            "    - Output: (*), same shape as the input."),
    NNCLASS(LeakyReLU, "activation", nn_leaky_relu_class,
            "LeakyReLU(negative_slope=0.01, inplace=False)\n"
            "Applies the element-wise function LeakyReLU(x) = max(0, x) + negative_slope * min(0, x)."),
    NNCLASS(ELU, "activation", nn_elu_class,
            "ELU(alpha=1.0, inplace=False)\n"
            "Applies the Exponential Linear Unit (ELU) function, element-wise."),
    NNCLASS(SiLU, "activation", nn_silu_class,
            "SiLU(inplace=False)\n"
            "Applies the Sigmoid Linear Unit (SiLU) function, element-wise."),
    NNCLASS(Softplus, "activation", nn_softplus_class,
            "Softplus(beta=1, threshold=20)\n"
            "Applies the Softplus function Softplus(x) = 1/beta * log(1 + exp(beta * x)) element-wise."),
    NNCLASS(Softmax, "activation", nn_softmax_class,
            "Softmax(dim=None)\n"
            "Applies the Softmax function to an n-dimensional input Tensor so that the elements along dim lie in [0,1] and sum to 1."),
    NNCLASS(LogSoftmax, "activation", nn_log_softmax_class,
            "LogSoftmax(dim=None)\n"
            "Applies the log(Softmax(x)) function to an n-dimensional input Tensor."),
    NNCLASS(Dropout, "dropout", nn_dropout_class,
            "Dropout(p=0.5, inplace=False)\n"
            "During training, randomly zeroes some of the elements of the input tensor with probability p using samples from a Bernoulli distribution."),
    NNCLASS(LayerNorm, "normalization", nn_layer_norm_class,
            "LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None)\n"
            "Applies Layer Normalization over a mini-batch of inputs."),
    NNCLASS(BatchNorm1d, "batchnorm", nn_batch_norm1d_class,
            "BatchNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None)\n"
            "Applies Batch Normalization over a 2D or 3D input as described in the paper Batch Normalization."),
    NNCLASS(BatchNorm2d, "batchnorm", nn_batch_norm2d_class,
            "BatchNorm2d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None)\n"
            "Applies Batch Normalization over a 4D input (a mini-batch of 2D inputs with additional channel dimension)."),
    NNCLASS(BatchNorm3d, "batchnorm", nn_batch_norm3d_class,
            "BatchNorm3d(num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None)\n"
            "Applies Batch Normalization over a 5D input (a mini-batch of 3D inputs with additional channel dimension)."),
    NNCLASS(Embedding, "sparse", nn_embedding_class,
            "Embedding(num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None)\n"
            "A simple lookup table that stores embeddings of a fixed dictionary and size."),
    NNCLASS(MSELoss, "loss", nn_mse_loss_class,
            "MSELoss(size_average=None, reduce=None, reduction='mean')\n"
            "Creates a criterion that measures the mean squared error (squared L2 norm) between each element in the input x and target y."),
    NNCLASS(L1Loss, "loss", nn_l1_loss_class,
            "L1Loss(size_average=None, reduce=None, reduction='mean')\n"
            "Creates a criterion that measures the mean absolute error (MAE) between each element in the input x and target y."),
    NNCLASS(Sequential, "container", nn_sequential_class,
            "Sequential(*args)\n"
            "A sequential container.\n"
            "\n"
            "Modules will be added to it in the order they are passed in the constructor.\n"
            "Alternatively, an OrderedDict of modules can be passed in. The forward() method\n"
            "of Sequential accepts any input and forwards it to the first module it contains.\n"
            "It then \"chains\" outputs to inputs sequentially for each subsequent module,\n"
            "finally returning the output of the last module.\n"
            "\n"
            "Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)) runs the three in turn;\n"
            "its children are named 0, 1, 2 (seq[0], seq[-1], seq[0:2] index it)."),
    NNCLASS(ModuleList, "container", nn_module_list_class,
            "ModuleList(modules=None)\n"
            "Holds submodules in a list.\n"
            "\n"
            "ModuleList can be indexed like a regular Python list, but modules it contains\n"
            "are properly registered, and will be visible by all Module methods.\n"
            "\n"
            "Args:\n"
            "    modules (iterable, optional): an iterable of modules to add"),
    NNCLASS(ModuleDict, "container", nn_module_dict_class,
            "ModuleDict(modules=None)\n"
            "Holds submodules in a dictionary.\n"
            "\n"
            "ModuleDict can be indexed like a regular Python dictionary, but modules it\n"
            "contains are properly registered, and will be visible by all Module methods.\n"
            "ModuleDict is an ordered dictionary that respects the order of insertion.\n"
            "\n"
            "Args:\n"
            "    modules (iterable, optional): a mapping (dictionary) of (string: module)\n"
            "        or an iterable of key-value pairs of type (string, module)"),
    NNCLASS(ParameterList, "container", nn_parameter_list_class,
            "ParameterList(values=None)\n"
            "Holds parameters in a list."),
    NNCLASS(ParameterDict, "container", nn_parameter_dict_class,
            "ParameterDict(parameters=None)\n"
            "Holds parameters in a dictionary."),
    NNCLASS(Module, "module", repl_module_base_class,
            "Module()\n"
            "Base class for all neural network modules."),
};
#undef NNCLASS

static const repl_class_def parameter_class_def = {"Parameter", "torch.nn.parameter.Parameter", c_Parameter,
                                                   &nn_parameter_type, NULL,
     "Parameter(data=None, requires_grad=True)\n"
     "A kind of Tensor that is to be considered a module parameter.", repl_tensor_method_at};
static const repl_class_def extra_classes[] = {
    {"MultiStep", "torchrl.data.postprocs.postprocs.MultiStep", c_MultiStep, NULL, &nn_multistep_class,
     "MultiStep(gamma, n_steps)\n"
     "torchrl's multi-step reward transform: n-step discounted returns of a TensorDict of transitions.", module_method_at},
    {"FeedForward", "labml_nn.transformers.feed_forward.FeedForward", c_FeedForward, NULL, &nn_feed_forward_class,
     "FeedForward(d_model, d_ff, dropout=0.1, activation=nn.ReLU(), is_gated=False, bias1=True, bias2=True, bias_gate=True)\n"
     "labml's position-wise feed-forward network: layer2(dropout(activation(layer1(x)))).", module_method_at},
    {"TensorDict", "tensordict._td.TensorDict", c_TensorDict, &nn_tensordict_type, NULL,
     "TensorDict(source, batch_size=None, device=None)\n"
     "A dictionary of tensors sharing leading batch dimensions (tensordict.TensorDict).", NULL},
};

nn_object *repl_nn_extra_class(const char *name)
{
    for (size_t i = 0; i < sizeof extra_classes / sizeof extra_classes[0]; i++)
        if (!strcmp(extra_classes[i].name, name)) return repl_class_new(&extra_classes[i]);
    return NULL;
}

nn_object *repl_module_getattr(nn_module *m, const char *name)
{
    nn_object *self = &m->ob;
    /* instance attributes first (Python's instance __dict__) */
    nn_object *v = nn_dict_get_str(m->attrs, name);
    if (v) return nn_retain(v);
    if (!strcmp(name, "training")) return nn_bool_new(m->training);
    static const struct {
        const char *name;
        size_t off;
    } dicts[] = {
        {"_parameters", offsetof(nn_module, parameters)},
        {"_buffers", offsetof(nn_module, buffers)},
        {"_modules", offsetof(nn_module, modules)},
        {"_forward_hooks", offsetof(nn_module, forward_hooks)},
        {"_forward_pre_hooks", offsetof(nn_module, forward_pre_hooks)},
        {"_backward_hooks", offsetof(nn_module, backward_hooks)},
        {"_backward_pre_hooks", offsetof(nn_module, backward_pre_hooks)},
        {"_state_dict_hooks", offsetof(nn_module, state_dict_hooks)},
        {"_state_dict_pre_hooks", offsetof(nn_module, state_dict_pre_hooks)},
        {"_load_state_dict_pre_hooks", offsetof(nn_module, load_state_dict_pre_hooks)},
        {"_load_state_dict_post_hooks", offsetof(nn_module, load_state_dict_post_hooks)},
        {"_forward_hooks_with_kwargs", offsetof(nn_module, forward_hooks_with_kwargs)},
        {"_forward_pre_hooks_with_kwargs", offsetof(nn_module, forward_pre_hooks_with_kwargs)},
        {"_forward_hooks_always_called", offsetof(nn_module, forward_hooks_always_called)},
    };
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++)
        if (!strcmp(name, dicts[i].name)) return nn_retain(*(nn_object **)((char *)m + dicts[i].off));
    nn_object *r = repl_method_lookup(module_methods, name, self);
    if (r || nn_error_current() != NN_OK) return r;
    if (is_list_class(m->cls) && (r = repl_method_lookup(list_methods, name, self))) return r;
    if (is_dict_class(m->cls) && (r = repl_method_lookup(dict_methods, name, self))) return r;
    if (is_conv_class(m->cls) && (r = repl_method_lookup(conv_methods, name, self))) return r;
    if (has_reset_parameters(m->cls) && (r = repl_method_lookup(reset_methods, name, self))) return r;
    if ((r = repl_rnn_method(m, name))) return r;
    if (nn_error_current() != NN_OK) return NULL;
    return nn_retain(nn_module_getattr(m, name));
}

int repl_module_setattr(nn_module *m, const char *name, nn_object *value)
{
    if (!strcmp(name, "training")) {
        m->training = nn_is_true(value) && !nn_is_none(value) && !(nn_is_int(value) && nn_int_value(value) == 0);
        return 0;
    }
    return nn_module_setattr(m, name, value);
}

static int to_slice_spec(nn_object *key, nn_slice_spec *s)
{
    nn_object *p[3];
    repl_slice_parts(key, &p[0], &p[1], &p[2]);
    int64_t *v[3] = {&s->start, &s->stop, &s->step};
    bool *h[3] = {&s->has_start, &s->has_stop, &s->has_step};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        *h[i] = !nn_is_none(p[i]);
        *v[i] = 0;
        if (*h[i]) {
            if (nn_is_int(p[i]) || nn_is_bool(p[i])) *v[i] = nn_int_value(p[i]);
            else rc = nn_error_set(NN_ERR_TYPE, "slice indices must be integers or None or have an __index__ method");
        }
    }
    for (int i = 0; i < 3; i++) NN_RELEASE(p[i]);
    return rc;
}

nn_object *repl_module_getitem(nn_module *m, nn_object *key)
{
    nn_object *self = &m->ob;
    if (repl_is_slice(key)) {
        nn_slice_spec s;
        if (to_slice_spec(key, &s)) return NULL;
        if (nn_module_is_a(self, &nn_sequential_class)) return MOD(nn_sequential_getslice(m, &s));
        if (nn_module_is_a(self, &nn_module_list_class)) return MOD(nn_module_list_getslice(m, &s));
        if (nn_module_is_a(self, &nn_parameter_list_class)) return MOD(nn_parameter_list_getslice(m, &s));
    }
    return nn_container_getitem(m, key);
}

int repl_module_setitem(nn_module *m, nn_object *key, nn_object *value)
{
    return nn_container_setitem(m, key, value);
}

/* --------------------------------------------------------- other objects */

static nn_object *handle_remove(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("remove", "self", args, kwargs, a)) return NULL;
    nn_hook_handle_remove(self);
    return none();
}

static const repl_method_def handle_methods[] = {
    {"remove", handle_remove,
     "remove()\n"
     "Removes the hook from the module (or from every module for a global hook)."},
    {NULL, NULL, NULL},
};

nn_object *repl_nn_other_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type == &nn_hook_handle_type) {
        *handled = true;
        if (!strcmp(name, "remove")) return repl_bound_method(&handle_methods[0], o);
        if (!strcmp(name, "id")) return nn_int_new(nn_hook_handle_id(o));
        nn_error_set(NN_ERR_ATTRIBUTE, "'RemovableHandle' object has no attribute '%s'", name);
        return NULL;
    }
    if (o->type == &incompat_type) {
        *handled = true;
        if (!strcmp(name, "missing_keys")) return nn_retain(nn_tuple_get(o, 0));
        if (!strcmp(name, "unexpected_keys")) return nn_retain(nn_tuple_get(o, 1));
        nn_error_set(NN_ERR_ATTRIBUTE, "'_IncompatibleKeys' object has no attribute '%s'", name);
        return NULL;
    }
    return NULL;
}

/* ------------------------------------------------------------ functional */

#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)

static nn_tensor *input_of(const char *f, nn_object *o)
{
    nn_tensor *t = NULL;
    if (repl_arg_tensor(f, "input", 1, o, &t)) return NULL;
    return t;
}

/* In-place variant: run op_ on x and return x. */
static nn_object *inplace_result(nn_tensor *x, int rc) { return rc ? NULL : nn_retain(&x->ob); }

FN(relu)
{
    ARGS(2);
    bool inplace = false;
    nn_tensor *x;
    if (repl_parse_args("relu", "input, inplace=", args, kwargs, a) || !(x = input_of("relu", a[0])) ||
        repl_arg_bool("relu", "inplace", 2, a[1], &inplace))
        return NULL;
    return inplace ? inplace_result(x, nn_relu_(x)) : (nn_object *)nn_relu(x);
}

FN(gelu)
{
    ARGS(2);
    const char *ap = "none";
    nn_tensor *x;
    if (repl_parse_args("gelu", "input, approximate=", args, kwargs, a) || !(x = input_of("gelu", a[0])) ||
        repl_arg_str("gelu", "approximate", 2, a[1], &ap))
        return NULL;
    if (strcmp(ap, "none") && strcmp(ap, "tanh")) {
        nn_error_set(NN_ERR_RUNTIME, "approximate argument must be either none or tanh.");
        return NULL;
    }
    return (nn_object *)nn_gelu(x, strcmp(ap, "tanh") ? NN_GELU_NONE : NN_GELU_TANH);
}

FN(leaky_relu)
{
    ARGS(3);
    double s = 0.01;
    bool inplace = false;
    nn_tensor *x;
    if (repl_parse_args("leaky_relu", "input, negative_slope=, inplace=", args, kwargs, a) ||
        !(x = input_of("leaky_relu", a[0])) || repl_arg_double("leaky_relu", "negative_slope", 2, a[1], &s) ||
        repl_arg_bool("leaky_relu", "inplace", 3, a[2], &inplace))
        return NULL;
    return inplace ? inplace_result(x, nn_leaky_relu_(x, s)) : (nn_object *)nn_leaky_relu(x, s);
}

FN(elu)
{
    ARGS(3);
    double al = 1;
    bool inplace = false;
    nn_tensor *x;
    if (repl_parse_args("elu", "input, alpha=, inplace=", args, kwargs, a) || !(x = input_of("elu", a[0])) ||
        repl_arg_double("elu", "alpha", 2, a[1], &al) || repl_arg_bool("elu", "inplace", 3, a[2], &inplace))
        return NULL;
    return inplace ? inplace_result(x, nn_elu_(x, al)) : (nn_object *)nn_elu(x, al);
}

FN(silu)
{
    ARGS(2);
    bool inplace = false;
    nn_tensor *x;
    if (repl_parse_args("silu", "input, inplace=", args, kwargs, a) || !(x = input_of("silu", a[0])) ||
        repl_arg_bool("silu", "inplace", 2, a[1], &inplace))
        return NULL;
    return inplace ? inplace_result(x, nn_silu_(x)) : (nn_object *)nn_silu(x);
}

FN(softplus)
{
    ARGS(3);
    double b = 1, t = 20;
    nn_tensor *x;
    if (repl_parse_args("softplus", "input, beta=, threshold=", args, kwargs, a) || !(x = input_of("softplus", a[0])) ||
        repl_arg_double("softplus", "beta", 2, a[1], &b) || repl_arg_double("softplus", "threshold", 3, a[2], &t))
        return NULL;
    return (nn_object *)nn_softplus(x, b, t);
}

FN(threshold)
{
    ARGS(4);
    double th = 0, v = 0;
    bool inplace = false;
    nn_tensor *x;
    if (repl_parse_args("threshold", "input, threshold, value, inplace=", args, kwargs, a) ||
        !(x = input_of("threshold", a[0])) || repl_arg_double("threshold", "threshold", 2, a[1], &th) ||
        repl_arg_double("threshold", "value", 3, a[2], &v) || repl_arg_bool("threshold", "inplace", 4, a[3], &inplace))
        return NULL;
    return inplace ? inplace_result(x, nn_threshold_(x, th, v)) : (nn_object *)nn_threshold(x, th, v);
}

FN(prelu)
{
    ARGS(2);
    nn_tensor *x, *w = NULL;
    if (repl_parse_args("prelu", "input, weight", args, kwargs, a) || !(x = input_of("prelu", a[0])) ||
        repl_arg_tensor("prelu", "weight", 2, a[1], &w))
        return NULL;
    return (nn_object *)nn_prelu(x, w);
}

FN(sigmoid)
{
    ARGS(1);
    nn_tensor *x;
    if (repl_parse_args("sigmoid", "input", args, kwargs, a) || !(x = input_of("sigmoid", a[0]))) return NULL;
    return (nn_object *)nn_sigmoid(x);
}

FN(tanh)
{
    ARGS(1);
    nn_tensor *x;
    if (repl_parse_args("tanh", "input", args, kwargs, a) || !(x = input_of("tanh", a[0]))) return NULL;
    return (nn_object *)nn_tanh(x);
}

static nn_object *fsoftmax(const char *f, nn_object *args, nn_object *kwargs, bool log)
{
    ARGS(4);
    nn_tensor *x;
    int64_t dim = 0;
    int dtype = -1;
    if (repl_parse_args(f, "input, dim=, _stacklevel=, dtype=", args, kwargs, a) || !(x = input_of(f, a[0])) ||
        repl_arg_dtype(f, "dtype", 0, a[3], &dtype))
        return NULL;
    if (a[1] && !nn_is_none(a[1])) {
        if (repl_arg_dim(f, "dim", 2, a[1], -1, &dim)) return NULL;
    } else if ((dim = nn_implicit_softmax_dim(f, x->ndim)) < 0) {
        return NULL;
    }
    nn_tensor *in = x;
    if (dtype >= 0 && !(in = nn_to_dtype(x, (nn_dtype)dtype))) return NULL;
    nn_tensor *r = log ? nn_log_softmax(in, (int)dim) : nn_softmax(in, (int)dim);
    if (in != x) NN_RELEASE(in);
    return (nn_object *)r;
}

FN(softmax) { return fsoftmax("softmax", args, kwargs, false); }
FN(log_softmax) { return fsoftmax("log_softmax", args, kwargs, true); }

FN(dropout)
{
    ARGS(4);
    double p = 0.5;
    bool training = true, inplace = false;
    nn_tensor *x;
    if (repl_parse_args("dropout", "input, p=, training=, inplace=", args, kwargs, a) || !(x = input_of("dropout", a[0])) ||
        repl_arg_double("dropout", "p", 2, a[1], &p) || repl_arg_bool("dropout", "training", 3, a[2], &training) ||
        repl_arg_bool("dropout", "inplace", 4, a[3], &inplace))
        return NULL;
    if (p < 0 || p > 1) {
        char *r = nn_repr(a[1]);
        if (r) {
            nn_error_set(NN_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %s", r);
            nn_free(r);
        }
        return NULL;
    }
    return (nn_object *)nn_dropout(x, p, training);
}

FN(linear)
{
    ARGS(3);
    nn_tensor *x, *w = NULL, *b = NULL;
    if (repl_parse_args("linear", "input, weight, bias=", args, kwargs, a) || !(x = input_of("linear", a[0])) ||
        repl_arg_tensor("linear", "weight", 2, a[1], &w) ||
        repl_arg_tensor("linear", "bias", 3, a[2] && !nn_is_none(a[2]) ? a[2] : NULL, &b))
        return NULL;
    return (nn_object *)nn_linear(x, w, b);
}

static int reduction_of(const char *s, nn_reduction *r)
{
    if (!s || !strcmp(s, "mean")) *r = NN_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *r = NN_REDUCTION_SUM;
    else if (!strcmp(s, "none")) *r = NN_REDUCTION_NONE;
    else return nn_error_set(NN_ERR_VALUE, "%s is not a valid value for reduction", s);
    return 0;
}

static nn_object *floss(const char *f, nn_object *args, nn_object *kwargs, bool l1)
{
    ARGS(5);
    nn_tensor *x, *y = NULL;
    const char *red = NULL;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, size_average=, reduce=, reduction=", args, kwargs, a) ||
        !(x = input_of(f, a[0])) || repl_arg_tensor(f, "target", 2, a[1], &y) ||
        repl_arg_str(f, "reduction", 5, a[4], &red) || repl_legacy_reduction(a[2], a[3], &red) || reduction_of(red, &r))
        return NULL;
    return (nn_object *)(l1 ? nn_l1_loss(x, y, r) : nn_mse_loss(x, y, r));
}

FN(mse_loss) { return floss("mse_loss", args, kwargs, false); }
FN(l1_loss) { return floss("l1_loss", args, kwargs, true); }

FN(layer_norm)
{
    ARGS(5);
    nn_tensor *x, *w = NULL, *b = NULL;
    double eps = 1e-5;
    int n = 0;
    int64_t shape[NN_MAX_DIMS];
    const char *f = "layer_norm";
    if (repl_parse_args(f, "input, normalized_shape, weight=, bias=, eps=", args, kwargs, a) ||
        !(x = input_of(f, a[0])) || repl_arg_shape(f, "normalized_shape", a[1], &n, shape) ||
        repl_arg_tensor(f, "weight", 3, a[2] && !nn_is_none(a[2]) ? a[2] : NULL, &w) ||
        repl_arg_tensor(f, "bias", 4, a[3] && !nn_is_none(a[3]) ? a[3] : NULL, &b) ||
        repl_arg_double(f, "eps", 5, a[4], &eps))
        return NULL;
    return (nn_object *)nn_layer_norm(x, n, shape, w, b, eps);
}

FN(embedding)
{
    ARGS(7);
    nn_tensor *x, *w = NULL;
    int64_t pad = -1;
    const char *f = "embedding";
    if (repl_parse_args(f, "input, weight, padding_idx=, max_norm=, norm_type=, scale_grad_by_freq=, sparse=", args,
                        kwargs, a) ||
        !(x = input_of(f, a[0])) || repl_arg_tensor(f, "weight", 2, a[1], &w) ||
        (a[2] && !nn_is_none(a[2]) && repl_arg_int(f, "padding_idx", 3, a[2], &pad)))
        return NULL;
    if (pad < -1 && w) pad += w->sizes[0];
    if (a[3] && !nn_is_none(a[3])) { /* max_norm: the rows looked up renormed in place first */
        double max_norm, norm_type = 2.0;
        if (repl_arg_double(f, "max_norm", 4, a[3], &max_norm) || repl_arg_double(f, "norm_type", 5, a[4], &norm_type) ||
            nn_embedding_renorm_(w, x, max_norm, norm_type) < 0)
            return NULL;
    }
    return (nn_object *)nn_embedding(w, x, pad);
}

static const repl_function_def functional[] = {
    {"relu", F_relu,
     "relu(input, inplace=False) -> Tensor\n"
     "Applies the rectified linear unit function element-wise."},
    {"gelu", F_gelu,
     "gelu(input, approximate='none') -> Tensor\n"
     "Applies the Gaussian Error Linear Units function, exactly or with the tanh approximation."},
    {"leaky_relu", F_leaky_relu,
     "leaky_relu(input, negative_slope=0.01, inplace=False) -> Tensor\n"
     "Applies element-wise LeakyReLU(x) = max(0, x) + negative_slope * min(0, x)."},
    {"elu", F_elu,
     "elu(input, alpha=1.0, inplace=False) -> Tensor\n"
     "Applies the Exponential Linear Unit (ELU) function element-wise."},
    {"silu", F_silu,
     "silu(input, inplace=False) -> Tensor\n"
     "Applies the Sigmoid Linear Unit (SiLU) function, element-wise."},
    {"softplus", F_softplus,
     "softplus(input, beta=1, threshold=20) -> Tensor\n"
     "Applies element-wise Softplus(x) = 1/beta * log(1 + exp(beta * x))."},
    {"threshold", F_threshold,
     "threshold(input, threshold, value, inplace=False) -> Tensor\n"
     "Thresholds each element of the input Tensor."},
    {"prelu", F_prelu,
     "prelu(input, weight) -> Tensor\n"
     "Applies element-wise PReLU(x) = max(0, x) + weight * min(0, x) where weight is a learnable parameter."},
    {"sigmoid", F_sigmoid,
     "sigmoid(input) -> Tensor\n"
     "Applies the element-wise function Sigmoid(x) = 1 / (1 + exp(-x))."},
    {"tanh", F_tanh,
     "tanh(input) -> Tensor\n"
     "Applies element-wise Tanh(x) = tanh(x)."},
    {"softmax", F_softmax,
     "softmax(input, dim=None, _stacklevel=3, dtype=None) -> Tensor\n"
     "Applies a softmax function."},
    {"log_softmax", F_log_softmax,
     "log_softmax(input, dim=None, _stacklevel=3, dtype=None) -> Tensor\n"
     "Applies a softmax followed by a logarithm."},
    {"dropout", F_dropout,
     "dropout(input, p=0.5, training=True, inplace=False) -> Tensor\n"
     "During training, randomly zeroes some of the elements of the input tensor with probability p using samples from a Bernoulli distribution."},
    {"linear", F_linear,
     "linear(input, weight, bias=None) -> Tensor\n"
     "Applies a linear transformation to the incoming data."},
    {"mse_loss", F_mse_loss,
     "mse_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor\n"
     "Measures the element-wise mean squared error."},
    {"l1_loss", F_l1_loss,
     "l1_loss(input, target, size_average=None, reduce=None, reduction='mean') -> Tensor\n"
     "Function that takes the mean element-wise absolute value difference."},
    {"layer_norm", F_layer_norm,
     "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05) -> Tensor\n"
     "Applies Layer Normalization for last certain number of dimensions."},
    {"embedding", F_embedding,
     "embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False) -> Tensor\n"
     "A simple lookup table that looks up embeddings in a fixed dictionary and size."},
};

/* ------------------------------------------------------------------ init */

static nn_object *init_result(nn_object *t, int rc) { return rc ? NULL : nn_retain(t); }

FN(uniform_)
{
    ARGS(3);
    nn_tensor *t = NULL;
    double lo = 0, hi = 1;
    if (repl_parse_args("uniform_", "tensor, a=, b=", args, kwargs, a) ||
        repl_arg_tensor("uniform_", "tensor", 1, a[0], &t) || repl_arg_double("uniform_", "a", 2, a[1], &lo) ||
        repl_arg_double("uniform_", "b", 3, a[2], &hi))
        return NULL;
    return init_result(a[0], nn_init_uniform_(t, lo, hi));
}

FN(normal_)
{
    ARGS(3);
    nn_tensor *t = NULL;
    double m = 0, s = 1;
    if (repl_parse_args("normal_", "tensor, mean=, std=", args, kwargs, a) ||
        repl_arg_tensor("normal_", "tensor", 1, a[0], &t) || repl_arg_double("normal_", "mean", 2, a[1], &m) ||
        repl_arg_double("normal_", "std", 3, a[2], &s))
        return NULL;
    return init_result(a[0], nn_init_normal_(t, m, s));
}

FN(constant_)
{
    ARGS(2);
    nn_tensor *t = NULL;
    double v = 0;
    if (repl_parse_args("constant_", "tensor, val", args, kwargs, a) ||
        repl_arg_tensor("constant_", "tensor", 1, a[0], &t) || repl_arg_double("constant_", "val", 2, a[1], &v))
        return NULL;
    return init_result(a[0], nn_init_constant_(t, v));
}

FN(ones_)
{
    ARGS(1);
    nn_tensor *t = NULL;
    if (repl_parse_args("ones_", "tensor", args, kwargs, a) || repl_arg_tensor("ones_", "tensor", 1, a[0], &t))
        return NULL;
    return init_result(a[0], nn_init_ones_(t));
}

FN(zeros_)
{
    ARGS(1);
    nn_tensor *t = NULL;
    if (repl_parse_args("zeros_", "tensor", args, kwargs, a) || repl_arg_tensor("zeros_", "tensor", 1, a[0], &t))
        return NULL;
    return init_result(a[0], nn_init_zeros_(t));
}

FN(calculate_gain)
{
    ARGS(2);
    const char *nl = NULL;
    if (repl_parse_args("calculate_gain", "nonlinearity, param=", args, kwargs, a) ||
        repl_arg_str("calculate_gain", "nonlinearity", 1, a[0], &nl))
        return NULL;
    return nn_init_calculate_gain(nl ? nl : "", a[1] && !nn_is_none(a[1]) ? a[1] : NULL);
}

static nn_object *xavier(const char *f, nn_object *args, nn_object *kwargs, bool normal)
{
    ARGS(2);
    nn_tensor *t = NULL;
    double g = 1;
    if (repl_parse_args(f, "tensor, gain=", args, kwargs, a) || repl_arg_tensor(f, "tensor", 1, a[0], &t) ||
        repl_arg_double(f, "gain", 2, a[1], &g))
        return NULL;
    return init_result(a[0], normal ? nn_init_xavier_normal_(t, g) : nn_init_xavier_uniform_(t, g));
}

FN(xavier_uniform_) { return xavier("xavier_uniform_", args, kwargs, false); }
FN(xavier_normal_) { return xavier("xavier_normal_", args, kwargs, true); }

static nn_object *kaiming(const char *f, nn_object *args, nn_object *kwargs, bool normal)
{
    ARGS(4);
    nn_tensor *t = NULL;
    const char *mode = NULL, *nl = NULL;
    if (repl_parse_args(f, "tensor, a=, mode=, nonlinearity=", args, kwargs, a) ||
        repl_arg_tensor(f, "tensor", 1, a[0], &t) || repl_arg_str(f, "mode", 3, a[2], &mode) ||
        repl_arg_str(f, "nonlinearity", 4, a[3], &nl))
        return NULL;
    nn_object *slope = a[1] && !nn_is_none(a[1]) ? a[1] : NULL;
    return init_result(a[0], normal ? nn_init_kaiming_normal_(t, slope, mode, nl)
                                    : nn_init_kaiming_uniform_(t, slope, mode, nl));
}

FN(kaiming_uniform_) { return kaiming("kaiming_uniform_", args, kwargs, false); }
FN(kaiming_normal_) { return kaiming("kaiming_normal_", args, kwargs, true); }

FN(fan_in_out)
{
    ARGS(1);
    nn_tensor *t = NULL;
    int64_t fi, fo;
    if (repl_parse_args("_calculate_fan_in_and_fan_out", "tensor", args, kwargs, a) ||
        repl_arg_tensor("_calculate_fan_in_and_fan_out", "tensor", 1, a[0], &t) ||
        nn_init_calculate_fan_in_and_fan_out(t, &fi, &fo))
        return NULL;
    nn_object *x = nn_int_new(fi), *y = x ? nn_int_new(fo) : NULL;
    nn_object *r = y ? nn_tuple_pack(2, x, y) : NULL;
    NN_RELEASE(x);
    NN_RELEASE(y);
    return r;
}

static const repl_function_def init_fns[] = {
    {"uniform_", F_uniform_,
     "uniform_(tensor, a=0.0, b=1.0) -> Tensor\n"
     "Fills the input Tensor with values drawn from the uniform distribution U(a, b)."},
    {"normal_", F_normal_,
     "normal_(tensor, mean=0.0, std=1.0) -> Tensor\n"
     "Fills the input Tensor with values drawn from the normal distribution N(mean, std^2)."},
    {"constant_", F_constant_,
     "constant_(tensor, val) -> Tensor\n"
     "Fills the input Tensor with the value val."},
    {"ones_", F_ones_,
     "ones_(tensor) -> Tensor\n"
     "Fills the input Tensor with the scalar value 1."},
    {"zeros_", F_zeros_,
     "zeros_(tensor) -> Tensor\n"
     "Fills the input Tensor with the scalar value 0."},
    {"calculate_gain", F_calculate_gain,
     "calculate_gain(nonlinearity, param=None)\n"
     "Return the recommended gain value for the given nonlinearity function."},
    {"xavier_uniform_", F_xavier_uniform_,
     "xavier_uniform_(tensor, gain=1.0) -> Tensor\n"
     "Fills the input Tensor with values from a uniform distribution scaled as in Glorot & Bengio (2010)."},
    {"xavier_normal_", F_xavier_normal_,
     "xavier_normal_(tensor, gain=1.0) -> Tensor\n"
     "Fills the input Tensor with values from a normal distribution scaled as in Glorot & Bengio (2010)."},
    {"kaiming_uniform_", F_kaiming_uniform_,
     "kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')\n"
     "Fills the input Tensor with values from a uniform distribution scaled as in He et al. (2015)."},
    {"kaiming_normal_", F_kaiming_normal_,
     "kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')\n"
     "Fills the input Tensor with values from a normal distribution scaled as in He et al. (2015)."},
    {"_calculate_fan_in_and_fan_out", F_fan_in_out,
     "_calculate_fan_in_and_fan_out(tensor) -> (int, int)\n"
     "Returns the fan-in and fan-out of a weight tensor."},
};

/* ------------------------------------------------------- global hooks */

static nn_object *global_hook(const char *f, nn_object *args, nn_object *kwargs, nn_hook_kind kind)
{
    ARGS(2);
    nn_hook_options o = {false, false, false};
    if (repl_parse_args(f, "hook, *, always_call=", args, kwargs, a) ||
        repl_arg_bool(f, "always_call", 0, a[1], &o.always_call))
        return NULL;
    return nn_module_register_hook(NULL, kind, a[0], o);
}

#define GHOOK(name, kind) FN(name) { return global_hook(#name, args, kwargs, kind); }
GHOOK(register_module_forward_pre_hook, NN_HOOK_FORWARD_PRE)
GHOOK(register_module_forward_hook, NN_HOOK_FORWARD)
GHOOK(register_module_full_backward_pre_hook, NN_HOOK_BACKWARD_PRE)
GHOOK(register_module_full_backward_hook, NN_HOOK_FULL_BACKWARD)
GHOOK(register_module_backward_hook, NN_HOOK_BACKWARD)

FN(is_lazy)
{
    ARGS(1);
    if (repl_parse_args("is_lazy", "param", args, kwargs, a)) return NULL;
    return nn_bool_new(nn_is_uninitialized(a[0]));
}

/* ----------------------------------------------------------- namespaces */

static int add_class(nn_object *ns, const repl_class_def *d)
{
    nn_object *c = repl_class_new(d);
    if (!c) return -1;
    int rc = repl_namespace_set(ns, d->name, c);
    NN_RELEASE(c);
    return rc;
}

nn_object *repl_nn_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn");
    if (!ns) return NULL;
    for (size_t i = 0; i < sizeof nn_classes / sizeof nn_classes[0]; i++)
        if (add_class(ns, &nn_classes[i])) goto fail;
    if (add_class(ns, &parameter_class_def) || repl_nn_more_classes(ns) || repl_act_classes(ns) || repl_modules_more_classes(ns) || repl_norm_conv_classes(ns) ||
        repl_loss_classes(ns))
        goto fail;
    if (repl_rnn_classes(ns)) goto fail;
    return ns;
fail:
    NN_RELEASE(ns);
    return NULL;
}

nn_object *repl_functional_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.functional");
    if (!ns) return NULL;
    if (repl_namespace_add_fns(ns, functional, sizeof functional / sizeof functional[0]) ||
        repl_nn_more_functional(ns) || repl_select_functional(ns) ||
        repl_act_functional(ns) || repl_modules_more_functional(ns) || repl_norm_conv_functional(ns) || repl_loss_functional(ns) || repl_rnn_functional(ns)) {
        NN_RELEASE(ns);
        return NULL;
    }
    return ns;
}

nn_object *repl_init_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.init");
    if (!ns) return NULL;
    if (repl_namespace_add_fns(ns, init_fns, sizeof init_fns / sizeof init_fns[0])) {
        NN_RELEASE(ns);
        return NULL;
    }
    return ns;
}

static const repl_function_def global_hook_fns[] = {
    {"register_module_forward_pre_hook", F_register_module_forward_pre_hook,
     "register_module_forward_pre_hook(hook)\n"
     "Registers a forward pre-hook common to all modules."},
    {"register_module_forward_hook", F_register_module_forward_hook,
     "register_module_forward_hook(hook)\n"
     "Registers a global forward hook for all the modules."},
    {"register_module_full_backward_pre_hook", F_register_module_full_backward_pre_hook,
     "register_module_full_backward_pre_hook(hook)\n"
     "Registers a backward pre-hook common to all the modules."},
    {"register_module_full_backward_hook", F_register_module_full_backward_hook,
     "register_module_full_backward_hook(hook)\n"
     "Registers a backward hook common to all the modules."},
    {"register_module_backward_hook", F_register_module_backward_hook,
     "register_module_backward_hook(hook)\n"
     "Registers a backward hook common to all the modules."},
};

nn_object *repl_module_module_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.modules.module");
    if (!ns) return NULL;
    if (repl_namespace_add_fns(ns, global_hook_fns, sizeof global_hook_fns / sizeof global_hook_fns[0]) ||
        add_class(ns, &nn_classes[sizeof nn_classes / sizeof nn_classes[0] - 1])) {
        NN_RELEASE(ns);
        return NULL;
    }
    return ns;
}

nn_object *repl_parameter_namespace(void)
{
    nn_object *ns = repl_namespace_new("torch.nn.parameter");
    if (!ns) return NULL;
    static const repl_function_def is_lazy = {"is_lazy", F_is_lazy,
                                              "is_lazy(param) -> bool\n"
                                              "Returns whether param is an uninitialized parameter of a lazy module."};
    if (add_class(ns, &parameter_class_def) || repl_namespace_add_fn(ns, &is_lazy) || repl_lazy_add_classes(ns)) {
        NN_RELEASE(ns);
        return NULL;
    }
    return ns;
}
