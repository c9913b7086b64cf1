/*
 * match.c — structural pattern matching (PEP 634), as CPython 3.11 runs a
 * `match` statement: literal, capture, wildcard, value, group, sequence,
 * mapping and class patterns (with __match_args__), or-patterns and `as`.
 * The parser builds the Match* nodes (parser.c); eval.c evaluates the subject,
 * calls repl_match_pattern for each case, stores the bindings, then checks the
 * guard. This file only decides whether a pattern matches and what it binds.
 */
#include <string.h>

#include "eval_int.h"
#include "bind_int.h"
#include "bytes_int.h"

typedef struct mctx {
    repl_match_eval_fn eval;
    void *frame;
} mctx;

static int match(const mctx *m, const repl_node *p, nn_object *subject, nn_object *binds);

static int bind(nn_object *binds, const char *name, nn_object *value)
{
    return name ? nn_dict_set_str(binds, name, value) : 0;
}

/* the class named name in builtins (borrowed), or NULL */
static nn_object *builtin(const char *name) { return repl_nmap_get(&repl_current->builtins, name); }

static bool class_named(const nn_object *o, const char *const *names)
{
    if (!o || o->type != &repl_class_type) return false;
    const class_obj *c = (const class_obj *)o;
    for (int i = 0; c->n_mro && i < c->n_mro; i++)
        for (const char *const *n = names; *n; n++)
            if (c->mro[i]->name && strcmp(c->mro[i]->name, *n) == 0) return true;
    return false;
}

/* collections.abc.Sequence as PEP 634 reads it: list, tuple (torch.Size too), range, deque and
   classes deriving from Sequence; never str, bytes or bytearray */
static bool is_sequence(nn_object *o)
{
    static const char *const seq[] = {"Sequence", "MutableSequence", "deque", "UserList", NULL};
    if (nn_is_list(o) || o->type == &nn_tuple_type || o->type == &repl_range_type || o->type == &repl_size_type ||
        o->type->base == &nn_tuple_type)   /* torch.Size and the other tuple subtypes */
        return true;
    if (o->type == &repl_instance_type) return class_named(&((instance_obj *)o)->cls->ob, seq);
    return false;
}

/* collections.abc.Mapping: dicts (OrderedDict too) and classes deriving from
   Mapping (defaultdict, Counter, UserDict of the language's collections) */
static bool is_mapping(nn_object *o)
{
    static const char *const map[] = {"Mapping", "MutableMapping", "dict", "defaultdict", "Counter",
                                      "UserDict", "ChainMap", "OrderedDict", NULL};
    if (nn_is_dict(o)) return true;
    if (o->type == &repl_instance_type) return class_named(&((instance_obj *)o)->cls->ob, map);
    return false;
}

static int match_sequence(const mctx *m, const repl_node *p, nn_object *subject, nn_object *binds)
{
    if (!is_sequence(subject)) return 0;
    const repl_node_list *ps = &p->v.Pattern.patterns;
    int star = -1;
    for (int i = 0; i < ps->n; i++)
        if (ps->items[i]->kind == REPL_AST_MatchStar) star = i;
    nn_object *items = nn_is_list(subject) ? nn_retain(subject) : repl_to_list(subject);
    if (!items) return -1;
    size_t n = nn_list_len(items), need = (size_t)ps->n - (star >= 0);
    int rc = 1;
    if (star < 0 ? n != need : n < need) rc = 0;
    for (int i = 0; rc == 1 && i < ps->n; i++) {
        if (i == star) {
            size_t take = n - need;
            nn_object *rest = nn_list_new(take);
            if (!rest) { rc = -1; break; }
            for (size_t k = 0; k < take && rc == 1; k++)
                if (nn_list_append(rest, nn_list_get(items, (size_t)i + k)) < 0) rc = -1;
            if (rc == 1 && bind(binds, ps->items[i]->v.Pattern.name, rest) < 0) rc = -1;
            NN_RELEASE(rest);
            continue;
        }
        size_t at = star >= 0 && i > star ? n - (size_t)(ps->n - i) : (size_t)i;
        rc = match(m, ps->items[i], nn_list_get(items, at), binds);
    }
    NN_RELEASE(items);
    return rc;
}

/* mapping.get(key, sentinel) as a new reference, or a new reference to sentinel */
static nn_object *mapping_get(nn_object *map, nn_object *key, nn_object *sentinel)
{
    if (nn_is_dict(map)) {
        nn_object *v = nn_dict_get(map, key);
        if (v) return nn_retain(v);
        return nn_error_current() ? NULL : nn_retain(sentinel);
    }
    nn_object *args[2] = {key, sentinel};
    return repl_call_method(map, "get", args, 2);
}

static int match_mapping(const mctx *m, const repl_node *p, nn_object *subject, nn_object *binds)
{
    if (!is_mapping(subject)) return 0;
    const repl_node_list *keys = &p->v.Pattern.keys, *pats = &p->v.Pattern.patterns;
    int64_t len;
    if (repl_length(subject, &len) < 0) return -1;
    if (len < keys->n) return 0;
    nn_object *seen = nn_list_new((size_t)keys->n), *sentinel = nn_list_new(0);
    int rc = seen && sentinel ? 1 : -1;
    for (int i = 0; rc == 1 && i < keys->n; i++) {
        nn_object *k = m->eval(m->frame, keys->items[i]);
        if (!k) { rc = -1; break; }
        for (size_t j = 0; rc == 1 && j < nn_list_len(seen); j++) {
            int eq = repl_equal(nn_list_get(seen, j), k);
            if (eq < 0) rc = -1;
            else if (eq) {
                char *r = repl_obj_repr(k);
                repl_raise_exc(EXC_ValueError, "mapping pattern checks duplicate key (%s)", r ? r : "?");
                nn_free(r);
                rc = -1;
            }
        }
        nn_object *v = rc == 1 && nn_list_append(seen, k) == 0 ? mapping_get(subject, k, sentinel) : NULL;
        NN_RELEASE(k);
        if (!v) { rc = -1; break; }
        rc = v == sentinel ? 0 : match(m, pats->items[i], v, binds);
        NN_RELEASE(v);
    }
    if (rc == 1 && p->v.Pattern.rest) {
        nn_object *rest = nn_is_dict(subject) ? nn_dict_copy(subject) : NULL;
        if (!rest && !nn_is_dict(subject)) {
            nn_object *dict = builtin("dict");
            rest = dict ? repl_call_object(dict, &subject, 1, NULL) : NULL;
        }
        if (rest && nn_dict_is_ordered(rest)) {   /* **rest is a plain dict */
            nn_object *plain = nn_dict_new();
            size_t pos = 0;
            nn_object *k, *v;
            while (plain && nn_dict_next(rest, &pos, &k, &v))
                if (nn_dict_set(plain, k, v) < 0) {
                    NN_RELEASE(plain);
                    plain = NULL;
                }
            NN_RELEASE(rest);
            rest = plain;
        }
        if (!rest) rc = -1;
        for (size_t j = 0; rc == 1 && j < nn_list_len(seen); j++)
            if (nn_dict_del(rest, nn_list_get(seen, j)) < 0) rc = -1;
        if (rc == 1 && bind(binds, p->v.Pattern.rest, rest) < 0) rc = -1;
        NN_RELEASE(rest);
    }
    NN_RELEASE(seen);
    NN_RELEASE(sentinel);
    return rc;
}

/* getattr(subject, name), or NULL without an error (*missing) on AttributeError */
static nn_object *match_attr(nn_object *subject, const char *name, bool *missing)
{
    *missing = false;
    nn_object *v = repl_get_attr(subject, name);
    if (v) return v;
    nn_object *e = repl_take_exception();
    if (e && repl_exc_matches(e, &repl_current->exc_classes[EXC_AttributeError]->ob)) {
        NN_RELEASE(e);
        *missing = true;
        return NULL;
    }
    if (e) repl_raise_object(e);
    NN_RELEASE(e);
    return NULL;
}

/* the built-in types whose single positional sub-pattern matches the subject itself */
static bool self_matching(nn_object *cls)
{
    static const char *const names[] = {"bool", "bytearray", "bytes", "dict", "float", "frozenset",
                                        "int", "list", "set", "str", "tuple", NULL};
    for (const char *const *n = names; *n; n++)
        if (cls == builtin(*n)) return true;
    return false;
}

static const char *class_name(nn_object *cls)
{
    return cls->type == &repl_class_type ? ((class_obj *)cls)->name : repl_value_type_name(cls);
}

static int match_class(const mctx *m, const repl_node *p, nn_object *subject, nn_object *binds)
{
    nn_object *cls = m->eval(m->frame, p->v.Pattern.cls);
    if (!cls) return -1;
    nn_object *isinst = builtin("isinstance"), *args[2] = {subject, cls};
    bool is_class = cls->type == &repl_class_type || cls->type->call != NULL;
    if (!is_class || !isinst) {
        repl_raise_exc(EXC_TypeError, "called match pattern must be a type");
        NN_RELEASE(cls);
        return -1;
    }
    nn_object *r = repl_call_object(isinst, args, 2, NULL);
    int rc = r ? repl_truth(r) : -1;
    NN_RELEASE(r);
    const repl_node_list *pos = &p->v.Pattern.patterns, *kwp = &p->v.Pattern.kwd_patterns;
    const repl_name_list *kwn = &p->v.Pattern.kwd_attrs;
    nn_object *margs = NULL;
    if (rc == 1 && pos->n) {
        if (self_matching(cls)) {
            if (pos->n > 1) {
                repl_raise_exc(EXC_TypeError, "%s() accepts 1 positional sub-pattern (%d given)", class_name(cls), pos->n);
                rc = -1;
            } else {
                rc = match(m, pos->items[0], subject, binds);
            }
            pos = NULL;
        } else {
            bool missing;
            margs = match_attr(cls, "__match_args__", &missing);
            if (!margs && !missing) rc = -1;
            else if (margs && margs->type != &nn_tuple_type) {
                repl_raise_exc(EXC_TypeError, "%s.__match_args__ must be a tuple (got %s)", class_name(cls),
                               repl_value_type_name(margs));
                rc = -1;
            } else if ((size_t)pos->n > (margs ? nn_tuple_len(margs) : 0)) {
                size_t have = margs ? nn_tuple_len(margs) : 0;
                repl_raise_exc(EXC_TypeError, "%s() accepts %zu positional sub-pattern%s (%d given)", class_name(cls),
                               have, have == 1 ? "" : "s", pos->n);
                rc = -1;
            }
        }
    }
    /* the attribute names: positional ones from __match_args__, then the keywords */
    int npos = pos ? pos->n : 0;
    for (int i = 0; rc == 1 && i < npos + kwn->n; i++) {
        const char *name;
        if (i < npos) {
            nn_object *s = nn_tuple_get(margs, (size_t)i);
            if (!nn_is_str(s)) {
                repl_raise_exc(EXC_TypeError, "__match_args__ elements must be strings (got %s)", repl_value_type_name(s));
                rc = -1;
                break;
            }
            name = nn_str_cstr(s);
        } else {
            name = kwn->items[i - npos];
        }
        for (int j = 0; j < i; j++) {
            const char *prev = j < npos ? nn_str_cstr(nn_tuple_get(margs, (size_t)j)) : kwn->items[j - npos];
            if (strcmp(prev, name) == 0) {
                repl_raise_exc(EXC_TypeError, "%s() got multiple sub-patterns for attribute '%s'", class_name(cls), name);
                rc = -1;
                break;
            }
        }
        if (rc != 1) break;
        bool missing;
        nn_object *v = match_attr(subject, name, &missing);
        if (!v) {
            rc = missing ? 0 : -1;
            break;
        }
        rc = match(m, i < npos ? pos->items[i] : kwp->items[i - npos], v, binds);
        NN_RELEASE(v);
    }
    NN_RELEASE(margs);
    NN_RELEASE(cls);
    return rc;
}

/* 1 when p matches subject (its captures added to binds), 0 when not, -1 error */
static int match(const mctx *m, const repl_node *p, nn_object *subject, nn_object *binds)
{
    switch (p->kind) {
    case REPL_AST_MatchAs:
        if (p->v.Pattern.pattern) {
            int rc = match(m, p->v.Pattern.pattern, subject, binds);
            if (rc != 1) return rc;
        }
        return bind(binds, p->v.Pattern.name, subject) < 0 ? -1 : 1;
    case REPL_AST_MatchSingleton: {
        repl_const_kind k = p->v.Pattern.value->v.Constant.ckind;
        if (k == REPL_CONST_NONE) return subject->type == &nn_none_type;
        return subject->type == &nn_bool_type && nn_is_true(subject) == (k == REPL_CONST_TRUE);
    }
    case REPL_AST_MatchValue: {
        nn_object *v = m->eval(m->frame, p->v.Pattern.value);
        if (!v) return -1;
        nn_object *eq = repl_binary_op(REPL_EQ, subject, v);
        NN_RELEASE(v);
        int rc = eq ? repl_truth(eq) : -1;
        NN_RELEASE(eq);
        return rc;
    }
    case REPL_AST_MatchOr:
        for (int i = 0; i < p->v.Pattern.patterns.n; i++) {
            nn_object *trial = nn_dict_new();
            if (!trial) return -1;
            int rc = match(m, p->v.Pattern.patterns.items[i], subject, trial);
            size_t pos = 0;
            nn_object *k, *v;
            while (rc == 1 && nn_dict_next(trial, &pos, &k, &v))
                if (nn_dict_set(binds, k, v) < 0) rc = -1;
            NN_RELEASE(trial);
            if (rc != 0) return rc;
        }
        return 0;
    case REPL_AST_MatchSequence: return match_sequence(m, p, subject, binds);
    case REPL_AST_MatchMapping: return match_mapping(m, p, subject, binds);
    case REPL_AST_MatchClass: return match_class(m, p, subject, binds);
    default:
        repl_raise_exc(EXC_SyntaxError, "invalid pattern");
        return -1;
    }
}

int repl_match_pattern(repl_match_eval_fn eval, void *frame, const repl_node *pattern, nn_object *subject,
                       nn_object *binds)
{
    mctx m = {eval, frame};
    return match(&m, pattern, subject, binds);
}

int repl_match_names(const repl_node *p, int (*add)(void *ctx, const char *name), void *ctx)
{
    if (!p) return 0;
    const char *names[2] = {NULL, NULL};
    const repl_node_list *lists[2] = {NULL, NULL};
    const repl_node *sub = NULL;
    switch (p->kind) {
    case REPL_AST_MatchAs: names[0] = p->v.Pattern.name; sub = p->v.Pattern.pattern; break;
    case REPL_AST_MatchStar: names[0] = p->v.Pattern.name; break;
    case REPL_AST_MatchMapping: names[0] = p->v.Pattern.rest; lists[0] = &p->v.Pattern.patterns; break;
    case REPL_AST_MatchSequence: case REPL_AST_MatchOr: lists[0] = &p->v.Pattern.patterns; break;
    case REPL_AST_MatchClass: lists[0] = &p->v.Pattern.patterns; lists[1] = &p->v.Pattern.kwd_patterns; break;
    default: break;
    }
    if (names[0] && add(ctx, names[0]) < 0) return -1;
    if (repl_match_names(sub, add, ctx) < 0) return -1;
    for (int l = 0; l < 2; l++)
        for (int i = 0; lists[l] && i < lists[l]->n; i++)
            if (repl_match_names(lists[l]->items[i], add, ctx) < 0) return -1;
    return 0;
}
