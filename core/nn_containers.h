/*
 * nn_containers.h — torch.nn's containers (containers.c): Sequential, ModuleList,
 * ModuleDict, ParameterList, ParameterDict with PyTorch 1.13's keys, re-numbering,
 * reprs and messages, plus the labml FeedForward block built from them.
 * Included by nn.h.
 *
 * Each container is an nn_module of one of the classes below; its items live in the
 * module's own dicts (modules for Sequential/ModuleList/ModuleDict; parameters,
 * modules or attrs for ParameterList/ParameterDict, as Module.__setattr__ puts them),
 * so traversal, state_dict and repr are Module's. Functions taking `nn_object *`
 * values accept what the language passes and raise PyTorch's TypeError for the rest
 * ("int is not a Module subclass"). Index arguments are Python ints (negatives count
 * from the end); lists returned are new list references.
 */
#ifndef NN_CONTAINERS_H
#define NN_CONTAINERS_H

extern const nn_module_class nn_sequential_class, nn_module_list_class, nn_module_dict_class,
    nn_parameter_list_class, nn_parameter_dict_class, nn_feed_forward_class;

/* isinstance(o, cls) for a module class: o is a module whose class is cls or derives
   from it through `base` (classes written in the language). */
bool nn_module_is_a(const nn_object *o, const nn_module_class *cls);

/* A Python slice start:stop:step, each part optional. */
typedef struct nn_slice_spec {
    int64_t start, stop, step;
    bool has_start, has_stop, has_step;
} nn_slice_spec;
/* slice.indices(len): the normalized start and step and the number of items; -1 with
   ValueError "slice step cannot be zero". */
int nn_slice_spec_indices(const nn_slice_spec *s, int64_t len, int64_t *start, int64_t *step, int64_t *count);

/* ---- protocol shared by the containers (what the language's len/iter/[]/in call).
   Non-containers give Python's TypeError ("object of type 'Linear' has no len()"). */
/* len(m); -1 with an error. */
int64_t nn_container_len(nn_module *m);
/* list(m): modules of a Sequential/ModuleList, keys of a ModuleDict/ParameterDict,
   values of a ParameterList; new list reference. */
nn_object *nn_container_iter(nn_module *m);
/* m[key] for an int (or bool) or str key: returns a new reference. Slices have their
   own functions below. */
nn_object *nn_container_getitem(nn_module *m, nn_object *key);
/* m[key] = value; borrows both. */
int nn_container_setitem(nn_module *m, nn_object *key, nn_object *value);
/* del m[key]; borrows key. */
int nn_container_delitem(nn_module *m, nn_object *key);
/* key in m: 1, 0 or -1 with an error. */
int nn_container_contains(nn_module *m, nn_object *key);

/* ---- Sequential: children "0", "1", ... (or the names of an ordered dict);
   forward(input) calls each child in turn through nn_module_call, so hooks fire. */
/* Sequential(*modules): borrows the n modules (NULL entries register None); new reference. */
nn_module *nn_sequential_new(size_t n, nn_module *const *modules);
/* Sequential(*args) for the language: each item must be a Module or None
   ("int is not a Module subclass"); borrows items; new reference. */
nn_module *nn_sequential_new_from_objects(size_t n, nn_object *const *items);
/* Sequential(OrderedDict): the dict's str keys name the children, in its order
   (KeyError "attribute 'append' already exists" for a method's name); borrows; new reference. */
nn_module *nn_sequential_new_from_dict(nn_object *modules);
/* seq[idx]: borrowed (a Module or None); IndexError "index 3 is out of range". */
nn_object *nn_sequential_getitem(nn_module *seq, int64_t idx);
/* seq[slice]: a new Sequential of seq's class holding the same modules under their
   original names (PyTorch keeps the OrderedDict's keys); new reference. */
nn_module *nn_sequential_getslice(nn_module *seq, const nn_slice_spec *slice);
/* seq[idx] = module (setattr: a Module or None; TypeError "cannot assign 'int' as
   child module '0' ..."); borrows module. */
int nn_sequential_setitem(nn_module *seq, int64_t idx, nn_object *module);
/* del seq[idx] / del seq[slice]; then every child is renamed "0".."n-1", as PyTorch
   1.13 does (also for names from an ordered dict). */
int nn_sequential_delitem(nn_module *seq, int64_t idx);
int nn_sequential_delslice(nn_module *seq, const nn_slice_spec *slice);
/* seq.append(module): added as str(len(seq)); borrows. */
int nn_sequential_append(nn_module *seq, nn_object *module);
/* seq.insert(index, module): -n <= index <= n (IndexError "Index out of range: 5"),
   later children shift up one number (KeyError "'1'" when the names are not
   numbers, as in PyTorch); module must be a Module. Borrows. */
int nn_sequential_insert(nn_module *seq, int64_t index, nn_object *module);
/* seq.extend(iterable): appends every item of a list, tuple or container; borrows. */
int nn_sequential_extend(nn_module *seq, nn_object *iterable);
/* seq.pop(idx): returns a new reference to the removed child (children renumbered). */
nn_object *nn_sequential_pop(nn_module *seq, int64_t idx);
/* seq.pop(slice): the removed children as a new Sequential; new reference. */
nn_module *nn_sequential_pop_slice(nn_module *seq, const nn_slice_spec *slice);
/* seq + other: a new Sequential of both's modules renumbered; ValueError "add operator
   supports only objects of Sequential class, but <class 'int'> is given." */
nn_module *nn_sequential_add(nn_module *seq, nn_object *other);
/* seq += other (adds other's modules as str(i + len(seq))). */
int nn_sequential_iadd(nn_module *seq, nn_object *other);
/* seq * factor (and factor * seq): factor an int (or bool); the same module objects
   repeated; TypeError for other types, ValueError "Non-positive multiplication factor 0
   for <class 'torch.nn.modules.container.Sequential'>". New reference. */
nn_module *nn_sequential_mul(nn_module *seq, nn_object *factor);
/* seq *= factor. */
int nn_sequential_imul(nn_module *seq, nn_object *factor);

/* ---- ModuleList: children "0", "1", ...; calling it raises NotImplementedError. */
/* ModuleList(modules): modules NULL or an iterable of modules (TypeError
   "ModuleList.extend should be called with an iterable, but got int"); borrows; new reference. */
nn_module *nn_module_list_new(nn_object *modules);
/* ml[idx]: borrowed; IndexError "index 3 is out of range". */
nn_object *nn_module_list_getitem(nn_module *ml, int64_t idx);
/* ml[slice]: a new ModuleList of ml's class, renumbered from "0"; new reference. */
nn_module *nn_module_list_getslice(nn_module *ml, const nn_slice_spec *slice);
/* ml[idx] = module (setattr: a Module or None); borrows module. */
int nn_module_list_setitem(nn_module *ml, int64_t idx, nn_object *module);
/* del ml[idx] / del ml[slice], then every child is renamed "0".."n-1". */
int nn_module_list_delitem(nn_module *ml, int64_t idx);
int nn_module_list_delslice(nn_module *ml, const nn_slice_spec *slice);
/* ml.append(module) as str(len(ml)) / ml.extend(iterable) (also ml += iterable);
   borrow their arguments. A failing item leaves the ones before it added, as in PyTorch. */
int nn_module_list_append(nn_module *ml, nn_object *module);
int nn_module_list_extend(nn_module *ml, nn_object *modules);
/* ml.insert(index, module) with PyTorch's loop (no range check: index > len adds
   the key str(index); a negative index fails with KeyError "'-1'" after shifting).
   module must be a Module or None (TypeError; PyTorch would store anything). Borrows. */
int nn_module_list_insert(nn_module *ml, int64_t index, nn_object *module);
/* ml.pop(idx): a new reference to the removed child; ml.pop(slice): the removed
   children as a new ModuleList (new reference). The rest is renumbered. */
nn_object *nn_module_list_pop(nn_module *ml, int64_t idx);
nn_module *nn_module_list_pop_slice(nn_module *ml, const nn_slice_spec *slice);
/* ml + other (any iterable of modules): a new ModuleList; new reference. */
nn_module *nn_module_list_add(nn_module *ml, nn_object *other);

/* ---- ModuleDict: children under str keys in insertion order. */
/* ModuleDict(modules): NULL, a dict (in its order), a ModuleDict, or an iterable of
   (key, module) pairs; borrows; new reference. */
nn_module *nn_module_dict_new(nn_object *modules);
/* md[key]: borrowed; KeyError "'key'". */
nn_object *nn_module_dict_getitem(nn_module *md, const char *key);
/* md[key] = module (add_module's checks); borrows module. */
int nn_module_dict_setitem(nn_module *md, const char *key, nn_object *module);
/* del md[key] (KeyError "'key'"); key in md. */
int nn_module_dict_delitem(nn_module *md, const char *key);
bool nn_module_dict_contains(nn_module *md, const char *key);
/* md.pop(key): a new reference to the removed module. */
nn_object *nn_module_dict_pop(nn_module *md, const char *key);
void nn_module_dict_clear(nn_module *md);
/* keys(), values() and items() (a list of (key, module) tuples); new references. */
nn_object *nn_module_dict_keys(nn_module *md);
nn_object *nn_module_dict_values(nn_module *md);
nn_object *nn_module_dict_items(nn_module *md);
/* md.update(modules): as the constructor's argument (ValueError "ModuleDict update
   sequence element #0 has length 3; 2 is required", ...); borrows. */
int nn_module_dict_update(nn_module *md, nn_object *modules);

/* ---- ParameterList: values under "0", "1", ... (tensors become Parameters,
   other objects are kept as attributes); len is its `_size` attribute. Calling it
   raises RuntimeError "ParameterList should not be called.". */
/* ParameterList(values): values NULL or an iterable (not a tensor); borrows; new reference. */
nn_module *nn_parameter_list_new(nn_object *values);
/* pl[idx]: borrowed; IndexError "index 3 is out of range". */
nn_object *nn_parameter_list_getitem(nn_module *pl, int64_t idx);
/* pl[slice]: a new ParameterList of pl's class with the same objects; new reference. */
nn_module *nn_parameter_list_getslice(nn_module *pl, const nn_slice_spec *slice);
/* pl[idx] = value: a tensor that is not a Parameter becomes Parameter(value) (requires
   grad; RuntimeError "Only Tensors of floating point and complex dtype can require
   gradients"). Borrows value. */
int nn_parameter_list_setitem(nn_module *pl, int64_t idx, nn_object *value);
/* pl.append(value): len grows first, then pl[len-1] = value (as PyTorch: a failed
   conversion leaves the length grown). Borrows. */
int nn_parameter_list_append(nn_module *pl, nn_object *value);
/* pl.extend(values) (also pl += values): values an iterable that is not a tensor
   (TypeError "ParameterList.extend should be called with an iterable, but got
   Tensor"); borrows. */
int nn_parameter_list_extend(nn_module *pl, nn_object *values);

/* ---- ParameterDict: values under str keys (its `_keys` attribute keeps the order);
   tensors become Parameters. Calling it raises RuntimeError. */
/* ParameterDict(values): see nn_parameter_dict_update; borrows; new reference. */
nn_module *nn_parameter_dict_new(nn_object *values, bool ordered);
/* pd[key]: borrowed; AttributeError "'ParameterDict' object has no attribute 'x'". */
nn_object *nn_parameter_dict_getitem(nn_module *pd, const char *key);
/* pd[key] = value (tensors become Parameters); borrows. */
int nn_parameter_dict_setitem(nn_module *pd, const char *key, nn_object *value);
/* del pd[key]; KeyError "'x'". */
int nn_parameter_dict_delitem(nn_module *pd, const char *key);
bool nn_parameter_dict_contains(nn_module *pd, const char *key);
/* pd.pop(key) / pd.get(key, default) / pd.setdefault(key, default): new references
   (default borrowed, NULL for None). */
nn_object *nn_parameter_dict_pop(nn_module *pd, const char *key);
nn_object *nn_parameter_dict_get(nn_module *pd, const char *key, nn_object *dflt);
nn_object *nn_parameter_dict_setdefault(nn_module *pd, const char *key, nn_object *dflt);
/* pd.popitem(): a new (key, value) tuple; KeyError "popitem(): dictionary is empty". */
nn_object *nn_parameter_dict_popitem(nn_module *pd);
/* pd.clear(): deletes every key in turn. */
int nn_parameter_dict_clear(nn_module *pd);
/* keys(), values(), items() (a list of (key, value) tuples), in _keys order; new references. */
nn_object *nn_parameter_dict_keys(nn_module *pd);
nn_object *nn_parameter_dict_values(nn_module *pd);
nn_object *nn_parameter_dict_items(nn_module *pd);
/* pd.fromkeys(keys, default): a new ParameterDict with every key of the iterable
   keys set to default (borrowed; NULL for None); new reference. */
nn_module *nn_parameter_dict_fromkeys(nn_object *keys, nn_object *dflt);
/* pd.update(values): values a ParameterDict or a dict — an OrderedDict (an ordered
   dict, or any dict when ordered) in its order, a plain dict otherwise (PyTorch 1.13
   adds a plain dict's items sorted by key) — or an iterable of (key, value) pairs
   (their order). Borrows. */
int nn_parameter_dict_update(nn_module *pd, nn_object *values, bool ordered);
/* pd.copy(), pd | other: new ParameterDicts; new references. */
nn_module *nn_parameter_dict_copy(nn_module *pd);
nn_module *nn_parameter_dict_or(nn_module *pd, nn_module *other);

/* ---- FeedForward (labml.ai's position-wise FFN):
   FeedForward(d_model, d_ff, dropout=0.1, activation=ReLU(), is_gated=False,
               bias1=True, bias2=True, bias_gate=True)
   children in the seed's order: layer1 = Linear(d_model, d_ff, bias1),
   layer2 = Linear(d_ff, d_model, bias2), dropout = Dropout(dropout), activation,
   then, when gated, linear_v = Linear(d_model, d_ff, bias_gate).
   forward(x) [..., d_model] -> [..., d_model]:
       g = activation(layer1(x)); h = g * linear_v(x) if is_gated else g;
       return layer2(dropout(h)) */
typedef struct nn_feed_forward_options {
    double dropout;        /* 0.1 */
    nn_object *activation; /* borrowed (a module or any callable); NULL: the seed's default
                              ReLU(), one instance shared by every FeedForward, as Python
                              evaluates a default argument once */
    bool is_gated;         /* false */
    bool bias1, bias2, bias_gate; /* true */
} nn_feed_forward_options;
void nn_feed_forward_options_default(nn_feed_forward_options *o);
/* o NULL: the defaults. New reference. */
nn_module *nn_feed_forward_new(int64_t d_model, int64_t d_ff, const nn_feed_forward_options *o);

#endif
