/*
 * native_module_init.c — NativeClass.__init__(self, *args, **kwargs) for the module classes
 * of core (nn.Linear, nn.Conv2d, nn.Sequential, nn.LSTM, nn.MultiheadAttention, ...), so that
 * a class of the language deriving from one builds it as PyTorch does:
 *
 *     class MaskedLinear(nn.Linear):
 *         def __init__(self, i, o):
 *             super().__init__(i, o)          # or nn.Linear.__init__(self, i, o)
 *
 * The native constructor builds a module of the class with those arguments (drawing its
 * parameters from the default generator as PyTorch's __init__ does), then self takes its
 * parameters, buffers, submodules and configuration (self keeps its own class). When the
 * language class overrides reset_parameters, PyTorch's __init__ calls that override instead of
 * the base's: the native draws are undone (and its warnings dropped) and self.reset_parameters() runs.
 * super().__init__() of a language class reaches here through repl_class_getattr (bind_args.c).
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

static void release_ud(void *ud) { NN_RELEASE((nn_object *)ud); }

/* dst[k] = v for every entry of src */
static int copy_entries(nn_object *dst, nn_object *src)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(src, &pos, &k, &v))
        if (nn_dict_set(dst, k, v) < 0) return -1;
    return 0;
}

static nn_object *native_init(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *cls = ud;
    const repl_class_def *d = repl_class_def_of(cls);
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *self = n ? nn_tuple_get(args, 0) : NULL;
    if (!self || !nn_is_module(self) || !nn_module_is_a(self, d->module_class))
        /* PyTorch's __init__ begins with super().__init__() */
        return nn_error_set(NN_ERR_TYPE, "super(type, obj): obj must be an instance or subtype of type"), NULL;
    class_obj *lang = repl_module_lang_class(self);
    nn_object *override = lang ? repl_class_lookup(lang, "reset_parameters") : NULL;
    size_t state_n = nn_generator_state_size();
    unsigned char *state = override ? nn_malloc(state_n) : NULL;
    if (override && !state) return NULL;
    if (state) nn_generator_get_state(nn_default_generator(), state);
    nn_object *rest = nn_tuple_new(n - 1);
    if (!rest) {
        nn_free(state);
        return NULL;
    }
    for (size_t i = 1; i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    bool was_muted = override ? nn_set_warnings_muted(true) : false; /* the base's reset does not run */
    nn_object *built = d->ctor((void *)d, rest, kwargs);
    if (override) nn_set_warnings_muted(was_muted);
    NN_RELEASE(rest);
    if (state && nn_generator_set_state(nn_default_generator(), state, state_n) < 0 && built) NN_SET(built, NULL);
    nn_free(state);
    if (!built) return NULL;
    nn_module *m = NN_MODULE(self), *b = NN_MODULE(built);
    int rc = copy_entries(m->parameters, b->parameters);
    if (rc == 0) rc = copy_entries(m->buffers, b->buffers);
    if (rc == 0) rc = copy_entries(m->non_persistent, b->non_persistent);
    if (rc == 0) rc = copy_entries(m->modules, b->modules);
    if (rc == 0) rc = copy_entries(m->attrs, b->attrs);
    NN_RELEASE(built);
    if (rc < 0) return NULL;
    if (override) {
        nn_object *r = repl_call_method(self, "reset_parameters", NULL, 0);
        if (!r) return NULL;
        NN_RELEASE(r);
    }
    return nn_retain(nn_none());
}

/* NativeClass.forward(self, *args, **kwargs): the class's own forward, not an override's */
static nn_object *native_forward(void *ud, nn_object *args, nn_object *kwargs)
{
    const repl_class_def *d = repl_class_def_of((nn_object *)ud);
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *self = n ? nn_tuple_get(args, 0) : NULL;
    if (!self || !nn_is_module(self) || !nn_module_is_a(self, d->module_class))
        return nn_error_set(NN_ERR_TYPE, "forward() missing 1 required positional argument: 'self'"), NULL;
    const nn_module_class *owner = NN_MODULE_SLOT(d->module_class, forward);
    if (!owner)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "Module [%s] is missing the required \"forward\" function",
                            d->name), NULL;
    nn_object *rest = nn_tuple_new(n - 1);
    if (!rest) return NULL;
    for (size_t i = 1; i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    nn_object *r = owner->forward(NN_MODULE(self), rest, kwargs);
    NN_RELEASE(rest);
    return r;
}

nn_object *repl_native_module_forward(nn_object *cls)
{
    const repl_class_def *d = repl_class_def_of(cls);
    if (!d->module_class || d->module_class == &repl_module_base_class) return NULL;
    nn_object *f = nn_cfunction_new("forward", native_forward, cls, release_ud);
    if (f) NN_RETAIN(cls);
    return f;
}

nn_object *repl_native_module_init(nn_object *cls)
{
    const repl_class_def *d = repl_class_def_of(cls);
    if (!d->module_class || d->module_class == &repl_module_base_class || !d->ctor) return NULL;
    nn_object *f = nn_cfunction_new("__init__", native_init, cls, release_ud);
    if (f) NN_RETAIN(cls);
    return f;
}

/* nn.MultiheadAttention(..., add_bias_kv=True or add_zero_attn=True): core's module has neither, so
   the language's subclass torch.nn._mha.MultiheadAttention builds core's and adds bias_k / bias_v
   (PyTorch's order of draws and of parameters), and its forward calls F.multi_head_attention_forward.
   args and kwargs as the constructor got them; a new reference or NULL. */
nn_object *repl_mha_with_bias_kv(nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_stdlib_module("torch.nn._mha");
    nn_object *cls = m ? repl_get_attr(m, "MultiheadAttention") : NULL;
    NN_RELEASE(m);
    if (!cls) return NULL;
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *argv[16];
    if (n > 16) n = 16; /* the constructor's spec allowed at most 11 */
    for (size_t i = 0; i < n; i++) argv[i] = nn_tuple_get(args, i);
    nn_object *r = repl_call_object(cls, argv, (int)n, kwargs);
    NN_RELEASE(cls);
    return r;
}

/* Class methods of core's module classes written in the language, bound to the class
   (nn.Embedding.from_pretrained); NULL without an error when cls has none of that name. */
nn_object *repl_native_classmethod(nn_object *cls, const char *name)
{
    static const struct {
        const char *cls, *name, *module, *fn;
    } table[] = {
        {"Embedding", "from_pretrained", "torch.nn._more_nn", "_embedding_from_pretrained"},
    };
    const repl_class_def *d = repl_class_def_of(cls);
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (strcmp(d->name, table[i].cls) || strcmp(name, table[i].name)) continue;
        nn_object *m = repl_stdlib_module(table[i].module);
        nn_object *f = m ? repl_get_attr(m, table[i].fn) : NULL;
        NN_RELEASE(m);
        nn_object *bound = f ? repl_method_new(f, cls) : NULL;
        NN_RELEASE(f);
        return bound;
    }
    return NULL;
}
