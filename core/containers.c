/*
 * containers.c — torch.nn's containers as PyTorch 1.13's container.py defines them:
 * Sequential, ModuleList, ModuleDict, ParameterList and ParameterDict, each an
 * nn_module whose items live in Module's own dicts and are changed with
 * container.py's own steps, so keys, renumbering, quirks and messages come out as
 * PyTorch's; and labml.ai's FeedForward block. Traversal, state_dict and repr are
 * Module's (module.c); the language's bindings live in repl/.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* ------------------------------------------------------------ small helpers */

bool nn_module_is_a(const nn_object *o, const nn_module_class *cls)
{
    if (!nn_is_module(o)) return false;
    for (const nn_module_class *c = NN_MODULE(o)->cls; c; c = c->base)
        if (c == cls) return true;
    return false;
}

static bool is_a(nn_module *m, const nn_module_class *cls) { return nn_module_is_a(&m->ob, cls); }

/* torch.typename(o): "torch.FloatTensor" for tensors, the type's name for the rest. */
static const char *typename_of(const nn_object *o)
{
    static const char *const names[NN_DTYPE_COUNT] = {
        [NN_FLOAT32] = "torch.FloatTensor", [NN_FLOAT64] = "torch.DoubleTensor", [NN_FLOAT16] = "torch.HalfTensor",
        [NN_BFLOAT16] = "torch.BFloat16Tensor", [NN_INT64] = "torch.LongTensor", [NN_INT32] = "torch.IntTensor",
        [NN_BOOL] = "torch.BoolTensor", [NN_UINT8] = "torch.ByteTensor", [NN_INT8] = "torch.CharTensor",
        [NN_INT16] = "torch.ShortTensor"};
    if (!o) return "NoneType";
    if (nn_is_tensor(o)) return names[NN_TENSOR(o)->dtype];
    if (nn_is_module(o)) return nn_module_name(NN_MODULE(o));
    return o->type->name;
}

/* type(o).__name__ */
static const char *type_name(const nn_object *o)
{
    if (!o) return "NoneType";
    if (nn_is_module(o)) return nn_module_name(NN_MODULE(o));
    return o->type->name;
}

/* str(type(o)): "<class 'int'>", "<class 'torch.nn.modules.container.Sequential'>". */
static void class_repr(const nn_object *o, char *buf, size_t n)
{
    static const struct {
        const char *module;
        const char *names[24];
    } torch_classes[] = {
        {"container", {"Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"}},
        {"linear", {"Linear", "Identity", "Bilinear", "LazyLinear"}},
        {"dropout", {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout"}},
        {"activation", {"ReLU", "Tanh", "Sigmoid", "GELU", "SiLU", "LeakyReLU", "ELU", "Softmax", "LogSoftmax",
                        "Softplus", "PReLU", "Threshold", "Hardtanh", "ReLU6", "Mish", "Softsign", "Tanhshrink",
                        "Hardswish", "Hardsigmoid", "GLU", "CELU", "SELU"}},
        {"normalization", {"LayerNorm", "GroupNorm"}},
        {"sparse", {"Embedding", "EmbeddingBag"}},
        {"loss", {"MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"}},
        {"flatten", {"Flatten", "Unflatten"}},
    };
    if (!o) {
        snprintf(buf, n, "<class 'NoneType'>");
    } else if (nn_is_parameter(o)) {
        snprintf(buf, n, "<class 'torch.nn.parameter.Parameter'>");
    } else if (nn_is_tensor(o)) {
        snprintf(buf, n, "<class 'torch.Tensor'>");
    } else if (nn_is_module(o)) {
        const char *name = nn_module_name(NN_MODULE(o));
        for (size_t i = 0; i < sizeof torch_classes / sizeof torch_classes[0]; i++)
            for (size_t j = 0; torch_classes[i].names[j]; j++)
                if (!strcmp(torch_classes[i].names[j], name)) {
                    snprintf(buf, n, "<class 'torch.nn.modules.%s.%s'>", torch_classes[i].module, name);
                    return;
                }
        snprintf(buf, n, "<class '__main__.%s'>", name);
    } else {
        snprintf(buf, n, "<class '%s'>", o->type->name);
    }
}

int nn_slice_spec_indices(const nn_slice_spec *s, int64_t len, int64_t *start, int64_t *step, int64_t *count)
{
    int64_t st = s->has_step ? s->step : 1;
    if (st == 0) return nn_error_set(NN_ERR_VALUE, "slice step cannot be zero");
    if (st < -INT64_MAX) st = -INT64_MAX;
    int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? len : len - 1;
    int64_t b = st > 0 ? lower : upper, e = st > 0 ? upper : lower;
    if (s->has_start) {
        b = s->start;
        if (b < 0) {
            b += len;
            if (b < lower) b = lower;
        } else if (b > upper) {
            b = upper;
        }
    }
    if (s->has_stop) {
        e = s->stop;
        if (e < 0) {
            e += len;
            if (e < lower) e = lower;
        } else if (e > upper) {
            e = upper;
        }
    }
    int64_t c = 0;
    if (st > 0 && b < e) c = (e - b - 1) / st + 1;
    if (st < 0 && e < b) c = (b - e - 1) / (-st) + 1;
    *start = b;
    *step = st;
    *count = c;
    return 0;
}

/* _get_item_by_idx / _get_abs_string_index: idx in [-size, size) made absolute. */
static int abs_index(int64_t idx, int64_t size, int64_t *out)
{
    if (idx < -size || idx >= size) return nn_error_set(NN_ERR_INDEX, "index %lld is out of range", (long long)idx);
    *out = idx < 0 ? idx + size : idx;
    return 0;
}

/* A dict's keys, values or (key, value) tuples in order, as a new list. */
enum { KEYS, VALUES, ITEMS };
static nn_object *dict_list(nn_object *d, int what)
{
    nn_object *out = nn_list_new(nn_dict_len(d));
    size_t pos = 0;
    nn_object *k, *v;
    while (out && nn_dict_next(d, &pos, &k, &v)) {
        nn_object *item = what == KEYS ? nn_retain(k) : what == VALUES ? nn_retain(v) : nn_tuple_pack(2, k, v);
        if (!item || nn_list_append(out, item) < 0) NN_SET(out, NULL);
        NN_RELEASE(item);
    }
    return out;
}

/* The idx-th entry of d (0 <= idx < len): key and value borrowed. */
static void dict_entry_at(nn_object *d, size_t idx, nn_object **key, nn_object **value)
{
    size_t pos = 0;
    for (size_t i = 0; nn_dict_next(d, &pos, key, value) && i < idx; i++) {}
}

/* A KeyError naming key as Python prints it ("'x'", "0"). */
static int key_error(nn_object *key)
{
    char *r = nn_repr(key);
    if (!r) return -1;
    nn_error_set(NN_ERR_KEY, "%s", r);
    nn_free(r);
    return -1;
}

static int key_error_str(const char *key)
{
    nn_object *k = nn_str_new(key);
    if (!k) return -1;
    key_error(k);
    NN_RELEASE(k);
    return -1;
}


/* ------------------------------------------------------- names and checks */

/* Methods each container class adds to Module's: add_module and register_parameter
   refuse them ("attribute 'append' already exists"), as hasattr() finds them. */
static const char *const sequential_methods[] = {"append", "insert", "extend", "pop", NULL};
static const char *const module_list_methods[] = {"append", "insert", "extend", "pop", NULL};
static const char *const module_dict_methods[] = {"clear", "pop", "keys", "items", "values", "update", NULL};
static const char *const parameter_list_methods[] = {"append", "extend", NULL};
static const char *const parameter_dict_methods[] = {"copy", "setdefault", "clear", "pop", "popitem", "get",
                                                     "fromkeys", "keys", "items", "values", "update", NULL};

static bool class_has_method(const nn_module_class *cls, const char *name)
{
    for (const nn_module_class *c = cls; c; c = c->base) {
        const char *const *names = c == &nn_sequential_class       ? sequential_methods
                                   : c == &nn_module_list_class     ? module_list_methods
                                   : c == &nn_module_dict_class     ? module_dict_methods
                                   : c == &nn_parameter_list_class  ? parameter_list_methods
                                   : c == &nn_parameter_dict_class  ? parameter_dict_methods
                                                                    : NULL;
        for (size_t i = 0; names && names[i]; i++)
            if (!strcmp(names[i], name)) return true;
    }
    return false;
}

/* Module.add_module(name, module) with an object: a Module or None. Borrows module. */
static int add_module(nn_module *m, const char *name, nn_object *module)
{
    if (!nn_is_none(module) && !nn_is_module(module))
        return nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", typename_of(module));
    if (class_has_method(m->cls, name) && !nn_dict_get_str(m->modules, name))
        return nn_error_set(NN_ERR_KEY, "attribute '%s' already exists", name);
    return nn_module_add_module(m, name, nn_is_none(module) ? NULL : NN_MODULE(module));
}

static int add_module_at(nn_module *m, int64_t index, nn_object *module)
{
    char name[32];
    snprintf(name, sizeof name, "%lld", (long long)index);
    return add_module(m, name, module);
}

/* Module.__setattr__(name, value), with the container's methods counted by
   register_parameter's hasattr check. Borrows value. */
static int set_attr(nn_module *m, const char *name, nn_object *value)
{
    if (nn_is_parameter(value) && class_has_method(m->cls, name) && !nn_dict_get_str(m->parameters, name))
        return nn_error_set(NN_ERR_KEY, "attribute '%s' already exists", name);
    return nn_module_setattr(m, name, value ? value : nn_none());
}

/* What ParameterList/ParameterDict store for value: Parameter(value) for a tensor
   that is not a Parameter, value itself otherwise; returns a new reference. */
static nn_object *as_parameter(nn_object *value)
{
    if (!nn_is_tensor(value) || nn_is_parameter(value)) return nn_retain(value ? value : nn_none());
    if (!nn_dtype_is_floating(NN_TENSOR(value)->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
        return NULL;
    }
    return (nn_object *)nn_parameter_new(NN_TENSOR(value), true);
}

/* Renames the children "0".."n-1" in their order (container.py's "To preserve
   numbering" step, which replaces _modules with a new OrderedDict). */
static int renumber(nn_module *m)
{
    nn_object *fresh = nn_ordered_dict_new();
    size_t pos = 0, i = 0;
    nn_object *k, *v;
    while (fresh && nn_dict_next(m->modules, &pos, &k, &v)) {
        char key[32];
        snprintf(key, sizeof key, "%zu", i++);
        if (nn_dict_set_str(fresh, key, v) < 0) NN_SET(fresh, NULL);
    }
    if (!fresh) return -1;
    NN_SET(m->modules, fresh);
    return 0;
}

/* A new module of m's class (self.__class__()), empty; for ParameterList with its _size. */
static nn_module *same_class(nn_module *m);

/* ----------------------------------------------------------- iteration */

static nn_object *parameter_list_values(nn_module *pl);
static nn_object *pdict_keys(nn_module *pd);

static bool is_container(nn_module *m)
{
    return is_a(m, &nn_sequential_class) || is_a(m, &nn_module_list_class) || is_a(m, &nn_module_dict_class) ||
           is_a(m, &nn_parameter_list_class) || is_a(m, &nn_parameter_dict_class);
}

/* isinstance(o, collections.abc.Iterable) for core's values. */
static bool is_iterable(const nn_object *o)
{
    if (!o) return false;
    if (nn_is_module(o)) return is_container(NN_MODULE(o));
    return nn_is_list(o) || o->type == &nn_tuple_type || nn_is_dict(o) || nn_is_str(o) || nn_is_tensor(o);
}

/* list(o): items of a list or tuple, keys of a dict, characters of a str, rows of a
   tensor, the items a container iterates over. New list reference, or NULL with
   TypeError "'int' object is not iterable". */
static nn_object *iterate(nn_object *o)
{
    if (!o) o = nn_none();
    nn_object *out = NULL;
    if (nn_is_list(o) || o->type == &nn_tuple_type) {
        bool tuple = o->type == &nn_tuple_type;
        size_t n = tuple ? nn_tuple_len(o) : nn_list_len(o);
        out = nn_list_new(n);
        for (size_t i = 0; out && i < n; i++)
            if (nn_list_append(out, tuple ? nn_tuple_get(o, i) : nn_list_get(o, i)) < 0) NN_SET(out, NULL);
        return out;
    }
    if (nn_is_dict(o)) return dict_list(o, KEYS);
    if (nn_is_str(o)) {
        const char *s = nn_str_cstr(o);
        size_t n = nn_str_len(o);
        out = nn_list_new(n);
        for (size_t i = 0; out && i < n;) {
            size_t len = 1;
            while (i + len < n && ((unsigned char)s[i + len] & 0xC0) == 0x80) len++;
            nn_object *ch = nn_str_from(s + i, len);
            if (!ch || nn_list_append(out, ch) < 0) NN_SET(out, NULL);
            NN_RELEASE(ch);
            i += len;
        }
        return out;
    }
    if (nn_is_tensor(o)) {
        nn_tensor *t = NN_TENSOR(o);
        if (t->ndim == 0) {
            nn_error_set(NN_ERR_TYPE, "iteration over a 0-d tensor");
            return NULL;
        }
        out = nn_list_new((size_t)t->sizes[0]);
        for (int64_t i = 0; out && i < t->sizes[0]; i++) {
            nn_tensor *row = nn_select(t, 0, i);
            if (!row || nn_list_append(out, &row->ob) < 0) NN_SET(out, NULL);
            NN_RELEASE(row);
        }
        return out;
    }
    if (nn_is_module(o) && is_container(NN_MODULE(o))) return nn_container_iter(NN_MODULE(o));
    nn_error_set(NN_ERR_TYPE, "'%s' object is not iterable", type_name(o));
    return NULL;
}

int64_t nn_container_len(nn_module *m)
{
    if (is_a(m, &nn_parameter_list_class)) {
        nn_object *size = nn_dict_get_str(m->attrs, "_size");
        return size && nn_is_int(size) ? nn_int_value(size) : 0;
    }
    if (is_a(m, &nn_parameter_dict_class)) {
        nn_object *keys = pdict_keys(m);
        return keys ? (int64_t)nn_dict_len(keys) : -1;
    }
    if (is_container(m)) return (int64_t)nn_dict_len(m->modules);
    return nn_error_set(NN_ERR_TYPE, "object of type '%s' has no len()", nn_module_name(m));
}

nn_object *nn_container_iter(nn_module *m)
{
    if (is_a(m, &nn_sequential_class) || is_a(m, &nn_module_list_class)) return dict_list(m->modules, VALUES);
    if (is_a(m, &nn_module_dict_class)) return dict_list(m->modules, KEYS);
    if (is_a(m, &nn_parameter_list_class)) return parameter_list_values(m);
    if (is_a(m, &nn_parameter_dict_class)) {
        nn_object *keys = pdict_keys(m);
        return keys ? dict_list(keys, KEYS) : NULL;
    }
    nn_error_set(NN_ERR_TYPE, "'%s' object is not iterable", nn_module_name(m));
    return NULL;
}

/* Binds forward(self, <param>) / __call__(self, <param>) as Python does: keyword
   arguments in order, then the positional count. *out borrowed. */
static int bind_one(const char *func, const char *param, nn_object *args, nn_object *kwargs, nn_object **out)
{
    size_t nargs = args ? nn_tuple_len(args) : 0;
    nn_object *value = nargs ? nn_tuple_get(args, 0) : NULL;
    size_t pos = 0;
    nn_object *k, *v;
    while (kwargs && nn_dict_next(kwargs, &pos, &k, &v)) {
        const char *name = nn_is_str(k) ? nn_str_cstr(k) : "";
        if (strcmp(name, param) != 0)
            return nn_error_set(NN_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", func, name);
        if (nargs) return nn_error_set(NN_ERR_TYPE, "%s() got multiple values for argument '%s'", func, param);
        value = v;
    }
    if (nargs > 1)
        return nn_error_set(NN_ERR_TYPE, "%s() takes 2 positional arguments but %zu were given", func, nargs + 1);
    if (!value) return nn_error_set(NN_ERR_TYPE, "%s() missing 1 required positional argument: '%s'", func, param);
    *out = value;
    return 0;
}

/* Calls a child with one argument: module(x), or any callable; returns a new reference. */
static nn_object *call1(nn_object *callable, nn_object *x)
{
    if (nn_is_none(callable)) {
        nn_error_set(NN_ERR_TYPE, "'NoneType' object is not callable");
        return NULL;
    }
    nn_object *args = nn_tuple_pack(1, x);
    nn_object *out = NULL;
    if (args) out = nn_is_module(callable) ? nn_module_call(NN_MODULE(callable), args, NULL) : nn_call(callable, args, NULL);
    NN_RELEASE(args);
    return out;
}

/* ----------------------------------------------------------- Sequential */

static nn_object *sequential_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    nn_object *input;
    if (bind_one("Sequential.forward", "input", args, kwargs, &input) < 0) return NULL;
    /* `for module in self`: a snapshot, so a hook changing the Sequential cannot pull the dict away */
    nn_object *children = dict_list(self->modules, VALUES);
    if (!children) return NULL;
    nn_object *x = nn_retain(input);
    for (size_t i = 0; x && i < nn_list_len(children); i++) {
        nn_object *y = call1(nn_list_get(children, i), x);
        NN_RELEASE(x);
        x = y;
    }
    NN_RELEASE(children);
    return x;
}

const nn_module_class nn_sequential_class = {.name = "Sequential", .forward = sequential_forward};

nn_module *nn_sequential_new(size_t n, nn_module *const *modules)
{
    nn_module *seq = nn_module_new(&nn_sequential_class);
    for (size_t i = 0; seq && i < n; i++)
        if (add_module_at(seq, (int64_t)i, modules[i] ? &modules[i]->ob : NULL) < 0) NN_SET(seq, NULL);
    return seq;
}

nn_module *nn_sequential_new_from_objects(size_t n, nn_object *const *items)
{
    nn_module *seq = nn_module_new(&nn_sequential_class);
    for (size_t i = 0; seq && i < n; i++)
        if (add_module_at(seq, (int64_t)i, items[i]) < 0) NN_SET(seq, NULL);
    return seq;
}

/* Adds the (str key, module) entries of an ordered dict, as Sequential(OrderedDict). */
static int add_ordered(nn_module *m, nn_object *modules)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(modules, &pos, &k, &v)) {
        if (!nn_is_str(k)) {
            if (!nn_is_none(v) && !nn_is_module(v))
                return nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", typename_of(v));
            return nn_error_set(NN_ERR_TYPE, "module name should be a string. Got %s", typename_of(k));
        }
        if (add_module(m, nn_str_cstr(k), v) < 0) return -1;
    }
    return 0;
}

nn_module *nn_sequential_new_from_dict(nn_object *modules)
{
    if (!nn_is_dict(modules)) {
        nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", typename_of(modules));
        return NULL;
    }
    nn_module *seq = nn_module_new(&nn_sequential_class);
    if (seq && add_ordered(seq, modules) < 0) NN_SET(seq, NULL);
    return seq;
}

static nn_module *same_class(nn_module *m)
{
    nn_module *out = nn_module_new(m->cls);
    if (out && is_a(m, &nn_parameter_list_class)) {
        nn_object *zero = nn_int_new(0);
        if (!zero || nn_dict_set_str(out->attrs, "_size", zero) < 0) NN_SET(out, NULL);
        NN_RELEASE(zero);
    }
    if (out && is_a(m, &nn_parameter_dict_class) && !pdict_keys(out)) NN_SET(out, NULL);
    return out;
}

/* The key of seq's idx-th child (borrowed), idx checked. */
static nn_object *sequential_key(nn_module *seq, int64_t idx)
{
    int64_t i = 0;
    if (abs_index(idx, (int64_t)nn_dict_len(seq->modules), &i) < 0) return NULL;
    nn_object *k, *v;
    dict_entry_at(seq->modules, (size_t)i, &k, &v);
    return k;
}

nn_object *nn_sequential_getitem(nn_module *seq, int64_t idx)
{
    nn_object *key = sequential_key(seq, idx);
    return key ? nn_dict_get(seq->modules, key) : NULL;
}

nn_module *nn_sequential_getslice(nn_module *seq, const nn_slice_spec *slice)
{
    int64_t start, step, count;
    if (nn_slice_spec_indices(slice, (int64_t)nn_dict_len(seq->modules), &start, &step, &count) < 0) return NULL;
    nn_object *items = dict_list(seq->modules, ITEMS);
    nn_module *out = items ? same_class(seq) : NULL;
    for (int64_t i = 0; out && i < count; i++) {
        nn_object *item = nn_list_get(items, (size_t)(start + i * step));
        if (add_module(out, nn_str_cstr(nn_tuple_get(item, 0)), nn_tuple_get(item, 1)) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(items);
    return out;
}

int nn_sequential_setitem(nn_module *seq, int64_t idx, nn_object *module)
{
    nn_object *key = sequential_key(seq, idx);
    return key ? nn_module_setattr(seq, nn_str_cstr(key), module ? module : nn_none()) : -1;
}

int nn_sequential_delitem(nn_module *seq, int64_t idx)
{
    nn_object *key = sequential_key(seq, idx);
    if (!key || nn_dict_del(seq->modules, key) < 0) return -1;
    return renumber(seq);
}

int nn_sequential_delslice(nn_module *seq, const nn_slice_spec *slice)
{
    int64_t start, step, count;
    if (nn_slice_spec_indices(slice, (int64_t)nn_dict_len(seq->modules), &start, &step, &count) < 0) return -1;
    nn_object *keys = dict_list(seq->modules, KEYS);
    int rc = keys ? 0 : -1;
    for (int64_t i = 0; rc == 0 && i < count; i++)
        rc = nn_module_delattr(seq, nn_str_cstr(nn_list_get(keys, (size_t)(start + i * step))));
    NN_RELEASE(keys);
    return rc == 0 ? renumber(seq) : -1;
}

int nn_sequential_append(nn_module *seq, nn_object *module)
{
    return add_module_at(seq, (int64_t)nn_dict_len(seq->modules), module);
}

/* self._modules[str(i)] = self._modules[str(i - 1)] for i from n down to index + 1,
   then self._modules[str(index)] = module (Sequential.insert, ModuleList.insert). */
static int shift_insert(nn_module *m, int64_t index, nn_object *module)
{
    for (int64_t i = (int64_t)nn_dict_len(m->modules); i > index; i--) {
        char from[32], to[32];
        snprintf(from, sizeof from, "%lld", (long long)(i - 1));
        snprintf(to, sizeof to, "%lld", (long long)i);
        nn_object *v = nn_dict_get_str(m->modules, from);
        if (!v) return key_error_str(from);
        if (nn_dict_set_str(m->modules, to, v) < 0) return -1;
    }
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)index);
    return nn_dict_set_str(m->modules, key, module);
}

int nn_sequential_insert(nn_module *seq, int64_t index, nn_object *module)
{
    /* PyTorch raises AssertionError here; core has no such kind, so TypeError */
    if (!nn_is_module(module))
        return nn_error_set(NN_ERR_TYPE, "module should be of type: <class 'torch.nn.modules.module.Module'>");
    int64_t n = (int64_t)nn_dict_len(seq->modules);
    if (index < -n || index > n) return nn_error_set(NN_ERR_INDEX, "Index out of range: %lld", (long long)index);
    if (index < 0) index += n;
    return shift_insert(seq, index, module);
}

int nn_sequential_extend(nn_module *seq, nn_object *iterable)
{
    nn_object *items = iterate(iterable);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) rc = nn_sequential_append(seq, nn_list_get(items, i));
    NN_RELEASE(items);
    return rc;
}

nn_object *nn_sequential_pop(nn_module *seq, int64_t idx)
{
    nn_object *v = nn_retain(nn_sequential_getitem(seq, idx));
    if (v && nn_sequential_delitem(seq, idx) < 0) NN_SET(v, NULL);
    return v;
}

nn_module *nn_sequential_pop_slice(nn_module *seq, const nn_slice_spec *slice)
{
    nn_module *v = nn_sequential_getslice(seq, slice);
    if (v && nn_sequential_delslice(seq, slice) < 0) NN_SET(v, NULL);
    return v;
}

nn_module *nn_sequential_add(nn_module *seq, nn_object *other)
{
    if (!nn_module_is_a(other, &nn_sequential_class)) {
        char cls[160];
        class_repr(other, cls, sizeof cls);
        nn_error_set(NN_ERR_VALUE, "add operator supports only objects of Sequential class, but %s is given.", cls);
        return NULL;
    }
    nn_module *out = nn_module_new(&nn_sequential_class);
    nn_object *a = out ? dict_list(seq->modules, VALUES) : NULL;
    nn_object *b = a ? dict_list(NN_MODULE(other)->modules, VALUES) : NULL;
    if (!b) NN_SET(out, NULL);
    for (size_t i = 0; out && i < nn_list_len(a) + nn_list_len(b); i++) {
        nn_object *v = i < nn_list_len(a) ? nn_list_get(a, i) : nn_list_get(b, i - nn_list_len(a));
        if (nn_sequential_append(out, v) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(a);
    NN_RELEASE(b);
    return out;
}

int nn_sequential_iadd(nn_module *seq, nn_object *other)
{
    if (!nn_module_is_a(other, &nn_sequential_class)) {
        char cls[160];
        class_repr(other, cls, sizeof cls);
        return nn_error_set(NN_ERR_VALUE, "add operator supports only objects of Sequential class, but %s is given.", cls);
    }
    int64_t offset = (int64_t)nn_dict_len(seq->modules);
    nn_object *values = dict_list(NN_MODULE(other)->modules, VALUES);
    int rc = values ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(values); i++)
        rc = add_module_at(seq, (int64_t)i + offset, nn_list_get(values, i));
    NN_RELEASE(values);
    return rc;
}

/* The checks of __mul__/__imul__: *n receives the factor. */
static int mul_factor(nn_module *seq, nn_object *factor, int64_t *n)
{
    char self_cls[160], other_cls[160];
    class_repr(&seq->ob, self_cls, sizeof self_cls);
    if (!nn_is_int(factor) && !nn_is_bool(factor)) {
        class_repr(factor, other_cls, sizeof other_cls);
        return nn_error_set(NN_ERR_TYPE, "unsupported operand type(s) for *: %s and %s", self_cls, other_cls);
    }
    *n = nn_int_value(factor);
    if (*n <= 0) return nn_error_set(NN_ERR_VALUE, "Non-positive multiplication factor %lld for %s", (long long)*n, self_cls);
    return 0;
}

nn_module *nn_sequential_mul(nn_module *seq, nn_object *factor)
{
    int64_t n;
    if (mul_factor(seq, factor, &n) < 0) return NULL;
    nn_object *values = dict_list(seq->modules, VALUES);
    nn_module *out = values ? nn_module_new(&nn_sequential_class) : NULL;
    int64_t offset = 0;
    for (int64_t r = 0; out && r < n; r++)
        for (size_t i = 0; out && i < nn_list_len(values); i++)
            if (add_module_at(out, offset++, nn_list_get(values, i)) < 0) NN_SET(out, NULL);
    NN_RELEASE(values);
    return out;
}

int nn_sequential_imul(nn_module *seq, nn_object *factor)
{
    int64_t n;
    if (mul_factor(seq, factor, &n) < 0) return -1;
    int64_t len = (int64_t)nn_dict_len(seq->modules), offset = len;
    for (int64_t r = 0; r < n - 1; r++) {
        for (int64_t i = 0; i < len; i++) {
            char key[32];
            snprintf(key, sizeof key, "%lld", (long long)i);
            nn_object *v = nn_dict_get_str(seq->modules, key);
            if (!v) return key_error_str(key);
            if (add_module_at(seq, i + offset, v) < 0) return -1;
        }
        offset += len;
    }
    return 0;
}

/* ------------------------------------------------------------ ModuleList */

/* No forward: calling one is Module's NotImplementedError
   'Module [ModuleList] is missing the required "forward" function'. */
const nn_module_class nn_module_list_class = {.name = "ModuleList"};

int nn_module_list_extend(nn_module *ml, nn_object *modules)
{
    if (!is_iterable(modules))
        return nn_error_set(NN_ERR_TYPE, "ModuleList.extend should be called with an iterable, but got %s",
                            type_name(modules));
    nn_object *items = iterate(modules);
    int64_t offset = (int64_t)nn_dict_len(ml->modules);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) rc = add_module_at(ml, offset + (int64_t)i, nn_list_get(items, i));
    NN_RELEASE(items);
    return rc;
}

nn_module *nn_module_list_new(nn_object *modules)
{
    nn_module *ml = nn_module_new(&nn_module_list_class);
    if (ml && !nn_is_none(modules) && nn_module_list_extend(ml, modules) < 0) NN_SET(ml, NULL);
    return ml;
}

/* str(abs index) of ml's idx-th child into key. */
static int list_key(nn_module *ml, int64_t idx, char *key, size_t n)
{
    int64_t i = 0;
    if (abs_index(idx, (int64_t)nn_dict_len(ml->modules), &i) < 0) return -1;
    snprintf(key, n, "%lld", (long long)i);
    return 0;
}

nn_object *nn_module_list_getitem(nn_module *ml, int64_t idx)
{
    char key[32];
    if (list_key(ml, idx, key, sizeof key) < 0) return NULL;
    nn_object *v = nn_dict_get_str(ml->modules, key);
    if (!v) key_error_str(key);
    return v;
}

nn_module *nn_module_list_getslice(nn_module *ml, const nn_slice_spec *slice)
{
    int64_t start, step, count;
    if (nn_slice_spec_indices(slice, (int64_t)nn_dict_len(ml->modules), &start, &step, &count) < 0) return NULL;
    nn_object *values = dict_list(ml->modules, VALUES);
    nn_module *out = values ? same_class(ml) : NULL;
    for (int64_t i = 0; out && i < count; i++)
        if (add_module_at(out, i, nn_list_get(values, (size_t)(start + i * step))) < 0) NN_SET(out, NULL);
    NN_RELEASE(values);
    return out;
}

int nn_module_list_setitem(nn_module *ml, int64_t idx, nn_object *module)
{
    char key[32];
    if (list_key(ml, idx, key, sizeof key) < 0) return -1;
    return nn_module_setattr(ml, key, module ? module : nn_none());
}

int nn_module_list_delitem(nn_module *ml, int64_t idx)
{
    char key[32];
    if (list_key(ml, idx, key, sizeof key) < 0 || nn_module_delattr(ml, key) < 0) return -1;
    return renumber(ml);
}

int nn_module_list_delslice(nn_module *ml, const nn_slice_spec *slice)
{
    int64_t start, step, count;
    if (nn_slice_spec_indices(slice, (int64_t)nn_dict_len(ml->modules), &start, &step, &count) < 0) return -1;
    for (int64_t i = 0; i < count; i++) {
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)(start + i * step));
        if (nn_module_delattr(ml, key) < 0) return -1;
    }
    return renumber(ml);
}

int nn_module_list_append(nn_module *ml, nn_object *module)
{
    return add_module_at(ml, (int64_t)nn_dict_len(ml->modules), module);
}

int nn_module_list_insert(nn_module *ml, int64_t index, nn_object *module)
{
    /* PyTorch stores any object here; core's traversal needs modules, so it is checked */
    if (!nn_is_none(module) && !nn_is_module(module))
        return nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", typename_of(module));
    return shift_insert(ml, index, module);
}

nn_object *nn_module_list_pop(nn_module *ml, int64_t idx)
{
    nn_object *v = nn_retain(nn_module_list_getitem(ml, idx));
    if (v && nn_module_list_delitem(ml, idx) < 0) NN_SET(v, NULL);
    return v;
}

nn_module *nn_module_list_pop_slice(nn_module *ml, const nn_slice_spec *slice)
{
    nn_module *v = nn_module_list_getslice(ml, slice);
    if (v && nn_module_list_delslice(ml, slice) < 0) NN_SET(v, NULL);
    return v;
}

nn_module *nn_module_list_add(nn_module *ml, nn_object *other)
{
    nn_module *out = nn_module_new(&nn_module_list_class);
    nn_object *a = out ? dict_list(ml->modules, VALUES) : NULL;
    nn_object *b = a ? iterate(other) : NULL;
    if (!b) NN_SET(out, NULL);
    for (size_t i = 0; out && i < nn_list_len(a) + nn_list_len(b); i++) {
        nn_object *v = i < nn_list_len(a) ? nn_list_get(a, i) : nn_list_get(b, i - nn_list_len(a));
        if (add_module_at(out, (int64_t)i, v) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(a);
    NN_RELEASE(b);
    return out;
}

/* ------------------------------------------------------------ ModuleDict */

const nn_module_class nn_module_dict_class = {.name = "ModuleDict"};

/* update() of ModuleDict and ParameterDict: a mapping's items in order (sorted by key
   for ParameterDict's plain dicts), or a sequence of pairs. set(m, key, value). */
typedef int (*set_item_fn)(nn_module *m, nn_object *key, nn_object *value);

static int update_from_pairs(nn_module *m, const char *what, nn_object *seq, set_item_fn set)
{
    nn_object *items = iterate(seq);
    int rc = items ? 0 : -1;
    for (size_t j = 0; rc == 0 && j < nn_list_len(items); j++) {
        nn_object *p = nn_list_get(items, j);
        if (!is_iterable(p)) {
            rc = nn_error_set(NN_ERR_TYPE, "%s update sequence element #%zu should be Iterable; is%s", what, j, type_name(p));
            break;
        }
        nn_object *pair = iterate(p);
        if (!pair) {
            rc = -1;
        } else if (nn_list_len(pair) != 2) {
            rc = nn_error_set(NN_ERR_VALUE, "%s update sequence element #%zu has length %zu; 2 is required", what, j,
                              nn_list_len(pair));
        } else {
            rc = set(m, nn_list_get(pair, 0), nn_list_get(pair, 1));
        }
        NN_RELEASE(pair);
    }
    NN_RELEASE(items);
    return rc;
}

static int module_dict_set(nn_module *md, nn_object *key, nn_object *module)
{
    if (!nn_is_none(module) && !nn_is_module(module))
        return nn_error_set(NN_ERR_TYPE, "%s is not a Module subclass", typename_of(module));
    if (!nn_is_str(key)) return nn_error_set(NN_ERR_TYPE, "module name should be a string. Got %s", typename_of(key));
    return add_module(md, nn_str_cstr(key), module);
}

int nn_module_dict_update(nn_module *md, nn_object *modules)
{
    if (!is_iterable(modules))
        return nn_error_set(NN_ERR_TYPE, "ModuleDict.update should be called with an iterable of key/value pairs, but got %s",
                            type_name(modules));
    nn_object *src = nn_is_dict(modules) ? modules : nn_module_is_a(modules, &nn_module_dict_class) ? NN_MODULE(modules)->modules : NULL;
    if (!src) return update_from_pairs(md, "ModuleDict", modules, module_dict_set);
    nn_object *items = dict_list(src, ITEMS);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) {
        nn_object *item = nn_list_get(items, i);
        rc = module_dict_set(md, nn_tuple_get(item, 0), nn_tuple_get(item, 1));
    }
    NN_RELEASE(items);
    return rc;
}

nn_module *nn_module_dict_new(nn_object *modules)
{
    nn_module *md = nn_module_new(&nn_module_dict_class);
    if (md && !nn_is_none(modules) && nn_module_dict_update(md, modules) < 0) NN_SET(md, NULL);
    return md;
}

nn_object *nn_module_dict_getitem(nn_module *md, const char *key)
{
    nn_object *v = nn_dict_get_str(md->modules, key);
    if (!v) key_error_str(key);
    return v;
}

int nn_module_dict_setitem(nn_module *md, const char *key, nn_object *module) { return add_module(md, key, module); }

int nn_module_dict_delitem(nn_module *md, const char *key) { return nn_dict_del_str(md->modules, key); }

bool nn_module_dict_contains(nn_module *md, const char *key) { return nn_dict_get_str(md->modules, key) != NULL; }

nn_object *nn_module_dict_pop(nn_module *md, const char *key)
{
    nn_object *v = nn_retain(nn_module_dict_getitem(md, key));
    if (v && nn_module_dict_delitem(md, key) < 0) NN_SET(v, NULL);
    return v;
}

void nn_module_dict_clear(nn_module *md) { nn_dict_clear(md->modules); }

nn_object *nn_module_dict_keys(nn_module *md) { return dict_list(md->modules, KEYS); }
nn_object *nn_module_dict_values(nn_module *md) { return dict_list(md->modules, VALUES); }
nn_object *nn_module_dict_items(nn_module *md) { return dict_list(md->modules, ITEMS); }

/* --------------------------------------------------------- ParameterList */

/* "[torch.float32 of size 2x3]"-style description of one item, as the extra_repr
   of ParameterList (dtype) and ParameterDict (torch.typename) write it. */
static void describe_item(nn_text *b, const char *key, nn_object *value, bool use_typename)
{
    if (nn_is_tensor(value)) {
        nn_tensor *t = NN_TENSOR(value);
        nn_text_printf(b, "  (%s): %s containing: [%s of size ", key, nn_is_parameter(value) ? "Parameter" : "Tensor",
               use_typename ? typename_of(value) : nn_dtype_name(t->dtype));
        for (int d = 0; d < t->ndim; d++) nn_text_printf(b, "%s%lld", d ? "x" : "", (long long)t->sizes[d]);
        nn_text_printf(b, "]");
    } else {
        nn_text_printf(b, "  (%s): Object of type: %s", key, type_name(value));
    }
}

static int64_t plist_size(nn_module *pl)
{
    nn_object *size = nn_dict_get_str(pl->attrs, "_size");
    return size && nn_is_int(size) ? nn_int_value(size) : 0;
}

static int plist_set_size(nn_module *pl, int64_t n)
{
    nn_object *v = nn_int_new(n);
    int rc = v ? nn_dict_set_str(pl->attrs, "_size", v) : -1;
    NN_RELEASE(v);
    return rc;
}

static char *parameter_list_extra_repr(nn_module *self)
{
    nn_text b = {0};
    int64_t n = plist_size(self);
    for (int64_t i = 0; i < n; i++) {
        nn_object *v = nn_parameter_list_getitem(self, i);
        if (!v) {
            nn_free(nn_text_finish(&b));
            return NULL;
        }
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)i);
        if (i) nn_text_printf(&b, "\n");
        describe_item(&b, key, v, false);
    }
    return nn_text_finish(&b);
}

static nn_object *parameter_list_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    /* PyTorch overrides __call__ itself, so there no hook runs first */
    nn_error_set(NN_ERR_RUNTIME, "ParameterList should not be called.");
    return NULL;
}

const nn_module_class nn_parameter_list_class = {
    .name = "ParameterList", .forward = parameter_list_forward, .extra_repr = parameter_list_extra_repr};

nn_module *nn_parameter_list_new(nn_object *values)
{
    nn_module *pl = nn_module_new(&nn_parameter_list_class);
    if (pl && plist_set_size(pl, 0) < 0) NN_SET(pl, NULL);
    if (pl && !nn_is_none(values) && nn_parameter_list_extend(pl, values) < 0) NN_SET(pl, NULL);
    return pl;
}

nn_object *nn_parameter_list_getitem(nn_module *pl, int64_t idx)
{
    int64_t i = 0;
    if (abs_index(idx, plist_size(pl), &i) < 0) return NULL;
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)i);
    return nn_module_getattr(pl, key);
}

static nn_object *parameter_list_values(nn_module *pl)
{
    int64_t n = plist_size(pl);
    nn_object *out = nn_list_new((size_t)n);
    for (int64_t i = 0; out && i < n; i++) {
        nn_object *v = nn_parameter_list_getitem(pl, i);
        if (!v || nn_list_append(out, v) < 0) NN_SET(out, NULL);
    }
    return out;
}

nn_module *nn_parameter_list_getslice(nn_module *pl, const nn_slice_spec *slice)
{
    int64_t start, step, count;
    if (nn_slice_spec_indices(slice, plist_size(pl), &start, &step, &count) < 0) return NULL;
    nn_module *out = same_class(pl);
    for (int64_t i = 0; out && i < count; i++) {
        nn_object *v = nn_parameter_list_getitem(pl, start + i * step);
        if (!v || nn_parameter_list_append(out, v) < 0) NN_SET(out, NULL);
    }
    return out;
}

int nn_parameter_list_setitem(nn_module *pl, int64_t idx, nn_object *value)
{
    int64_t i = 0;
    if (abs_index(idx, plist_size(pl), &i) < 0) return -1;
    nn_object *param = as_parameter(value);
    if (!param) return -1;
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)i);
    int rc = set_attr(pl, key, param);
    NN_RELEASE(param);
    return rc;
}

int nn_parameter_list_append(nn_module *pl, nn_object *value)
{
    int64_t n = plist_size(pl);
    if (plist_set_size(pl, n + 1) < 0) return -1;
    return nn_parameter_list_setitem(pl, n, value);
}

int nn_parameter_list_extend(nn_module *pl, nn_object *values)
{
    if (!is_iterable(values) || nn_is_tensor(values))
        return nn_error_set(NN_ERR_TYPE, "ParameterList.extend should be called with an iterable, but got %s",
                            type_name(values));
    nn_object *items = iterate(values);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) rc = nn_parameter_list_append(pl, nn_list_get(items, i));
    NN_RELEASE(items);
    return rc;
}

/* --------------------------------------------------------- ParameterDict */

/* The `_keys` dict (keys in order, values None), made when missing (a subclass
   that did not run ParameterDict's __init__); borrowed, NULL on failure. */
static nn_object *pdict_keys(nn_module *pd)
{
    nn_object *keys = nn_dict_get_str(pd->attrs, "_keys");
    if (keys && nn_is_dict(keys)) return keys;
    keys = nn_dict_new();
    int rc = keys ? nn_dict_set_str(pd->attrs, "_keys", keys) : -1;
    NN_RELEASE(keys);
    return rc == 0 ? nn_dict_get_str(pd->attrs, "_keys") : NULL;
}

/* _key_to_attr: keys must be str. */
static int check_pdict_key(nn_object *key)
{
    if (nn_is_str(key)) return 0;
    return nn_error_set(NN_ERR_TYPE,
                        "Index given to ParameterDict cannot be used as a key as it is not a string (type is '%s'). "
                        "Open an issue on github if you need non-string keys.",
                        type_name(key));
}

/* pd[key] = value with an object key: _keys gets the key first (as in PyTorch). */
static int pdict_set(nn_module *pd, nn_object *key, nn_object *value)
{
    nn_object *keys = pdict_keys(pd);
    if (!keys || nn_dict_set(keys, key, NULL) < 0 || check_pdict_key(key) < 0) return -1;
    nn_object *param = as_parameter(value);
    if (!param) return -1;
    int rc = set_attr(pd, nn_str_cstr(key), param);
    NN_RELEASE(param);
    return rc;
}

static int pdict_del(nn_module *pd, nn_object *key)
{
    nn_object *keys = pdict_keys(pd);
    if (!keys || nn_dict_del(keys, key) < 0 || check_pdict_key(key) < 0) return -1;
    return nn_module_delattr(pd, nn_str_cstr(key));
}

static char *parameter_dict_extra_repr(nn_module *self)
{
    nn_object *keys = pdict_keys(self);
    if (!keys) return NULL;
    nn_text b = {0};
    size_t pos = 0, i = 0;
    nn_object *k, *unused;
    while (!b.failed && nn_dict_next(keys, &pos, &k, &unused)) {
        nn_object *v = check_pdict_key(k) == 0 ? nn_module_getattr(self, nn_str_cstr(k)) : NULL;
        if (!v) {
            b.failed = true;
            break;
        }
        if (i++) nn_text_printf(&b, "\n");
        describe_item(&b, nn_str_cstr(k), v, true);
    }
    return nn_text_finish(&b);
}

static nn_object *parameter_dict_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    nn_object *input;
    if (bind_one("ParameterDict.__call__", "input", args, kwargs, &input) < 0) return NULL;
    nn_error_set(NN_ERR_RUNTIME, "ParameterDict should not be called.");
    return NULL;
}

const nn_module_class nn_parameter_dict_class = {
    .name = "ParameterDict", .forward = parameter_dict_forward, .extra_repr = parameter_dict_extra_repr};

static int by_key(const void *a, const void *b)
{
    nn_object *x = nn_tuple_get(*(nn_object *const *)a, 0), *y = nn_tuple_get(*(nn_object *const *)b, 0);
    if (!nn_is_str(x) || !nn_is_str(y)) return 0;
    return strcmp(nn_str_cstr(x), nn_str_cstr(y));
}

int nn_parameter_dict_update(nn_module *pd, nn_object *values, bool ordered)
{
    if (!is_iterable(values))
        return nn_error_set(NN_ERR_TYPE, "ParametersDict.update should be called with an iterable of key/value pairs, "
                                         "but got %s", type_name(values));
    nn_object *items = NULL;
    if (nn_module_is_a(values, &nn_parameter_dict_class)) {
        items = nn_parameter_dict_items(NN_MODULE(values));
    } else if (nn_is_dict(values)) {
        items = dict_list(values, ITEMS);
        size_t n = items ? nn_list_len(items) : 0;
        if (items && !ordered && !nn_dict_is_ordered(values) && n > 1) { /* sorted(parameters.items()) */
            nn_object **a = nn_malloc(n * sizeof *a);
            if (!a) {
                NN_RELEASE(items);
                return -1;
            }
            for (size_t i = 0; i < n; i++) a[i] = nn_retain(nn_list_get(items, i));
            qsort(a, n, sizeof *a, by_key);
            for (size_t i = 0; i < n; i++) nn_list_set(items, i, a[i]);
            nn_free(a);
        }
    } else {
        return update_from_pairs(pd, "ParameterDict", values, pdict_set);
    }
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) {
        nn_object *item = nn_list_get(items, i);
        rc = pdict_set(pd, nn_tuple_get(item, 0), nn_tuple_get(item, 1));
    }
    NN_RELEASE(items);
    return rc;
}

nn_module *nn_parameter_dict_new(nn_object *values, bool ordered)
{
    nn_module *pd = nn_module_new(&nn_parameter_dict_class);
    if (pd && !pdict_keys(pd)) NN_SET(pd, NULL);
    if (pd && !nn_is_none(values) && nn_parameter_dict_update(pd, values, ordered) < 0) NN_SET(pd, NULL);
    return pd;
}

nn_object *nn_parameter_dict_getitem(nn_module *pd, const char *key) { return nn_module_getattr(pd, key); }

int nn_parameter_dict_setitem(nn_module *pd, const char *key, nn_object *value)
{
    nn_object *k = nn_str_new(key);
    int rc = k ? pdict_set(pd, k, value) : -1;
    NN_RELEASE(k);
    return rc;
}

int nn_parameter_dict_delitem(nn_module *pd, const char *key)
{
    nn_object *k = nn_str_new(key);
    int rc = k ? pdict_del(pd, k) : -1;
    NN_RELEASE(k);
    return rc;
}

bool nn_parameter_dict_contains(nn_module *pd, const char *key)
{
    nn_object *keys = pdict_keys(pd);
    return keys && nn_dict_get_str(keys, key) != NULL;
}

nn_object *nn_parameter_dict_pop(nn_module *pd, const char *key)
{
    nn_object *v = nn_retain(nn_parameter_dict_getitem(pd, key));
    if (v && nn_parameter_dict_delitem(pd, key) < 0) NN_SET(v, NULL);
    return v;
}

nn_object *nn_parameter_dict_get(nn_module *pd, const char *key, nn_object *dflt)
{
    if (!nn_parameter_dict_contains(pd, key)) return nn_retain(dflt ? dflt : nn_none());
    return nn_retain(nn_parameter_dict_getitem(pd, key));
}

nn_object *nn_parameter_dict_setdefault(nn_module *pd, const char *key, nn_object *dflt)
{
    if (!nn_parameter_dict_contains(pd, key) && nn_parameter_dict_setitem(pd, key, dflt) < 0) return NULL;
    return nn_retain(nn_parameter_dict_getitem(pd, key));
}

nn_object *nn_parameter_dict_popitem(nn_module *pd)
{
    nn_object *keys = pdict_keys(pd);
    if (!keys) return NULL;
    if (!nn_dict_len(keys)) {
        nn_error_set(NN_ERR_KEY, "popitem(): dictionary is empty");
        return NULL;
    }
    nn_object *k, *unused;
    dict_entry_at(keys, nn_dict_len(keys) - 1, &k, &unused);
    k = nn_retain(k);
    nn_object *v = check_pdict_key(k) == 0 ? nn_retain(nn_module_getattr(pd, nn_str_cstr(k))) : NULL;
    nn_object *out = v && pdict_del(pd, k) == 0 ? nn_tuple_pack(2, k, v) : NULL;
    NN_RELEASE(k);
    NN_RELEASE(v);
    return out;
}

int nn_parameter_dict_clear(nn_module *pd)
{
    nn_object *keys = pdict_keys(pd);
    nn_object *copy = keys ? dict_list(keys, KEYS) : NULL;
    int rc = copy ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nn_list_len(copy); i++) rc = pdict_del(pd, nn_list_get(copy, i));
    NN_RELEASE(copy);
    return rc;
}

nn_object *nn_parameter_dict_keys(nn_module *pd)
{
    nn_object *keys = pdict_keys(pd);
    return keys ? dict_list(keys, KEYS) : NULL;
}

/* values() or items() (pairs) in _keys order. */
static nn_object *pdict_list(nn_module *pd, bool pairs)
{
    nn_object *keys = pdict_keys(pd);
    nn_object *out = keys ? nn_list_new(nn_dict_len(keys)) : NULL;
    size_t pos = 0;
    nn_object *k, *unused;
    while (out && nn_dict_next(keys, &pos, &k, &unused)) {
        nn_object *v = check_pdict_key(k) == 0 ? nn_module_getattr(pd, nn_str_cstr(k)) : NULL;
        nn_object *item = !v ? NULL : pairs ? nn_tuple_pack(2, k, v) : nn_retain(v);
        if (!item || nn_list_append(out, item) < 0) NN_SET(out, NULL);
        NN_RELEASE(item);
    }
    return out;
}

nn_object *nn_parameter_dict_values(nn_module *pd) { return pdict_list(pd, false); }
nn_object *nn_parameter_dict_items(nn_module *pd) { return pdict_list(pd, true); }

nn_module *nn_parameter_dict_copy(nn_module *pd)
{
    nn_object *items = nn_parameter_dict_items(pd);
    nn_module *out = items ? nn_parameter_dict_new(NULL, true) : NULL;
    for (size_t i = 0; out && i < nn_list_len(items); i++) {
        nn_object *item = nn_list_get(items, i);
        if (pdict_set(out, nn_tuple_get(item, 0), nn_tuple_get(item, 1)) < 0) NN_SET(out, NULL);
    }
    NN_RELEASE(items);
    return out;
}

nn_module *nn_parameter_dict_fromkeys(nn_object *keys, nn_object *dflt)
{
    nn_object *items = iterate(keys);
    nn_module *out = items ? nn_parameter_dict_new(NULL, true) : NULL;
    for (size_t i = 0; out && i < nn_list_len(items); i++)
        if (pdict_set(out, nn_list_get(items, i), dflt) < 0) NN_SET(out, NULL);
    NN_RELEASE(items);
    return out;
}

nn_module *nn_parameter_dict_or(nn_module *pd, nn_module *other)
{
    nn_module *out = nn_parameter_dict_copy(pd);
    if (out && nn_parameter_dict_update(out, &other->ob, true) < 0) NN_SET(out, NULL);
    return out;
}

/* ------------------------------------------------------ the object protocol */

/* operator.index(key) for the list-like containers. */
static int index_of(nn_object *key, int64_t *out)
{
    if (!nn_is_int(key) && !nn_is_bool(key))
        return nn_error_set(NN_ERR_TYPE, "'%s' object cannot be interpreted as an integer", type_name(key));
    *out = nn_int_value(key);
    return 0;
}

nn_object *nn_container_getitem(nn_module *m, nn_object *key)
{
    int64_t i = 0;
    nn_object *v = NULL;
    if (is_a(m, &nn_sequential_class)) {
        if (index_of(key, &i) == 0) v = nn_sequential_getitem(m, i);
    } else if (is_a(m, &nn_module_list_class)) {
        if (index_of(key, &i) == 0) v = nn_module_list_getitem(m, i);
    } else if (is_a(m, &nn_parameter_list_class)) {
        if (index_of(key, &i) == 0) v = nn_parameter_list_getitem(m, i);
    } else if (is_a(m, &nn_module_dict_class)) {
        if (nn_hash(key) >= 0 && !(v = nn_dict_get(m->modules, key))) key_error(key);
    } else if (is_a(m, &nn_parameter_dict_class)) {
        if (check_pdict_key(key) == 0) v = nn_parameter_dict_getitem(m, nn_str_cstr(key));
    } else {
        nn_error_set(NN_ERR_TYPE, "'%s' object is not subscriptable", nn_module_name(m));
    }
    return nn_retain(v);
}

int nn_container_setitem(nn_module *m, nn_object *key, nn_object *value)
{
    int64_t i = 0;
    if (is_a(m, &nn_sequential_class)) return index_of(key, &i) < 0 ? -1 : nn_sequential_setitem(m, i, value);
    if (is_a(m, &nn_module_list_class)) return index_of(key, &i) < 0 ? -1 : nn_module_list_setitem(m, i, value);
    if (is_a(m, &nn_parameter_list_class)) return index_of(key, &i) < 0 ? -1 : nn_parameter_list_setitem(m, i, value);
    if (is_a(m, &nn_module_dict_class)) return module_dict_set(m, key, value);
    if (is_a(m, &nn_parameter_dict_class)) return pdict_set(m, key, value);
    return nn_error_set(NN_ERR_TYPE, "'%s' object does not support item assignment", nn_module_name(m));
}

int nn_container_delitem(nn_module *m, nn_object *key)
{
    int64_t i = 0;
    if (is_a(m, &nn_sequential_class)) return index_of(key, &i) < 0 ? -1 : nn_sequential_delitem(m, i);
    if (is_a(m, &nn_module_list_class)) return index_of(key, &i) < 0 ? -1 : nn_module_list_delitem(m, i);
    if (is_a(m, &nn_module_dict_class)) return nn_dict_del(m->modules, key);
    if (is_a(m, &nn_parameter_dict_class)) return pdict_del(m, key);
    /* ParameterList has __setitem__ but no __delitem__: Python's slot looks the latter up */
    if (is_a(m, &nn_parameter_list_class)) return nn_error_set(NN_ERR_ATTRIBUTE, "__delitem__");
    return nn_error_set(NN_ERR_TYPE, "'%s' object doesn't support item deletion", nn_module_name(m));
}

int nn_container_contains(nn_module *m, nn_object *key)
{
    if (is_a(m, &nn_module_dict_class) || is_a(m, &nn_parameter_dict_class)) {
        nn_object *keys = is_a(m, &nn_module_dict_class) ? m->modules : pdict_keys(m);
        if (!keys || nn_hash(key) < 0) return -1;
        return nn_dict_get(keys, key) != NULL;
    }
    if (!is_container(m)) return nn_error_set(NN_ERR_TYPE, "argument of type '%s' is not iterable", nn_module_name(m));
    /* `in` over the items: identity, or == for values that are not tensors */
    nn_object *items = nn_container_iter(m);
    if (!items) return -1;
    int found = 0;
    for (size_t i = 0; !found && i < nn_list_len(items); i++) {
        nn_object *item = nn_list_get(items, i);
        if (item == key || (nn_is_none(item) && nn_is_none(key))) found = 1;
        else if (!nn_is_tensor(item) && !nn_is_tensor(key)) found = nn_equal(item, key);
    }
    NN_RELEASE(items);
    return found;
}

/* ----------------------------------------------------------- FeedForward */

/* labml.ai's FeedForward.forward(x): the attributes are looked up at each call, so
   replacing ff.activation (or any layer) takes effect as in Python. */
static nn_object *feed_forward_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    nn_object *x;
    if (bind_one("FeedForward.forward", "x", args, kwargs, &x) < 0) return NULL;
    nn_object *activation = nn_module_getattr(self, "activation");
    nn_object *layer1 = activation ? nn_module_getattr(self, "layer1") : NULL;
    nn_object *h1 = layer1 ? call1(layer1, x) : NULL;
    nn_object *g = h1 ? call1(activation, h1) : NULL; /* g = activation(layer1(x)) */
    NN_RELEASE(h1);
    nn_object *gated = g ? nn_module_getattr(self, "is_gated") : NULL;
    nn_object *h = NULL;
    if (gated && nn_is_true(gated)) { /* x = g * linear_v(x) */
        nn_object *linear_v = nn_module_getattr(self, "linear_v");
        nn_object *v = linear_v ? call1(linear_v, x) : NULL;
        if (v && (!nn_is_tensor(g) || !nn_is_tensor(v)))
            nn_error_set(NN_ERR_TYPE, "unsupported operand type(s) for *: '%s' and '%s'", type_name(g), type_name(v));
        else if (v)
            h = (nn_object *)nn_mul(NN_TENSOR(g), NN_TENSOR(v));
        NN_RELEASE(v);
    } else if (gated) { /* x = g */
        h = nn_retain(g);
    }
    NN_RELEASE(g);
    nn_object *dropout = h ? nn_module_getattr(self, "dropout") : NULL;
    nn_object *d = dropout ? call1(dropout, h) : NULL;
    NN_RELEASE(h);
    nn_object *layer2 = d ? nn_module_getattr(self, "layer2") : NULL;
    nn_object *out = layer2 ? call1(layer2, d) : NULL;
    NN_RELEASE(d);
    return out;
}

const nn_module_class nn_feed_forward_class = {.name = "FeedForward", .forward = feed_forward_forward};

void nn_feed_forward_options_default(nn_feed_forward_options *o)
{
    *o = (nn_feed_forward_options){.dropout = 0.1, .activation = NULL, .is_gated = false,
                                   .bias1 = true, .bias2 = true, .bias_gate = true};
}

/* The seed's default argument activation=nn.ReLU() is evaluated once, so every
   FeedForward made without an activation shares one ReLU (named_modules lists it
   once in a stack of them). Made on first use, kept for the process; borrowed. */
static nn_module *default_activation(void)
{
    static nn_module *relu;
    if (!relu) relu = nn_relu_new(false);
    return relu;
}

/* self.<name> = module; takes the module reference (NULL: fails). */
static int set_child(nn_module *m, const char *name, nn_module *child)
{
    if (!child) return -1;
    int rc = nn_module_setattr(m, name, &child->ob);
    NN_RELEASE(child);
    return rc;
}

nn_module *nn_feed_forward_new(int64_t d_model, int64_t d_ff, const nn_feed_forward_options *o)
{
    nn_feed_forward_options defaults;
    if (!o) {
        nn_feed_forward_options_default(&defaults);
        o = &defaults;
    }
    nn_module *ff = nn_module_new(&nn_feed_forward_class);
    if (!ff) return NULL;
    /* the seed's __init__ order: it fixes the children's order and the random stream */
    int rc = set_child(ff, "layer1", nn_linear_new(d_model, d_ff, o->bias1, nn_default_dtype()));
    if (rc == 0) rc = set_child(ff, "layer2", nn_linear_new(d_ff, d_model, o->bias2, nn_default_dtype()));
    if (rc == 0) rc = set_child(ff, "dropout", nn_dropout_new(o->dropout, false));
    if (rc == 0) {
        nn_object *activation = o->activation ? o->activation : (nn_object *)default_activation();
        rc = activation ? nn_module_setattr(ff, "activation", activation) : -1;
    }
    nn_object *gated = rc == 0 ? nn_bool_new(o->is_gated) : NULL;
    rc = gated ? nn_module_setattr(ff, "is_gated", gated) : -1;
    NN_RELEASE(gated);
    if (rc == 0 && o->is_gated) rc = set_child(ff, "linear_v", nn_linear_new(d_model, d_ff, o->bias_gate, nn_default_dtype()));
    if (rc < 0) NN_SET(ff, NULL);
    return ff;
}
