/*
 * scalars.c — the tracked scalars' view ('s'): one chart per name tracked with
 * %inspect MODEL --track NAME (TensorBoard's scalars): the value after each
 * training step in braille dots (a column's dots span the min and max of the
 * steps it covers), its y range at the left, first and last step under it, a
 * header with the last, min and max values; 'L' switches the y axis to log10
 * (values <= 0 left out). Time travel shows the steps up to the one shown.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The fewest significant digits, from least, at which lo and hi (when they
   differ) print differently, without either taking more than width characters. */
static int distinct_digits(double lo, double hi, int least, int width)
{
    int p = least;
    for (; p < 17 && lo != hi; p++) {
        char a[40], b[40];
        snprintf(a, sizeof a, "%.*g", p + 1, lo);
        snprintf(b, sizeof b, "%.*g", p + 1, hi);
        if ((int)strlen(a) > width || (int)strlen(b) > width) break;
        snprintf(a, sizeof a, "%.*g", p, lo);
        snprintf(b, sizeof b, "%.*g", p, hi);
        if (strcmp(a, b) != 0) break;
    }
    return p;
}

/* Sets dot (dx 0..1, dy 0..3 from the top) of braille cell (row, col). */
static void dot(insp_screen *sc, int row, int col, int dx, int dy, insp_color color)
{
    static const uint8_t bits[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    if (row < 0 || row >= sc->h || col < 0 || col >= sc->w) return;
    insp_cell *c = &sc->cells[row * sc->w + col];
    uint32_t cur = c->ch >= 0x2800 && c->ch <= 0x28ff ? c->ch : 0x2800;
    c->ch = cur | bits[dx][dy];
    c->color = (uint8_t)color;
}

/* Where y goes on the chart's axis: log10(y) on a log scale; NaN when it is not drawn. */
static double plotted(const insp_view *v, double y)
{
    if (!isfinite(y) || (v->scalars_log && y <= 0)) return NAN;
    return v->scalars_log ? log10(y) : y;
}

/* One chart of scalar i in rows [top, top + rows) x [x, x + w), values with step <= last_step. */
static void chart(insp_view *v, insp_screen *sc, size_t i, int top, int rows, int x, int w, uint64_t last_step)
{
    const insp_session *s = v->s;
    size_t n = insp_scalar_len(s, i);
    while (n > 0) { /* time travel: the steps up to the one shown */
        uint64_t st;
        insp_scalar_at(s, i, n - 1, &st);
        if (st <= last_step) break;
        n--;
    }
    char line[256];
    const char *name = insp_scalar_name(s, i);
    double lo = INFINITY, hi = -INFINITY, last = NAN;
    uint64_t lo_step = 0, first_step = 0, last_st = 0;
    size_t shown = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t st;
        double y = insp_scalar_at(s, i, k, &st);
        if (k == 0) first_step = st;
        last = y, last_st = st;
        if (!isfinite(y) || (v->scalars_log && y <= 0)) continue;
        if (y < lo) lo = y, lo_step = st;
        hi = y > hi ? y : hi;
        shown++;
    }
    if (!n) {
        snprintf(line, sizeof line, "%s · no value yet (read after each training step)", name);
        insp_screen_put_fit(sc, top, x, w, INSP_COLOR_DIM, 0, line);
        return;
    }
    /* enough digits that a different min and max read differently (a loss that
       moves in its fifth digit is not shown as flat) */
    int p = distinct_digits(lo, hi, 4, 12);
    snprintf(line, sizeof line, "%s %.*g at step %llu · min %.*g at %llu · max %.*g · %zu steps", name, p, last,
             (unsigned long long)last_st, p, lo, (unsigned long long)lo_step, p, hi, n);
    insp_screen_put_fit(sc, top, x, w, isfinite(last) ? INSP_COLOR_DEFAULT : INSP_COLOR_BAD, INSP_ATTR_BOLD, line);
    int plot_rows = rows - 2, label_w = 10, plot_w = w - label_w - 1;
    if (plot_rows < 1 || plot_w < 4 || !shown) return;
    double a = v->scalars_log ? log10(lo) : lo, b = v->scalars_log ? log10(hi) : hi;
    if (b <= a) b = a + (a == 0 ? 1 : fabs(a) * 0.1);
    char lab[32];
    p = distinct_digits(lo, hi, 3, label_w - 1);
    snprintf(lab, sizeof lab, "%.*g", p, hi);
    insp_screen_put(sc, top + 1, x, label_w, INSP_COLOR_DIM, 0, lab);
    snprintf(lab, sizeof lab, "%.*g", p, lo);
    insp_screen_put(sc, top + plot_rows, x, label_w, INSP_COLOR_DIM, 0, lab);
    int dots_x = 2 * plot_w, dots_y = 4 * plot_rows;
    /* each dot column: the span of the values it covers (many values a column), or
       the curve through them stretched over the width (few), joined to the next column */
    double prev_lo = NAN, prev_hi = NAN;
    for (int col = 0; col < dots_x; col++) {
        double mn = INFINITY, mx = -INFINITY;
        if (n > (size_t)dots_x) {
            for (size_t k = (size_t)col * n / (size_t)dots_x; k < (size_t)(col + 1) * n / (size_t)dots_x; k++) {
                double y = plotted(v, insp_scalar_at(s, i, k, NULL));
                if (isnan(y)) continue;
                mn = y < mn ? y : mn;
                mx = y > mx ? y : mx;
            }
        } else {
            double t = n > 1 ? (double)col * (double)(n - 1) / (dots_x - 1) : 0;
            size_t k0 = (size_t)t;
            double y0 = plotted(v, insp_scalar_at(s, i, k0, NULL)),
                   y1 = k0 + 1 < n ? plotted(v, insp_scalar_at(s, i, k0 + 1, NULL)) : y0;
            double y = isnan(y1) ? y0 : y0 + (t - (double)k0) * (y1 - y0);
            if (!isnan(y)) mn = mx = y;
        }
        if (mn > mx) {
            prev_lo = prev_hi = NAN;
            continue;
        }
        double lo_y = mn, hi_y = mx;
        if (!isnan(prev_lo)) { /* no gap from the previous column */
            lo_y = fmin(lo_y, prev_hi), hi_y = fmax(hi_y, prev_lo);
        }
        prev_lo = mn, prev_hi = mx;
        int d0 = (int)lround((b - hi_y) / (b - a) * (dots_y - 1)), d1 = (int)lround((b - lo_y) / (b - a) * (dots_y - 1));
        for (int d = d0; d <= d1; d++)
            dot(sc, top + 1 + d / 4, x + label_w + 1 + col / 2, col % 2, d % 4, INSP_COLOR_CURVE);
    }
    snprintf(line, sizeof line, "step %llu", (unsigned long long)first_step);
    insp_screen_put(sc, top + rows - 1, x + label_w + 1, plot_w, INSP_COLOR_DIM, 0, line);
    snprintf(line, sizeof line, "step %llu", (unsigned long long)last_st);
    int len = (int)strlen(line);
    if (plot_w > 2 * len) insp_screen_put(sc, top + rows - 1, x + w - len, len, INSP_COLOR_DIM, 0, line);
}

int insp_draw_scalars(insp_view *v, insp_screen *sc, int top, int rows, int x, int w)
{
    const insp_session *s = v->s;
    char title[160];
    uint64_t last_step = v->at < 0 ? UINT64_MAX : insp_train_step_of(s, (uint64_t)v->at);
    snprintf(title, sizeof title, "Scalars · per training step · %s (L: %s)", v->scalars_log ? "log10" : "linear",
             v->scalars_log ? "linear" : "log10");
    insp_screen_put_fit(sc, top, x, w, INSP_COLOR_SELECTED, INSP_ATTR_BOLD, title);
    size_t n = insp_scalar_count(s);
    if (!n) {
        insp_screen_put_fit(sc, top + 1, x, w, INSP_COLOR_DIM, 0,
                            "no scalars tracked: %inspect MODEL --track loss (or inspect(model, track=['loss']))");
        return 0;
    }
    /* charts of at least 5 rows; those that do not fit are reached by scrolling */
    int avail = rows - 1, per = avail / (int)n < 5 ? 5 : avail / (int)n;
    if (v->detail_scroll > (int)n - 1) v->detail_scroll = (int)n - 1;
    int row = top + 1;
    for (size_t i = (size_t)v->detail_scroll; i < n && row + per <= top + rows; i++, row += per)
        chart(v, sc, i, row, per, x, w, last_step);
    return 0;
}
