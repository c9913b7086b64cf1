/*
 * test_tensordict.c — core/tensordict.c against tensordict's behaviour
 * (construction and batch-size checks with its messages, nested keys,
 * keys() order, del/rename/clone/update/transpose/indexing, the exact repr)
 * and core/multistep.c against fixtures/multistep.txt, written by
 * fixtures/gen_multistep.py (a PyTorch port of torchrl 0.4's MultiStep):
 * every output key in order, with its dtype, shape and values, the nested
 * batch sizes, the input left unchanged, n_steps = 0 as the identity on
 * "next", the module going through nn_module_call (a forward hook fires),
 * and torchrl's constructor checks.
 */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static nn_tensor *ones(nn_dtype dt, int ndim, const int64_t *sizes) { return TU_OK(nn_ones(ndim, sizes, dt)); }

/* A nested key from a dotted path ("next.reward"); new reference. */
static nn_object *dotted_key(const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    nn_object *parts[16];
    size_t n = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, ".", &save); p; p = strtok_r(NULL, ".", &save)) parts[n++] = TU_OK(nn_str_new(p));
    if (n == 1) return parts[0];
    nn_object *t = TU_OK(nn_tuple_new(n));
    for (size_t i = 0; i < n; i++) nn_tuple_set(t, i, parts[i]);
    return t;
}

/* A key (str or tuple of str) as a dotted path. */
static void key_path(nn_object *key, char *buf, size_t n)
{
    if (nn_is_str(key)) {
        snprintf(buf, n, "%s", nn_str_cstr(key));
        return;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < nn_tuple_len(key); i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "." : "", nn_str_cstr(nn_tuple_get(key, i)));
}

static void set_path(nn_tensordict *td, const char *path, nn_tensor *t)
{
    nn_object *k = dotted_key(path);
    tu_check(nn_tensordict_set(td, k, &t->ob));
    NN_RELEASE(k);
}

static nn_object *get_path(nn_tensordict *td, const char *path)
{
    nn_object *k = dotted_key(path);
    nn_object *v = nn_tensordict_get(td, k);
    NN_RELEASE(k);
    return v;
}

static void assert_repr(nn_object *o, const char *want)
{
    char *r = TU_OK(nn_repr(o));
    if (strcmp(r, want) != 0) fail_msg("repr:\n%s\nwant:\n%s", r, want);
    nn_free(r);
}

/* td: a [3, 4] batch with a, next.reward, next.agents.pos and b. */
static nn_tensordict *sample(void)
{
    nn_tensordict *td = TU_OK(nn_tensordict_new(NULL, 2, TU_SHAPE(3, 4)));
    nn_tensor *a = ones(NN_FLOAT32, 2, TU_SHAPE(3, 4)), *r = ones(NN_FLOAT32, 3, TU_SHAPE(3, 4, 1));
    nn_tensor *pos = ones(NN_INT64, 4, TU_SHAPE(3, 4, 2, 2)), *b = ones(NN_BOOL, 2, TU_SHAPE(3, 4));
    set_path(td, "a", a);
    set_path(td, "next.reward", r);
    set_path(td, "next.agents.pos", pos);
    set_path(td, "b", b);
    NN_RELEASE(a); NN_RELEASE(r); NN_RELEASE(pos); NN_RELEASE(b);
    return td;
}

/* -------------------------------------------------------- TensorDict itself */

static void test_construction_and_batch_checks(void **state)
{
    (void)state;
    /* from a dict with tuple keys and a nested dict */
    nn_object *src = TU_OK(nn_dict_new());
    nn_tensor *a = ones(NN_FLOAT32, 2, TU_SHAPE(3, 4)), *c = ones(NN_INT64, 3, TU_SHAPE(3, 4, 2));
    nn_tensor *r = ones(NN_FLOAT32, 3, TU_SHAPE(3, 4, 1));
    nn_object *inner = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(inner, "c", &c->ob));
    tu_check(nn_dict_set_str(src, "a", &a->ob));
    tu_check(nn_dict_set_str(src, "b", inner));
    nn_object *nr = TU_OK(nn_tensordict_key(2, "next", "reward"));
    tu_check(nn_dict_set(src, nr, &r->ob));
    nn_tensordict *td = TU_OK(nn_tensordict_new(src, 2, TU_SHAPE(3, 4)));
    assert_repr(&td->ob, "TensorDict(\n"
                         "    fields={\n"
                         "        a: Tensor(shape=torch.Size([3, 4]), device=cpu, dtype=torch.float32, is_shared=False),\n"
                         "        b: TensorDict(\n"
                         "            fields={\n"
                         "                c: Tensor(shape=torch.Size([3, 4, 2]), device=cpu, dtype=torch.int64, is_shared=False)},\n"
                         "            batch_size=torch.Size([3, 4]),\n"
                         "            device=None,\n"
                         "            is_shared=False),\n"
                         "        next: TensorDict(\n"
                         "            fields={\n"
                         "                reward: Tensor(shape=torch.Size([3, 4, 1]), device=cpu, dtype=torch.float32, is_shared=False)},\n"
                         "            batch_size=torch.Size([3, 4]),\n"
                         "            device=None,\n"
                         "            is_shared=False)},\n"
                         "    batch_size=torch.Size([3, 4]),\n"
                         "    device=None,\n"
                         "    is_shared=False)");
    assert_true(get_path(td, "next.reward") == &r->ob); /* stored, not copied */
    assert_int_equal(nn_tensordict_len(td), 3);
    NN_RELEASE(td);

    /* a value that does not start with the batch size */
    nn_tensor *short_t = ones(NN_FLOAT32, 1, TU_SHAPE(3));
    tu_check(nn_dict_set_str(src, "bad", &short_t->ob));
    assert_null(nn_tensordict_new(src, 2, TU_SHAPE(3, 4)));
    tu_assert_error(NN_ERR_RUNTIME, "batch dimension mismatch, got self.batch_size=torch.Size([3, 4]) and "
                                    "value.shape=torch.Size([3]).");
    tu_check(nn_dict_del_str(src, "bad"));
    /* ... inside a nested dict (checked against the nested batch size, the parent's) */
    tu_check(nn_dict_set_str(inner, "d", &short_t->ob));
    assert_null(nn_tensordict_new(src, 2, TU_SHAPE(3, 4)));
    tu_assert_error(NN_ERR_RUNTIME, "batch dimension mismatch, got self.batch_size=torch.Size([3, 4]) and "
                                    "value.shape=torch.Size([3]).");
    NN_RELEASE(src);
    NN_RELEASE(inner);

    /* a TensorDict of another batch size is re-batched (a shallow copy) or refused */
    nn_tensordict *outer = TU_OK(nn_tensordict_new(NULL, 1, TU_SHAPE(3)));
    nn_tensordict *sub = TU_OK(nn_tensordict_new(NULL, 0, NULL));
    set_path(sub, "x", a); /* [3, 4] under batch [] */
    nn_object *k = TU_OK(nn_str_new("sub"));
    tu_check(nn_tensordict_set(outer, k, &sub->ob));
    nn_object *stored = TU_OK(nn_tensordict_get(outer, k));
    assert_true(stored != &sub->ob);
    assert_int_equal(NN_TENSORDICT(stored)->batch_dims, 1);
    assert_int_equal(sub->batch_dims, 0);
    nn_tensordict *wide = TU_OK(nn_tensordict_new(NULL, 1, TU_SHAPE(4)));
    assert_int_equal(nn_tensordict_set(wide, k, &sub->ob), -1);
    tu_assert_error(NN_ERR_RUNTIME, "the tensor x has shape torch.Size([3, 4]) which is incompatible with the "
                                    "batch-size torch.Size([4]).");
    /* numbers become 0-dim tensors, only without batch dims */
    nn_object *three = TU_OK(nn_int_new(3)), *half = TU_OK(nn_float_new(0.5)), *name = TU_OK(nn_str_new("x"));
    tu_check(nn_tensordict_set(sub, k, three));
    nn_tensor *t3 = NN_TENSOR(TU_OK(nn_tensordict_get(sub, k)));
    assert_int_equal(t3->dtype, NN_INT64);
    assert_int_equal(t3->ndim, 0);
    tu_check(nn_tensordict_set(sub, k, half));
    assert_int_equal(NN_TENSOR(nn_tensordict_get(sub, k))->dtype, NN_FLOAT32);
    assert_int_equal(nn_tensordict_set(outer, k, three), -1);
    tu_assert_error(NN_ERR_RUNTIME, "value.shape=torch.Size([]).");
    assert_int_equal(nn_tensordict_set(outer, k, name), -1);
    tu_assert_error(NN_ERR_VALUE, "TensorDict conversion only supports tensorclasses, tensordicts, numeric scalars "
                                  "and tensors. Got <class 'str'>");
    NN_RELEASE(three); NN_RELEASE(half); NN_RELEASE(name); NN_RELEASE(k);
    NN_RELEASE(outer); NN_RELEASE(sub); NN_RELEASE(wide);
    NN_RELEASE(a); NN_RELEASE(c); NN_RELEASE(r); NN_RELEASE(short_t); NN_RELEASE(nr);
}

static void test_nested_keys(void **state)
{
    (void)state;
    nn_tensordict *td = sample();
    /* set through a missing parent creates it with the parent's batch size */
    nn_tensor *z = ones(NN_FLOAT32, 2, TU_SHAPE(3, 4));
    set_path(td, "x.y.z", z);
    nn_object *xy = get_path(td, "x.y");
    assert_true(nn_is_tensordict(xy));
    assert_int_equal(NN_TENSORDICT(xy)->batch_dims, 2);
    assert_true(get_path(td, "x.y.z") == &z->ob);
    /* nested tuples are flattened */
    nn_object *inner = TU_OK(nn_tensordict_key(2, "y", "z")), *x = TU_OK(nn_str_new("x"));
    nn_object *nested = TU_OK(nn_tuple_pack(2, x, inner));
    assert_true(nn_tensordict_get(td, nested) == &z->ob);
    NN_RELEASE(inner); NN_RELEASE(x); NN_RELEASE(nested);

    /* missing keys name the level they are missing from */
    assert_null(get_path(td, "zz"));
    tu_assert_error(NN_ERR_KEY, "key \"zz\" not found in TensorDict with keys ['a', 'b', 'next', 'x']");
    assert_null(get_path(td, "next.zz"));
    tu_assert_error(NN_ERR_KEY, "key \"zz\" not found in TensorDict with keys ['agents', 'reward']");
    assert_null(get_path(td, "a.b"));
    tu_assert_error(NN_ERR_VALUE, "Expected a TensorDictBase instance but got <class 'torch.Tensor'> instead for key "
                                  "'('b',)' in tensordict:\nTensorDict(\n    fields={\n        a: Tensor(");
    nn_object *bad = TU_OK(nn_int_new(1));
    assert_null(nn_tensordict_get(td, bad));
    tu_assert_error(NN_ERR_KEY, "Only NestedKeys are supported. Got key ().");
    nn_object *empty = TU_OK(nn_tuple_new(0));
    assert_null(nn_tensordict_get(td, empty));
    tu_assert_error(NN_ERR_KEY, "Only NestedKeys are supported. Got key ().");
    /* get with a default */
    nn_object *k = dotted_key("nope.x");
    assert_true(nn_tensordict_get_default(td, k, nn_none()) == nn_none());
    NN_RELEASE(k);
    /* set through a tensor */
    k = dotted_key("a.b");
    assert_int_equal(nn_tensordict_set(td, k, &z->ob), -1);
    tu_assert_error(NN_ERR_KEY, "The entry a is already present in tensordict TensorDict(\n    fields={");
    NN_RELEASE(k);

    /* contains */
    const char *yes[] = {"a", "next", "next.reward", "next.agents", "next.agents.pos", "x.y"};
    const char *no[] = {"zz", "next.zz", "a.b", "next.agents.pos.q"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        k = dotted_key(yes[i]);
        assert_int_equal(nn_tensordict_contains(td, k), 1);
        NN_RELEASE(k);
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        k = dotted_key(no[i]);
        assert_int_equal(nn_tensordict_contains(td, k), 0);
        NN_RELEASE(k);
    }
    assert_int_equal(nn_tensordict_contains(td, bad), -1);
    tu_assert_error(NN_ERR_RUNTIME, "key must be a NestedKey (a str or a possibly tuple of str).");
    assert_int_equal(nn_tensordict_contains(td, empty), -1);
    tu_assert_error(NN_ERR_RUNTIME, "key must be a NestedKey (a str or a possibly tuple of str).");
    NN_RELEASE(bad); NN_RELEASE(empty);

    /* del */
    k = dotted_key("next.agents.pos");
    tu_check(nn_tensordict_del(td, k));
    assert_int_equal(nn_tensordict_contains(td, k), 0);
    assert_int_equal(nn_tensordict_del(td, k), -1);
    tu_assert_error(NN_ERR_KEY, "'pos'");
    NN_RELEASE(k);
    k = dotted_key("nope.x");
    assert_int_equal(nn_tensordict_del(td, k), -1);
    tu_assert_error(NN_ERR_KEY, "key \"nope\" not found in TensorDict with keys ['a', 'b', 'next', 'x']");
    NN_RELEASE(k);
    k = dotted_key("a.b");
    assert_int_equal(nn_tensordict_del(td, k), -1);
    tu_assert_error(NN_ERR_ATTRIBUTE, "'Tensor' object has no attribute 'del_'");
    NN_RELEASE(k);

    /* rename: a new key goes last */
    nn_object *old = dotted_key("next.reward"), *new_key = dotted_key("next.original_reward");
    nn_object *reward = get_path(td, "next.reward");
    tu_check(nn_tensordict_rename_key(td, old, new_key));
    assert_true(get_path(td, "next.original_reward") == reward);
    assert_int_equal(nn_tensordict_contains(td, old), 0);
    nn_object *keys = TU_OK(nn_tensordict_keys(td, true, false));
    char *r = TU_OK(nn_repr(keys));
    assert_string_equal(r, "['a', ('next', 'agents'), ('next', 'original_reward'), 'next', 'b', ('x', 'y', 'z'), "
                           "('x', 'y'), 'x']");
    nn_free(r);
    NN_RELEASE(keys); NN_RELEASE(old); NN_RELEASE(new_key);
    NN_RELEASE(z);
    NN_RELEASE(td);
}

static void test_keys_order(void **state)
{
    (void)state;
    nn_tensordict *td = sample();
    const char *want[2][2] = {
        {"['a', 'next', 'b']", "['a', 'b']"},
        {"['a', ('next', 'reward'), ('next', 'agents', 'pos'), ('next', 'agents'), 'next', 'b']",
         "['a', ('next', 'reward'), ('next', 'agents', 'pos'), 'b']"},
    };
    for (int nested = 0; nested < 2; nested++)
        for (int leaves = 0; leaves < 2; leaves++) {
            nn_object *keys = TU_OK(nn_tensordict_keys(td, nested, leaves));
            char *r = TU_OK(nn_repr(keys));
            assert_string_equal(r, want[nested][leaves]);
            nn_free(r);
            NN_RELEASE(keys);
        }
    /* replacing keeps the position */
    nn_tensor *a2 = ones(NN_FLOAT64, 2, TU_SHAPE(3, 4));
    set_path(td, "a", a2);
    nn_object *keys = TU_OK(nn_tensordict_keys(td, false, false));
    char *r = TU_OK(nn_repr(keys));
    assert_string_equal(r, "['a', 'next', 'b']");
    nn_free(r);
    NN_RELEASE(keys); NN_RELEASE(a2);
    /* a TensorDict as the source: its entries, with the new batch size */
    nn_tensordict *re = TU_OK(nn_tensordict_new(&td->ob, 1, TU_SHAPE(3)));
    assert_int_equal(re->batch_dims, 1);
    assert_true(get_path(re, "next") == get_path(td, "next")); /* starts with [3]: kept as is */
    keys = TU_OK(nn_tensordict_keys(re, false, false));
    r = TU_OK(nn_repr(keys));
    assert_string_equal(r, "['a', 'next', 'b']");
    nn_free(r);
    NN_RELEASE(keys);
    assert_null(nn_tensordict_new(&td->ob, 1, TU_SHAPE(4)));
    tu_assert_error(NN_ERR_RUNTIME, "batch dimension mismatch, got self.batch_size=torch.Size([4]) and "
                                    "value.shape=torch.Size([3, 4]).");
    NN_RELEASE(re);
    NN_RELEASE(td);
}

static void test_repr_sorting_and_empty(void **state)
{
    (void)state;
    nn_tensordict *td = TU_OK(nn_tensordict_new(NULL, 0, NULL));
    assert_repr(&td->ob, "TensorDict(\n    fields={\n    },\n    batch_size=torch.Size([]),\n    device=None,\n"
                         "    is_shared=False)");
    /* fields are sorted as whole lines: "a1: ..." before "a: ..." (':' > '1'), "B" before "a" */
    nn_tensor *s = TU_OK(nn_scalar(1, NN_FLOAT32));
    set_path(td, "a", s);
    set_path(td, "a1", s);
    set_path(td, "B", s);
    assert_repr(&td->ob, "TensorDict(\n    fields={\n"
                         "        B: Tensor(shape=torch.Size([]), device=cpu, dtype=torch.float32, is_shared=False),\n"
                         "        a1: Tensor(shape=torch.Size([]), device=cpu, dtype=torch.float32, is_shared=False),\n"
                         "        a: Tensor(shape=torch.Size([]), device=cpu, dtype=torch.float32, is_shared=False)},\n"
                         "    batch_size=torch.Size([]),\n    device=None,\n    is_shared=False)");
    NN_RELEASE(s);
    NN_RELEASE(td);
}

static void test_clone_update_batch_size(void **state)
{
    (void)state;
    nn_tensordict *td = sample();
    nn_tensordict *shallow = TU_OK(nn_tensordict_clone(td, false)), *deep = TU_OK(nn_tensordict_clone(td, true));
    assert_true(get_path(shallow, "a") == get_path(td, "a"));
    assert_true(get_path(shallow, "next") != get_path(td, "next"));
    assert_true(get_path(shallow, "next.agents.pos") == get_path(td, "next.agents.pos"));
    assert_true(get_path(deep, "next.agents.pos") != get_path(td, "next.agents.pos"));
    nn_tensor *pos = NN_TENSOR(get_path(deep, "next.agents.pos"));
    tu_assert_values(pos, 4, TU_SHAPE(3, 4, 2, 2), TU_VALUES(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                             1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                             1, 1, 1, 1, 1, 1, 1, 1), 0);
    /* a structural copy can be changed without touching the original */
    nn_object *k = dotted_key("next.reward");
    tu_check(nn_tensordict_del(shallow, k));
    assert_int_equal(nn_tensordict_contains(td, k), 1);

    /* update: new keys go last, nested TensorDicts are updated in place */
    nn_tensordict *other = TU_OK(nn_tensordict_new(NULL, 2, TU_SHAPE(3, 4)));
    nn_tensor *z = ones(NN_FLOAT32, 2, TU_SHAPE(3, 4));
    set_path(other, "next.agents.vel", z);
    set_path(other, "c", z);
    nn_object *agents_before = get_path(td, "next.agents");
    tu_check(nn_tensordict_update(td, other));
    assert_true(get_path(td, "next.agents") == agents_before);
    nn_object *keys = TU_OK(nn_tensordict_keys(td, true, true));
    char *r = TU_OK(nn_repr(keys));
    assert_string_equal(r, "['a', ('next', 'reward'), ('next', 'agents', 'pos'), ('next', 'agents', 'vel'), 'b', 'c']");
    nn_free(r);
    NN_RELEASE(keys);

    /* the batch size: shrinking, refusing, and nested TensorDicts following a longer one */
    tu_check(nn_tensordict_set_batch_size(td, 1, TU_SHAPE(3)));
    assert_int_equal(td->batch_dims, 1);
    assert_int_equal(NN_TENSORDICT(get_path(td, "next"))->batch_dims, 2); /* nested keep theirs */
    assert_int_equal(nn_tensordict_set_batch_size(td, 1, TU_SHAPE(4)), -1);
    tu_assert_error(NN_ERR_RUNTIME, "the tensor a has shape torch.Size([3, 4]) which is incompatible with the "
                                    "batch-size torch.Size([4]).");
    assert_int_equal(td->batch_size[0], 3); /* unchanged */
    nn_tensordict *small = TU_OK(nn_tensordict_new(NULL, 1, TU_SHAPE(3)));
    nn_tensor *w = ones(NN_FLOAT32, 3, TU_SHAPE(3, 4, 5));
    set_path(small, "n.w", w);
    tu_check(nn_tensordict_set_batch_size(small, 2, TU_SHAPE(3, 4)));
    assert_int_equal(NN_TENSORDICT(get_path(small, "n"))->batch_dims, 2);
    assert_int_equal(nn_tensordict_set_batch_size(small, 3, TU_SHAPE(3, 4, 6)), -1);
    tu_assert_error(NN_ERR_RUNTIME, "the tensor w has shape torch.Size([3, 4, 5]) which is incompatible with the "
                                    "batch-size torch.Size([3, 4, 6]).");
    assert_int_equal(NN_TENSORDICT(get_path(small, "n"))->batch_dims, 2); /* nothing changed */

    NN_RELEASE(k); NN_RELEASE(z); NN_RELEASE(w);
    NN_RELEASE(other); NN_RELEASE(small); NN_RELEASE(shallow); NN_RELEASE(deep); NN_RELEASE(td);
}

static void test_indexing_and_transpose(void **state)
{
    (void)state;
    nn_tensordict *td = TU_OK(nn_tensordict_new(NULL, 2, TU_SHAPE(3, 4)));
    nn_tensor *x = TU_OK(nn_arange(0, 24, 1, true, -1)), *xv = TU_OK(nn_view(x, 3, TU_SHAPE(3, 4, 2)));
    set_path(td, "x", xv);
    set_path(td, "next.x", xv);
    /* td[1] */
    nn_index_item one = {.kind = NN_INDEX_INT, .start = 1};
    nn_tensordict *r = TU_OK(nn_tensordict_index(td, 1, &one));
    assert_int_equal(r->batch_dims, 1);
    assert_int_equal(r->batch_size[0], 4);
    tu_assert_values(NN_TENSOR(get_path(r, "next.x")), 2, TU_SHAPE(4, 2), TU_VALUES(8, 9, 10, 11, 12, 13, 14, 15), 0);
    NN_RELEASE(r);
    /* td[..., 0]: the Ellipsis covers the batch dims only */
    nn_index_item last[2] = {{.kind = NN_INDEX_ELLIPSIS}, {.kind = NN_INDEX_INT, .start = 0}};
    r = TU_OK(nn_tensordict_index(td, 2, last));
    assert_int_equal(r->batch_dims, 1);
    assert_int_equal(r->batch_size[0], 3);
    tu_assert_values(NN_TENSOR(get_path(r, "x")), 2, TU_SHAPE(3, 2), TU_VALUES(0, 1, 8, 9, 16, 17), 0);
    NN_RELEASE(r);
    /* td[:, 1:3] */
    nn_index_item sl[2] = {{.kind = NN_INDEX_SLICE, .step = 1},
                           {.kind = NN_INDEX_SLICE, .start = 1, .stop = 3, .step = 1, .has_start = true, .has_stop = true}};
    r = TU_OK(nn_tensordict_index(td, 2, sl));
    assert_int_equal(r->batch_dims, 2);
    assert_int_equal(r->batch_size[1], 2);
    assert_int_equal(NN_TENSOR(get_path(r, "next.x"))->sizes[1], 2);
    NN_RELEASE(r);
    /* errors as the tensor index gives them */
    nn_index_item five = {.kind = NN_INDEX_INT, .start = 5};
    assert_null(nn_tensordict_index(td, 1, &five));
    tu_assert_error(NN_ERR_INDEX, "index 5 is out of bounds for dimension 0 with size 3");
    nn_index_item three[3] = {one, one, one};
    assert_null(nn_tensordict_index(td, 3, three));
    tu_assert_error(NN_ERR_INDEX, "too many indices for tensor of dimension 2");

    /* transpose */
    nn_tensordict *t = TU_OK(nn_tensordict_transpose(td, 0, -1));
    assert_int_equal(t->batch_size[0], 4);
    assert_int_equal(t->batch_size[1], 3);
    nn_tensor *tx = NN_TENSOR(get_path(t, "next.x"));
    assert_int_equal(tx->sizes[0], 4);
    assert_int_equal(tx->sizes[2], 2);
    assert_int_equal(NN_TENSORDICT(get_path(t, "next"))->batch_size[0], 4);
    NN_RELEASE(t);
    t = TU_OK(nn_tensordict_transpose(td, 1, 1));
    assert_true(t == td);
    NN_RELEASE(t);
    assert_null(nn_tensordict_transpose(td, 0, 2));
    tu_assert_error(NN_ERR_VALUE, "The provided dimensions are incompatible with the tensordict batch-size.");
    NN_RELEASE(x); NN_RELEASE(xv); NN_RELEASE(td);
}

/* ----------------------------------------------------------------- MultiStep */

#define FX_MAX_ENTRIES 32

typedef struct fx_entry {
    char key[64];
    nn_tensor *t; /* owned */
} fx_entry;

typedef struct fx_batch {
    char key[64];
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
} fx_batch;

typedef struct fx_case {
    char name[64];
    double gamma;
    int64_t n_steps;
    fx_entry in[FX_MAX_ENTRIES], out[FX_MAX_ENTRIES];
    int n_in, n_out;
    fx_batch inbatch[8], outbatch[8];
    int n_inbatch, n_outbatch;
} fx_case;


/* "KEY DTYPE NDIM SIZES... VALUES..." */
static void parse_entry(fx_entry *e, char *line)
{
    char *save = NULL;
    snprintf(e->key, sizeof e->key, "%s", strtok_r(line, " ", &save));
    nn_dtype dt = tu_dtype(strtok_r(NULL, " ", &save));
    int ndim = atoi(strtok_r(NULL, " ", &save));
    int64_t sizes[NN_MAX_DIMS], n = 1;
    for (int d = 0; d < ndim; d++) n *= (sizes[d] = atoll(strtok_r(NULL, " ", &save)));
    double *v = malloc(sizeof *v * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) v[i] = strtod(strtok_r(NULL, " ", &save), NULL);
    e->t = tu_tensor(dt, ndim, sizes, v);
    free(v);
}

/* "KEY NDIM SIZES..." */
static void parse_batch(fx_batch *b, char *line)
{
    char *save = NULL;
    snprintf(b->key, sizeof b->key, "%s", strtok_r(line, " ", &save));
    b->ndim = atoi(strtok_r(NULL, " ", &save));
    for (int d = 0; d < b->ndim; d++) b->sizes[d] = atoll(strtok_r(NULL, " ", &save));
}

/* Reads every case of the fixture; returns the count. */
static int load_cases(fx_case **out)
{
    char *text = tu_read_file("fixtures/multistep.txt");
    fx_case *cases = calloc(64, sizeof *cases);
    int n = -1;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        if (!strncmp(line, "case ", 5)) {
            assert_true(++n < 64);
            snprintf(cases[n].name, sizeof cases[n].name, "%s", line + 5);
        } else if (!strncmp(line, "gamma ", 6)) {
            cases[n].gamma = strtod(line + 6, NULL);
        } else if (!strncmp(line, "n_steps ", 8)) {
            cases[n].n_steps = atoll(line + 8);
        } else if (!strncmp(line, "in ", 3)) {
            assert_true(cases[n].n_in < FX_MAX_ENTRIES);
            parse_entry(&cases[n].in[cases[n].n_in++], line + 3);
        } else if (!strncmp(line, "out ", 4)) {
            assert_true(cases[n].n_out < FX_MAX_ENTRIES);
            parse_entry(&cases[n].out[cases[n].n_out++], line + 4);
        } else if (!strncmp(line, "inbatch ", 8)) {
            parse_batch(&cases[n].inbatch[cases[n].n_inbatch++], line + 8);
        } else if (!strncmp(line, "outbatch ", 9)) {
            parse_batch(&cases[n].outbatch[cases[n].n_outbatch++], line + 9);
        } else if (strcmp(line, "end") != 0) {
            fail_msg("fixture: bad line %s", line);
        }
    }
    free(text);
    *out = cases;
    return n + 1;
}

static void free_cases(fx_case *cases, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < cases[i].n_in; j++) NN_RELEASE(cases[i].in[j].t);
        for (int j = 0; j < cases[i].n_out; j++) NN_RELEASE(cases[i].out[j].t);
    }
    free(cases);
}

/* The case's input: the root batch size, then each leaf set in order. */
static nn_tensordict *case_input(const fx_case *c)
{
    assert_string_equal(c->inbatch[0].key, "-");
    nn_tensordict *td = TU_OK(nn_tensordict_new(NULL, c->inbatch[0].ndim, c->inbatch[0].sizes));
    for (int i = 0; i < c->n_in; i++) set_path(td, c->in[i].key, c->in[i].t);
    return td;
}

static void assert_batches(nn_tensordict *td, const fx_batch *b, int n, const char *what, const char *name)
{
    for (int i = 0; i < n; i++) {
        nn_tensordict *sub = !strcmp(b[i].key, "-") ? td : NN_TENSORDICT(TU_OK(get_path(td, b[i].key)));
        assert_true(nn_is_tensordict(&sub->ob));
        if (sub->batch_dims != b[i].ndim ||
            (b[i].ndim && memcmp(sub->batch_size, b[i].sizes, sizeof *b[i].sizes * (size_t)b[i].ndim)))
            fail_msg("%s: %s batch size of %s differs", name, what, b[i].key);
    }
}

/* Calls m(td) through nn_module_call; a new reference. */
static nn_tensordict *call(nn_module *m, nn_tensordict *td)
{
    nn_object *args = TU_OK(nn_tuple_pack(1, &td->ob));
    nn_object *out = nn_module_call(m, args, NULL);
    NN_RELEASE(args);
    return (nn_tensordict *)out;
}

static void test_multistep_matches_torchrl(void **state)
{
    (void)state;
    fx_case *cases;
    int n = load_cases(&cases);
    assert_true(n >= 15);
    int seed_seen = 0;
    for (int ci = 0; ci < n; ci++) {
        fx_case *c = &cases[ci];
        nn_tensordict *in = case_input(c);
        assert_batches(in, c->inbatch, c->n_inbatch, "input", c->name);
        nn_object *in_keys_before = TU_OK(nn_tensordict_keys(in, true, false));
        char *in_repr_before = TU_OK(nn_repr(&in->ob));
        nn_module *m = TU_OK(nn_multistep_new(c->gamma, c->n_steps));
        nn_tensordict *out = call(m, in);
        if (!out) fail_msg("%s: %s: %s", c->name, nn_error_kind_name(nn_error_current()), nn_error_message());
        assert_true(nn_is_tensordict(&out->ob));
        assert_true(out != in);

        /* the keys, in tensordict's order */
        nn_object *keys = TU_OK(nn_tensordict_keys(out, true, true));
        if ((int)nn_list_len(keys) != c->n_out)
            fail_msg("%s: %zu output keys, want %d", c->name, nn_list_len(keys), c->n_out);
        for (int i = 0; i < c->n_out; i++) {
            char path[128];
            key_path(nn_list_get(keys, (size_t)i), path, sizeof path);
            if (strcmp(path, c->out[i].key)) fail_msg("%s: key %d is %s, want %s", c->name, i, path, c->out[i].key);
            nn_tensor *want = c->out[i].t, *got = NN_TENSOR(get_path(out, path));
            if (got->dtype != want->dtype)
                fail_msg("%s: %s is %s, want %s", c->name, path, nn_dtype_name(got->dtype), nn_dtype_name(want->dtype));
            int64_t count = nn_numel(want);
            double *wv = malloc(sizeof *wv * (size_t)(count ? count : 1));
            nn_to_doubles(want, wv);
            /* bit for bit: float32 sums are fused multiply-adds in tap order, as conv1d's */
            tu_assert_values(got, want->ndim, want->sizes, wv, 0);
            free(wv);
        }
        NN_RELEASE(keys);
        assert_batches(out, c->outbatch, c->n_outbatch, "output", c->name);

        /* the input is untouched: same keys, same entries */
        nn_object *in_keys_after = TU_OK(nn_tensordict_keys(in, true, false));
        char *a = TU_OK(nn_repr(in_keys_before)), *b = TU_OK(nn_repr(in_keys_after)), *in_repr_after = TU_OK(nn_repr(&in->ob));
        assert_string_equal(a, b);
        assert_string_equal(in_repr_before, in_repr_after);
        for (int i = 0; i < c->n_in; i++) assert_true(get_path(in, c->in[i].key) == &c->in[i].t->ob);
        nn_free(a); nn_free(b); nn_free(in_repr_before); nn_free(in_repr_after);
        NN_RELEASE(in_keys_before); NN_RELEASE(in_keys_after);

        if (!strcmp(c->name, "seed_example")) { /* the seed's printed example */
            seed_seen = 1;
            tu_assert_values(NN_TENSOR(get_path(out, "next.step_count")), 2, TU_SHAPE(10, 1),
                             TU_VALUES(5, 6, 7, 8, 9, 10, 10, 10, 10, 10), 0);
        }
        NN_RELEASE(out); NN_RELEASE(m); NN_RELEASE(in);
    }
    assert_true(seed_seen);
    free_cases(cases, n);
}

static void test_multistep_zero_steps_is_identity(void **state)
{
    (void)state;
    fx_case *cases;
    int n = load_cases(&cases), seen = 0;
    for (int ci = 0; ci < n; ci++) {
        fx_case *c = &cases[ci];
        if (c->n_steps != 0) continue;
        seen++;
        nn_tensordict *in = case_input(c);
        nn_module *m = TU_OK(nn_multistep_new(c->gamma, 0));
        nn_tensordict *out = TU_OK(call(m, in));
        /* every "next" entry keeps its values; the reward too */
        for (int i = 0; i < c->n_in; i++) {
            nn_tensor *want = c->in[i].t, *got = NN_TENSOR(TU_OK(get_path(out, c->in[i].key)));
            int64_t count = nn_numel(want);
            double *wv = malloc(sizeof *wv * (size_t)(count ? count : 1));
            nn_to_doubles(want, wv);
            tu_assert_values(got, want->ndim, want->sizes, wv, 0);
            free(wv);
        }
        nn_tensor *orig = NN_TENSOR(TU_OK(get_path(out, "next.original_reward")));
        assert_true(orig == NN_TENSOR(get_path(in, "next.reward")));
        /* one step to the next observation, gamma ** 1, never nonterminal */
        nn_tensor *steps = NN_TENSOR(get_path(out, "steps_to_next_obs")), *g = NN_TENSOR(get_path(out, "gamma"));
        nn_tensor *nt = NN_TENSOR(get_path(out, "nonterminal"));
        int64_t count = nn_numel(steps);
        double *v = malloc(sizeof *v * (size_t)count);
        nn_to_doubles(steps, v);
        for (int64_t i = 0; i < count; i++) assert_true(v[i] == 1);
        nn_to_doubles(g, v);
        for (int64_t i = 0; i < count; i++) assert_true(v[i] == (double)(float)c->gamma);
        nn_to_doubles(nt, v);
        for (int64_t i = 0; i < count; i++) assert_true(v[i] == 0);
        free(v);
        NN_RELEASE(out); NN_RELEASE(m); NN_RELEASE(in);
    }
    assert_true(seen >= 2);
    free_cases(cases, n);
}

static int hook_calls;

static nn_object *forward_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    /* hook(module, args, output) */
    assert_int_equal(nn_tuple_len(args), 3);
    assert_true(nn_is_module(nn_tuple_get(args, 0)));
    assert_true(nn_is_tensordict(nn_tuple_get(nn_tuple_get(args, 1), 0)));
    nn_tensordict *out = NN_TENSORDICT(nn_tuple_get(args, 2));
    assert_true(nn_is_tensordict(&out->ob));
    nn_object *k = TU_OK(nn_str_new("gamma"));
    assert_int_equal(nn_tensordict_contains(out, k), 1);
    NN_RELEASE(k);
    hook_calls++;
    return nn_retain(nn_none());
}

static void test_multistep_module(void **state)
{
    (void)state;
    /* torchrl's checks */
    assert_null(nn_multistep_new(0.9, -1));
    tu_assert_error(NN_ERR_VALUE, "n_steps must be a non-negative integer.");
    assert_null(nn_multistep_new(0.0, 3));
    tu_assert_error(NN_ERR_VALUE, "got out-of-bounds gamma decay: gamma=0.0");
    assert_null(nn_multistep_new(1.5, 3));
    tu_assert_error(NN_ERR_VALUE, "got out-of-bounds gamma decay: gamma=1.5");
    assert_null(nn_multistep_new(NAN, 3));
    tu_assert_error(NN_ERR_VALUE, "got out-of-bounds gamma decay: gamma=nan");

    nn_module *m = TU_OK(nn_multistep_new(0.99, 4));
    assert_repr(&m->ob, "MultiStep()");
    assert_string_equal(nn_module_name(m), "MultiStep");
    nn_object *sd = TU_OK(nn_module_state_dict(m, "", false));
    nn_tensor *gammas = NN_TENSOR(TU_OK(nn_dict_get_str(sd, "gammas")));
    tu_assert_values(gammas, 3, TU_SHAPE(1, 1, 5),
                     TU_VALUES(1, (float)0.99, (float)(0.99 * 0.99), (float)pow(0.99, 3), (float)pow(0.99, 4)), 0);
    NN_RELEASE(sd);
    assert_true(nn_float_value(nn_module_getattr(m, "gamma")) == 0.99);
    assert_int_equal(nn_int_value(nn_module_getattr(m, "n_steps")), 4);
    char *r = TU_OK(nn_repr(nn_module_getattr(m, "done_keys")));
    assert_string_equal(r, "('done', 'terminated', 'truncated')");
    nn_free(r);

    /* through nn_module_call: a forward hook sees the TensorDict in and out */
    nn_object *h = TU_OK(nn_cfunction_new("hook", forward_hook, NULL, NULL));
    nn_object *handle = TU_OK(nn_module_register_hook(m, NN_HOOK_FORWARD, h, (nn_hook_options){0}));
    nn_tensordict *td = TU_OK(nn_tensordict_new(NULL, 2, TU_SHAPE(2, 5)));
    nn_tensor *done = TU_OK(nn_zeros(3, TU_SHAPE(2, 5, 1), NN_BOOL)), *rew = ones(NN_FLOAT32, 3, TU_SHAPE(2, 5, 1));
    set_path(td, "next.done", done);
    set_path(td, "next.reward", rew);
    hook_calls = 0;
    nn_tensordict *out = TU_OK(call(m, td));
    assert_int_equal(hook_calls, 1);
    tu_assert_values(NN_TENSOR(get_path(out, "next.reward")), 3, TU_SHAPE(2, 5, 1),
                     TU_VALUES(4.90099501, 3.940399, 2.9701, 1.99, 1, 4.90099501, 3.940399, 2.9701, 1.99, 1), 1e-6);
    NN_RELEASE(out);
    nn_hook_handle_remove(handle);
    NN_RELEASE(handle);
    NN_RELEASE(h);

    /* a changed attribute is used, as self.gamma is in Python */
    nn_object *g = TU_OK(nn_float_new(0.5));
    tu_check(nn_module_setattr(m, "gamma", g));
    NN_RELEASE(g);
    out = TU_OK(call(m, td));
    tu_assert_values(NN_TENSOR(get_path(out, "gamma")), 2, TU_SHAPE(2, 5),
                     TU_VALUES(0.03125, 0.0625, 0.125, 0.25, 0.5, 0.03125, 0.0625, 0.125, 0.25, 0.5), 0);
    NN_RELEASE(out);

    /* errors */
    nn_object *nm = TU_OK(nn_tensordict_key(2, "next", "done"));
    tu_check(nn_tensordict_del(td, nm));
    assert_null(call(m, td));
    tu_assert_error(NN_ERR_KEY, "key \"done\" not found in TensorDict with keys ['reward']");
    nn_tensordict *td2 = TU_OK(nn_tensordict_new(NULL, 1, TU_SHAPE(2)));
    set_path(td2, "next.reward", rew);
    set_path(td, "next.done", done);
    /* a done the TensorDict cannot be re-batched to */
    nn_tensor *odd = TU_OK(nn_zeros(2, TU_SHAPE(2, 3), NN_BOOL));
    set_path(td2, "next.done", odd);
    assert_null(call(m, td2));
    tu_assert_error(NN_ERR_RUNTIME, "tensordict shape must be compatible with the done's shape (trailing singleton "
                                    "dimension excluded).");
    /* conv1d has no Half kernel on CPU */
    nn_tensor *half = TU_OK(nn_ones(3, TU_SHAPE(2, 5, 1), NN_FLOAT16));
    set_path(td, "next.reward", half);
    assert_null(call(m, td));
    tu_assert_error(NN_ERR_RUNTIME, "\"slow_conv2d_cpu\" not implemented for 'Half'");
    /* not a TensorDict */
    nn_object *args = TU_OK(nn_tuple_pack(1, &rew->ob));
    assert_null(nn_module_call(m, args, NULL));
    tu_assert_error(NN_ERR_TYPE, "TensorDict");
    NN_RELEASE(args);

    NN_RELEASE(nm); NN_RELEASE(odd); NN_RELEASE(half);
    NN_RELEASE(td2); NN_RELEASE(done); NN_RELEASE(rew); NN_RELEASE(td); NN_RELEASE(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_construction_and_batch_checks),
        cmocka_unit_test(test_nested_keys),
        cmocka_unit_test(test_keys_order),
        cmocka_unit_test(test_repr_sorting_and_empty),
        cmocka_unit_test(test_clone_update_batch_size),
        cmocka_unit_test(test_indexing_and_transpose),
        cmocka_unit_test(test_multistep_matches_torchrl),
        cmocka_unit_test(test_multistep_zero_steps_is_identity),
        cmocka_unit_test(test_multistep_module),
    };
    return cmocka_run_group_tests_name("tensordict", tests, NULL, NULL);
}
