/*
 * render.c — the inspector's views drawn into a virtual screen of width x height
 * cells (one code point each) and returned as UTF-8 text: module tree, the selected
 * module's parameters / forward / backward panes with block-character histograms
 * and sparklines, and the problems panel. The ncurses front end will copy the same
 * screen to the terminal; nothing here touches a terminal.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------ the virtual screen */

typedef struct screen {
    int w, h;
    uint32_t *cells; /* w*h code points */
} screen;

/* Decodes one UTF-8 sequence at *s (advancing it); bad bytes read as '?'. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0) {
        (*s)++;
        return '?';
    }
    if (extra) c &= 0x3f >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s += i;
            return '?';
        }
        c = (c << 6) | (p[i] & 0x3f);
    }
    *s += 1 + extra;
    return c;
}

/* Writes s at (row, col), at most maxw cells and never past the screen's edge;
   returns the cells written. */
static int put(screen *sc, int row, int col, int maxw, const char *s)
{
    if (row < 0 || row >= sc->h) return 0;
    int n = 0;
    while (*s && n < maxw && col + n < sc->w) {
        uint32_t c = utf8_next(&s);
        if (c == '\n') break;
        if (col + n >= 0) sc->cells[row * sc->w + col + n] = c;
        n++;
    }
    return n;
}

__attribute__((format(printf, 5, 6))) static int putf(screen *sc, int row, int col, int maxw, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return put(sc, row, col, maxw, buf);
}

/* Cells of a UTF-8 string (one per code point). */
static int cells_of(const char *s)
{
    int n = 0;
    while (*s) {
        utf8_next(&s);
        n++;
    }
    return n;
}

/* Rows as UTF-8 lines, trailing spaces trimmed; a new nn_malloc'd string or NULL. */
static char *screen_text(const screen *sc)
{
    char *out = nn_malloc((size_t)sc->w * (size_t)sc->h * 4 + (size_t)sc->h + 1), *p = out;
    if (!out) return NULL;
    for (int r = 0; r < sc->h; r++) {
        const uint32_t *row = sc->cells + r * sc->w;
        int end = sc->w;
        while (end > 0 && row[end - 1] == ' ') end--;
        for (int c = 0; c < end; c++) {
            uint32_t u = row[c];
            if (u < 0x80) *p++ = (char)u;
            else if (u < 0x800) *p++ = (char)(0xc0 | u >> 6), *p++ = (char)(0x80 | (u & 0x3f));
            else if (u < 0x10000)
                *p++ = (char)(0xe0 | u >> 12), *p++ = (char)(0x80 | ((u >> 6) & 0x3f)), *p++ = (char)(0x80 | (u & 0x3f));
            else
                *p++ = (char)(0xf0 | u >> 18), *p++ = (char)(0x80 | ((u >> 12) & 0x3f)),
                *p++ = (char)(0x80 | ((u >> 6) & 0x3f)), *p++ = (char)(0x80 | (u & 0x3f));
        }
        *p++ = '\n';
    }
    *p = 0;
    return out;
}

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

static void shape_str(const int64_t *sizes, int ndim, char *buf, size_t n)
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

/* ------------------------------------------------------------------ views */

/* The module tree in rows [top, top+rows) of columns [0, w). */
static int draw_tree(insp_session *s, screen *sc, int top, int rows, int w, size_t sel)
{
    put(sc, top, 0, w, "Modules");
    rows--, top++;
    size_t first = sel >= (size_t)rows ? sel - (size_t)rows + 1 : 0;
    for (size_t i = first; i < s->n_mods && (int)(i - first) < rows; i++) {
        insp_module *m = &s->mods[i];
        int row = top + (int)(i - first);
        char *extra = extra_repr(m->module);
        int64_t count = extra ? param_count(m->module) : -1;
        if (count < 0) {
            nn_free(extra);
            return -1;
        }
        const char *name = *m->path ? strrchr(m->path, '.') ? strrchr(m->path, '.') + 1 : m->path : "(root)";
        char label[512], cnt[16];
        snprintf(label, sizeof label, "%s%*s%s %s%s%s", i == sel ? "▶" : " ", 2 * m->depth, "", name,
                 nn_module_name(m->module), *extra ? " " : "", extra);
        nn_free(extra);
        count_str(count, cnt);
        int cw = (int)strlen(cnt), room = w - cw - 1;
        put(sc, row, 0, room, label);
        if (cells_of(label) > room && room > 0) put(sc, row, room - 1, 1, "…");
        put(sc, row, w - cw, cw, cnt);
    }
    return 0;
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

/* The selected module's details in rows [top, top+rows) of columns [x, x+w). */
static int draw_details(insp_session *s, screen *sc, int top, int rows, int x, int w, size_t sel, uint64_t at)
{
    insp_module *m = &s->mods[sel];
    char a[16], b[16], c[16], d[16], e[16], sh1[160], sh2[160], hist[INSP_HIST_BINS * 4 + 1];
    int r = top, end = top + rows;
    char *extra = extra_repr(m->module);
    if (!extra) return -1;
    putf(sc, r++, x, w, "%s · %s(%s)", m->path[0] ? m->path : "(root)", nn_module_name(m->module), extra);
    nn_free(extra);
    size_t n_params;
    const insp_param *params = insp_param_table(s, &n_params); /* captured by insp_problems */
    bool any = false;
    for (size_t i = 0; i < n_params && r < end; i++) {
        const insp_param *p = &params[i];
        if (p->module != sel) continue;
        if (!any) put(sc, r++, x, w, "Parameters"), any = true;
        shape_str(p->sizes, p->ndim, sh1, sizeof sh1);
        putf(sc, r++, x, w, " %s %s %s  grad norm %s  update %s", p->name, sh1, nn_dtype_short_name(p->dtype),
             num(p->grad_norm, a), num(p->update_ratio, b));
        if (r < end)
            putf(sc, r++, x, w, "   mean %s std %s min %s max %s", num(p->mean, a), num(p->std, b), num(p->min, c),
                 num(p->max, d));
    }
    const insp_pass *f = insp_last_pass(s, sel, INSP_FORWARD, at);
    if (r < end) {
        if (f) {
            shape_str(f->b.sizes, f->b.ndim, sh1, sizeof sh1);
            shape_str(f->a.sizes, f->a.ndim, sh2, sizeof sh2);
            putf(sc, r++, x, w, "Forward  step %llu  in %s → out %s", (unsigned long long)f->step, sh1, sh2);
            if (r < end)
                putf(sc, r++, x, w, " mean %s std %s min %s max %s", num(f->a.mean, a), num(f->a.std, b),
                     num(f->a.min, c), num(f->a.max, d));
            if (r < end) {
                if (m->sat != INSP_SAT_NONE) snprintf(e, sizeof e, "%.1f%%", 100 * f->a.sat_frac);
                else snprintf(e, sizeof e, "-");
                putf(sc, r++, x, w, " zeros %.1f%%  saturated %s  nan %lld  inf %lld", 100 * f->a.zero_frac, e,
                     (long long)f->a.nan_count, (long long)f->a.inf_count);
            }
            int64_t units, dead = insp_dead_units(s, sel, &units);
            if (r < end && dead >= 0) putf(sc, r++, x, w, " dead units %lld of %lld", (long long)dead, (long long)units);
            if (r < end) {
                hist_str(f->a.hist, hist);
                putf(sc, r++, x, w, " hist %s │%s│ %s", num(f->a.min, a), hist, num(f->a.max, b));
            }
        } else {
            put(sc, r++, x, w, "Forward  (no pass recorded)");
        }
    }
    const insp_pass *g = insp_last_pass(s, sel, INSP_BACKWARD, at);
    if (r < end) {
        if (g) {
            putf(sc, r++, x, w, "Backward step %llu  norms: grad_out %s  grad_in %s", (unsigned long long)g->step,
                 num(g->a.l2, a), g->b.count ? num(g->b.l2, b) : "-");
            if (r < end) {
                hist_str(g->a.hist, hist);
                putf(sc, r++, x, w, " grad %s │%s│ %s", num(g->a.min, a), hist, num(g->a.max, b));
            }
        } else {
            put(sc, r++, x, w, "Backward (no pass recorded)");
        }
    }
    const int label = 11;
    int n = w - label - 1;
    if (n > INSP_RING) n = INSP_RING;
    if (n > 0) {
        double v[INSP_RING];
        char line[INSP_RING * 4 + 1];
        int k = series(s, sel, INSP_FORWARD, at, v, n);
        if (r < end && k) sparkline(v, k, line), putf(sc, r++, x, w, "%-*s%s", label, "output std", line);
        k = series(s, sel, INSP_BACKWARD, at, v, n);
        if (r < end && k) sparkline(v, k, line), putf(sc, r++, x, w, "%-*s%s", label, "grad norm", line);
    }
    return 0;
}

int insp_render_text(insp_session *s, const char *selected, int width, int height, int64_t at_step, char **out)
{
    *out = NULL;
    if (width < 40 || height < 10 || width > 4096 || height > 4096)
        return nn_error_set(NN_ERR_VALUE, "insp_render_text: the screen must be 40x10 to 4096x4096, got %dx%d", width,
                            height);
    screen sc = {width, height, nn_malloc((size_t)width * (size_t)height * sizeof(uint32_t))};
    if (!sc.cells) return -1;
    for (int i = 0; i < width * height; i++) sc.cells[i] = ' ';
    char *problems = NULL;
    int rc = -1, n_problems = insp_problems(s, &problems);
    if (n_problems < 0) goto out;
    int sel = insp_module_find(s, selected);
    if (sel < 0) sel = 0;
    uint64_t at = at_step < 0 ? UINT64_MAX : (uint64_t)at_step;

    /* title, panes, problems: rows 0 | 1 .. body_end-1 | body_end .. height-1 */
    if (at_step < 0) putf(&sc, 0, 0, width, "nnscope inspector · %zu modules · step %llu", s->n_mods, (unsigned long long)s->step);
    else putf(&sc, 0, 0, width, "nnscope inspector · %zu modules · step %llu · showing step %lld", s->n_mods,
              (unsigned long long)s->step, (long long)at_step);
    int prob_rows = height / 3 < 6 ? height / 3 : 6;
    int body_end = height - prob_rows - 1;
    int tw = width * 2 / 5;
    tw = tw < 20 ? 20 : tw > 48 ? 48 : tw;
    for (int r = 1; r < body_end; r++) put(&sc, r, tw, 1, "│");
    for (int c = 0; c < width; c++) put(&sc, body_end, c, 1, c == tw ? "┴" : "─");
    putf(&sc, body_end, 1, width - 2, " Problems (%d) ", n_problems);
    if (s->n_mods && (draw_tree(s, &sc, 1, body_end - 1, tw, (size_t)sel) < 0 ||
                      draw_details(s, &sc, 1, body_end - 1, tw + 2, width - tw - 2, (size_t)sel, at) < 0))
        goto out;
    const char *line = problems;
    int shown = 0;
    for (int r = body_end + 1; r < height && *line; r++, shown++) {
        if (r == height - 1 && shown + 1 < n_problems) {
            putf(&sc, r, 1, width - 1, "… %d more", n_problems - shown);
            break;
        }
        put(&sc, r, 1, width - 1, line);
        line = strchr(line, '\n');
        line = line ? line + 1 : "";
    }
    if (n_problems == 0) put(&sc, body_end + 1, 1, width - 1, "none");
    rc = (*out = screen_text(&sc)) ? 0 : -1;
out:
    nn_free(problems);
    nn_free(sc.cells);
    return rc;
}
