/*
 * bind_optim_repr.c — print(optimizer) as PyTorch's Optimizer.__repr__ once the
 * language holds the param_groups dicts (opt.param_groups was read, a scheduler
 * ran): each group's keys sorted, 'params' left out, each value as str() shows
 * it, so that keys core's repr does not know (a scheduler's 'initial_lr', any
 * key a script adds) are printed too. Core's own repr serves until then.
 */
#include <stdlib.h>
#include <string.h>

#include "bind_int.h"
#include "stdlib_int.h"

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* One group's lines into b: 0, 1 when the dict is not all str keys (core's repr
   then), -1 with the error. */
static int group_lines(sbuf *b, nn_object *d)
{
    size_t n = nn_dict_len(d), k = 0, pos = 0;
    const char **keys = nn_malloc((n ? n : 1) * sizeof *keys);
    if (!keys) return -1;
    nn_object *key, *v;
    while (nn_dict_next(d, &pos, &key, &v)) {
        if (!nn_is_str(key)) {
            nn_free(keys);
            return 1;
        }
        if (strcmp(nn_str_cstr(key), "params") != 0) keys[k++] = nn_str_cstr(key);
    }
    qsort(keys, k, sizeof *keys, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0; i++) {
        char *s = repl_obj_str(nn_dict_get_str(d, keys[i]));
        if (!s) rc = -1;
        else repl_sb_printf(b, "    %s: %s\n", keys[i], s);
        nn_free(s);
    }
    nn_free(keys);
    return rc;
}

char *repl_optim_repr(nn_optimizer *opt)
{
    nn_object *groups = *nn_optimizer_lang_slot(opt);
    size_t n = nn_optimizer_num_groups(opt);
    if (!groups || !nn_is_list(groups) || nn_list_len(groups) != n) return NULL;
    sbuf b = {0};
    repl_sb_printf(&b, "%s (", ((nn_object *)opt)->type->name);
    int rc = 0;
    for (size_t g = 0; g < n && rc == 0; g++) {
        nn_object *d = nn_list_get(groups, g);
        if (!nn_is_dict(d)) rc = 1;
        else {
            repl_sb_printf(&b, "\nParameter Group %zu\n", g);
            rc = group_lines(&b, d);
        }
    }
    repl_sb_puts(&b, ")");
    char *r = repl_sb_finish(&b);
    if (rc != 0) {
        nn_free(r);
        r = NULL;
    }
    return r;
}
