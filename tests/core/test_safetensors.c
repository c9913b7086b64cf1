/*
 * test_safetensors.c — safetensors files: reading the fixtures made by
 * tests/fixtures/gen_safetensors.py, writing them back byte for byte (whole and as
 * pieces), round trips,
 * every class of malformed input, file errors and failing allocations.
 */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- helpers */

static unsigned char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) fail_msg("cannot read %s", path);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) fail_msg("cannot write %s", path);
    fclose(f);
}

static bool file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Entries of dir other than "." and "..". */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot list %s", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char path[512];
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) remove_tree(path);
        else unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static char *make_temp_dir(char *buf)
{
    strcpy(buf, "/tmp/nn_st_XXXXXX");
    if (!mkdtemp(buf)) fail_msg("mkdtemp failed");
    return buf;
}

/* A file: the 8-byte length of header (header_len bytes), the header, then data_len
   bytes of data (zeros when data is NULL). Free with free(). */
static unsigned char *make_file_n(const char *header, size_t header_len, const void *data, size_t data_len,
                                  size_t *len)
{
    *len = 8 + header_len + data_len;
    unsigned char *b = calloc(1, *len);
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)((uint64_t)header_len >> (8 * k));
    memcpy(b + 8, header, header_len);
    if (data) memcpy(b + 8 + header_len, data, data_len);
    return b;
}

static unsigned char *make_file(const char *header, size_t data_len, size_t *len)
{
    return make_file_n(header, strlen(header), NULL, data_len, len);
}

static void expect_parse_error(const void *bytes, size_t len, const char *needle)
{
    nn_safetensors *st = nn_safetensors_parse(bytes, len);
    if (st) fail_msg("parse succeeded, expected an error containing '%s'", needle);
    tu_assert_error(NN_ERR_RUNTIME, needle);
}

static void expect_header_error(const char *header, size_t data_len, const char *needle)
{
    size_t len;
    unsigned char *b = make_file(header, data_len, &len);
    expect_parse_error(b, len, needle);
    free(b);
}

static size_t unhex(const char *hex, unsigned char *out, size_t cap)
{
    if (strcmp(hex, "-") == 0) return 0;
    size_t n = strlen(hex) / 2;
    if (n > cap) fail_msg("hex string too long");
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
    return n;
}

/* ----------------------------------------------------- expected contents */

typedef struct exp_tensor {
    char name[128];
    nn_dtype dtype;
    int ndim;
    int64_t sizes[NN_MAX_DIMS];
    unsigned char data[128];
    size_t nbytes;
} exp_tensor;

typedef struct exp_file {
    char fname[64];
    int n, n_meta; /* n_meta -1: no "__metadata__" */
    char meta[8][2][64];
    exp_tensor t[16];
} exp_file;

static exp_file expected[8];
static int n_expected;

static nn_dtype dtype_of(const char *s)
{
    static const char *const names[] = {[NN_FLOAT32] = "F32", [NN_FLOAT64] = "F64", [NN_FLOAT16] = "F16",
                                        [NN_BFLOAT16] = "BF16", [NN_INT64] = "I64", [NN_INT32] = "I32",
                                        [NN_BOOL] = "BOOL", [NN_UINT8] = "U8", [NN_INT8] = "I8", [NN_INT16] = "I16"};
    for (int d = 0; d < NN_DTYPE_COUNT; d++)
        if (strcmp(s, names[d]) == 0) return (nn_dtype)d;
    fail_msg("unknown dtype %s", s);
    return NN_FLOAT32;
}

static int load_expected(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/st_expected.txt");
    char *save_line, *save_tok;
    exp_file *f = NULL;
    int meta_i = 0, tensor_i = 0;
    for (char *line = strtok_r(text, "\n", &save_line); line; line = strtok_r(NULL, "\n", &save_line)) {
        char *kind = strtok_r(line, " ", &save_tok);
        if (strcmp(kind, "file") == 0) {
            f = &expected[n_expected++];
            strcpy(f->fname, strtok_r(NULL, " ", &save_tok));
            f->n = atoi(strtok_r(NULL, " ", &save_tok));
            f->n_meta = atoi(strtok_r(NULL, " ", &save_tok));
            meta_i = tensor_i = 0;
        } else if (strcmp(kind, "meta") == 0) {
            for (int s = 0; s < 2; s++) {
                size_t n = unhex(strtok_r(NULL, " ", &save_tok), (unsigned char *)f->meta[meta_i][s], 63);
                f->meta[meta_i][s][n] = '\0';
            }
            meta_i++;
        } else {
            exp_tensor *t = &f->t[tensor_i++];
            size_t n = unhex(strtok_r(NULL, " ", &save_tok), (unsigned char *)t->name, 127);
            t->name[n] = '\0';
            t->dtype = dtype_of(strtok_r(NULL, " ", &save_tok));
            t->ndim = atoi(strtok_r(NULL, " ", &save_tok));
            for (int d = 0; d < t->ndim; d++) t->sizes[d] = atoll(strtok_r(NULL, " ", &save_tok));
            t->nbytes = unhex(strtok_r(NULL, " ", &save_tok), t->data, sizeof t->data);
        }
    }
    free(text);
    return n_expected == 7 ? 0 : -1;
}

/* Asserts st holds exactly what the fixture record says, in header order. */
static void check_contents(const nn_safetensors *st, const exp_file *f)
{
    if (!st) fail_msg("%s: %s", f->fname, nn_error_message());
    assert_int_equal(st->n, f->n);
    for (int k = 0; k < f->n; k++) {
        const exp_tensor *e = &f->t[k];
        const nn_tensor *t = st->tensors[k].tensor;
        assert_string_equal(st->tensors[k].name, e->name);
        assert_int_equal(t->dtype, e->dtype);
        assert_int_equal(t->ndim, e->ndim);
        for (int d = 0; d < e->ndim; d++) assert_int_equal(t->sizes[d], e->sizes[d]);
        assert_true(nn_is_contiguous(t));
        assert_int_equal(t->storage->device.type, NN_CPU);
        assert_int_equal(nn_numel(t) * (int64_t)nn_dtype_size(t->dtype), e->nbytes);
        if (e->nbytes) assert_memory_equal(nn_data_ptr(t), e->data, e->nbytes);
        assert_ptr_equal(nn_safetensors_get(st, e->name), t);
    }
    if (f->n_meta < 0) {
        assert_null(st->metadata);
        assert_int_equal(st->n_metadata, 0);
        return;
    }
    assert_non_null(st->metadata);
    assert_int_equal(st->n_metadata, f->n_meta);
    for (int k = 0; k < f->n_meta; k++) {
        assert_string_equal(st->metadata[2 * k], f->meta[k][0]);
        assert_string_equal(st->metadata[2 * k + 1], f->meta[k][1]);
        assert_string_equal(nn_safetensors_metadata_get(st, f->meta[k][0]), f->meta[k][1]);
    }
}

/* ------------------------------------------------------------------ tests */

static void test_parse_fixtures(void **state)
{
    (void)state;
    char path[128];
    for (int k = 0; k < n_expected; k++) {
        const exp_file *f = &expected[k];
        snprintf(path, sizeof path, "fixtures/%.60s", f->fname);
        size_t len;
        unsigned char *bytes = read_bytes(path, &len);
        nn_safetensors *st = nn_safetensors_parse(bytes, len);
        check_contents(st, f);
        nn_safetensors_free(st);
        st = nn_safetensors_load_file(path);
        check_contents(st, f);
        nn_safetensors_free(st);
        free(bytes);
    }
    /* a few values through the tensor API */
    nn_safetensors *st = TU_OK(nn_safetensors_load_file("fixtures/st_basic.safetensors"));
    tu_assert_values(nn_safetensors_get(st, "weight"), 2, TU_SHAPE(2, 3),
                     TU_VALUES(-1, -2.0 / 3, -1.0 / 3, 0, 1.0 / 3, 2.0 / 3), 1e-7);
    tu_assert_values(nn_safetensors_get(st, "mask"), 1, TU_SHAPE(5), TU_VALUES(1, 0, 1, 1, 0), 0);
    tu_assert_values(nn_safetensors_get(st, "step"), 0, NULL, TU_VALUES(123456789012.0), 0);
    tu_assert_values(nn_safetensors_get(st, "half"), 2, TU_SHAPE(2, 2), TU_VALUES(1, -0.5, 65504, 5.96046448e-8),
                     1e-6);
    tu_assert_values(nn_safetensors_get(st, "ünïcödé.权重"), 1, TU_SHAPE(1), TU_VALUES(2), 0);
    assert_null(nn_safetensors_get(st, "missing"));
    assert_null(nn_safetensors_metadata_get(st, "missing"));
    assert_int_equal(nn_error_current(), NN_OK);
    nn_safetensors_free(st);
}

/* Serializes st's tensors and metadata, given in reverse order, so the writer has to sort them. */
static void serialize_reversed(const nn_safetensors *st, void **out, size_t *len)
{
    nn_named_tensor items[32];
    const char *meta[32];
    for (size_t k = 0; k < st->n; k++) items[k] = st->tensors[st->n - 1 - k];
    for (size_t k = 0; k < st->n_metadata; k++) {
        meta[2 * k] = st->metadata[2 * (st->n_metadata - 1 - k)];
        meta[2 * k + 1] = st->metadata[2 * (st->n_metadata - 1 - k) + 1];
    }
    tu_check(nn_safetensors_serialize(items, st->n, st->metadata ? meta : NULL, st->n_metadata, out, len));
}

static void test_serialize_matches_reference(void **state)
{
    (void)state;
    char path[128], tmp[64], out_path[128];
    make_temp_dir(tmp);
    for (int k = 0; k < n_expected; k++) {
        const char *fname = expected[k].fname;
        /* the hand-written file comes out as its canonical form */
        const char *want_name = strcmp(fname, "st_foreign.safetensors") == 0 ? "st_foreign_canonical.safetensors" : fname;
        snprintf(path, sizeof path, "fixtures/%.60s", want_name);
        size_t want_len;
        unsigned char *want = read_bytes(path, &want_len);
        snprintf(path, sizeof path, "fixtures/%.60s", fname);
        nn_safetensors *st = TU_OK(nn_safetensors_load_file(path));
        void *out;
        size_t len;
        serialize_reversed(st, &out, &len);
        assert_int_equal(len, want_len);
        assert_memory_equal(out, want, len);
        /* save_file writes the same bytes */
        snprintf(out_path, sizeof out_path, "%s/out.safetensors", tmp);
        tu_check(nn_safetensors_save_file(out_path, st->tensors, st->n, (const char *const *)st->metadata,
                                          st->n_metadata));
        size_t got_len;
        unsigned char *got = read_bytes(out_path, &got_len);
        assert_int_equal(got_len, want_len);
        assert_memory_equal(got, want, got_len);
        assert_int_equal(count_entries(tmp), 1);
        free(got);
        nn_free(out);
        free(want);
        nn_safetensors_free(st);
    }
    remove_tree(tmp);
}

/* The byte strings asserted by the reference implementation's own unit tests
   (safetensors/src/tensor.rs: test_serialization, test_serialization_forced_alignement, test_empty). */
static void test_reference_unit_test_bytes(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_FLOAT32, 3, TU_SHAPE(1, 2, 3), TU_VALUES(0, 1, 2, 3, 4, 5));
    float six[6] = {0, 1, 2, 3, 4, 5};
    void *out;
    size_t len;
    const char *h1 = "{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}";
    nn_named_tensor item = {"attn.0", a};
    tu_check(nn_safetensors_serialize(&item, 1, NULL, 0, &out, &len));
    size_t want_len;
    unsigned char *want = make_file_n(h1, strlen(h1), six, 24, &want_len);
    assert_int_equal(((unsigned char *)out)[0], 64);
    assert_int_equal(len, want_len);
    assert_memory_equal(out, want, len);
    nn_free(out);
    free(want);

    nn_tensor *b = TU_OK(nn_view(a, 4, TU_SHAPE(1, 1, 2, 3)));
    const char *h2 = "{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}       ";
    item = (nn_named_tensor){"attn0", b};
    tu_check(nn_safetensors_serialize(&item, 1, NULL, 0, &out, &len));
    want = make_file_n(h2, strlen(h2), six, 24, &want_len);
    assert_int_equal(((unsigned char *)out)[0], 72);
    assert_int_equal(len, want_len);
    assert_memory_equal(out, want, len);
    nn_free(out);
    free(want);

    static const unsigned char empty[] = {8, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32, 32, 32, 32, 32, 32};
    tu_check(nn_safetensors_serialize(NULL, 0, NULL, 0, &out, &len));
    assert_int_equal(len, sizeof empty);
    assert_memory_equal(out, empty, len);
    nn_free(out);

    const char *meta[] = {"framework", "pt"};
    const char *h3 = "{\"__metadata__\":{\"framework\":\"pt\"}}     ";
    tu_check(nn_safetensors_serialize(NULL, 0, meta, 1, &out, &len));
    want = make_file_n(h3, strlen(h3), NULL, 0, &want_len);
    assert_int_equal(((unsigned char *)out)[0], 40);
    assert_int_equal(len, want_len);
    assert_memory_equal(out, want, len);
    nn_free(out);
    free(want);
    NN_RELEASE(a);
    NN_RELEASE(b);
}

static void test_round_trip(void **state)
{
    (void)state;
    nn_tensor *m = tu_tensor(NN_FLOAT64, 2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *mt = TU_OK(nn_transpose(m, 0, 1));                     /* non-contiguous [3, 2] */
    nn_tensor *v = tu_tensor(NN_INT32, 1, TU_SHAPE(6), TU_VALUES(10, -11, 12, -13, 14, -15));
    nn_tensor *vs = TU_OK(nn_slice(v, 0, 1, 6, 2));                    /* -11, -13, -15 */
    nn_tensor *r = tu_tensor(NN_BFLOAT16, 1, TU_SHAPE(3), TU_VALUES(0.5, -1, 3));
    nn_tensor *re = TU_OK(nn_expand(r, 2, TU_SHAPE(2, 3)));            /* stride 0 */
    nn_tensor *h = tu_tensor(NN_FLOAT16, 0, NULL, TU_VALUES(-2.5));
    nn_tensor *bo = tu_tensor(NN_BOOL, 2, TU_SHAPE(1, 3), TU_VALUES(1, 0, 1));
    nn_tensor *bt = TU_OK(nn_t(bo));
    nn_tensor *e = TU_OK(nn_zeros(3, TU_SHAPE(0, 2, 4), NN_INT64));
    nn_tensor *l = tu_tensor(NN_INT64, 1, TU_SHAPE(2), TU_VALUES(0, 42));
    ((int64_t *)l->storage->data)[0] = -9007199254740993LL; /* not a double */
    nn_tensor *f = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1.5, -0.25));
    tu_check(nn_set_requires_grad(f, true));
    nn_named_tensor items[] = {
        {"m.T", mt}, {"v[1::2]", vs}, {"expanded", re}, {"h", h}, {"b.T", bt}, {"e", e}, {"l", l},
        {"param \"f\" \\ é", f},
    };
    size_t n = sizeof items / sizeof *items;
    const char *meta[] = {"k2", "v2", "k1", "line\nbreak \"q\""};
    void *out;
    size_t len;
    tu_check(nn_safetensors_serialize(items, n, meta, 2, &out, &len));
    assert_int_equal(((unsigned char *)out)[0] % 8, 0); /* header length: a multiple of 8 */
    assert_int_equal(((unsigned char *)out)[8], '{');
    nn_safetensors *st = TU_OK(nn_safetensors_parse(out, len));
    assert_int_equal(st->n, n);
    assert_int_equal(st->n_metadata, 2);
    assert_string_equal(st->metadata[0], "k1"); /* written sorted */
    assert_string_equal(st->metadata[1], "line\nbreak \"q\"");
    assert_string_equal(nn_safetensors_metadata_get(st, "k2"), "v2");
    /* data order: I64 (e, l), F64, F32, I32, BF16, F16, BOOL */
    const char *order[] = {"e", "l", "m.T", "param \"f\" \\ é", "v[1::2]", "expanded", "h", "b.T"};
    for (size_t k = 0; k < n; k++) assert_string_equal(st->tensors[k].name, order[k]);
    tu_assert_values(nn_safetensors_get(st, "m.T"), 2, TU_SHAPE(3, 2), TU_VALUES(1, 4, 2, 5, 3, 6), 0);
    tu_assert_values(nn_safetensors_get(st, "v[1::2]"), 1, TU_SHAPE(3), TU_VALUES(-11, -13, -15), 0);
    tu_assert_values(nn_safetensors_get(st, "expanded"), 2, TU_SHAPE(2, 3), TU_VALUES(0.5, -1, 3, 0.5, -1, 3), 0);
    tu_assert_values(nn_safetensors_get(st, "h"), 0, NULL, TU_VALUES(-2.5), 0);
    tu_assert_values(nn_safetensors_get(st, "b.T"), 2, TU_SHAPE(3, 1), TU_VALUES(1, 0, 1), 0);
    tu_assert_values(nn_safetensors_get(st, "e"), 3, TU_SHAPE(0, 2, 4), NULL, 0);
    assert_int_equal(nn_get_int64(nn_safetensors_get(st, "l"), (int64_t[]){0}), -9007199254740993LL);
    nn_tensor *f2 = nn_safetensors_get(st, "param \"f\" \\ é");
    tu_assert_values(f2, 1, TU_SHAPE(2), TU_VALUES(1.5, -0.25), 0);
    assert_false(f2->requires_grad);
    for (size_t k = 0; k < st->n; k++) assert_int_equal(st->tensors[k].tensor->storage->version, 0);

    /* writing what was read gives the same bytes, whatever the input order */
    void *out2;
    size_t len2;
    serialize_reversed(st, &out2, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(out2, out, len);
    nn_free(out2);

    /* non-contiguous inputs write the same bytes as their contiguous copies */
    nn_tensor *mc = TU_OK(nn_contiguous(mt)), *vc = TU_OK(nn_contiguous(vs)), *rc = TU_OK(nn_contiguous(re)),
              *bc = TU_OK(nn_contiguous(bt));
    nn_named_tensor items2[] = {
        {"m.T", mc}, {"v[1::2]", vc}, {"expanded", rc}, {"h", h}, {"b.T", bc}, {"e", e}, {"l", l},
        {"param \"f\" \\ é", f},
    };
    tu_check(nn_safetensors_serialize(items2, n, meta, 2, &out2, &len2));
    assert_int_equal(len2, len);
    assert_memory_equal(out2, out, len);
    nn_free(out2);

    /* metadata: NULL writes none, non-NULL with no pairs an empty object */
    tu_check(nn_safetensors_serialize(items, 1, NULL, 0, &out2, &len2));
    assert_null(strstr((char *)out2 + 8, "__metadata__"));
    nn_safetensors *st2 = TU_OK(nn_safetensors_parse(out2, len2));
    assert_null(st2->metadata);
    nn_safetensors_free(st2);
    nn_free(out2);
    tu_check(nn_safetensors_serialize(items, 1, meta, 0, &out2, &len2));
    assert_memory_equal((char *)out2 + 8, "{\"__metadata__\":{},", 19);
    st2 = TU_OK(nn_safetensors_parse(out2, len2));
    assert_non_null(st2->metadata);
    assert_int_equal(st2->n_metadata, 0);
    nn_safetensors_free(st2);
    nn_free(out2);

    nn_safetensors_free(st);
    nn_free(out);
    NN_RELEASE(m); NN_RELEASE(mt); NN_RELEASE(v); NN_RELEASE(vs); NN_RELEASE(r); NN_RELEASE(re);
    NN_RELEASE(h); NN_RELEASE(bo); NN_RELEASE(bt); NN_RELEASE(e); NN_RELEASE(l); NN_RELEASE(f);
    NN_RELEASE(mc); NN_RELEASE(vc); NN_RELEASE(rc); NN_RELEASE(bc);
}

static void test_serialize_errors(void **state)
{
    (void)state;
    nn_tensor *a = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(1), TU_VALUES(1));
    nn_tensor *b = tu_tensor(NN_INT64, 1, TU_SHAPE(1), TU_VALUES(1));
    void *out = (void *)0x1;
    size_t len = 7;
    struct {
        nn_named_tensor items[3];
        size_t n;
        const char *meta[4];
        size_t n_meta;
        const char *needle;
    } cases[] = {
        {{{"x", a}, {"y", a}, {"x", a}}, 3, {NULL}, 0, "duplicate tensor name \"x\""},
        {{{"x", a}, {"x", b}}, 2, {NULL}, 0, "duplicate tensor name \"x\""},
        {{{"__metadata__", a}}, 1, {NULL}, 0, "reserved"},
        {{{"x", a}}, 1, {"k", "1", "k", "2"}, 2, "duplicate metadata key \"k\""},
        {{{"bad \xff", a}}, 1, {NULL}, 0, "not valid UTF-8"},
        {{{"surrogate \xed\xa0\x80", a}}, 1, {NULL}, 0, "not valid UTF-8"},
        {{{"x", a}}, 1, {"k", "overlong \xc0\xaf"}, 1, "metadata value 0 is not valid UTF-8"},
        {{{"x", NULL}}, 1, {NULL}, 0, "\"x\" is not a tensor"},
        {{{NULL, a}}, 1, {NULL}, 0, "the name of tensor 0 is NULL"},
        {{{"x", a}}, 1, {"k", NULL}, 1, "metadata value 0 is NULL"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *const *meta = cases[k].n_meta ? cases[k].meta : NULL;
        assert_int_equal(nn_safetensors_serialize(cases[k].items, cases[k].n, meta, cases[k].n_meta, &out, &len), -1);
        tu_assert_error(NN_ERR_VALUE, cases[k].needle);
        assert_ptr_equal(out, (void *)0x1);
        assert_int_equal(len, 7);
        assert_int_equal(nn_safetensors_save_file("never.safetensors", cases[k].items, cases[k].n, meta,
                                                  cases[k].n_meta), -1);
        tu_assert_error(NN_ERR_VALUE, cases[k].needle);
        assert_false(file_exists("never.safetensors"));
    }
    assert_int_equal(nn_safetensors_serialize(NULL, 0, NULL, 3, &out, &len), -1);
    tu_assert_error(NN_ERR_VALUE, "metadata is NULL");
    assert_int_equal(nn_safetensors_serialize(NULL, 0, NULL, 0, NULL, &len), -1);
    tu_assert_error(NN_ERR_VALUE, "out is NULL");
    NN_RELEASE(a);
    NN_RELEASE(b);
}

/* The file as pieces: the header, then each non-empty tensor's data in file order,
   contiguous tensors referenced where they are, others copied row-major; together
   exactly nn_safetensors_serialize's bytes (which the reference tests pin). */
static void test_pieces(void **state)
{
    (void)state;
    nn_tensor *w = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALUES(1, 2, 3, 4, 5, 6));
    nn_tensor *base = tu_tensor(NN_INT64, 2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    nn_tensor *t = TU_OK(nn_transpose(base, 0, 1)); /* not contiguous */
    nn_tensor *e = TU_OK(nn_zeros(1, TU_SHAPE(0), NN_FLOAT32));
    nn_named_tensor items[] = {{"w", w}, {"t", t}, {"e", e}};
    const char *meta[] = {"k", "v"};
    nn_safetensors_pieces pieces;
    tu_check(nn_safetensors_pieces_make(items, 3, meta, 1, &pieces));
    assert_int_equal(pieces.n, 3); /* the header, t (I64 first: larger alignment), w; e has no bytes */
    void *whole;
    size_t len;
    tu_check(nn_safetensors_serialize(items, 3, meta, 1, &whole, &len));
    assert_int_equal(pieces.total, len);
    size_t at = 0;
    for (size_t k = 0; k < pieces.n; k++) {
        assert_true(at + pieces.pieces[k].len <= len);
        assert_memory_equal(pieces.pieces[k].data, (char *)whole + at, pieces.pieces[k].len);
        at += pieces.pieces[k].len;
    }
    assert_int_equal(at, len);
    assert_ptr_equal(pieces.pieces[2].data, nn_data_ptr(w)); /* no copy */
    assert_ptr_not_equal(pieces.pieces[1].data, nn_data_ptr(t));
    const int64_t row_major[] = {1, 3, 2, 4};
    assert_int_equal(pieces.pieces[1].len, sizeof row_major);
    assert_memory_equal(pieces.pieces[1].data, row_major, sizeof row_major);
    nn_free(whole);
    nn_safetensors_pieces_free(&pieces);
    assert_null(pieces.pieces);
    nn_safetensors_pieces_free(&pieces); /* a freed (zeroed) struct is fine again */

    /* a failure leaves nothing to free */
    nn_named_tensor dup[] = {{"w", w}, {"w", w}};
    assert_int_equal(nn_safetensors_pieces_make(dup, 2, NULL, 0, &pieces), -1);
    tu_assert_error(NN_ERR_VALUE, "duplicate tensor name \"w\"");
    assert_null(pieces.pieces);
    assert_int_equal(pieces.n, 0);
    assert_int_equal(nn_safetensors_pieces_make(items, 3, NULL, 0, NULL), -1);
    tu_assert_error(NN_ERR_VALUE, "out is NULL");

    /* a state dict's pieces are its nn_state_dict_to_bytes */
    nn_object *sd = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(sd, "w", &w->ob));
    tu_check(nn_dict_set_str(sd, "t", &t->ob));
    tu_check(nn_state_dict_to_pieces(sd, NULL, &pieces));
    tu_check(nn_state_dict_to_bytes(sd, NULL, &whole, &len));
    assert_int_equal(pieces.total, len);
    at = 0;
    for (size_t k = 0; k < pieces.n; k++) {
        assert_memory_equal(pieces.pieces[k].data, (char *)whole + at, pieces.pieces[k].len);
        at += pieces.pieces[k].len;
    }
    assert_int_equal(at, len);
    nn_free(whole);
    nn_safetensors_pieces_free(&pieces);
    nn_object *bad = TU_OK(nn_dict_new());
    tu_check(nn_dict_set_str(bad, "x", sd)); /* not a tensor */
    assert_int_equal(nn_state_dict_to_pieces(bad, NULL, &pieces), -1);
    tu_assert_error(NN_ERR_TYPE, "str keys only");
    NN_RELEASE(bad);
    NN_RELEASE(sd);
    NN_RELEASE(w);
    NN_RELEASE(base);
    NN_RELEASE(t);
    NN_RELEASE(e);
}

static void test_truncated_and_extended_files(void **state)
{
    (void)state;
    const char *files[] = {"fixtures/st_basic.safetensors", "fixtures/st_foreign.safetensors",
                           "fixtures/st_meta.safetensors", "fixtures/st_empty.safetensors"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t len;
        unsigned char *bytes = read_bytes(files[f], &len);
        for (size_t k = 0; k < len; k++) {
            /* a copy of exactly k bytes, so ASan sees any read past them */
            unsigned char *cut = malloc(k ? k : 1);
            memcpy(cut, bytes, k);
            expect_parse_error(cut, k, k < 8 ? "too small" : "");
            free(cut);
        }
        unsigned char *longer = malloc(len + 1);
        memcpy(longer, bytes, len);
        longer[len] = 0;
        expect_parse_error(longer, len + 1, "1 bytes follow the last tensor's data");
        free(longer);
        free(bytes);
    }
    /* the three ways a cut shows */
    size_t len;
    unsigned char *bytes = read_bytes("fixtures/st_basic.safetensors", &len);
    expect_parse_error(bytes, 7, "7 bytes is too small for the 8-byte header length");
    expect_parse_error(bytes, 100, "goes past the end of the data (100 bytes)");
    expect_parse_error(bytes, len - 1, "the data is truncated");
    free(bytes);
}

static void test_header_length_field(void **state)
{
    (void)state;
    unsigned char b[24] = {0};
    memcpy(b + 8, "{}      ", 8);
    memset(b, 0xff, 8); /* 2^64 - 1 */
    expect_parse_error(b, sizeof b, "larger than the 100000000 bytes allowed");
    memset(b, 0, 8);
    b[0] = 0x01, b[1] = 0xe1, b[2] = 0xf5, b[3] = 0x05; /* 100000001 */
    expect_parse_error(b, sizeof b, "larger than");
    memset(b, 0, 8);
    b[0] = 17;
    expect_parse_error(b, sizeof b, "the header length 17 goes past the end");
    b[0] = 16; /* includes 8 zero bytes */
    expect_parse_error(b, sizeof b, "unexpected data after the header object");
    b[0] = 8;
    nn_safetensors *st = TU_OK(nn_safetensors_parse(b, 16));
    assert_int_equal(st->n, 0);
    nn_safetensors_free(st);
    expect_parse_error(b, sizeof b, "8 bytes follow the last tensor's data");
    b[0] = 0;
    expect_parse_error(b, 8, "must begin with '{'");
}

static void test_json_syntax_errors(void **state)
{
    (void)state;
    static const struct {
        const char *header;
        const char *needle;
    } cases[] = {
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}", "expected ',' or '}'"},
        {"{\"a\" {\"dtype\":\"F32\"}}", "expected ':'"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,],\"data_offsets\":[0,4]}}", "at byte 31: expected a value"},
        {"{\"a\":{\"shape\":[1 2]}}", "expected ',' or ']'"},
        {"{\"a\":1,}", "expected a string key"},
        {"{'a':1}", "expected a string key"},
        {"{\"a\\x\":1}", "invalid escape sequence"},
        {"{\"\\ud800\":1}", "unpaired surrogate"},
        {"{\"\\udc00\":1}", "unpaired surrogate"},
        {"{\"\\ud800\\u0041\":1}", "unpaired surrogate"},
        {"{\"\\ud800x\":1}", "unpaired surrogate"},
        {"{\"\\u12G4\":1}", "four hex digits"},
        {"{\"\\u12", "four hex digits"},
        {"{\"a\tb\":1}", "unescaped control character"},
        {"{\"a\nb\":1}", "unescaped control character"},
        {"{\"\xff\":1}", "not valid UTF-8 (byte 2)"},
        {"{\"\xc0\xaf\":1}", "not valid UTF-8"},
        {"{\"\xed\xa0\x80\":1}", "not valid UTF-8"},
        {"{\"\xf4\x90\x80\x80\":1}", "not valid UTF-8"},
        {"{\"\xe6\x9d\":1}", "not valid UTF-8"},
        {" {}", "must begin with '{'"},
        {"[]", "must begin with '{'"},
        {"\"a\"", "must begin with '{'"},
        {"{", "expected a string key"},
        {"{\"a\":1}}", "unexpected data after the header object"},
        {"{} x", "unexpected data after the header object"},
        {"{}{}", "unexpected data after the header object"},
        {"{\"a\":tru}", "expected a value"},
        {"{\"a\":nul}", "expected a value"},
        {"{\"a\":}", "expected a value"},
        {"{\"a\":\"unterminated", "unterminated string"},
        {"{\"a\":\"ends in a backslash\\", "unterminated string"},
        {"{\"a\":01}", "leading zeros"},
        {"{\"a\":-01}", "leading zeros"},
        {"{\"a\":1.}", "expected a digit after '.'"},
        {"{\"a\":.5}", "expected a value"},
        {"{\"a\":1e}", "expected a digit in the exponent"},
        {"{\"a\":1e+}", "expected a digit in the exponent"},
        {"{\"a\":-}", "invalid number"},
        {"{\"a\":+1}", "expected a value"},
        {"{\"a\\u0000b\":1}", "\\u0000 are not supported"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        size_t len;
        unsigned char *b = make_file(cases[k].header, 0, &len);
        nn_safetensors *st = nn_safetensors_parse(b, len);
        if (st) fail_msg("case %zu parsed", k);
        if (nn_error_current() != NN_ERR_RUNTIME || !strstr(nn_error_message(), cases[k].needle))
            fail_msg("case %zu (%s): got '%s'", k, cases[k].header, nn_error_message());
        assert_non_null(strstr(nn_error_message(), "invalid safetensors file"));
        nn_error_clear();
        free(b);
    }
    /* a NUL byte inside the header */
    size_t len;
    unsigned char *b = make_file_n("{}\0     ", 8, NULL, 0, &len);
    expect_parse_error(b, len, "unexpected data after the header object");
    free(b);
    /* nesting: 64 levels are refused, the format needs 3 */
    char deep[256] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4],\"x\":";
    size_t at = strlen(deep);
    for (int k = 0; k < 70; k++) deep[at++] = '[';
    for (int k = 0; k < 70; k++) deep[at++] = ']';
    strcpy(deep + at, "}}");
    expect_header_error(deep, 4, "nesting too deep");
}

static void test_invalid_tensor_entries(void **state)
{
    (void)state;
#define T(dtype, shape, b, e) "{\"dtype\":\"" dtype "\",\"shape\":" shape ",\"data_offsets\":[" b "," e "]}"
    static const struct {
        const char *header;
        size_t data_len;
        const char *needle;
    } cases[] = {
        {"{\"a\":" T("F128", "[1]", "0", "4") "}", 4, "unknown dtype \"F128\" of tensor \"a\""},
        {"{\"a\":" T("f32", "[1]", "0", "4") "}", 4, "unknown dtype \"f32\""},
        {"{\"a\":" T("U16", "[2]", "0", "4") "}", 4, "safetensors dtype U16 of tensor \"a\" is not supported by nnscope"},
        {"{\"a\":{\"dtype\":5,\"shape\":[1],\"data_offsets\":[0,4]}}", 4, "the dtype of tensor \"a\" is not a string"},
        {"{\"a\":" T("F32", "[2]", "0", "4") "}", 4,
         "tensor \"a\" of dtype F32 and shape [2] needs 8 bytes but its data_offsets [0, 4] hold 4"},
        {"{\"a\":" T("F32", "[]", "0", "0") "}", 0, "needs 4 bytes"},
        {"{\"a\":" T("I64", "[0]", "0", "8") "}", 8, "needs 0 bytes"},
        {"{\"a\":" T("F32", "[2]", "0", "8") ",\"b\":" T("F32", "[2]", "4", "12") "}", 12,
         "the data of tensor \"b\" (data_offsets [4, 12]) overlaps"},
        {"{\"a\":" T("F32", "[2]", "0", "8") ",\"b\":" T("F32", "[2]", "0", "8") "}", 8, "overlaps"},
        {"{\"a\":" T("F32", "[1]", "4", "8") "}", 8, "bytes 0 to 4 of the data are not part of any tensor"},
        {"{\"a\":" T("F32", "[1]", "0", "4") ",\"b\":" T("F32", "[1]", "8", "12") "}", 12,
         "bytes 4 to 8 of the data are not part of any tensor (before tensor \"b\")"},
        {"{\"a\":" T("F32", "[2]", "0", "8") "}", 4, "the data is truncated: the header describes 8 bytes but only 4"},
        {"{\"a\":" T("F32", "[1]", "0", "4") "}", 8, "4 bytes follow the last tensor's data"},
        {"{}", 4, "4 bytes follow the last tensor's data"},
        {"{\"a\":" T("F32", "[1]", "8", "4") "}", 8, "data_offsets [8, 4] that end before they begin"},
        {"{\"a\":" T("F32", "[1]", "18446744073709551611", "18446744073709551615") "}", 4, "not part of any tensor"},
        {"{\"a\":" T("F32", "[1]", "0", "4") ",\"a\":" T("F32", "[1]", "4", "8") "}", 8,
         "duplicate key \"a\" in the header"},
        {"{\"__metadata__\":{},\"__metadata__\":{}}", 0, "duplicate key \"__metadata__\" in the header"},
        {"{\"__metadata__\":{\"k\":\"1\",\"j\":\"0\",\"k\":\"2\"}}", 0, "duplicate key \"k\" in \"__metadata__\""},
        {"{\"a\":{\"dtype\":\"F32\",\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
         "duplicate field \"dtype\" in tensor \"a\""},
        {"{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, "tensor \"a\" has no \"shape\" field"},
        {"{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}", 4, "has no \"dtype\" field"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4, "has no \"data_offsets\" field"},
        {"{\"__metadata__\":{\"k\":1}}", 0, "\"__metadata__\" value of key \"k\" is not a string"},
        {"{\"__metadata__\":{\"k\":null}}", 0, "is not a string"},
        {"{\"__metadata__\":{\"k\":[\"v\"]}}", 0, "is not a string"},
        {"{\"__metadata__\":[\"a\"]}", 0, "\"__metadata__\" must be an object of strings"},
        {"{\"__metadata__\":\"a\"}", 0, "must be an object"},
        {"{\"a\":5}", 0, "the entry of tensor \"a\" is not an object"},
        {"{\"a\":[]}", 0, "is not an object"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":5,\"data_offsets\":[0,4]}}", 4, "the shape of tensor \"a\" is not an array"},
        {"{\"a\":" T("F32", "[-1]", "0", "4") "}", 4, "holds something other than non-negative integers"},
        {"{\"a\":" T("F32", "[1.0]", "0", "4") "}", 4, "non-negative integers"},
        {"{\"a\":" T("F32", "[1e0]", "0", "4") "}", 4, "non-negative integers"},
        {"{\"a\":" T("F32", "[\"1\"]", "0", "4") "}", 4, "non-negative integers"},
        {"{\"a\":" T("F32", "[99999999999999999999]", "0", "4") "}", 4, "non-negative integers"},
        {"{\"a\":" T("F32", "[18446744073709551615]", "0", "4") "}", 4, "the size of tensor \"a\" overflows"},
        {"{\"a\":" T("F32", "[9223372036854775808,0]", "0", "0") "}", 0, "overflows"},
        {"{\"a\":" T("F32", "[4294967296,4294967296,4]", "0", "4") "}", 4, "overflows"},
        {"{\"a\":" T("F32", "[4611686018427387904]", "0", "4") "}", 4, "overflows"},
        {"{\"a\":" T("F32", "[0,4611686018427387904,4611686018427387904]", "0", "0") "}", 0, "overflows"}, /* issue 22 */
        {"{\"a\":" T("F32", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]", "0", "4") "}", 4,
         "tensor \"a\" has 17 dimensions; nnscope tensors have at most 16"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0]}}", 4, "are not two non-negative integers"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4,8]}}", 4, "are not two"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,-4]}}", 4, "are not two"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":{\"0\":4}}}", 4, "are not two"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[\"0\",\"4\"]}}", 4, "are not two"},
    };
#undef T
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        size_t len;
        unsigned char *b = make_file(cases[k].header, cases[k].data_len, &len);
        nn_safetensors *st = nn_safetensors_parse(b, len);
        if (st) fail_msg("case %zu parsed: %s", k, cases[k].header);
        if (nn_error_current() != NN_ERR_RUNTIME || !strstr(nn_error_message(), cases[k].needle))
            fail_msg("case %zu (%s): got '%s'", k, cases[k].header, nn_error_message());
        nn_error_clear();
        free(b);
    }
    /* a long name is shortened in messages, at a character boundary */
    char header[512];
    char name[201];
    for (int k = 0; k < 100; k++) memcpy(name + 2 * k, "\xc3\xa9", 2);
    name[200] = '\0';
    snprintf(header, sizeof header, "{\"%s\":{\"dtype\":\"X\",\"shape\":[],\"data_offsets\":[0,4]}}", name);
    expect_header_error(header, 4, "\xc3\xa9\xc3\xa9...\"");
}

static void test_lenient_reader(void **state)
{
    (void)state;
    /* whitespace everywhere, fields in any order, unknown fields, null metadata, \u escapes */
    const char *header =
        "{ \"b\" : { \"shape\" : [ 3 ] , \"dtype\" : \"BOOL\" , \"data_offsets\" : [ 8 , 11 ] , "
        "\"x\" : [ null , true , false , -1.5e-3 , 0 , 1E+2 , { \"y\" : \"z\" } , [ ] , { } ] } ,\r\n"
        "\t\"__metadata__\" : null , \"\\u00e9\\ud83d\\ude00\\/\\\"\\\\\\b\\f\\n\\r\\t\\u001f\" :"
        "{\"data_offsets\":[0,8],\"shape\":[2],\"dtype\":\"I32\"} }\n\t\r ";
    unsigned char data[11] = {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 1, 7};
    size_t len;
    unsigned char *b = make_file_n(header, strlen(header), data, sizeof data, &len);
    nn_safetensors *st = TU_OK(nn_safetensors_parse(b, len));
    assert_int_equal(st->n, 2);
    assert_null(st->metadata);
    assert_string_equal(st->tensors[0].name, "b");
    assert_string_equal(st->tensors[1].name, "\xc3\xa9\xf0\x9f\x98\x80/\"\\\b\f\n\r\t\x1f");
    tu_assert_values(st->tensors[1].tensor, 1, TU_SHAPE(2), TU_VALUES(1, -2), 0);
    /* bool bytes other than 0 read as true (stored as 1) */
    const nn_tensor *bt = st->tensors[0].tensor;
    assert_memory_equal(bt->storage->data, ((unsigned char[]){0, 1, 1}), 3);
    nn_safetensors_free(st);
    free(b);

    /* an empty "__metadata__" object and unpadded headers */
    b = make_file("{\"__metadata__\":{}}", 0, &len);
    st = TU_OK(nn_safetensors_parse(b, len));
    assert_non_null(st->metadata);
    assert_int_equal(st->n_metadata, 0);
    assert_int_equal(st->n, 0);
    nn_safetensors_free(st);
    free(b);

    /* empty and 0-dim tensors anywhere, even sharing an offset with another tensor */
    b = make_file("{\"s\":{\"dtype\":\"F64\",\"shape\":[],\"data_offsets\":[0,8]},"
                  "\"e\":{\"dtype\":\"F32\",\"shape\":[5,0],\"data_offsets\":[0,0]},"
                  "\"z\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,8]}}",
                  8, &len);
    st = TU_OK(nn_safetensors_parse(b, len));
    assert_int_equal(st->n, 3);
    tu_assert_values(nn_safetensors_get(st, "s"), 0, NULL, TU_VALUES(0), 0);
    tu_assert_values(nn_safetensors_get(st, "e"), 2, TU_SHAPE(5, 0), NULL, 0);
    nn_safetensors_free(st);
    free(b);
}

static void test_files(void **state)
{
    (void)state;
    char dir[64], path[128], sub[128], bad[160];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    nn_tensor *a = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4));
    nn_tensor *at = TU_OK(nn_transpose(a, 0, 1));
    nn_named_tensor items[] = {{"w", at}};
    const char *meta[] = {"format", "pt"};
    tu_check(nn_safetensors_save_file(path, items, 1, meta, 1));
    nn_safetensors *st = TU_OK(nn_safetensors_load_file(path));
    tu_assert_values(st->tensors[0].tensor, 2, TU_SHAPE(2, 2), TU_VALUES(1, 3, 2, 4), 0);
    assert_string_equal(nn_safetensors_metadata_get(st, "format"), "pt");
    nn_safetensors_free(st);
    assert_int_equal(count_entries(dir), 1);

    /* overwriting replaces the file */
    items[0].tensor = a;
    tu_check(nn_safetensors_save_file(path, items, 1, NULL, 0));
    st = TU_OK(nn_safetensors_load_file(path));
    tu_assert_values(st->tensors[0].tensor, 2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 3, 4), 0);
    assert_null(st->metadata);
    nn_safetensors_free(st);
    size_t good_len;
    unsigned char *good = read_bytes(path, &good_len);

    /* a missing directory */
    snprintf(bad, sizeof bad, "%s/missing/x.safetensors", dir);
    assert_int_equal(nn_safetensors_save_file(bad, items, 1, NULL, 0), -1);
    tu_assert_error(NN_ERR_RUNTIME, "No such file or directory");
    /* a directory in the way: the temporary file is written, the rename fails, nothing is left */
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    assert_int_equal(nn_safetensors_save_file(sub, items, 1, NULL, 0), -1);
    tu_assert_error(NN_ERR_RUNTIME, "cannot write");
    assert_int_equal(count_entries(dir), 2);
    assert_int_equal(count_entries(sub), 0);
    /* a failed save (bad input) leaves the existing file as it was */
    nn_named_tensor dup[] = {{"w", a}, {"w", a}};
    assert_int_equal(nn_safetensors_save_file(path, dup, 2, NULL, 0), -1);
    tu_assert_error(NN_ERR_VALUE, "duplicate");
    size_t now_len;
    unsigned char *now = read_bytes(path, &now_len);
    assert_int_equal(now_len, good_len);
    assert_memory_equal(now, good, good_len);
    free(now);

    /* reading errors */
    snprintf(bad, sizeof bad, "%s/absent.safetensors", dir);
    assert_null(nn_safetensors_load_file(bad));
    tu_assert_error(NN_ERR_RUNTIME, "cannot open");
    assert_null(nn_safetensors_load_file(sub));
    tu_assert_error(NN_ERR_RUNTIME, "Is a directory");
    snprintf(bad, sizeof bad, "%s/cut.safetensors", dir);
    for (size_t k = 0; k < good_len; k++) {
        write_bytes(bad, good, k);
        assert_null(nn_safetensors_load_file(bad));
        tu_assert_error(NN_ERR_RUNTIME, k < 8 ? "too few for the 8-byte header length" : "invalid safetensors file");
    }
    unsigned char *longer = malloc(good_len + 3);
    memcpy(longer, good, good_len);
    memset(longer + good_len, 0, 3);
    write_bytes(bad, longer, good_len + 3);
    assert_null(nn_safetensors_load_file(bad));
    tu_assert_error(NN_ERR_RUNTIME, "3 bytes follow the last tensor's data");
    free(longer);

    free(good);
    NN_RELEASE(a);
    NN_RELEASE(at);
    remove_tree(dir);
}

/* ------------------------------------------------- failing allocations */


static unsigned char *wl_bytes;
static size_t wl_len;
static char wl_path[128];

/* Parse, serialize, save and load: every allocation in it may fail. */
static int workload(void)
{
    int rc = -1;
    void *out = NULL;
    size_t len;
    nn_safetensors *st = nn_safetensors_parse(wl_bytes, wl_len), *st2 = NULL;
    if (!st) goto out;
    if (nn_safetensors_serialize(st->tensors, st->n, (const char *const *)st->metadata, st->n_metadata, &out,
                                 &len) < 0)
        goto out;
    if (len != wl_len || memcmp(out, wl_bytes, len) != 0) fail_msg("serialize gave other bytes");
    if (nn_safetensors_save_file(wl_path, st->tensors, st->n, (const char *const *)st->metadata, st->n_metadata) < 0)
        goto out;
    if (!(st2 = nn_safetensors_load_file(wl_path))) goto out;
    rc = 0;
out:
    nn_free(out);
    nn_safetensors_free(st);
    nn_safetensors_free(st2);
    return rc;
}

static void test_failing_allocations_report_memory_error(void **state)
{
    (void)state;
    char dir[64];
    make_temp_dir(dir);
    snprintf(wl_path, sizeof wl_path, "%s/w.safetensors", dir);
    wl_bytes = read_bytes("fixtures/st_basic.safetensors", &wl_len);
    tu_allocator old;
    tu_install_failing_alloc(&old);
    assert_int_equal(workload(), 0);
    long total = tu_alloc_count;
    assert_true(total > 20);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        unlink(wl_path);
        int rc = workload();
        assert_int_equal(rc, -1);
        if (nn_error_current() != NN_ERR_MEMORY)
            fail_msg("allocation %ld: %s: %s", tu_fail_at, nn_error_kind_name(nn_error_current()), nn_error_message());
        /* no temporary file is left behind; the target is whole or absent */
        int entries = count_entries(dir);
        assert_true(entries <= 1);
        if (entries == 1) {
            size_t len;
            unsigned char *got = read_bytes(wl_path, &len);
            assert_int_equal(len, wl_len);
            assert_memory_equal(got, wl_bytes, len);
            free(got);
        }
    }
    nn_error_clear();
    tu_restore_allocator(&old);
    free(wl_bytes);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fixtures),
        cmocka_unit_test(test_serialize_matches_reference),
        cmocka_unit_test(test_reference_unit_test_bytes),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_serialize_errors),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_truncated_and_extended_files),
        cmocka_unit_test(test_header_length_field),
        cmocka_unit_test(test_json_syntax_errors),
        cmocka_unit_test(test_invalid_tensor_entries),
        cmocka_unit_test(test_lenient_reader),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_failing_allocations_report_memory_error),
    };
    return cmocka_run_group_tests_name("safetensors", tests, load_expected, NULL);
}
