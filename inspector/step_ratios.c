/*
 * step_ratios.c — the update-to-data ratio of every training step, for the `u`
 * chart. updates.c measures the exact ratio over every element, but only at the
 * parameter captures' rate (once a second), so a fast loop of 300 steps would
 * chart 3 points. Here each step is measured as it ends (the optimizer's step
 * hook, or without an optimizer the backward that begins the next step) on a
 * fixed sample of each parameter: all of it up to INSP_RATIO_SAMPLE elements,
 * else INSP_RATIO_BLOCKS evenly spaced runs of contiguous elements (a few
 * cache lines each, so a step costs microseconds whatever the model's size).
 * The ratio is ||sample now - sample at the previous step|| / ||sample now||.
 * The newest INSP_RATIO_KEEP steps are kept; drawing only reads them.
 */
#include "insp_int.h"

#include <math.h>
#include <string.h>

#define INSP_RATIO_BLOCKS 64
#define INSP_RATIO_RUN (INSP_RATIO_SAMPLE / INSP_RATIO_BLOCKS)

struct insp_step_ratios {
    size_t n_params;
    double *base;      /* each parameter's sample at the last step, from base + off[i] */
    size_t *off;       /* per parameter: where its sample starts in base */
    int64_t *cap;      /* per parameter: room for its sample (its size at attach, at most INSP_RATIO_SAMPLE) */
    int64_t *base_n;   /* per parameter: elements in its sample (0: none taken) */
    float *ratio;      /* INSP_RATIO_KEEP * n_params, a ring of rows */
    uint64_t *steps;   /* INSP_RATIO_KEEP: the training step of each row */
    size_t len, next;  /* rows kept; slot of the next */
};

/* Reads t's sample into out (INSP_RATIO_SAMPLE doubles); its size, or 0 when t's
   values cannot be read in place (not a contiguous float32/float64 CPU tensor:
   its steps chart as unmeasured). */
static int64_t sample_of(nn_tensor *t, double *out)
{
    if (nn_device_of(t).type != NN_CPU || !nn_is_contiguous(t) || (t->dtype != NN_FLOAT32 && t->dtype != NN_FLOAT64))
        return 0;
    int64_t n = nn_numel(t);
    if (n <= 0) return 0;
    nn_tensor *hold = NULL; /* stays NULL for a contiguous CPU tensor */
    const void *data = nn_host_read(t, &hold);
    if (!data) {
        nn_error_clear();
        return 0;
    }
    bool f64 = t->dtype == NN_FLOAT64;
#define AT(j) (f64 ? ((const double *)data)[j] : (double)((const float *)data)[j])
    if (n <= INSP_RATIO_SAMPLE) {
        for (int64_t j = 0; j < n; j++) out[j] = AT(j);
        return n;
    }
    for (int64_t b = 0, k = 0; b < INSP_RATIO_BLOCKS; b++) {
        int64_t start = b * (n - INSP_RATIO_RUN) / (INSP_RATIO_BLOCKS - 1);
        for (int64_t j = start; j < start + INSP_RATIO_RUN; j++) out[k++] = AT(j);
    }
#undef AT
    return INSP_RATIO_SAMPLE;
}

static void ratios_free(struct insp_step_ratios *r)
{
    if (!r) return;
    nn_free(r->base);
    nn_free(r->off);
    nn_free(r->cap);
    nn_free(r->base_n);
    nn_free(r->ratio);
    nn_free(r->steps);
    nn_free(r);
}

/* Keeps parameter i's sample now (n elements) as the one to measure the next step
   from; one larger than its room (a parameter replaced by a bigger one) is not kept. */
static void keep(struct insp_step_ratios *r, size_t i, const double *now, int64_t n)
{
    if (n > r->cap[i]) n = 0;
    memcpy(r->base + r->off[i], now, (size_t)n * sizeof *now);
    r->base_n[i] = n;
}

static struct insp_step_ratios *ratios_new(const insp_session *s)
{
    struct insp_step_ratios *r = nn_calloc(1, sizeof *r);
    size_t n = s->n_params ? s->n_params : 1, total = 0;
    if (!r || !(r->off = nn_malloc(n * sizeof *r->off)) || !(r->cap = nn_malloc(n * sizeof *r->cap)))
        goto fail;
    for (size_t i = 0; i < s->n_params; i++) {
        int64_t numel = nn_numel(s->params[i].tensor);
        r->off[i] = total;
        r->cap[i] = numel < INSP_RATIO_SAMPLE ? numel : INSP_RATIO_SAMPLE;
        total += (size_t)r->cap[i];
    }
    if (!(r->base = nn_malloc((total ? total : 1) * sizeof *r->base)) ||
        !(r->base_n = nn_calloc(n, sizeof *r->base_n)) ||
        !(r->ratio = nn_malloc(INSP_RATIO_KEEP * n * sizeof *r->ratio)) ||
        !(r->steps = nn_malloc(INSP_RATIO_KEEP * sizeof *r->steps)))
        goto fail;
    r->n_params = s->n_params;
    return r;
fail:
    ratios_free(r);
    return NULL;
}

int insp_ratios_baseline(insp_session *s)
{
    if (!s->n_params) return 0;
    if (!s->ratios && !(s->ratios = ratios_new(s))) return -1;
    struct insp_step_ratios *r = s->ratios;
    double now[INSP_RATIO_SAMPLE];
    for (size_t i = 0; i < r->n_params; i++) keep(r, i, now, sample_of(s->params[i].tensor, now));
    return 0;
}

void insp_ratios_record(insp_session *s, uint64_t step)
{
    if (!s->n_params || step == 0) return;
    if (!s->ratios && insp_ratios_baseline(s) < 0) {
        nn_error_clear(); /* no room for the chart's ring: the steps go unmeasured */
        return;
    }
    struct insp_step_ratios *r = s->ratios;
    /* steps counted again from 1 (the first optimizer step after backwards counted
       without one) replace the rows past them; the same step again keeps its newest figure */
    size_t newest = (r->next + INSP_RATIO_KEEP - 1) % INSP_RATIO_KEEP;
    while (r->len && r->steps[newest] > step) {
        r->next = newest;
        r->len--;
        newest = (r->next + INSP_RATIO_KEEP - 1) % INSP_RATIO_KEEP;
    }
    size_t slot = r->len && r->steps[newest] == step ? newest : r->next;
    double now[INSP_RATIO_SAMPLE];
    for (size_t i = 0; i < r->n_params; i++) {
        const double *base = r->base + r->off[i];
        int64_t n = sample_of(s->params[i].tensor, now);
        float ratio = NAN;
        if (n && n == r->base_n[i]) {
            double dd = 0, pp = 0;
            for (int64_t j = 0; j < n; j++) {
                double d = now[j] - base[j];
                dd += d * d;
                pp += now[j] * now[j];
            }
            ratio = pp > 0 ? (float)(sqrt(dd) / sqrt(pp)) : dd > 0 ? INFINITY : 0;
        }
        r->ratio[slot * r->n_params + i] = ratio;
        keep(r, i, now, n);
    }
    r->steps[slot] = step;
    if (slot == r->next) {
        r->next = (r->next + 1) % INSP_RATIO_KEEP;
        if (r->len < INSP_RATIO_KEEP) r->len++;
    }
}

void insp_ratios_free(insp_session *s)
{
    ratios_free(s->ratios);
    s->ratios = NULL;
}

size_t insp_ratios_len(const insp_session *s) { return s->ratios ? s->ratios->len : 0; }

double insp_ratio_at(const insp_session *s, size_t k, size_t param, uint64_t *step)
{
    const struct insp_step_ratios *r = s->ratios;
    size_t slot = (r->next + INSP_RATIO_KEEP - r->len + k) % INSP_RATIO_KEEP;
    if (step) *step = r->steps[slot];
    return param < r->n_params ? r->ratio[slot * r->n_params + param] : NAN;
}
