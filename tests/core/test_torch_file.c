/*
 * test_torch_file.c — PyTorch's checkpoint format (core/torch_file.c,
 * core/torch_pickle.c): the bad files tests/fixtures/gen_torch_file.py made
 * with PyTorch 1.13 fail with the right error, every truncation and byte flip of
 * a good file fails cleanly or loads, a failed save leaves the old file whole,
 * map_location, and failing allocations. What PyTorch reads of nnscope's files
 * is checked by tests/fixtures/check_torch_file.py; what nnscope reads of
 * PyTorch's by tests/scripts/torch_file_load.py.
 */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX "fixtures/torch_file/"

static unsigned char *read_bytes(const char *path, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) != 0) fail_msg("cannot stat %s", path);
    *len = (size_t)sb.st_size;
    return (unsigned char *)tu_read_file(path);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static void make_temp_dir(char *dir)
{
    strcpy(dir, "/tmp/nnscope-torchfile-XXXXXX");
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    char p[512];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* --------------------------------------------------------------- bad files */

static void test_bad_files(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        nn_error_kind kind;
        const char *needle;
    } cases[] = {
        {"bad_global.pt", NN_ERR_UNPICKLING, "WeightsUnpickler error: Unsupported class posix.system"},
        {"bad_opcode.pt", NN_ERR_UNPICKLING, "invalid load key, '0xff'"},
        {"legacy.pt", NN_ERR_RUNTIME, "legacy format"},
        {"truncated.pt", NN_ERR_RUNTIME, "PytorchStreamReader failed reading zip archive: failed finding central directory"},
        {"short_storage.pt", NN_ERR_RUNTIME, "claims 6 elements of torch.float32 but its record holds 5 bytes"},
        {"huge_numel.pt", NN_ERR_RUNTIME, "claims 1000000000000 elements"},
        {"huge_size.pt", NN_ERR_RUNTIME, "needs more than its storage's 6 elements"},
        {"deep.pt", NN_ERR_UNPICKLING, "more than 1000 deep"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, FIX "%s", cases[i].file);
        nn_object *o = nn_torch_load_file(path, NULL);
        if (o) fail_msg("%s loaded", cases[i].file);
        tu_assert_error(cases[i].kind, cases[i].needle);
    }
    nn_object *o = nn_torch_load_file(FIX "missing.pt", NULL);
    assert_null(o);
    tu_assert_error(NN_ERR_RUNTIME, "No such file");
}

/* A file that is no zip archive is read as PyTorch 1.13 reads it, as the legacy
   format's first pickle (its magic number): the pickle's own error, EOFError when
   empty, "Invalid magic number" when it holds something else; a zip archive that
   cannot be read or lacks a record: PyTorch's zip reader's words (checked against
   torch.load of the same bytes). */
static void test_not_an_archive(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t len;
        nn_error_kind kind;
        const char *needle;
    } cases[] = {
        {"", 0, NN_ERR_EOF, "Ran out of input"},
        {"\x80\x02K\x05.", 5, NN_ERR_RUNTIME, "Invalid magic number; corrupt file?"},
        {"\x80", 1, NN_ERR_UNPICKLING, "pickle data was truncated"},
        {"XXhello", 7, NN_ERR_UNPICKLING, "pickle data was truncated"},
        {"\x80\x02(X\x07\x00\x00\x00storageQ.", 17, NN_ERR_UNPICKLING, "no persistent_load function"},
        {"PK\x03\x04", 4, NN_ERR_RUNTIME, "PytorchStreamReader failed reading zip archive: not a ZIP archive"},
        {"PK\x03\x04" "0123456789012345678901234", 29, NN_ERR_RUNTIME,
         "PytorchStreamReader failed reading zip archive: failed finding central directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nn_object *o = nn_torch_load_bytes(cases[i].bytes, cases[i].len, NULL);
        if (o) fail_msg("case %zu loaded", i);
        tu_assert_error(cases[i].kind, cases[i].needle);
    }
}

/* Every prefix of a good file, and every single-byte change of it, loads or fails
   with an error: never a crash (run under `make asan` too). */
static void test_truncations_and_flips(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = read_bytes(FIX "state_dict.pt", &len);
    nn_object *whole = nn_torch_load_bytes(data, len, NULL);
    assert_non_null(whole);
    assert_int_equal(nn_dict_len(whole), 7);
    NN_RELEASE(whole);
    for (size_t n = 0; n < len; n++) {
        nn_object *o = nn_torch_load_bytes(data, n, NULL);
        if (o) fail_msg("a %zu-byte prefix of %zu loaded", n, len);
        assert_true(nn_error_current() != NN_ERR_MEMORY);
        nn_error_clear();
    }
    int loaded = 0, failed = 0;
    for (size_t i = 0; i < len; i++) {
        static const unsigned char flips[] = {0x01, 0x80, 0xff};
        for (size_t f = 0; f < sizeof flips; f++) {
            data[i] ^= flips[f];
            nn_object *o = nn_torch_load_bytes(data, len, NULL);
            data[i] ^= flips[f];
            if (o) loaded++;
            else failed++;
            NN_RELEASE(o);
            nn_error_clear();
        }
    }
    assert_true(loaded > 0 && failed > 0);
    free(data);
}

/* -------------------------------------------------------------- round trips */

static nn_object *sample(void)
{
    int64_t sizes[2] = {3, 4};
    nn_tensor *base = tu_ok(nn_arange(0, 12, 1, false, NN_FLOAT32));
    nn_tensor *mat = tu_ok(nn_view(base, 2, sizes));
    nn_tensor *row = tu_ok(nn_select(mat, 0, 1));
    nn_object *d = tu_ok(nn_ordered_dict_new());
    tu_check(nn_dict_set_str(d, "mat", &mat->ob));
    tu_check(nn_dict_set_str(d, "row", &row->ob));
    nn_object *l = tu_ok(nn_list_new(0));
    nn_object *s = tu_ok(nn_str_new("x")), *i = tu_ok(nn_int_new(-300000)), *f = tu_ok(nn_float_new(0.1));
    tu_check(nn_list_append(l, s));
    tu_check(nn_list_append(l, i));
    tu_check(nn_list_append(l, f));
    tu_check(nn_list_append(l, nn_none()));
    tu_check(nn_dict_set_str(d, "list", l));
    NN_RELEASE(s);
    NN_RELEASE(i);
    NN_RELEASE(f);
    NN_RELEASE(l);
    NN_RELEASE(base);
    NN_RELEASE(mat);
    NN_RELEASE(row);
    return d;
}

static void test_round_trip_and_sharing(void **state)
{
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/ckpt.pt", dir);
    nn_object *d = sample();
    tu_check(nn_torch_save_file(d, path));
    nn_object *back = tu_ok(nn_torch_load_file(path, NULL));
    assert_true(nn_dict_is_ordered(back));
    size_t pos = 0;
    nn_object *k, *v;
    const char *order[] = {"mat", "row", "list"};
    for (int n = 0; nn_dict_next(back, &pos, &k, &v); n++) assert_string_equal(nn_str_cstr(k), order[n]);
    nn_tensor *mat = NN_TENSOR(nn_dict_get_str(back, "mat")), *row = NN_TENSOR(nn_dict_get_str(back, "row"));
    assert_ptr_equal(mat->storage, row->storage); /* the view stays a view */
    assert_int_equal(row->offset, 4);
    double want[] = {4, 5, 6, 7};
    int64_t four = 4;
    tu_assert_values(row, 1, &four, want, 0);
    nn_object *l = nn_dict_get_str(back, "list");
    assert_int_equal(nn_int_value(nn_list_get(l, 1)), -300000);
    assert_true(nn_float_value(nn_list_get(l, 2)) == 0.1);
    assert_true(nn_is_none(nn_list_get(l, 3)));
    NN_RELEASE(back);

    /* map_location: a dict sending cpu storages to a CUDA device this build lacks */
    nn_object *m = tu_ok(nn_dict_new()), *cuda = tu_ok(nn_str_new("cuda:0"));
    tu_check(nn_dict_set_str(m, "cpu", cuda));
    assert_null(nn_torch_load_file(path, m));
    tu_assert_error(NN_ERR_RUNTIME, "torch.cuda.is_available() is False");
    assert_null(nn_torch_load_file(path, cuda));
    tu_assert_error(NN_ERR_RUNTIME, "map_location=torch.device('cpu')");
    nn_object *bad = tu_ok(nn_int_new(3));
    assert_null(nn_torch_load_file(path, bad));
    tu_assert_error(NN_ERR_TYPE, "map_location");
    NN_RELEASE(bad);
    NN_RELEASE(cuda);
    NN_RELEASE(m);

    /* a failed save (an object the format cannot hold) leaves the old file whole
       and no temporary file behind */
    size_t len0, len1;
    unsigned char *before = read_bytes(path, &len0);
    nn_object *fn = tu_ok(nn_cfunction_new("f", NULL, NULL, NULL));
    tu_check(nn_dict_set_str(d, "fn", fn));
    assert_int_equal(nn_torch_save_file(d, path), -1);
    tu_assert_error(NN_ERR_TYPE, "cannot pickle");
    unsigned char *after = read_bytes(path, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    assert_int_equal(count_entries(dir), 1);
    free(before);
    free(after);
    NN_RELEASE(fn);

    snprintf(path, sizeof path, "%s/no/such/dir.pt", dir);
    assert_int_equal(nn_torch_save_file(d, path), -1);
    tu_assert_error(NN_ERR_RUNTIME, "Parent directory");
    NN_RELEASE(d);
    remove_dir(dir);
}

/* Every allocation of a save and a load failing in turn: MemoryError, no crash,
   no partial file. */
static void test_failing_allocations(void **state)
{
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/a.pt", dir);
    nn_object *d = sample();
    tu_allocator old;
    tu_install_failing_alloc(&old);
    tu_check(nn_torch_save_file(d, path));
    nn_object *o = tu_ok(nn_torch_load_file(path, NULL));
    NN_RELEASE(o);
    long total = tu_alloc_count;
    assert_true(total > 20);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        unlink(path);
        int rc = nn_torch_save_file(d, path);
        if (rc == 0) {
            o = nn_torch_load_file(path, NULL);
            rc = o ? 0 : -1;
            NN_RELEASE(o);
        }
        assert_int_equal(rc, -1);
        if (nn_error_current() != NN_ERR_MEMORY)
            fail_msg("allocation %ld: %s: %s", tu_fail_at, nn_error_kind_name(nn_error_current()), nn_error_message());
        assert_true(count_entries(dir) <= 1);
    }
    nn_error_clear();
    tu_restore_allocator(&old);
    NN_RELEASE(d);
    remove_dir(dir);
}

/* torch.save to memory (an io.BytesIO): the same records as a file, loaded back
   from the bytes; a save that fails gives no bytes; every allocation failing in
   turn is MemoryError. */
static void test_save_bytes(void **state)
{
    (void)state;
    nn_object *d = sample();
    void *data = NULL;
    size_t len = 0;
    tu_check(nn_torch_save_bytes(d, &data, &len));
    assert_true(len > 4);
    assert_memory_equal(data, "PK\3\4", 4);
    nn_object *back = tu_ok(nn_torch_load_bytes(data, len, NULL));
    nn_tensor *mat = NN_TENSOR(nn_dict_get_str(back, "mat")), *row = NN_TENSOR(nn_dict_get_str(back, "row"));
    assert_ptr_equal(mat->storage, row->storage);
    double want[] = {4, 5, 6, 7};
    int64_t four = 4;
    tu_assert_values(row, 1, &four, want, 0);
    NN_RELEASE(back);
    nn_free(data);

    nn_object *fn = tu_ok(nn_cfunction_new("f", NULL, NULL, NULL));
    tu_check(nn_dict_set_str(d, "fn", fn));
    assert_int_equal(nn_torch_save_bytes(d, &data, &len), -1);
    tu_assert_error(NN_ERR_TYPE, "cannot pickle");
    assert_null(data);
    assert_int_equal(len, 0);
    tu_check(nn_dict_del_str(d, "fn"));
    NN_RELEASE(fn);

    tu_allocator old;
    tu_install_failing_alloc(&old);
    tu_check(nn_torch_save_bytes(d, &data, &len));
    nn_free(data);
    long total = tu_alloc_count;
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        assert_int_equal(nn_torch_save_bytes(d, &data, &len), -1);
        assert_null(data);
        if (nn_error_current() != NN_ERR_MEMORY)
            fail_msg("allocation %ld: %s: %s", tu_fail_at, nn_error_kind_name(nn_error_current()), nn_error_message());
    }
    nn_error_clear();
    tu_restore_allocator(&old);
    NN_RELEASE(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_not_an_archive),
        cmocka_unit_test(test_truncations_and_flips),
        cmocka_unit_test(test_round_trip_and_sharing),
        cmocka_unit_test(test_failing_allocations),
        cmocka_unit_test(test_save_bytes),
    };
    return cmocka_run_group_tests_name("torch_file", tests, NULL, NULL);
}
