/*
 * mod_matplotlib.c — matplotlib._term, the terminal drawing under matplotlib.pyplot
 * (repl/lib/matplotlib.pyplot.py): braille(cols, rows, dots, color) draws the dots
 * (a flat list x0, y0, series0, x1, ...) on repl/plot.c's braille canvas and returns
 * its rows as strings; color(series) is the ANSI colour code plot() gives that series.
 */
#include "plot.h"
#include "stdlib_int.h"

static int int_item(nn_object *list, size_t i, int64_t *out)
{
    nn_object *v = nn_list_get(list, i);
    if (!nn_is_int(v)) return nn_error_set(NN_ERR_TYPE, "braille: dots must be ints");
    *out = nn_int_value(v);
    return 0;
}

static nn_object *m_braille(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("braille", args, kwargs, 4, 4) < 0) return NULL;
    nn_object *cols = nn_tuple_get(args, 0), *rows = nn_tuple_get(args, 1), *dots = nn_tuple_get(args, 2);
    if (!nn_is_int(cols) || !nn_is_int(rows) || !dots || dots->type != &nn_list_type)
        return nn_error_set(NN_ERR_TYPE, "braille(cols, rows, dots, color): ints and a list expected"), NULL;
    bool color = nn_is_true(nn_tuple_get(args, 3));
    repl_braille *c = repl_braille_new((int)nn_int_value(cols), (int)nn_int_value(rows));
    if (!c) return NULL;
    size_t n = nn_list_len(dots);
    nn_object *r = NULL;
    for (size_t i = 0; i + 2 < n; i += 3) {
        int64_t x = 0, y = 0, s = 0;
        if (int_item(dots, i, &x) < 0 || int_item(dots, i + 1, &y) < 0 || int_item(dots, i + 2, &s) < 0) goto out;
        if (x >= 0 && y >= 0 && s >= 0 && x < INT32_MAX && y < INT32_MAX) repl_braille_dot(c, (int)x, (int)y, (int)s);
    }
    int nrows = (int)nn_int_value(rows);
    if (!(r = nn_list_new((size_t)nrows))) goto out;
    for (int i = 0; i < nrows; i++) {
        char *line = repl_braille_row(c, i, color);
        nn_object *s = line ? nn_str_new(line) : NULL;
        nn_free(line);
        if (!s || nn_list_append(r, s) < 0) {
            NN_RELEASE(s);
            NN_SET(r, NULL);
            goto out;
        }
        NN_RELEASE(s);
    }
out:
    repl_braille_free(c);
    return r;
}

static nn_object *m_color(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("color", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *i = nn_tuple_get(args, 0);
    if (!nn_is_int(i) || nn_int_value(i) < 0) return nn_error_set(NN_ERR_TYPE, "color: a series index expected"), NULL;
    return nn_str_new(repl_braille_color((int)nn_int_value(i)));
}

static const repl_mod_fn fns[] = {
    {"braille", m_braille, "braille(cols, rows, dots, color)\nThe rows of a braille canvas with the dots drawn."},
    {"color", m_color, "color(series)\nThe ANSI colour code of a series."},
};

nn_object *repl_mod_matplotlib_term(void)
{
    nn_object *m = repl_module_new("matplotlib._term");
    if (m && repl_mod_add_fns(m, fns, sizeof fns / sizeof *fns) < 0) NN_SET(m, NULL);
    return m;
}
