/*
 * session.c — an inspector session: insp_attach registers one forward hook and one
 * full backward hook (C callables) per module of named_modules, the hooks fold each
 * pass into the module's ring of INSP_RING passes, and insp_detach removes them all
 * without allocating. Also parameter figures, update ratios, problem flags and the
 * NaN breakpoint. Drawing lives in render.c.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ links */

static void link_release(void *ud)
{
    insp_link *l = ud;
    if (l && --l->refs == 0) nn_free(l);
}

/* ----------------------------------------------------------- the rings */

/* The slot for a new pass of m (allocating the ring at the first pass), or NULL
   with MemoryError. */
static insp_pass *ring_push(insp_session *s, insp_module *m)
{
    if (!m->ring && !(m->ring = nn_calloc(INSP_RING, sizeof *m->ring))) return NULL;
    insp_pass *p = &m->ring[m->ring_next];
    m->ring_next = (m->ring_next + 1) % INSP_RING;
    if (m->ring_len < INSP_RING) m->ring_len++;
    memset(p, 0, sizeof *p);
    p->step = s->step++;
    return p;
}

static const char *display_path(const char *path) { return *path ? path : "(root)"; }

/* The op (forward) or backward node that made the NaN/Inf now found in where
   ("output", "grad_output", "grad_input"), or NULL when none was noted. */
static const char *origin_of(const insp_session *s, const char *where)
{
    if (strcmp(where, "output") == 0) return s->origin_found ? s->origin : NULL;
    return s->backward_origin_found ? s->backward_origin : NULL;
}

/* What is known of where the NaN/Inf now found in `where` came from: that the
   module's input held some already (carried: its input's statistics, or NULL),
   and the op or backward node that made the first one; "" when nothing is. */
static void why_nonfinite(const insp_session *s, const char *where, const insp_stats *carried, char *buf, size_t n)
{
    const char *origin = origin_of(s, where);
    buf[0] = 0;
    if (carried) {
        long long nans = carried->nan_count, infs = carried->inf_count;
        snprintf(buf, n, "carried in by its input (");
        if (nans) snprintf(buf + strlen(buf), n - strlen(buf), "%lld NaN%s", nans, infs ? ", " : "");
        if (infs) snprintf(buf + strlen(buf), n - strlen(buf), "%lld Inf", infs);
        snprintf(buf + strlen(buf), n - strlen(buf), " of %lld)%s", (long long)carried->count, origin ? "; " : "");
    }
    if (origin) snprintf(buf + strlen(buf), n - strlen(buf), "%s", origin);
}

/* Records where NaN/Inf first appeared; true when st has some. */
static bool note_nonfinite(insp_session *s, size_t index, const insp_stats *st, const char *where, uint64_t step,
                           const insp_stats *carried)
{
    if (st->nan_count == 0 && st->inf_count == 0) return false;
    if (s->nan_module < 0) {
        s->nan_module = (int)index;
        s->nan_step = step;
        s->nan_train_step = insp_train_step_of(s, step);
        s->nan_where = where;
        why_nonfinite(s, where, carried, s->nan_origin, sizeof s->nan_origin);
    }
    return true;
}

/* note_nonfinite; with the breakpoint on, sets the error and returns -1. */
static int check_nonfinite(insp_session *s, size_t index, const insp_stats *st, const char *where, uint64_t step,
                           const insp_stats *carried)
{
    if (!note_nonfinite(s, index, st, where, step, carried) || !s->break_nan) return 0;
    s->break_module = (int)index;
    insp_module *m = &s->mods[index];
    char why[sizeof s->nan_origin];
    why_nonfinite(s, where, carried, why, sizeof why);
    int rc = nn_error_set(NN_ERR_RUNTIME, "NaN or Inf in the %s of %s (%s)%s%s", where, display_path(m->path),
                          nn_module_name(m->module), why[0] ? ": " : "", why);
    s->origin_found = s->backward_origin_found = false;
    return rc;
}

static const insp_pass *ring_at(const insp_module *m, size_t k)
{
    size_t oldest = (m->ring_next + INSP_RING - m->ring_len) % INSP_RING;
    return &m->ring[(oldest + k) % INSP_RING];
}

/* After a hook's statistics: NaN/Inf noted; -1 when the breakpoint stops there.
   carried: a forward's input statistics when its input held NaN/Inf, else NULL. */
static int after_pass(insp_session *s, size_t index, const insp_pass *p, const insp_stats *carried)
{
    /* a NaN made inside was masked before the output (or the gradients) */
    if (p->kind == INSP_FORWARD && p->a.nan_count == 0 && p->a.inf_count == 0) insp_origin_reset(s, false);
    if (p->kind != INSP_FORWARD && p->a.nan_count + p->a.inf_count + p->b.nan_count + p->b.inf_count == 0)
        insp_origin_reset(s, true);
    if (p->kind == INSP_FORWARD) return check_nonfinite(s, index, &p->a, "output", p->step, carried);
    return check_nonfinite(s, index, &p->a, "grad_output", p->step, NULL) < 0 ||
                   check_nonfinite(s, index, &p->b, "grad_input", p->step, NULL) < 0
               ? -1
               : 0;
}

/* hook(module, args, output): the output's statistics (and the unit map). */
static nn_object *forward_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    insp_link *l = ud;
    insp_session *s = l->s;
    if (!s || !s->attached) return nn_retain(nn_none());
    insp_module *m = &s->mods[l->index];
    nn_object *output = nn_tuple_get(args, 2);
    nn_tensor *first = insp_first_tensor(output);
    uint8_t *alive = NULL;
    int64_t units = 0;
    if (m->relu_like && first) {
        units = insp_units_of(first);
        if (units != m->n_units || !m->alive) {
            uint8_t *fresh = nn_calloc((size_t)(units ? units : 1), 1);
            if (!fresh) return NULL;
            nn_free(m->alive);
            m->alive = fresh;
            m->n_units = units;
            m->alive_passes = 0;
        }
        alive = m->alive;
    }
    insp_pass *p = ring_push(s, m);
    if (!p) return NULL;
    p->kind = INSP_FORWARD;
    s->in_backward = false;
    /* the unit map needs a pass of its own; other outputs may have been seen already */
    if (alive) {
        if (insp_object_stats(output, m->sat, alive, units, true, &p->a) < 0) return NULL;
        p->unit_passes = ++m->alive_passes;
        p->n_units = units;
        for (int64_t u = 0; u < units; u++) p->dead_units += !alive[u];
    } else if (insp_object_stats_cached(&s->stats_cache, output, m->sat, true, &p->a) < 0) {
        return NULL;
    }
    insp_object_stats(NULL, INSP_SAT_NONE, NULL, 0, false, &p->b); /* input: shape only */
    nn_tensor *in = insp_first_tensor(nn_tuple_get(args, 1));
    /* an activation's input values: the range and histogram its curve is drawn over */
    if (in && m->activation) {
        if (insp_object_stats_cached(&s->stats_cache, &in->ob, INSP_SAT_NONE, true, &p->b) < 0)
            return NULL;
    } else if (in) {
        p->b.ndim = in->ndim < INSP_MAX_SHAPE ? in->ndim : INSP_MAX_SHAPE;
        for (int d = 0; d < p->b.ndim; d++) p->b.sizes[d] = in->sizes[d];
    }
    /* a NaN/Inf in the output: was it in the input already? (read only then) */
    insp_stats in_stats, *carried = NULL;
    if (in && p->a.nan_count + p->a.inf_count > 0) {
        if (m->activation) in_stats = p->b;
        else if (insp_object_stats(&in->ob, INSP_SAT_NONE, NULL, 0, false, &in_stats) < 0) return NULL;
        if (in_stats.nan_count + in_stats.inf_count > 0) carried = &in_stats;
    }
    if (after_pass(s, l->index, p, carried) < 0) return NULL;
    if (l->index == 0 && insp_track_updates(s) < 0) return NULL;
    if (s->on_pass) s->on_pass(s->on_pass_ud);
    return nn_retain(nn_none());
}

/* hook(module, grad_input, grad_output): both gradients' statistics. */
static nn_object *backward_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)kwargs;
    insp_link *l = ud;
    insp_session *s = l->s;
    if (!s || !s->attached) return nn_retain(nn_none());
    insp_module *m = &s->mods[l->index];
    insp_pass *p = ring_push(s, m);
    if (!p) return NULL;
    p->kind = INSP_BACKWARD;
    if (!s->in_backward) {
        s->in_backward = true;
        if (!s->optim_seen) { /* without an optimizer, a backward begins a step */
            insp_ratios_record(s, s->train_steps); /* the update made since the last step's backward */
            s->train_steps++;
            insp_scalars_sample(s);
        }
    }
    if (!s->optim_seen) s->step_last[s->train_steps % INSP_RING] = p->step;
    if (insp_object_stats_cached(&s->stats_cache, nn_tuple_get(args, 2), INSP_SAT_NONE, true, &p->a) < 0 ||
        insp_object_stats_cached(&s->stats_cache, nn_tuple_get(args, 1), INSP_SAT_NONE, true, &p->b) < 0)
        return NULL;
    if (after_pass(s, l->index, p, NULL) < 0) return NULL;
    if (s->on_pass) s->on_pass(s->on_pass_ud);
    return nn_retain(nn_none());
}

/* ------------------------------------------------------- attach / detach */

/* Deletes the entry of dict whose value is hook, if any. Core's delete removes the
   entry first and then may fail to shrink its index (MemoryError), which leaves a
   valid dict: that error is dropped and the error that was current is kept. */
static void remove_value(nn_object *dict, nn_object *hook)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (nn_dict_next(dict, &pos, &k, &v)) {
        if (v != hook) continue;
        nn_error_kind kind = nn_error_current();
        char message[1024];
        snprintf(message, sizeof message, "%s", nn_error_message());
        nn_retain(k);
        if (nn_dict_del(dict, k) < 0) {
            if (kind == NN_OK) nn_error_clear();
            else nn_error_set(kind, "%s", message);
        }
        nn_release(k);
        return;
    }
}

static void detach_module(insp_module *m)
{
    if (m->fwd_hook) remove_value(m->module->forward_hooks, m->fwd_hook);
    if (m->bwd_hook) remove_value(m->module->backward_hooks, m->bwd_hook);
    /* also after a failed registration: core sets the flag before it allocates */
    if (m->prev_full_flag < 0 && nn_dict_len(m->module->backward_hooks) == 0)
        m->module->is_full_backward_hook = m->prev_full_flag;
    NN_SET(m->fwd_hook, NULL);
    NN_SET(m->bwd_hook, NULL);
}

void insp_detach(insp_session *s)
{
    if (!s) return;
    insp_origin_watch(s, false);
    insp_steps_watch(s, false);
    for (size_t i = 0; i < s->n_mods; i++) detach_module(&s->mods[i]);
    for (size_t i = 0; i < s->n_mods; i++)
        if (s->links[i]) s->links[i]->s = NULL;
    s->attached = false;
}

void insp_session_free(insp_session *s)
{
    if (!s) return;
    insp_detach(s);
    insp_scalars_free(s);
    insp_ratios_free(s);
    insp_stats_cache_clear(&s->stats_cache);
    for (size_t i = 0; i < s->n_mods; i++) {
        insp_module *m = &s->mods[i];
        NN_RELEASE(m->module);
        nn_free(m->path);
        nn_free(m->ring);
        nn_free(m->alive);
        if (s->links) link_release(s->links[i]);
    }
    for (size_t i = 0; i < s->n_params; i++) {
        nn_free(s->params[i].name);
        NN_RELEASE(s->params[i].tensor);
        nn_free(s->params[i].snapshot);
    }
    nn_free(s->params);
    for (size_t k = 0; s->captures && k < INSP_CAPTURES; k++) nn_free(s->captures[k].params);
    nn_free(s->captures);
    nn_free(s->links);
    nn_free(s->mods);
    nn_free(s);
}

/* Registers kind's hook fn on m->module; *slot receives the callable. */
static int add_hook(insp_module *m, insp_link *l, nn_hook_kind kind, nn_cfunc fn, const char *name, nn_object **slot)
{
    nn_object *hook = nn_cfunction_new(name, fn, l, link_release);
    if (!hook) return -1;
    l->refs++;
    nn_object *handle = nn_module_register_hook(m->module, kind, hook, (nn_hook_options){0});
    if (!handle) {
        NN_RELEASE(hook);
        return -1;
    }
    NN_RELEASE(handle);
    *slot = hook;
    return 0;
}

/* The module's own parameters into the session's table. */
static int add_params(insp_session *s, size_t index)
{
    nn_object *list = nn_module_named_parameters(s->mods[index].module, "", false, true);
    if (!list) return -1;
    size_t n = nn_list_len(list);
    insp_param_rec *grown = n ? nn_realloc(s->params, (s->n_params + n) * sizeof *grown) : s->params;
    if (n && !grown) {
        NN_RELEASE(list);
        return -1;
    }
    s->params = grown;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        nn_object *pair = nn_list_get(list, i);
        insp_param_rec *r = &s->params[s->n_params];
        memset(r, 0, sizeof *r);
        if (!(r->name = nn_strdup(nn_str_cstr(nn_tuple_get(pair, 0))))) {
            rc = -1;
            break;
        }
        r->tensor = NN_TENSOR(nn_retain(nn_tuple_get(pair, 1)));
        r->info.module = index;
        r->info.name = r->name;
        r->info.update_ratio = NAN;
        r->info.grad_norm = NAN;
        r->info.lr = NAN;
        s->n_params++;
    }
    NN_RELEASE(list);
    return rc;
}

int insp_attach(nn_module *model, insp_session **out)
{
    *out = NULL;
    insp_session *s = nn_calloc(1, sizeof *s);
    if (!s) return -1;
    s->break_module = s->nan_module = -1;
    insp_throttle_init(&s->ratio_gate, INSP_PARAM_HZ);
    insp_throttle_init(&s->param_gate, INSP_PARAM_HZ);
    nn_object *list = nn_module_named_modules(model, "", true);
    if (!list) goto fail;
    size_t n = nn_list_len(list);
    if (!(s->mods = nn_calloc(n ? n : 1, sizeof *s->mods)) || !(s->links = nn_calloc(n ? n : 1, sizeof *s->links)))
        goto fail;
    s->attached = true;
    for (size_t i = 0; i < n; i++) {
        nn_object *pair = nn_list_get(list, i);
        insp_module *m = &s->mods[i];
        m->module = NN_MODULE(nn_retain(nn_tuple_get(pair, 1)));
        m->prev_full_flag = m->module->is_full_backward_hook;
        s->n_mods++;
        const char *path = nn_str_cstr(nn_tuple_get(pair, 0));
        if (!(m->path = nn_strdup(path))) goto fail;
        m->depth = *path ? 1 : 0;
        for (const char *c = path; *c; c++) m->depth += *c == '.';
        const char *cls = nn_module_name(m->module);
        m->sat = insp_saturation_of(cls);
        m->relu_like = insp_is_relu_like(cls);
        m->activation = insp_is_activation(m->module);
        insp_link *l = nn_calloc(1, sizeof *l);
        if (!l) goto fail;
        l->refs = 1;
        l->s = s;
        l->index = i;
        s->links[i] = l;
        if (add_hook(m, l, NN_HOOK_FORWARD, forward_hook, "insp_forward", &m->fwd_hook) < 0) goto fail;
        /* core refuses a full backward hook beside deprecated backward hooks */
        if (m->prev_full_flag != 0 &&
            add_hook(m, l, NN_HOOK_FULL_BACKWARD, backward_hook, "insp_backward", &m->bwd_hook) < 0)
            goto fail;
        if (add_params(s, i) < 0) goto fail;
    }
    if (insp_ratios_baseline(s) < 0) goto fail;
    NN_RELEASE(list);
    insp_steps_watch(s, true);
    *out = s;
    return 0;
fail:
    NN_RELEASE(list);
    insp_session_free(s);
    return -1;
}

/* ---------------------------------------------------------------- reading */

size_t insp_module_count(const insp_session *s) { return s->n_mods; }
const char *insp_module_path(const insp_session *s, size_t i) { return i < s->n_mods ? s->mods[i].path : NULL; }
nn_module *insp_module_get(const insp_session *s, size_t i) { return i < s->n_mods ? s->mods[i].module : NULL; }
uint64_t insp_step(const insp_session *s) { return s->step; }
uint64_t insp_train_steps(const insp_session *s) { return s->train_steps; }

/* The oldest pass from which every module's ring still holds all its passes: the
   oldest kept pass of each ring that is full (a module with a forward and a backward
   a step keeps INSP_RING / 2 steps). */
static uint64_t passes_kept_from(const insp_session *s)
{
    uint64_t from = 0;
    for (size_t i = 0; i < s->n_mods; i++)
        if (s->mods[i].ring_len == INSP_RING && insp_pass_at(s, i, 0)->step > from) from = insp_pass_at(s, i, 0)->step;
    return from;
}

uint64_t insp_train_step_end(const insp_session *s, uint64_t k)
{
    if (k == 0 || k > s->train_steps || s->train_steps - k >= INSP_RING) return UINT64_MAX;
    uint64_t from = passes_kept_from(s);
    if (from > 0) { /* step k is kept when its first pass is */
        bool known = k > 1 && s->train_steps - (k - 1) < INSP_RING;
        if (!known || s->step_last[(k - 1) % INSP_RING] + 1 < from) return UINT64_MAX;
    }
    return s->step_last[k % INSP_RING];
}

uint64_t insp_train_step_of(const insp_session *s, uint64_t at)
{
    /* the first kept step whose last pass is at or after `at`; a pass after the
       newest step's last belongs to the step being run */
    uint64_t first = s->train_steps > INSP_RING ? s->train_steps - INSP_RING + 1 : 1;
    for (uint64_t k = first; k <= s->train_steps; k++)
        if (s->step_last[k % INSP_RING] >= at) return k;
    return s->train_steps + (at < s->step);
}

int insp_module_find(const insp_session *s, const char *path)
{
    for (size_t i = 0; path && i < s->n_mods; i++)
        if (!strcmp(s->mods[i].path, path)) return (int)i;
    return -1;
}

size_t insp_pass_count(const insp_session *s, size_t i) { return i < s->n_mods ? s->mods[i].ring_len : 0; }

const insp_pass *insp_pass_at(const insp_session *s, size_t i, size_t k)
{
    if (i >= s->n_mods || k >= insp_pass_count(s, i)) return NULL;
    return ring_at(&s->mods[i], k);
}

const insp_pass *insp_last_pass(const insp_session *s, size_t i, insp_pass_kind kind, uint64_t at_step)
{
    for (size_t k = insp_pass_count(s, i); k-- > 0;) {
        const insp_pass *p = ring_at(&s->mods[i], k);
        if (p->kind == kind && p->step <= at_step) return p;
    }
    return NULL;
}

/* insp_dead_units_at, and the passes folded into the map by then. */
static int64_t dead_units(const insp_session *s, size_t i, uint64_t at_step, int64_t *n_units, uint64_t *passes)
{
    if (i >= s->n_mods || !s->mods[i].relu_like) return -1;
    const insp_pass *f = insp_last_pass(s, i, INSP_FORWARD, at_step);
    if (!f || f->n_units == 0) return -1;
    *n_units = f->n_units;
    *passes = f->unit_passes;
    return f->dead_units;
}

int64_t insp_dead_units_at(const insp_session *s, size_t i, uint64_t at_step, int64_t *n_units)
{
    uint64_t passes;
    return dead_units(s, i, at_step, n_units, &passes);
}

int64_t insp_dead_units(const insp_session *s, size_t i, int64_t *n_units)
{
    return insp_dead_units_at(s, i, UINT64_MAX, n_units);
}

void insp_set_live(insp_session *s, bool live) { s->live = live; }

/* ------------------------------------------------------------- parameters */

static int values_of(nn_tensor *t, const void **data, bool *f64, double **copy);

/* The mean of |x| over the finite values of t (borrowed) into *out (NaN when there
   are none), for the gradient flow view. 0, or -1 with MemoryError. */
static int abs_mean(nn_tensor *t, double *out)
{
    const void *data;
    bool f64;
    double *copy, sum;
    int64_t finite;
    if (values_of(t, &data, &f64, &copy) < 0) return -1;
    insp_abs_sum(data, f64, nn_numel(t), &sum, &finite);
    nn_free(copy);
    *out = finite ? sum / (double)finite : NAN;
    return 0;
}

/* Every parameter's figures into a capture of the ring, kept for time travel: the
   newest one again when no pass was recorded since it was taken. 0, or -1 with
   MemoryError (the ring as it was). */
static int capture_params(insp_session *s)
{
    if (!s->captures && !(s->captures = nn_calloc(INSP_CAPTURES, sizeof *s->captures))) return -1;
    size_t newest = (s->capture_next + INSP_CAPTURES - 1) % INSP_CAPTURES;
    bool again = s->n_captures && s->captures[newest].step == s->step;
    insp_capture *c = &s->captures[again ? newest : s->capture_next];
    if (!c->params && !(c->params = nn_malloc((s->n_params ? s->n_params : 1) * sizeof *c->params))) return -1;
    for (size_t i = 0; i < s->n_params; i++) {
        insp_param_rec *r = &s->params[i];
        nn_tensor *t = r->tensor;
        insp_stats st;
        if (insp_object_stats(&t->ob, INSP_SAT_NONE, NULL, 0, false, &st) < 0) return -1;
        insp_param *p = &r->info;
        p->dtype = t->dtype;
        p->ndim = t->ndim;
        memcpy(p->sizes, t->sizes, sizeof p->sizes);
        p->numel = st.count;
        p->mean = st.mean, p->std = st.std, p->min = st.min, p->max = st.max, p->norm = st.l2;
        p->grad_norm = p->grad_abs_mean = p->grad_abs_max = NAN;
        p->has_grad = t->grad != NULL;
        if (t->grad) {
            if (insp_object_stats(&t->grad->ob, INSP_SAT_NONE, NULL, 0, false, &st) < 0) return -1;
            p->grad_norm = st.l2;
            p->grad_abs_max = st.count > st.nan_count + st.inf_count ? fmax(fabs(st.min), fabs(st.max)) : NAN;
            if (abs_mean(t->grad, &p->grad_abs_mean) < 0) return -1;
        }
    }
    for (size_t i = 0; i < s->n_params; i++) c->params[i] = s->params[i].info; /* all computed: publish */
    c->step = s->step;
    c->train_step = s->step ? insp_train_step_of(s, s->step - 1) : 0;
    if (!again) {
        s->capture_next = (s->capture_next + 1) % INSP_CAPTURES;
        if (s->n_captures < INSP_CAPTURES) s->n_captures++;
    }
    return 0;
}

int insp_capture_stepped(insp_session *s, bool always)
{
    return always || (s->live && insp_should_redraw(&s->param_gate)) ? capture_params(s) : 0;
}

int insp_param_capture(insp_session *s, const insp_param **out, size_t *n)
{
    /* live, the last capture serves until the gate opens again (insp_set_live); once
       an optimizer steps, live captures are taken in its step (insp_capture_stepped),
       where the step's gradients are whole, never between zero_grad and backward */
    bool due = !s->live || (!s->optim_seen && insp_should_redraw(&s->param_gate));
    if ((due || !s->n_captures) && capture_params(s) < 0) return -1;
    *out = insp_param_table(s, n);
    return 0;
}

const insp_param *insp_param_table_at(const insp_session *s, uint64_t at_step, size_t *n, uint64_t *taken)
{
    /* a capture taken when s->step was k shows the parameters after pass k - 1 */
    for (size_t k = 0; k < s->n_captures; k++) {
        const insp_capture *c = &s->captures[(s->capture_next + INSP_CAPTURES - 1 - k) % INSP_CAPTURES];
        if (at_step == UINT64_MAX || c->step <= at_step + 1) {
            *n = s->n_params;
            if (taken) *taken = c->step;
            return c->params;
        }
    }
    *n = 0;
    return NULL;
}

uint64_t insp_capture_train_step(const insp_session *s, uint64_t taken)
{
    for (size_t k = 0; k < s->n_captures; k++)
        if (s->captures[k].step == taken) return s->captures[k].train_step;
    return 0;
}

const insp_param *insp_param_table(const insp_session *s, size_t *n)
{
    return insp_param_table_at(s, UINT64_MAX, n, NULL);
}

/* The values of t as a float32 (its own data: contiguous float32) or double run
   (its own data, or a copy into *copy, nn_malloc'd). 0 or -1. */
static int values_of(nn_tensor *t, const void **data, bool *f64, double **copy)
{
    *copy = NULL;
    nn_tensor *hold = NULL; /* stays NULL: nn_host_read borrows a contiguous CPU tensor's elements */
    if (nn_device_of(t).type == NN_CPU && nn_is_contiguous(t) && (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64)) {
        *data = nn_host_read(t, &hold);
        *f64 = t->dtype == NN_FLOAT64;
        return 0;
    }
    int64_t n = nn_numel(t);
    if (!(*copy = nn_malloc((size_t)(n ? n : 1) * sizeof **copy))) return -1;
    if (n) nn_to_doubles(t, *copy);
    *data = *copy;
    *f64 = true;
    return 0;
}

static double value_at(const void *data, bool f64, int64_t j)
{
    return f64 ? ((const double *)data)[j] : (double)((const float *)data)[j];
}

/* A snapshot is a plain copy of the values (float32 or double): an optimizer step
   runs between two forwards, so this must cost little. */
int insp_param_snapshot(insp_session *s)
{
    for (size_t i = 0; i < s->n_params; i++) {
        insp_param_rec *r = &s->params[i];
        const void *data;
        bool f64;
        double *copy;
        if (values_of(r->tensor, &data, &f64, &copy) < 0) return -1;
        int64_t n = nn_numel(r->tensor);
        size_t bytes = (size_t)(n ? n : 1) * (f64 ? sizeof(double) : sizeof(float));
        void *kept = copy ? copy : nn_realloc(r->snapshot, bytes);
        if (!kept) return -1;
        if (copy) nn_free(r->snapshot);
        else if (n) memcpy(kept, data, bytes);
        r->snapshot = kept;
        r->snapshot_f64 = f64;
        r->snapshot_n = n;
    }
    return 0;
}

int insp_param_update_ratio(insp_session *s)
{
    for (size_t i = 0; i < s->n_params; i++) {
        insp_param_rec *r = &s->params[i];
        if (!r->snapshot) return nn_error_set(NN_ERR_RUNTIME, "insp_param_update_ratio: no snapshot was taken");
        int64_t n = nn_numel(r->tensor);
        if (n != r->snapshot_n) {
            r->info.update_ratio = NAN;
            continue;
        }
        const void *now;
        bool f64;
        double *copy;
        if (values_of(r->tensor, &now, &f64, &copy) < 0) return -1;
        double dd = 0, pp = 0;
        if (!f64 && !r->snapshot_f64) {
            insp_float_change(now, r->snapshot, n, &dd, &pp);
        } else {
            for (int64_t j = 0; j < n; j++) {
                double v = value_at(now, f64, j), d = v - value_at(r->snapshot, r->snapshot_f64, j);
                dd += d * d;
                pp += v * v;
            }
        }
        nn_free(copy);
        r->info.update_ratio = pp > 0 ? sqrt(dd) / sqrt(pp) : dd > 0 ? INFINITY : 0;
    }
    return 0;
}

/* --------------------------------------------------------------- problems */

int insp_nan_first(const insp_session *s, uint64_t *step, const char **where)
{
    if (s->nan_module >= 0) {
        if (step) *step = s->nan_step;
        if (where) *where = s->nan_where;
    }
    return s->nan_module;
}

void insp_break_nan(insp_session *s, bool on)
{
    s->break_nan = on;
    insp_origin_watch(s, on);
}
void insp_set_pass_callback(insp_session *s, insp_pass_fn fn, void *ud) { s->on_pass = fn, s->on_pass_ud = ud; }
int insp_break_module(const insp_session *s) { return s->break_module; }

/* A growable text: appends a formatted line; -1 with MemoryError. */
typedef struct text {
    char *buf;
    size_t len, cap;
    int lines;
} text;

__attribute__((format(printf, 2, 3))) static int add_line(text *t, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *grown = nn_realloc(t->buf, cap);
        if (!grown) return -1;
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, line, (size_t)n);
    t->len += (size_t)n;
    t->buf[t->len] = 0;
    t->lines++;
    return 0;
}

static bool nonfinite(double x) { return !isfinite(x); }

/* ||grad|| / ||param|| of a parameter with a finite gradient, else NaN. */
static double grad_rel(const insp_param *p)
{
    return p->has_grad && isfinite(p->grad_norm) && p->norm > 0 ? p->grad_norm / p->norm : NAN;
}

/* The weight (ndim >= 2) with the largest grad_rel of the table, or NULL when fewer
   than two weights have one. */
static const insp_param *best_weight(const insp_param *params, size_t n)
{
    const insp_param *best = NULL;
    int weights = 0;
    for (size_t i = 0; i < n; i++) {
        double r = grad_rel(&params[i]);
        if (params[i].ndim < 2 || isnan(r)) continue;
        weights++;
        if (!best || r > grad_rel(best)) best = &params[i];
    }
    return weights >= 2 ? best : NULL;
}

bool insp_param_vanishing(const insp_param *params, size_t n, const insp_param *q)
{
    const insp_param *best = best_weight(params, n);
    double r = grad_rel(q);
    return best && q->ndim >= 2 && !isnan(r) && r < INSP_VANISHING_SPREAD * grad_rel(best);
}

/* The oldest kept capture (up to at_step) in which parameter i had a finite,
   nonzero gradient norm: its norm, or NaN. */
static double oldest_grad_norm(const insp_session *s, size_t i, uint64_t at_step)
{
    for (size_t k = s->n_captures; k-- > 0;) {
        const insp_capture *c = &s->captures[(s->capture_next + INSP_CAPTURES - 1 - k) % INSP_CAPTURES];
        const insp_param *p = &c->params[i];
        if ((at_step == UINT64_MAX || c->step <= at_step + 1) && p->has_grad && isfinite(p->grad_norm) && p->grad_norm > 0)
            return p->grad_norm;
    }
    return NAN;
}

/* Captures kept up to at_step in which parameter i had an update ratio. */
static int ratio_captures(const insp_session *s, size_t i, uint64_t at_step)
{
    int n = 0;
    for (size_t k = 0; k < s->n_captures; k++) {
        const insp_capture *c = &s->captures[k];
        n += (at_step == UINT64_MAX || c->step <= at_step + 1) && !isnan(c->params[i].update_ratio);
    }
    return n;
}

/* Whether module i holds parameters of its own (a layer: Linear, Conv, ...). */
static bool owns_params(const insp_session *s, size_t i)
{
    for (size_t k = 0; k < s->n_params; k++)
        if (s->params[k].info.module == i) return true;
    return false;
}

/* The grad_output norm of layer i's last backward pass up to at_step: finite and
   positive, else NaN. */
static double layer_grad_out(const insp_session *s, size_t i, uint64_t at_step)
{
    const insp_pass *b = insp_last_pass(s, i, INSP_BACKWARD, at_step);
    return b && b->a.count && isfinite(b->a.l2) && b->a.l2 > 0 ? b->a.l2 : NAN;
}

/* Vanishing along the model: the grad_output norms of the layers (modules with
   parameters of their own) from the passes up to at_step, each judged against
   the largest of the other layers', so that a converged model (small gradients
   everywhere) is not flagged; the reason gives the shrink per layer between them.
   flagged[i] is set for each module flagged. 0 or -1 (MemoryError). */
static int flow_problems(text *t, const insp_session *s, uint64_t at_step, bool *flagged)
{
    size_t top = SIZE_MAX;
    int layers = 0;
    for (size_t i = 0; i < s->n_mods; i++) {
        double go = owns_params(s, i) ? layer_grad_out(s, i, at_step) : NAN;
        if (isnan(go)) continue;
        layers++;
        if (top == SIZE_MAX || go > layer_grad_out(s, top, at_step)) top = i;
    }
    if (layers < 3) return 0; /* two layers have no trend to judge */
    double best = layer_grad_out(s, top, at_step);
    for (size_t i = 0; i < s->n_mods; i++) {
        double go = owns_params(s, i) ? layer_grad_out(s, i, at_step) : NAN;
        if (isnan(go) || i == top || !(go < INSP_VANISHING_FLOW * best)) continue;
        int between = 0; /* layers from i to top, top included */
        for (size_t k = i < top ? i + 1 : top; k <= (i < top ? top : i - 1); k++)
            between += owns_params(s, k) && !isnan(layer_grad_out(s, k, at_step));
        const insp_module *m = &s->mods[i], *tm = &s->mods[top];
        flagged[i] = true;
        if (add_line(t, "vanishing: %s (%s) grad_output norm %.3g is %.2g of %s (%s)'s %.3g (%.2gx per layer over %d layers)",
                     display_path(m->path), nn_module_name(m->module), go, go / best, display_path(tm->path),
                     nn_module_name(tm->module), best, pow(go / best, 1.0 / (between > 0 ? between : 1)), between) < 0)
            return -1;
    }
    return 0;
}

/* The flags of parameter i, each saying why with its numbers. 0 or -1 (MemoryError). */
static int param_problems(text *t, const insp_session *s, const insp_param *params, size_t n, size_t i, uint64_t at_step,
                          const bool *flow_flagged)
{
    const insp_param *p = &params[i];
    const insp_module *m = &s->mods[p->module];
    char name[300];
    snprintf(name, sizeof name, "%s%s%s", m->path, *m->path ? "." : "", p->name);
    int rc = 0;
    if (p->has_grad) {
        double rel = grad_rel(p), first = oldest_grad_norm(s, i, at_step);
        const insp_param *best = best_weight(params, n);
        if (nonfinite(p->grad_norm))
            rc = add_line(t, "exploding: %s grad norm %.4g (not finite)", name, p->grad_norm);
        else if (rel > INSP_EXPLODING_REL)
            rc = add_line(t, "exploding: %s grad norm %.4g is %.3g times the parameter's norm %.4g", name, p->grad_norm,
                          rel, p->norm);
        else if (first > 0 && p->grad_norm > INSP_EXPLODING_GROWTH * first)
            rc = add_line(t, "exploding: %s grad norm %.4g grew %.3gx over the kept steps (from %.4g)", name,
                          p->grad_norm, p->grad_norm / first, first);
        else if (!flow_flagged[p->module] && insp_param_vanishing(params, n, p)) {
            char best_name[300];
            const insp_module *bm = &s->mods[best->module];
            snprintf(best_name, sizeof best_name, "%s%s%s", bm->path, *bm->path ? "." : "", best->name);
            rc = add_line(t, "vanishing: %s grad/param %.3g, %.2g of %s's %.3g", name, rel, rel / grad_rel(best),
                          best_name, grad_rel(best));
        }
    }
    /* update ratios: weights only (a bias's first updates are large by nature), once a few steps have one */
    double r = p->update_ratio;
    if (rc == 0 && p->ndim >= 2 && !isnan(r) && r > 0 && (r < INSP_RATIO_LOW || r > INSP_RATIO_HIGH) &&
        ratio_captures(s, i, at_step) >= INSP_RATIO_CAPTURES)
    {
        if (r < INSP_RATIO_LOW && flow_flagged[p->module]) /* no lr to suggest: the cause is above */
            rc = add_line(t, "update-ratio: %s %.3g (healthy near 1e-3): its layer's gradient vanishes, see above", name,
                          r);
        else if (isfinite(p->lr) && p->lr > 0) /* the ratio scales with the learning rate */
            rc = add_line(t, "update-ratio: %s %.3g at lr %.3g (healthy near 1e-3: lr about %.2g)", name, r, p->lr,
                          p->lr * 1e-3 / r);
        else
            rc = add_line(t, "update-ratio: %s %.3g (healthy near 1e-3)", name, r);
    }
    return rc;
}

int insp_problems(insp_session *s, char **out) { return insp_problems_at(s, UINT64_MAX, out); }

int insp_problems_at(insp_session *s, uint64_t at_step, char **out)
{
    *out = NULL;
    text t = {0};
    const insp_param *params;
    size_t n_params;
    int rc = insp_param_capture(s, &params, &n_params);
    if (rc == 0) params = insp_param_table_at(s, at_step, &n_params, NULL); /* time travel: a past capture */
    if (rc == 0 && s->nan_module >= 0 && s->nan_step <= at_step) {
        const insp_module *m = &s->mods[s->nan_module];
        rc = add_line(&t, "nan: NaN/Inf first in the %s of %s (%s) at step %llu%s%s", s->nan_where,
                      display_path(m->path), nn_module_name(m->module), (unsigned long long)s->nan_train_step,
                      s->nan_origin[0] ? "; " : "", s->nan_origin);
    }
    for (size_t i = 0; rc == 0 && i < s->n_mods; i++) {
        const insp_module *m = &s->mods[i];
        const char *path = display_path(m->path), *cls = nn_module_name(m->module);
        const insp_pass *b = insp_last_pass(s, i, INSP_BACKWARD, at_step);
        if (b) {
            double go = b->a.l2, gi = b->b.l2;
            if (b->a.count && (nonfinite(go) || go > INSP_EXPLODING))
                rc = add_line(&t, "exploding: %s (%s) grad_output norm %.4g", path, cls, go);
            else if (b->b.count && (nonfinite(gi) || gi > INSP_EXPLODING))
                rc = add_line(&t, "exploding: %s (%s) grad_input norm %.4g", path, cls, gi);
        }
        int64_t units;
        uint64_t passes;
        int64_t dead = dead_units(s, i, at_step, &units, &passes);
        if (rc == 0 && dead > 0)
            rc = add_line(&t, "dead: %s (%s) %lld of %lld units never nonzero over %llu passes", path, cls,
                          (long long)dead, (long long)units, (unsigned long long)passes);
        const insp_pass *f = insp_last_pass(s, i, INSP_FORWARD, at_step);
        if (rc == 0 && f && m->sat != INSP_SAT_NONE && f->a.sat_frac > INSP_SATURATED_FRAC)
            rc = add_line(&t, "saturated: %s (%s) %.1f%% of outputs saturated", path, cls, 100 * f->a.sat_frac);
    }
    bool *flow_flagged = rc == 0 ? nn_calloc(s->n_mods ? s->n_mods : 1, sizeof *flow_flagged) : NULL;
    if (rc == 0 && !flow_flagged) rc = -1;
    if (rc == 0) rc = flow_problems(&t, s, at_step, flow_flagged);
    for (size_t i = 0; rc == 0 && i < n_params; i++) rc = param_problems(&t, s, params, n_params, i, at_step, flow_flagged);
    nn_free(flow_flagged);
    if (rc == 0 && !t.buf && !(t.buf = nn_strdup(""))) rc = -1;
    if (rc < 0) {
        nn_free(t.buf);
        return -1;
    }
    *out = t.buf;
    return t.lines;
}
