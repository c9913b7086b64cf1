/*
 * charts.c — the views of the whole model at once, drawn over the details pane:
 * the gradient flow (one log-scale bar per parameter of the mean and max |grad|,
 * as the "plot_grad_flow" charts of forum answers), the layer statistics table
 * (per module its activation mean, std and saturation, its gradient's std and a
 * histogram, as in Karpathy's lecture on activations and gradients) and the update
 * ratio of every training step (log10 of update/data against the 1e-3 guide).
 * They only read the rings and captures; they compute nothing new.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const levels[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

/* A row of the chart area: rows[top, top + rows) after `skip` rows scrolled away. */
typedef struct area {
    insp_screen *sc;
    int top, rows, x, w, skip, used;
} area;

/* The screen row of the area's next line, or -1 when it is scrolled away or past
   the end (the line counts anyway). */
static int next_row(area *a)
{
    int k = a->used++ - a->skip;
    return k >= 0 && k < a->rows ? a->top + k : -1;
}

static void text_line(area *a, insp_color color, unsigned attr, const char *text)
{
    int row = next_row(a);
    if (row >= 0) insp_screen_put_fit(a->sc, row, a->x, a->w, color, attr, text);
}

/* A row of a fixed-width table: cut at the area's edge, where its last columns go. */
static void table_line(area *a, insp_color color, const char *text)
{
    int row = next_row(a);
    if (row >= 0) insp_screen_put(a->sc, row, a->x, a->w, color, 0, text);
}

/* "1.2e-03" style, or "-" for NaN. */
static const char *sci(double v, char *buf, size_t n)
{
    if (isnan(v)) return "-";
    snprintf(buf, n, "%.1e", v);
    return buf;
}

/* The parameter's name as "path.name" into buf. */
static const char *param_label(const insp_session *s, const insp_param *q, char *buf, size_t n)
{
    const char *path = s->mods[q->module].path;
    snprintf(buf, n, "%s%s%s", path, *path ? "." : "", q->name);
    return buf;
}

/* Where log10(v) falls on [lo, hi] in cells of a bar `width` wide (0 for v <= 0). */
static int bar_cells(double v, double lo, double hi, int width)
{
    if (!(v > 0)) return 0;
    double f = (log10(v) - lo) / (hi - lo);
    int c = (int)lround(f * width);
    return c < 1 ? 1 : c > width ? width : c;
}

/* Gradient flow: per parameter other than biases (as the forum charts leave them
   out), a bar of mean |grad| (█) reaching on to max |grad| (░) on a log10 scale
   shared by all rows, from the capture shown. */
static void draw_flow(area *a, const insp_session *s, const insp_param *params, size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        const insp_param *q = &params[i];
        if (!q->has_grad || !strcmp(q->name, "bias")) continue;
        rows++;
        if (q->grad_abs_mean > 0 && isfinite(q->grad_abs_mean)) lo = fmin(lo, floor(log10(q->grad_abs_mean)));
        if (q->grad_abs_max > 0 && isfinite(q->grad_abs_max)) hi = fmax(hi, ceil(log10(q->grad_abs_max)));
    }
    if (!rows) {
        text_line(a, INSP_COLOR_DIM, 0, "no gradients yet: run a backward pass");
        return;
    }
    if (!isfinite(lo) || !isfinite(hi)) lo = -8, hi = 0; /* every gradient is zero or non-finite */
    if (hi <= lo) hi = lo + 1;
    char head[160], label[200], a1[16], a2[16], line[512];
    snprintf(head, sizeof head, "█ mean ░ max |grad| · log10 %g … %g", lo, hi);
    text_line(a, INSP_COLOR_DIM, 0, head);
    int label_w = a->w / 3 < 12 ? 12 : a->w / 3 > 32 ? 32 : a->w / 3, value_w = 18, bar_w = a->w - label_w - value_w - 2;
    if (bar_w < 4) bar_w = 4;
    for (size_t i = 0; i < n; i++) {
        const insp_param *q = &params[i];
        if (!q->has_grad || !strcmp(q->name, "bias")) continue;
        int row = next_row(a);
        if (row < 0) continue;
        bool bad = !isfinite(q->grad_abs_mean) || !isfinite(q->grad_norm);
        insp_screen_put_fit(a->sc, row, a->x, label_w, bad ? INSP_COLOR_BAD : INSP_COLOR_DEFAULT, 0,
                            param_label(s, q, label, sizeof label));
        int mean_c = bar_cells(q->grad_abs_mean, lo, hi, bar_w), max_c = bar_cells(q->grad_abs_max, lo, hi, bar_w);
        size_t len = 0;
        for (int c = 0; c < bar_w && len + 4 < sizeof line; c++)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s", c < mean_c ? "█" : c < max_c ? "░" : " ");
        insp_screen_put(a->sc, row, a->x + label_w + 1, bar_w, INSP_COLOR_HIST, 0, line);
        snprintf(line, sizeof line, "%s %s", sci(q->grad_abs_mean, a1, sizeof a1), sci(q->grad_abs_max, a2, sizeof a2));
        insp_screen_put(a->sc, row, a->x + label_w + 2 + bar_w, value_w, bad ? INSP_COLOR_BAD : INSP_COLOR_DEFAULT, 0, line);
    }
}

/* A 32-bin histogram squeezed into `cells` block characters. */
static void small_hist(const uint32_t *hist, int cells, char *buf, size_t n)
{
    uint32_t sums[INSP_HIST_BINS] = {0}, mx = 0;
    for (int b = 0; b < INSP_HIST_BINS; b++) sums[b * cells / INSP_HIST_BINS] += hist[b];
    for (int c = 0; c < cells; c++) mx = sums[c] > mx ? sums[c] : mx;
    size_t len = 0;
    buf[0] = 0;
    for (int c = 0; c < cells && len + 4 < n; c++) {
        int lvl = !sums[c] ? 0 : (int)ceil(8.0 * sums[c] / mx);
        len += (size_t)snprintf(buf + len, n - len, "%s", levels[lvl < 0 ? 0 : lvl > 8 ? 8 : lvl]);
    }
}

/* Layer statistics: per module with a recorded forward pass (the root too when it is
   the only one), its output's mean, std and saturation, the std of its gradient and
   a histogram of its output. */
static void draw_layers(area *a, const insp_session *s, uint64_t at)
{
    char line[512], hist[INSP_HIST_BINS * 4 + 1];
    snprintf(line, sizeof line, "%-20s %9s %9s %6s %9s  %s", "module", "act mean", "act std", "sat%", "grad std",
             "output histogram");
    table_line(a, INSP_COLOR_DIM, line);
    int shown = 0;
    for (size_t i = s->n_mods > 1 ? 1 : 0; i < s->n_mods; i++) {
        const insp_module *m = &s->mods[i];
        const insp_pass *f = insp_last_pass(s, i, INSP_FORWARD, at), *g = insp_last_pass(s, i, INSP_BACKWARD, at);
        if (!f) continue;
        char name[64], sat[16], a1[16], a2[16], a3[16];
        snprintf(name, sizeof name, "%s %s", m->path, nn_module_name(m->module));
        if (m->sat != INSP_SAT_NONE) snprintf(sat, sizeof sat, "%.1f", 100 * f->a.sat_frac);
        else snprintf(sat, sizeof sat, "-");
        small_hist(f->a.hist, 16, hist, sizeof hist);
        snprintf(line, sizeof line, "%-20.20s %9s %9s %6s %9s  %s", name, sci(f->a.mean, a1, sizeof a1),
                 sci(f->a.std, a2, sizeof a2), sat, g && g->a.count ? sci(g->a.std, a3, sizeof a3) : "-", hist);
        bool saturated = m->sat != INSP_SAT_NONE && f->a.sat_frac > INSP_SATURATED_FRAC;
        bool nonfinite = f->a.nan_count || f->a.inf_count;
        table_line(a, nonfinite ? INSP_COLOR_BAD : saturated ? INSP_COLOR_WARN : INSP_COLOR_DEFAULT, line);
        shown++;
    }
    if (!shown) text_line(a, INSP_COLOR_DIM, 0, "no forward pass recorded yet");
}

/* Update ratios over time: per parameter one cell per training step (the steps
   recorded up to the step shown, the newest that fit the width), oldest first, its
   height log10(update/data) on [-6, 0] (the 1e-3 guide at mid height), then the
   newest step's value. */
static void draw_updates(area *a, const insp_session *s, uint64_t at)
{
    size_t len = insp_ratios_len(s), end = len; /* rows [0, end) are up to the step shown */
    uint64_t shown = at == UINT64_MAX ? UINT64_MAX : insp_train_step_of(s, at), step = 0;
    while (end > 0 && (insp_ratio_at(s, end - 1, 0, &step), step > shown)) end--;
    char label[200], line[512], v[16];
    int label_w = a->w / 3 < 12 ? 12 : a->w / 3 > 32 ? 32 : a->w / 3;
    int cells = a->w - label_w - 1 - 8; /* the newest value takes the last 8 columns */
    if (cells < 1) cells = 1;
    size_t first = end > (size_t)cells ? end - (size_t)cells : 0;
    uint64_t s0 = 0, s1 = 0;
    if (end) insp_ratio_at(s, first, 0, &s0), insp_ratio_at(s, end - 1, 0, &s1);
    if (end) snprintf(line, sizeof line, "log10(update/data) per step, steps %llu … %llu (-6 … 0; ▄ is -3)",
                      (unsigned long long)s0, (unsigned long long)s1);
    else snprintf(line, sizeof line, "log10(update/data) per step (-6 … 0; ▄ is -3)");
    text_line(a, INSP_COLOR_DIM, 0, line);
    if (!end) {
        text_line(a, INSP_COLOR_DIM, 0, "no training step recorded yet");
        return;
    }
    for (size_t i = 0; i < s->n_params; i++) {
        const insp_param *q = &s->params[i].info;
        int row = next_row(a);
        if (row < 0) continue;
        insp_screen_put_fit(a->sc, row, a->x, label_w, INSP_COLOR_DEFAULT, 0, param_label(s, q, label, sizeof label));
        int col = a->x + label_w + 1;
        for (size_t k = first; k < end; k++, col++) {
            double r = insp_ratio_at(s, k, i, NULL);
            if (r == 0 && q->has_grad) { /* a step that left it unchanged: log10 is -inf */
                insp_screen_put(a->sc, row, col, 1, INSP_COLOR_WARN, 0, levels[1]);
                continue;
            }
            if (!(r > 0) || !isfinite(r)) {
                insp_screen_put(a->sc, row, col, 1, INSP_COLOR_DIM, 0, "·");
                continue;
            }
            double l = log10(r);
            int lvl = (int)lround((l + 6) / 6 * 8);
            lvl = lvl < 1 ? 1 : lvl > 8 ? 8 : lvl;
            bool good = l >= -4 && l <= -2;
            insp_screen_put(a->sc, row, col, 1, good ? INSP_COLOR_GOOD : INSP_COLOR_WARN, 0, levels[lvl]);
        }
        double last = insp_ratio_at(s, end - 1, i, NULL);
        if (last > 0 && isfinite(last)) snprintf(v, sizeof v, " %.2f", log10(last));
        else if (last == 0 && q->has_grad) snprintf(v, sizeof v, " -inf");
        else snprintf(v, sizeof v, " -");
        insp_screen_put(a->sc, row, col, a->x + a->w - col, INSP_COLOR_DEFAULT, 0, v);
    }
}

int insp_draw_model_view(insp_view *v, insp_screen *sc, int top, int rows, int x, int w)
{
    if (v->mode == INSP_MODE_SCALARS) return insp_draw_scalars(v, sc, top, rows, x, w);
    insp_session *s = v->s;
    uint64_t at = v->at < 0 ? UINT64_MAX : (uint64_t)v->at;
    size_t n = 0;
    uint64_t taken = 0;
    const insp_param *params = insp_param_table_at(s, at, &n, &taken);
    char title[128];
    const char *what = v->mode == INSP_MODE_FLOW ? "Gradient flow" : v->mode == INSP_MODE_LAYERS ? "Layer statistics"
                                                                                                : "Update ratios over time";
    if (v->mode == INSP_MODE_UPDATES) snprintf(title, sizeof title, "%s · every step", what);
    else if (v->mode == INSP_MODE_LAYERS || !taken) snprintf(title, sizeof title, "%s · every layer", what);
    else
        snprintf(title, sizeof title, "%s · as after step %llu", what,
                 (unsigned long long)insp_capture_train_step(s, taken));
    insp_screen_put_fit(sc, top, x, w, INSP_COLOR_SELECTED, INSP_ATTR_BOLD, title);
    if (v->detail_scroll > v->detail_max) v->detail_scroll = v->detail_max; /* End: the last page */
    area a = {sc, top + 1, rows - 1, x, w, v->detail_scroll, 0};
    if (v->mode == INSP_MODE_FLOW) draw_flow(&a, s, params, n);
    else if (v->mode == INSP_MODE_LAYERS) draw_layers(&a, s, at);
    else draw_updates(&a, s, at);
    v->detail_max = a.used > a.rows ? a.used - a.rows : 0;
    if (v->detail_scroll > v->detail_max) v->detail_scroll = v->detail_max;
    return 0;
}
