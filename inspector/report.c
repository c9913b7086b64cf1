/*
 * report.c — the inspector's information as plain text tables, for where no
 * terminal is (scripts, TERM=dumb): the modules with their last forward and
 * backward figures, the parameters with their gradients and update ratios, and
 * the problems. Not here: the full-screen view (render.c, tui.c).
 */
#include "insp_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct text {
    char *buf;
    size_t len, cap;
    bool failed;
} text;

__attribute__((format(printf, 2, 3))) static void add(text *t, const char *fmt, ...)
{
    if (t->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *grown = nn_realloc(t->buf, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->buf = grown, t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static const char *num(double x, char *buf)
{
    if (isnan(x)) return "-";
    snprintf(buf, 24, "%.4g", x);
    return buf;
}

char *insp_report_text(insp_session *s)
{
    text t = {0};
    char *problems = NULL;
    int n_problems = insp_problems(s, &problems); /* captures the parameters too */
    if (n_problems < 0) return NULL;
    char a[24], b[24], c[24], d[24], e[24], sh[96];
    add(&t, "Modules (%zu), %llu passes recorded\n", s->n_mods, (unsigned long long)s->step);
    add(&t, "%-24s %-12s %-14s %10s %10s %8s %10s %10s %s\n", "module", "type", "output", "mean", "std", "zeros",
        "grad_out", "grad_in", "dead");
    for (size_t i = 0; i < s->n_mods; i++) {
        const insp_module *m = &s->mods[i];
        const insp_pass *f = insp_last_pass(s, i, INSP_FORWARD, UINT64_MAX);
        const insp_pass *g = insp_last_pass(s, i, INSP_BACKWARD, UINT64_MAX);
        int64_t units, dead = insp_dead_units(s, i, &units);
        char zeros[16] = "-", dead_s[40] = "-";
        if (f) insp_shape_str(f->a.sizes, f->a.ndim, sh, sizeof sh), snprintf(zeros, sizeof zeros, "%.1f%%", 100 * f->a.zero_frac);
        else snprintf(sh, sizeof sh, "-");
        if (dead >= 0) snprintf(dead_s, sizeof dead_s, "%lld/%lld", (long long)dead, (long long)units);
        add(&t, "%-24s %-12s %-14s %10s %10s %8s %10s %10s %s\n", *m->path ? m->path : "(root)", nn_module_name(m->module),
            sh, num(f ? f->a.mean : NAN, a), num(f ? f->a.std : NAN, b), zeros, num(g && g->a.count ? g->a.l2 : NAN, c),
            num(g && g->b.count ? g->b.l2 : NAN, d), dead_s);
    }
    size_t n_params;
    const insp_param *params = insp_param_table(s, &n_params);
    add(&t, "\nParameters (%zu)\n", n_params);
    add(&t, "%-24s %-12s %10s %10s %10s %10s\n", "parameter", "shape", "mean", "std", "grad norm", "update");
    for (size_t i = 0; i < n_params; i++) {
        const insp_param *p = &params[i];
        const char *path = s->mods[p->module].path;
        char name[200];
        snprintf(name, sizeof name, "%s%s%s", path, *path ? "." : "", p->name);
        insp_shape_str(p->sizes, p->ndim, sh, sizeof sh);
        add(&t, "%-24s %-12s %10s %10s %10s %10s\n", name, sh, num(p->mean, a), num(p->std, b), p->has_grad ? num(p->grad_norm, c) : "-",
            isnan(p->update_ratio) ? "-" : num(p->update_ratio, e));
    }
    /* tracked scalars: first, last, min over the steps kept */
    if (insp_scalar_count(s)) add(&t, "\nScalars (%zu)\n%-24s %8s %12s %12s %12s\n", insp_scalar_count(s), "name", "steps",
                                  "first", "last", "min");
    for (size_t i = 0; i < insp_scalar_count(s); i++) {
        size_t n = insp_scalar_len(s, i);
        double lo = NAN;
        for (size_t k = 0; k < n; k++) {
            double y = insp_scalar_at(s, i, k, NULL);
            if (isnan(lo) || y < lo) lo = y;
        }
        add(&t, "%-24s %8zu %12s %12s %12s\n", insp_scalar_name(s, i), n, num(n ? insp_scalar_at(s, i, 0, NULL) : NAN, a),
            num(n ? insp_scalar_at(s, i, n - 1, NULL) : NAN, b), num(lo, c));
    }
    add(&t, "\nProblems (%d)\n%s", n_problems, n_problems ? problems : "none\n");
    nn_free(problems);
    if (t.failed || !t.buf) {
        nn_free(t.buf);
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    return t.buf;
}
