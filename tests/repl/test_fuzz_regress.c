/*
 * test_fuzz_regress.c — the inputs with which the fuzzers (fuzz/fuzz_*.c, `make
 * fuzz`) found bugs, replayed through the same targets built without libFuzzer
 * (each target's entry point renamed here): tests/fuzz/NAME/ holds target
 * fuzz_NAME's inputs. Each must run to its end: no crash, no hang; under `make
 * asan` no leak and no undefined behaviour.
 */
#include "test_util.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LLVMFuzzerTestOneInput fuzz_one_parse
#include "fuzz/fuzz_parse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_one_lang
#include "fuzz/fuzz_lang.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_one_safetensors
#include "fuzz/fuzz_safetensors.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_one_torch_load
#include "fuzz/fuzz_torch_load.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_one_sessions
#include "fuzz/fuzz_sessions.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_one_loaders
#include "fuzz/fuzz_loaders.c"
#undef LLVMFuzzerTestOneInput

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

/* Every file of tests/fuzz/name (absolute paths: the targets change directory),
   as a NULL-terminated malloc'd array. */
static char fuzz_root[PATH_MAX]; /* tests/fuzz, absolute (main resolves it) */

static char **inputs_of(const char *name)
{
    char dir[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/%s", fuzz_root, name);
    char **paths = calloc(1, sizeof *paths);
    assert_non_null(paths);
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        paths = realloc(paths, (n + 2) * sizeof *paths);
        assert_non_null(paths);
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        paths[n] = malloc(len);
        snprintf(paths[n], len, "%s/%s", dir, e->d_name);
        paths[++n] = NULL;
    }
    closedir(d);
    return paths;
}

/* Replays name's inputs through fn; returns how many there were. */
static size_t replay(const char *name, fuzz_fn fn)
{
    char **paths = inputs_of(name);
    size_t n = 0;
    for (; paths[n]; n++) {
        FILE *f = fopen(paths[n], "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *data = malloc(len > 0 ? (size_t)len : 1);
        assert_non_null(data);
        assert_int_equal(fread(data, 1, (size_t)len, f), (size_t)len);
        fclose(f);
        fn(data, (size_t)len);
        /* the target leaves no error set and no Ctrl-C pending */
        assert_int_equal(nn_error_current(), NN_OK);
        assert_int_equal(nn_interrupt_requested, 0);
        free(data);
        free(paths[n]);
    }
    free(paths);
    return n;
}

/* each target has inputs: the findings, and the seeds that reach its deep paths */
static void test_parse(void **state) { (void)state; assert_true(replay("parse", fuzz_one_parse) > 0); }
static void test_lang(void **state) { (void)state; assert_true(replay("lang", fuzz_one_lang) > 0); }
static void test_safetensors(void **state) { (void)state; assert_true(replay("safetensors", fuzz_one_safetensors) > 0); }
static void test_torch_load(void **state) { (void)state; assert_true(replay("torch_load", fuzz_one_torch_load) > 0); }
static void test_sessions(void **state) { (void)state; assert_true(replay("sessions", fuzz_one_sessions) > 0); }
static void test_loaders(void **state) { (void)state; assert_true(replay("loaders", fuzz_one_loaders) > 0); }

int main(void)
{
    if (!realpath("fuzz", fuzz_root)) {
        perror("tests/fuzz");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),    cmocka_unit_test(test_lang),     cmocka_unit_test(test_safetensors),
        cmocka_unit_test(test_torch_load), cmocka_unit_test(test_sessions), cmocka_unit_test(test_loaders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
