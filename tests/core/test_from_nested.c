/*
 * test_from_nested.c — torch.tensor(data) from nested lists: dtype and shape
 * inference and errors, against tests/fixtures/from_nested.txt (made by
 * gen_from_nested.py with PyTorch). The data is read from the Python literal
 * on each line by a small parser here.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* literal := number | True | False | None | 'str' | [items] | (items) */
static nn_object *parse(const char **p)
{
    while (**p == ' ') (*p)++;
    char c = **p;
    if (c == '[' || c == '(') {
        char close = c == '[' ? ']' : ')';
        (*p)++;
        nn_object *list = TU_OK(nn_list_new(0));
        while (**p == ' ') (*p)++;
        while (**p != close) {
            nn_object *item = parse(p);
            tu_check(nn_list_append(list, item));
            NN_RELEASE(item);
            while (**p == ' ' || **p == ',') (*p)++;
        }
        (*p)++;
        if (close == ']') return list;
        nn_object *t = TU_OK(nn_tuple_new(nn_list_len(list)));
        for (size_t i = 0; i < nn_list_len(list); i++) nn_tuple_set(t, i, nn_retain(nn_list_get(list, i)));
        NN_RELEASE(list);
        return t;
    }
    if (!strncmp(*p, "True", 4)) return *p += 4, nn_bool_new(true);
    if (!strncmp(*p, "False", 5)) return *p += 5, nn_bool_new(false);
    if (!strncmp(*p, "None", 4)) return *p += 4, nn_retain(nn_none());
    if (c == '\'') {
        const char *end = strchr(*p + 1, '\'');
        nn_object *s = TU_OK(nn_str_from(*p + 1, (size_t)(end - *p - 1)));
        *p = end + 1;
        return s;
    }
    size_t n = strspn(*p, "0123456789+-.e");
    char num[64];
    snprintf(num, sizeof num, "%.*s", (int)n, *p);
    *p += n;
    if (strpbrk(num, ".e")) return TU_OK(nn_float_new(strtod(num, NULL)));
    return TU_OK(nn_int_new(strtoll(num, NULL, 10)));
}

static void test_matches_pytorch(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/from_nested.txt");
    int n = 0;
    char *save, *line = strtok_r(text, "\n", &save);
    for (; line; line = strtok_r(NULL, "\n", &save), n++) {
        char *bar = strstr(line, " | ");
        *bar = '\0';
        const char *src = line, *want = bar + 3;
        nn_object *data = parse(&src);
        nn_tensor *t = nn_tensor_from_nested(data, -1);
        NN_RELEASE(data);
        if (!strncmp(want, "ERROR ", 6)) {
            char kind[32];
            sscanf(want + 6, "%31s", kind);
            const char *msg = want + 6 + strlen(kind) + 1;
            if (t) fail_msg("%s: expected %s", line, want);
            if (strcmp(nn_error_kind_name(nn_error_current()), kind) || strcmp(nn_error_message(), msg))
                fail_msg("%s: got %s %s, want %s %s", line, nn_error_kind_name(nn_error_current()), nn_error_message(), kind, msg);
            nn_error_clear();
            continue;
        }
        if (!t) fail_msg("%s: %s", line, nn_error_message());
        char dtype[16], shape[64];
        int used;
        sscanf(want, "%15s %63s %n", dtype, shape, &used);
        assert_string_equal(nn_dtype_short_name(t->dtype), dtype);
        int64_t sizes[8];
        int ndim = 0;
        for (char *s = shape; strcmp(shape, "-") && *s; s++) {
            sizes[ndim++] = strtoll(s, &s, 10);
            if (!*s) break;
        }
        double values[16];
        int nv = 0;
        for (const char *v = want + used; *v;) {
            char *end;
            values[nv] = strtod(v, &end);
            if (end == v) break;
            nv++;
            v = end;
        }
        tu_assert_values(t, ndim, sizes, values, 0);
        if (t->dtype == NN_INT64 && nv) /* big ints stay exact */
            assert_int_equal(((int64_t *)t->storage->data)[0], strtoll(want + used, NULL, 10));
        NN_RELEASE(t);
    }
    free(text);
    assert_int_equal(n, 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_pytorch),
    };
    return cmocka_run_group_tests_name("from_nested", tests, NULL, NULL);
}
