/*
 * summary.c — torchinfo's summary table (format of torchinfo 1.8.0: columns
 * "Output Shape" and "Param #", col_width 25, name column 40 wide or rounded
 * up to a multiple of 5, "├─"/"│    └─" tree, depth-idx numbering, "--",
 * "(n)" for frozen layers, "(recursive)", totals and MB lines) from one
 * forward with hooks. Not a profiler: mult-adds follow torchinfo's rule
 * (output_size[0] * params for weight/bias) and nothing is timed.
 *
 * Input: torchinfo feeds torch.rand; we feed zeros, which gives the same shapes
 * and leaves the default generator untouched. "Input size" is the input's bytes
 * plus the 56 bytes sys.getsizeof adds for a torch 1.13 storage object, as
 * torchinfo's get_total_memory_used counts it (tests/fixtures/gen_summary.py).
 */
#include "summary.h"

void (*repl_summary_pager)(const char *text) = NULL;

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "repl.h"

#define NAME_WIDTH 40
#define COL_WIDTH 25
#define STORAGE_OVERHEAD 56

/* One row: a module's LayerInfo. */
typedef struct row {
    nn_module *module; /* borrowed (the model holds it) */
    int depth, depth_index;
    bool is_leaf, is_recursive, executed;
    int out_ndim;
    int64_t out_sizes[NN_MAX_DIMS];
    int64_t num_params, trainable_params, param_bytes, output_bytes, macs;
    int64_t leftover, leftover_trainable;
} row;

/* Where a module sits in the tree (its last place in torchinfo's walk). */
typedef struct place {
    nn_module *module;
    int depth;
    int last_row; /* index of its latest row, -1 before its pre-hook */
} place;

typedef struct ctx {
    row *rows;
    size_t n_rows, cap_rows;
    place *places;
    size_t n_places, cap_places;
} ctx;

/* A growing string; on failure `failed` is set and appends do nothing. */
typedef struct buf {
    char *s;
    size_t len, cap;
    bool failed;
} buf;

static void put_n(buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = nn_realloc(b->s, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}
static void put(buf *b, const char *s) { put_n(b, s, strlen(s)); }

/* Code points in a UTF-8 string (what Python's str.ljust counts). */
static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

/* s padded with spaces to width code points, then one space (format_row's cell). */
static void put_cell(buf *b, const char *s, size_t width)
{
    put(b, s);
    for (size_t n = utf8_len(s); n < width; n++) put(b, " ");
    put(b, " ");
}

/* Python's f"{v:,}" for an integer into out. */
static void fmt_thousands(int64_t v, char *out, size_t n)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", (long long)(v < 0 ? -v : v));
    size_t nd = strlen(digits), o = 0;
    if (v < 0 && o + 1 < n) out[o++] = '-';
    for (size_t i = 0; i < nd && o + 1 < n; i++) {
        if (i > 0 && (nd - i) % 3 == 0 && o + 1 < n) out[o++] = ',';
        if (o + 1 < n) out[o++] = digits[i];
    }
    out[o] = '\0';
}

/* ModelStatistics.format_output_num: ": 1,234" (units "") or " (M): 7.52" (auto). */
static void fmt_output_num(int64_t num, bool auto_units, char *out, size_t n)
{
    const char *unit = "";
    double conv = (double)num;
    if (auto_units) {
        if (conv >= 1e12) unit = "T", conv /= 1e12;
        else if (conv >= 1e9) unit = "G", conv /= 1e9;
        else unit = "M", conv /= 1e6;
    }
    char disp[16] = "";
    if (*unit) snprintf(disp, sizeof disp, " (%s)", unit);
    char num_s[72];
    if (conv == floor(conv) && fabs(conv) < 9e18) {
        fmt_thousands((int64_t)conv, num_s, sizeof num_s);
    } else { /* f"{x:,.2f}": group the integer part */
        char fixed[64], ip[64];
        snprintf(fixed, sizeof fixed, "%.2f", conv);
        char *dot = strchr(fixed, '.');
        *dot = '\0';
        long long whole = 0;
        sscanf(fixed, "%lld", &whole);
        fmt_thousands(whole, ip, sizeof ip);
        snprintf(num_s, sizeof num_s, "%s.%s", ip, dot + 1);
    }
    snprintf(out, n, "%s: %s", disp, num_s);
}

static place *find_place(ctx *c, nn_module *m)
{
    for (size_t i = 0; i < c->n_places; i++)
        if (c->places[i].module == m) return &c->places[i];
    return NULL;
}

/* num_params, trainable_params, param_bytes over m.named_parameters(). 0 or -1. */
static int count_params(row *r)
{
    nn_object *list = nn_module_named_parameters(r->module, "", true, true);
    if (!list) return -1;
    for (size_t i = 0; i < nn_list_len(list); i++) {
        nn_tensor *p = NN_TENSOR(nn_tuple_get(nn_list_get(list, i), 1));
        int64_t n = nn_numel(p);
        r->num_params += n;
        r->param_bytes += n * (int64_t)nn_dtype_size(p->dtype);
        if (p->requires_grad) r->trainable_params += n;
    }
    NN_RELEASE(list);
    return 0;
}

/* LayerInfo.calculate_macs: torchinfo's rule, from the output shape. 0 or -1. */
static int count_macs(row *r)
{
    nn_object *list = nn_module_named_parameters(r->module, "", true, true);
    if (!list) return -1;
    bool conv = strstr(nn_module_name(r->module), "Conv") != NULL;
    int64_t d0 = r->out_ndim > 0 ? r->out_sizes[0] : 0, d01 = 1, rest = d0;
    for (int i = 0; i < r->out_ndim && i < 2; i++) d01 *= r->out_sizes[i];
    for (int i = 2; i < r->out_ndim; i++) rest *= r->out_sizes[i];
    if (r->out_ndim == 0) d01 = 1, rest = 1;
    for (size_t i = 0; i < nn_list_len(list); i++) {
        nn_object *item = nn_list_get(list, i);
        const char *name = nn_str_cstr(nn_tuple_get(item, 0));
        int64_t n = nn_numel(NN_TENSOR(nn_tuple_get(item, 1)));
        if (!strcmp(name, "weight") || !strcmp(name, "bias")) r->macs += conv ? n * rest : d0 * n;
        else if (strstr(name, "weight") || strstr(name, "bias")) r->macs += d01 * n;
    }
    NN_RELEASE(list);
    return 0;
}

/* hook(module, args): appends the module's row (torchinfo's pre_hook). */
static nn_object *pre_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    ctx *c = ud;
    nn_module *m = NN_MODULE(nn_tuple_get(args, 0));
    place *pl = find_place(c, m);
    if (!pl) return nn_retain(nn_none()); /* a module added during the forward */
    if (c->n_rows == c->cap_rows) {
        size_t cap = c->cap_rows ? 2 * c->cap_rows : 16;
        row *p = nn_realloc(c->rows, cap * sizeof *p);
        if (!p) return NULL;
        c->rows = p;
        c->cap_rows = cap;
    }
    row *r = &c->rows[c->n_rows];
    memset(r, 0, sizeof *r);
    r->module = m;
    r->depth = pl->depth;
    nn_object *kids = nn_module_children(m);
    if (!kids) return NULL;
    r->is_leaf = nn_list_len(kids) == 0;
    NN_RELEASE(kids);
    r->is_recursive = pl->last_row >= 0;
    if (count_params(r) < 0) return NULL;
    pl->last_row = (int)c->n_rows++;
    return nn_retain(nn_none());
}

/* hook(module, args, output): records the output shape and mult-adds. */
static nn_object *fwd_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    ctx *c = ud;
    place *pl = find_place(c, NN_MODULE(nn_tuple_get(args, 0)));
    if (!pl || pl->last_row < 0) return nn_retain(nn_none());
    row *r = &c->rows[pl->last_row];
    nn_object *out = nn_tuple_get(args, 2);
    r->executed = true;
    if (nn_is_tensor(out)) {
        nn_tensor *t = NN_TENSOR(out);
        r->out_ndim = t->ndim;
        memcpy(r->out_sizes, t->sizes, sizeof t->sizes);
        r->output_bytes = nn_numel(t) * (int64_t)nn_dtype_size(t->dtype);
        if (count_macs(r) < 0) return NULL;
    }
    return nn_retain(nn_none());
}

/* torchinfo's walk: depth-first from the root, children in order; a module met
   twice keeps the depth of its last place. 0 or -1 (MemoryError). */
static int walk(ctx *c, nn_module *m, int depth)
{
    place *pl = find_place(c, m);
    if (!pl) {
        if (c->n_places == c->cap_places) {
            size_t cap = c->cap_places ? 2 * c->cap_places : 16;
            place *p = nn_realloc(c->places, cap * sizeof *p);
            if (!p) return -1;
            c->places = p;
            c->cap_places = cap;
        }
        pl = &c->places[c->n_places++];
        pl->module = m;
        pl->last_row = -1;
    }
    pl->depth = depth;
    size_t pos = 0;
    nn_object *key, *value;
    while (nn_dict_next(m->modules, &pos, &key, &value))
        if (nn_is_module(value) && walk(c, NN_MODULE(value), depth + 1) < 0) return -1;
    return 0;
}

/* The rows' numbering, leftover params (over descendants, last row first), totals. */
static void finish_rows(ctx *c)
{
    int idx[64] = {0};
    for (size_t i = 0; i < c->n_rows; i++) {
        row *r = &c->rows[i];
        r->depth_index = r->depth < 64 ? ++idx[r->depth] : 0;
    }
    for (size_t i = c->n_rows; i-- > 0;) {
        row *r = &c->rows[i];
        r->leftover = r->num_params;
        r->leftover_trainable = r->trainable_params;
        for (size_t j = i + 1; j < c->n_rows && c->rows[j].depth > r->depth; j++) {
            row *k = &c->rows[j];
            if (k->is_recursive) continue;
            r->leftover -= k->is_leaf ? k->num_params : k->leftover;
            r->leftover_trainable -= k->is_leaf ? k->trainable_params : k->leftover_trainable;
        }
    }
}

/* "Linear: 1-3" (torchinfo's get_layer_name with show_depth). */
static void layer_name(const row *r, char *out, size_t n)
{
    if (r->depth == 0) snprintf(out, n, "%s", nn_module_name(r->module));
    else snprintf(out, n, "%s: %d-%d", nn_module_name(r->module), r->depth, r->depth_index);
}

static void put_row(buf *b, const char *name, const char *c1, const char *c2, size_t name_width)
{
    size_t start = b->len;
    put_cell(b, name, name_width);
    put_cell(b, c1, COL_WIDTH);
    put_cell(b, c2, COL_WIDTH);
    if (b->failed) return;
    while (b->len > start && b->s[b->len - 1] == ' ') b->s[--b->len] = '\0'; /* rstrip */
    put(b, "\n");
}

static char *render(ctx *c, int depth, int64_t input_bytes)
{
    buf b = {0};
    int64_t total_params = 0, trainable = 0, param_bytes = 0, output_bytes = 0, macs = 0;
    size_t name_width = NAME_WIDTH, max_len = 0;
    char name[512], shape[512], params[64], line[192];
    for (size_t i = 0; i < c->n_rows; i++) {
        row *r = &c->rows[i];
        if (r->is_leaf) {
            macs += r->macs;
            if (r->num_params > 0) output_bytes += 2 * r->output_bytes;
            if (r->is_recursive) continue;
            total_params += r->num_params > 0 ? r->num_params : 0;
            param_bytes += r->param_bytes;
            trainable += r->trainable_params > 0 ? r->trainable_params : 0;
        } else if (!r->is_recursive) {
            total_params += r->leftover > 0 ? r->leftover : 0;
            trainable += r->leftover_trainable > 0 ? r->leftover_trainable : 0;
        }
    }
    for (size_t i = 0; i < c->n_rows; i++) { /* set_layer_name_width: every row counts */
        layer_name(&c->rows[i], name, sizeof name);
        size_t len = utf8_len(name) + (size_t)c->rows[i].depth * 5 + 1;
        if (len > max_len) max_len = len;
    }
    if (max_len >= name_width) name_width = (max_len + 4) / 5 * 5;
    size_t total_width = name_width + 2 * COL_WIDTH;

    char *divider = nn_malloc(total_width + 2);
    if (!divider) return NULL;
    memset(divider, '=', total_width);
    divider[total_width] = '\n';
    divider[total_width + 1] = '\0';

    put(&b, divider);
    put_row(&b, "Layer (type:depth-idx)", "Output Shape", "Param #", name_width);
    put(&b, divider);
    for (size_t i = 0; i < c->n_rows; i++) {
        row *r = &c->rows[i];
        if (r->depth > depth) continue;
        char tree[512] = "";
        if (r->depth == 1) strcpy(tree, "├─");
        else if (r->depth > 1) {
            for (int d = 1; d < r->depth && strlen(tree) + 16 < sizeof tree; d++) strcat(tree, "│    ");
            strcat(tree, "└─");
        }
        layer_name(r, name, sizeof name);
        char full[1024];
        snprintf(full, sizeof full, "%s%s", tree, name);
        if (r->out_ndim == 0) strcpy(shape, "--");
        else {
            size_t o = 0;
            o += (size_t)snprintf(shape + o, sizeof shape - o, "[");
            for (int d = 0; d < r->out_ndim && o < sizeof shape; d++)
                o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%lld", d ? ", " : "", (long long)r->out_sizes[d]);
            if (o < sizeof shape) snprintf(shape + o, sizeof shape - o, "]");
        }
        bool reached = r->depth == depth;
        if (r->num_params == 0) strcpy(params, "--");
        else if (r->is_recursive) strcpy(params, "(recursive)");
        else if (reached || r->is_leaf) {
            char n[48];
            fmt_thousands(r->num_params, n, sizeof n);
            if (r->trainable_params) snprintf(params, sizeof params, "%s", n);
            else snprintf(params, sizeof params, "(%s)", n);
        } else if (r->leftover > 0) fmt_thousands(r->leftover, params, sizeof params);
        else strcpy(params, "--");
        put_row(&b, full, shape, params, name_width);
    }
    put(&b, divider);
    char num[128];
    fmt_output_num(total_params, false, num, sizeof num);
    snprintf(line, sizeof line, "Total params%s\n", num);
    put(&b, line);
    fmt_output_num(trainable, false, num, sizeof num);
    snprintf(line, sizeof line, "Trainable params%s\n", num);
    put(&b, line);
    fmt_output_num(total_params - trainable, false, num, sizeof num);
    snprintf(line, sizeof line, "Non-trainable params%s\n", num);
    put(&b, line);
    fmt_output_num(macs, true, num, sizeof num);
    snprintf(line, sizeof line, "Total mult-adds%s\n", num);
    put(&b, line);
    put(&b, divider);
    snprintf(line, sizeof line, "Input size (MB): %.2f\n", (double)input_bytes / 1e6);
    put(&b, line);
    snprintf(line, sizeof line, "Forward/backward pass size (MB): %.2f\n", (double)output_bytes / 1e6);
    put(&b, line);
    snprintf(line, sizeof line, "Params size (MB): %.2f\n", (double)param_bytes / 1e6);
    put(&b, line);
    snprintf(line, sizeof line, "Estimated Total Size (MB): %.2f\n",
             (double)(input_bytes + output_bytes + param_bytes) / 1e6);
    put(&b, line);
    put_n(&b, divider, total_width);
    nn_free(divider);
    if (b.failed) {
        nn_free(b.s);
        return NULL;
    }
    return b.s;
}

/* Deletes every entry of d whose value is hook, by the dict's own key (no
   allocation, so cleanup works when memory is short; nn_hook_handle_remove
   allocates a key and would leave the hook behind). */
static void remove_hook(nn_object *d, nn_object *hook)
{
    for (bool again = true; again;) {
        again = false;
        size_t pos = 0;
        nn_object *key, *value;
        while (nn_dict_next(d, &pos, &key, &value))
            if (value == hook) {
                nn_retain(key);
                nn_dict_del(d, key);
                nn_release(key);
                again = true;
                break;
            }
    }
}

char *repl_summary(nn_module *model, int ndim, const int64_t *sizes, int depth)
{
    if (ndim < 1 || ndim > NN_MAX_DIMS) {
        nn_error_set(NN_ERR_VALUE, "Input_data is invalid, or negative size found in input_data.");
        return NULL;
    }
    for (int i = 0; i < ndim; i++)
        if (sizes[i] <= 0) {
            nn_error_set(NN_ERR_VALUE, "Input_data is invalid, or negative size found in input_data.");
            return NULL;
        }
    if (depth < 0) {
        nn_error_set(NN_ERR_VALUE, "summary: depth must be >= 0");
        return NULL;
    }
    ctx c = {0};
    char *result = NULL;
    nn_object *pre = NULL, *post = NULL, **handles = NULL, *mods = NULL;
    bool *modes = NULL;
    nn_tensor *x = NULL, *y = NULL;
    size_t n_handles = 0, n_modes = 0;
    bool grad_was = nn_grad_enabled(), modes_saved = false;

    if (walk(&c, model, 0) < 0) goto out;
    if (!(pre = nn_cfunction_new("summary_pre_hook", pre_hook, &c, NULL))) goto out;
    if (!(post = nn_cfunction_new("summary_hook", fwd_hook, &c, NULL))) goto out;
    if (!(handles = nn_calloc(2 * c.n_places + 1, sizeof *handles))) goto out;
    for (size_t i = 0; i < c.n_places; i++) {
        nn_hook_options opts = {0};
        if (!(handles[n_handles] = nn_module_register_hook(c.places[i].module, NN_HOOK_FORWARD_PRE, pre, opts)))
            goto out;
        n_handles++;
        if (!(handles[n_handles] = nn_module_register_hook(c.places[i].module, NN_HOOK_FORWARD, post, opts)))
            goto out;
        n_handles++;
    }
    if (!(mods = nn_module_modules(model))) goto out;
    n_modes = nn_list_len(mods);
    if (!(modes = nn_calloc(n_modes + 1, sizeof *modes))) goto out;
    for (size_t i = 0; i < n_modes; i++) modes[i] = NN_MODULE(nn_list_get(mods, i))->training;
    modes_saved = true;
    if (nn_module_train(model, false) < 0) goto out;
    if (!(x = nn_zeros(ndim, sizes, NN_FLOAT32))) goto out;
    nn_set_grad_enabled(false);
    y = nn_module_call1(model, x);
    nn_set_grad_enabled(grad_was);
    if (!y) goto out;
    finish_rows(&c);
    result = render(&c, depth, nn_numel(x) * 4 + STORAGE_OVERHEAD);
out:
    for (size_t i = 0; i < n_handles; i++) NN_RELEASE(handles[i]);
    for (size_t i = 0; pre && post && i < c.n_places; i++) {
        remove_hook(c.places[i].module->forward_pre_hooks, pre);
        remove_hook(c.places[i].module->forward_hooks, post);
    }
    if (modes_saved)
        for (size_t i = 0; i < n_modes; i++) NN_MODULE(nn_list_get(mods, i))->training = modes[i];
    nn_free(modes);
    NN_RELEASE(mods);
    nn_free(handles);
    NN_RELEASE(pre);
    NN_RELEASE(post);
    NN_RELEASE(x);
    NN_RELEASE(y);
    nn_free(c.rows);
    nn_free(c.places);
    return result;
}

/* ------------------------------------------------------------------ the language's summary() */

nn_object *repl_builtin_summary(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3];
    if (repl_parse_args("summary", "model, input_size, depth=", args, kwargs, a) < 0) return NULL;
    if (!nn_is_module(a[0])) {
        nn_error_set(NN_ERR_TYPE, "summary(): argument 'model' must be nn.Module, not %s", repl_value_type_name(a[0]));
        return NULL;
    }
    int ndim;
    int64_t sizes[NN_MAX_DIMS], depth = 3;
    if (repl_arg_shape("summary", "input_size", a[1], &ndim, sizes) < 0 ||
        repl_arg_int("summary", "depth", 3, a[2], &depth) < 0)
        return NULL;
    if (depth > 1000) depth = 1000;
    char *text = repl_summary((nn_module *)a[0], ndim, sizes, depth < -1 ? -1 : (int)depth);
    if (!text) return NULL;
    if (repl_summary_pager) { /* the notebook: through the pager when taller than the terminal */
        size_t n = strlen(text);
        char *grown = nn_realloc(text, n + 2);
        if (!grown) {
            nn_free(text);
            return NULL;
        }
        text = grown;
        memcpy(text + n, "\n", 2);
        repl_summary_pager(text);
    } else {
        repl_interp_write(text, strlen(text));
        repl_interp_write("\n", 1);
    }
    nn_free(text);
    return nn_retain(nn_none());
}
