/*
 * render.c — the inspector's panes drawn on the virtual screen (screen.c): title,
 * module tree, the selected module's details in one of five modes (all,
 * parameters, activations, gradients, histograms) with block-character
 * histograms, sparklines and an activation's curve (curve.c), the problems panel,
 * the output area and the command line, and the key help. The ncurses driver
 * (tui.c) and insp_render_text draw through the same insp_view_draw. Nothing here
 * touches a terminal.
 */
#include "insp_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- formatting */

static const char *const blocks[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

/* A number in at most 10 characters ("%.4g"; nan, inf, -inf). */
static const char *num(double x, char *buf)
{
    if (isnan(x)) return "nan";
    if (isinf(x)) return x > 0 ? "inf" : "-inf";
    snprintf(buf, 16, "%.4g", x);
    return buf;
}

/* A parameter's gradient figure: "-" when it has no .grad (never a red "nan"). */
static const char *grad_num(const insp_param *q, double x, char *buf) { return q->has_grad ? num(x, buf) : "-"; }

void insp_shape_str(const int64_t *sizes, int ndim, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < ndim && len < n; d++) len += (size_t)snprintf(buf + len, n - len, "%s%lld", d ? ", " : "", (long long)sizes[d]);
    if (len < n) snprintf(buf + len, n - len, "]");
}

static void count_str(int64_t n, char *buf)
{
    if (n < 10000) snprintf(buf, 16, "%lld", (long long)n);
    else if (n < 10000000) snprintf(buf, 16, "%.1fk", (double)n / 1e3);
    else snprintf(buf, 16, "%.1fM", (double)n / 1e6);
}

/* A histogram in block characters: one cell per bin, heights relative to the fullest. */
static void hist_str(const uint32_t *hist, char *buf)
{
    uint32_t mx = 0;
    for (int i = 0; i < INSP_HIST_BINS; i++) mx = hist[i] > mx ? hist[i] : mx;
    buf[0] = 0;
    for (int i = 0; i < INSP_HIST_BINS; i++) {
        int lvl = hist[i] == 0 ? 0 : (int)ceil(8.0 * hist[i] / mx);
        strcat(buf, blocks[hist[i] == 0 ? 0 : lvl < 1 ? 1 : lvl > 8 ? 8 : lvl]);
    }
}

/* A sparkline of n values (non-finite ones drawn as '!'), scaled to their range. */
static void sparkline(const double *v, int n, char *buf)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            strcat(buf, "!");
            continue;
        }
        int lvl = hi > lo ? 1 + (int)((v[i] - lo) / (hi - lo) * 7 + 0.5) : 4;
        strcat(buf, blocks[lvl]);
    }
}

/* extra_repr of the module's class (or a base's), as a new string ("" when none). */
static char *extra_repr(nn_module *m)
{
    const nn_module_class *owner = NN_MODULE_SLOT(m->cls, extra_repr);
    return owner ? owner->extra_repr(m) : nn_strdup("");
}

/* Parameters of m and its submodules, counted once each. -1 with an error. */
static int64_t param_count(nn_module *m)
{
    nn_object *list = nn_module_parameters(m, true);
    if (!list) return -1;
    int64_t n = 0;
    for (size_t i = 0; i < nn_list_len(list); i++) n += nn_numel(NN_TENSOR(nn_list_get(list, i)));
    NN_RELEASE(list);
    return n;
}

__attribute__((format(printf, 7, 8))) static int putf(insp_screen *sc, int row, int col, int maxw, insp_color color,
                                                      unsigned attr, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return insp_screen_put_fit(sc, row, col, maxw, color, attr, buf);
}

/* Colors of a value against the flags' thresholds. */
static insp_color grad_color(double norm) { return !isfinite(norm) || norm > INSP_EXPLODING ? INSP_COLOR_BAD : INSP_COLOR_DEFAULT; }
static insp_color ratio_color(double r)
{
    if (isnan(r) || r == 0) return INSP_COLOR_DIM;
    return r < INSP_RATIO_LOW || r > INSP_RATIO_HIGH ? INSP_COLOR_WARN : INSP_COLOR_GOOD;
}

/* ------------------------------------------------------- the details pane */

/* A pane that takes lines one after another, the first `skip` scrolled away. */
typedef struct pane {
    insp_screen *sc;
    int top, x, w, rows, skip, used;
} pane;

/* The screen row of a block of k lines starting at the pane's next line, or -1
   when any of it is scrolled away or past the end (the lines count anyway). */
static int pane_rows(pane *p, int k)
{
    int first = p->used - p->skip;
    p->used += k;
    return first >= 0 && first + k <= p->rows ? p->top + first : -1;
}

/* A line of text, wrapped onto as many rows as the pane's width needs (the
   continuation rows indented 2 more than the line): every figure stays readable
   at 80 columns. */
__attribute__((format(printf, 4, 5))) static void line(pane *p, insp_color color, unsigned attr, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int k = 0, lead = (int)strspn(buf, " ");
    if (lead + 2 > p->w / 4) lead = 0;
    for (const char *t = buf, *next; t; t = next, k++) {
        int indent = k && p->w > 8 ? lead + 2 : 0, cells = insp_wrap_row(t, p->w - indent, &next);
        int row = pane_rows(p, 1); /* each row on its own: a scrolled pane shows the rows still in it */
        if (row >= 0) insp_screen_put(p->sc, row, p->x + indent, cells, color, attr, t);
    }
}

/* A bar chart of hist[0..INSP_HIST_BINS) over rows x w cells at (top, x): each
   column sums the bins it covers, heights in eighths relative to the fullest. */
void insp_draw_bars(insp_screen *sc, int top, int x, int rows, int w, const uint32_t *hist, insp_color color)
{
    if (rows < 1 || w < 1) return;
    double col[512], mx = 0;
    if (w > 512) w = 512;
    for (int c = 0; c < w; c++) {
        int b0 = c * INSP_HIST_BINS / w, b1 = (c + 1) * INSP_HIST_BINS / w;
        if (b1 <= b0) b1 = b0 + 1;
        col[c] = 0;
        for (int b = b0; b < b1 && b < INSP_HIST_BINS; b++) col[c] += hist[b];
        mx = col[c] > mx ? col[c] : mx;
    }
    for (int c = 0; c < w && mx > 0; c++) {
        int eighths = col[c] > 0 ? (int)ceil(col[c] / mx * rows * 8) : 0;
        for (int r = 0; r < rows; r++) {
            int level = eighths - (rows - 1 - r) * 8;
            if (level <= 0) continue;
            insp_screen_put(sc, top + r, x + c, 1, color, 0, blocks[level > 8 ? 8 : level]);
        }
    }
}

/* A histogram block: a label line "name min … max", then bar rows. */
static void hist_block(pane *p, const char *label, const insp_stats *st, int rows, insp_color color)
{
    char a[16], b[16];
    if (!st || st->count == 0 || st->count == st->nan_count + st->inf_count) {
        line(p, INSP_COLOR_DIM, 0, "%s: (no values)", label);
        return;
    }
    line(p, INSP_COLOR_DIM, 0, "%s: %lld values over [%s, %s]", label, (long long)st->count, num(st->min, a), num(st->max, b));
    int row = pane_rows(p, rows);
    if (row >= 0) insp_draw_bars(p->sc, row, p->x + 1, rows, p->w - 2 < 64 ? p->w - 2 : 64, st->hist, color);
}

/* Values of the last n passes of a kind for a sparkline: output std (forward) or
   grad_output norm (backward). Returns how many were found (oldest first). */
static int series(const insp_session *s, size_t i, insp_pass_kind kind, uint64_t at, double *v, int n)
{
    int found = 0;
    for (size_t k = insp_pass_count(s, i); k-- > 0 && found < n;) {
        const insp_pass *p = insp_pass_at(s, i, k);
        if (p->kind == kind && p->step <= at) v[found++] = kind == INSP_FORWARD ? p->a.std : p->a.l2;
    }
    for (int a = 0, b = found - 1; a < b; a++, b--) {
        double t = v[a];
        v[a] = v[b], v[b] = t;
    }
    return found;
}

static void spark_line(pane *p, const insp_session *s, size_t sel, insp_pass_kind kind, uint64_t at)
{
    const int label = 11;
    int n = p->w - label - 1;
    if (n > INSP_RING) n = INSP_RING;
    if (n <= 0) return;
    double v[INSP_RING];
    char buf[INSP_RING * 4 + 1];
    int k = series(s, sel, kind, at, v, n);
    if (!k) return;
    sparkline(v, k, buf);
    line(p, INSP_COLOR_DEFAULT, 0, "%-*s%s", label, kind == INSP_FORWARD ? "output std" : "grad norm", buf);
}

/* One column of the parameter table: a tensor's figures. */
typedef struct tensor_column {
    const char *name;
    char shape[32], dtype[16], mean[16], std[16], min[16], max[16], norm[16], grad[16], update[16];
    double grad_norm, update_ratio;
} tensor_column;

static void column_of(tensor_column *c, const char *name, const int64_t *sizes, int ndim, nn_dtype dtype, double mean,
                      double std, double mn, double mx, double norm, bool has_grad, double grad_norm, double update_ratio)
{
    char buf[16];
    c->name = name;
    insp_shape_str(sizes, ndim, c->shape, sizeof c->shape);
    snprintf(c->dtype, sizeof c->dtype, "%s", nn_dtype_short_name(dtype));
    snprintf(c->mean, 16, "%s", num(mean, buf));
    snprintf(c->std, 16, "%s", num(std, buf));
    snprintf(c->min, 16, "%s", num(mn, buf));
    snprintf(c->max, 16, "%s", num(mx, buf));
    snprintf(c->norm, 16, "%s", num(norm, buf));
    snprintf(c->grad, 16, "%s", has_grad ? num(grad_norm, buf) : "-");
    snprintf(c->update, 16, "%s", isnan(update_ratio) ? "-" : num(update_ratio, buf));
    c->grad_norm = has_grad ? grad_norm : 0, c->update_ratio = update_ratio;
}

/* A table with one column per tensor (parameters or buffers) and one row per
   figure, as many columns as the pane holds. */
static void tensor_table(pane *p, const char *title, const tensor_column *cols, size_t n)
{
    const int label = 11, width = 12;
    int fit = (p->w - label) / width;
    if (fit < 1 || n == 0) return;
    if ((size_t)fit > n) fit = (int)n;
    static const char *const rows[] = {"", "shape", "dtype", "mean", "std", "min", "max", "norm", "grad norm", "update"};
    int n_rows = cols[0].grad_norm == -1 ? 8 : 10; /* buffers: no gradient, no update */
    for (int r = 0; r < n_rows; r++) {
        int row = pane_rows(p, 1);
        if (row < 0) continue;
        insp_screen_put(p->sc, row, p->x, label, r ? INSP_COLOR_DIM : INSP_COLOR_TITLE, r ? 0 : INSP_ATTR_BOLD,
                        r ? rows[r] : title);
        for (int c = 0; c < fit; c++) {
            const tensor_column *t = &cols[c];
            const char *cell[] = {t->name, t->shape, t->dtype, t->mean, t->std, t->min, t->max, t->norm, t->grad, t->update};
            insp_color color = r == 0 ? INSP_COLOR_TITLE : r == 8 ? grad_color(t->grad_norm) : r == 9 ? ratio_color(t->update_ratio)
                                                                                              : INSP_COLOR_DEFAULT;
            insp_screen_put(p->sc, row, p->x + label + c * width, width - 1, color, r ? 0 : INSP_ATTR_BOLD, cell[r]);
        }
        if ((size_t)fit < n) insp_screen_put(p->sc, row, p->x + label + fit * width, 1, INSP_COLOR_DIM, 0, "…");
    }
}

/* The parameters of the selected module: compact (three lines each) or, for the
   parameters mode, as a table with the buffers. -1 with an error. */
/* The title of the parameters' figures: at a past step, the step of the capture
   shown (captures are taken when the view draws, so one may be older than the step). */
static const char *params_title(const insp_session *s, const char *what, uint64_t at, uint64_t taken, char *buf, size_t n)
{
    if (at == UINT64_MAX || taken == 0) return what;
    snprintf(buf, n, "%s (as after step %llu)", what, (unsigned long long)insp_capture_train_step(s, taken));
    return buf;
}

/* At a past step before the first capture: says so for a module with parameters;
   true when it did. */
static bool no_capture_yet(pane *p, const insp_session *s, size_t sel, uint64_t at, const insp_param *params)
{
    if (params || at == UINT64_MAX) return false;
    for (size_t i = 0; i < s->n_params; i++)
        if (s->params[i].info.module == sel) {
            line(p, INSP_COLOR_DIM, 0, "Parameters: none captured by step %llu",
                 (unsigned long long)insp_train_step_of(s, at)); /* at is a pass */
            return true;
        }
    return false;
}

static int params_section(pane *p, insp_session *s, size_t sel, uint64_t at, bool table)
{
    char a[16], b[16], c[16], d[16], sh[160], title[96];
    size_t n_params, n_cols = 0;
    uint64_t taken = 0;
    const insp_param *params = insp_param_table_at(s, at, &n_params, &taken); /* captured by insp_problems */
    if (no_capture_yet(p, s, sel, at, params)) return 0;
    tensor_column cols[64];
    bool any = false;
    for (size_t i = 0; i < n_params; i++) {
        const insp_param *q = &params[i];
        if (q->module != sel) continue;
        if (table) {
            if (n_cols < 64)
                column_of(&cols[n_cols++], q->name, q->sizes, q->ndim, q->dtype, q->mean, q->std, q->min, q->max, q->norm,
                          q->has_grad, q->grad_norm, q->update_ratio);
            continue;
        }
        if (!any) {
            line(p, INSP_COLOR_TITLE, INSP_ATTR_BOLD, "%s", params_title(s, "Parameters", at, taken, title, sizeof title));
            any = true;
        }
        insp_shape_str(q->sizes, q->ndim, sh, sizeof sh);
        line(p, INSP_COLOR_DEFAULT, INSP_ATTR_BOLD, " %s %s %s", q->name, sh, nn_dtype_short_name(q->dtype));
        line(p, INSP_COLOR_DEFAULT, 0, "   mean %s std %s min %s max %s", num(q->mean, a), num(q->std, b), num(q->min, c),
             num(q->max, d));
        int row = pane_rows(p, 1);
        if (row >= 0) {
            int col = p->x + insp_screen_put(p->sc, row, p->x, p->w, INSP_COLOR_DEFAULT, 0, "   grad norm ");
            col += insp_screen_put(p->sc, row, col, p->x + p->w - col, q->has_grad ? grad_color(q->grad_norm) : INSP_COLOR_DIM,
                                   0, grad_num(q, q->grad_norm, a));
            col += insp_screen_put(p->sc, row, col, p->x + p->w - col, INSP_COLOR_DEFAULT, 0, "  update ");
            insp_screen_put(p->sc, row, col, p->x + p->w - col, ratio_color(q->update_ratio), 0,
                            isnan(q->update_ratio) ? "-" : num(q->update_ratio, b));
        }
    }
    if (!table) return 0;
    if (n_cols) tensor_table(p, params_title(s, "Parameters", at, taken, title, sizeof title), cols, n_cols);
    else line(p, INSP_COLOR_DIM, 0, "Parameters: none of its own");
    nn_object *buffers = nn_module_named_buffers(s->mods[sel].module, "", false, true);
    if (!buffers) return -1;
    n_cols = 0;
    int rc = 0;
    for (size_t i = 0; i < nn_list_len(buffers) && n_cols < 64; i++) {
        nn_object *pair = nn_list_get(buffers, i);
        nn_tensor *t = NN_TENSOR(nn_tuple_get(pair, 1));
        insp_stats st;
        if ((rc = insp_tensor_stats(t, INSP_SAT_NONE, &st)) < 0) break;
        column_of(&cols[n_cols++], nn_str_cstr(nn_tuple_get(pair, 0)), t->sizes, t->ndim, t->dtype, st.mean, st.std, st.min,
                  st.max, st.l2, true, -1, NAN);
    }
    if (rc == 0 && n_cols) {
        line(p, INSP_COLOR_DEFAULT, 0, "%s", "");
        tensor_table(p, "Buffers", cols, n_cols);
    }
    NN_RELEASE(buffers);
    return rc;
}

/* A histogram in one line, " label min │bars│ max", or where that does not fit,
   the range on one line and the bars on the next (never cut). */
static void hist_line(pane *p, const char *label, const insp_stats *st)
{
    char a[16], b[16], hist[INSP_HIST_BINS * 4 + 1];
    if (st->count && st->nan_count + st->inf_count >= st->count) { /* nothing to bin */
        line(p, INSP_COLOR_BAD, 0, " %s: no finite value", label);
        return;
    }
    hist_str(st->hist, hist);
    const char *lo = num(st->min, a), *hi = num(st->max, b);
    if ((int)(strlen(label) + strlen(lo) + strlen(hi)) + INSP_HIST_BINS + 6 <= p->w) {
        line(p, INSP_COLOR_DEFAULT, 0, " %s %s │%s│ %s", label, lo, hist, hi);
        return;
    }
    line(p, INSP_COLOR_DEFAULT, 0, " %s [%s, %s]", label, lo, hi);
    int row = pane_rows(p, 1);
    if (row >= 0) putf(p->sc, row, p->x + 2, p->w - 2, INSP_COLOR_DEFAULT, 0, "│%s│", hist);
}

static void forward_section(pane *p, insp_session *s, size_t sel, uint64_t at, bool bars)
{
    char a[16], b[16], c[16], d[16], e[16], sh1[160], sh2[160];
    insp_module *m = &s->mods[sel];
    const insp_pass *f = insp_last_pass(s, sel, INSP_FORWARD, at);
    if (!f) {
        line(p, INSP_COLOR_DIM, 0, "Forward  (no pass recorded)");
        return;
    }
    insp_shape_str(f->b.sizes, f->b.ndim, sh1, sizeof sh1);
    insp_shape_str(f->a.sizes, f->a.ndim, sh2, sizeof sh2);
    line(p, INSP_COLOR_TITLE, INSP_ATTR_BOLD, "Forward  pass %llu  in %s → out %s", (unsigned long long)f->step, sh1, sh2);
    line(p, INSP_COLOR_DEFAULT, 0, " mean %s std %s min %s max %s", num(f->a.mean, a), num(f->a.std, b), num(f->a.min, c),
         num(f->a.max, d));
    bool saturated = m->sat != INSP_SAT_NONE && f->a.sat_frac > INSP_SATURATED_FRAC;
    if (m->sat != INSP_SAT_NONE) snprintf(e, sizeof e, "%.1f%%", 100 * f->a.sat_frac);
    else snprintf(e, sizeof e, "-");
    bool nonfinite = f->a.nan_count || f->a.inf_count;
    line(p, nonfinite ? INSP_COLOR_BAD : saturated ? INSP_COLOR_WARN : INSP_COLOR_DEFAULT, 0,
         " zeros %.1f%%  saturated %s  nan %lld  inf %lld", 100 * f->a.zero_frac, e, (long long)f->a.nan_count,
         (long long)f->a.inf_count);
    int64_t units, dead = insp_dead_units_at(s, sel, at, &units);
    if (dead >= 0)
        line(p, dead ? INSP_COLOR_WARN : INSP_COLOR_DEFAULT, 0, " dead units %lld of %lld", (long long)dead, (long long)units);
    if (bars) {
        hist_block(p, " output", &f->a, 4, INSP_COLOR_HIST);
    } else {
        hist_line(p, "hist", &f->a);
    }
}

static void backward_section(pane *p, insp_session *s, size_t sel, uint64_t at, bool bars)
{
    char a[16], b[16];
    const insp_pass *g = insp_last_pass(s, sel, INSP_BACKWARD, at);
    if (!g) {
        line(p, INSP_COLOR_DIM, 0, "Backward (no pass recorded)");
        return;
    }
    bool bad = (g->a.count && grad_color(g->a.l2) == INSP_COLOR_BAD) || (g->b.count && grad_color(g->b.l2) == INSP_COLOR_BAD);
    line(p, bad ? INSP_COLOR_BAD : INSP_COLOR_TITLE, INSP_ATTR_BOLD, "Backward pass %llu  norms: grad_out %s  grad_in %s",
         (unsigned long long)g->step, num(g->a.l2, a), g->b.count ? num(g->b.l2, b) : "-");
    if (bars) {
        hist_block(p, " grad_output", &g->a, 4, INSP_COLOR_HIST);
    } else {
        hist_line(p, "grad", &g->a);
    }
}

/* The gradients of the selected module's parameters: norms, relative size, update ratios. */
static void param_grads_section(pane *p, insp_session *s, size_t sel, uint64_t at)
{
    char a[16], b[16], c[16], title[96];
    size_t n_params;
    uint64_t taken = 0;
    const insp_param *params = insp_param_table_at(s, at, &n_params, &taken);
    bool any = false;
    for (size_t i = 0; i < n_params; i++) {
        const insp_param *q = &params[i];
        if (q->module != sel) continue;
        if (!any) {
            const char *t = params_title(s, "Parameter gradients", at, taken, title, sizeof title);
            line(p, INSP_COLOR_TITLE, INSP_ATTR_BOLD, "%s", t);
            any = true;
        }
        double rel = q->norm > 0 ? q->grad_norm / q->norm : NAN;
        bool vanishing = q->has_grad && insp_param_vanishing(params, n_params, q);
        insp_color color = !q->has_grad ? INSP_COLOR_DIM : vanishing ? INSP_COLOR_BAD : grad_color(q->grad_norm);
        char grad[128];
        if (q->has_grad)
            snprintf(grad, sizeof grad, " %-8s grad norm %s (%s of the norm)", q->name, num(q->grad_norm, a), num(rel, b));
        else
            snprintf(grad, sizeof grad, " %-8s grad norm - (no .grad)", q->name);
        const char *update = isnan(q->update_ratio) ? "-" : num(q->update_ratio, c);
        /* the update ratio on the same row where it fits, else on the next */
        bool one_row = (int)(strlen(grad) + strlen(update)) + 9 <= p->w;
        if (!one_row) line(p, color, 0, "%s", grad);
        int row = pane_rows(p, 1);
        if (row < 0) continue;
        int col = p->x;
        if (one_row) col += insp_screen_put(p->sc, row, col, p->w, color, 0, grad);
        else col += 2;
        col += insp_screen_put(p->sc, row, col, p->x + p->w - col, INSP_COLOR_DEFAULT, 0, one_row ? "  update " : " update ");
        insp_screen_put(p->sc, row, col, p->x + p->w - col, ratio_color(q->update_ratio), 0, update);
    }
}

/* The selected module's details in rows [top, top+rows) of columns [x, x+w). -1 with an error. */
static int draw_details(insp_view *v, insp_screen *sc, int top, int rows, int x, int w)
{
    if (v->mode >= INSP_MODE_FLOW) return insp_draw_model_view(v, sc, top, rows, x, w);
    if (v->detail_scroll > v->detail_max) v->detail_scroll = v->detail_max; /* End: the last page */
    insp_session *s = v->s;
    size_t sel = v->sel;
    insp_module *m = &s->mods[sel];
    uint64_t at = v->at < 0 ? UINT64_MAX : (uint64_t)v->at;
    char *extra = extra_repr(m->module);
    if (!extra) return -1;
    /* the title: the module as it prints, on up to two rows */
    char title[2048];
    snprintf(title, sizeof title, "%s · %s(%s)", m->path[0] ? m->path : "(root)", nn_module_name(m->module), extra);
    nn_free(extra);
    int title_rows = insp_screen_put_wrapped(sc, top, x, w, rows > 8 ? 2 : 1, INSP_COLOR_SELECTED, INSP_ATTR_BOLD, title);
    title_rows = title_rows > 1 && rows > 8 ? 2 : 1;
    pane p = {sc, top + title_rows, x, w, rows - title_rows, v->detail_scroll, 0};
    int rc = 0;
    bool curve = m->activation;
    switch (v->mode) {
    case INSP_MODE_ALL:
        rc = params_section(&p, s, sel, at, false);
        forward_section(&p, s, sel, at, false);
        backward_section(&p, s, sel, at, false);
        spark_line(&p, s, sel, INSP_FORWARD, at);
        spark_line(&p, s, sel, INSP_BACKWARD, at);
        break;
    case INSP_MODE_PARAMS:
        rc = params_section(&p, s, sel, at, true);
        curve = false;
        break;
    case INSP_MODE_ACTIVATIONS:
        forward_section(&p, s, sel, at, true);
        spark_line(&p, s, sel, INSP_FORWARD, at);
        break;
    case INSP_MODE_GRADIENTS:
        backward_section(&p, s, sel, at, true);
        spark_line(&p, s, sel, INSP_BACKWARD, at);
        param_grads_section(&p, s, sel, at);
        curve = false;
        break;
    case INSP_MODE_FLOW:
    case INSP_MODE_LAYERS:
    case INSP_MODE_UPDATES:
    case INSP_MODE_SCALARS: /* drawn by insp_draw_model_view */
        break;
    case INSP_MODE_HISTOGRAMS: {
        const insp_pass *f = insp_last_pass(s, sel, INSP_FORWARD, at), *g = insp_last_pass(s, sel, INSP_BACKWARD, at);
        int bar_rows = (rows - 1) / 3 - 1;
        bar_rows = bar_rows < 2 ? 2 : bar_rows > 12 ? 12 : bar_rows;
        hist_block(&p, "output", f ? &f->a : NULL, bar_rows, INSP_COLOR_HIST);
        if (m->activation) hist_block(&p, "input", f ? &f->b : NULL, bar_rows, INSP_COLOR_CURVE);
        hist_block(&p, "grad_output", g ? &g->a : NULL, bar_rows, INSP_COLOR_DERIV);
        curve = false;
        break;
    }
    }
    if (rc < 0) return -1;
    /* an activation's curve fills what is left (at least 5 rows) */
    int left = p.rows - (p.used - p.skip);
    if (curve && p.used >= p.skip && left >= 5) {
        const insp_pass *f = insp_last_pass(s, sel, INSP_FORWARD, at);
        if (insp_draw_curve(sc, p.top + p.used - p.skip, x, left > 16 ? 16 : left, w, m->module, f ? &f->b : NULL) < 0)
            return -1;
        p.used += left;
    }
    /* keep the scroll within what there is: the last page at most */
    v->detail_max = p.used > p.rows ? p.used - p.rows : 0;
    if (v->detail_scroll > v->detail_max) v->detail_scroll = v->detail_max;
    return 0;
}

/* ------------------------------------------------------------------ tree */

/* The worst flag of module i at step at: BAD (NaN/Inf first seen here, exploding
   gradients), WARN (dead units, saturation), or DEFAULT. */
static insp_color module_flag(const insp_session *s, size_t i, uint64_t at)
{
    const insp_module *m = &s->mods[i];
    uint64_t nan_step;
    if (insp_nan_first(s, &nan_step, NULL) == (int)i && nan_step <= at) return INSP_COLOR_BAD;
    const insp_pass *b = insp_last_pass(s, i, INSP_BACKWARD, at);
    if (b && ((b->a.count && grad_color(b->a.l2) == INSP_COLOR_BAD) || (b->b.count && grad_color(b->b.l2) == INSP_COLOR_BAD)))
        return INSP_COLOR_BAD;
    int64_t units;
    if (insp_dead_units_at(s, i, at, &units) > 0) return INSP_COLOR_WARN;
    const insp_pass *f = insp_last_pass(s, i, INSP_FORWARD, at);
    if (f && m->sat != INSP_SAT_NONE && f->a.sat_frac > INSP_SATURATED_FRAC) return INSP_COLOR_WARN;
    return INSP_COLOR_DEFAULT;
}

/* The module tree in rows [top, top+rows) of columns [0, w). -1 with an error. */
static int draw_tree(insp_view *v, insp_screen *sc, int top, int rows, int w)
{
    insp_session *s = v->s;
    insp_screen_put(sc, top, 0, w, INSP_COLOR_TITLE, INSP_ATTR_BOLD, "Modules");
    rows--, top++;
    /* the visible rows, scrolled so that the selection shows */
    size_t sel_pos = 0, n_visible = 0;
    for (size_t i = 0; i < s->n_mods; i++) {
        if (!insp_view_visible(v, i)) continue;
        if (i == v->sel) sel_pos = n_visible;
        n_visible++;
    }
    size_t first = sel_pos >= (size_t)rows ? sel_pos - (size_t)rows + 1 : 0, pos = 0;
    int row = top;
    for (size_t i = 0; i < s->n_mods && row < top + rows; i++) {
        if (!insp_view_visible(v, i) || pos++ < first) continue;
        insp_module *m = &s->mods[i];
        char *extra = extra_repr(m->module);
        int64_t count = extra ? param_count(m->module) : -1;
        if (count < 0) {
            nn_free(extra);
            return -1;
        }
        const char *name = *m->path ? strrchr(m->path, '.') ? strrchr(m->path, '.') + 1 : m->path : "(root)";
        const char *fold = !v->has_children[i] ? " " : v->expanded[i] ? "▾" : "▸";
        char label[512], cnt[16];
        snprintf(label, sizeof label, "%*s%s %s %s%s%s", 2 * m->depth, "", fold, name, nn_module_name(m->module),
                 *extra ? " " : "", extra);
        nn_free(extra);
        count_str(count, cnt);
        bool selected = i == v->sel;
        insp_color flag = module_flag(s, i, v->at < 0 ? UINT64_MAX : (uint64_t)v->at);
        insp_color color = selected ? INSP_COLOR_SELECTED : flag;
        unsigned attr = selected && v->focus == INSP_FOCUS_TREE ? INSP_ATTR_REVERSE : selected ? INSP_ATTR_BOLD : 0;
        int cw = (int)strlen(cnt), room = w - cw - 2;
        if (selected)
            for (int c = 0; c < w; c++) insp_screen_put(sc, row, c, 1, color, attr, " ");
        insp_screen_put(sc, row, 0, 1, flag, attr, flag == INSP_COLOR_DEFAULT ? selected ? "▶" : " " : "!");
        int used = insp_screen_put(sc, row, 1, room, color, attr, label);
        if (used == room && room > 0 && (int)strlen(label) > room) insp_screen_put(sc, row, room, 1, color, attr, "…");
        insp_screen_put(sc, row, w - cw, cw, color, attr, cnt);
        row++;
    }
    return 0;
}

/* ------------------------------------------------------------ the frame */

static const char *const mode_names[] = {"all",        "parameters",    "activations",      "gradients",
                                         "histograms", "gradient flow", "layer statistics", "update ratios",
                                         "scalars"};

static const char *const help_lines[] = {
    "Keys",
    "↑ ↓  j k      move in the tree (PgUp PgDn Home End)",
    "Enter Space   expand or collapse the module",
    "← →           collapse / expand (← on a leaf: its parent)",
    "Tab           next pane: tree, details, problems, output, command",
    "              (details, problems, output: ↑↓ PgUp PgDn Home End, wheel)",
    ":             the command line (Esc leaves it)",
    "p a g h       parameters, activations, gradients, histograms",
    "f l u s       the whole model: gradient flow, layer statistics,",
    "              update ratios over time, tracked scalars (L: log)",
    "              (the same key again: everything)",
    "[ ]           one training step back / forth (optimizer step)",
    "z             pause the live view here / follow it again",
    "{ }           one pass of the selected module back / forth",
    "b             NaN/Inf breakpoint on or off",
    "/             find a module by name (Enter: next match)",
    "< >           narrow / widen the tree",
    "?             this help (any key closes it)",
    "q             quit to the REPL",
    "Ctrl-C        stop the running statement",
};

static void draw_help(insp_screen *sc)
{
    int n = (int)(sizeof help_lines / sizeof *help_lines), w = 0;
    for (int i = 0; i < n; i++) { /* as wide as the longest line, in cells (the arrows are one each) */
        int cells = 4;
        for (const char *c = help_lines[i]; *c; c++) cells += (*c & 0xc0) != 0x80;
        if (cells > w) w = cells;
    }
    if (w > sc->w - 2) w = sc->w - 2;
    int h = n + 2 < sc->h - 2 ? n + 2 : sc->h - 2, top = (sc->h - h) / 2, left = (sc->w - w) / 2;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            insp_screen_put(sc, top + r, left + c, 1, INSP_COLOR_TITLE, 0,
                            r == 0 || r == h - 1 ? (c == 0 ? (r ? "└" : "┌") : c == w - 1 ? (r ? "┘" : "┐") : "─")
                            : c == 0 || c == w - 1 ? "│"
                                                   : " ");
    for (int i = 0; i < n && i < h - 2; i++)
        insp_screen_put(sc, top + 1 + i, left + 2, w - 4, i ? INSP_COLOR_DEFAULT : INSP_COLOR_TITLE, i ? 0 : INSP_ATTR_BOLD,
                        help_lines[i]);
}

static insp_color problem_color(const char *line)
{
    return !strncmp(line, "nan", 3) || !strncmp(line, "exploding", 9) || !strncmp(line, "vanishing", 9) ? INSP_COLOR_BAD
                                                                                                        : INSP_COLOR_WARN;
}

/* A separator row with a title at column 1 and a tee where the tree's border ends. */
static void separator(insp_screen *sc, int row, int tee, const char *tee_char, const char *title)
{
    for (int c = 0; c < sc->w; c++) insp_screen_put(sc, row, c, 1, INSP_COLOR_DIM, 0, c == tee ? tee_char : "─");
    insp_screen_put(sc, row, 1, sc->w - 2, INSP_COLOR_TITLE, INSP_ATTR_BOLD, title);
}

/* The training step the live title names: the steps done, or at rest the step
   left unfinished when its backward began or the NaN breakpoint stopped in it (as
   the Problems pane's "at step N" counts it); forward passes alone after the last
   step (an evaluation) begin none, and while a statement runs the steps done count. */
static uint64_t step_now(const insp_view *v, bool *unfinished)
{
    const insp_session *s = v->s;
    uint64_t n = insp_train_steps(s);
    *unfinished = false;
    if (!s->step || v->busy) return n;
    uint64_t k = insp_train_step_of(s, s->step - 1);
    if (k <= n) return n;
    const insp_pass *b = insp_last_pass(s, 0, INSP_BACKWARD, UINT64_MAX);
    bool began = b && insp_train_step_of(s, b->step) == k;
    bool stopped = s->nan_module >= 0 && s->break_module >= 0 && insp_train_step_of(s, s->nan_step) == k;
    if (!began && !stopped) return n;
    *unfinished = true;
    return k;
}

/* The title bar: what is shown on the left, the mode and the breakpoint on the right. */
static void draw_title(insp_view *v, insp_screen *sc)
{
    insp_session *s = v->s;
    for (int c = 0; c < sc->w; c++) insp_screen_put(sc, 0, c, 1, INSP_COLOR_TITLE, INSP_ATTR_REVERSE, " ");
    char right[64], when[96];
    snprintf(right, sizeof right, "view: %s%s ", mode_names[v->mode], s->break_nan ? " · break nan" : "");
    int rw = 0;
    for (const char *c = right; *c; c++) rw += (*c & 0xc0) != 0x80;
    insp_screen_put(sc, 0, sc->w - rw, rw, s->break_nan ? INSP_COLOR_WARN : INSP_COLOR_TITLE, INSP_ATTR_REVERSE, right);
    /* steps are training steps (a forward then a backward); passes are module passes.
       A narrow terminal drops the program's name, then the module count, then the
       class, before it cuts a figure: the first of these that fits is shown. */
    bool unfinished;
    unsigned long long steps = step_now(v, &unfinished), passes = (unsigned long long)s->step;
    const char *cls = nn_module_name(s->mods[0].module);
    char forms[5][256];
    if (v->at < 0) {
        snprintf(when, sizeof when, "step %llu%s · %llu passes · live", steps, unfinished ? " (unfinished)" : "", passes);
        snprintf(forms[0], sizeof forms[0], " nnscope inspector · %s · %zu modules · %s", cls, s->n_mods, when);
        snprintf(forms[1], sizeof forms[1], " %s · %zu modules · %s", cls, s->n_mods, when);
        snprintf(forms[2], sizeof forms[2], " %s · %s", cls, when);
        snprintf(forms[3], sizeof forms[3], " %s", when);
        snprintf(forms[4], sizeof forms[4], " step %llu · live", steps);
    } else {
        unsigned long long shown = insp_train_step_of(s, (uint64_t)v->at);
        steps = shown > steps ? shown : steps; /* a pass of a step not finished */
        snprintf(when, sizeof when, "showing step %llu of %llu [ ] · pass %lld { }", shown, steps, (long long)v->at);
        snprintf(forms[0], sizeof forms[0], " nnscope inspector · %s · %s · %zu modules", cls, when, s->n_mods);
        snprintf(forms[1], sizeof forms[1], " %s · %s · %zu modules", cls, when, s->n_mods);
        snprintf(forms[2], sizeof forms[2], " %s · %s", cls, when);
        snprintf(forms[3], sizeof forms[3], " %s", when);
        snprintf(forms[4], sizeof forms[4], " showing step %llu of %llu · pass %lld", shown, steps, (long long)v->at);
    }
    int room = sc->w - rw - 1, k = 0;
    for (; k < 4; k++) {
        int cells = 0;
        for (const char *c = forms[k]; *c; c++) cells += (*c & 0xc0) != 0x80;
        if (cells <= room) break;
    }
    insp_screen_put_fit(sc, 0, 0, room, INSP_COLOR_TITLE, INSP_ATTR_REVERSE | INSP_ATTR_BOLD, forms[k]);
}

/* Lines of the text typed in the command line (a statement's lines joined by '\n'). */
static int command_lines(const insp_view *v)
{
    int n = 1;
    for (const char *c = v->line ? v->line : ""; *c; c++) n += *c == '\n';
    return n;
}

/* Rows of the command area: one, or as many as the lines of a statement being
   typed, up to INSP_COMMAND_ROWS and a quarter of the screen (older lines scroll away). */
static int command_rows(const insp_view *v, int height)
{
    if (v->busy || v->finding || v->focus != INSP_FOCUS_COMMAND) return 1;
    int most = height / 4 < INSP_COMMAND_ROWS ? height / 4 : INSP_COMMAND_ROWS, n = command_lines(v);
    return n < most ? n : most;
}

/* The command area, rows [top, top + rows): the statement being typed (its last
   rows lines; "...: " before continuation lines, the first line's "» " aligned
   with it), the find prompt, the running statement's first line or a hint. */
static void draw_command(insp_view *v, insp_screen *sc, int top, int rows)
{
    if (v->busy) {
        const char *running = v->running ? v->running : "";
        int first = (int)strcspn(running, "\n");
        putf(sc, top, 0, sc->w, INSP_COLOR_WARN, INSP_ATTR_BOLD, "running: %.*s%s  (Ctrl-C stops it)", first, running,
             running[first] ? " …" : "");
    } else if (v->finding || v->focus == INSP_FOCUS_COMMAND) {
        int n = command_lines(v), k = 0;
        for (const char *text = v->line ? v->line : "";; k++) {
            const char *end = strchr(text, '\n');
            int row = top + rows - n + k;
            if (row < top) { /* scrolled away (never the last line) */
                text = end + 1;
                continue;
            }
            const char *prompt = v->finding ? "find: " : k ? "...: " : n > 1 ? "   » " : "» ";
            int col = insp_screen_put(sc, row, 0, sc->w, INSP_COLOR_TITLE, INSP_ATTR_BOLD, prompt);
            if (end) {
                putf(sc, row, col, sc->w - col, INSP_COLOR_DEFAULT, 0, "%.*s", (int)(end - text), text);
                text = end + 1;
                continue;
            }
            /* the line being typed: the end of a long one stays in view */
            int room = sc->w - col - 1, cells = 0;
            for (const char *c = text; *c; c++) cells += (*c & 0xc0) != 0x80;
            for (; cells > room && *text; text++)
                if ((text[1] & 0xc0) != 0x80) cells--;
            col += insp_screen_put(sc, row, col, room, INSP_COLOR_DEFAULT, 0, text);
            insp_screen_put(sc, row, col, 1, INSP_COLOR_DEFAULT, INSP_ATTR_REVERSE, " "); /* the cursor */
            if (v->message[0]) putf(sc, row, col + 2, sc->w - col - 2, INSP_COLOR_WARN, 0, "(%s)", v->message);
            break;
        }
    } else if (v->message[0]) {
        insp_screen_put(sc, top, 0, sc->w, INSP_COLOR_WARN, 0, v->message);
    } else {
        /* the full hint where it fits, else the short one (80 columns) */
        static const char full[] = ": command line · ↑↓ move · Enter expand · p a g h views · [ ] time · b break nan · / find · "
                                   "? keys · q quit";
        bool fits = sc->w >= 104; /* the full hint's width in cells */
        insp_screen_put(sc, top, 0, sc->w, INSP_COLOR_DIM, 0,
                        fits ? full : ": cmd · ↑↓ move · p a g h views · [ ] time · b nan · / find · ? keys · q quit");
    }
}

int insp_view_draw(insp_view *v, insp_screen *sc)
{
    insp_session *s = v->s;
    insp_screen_clear(sc);
    int W = sc->w, H = sc->h;
    if (W < 40 || H < 10) {
        insp_screen_put(sc, 0, 0, W, INSP_COLOR_WARN, 0, "terminal too small (40x10 at least)");
        insp_screen_put(sc, 1, 0, W, INSP_COLOR_DIM, 0, "q quits");
        return 0;
    }
    char *problems = NULL;
    int rc = -1, n_problems = insp_problems_at(s, v->at < 0 ? UINT64_MAX : (uint64_t)v->at, &problems);
    if (n_problems < 0) return -1;

    /* rows: title | tree and details | Problems | problem lines | Output | output lines | command lines */
    /* up to 48 rows the panes keep their sizes; taller terminals give the
       Problems and Output panes a share of the height */
    int prob_rows = H / 6 < 1 ? 1 : H > 48 ? H / 6 : H / 6 > 6 ? 6 : H / 6;
    int out_rows = H / 8 < 1 ? 1 : H > 48 ? H / 8 : H / 8 > 4 ? 4 : H / 8;
    int cmd_rows = command_rows(v, H);
    int cmd_row = H - cmd_rows, out_sep = cmd_row - out_rows - 1, prob_sep = out_sep - prob_rows - 1;
    /* the tree: up to 120 columns as before (48 at most), a third of wider
       terminals; '<' '>' move the border, leaving each pane 16 columns */
    int base = W < 60 ? W / 2 : W <= 120 ? (W * 2 / 5 > 48 ? 48 : W * 2 / 5) : W / 3, tw = base + v->tree_widen;
    tw = tw < 16 ? 16 : tw > W - 18 ? W - 18 : tw;
    v->tree_widen = tw - base; /* a key pressed past a limit is not kept */
    /* the whole-model views are views of their own: where the details pane would be
       too narrow for their tables (80 columns), they take the tree's place too */
    bool whole = v->mode >= INSP_MODE_FLOW && W - tw - 2 < 76;
    if (whole) tw = -1;
    v->pane_tree_w = tw, v->pane_prob_sep = prob_sep, v->pane_out_sep = out_sep, v->pane_cmd_row = cmd_row;
    draw_title(v, sc);
    for (int r = 1; r < prob_sep && !whole; r++) insp_screen_put(sc, r, tw, 1, INSP_COLOR_DIM, 0, "│");
    /* Problems and Output scroll (Tab gives them the keys): keep the scroll in range.
       A problem longer than the width wraps onto more rows; the pane scrolls by rows. */
    int prob_lines = 0;
    for (const char *t = problems; *t;) {
        prob_lines += insp_screen_put_wrapped(sc, 0, 1, W - 1, -1, INSP_COLOR_DEFAULT, 0, t);
        t = strchr(t, '\n');
        t = t ? t + 1 : "";
    }
    int prob_max = prob_lines - (out_sep - prob_sep - 1), out_max = v->n_out - out_rows;
    if (v->problem_scroll > (prob_max > 0 ? prob_max : 0)) v->problem_scroll = prob_max > 0 ? prob_max : 0;
    if (v->output_scroll > (out_max > 0 ? out_max : 0)) v->output_scroll = out_max > 0 ? out_max : 0;
    char title[96];
    bool prob_focus = v->focus == INSP_FOCUS_PROBLEMS, out_focus = v->focus == INSP_FOCUS_OUTPUT;
    snprintf(title, sizeof title, " Problems (%d)%s ", n_problems, prob_focus ? " · ↑↓ PgUp PgDn Home End scroll" : "");
    separator(sc, prob_sep, tw, "┴", title);
    /* Output: the lines up to out_last, from the bottom up, each wrapped onto as many
       rows as the width needs (as the terminal would); the top one may show only its end */
    int out_last = v->n_out - v->output_scroll, out_first = out_last + 1, out_row = out_rows;
    int out_top[INSP_OUTPUT_ROWS_MAX];
    for (int k = out_last - 1; k >= 0 && out_row > 0; k--) {
        int n = 0;
        for (const char *t = v->out[k], *next; t; t = next, n++)
            if (!insp_wrap_row(t, W, &next) && !next) break; /* an empty line takes one row */
        out_row -= n > 0 ? n : 1;
        out_first = k + 1;
        if (out_last - 1 - k < INSP_OUTPUT_ROWS_MAX) out_top[out_last - 1 - k] = out_row;
    }
    if (v->output_scroll > 0 || out_focus)
        snprintf(title, sizeof title, " Output · lines %d-%d of %d%s ", out_first > 1 ? out_first : 1, out_last, v->n_out,
                 out_focus ? " · ↑↓ PgUp PgDn Home End scroll" : "");
    else
        snprintf(title, sizeof title, " Output ");
    separator(sc, out_sep, -1, "", title);
    if ((!whole && draw_tree(v, sc, 1, prob_sep - 1, tw) < 0) || draw_details(v, sc, 1, prob_sep - 1, tw + 2, W - tw - 2) < 0)
        goto out;

    /* the problems' rows from the scroll on; the last row of the pane says how many
       rows are left below when some are */
    int r = prob_sep + 1, k = 0;
    for (const char *text = problems; *text && r < out_sep;) {
        insp_color color = problem_color(text);
        int row = 0;
        for (const char *t = text, *next; t && r < out_sep; t = next, row++, k++) {
            int indent = row && W > 9 ? 2 : 0, cells = insp_wrap_row(t, W - 1 - indent, &next);
            if (k < v->problem_scroll) continue;
            if (r == out_sep - 1 && k + 1 < prob_lines) {
                putf(sc, r, 1, W - 1, INSP_COLOR_DIM, 0, "… %d more rows%s", prob_lines - k,
                     prob_focus ? "" : " (Tab to the pane scrolls it)");
                r = out_sep;
                break;
            }
            insp_screen_put(sc, r++, 1 + indent, cells, color, 0, t);
        }
        text = strchr(text, '\n');
        text = text ? text + 1 : "";
    }
    if (n_problems == 0) insp_screen_put(sc, prob_sep + 1, 1, W - 1, INSP_COLOR_GOOD, 0, "none");
    for (int k = out_first - 1; k < out_last; k++) {
        int j = out_last - 1 - k, row = j < INSP_OUTPUT_ROWS_MAX ? out_top[j] : out_rows;
        for (const char *t = v->out[k], *next; t && row < out_rows; t = next, row++) {
            int cells = insp_wrap_row(t, W, &next);
            if (row >= 0)
                insp_screen_put(sc, out_sep + 1 + row, 0, cells, v->out_error[k] ? INSP_COLOR_BAD : INSP_COLOR_DEFAULT, 0, t);
        }
    }
    draw_command(v, sc, cmd_row, cmd_rows);
    if (v->help) draw_help(sc);
    rc = 0;
out:
    nn_free(problems);
    return rc;
}

int insp_render_text(insp_session *s, const char *selected, int width, int height, int64_t at_step, char **out)
{
    *out = NULL;
    if (width < 40 || height < 10 || width > 4096 || height > 4096)
        return nn_error_set(NN_ERR_VALUE, "insp_render_text: the screen must be 40x10 to 4096x4096, got %dx%d", width,
                            height);
    insp_view *v = insp_view_new(s);
    if (!v) return -1;
    insp_screen sc;
    int rc = -1;
    if (insp_screen_init(&sc, width, height) < 0) goto out;
    if (insp_module_find(s, selected) >= 0) insp_view_select(v, selected);
    v->at = at_step;
    if (insp_view_draw(v, &sc) == 0 && (*out = insp_screen_text(&sc))) rc = 0;
out:
    insp_screen_free(&sc);
    insp_view_free(v);
    return rc;
}
