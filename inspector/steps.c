/*
 * steps.c — training steps as the optimizer takes them, and the scalars tracked
 * per step. Core's optimizer observer tells the session of each
 * nn_optimizer_step: from the first one on, optimizer steps are the training
 * steps (the title's count, '[' and ']'), each parameter's learning rate is read
 * from its group (the update-ratio flag says what lr would bring the ratio to
 * 1e-3), and every tracked scalar (%inspect net --track loss) is read through
 * the front end's insp_scalar_fn and kept in a ring of INSP_SCALAR_KEEP values.
 */
#include "insp_int.h"

#include <math.h>
#include <string.h>

typedef struct insp_scalar {
    char *name;       /* nn_malloc'd */
    double *values;   /* INSP_SCALAR_KEEP, a ring */
    uint64_t *steps;  /* the training step of each value */
    size_t len, next; /* values kept; slot of the next */
} insp_scalar;

/* The learning rate of each of s's parameters that opt holds. */
static void read_lrs(insp_session *s, nn_optimizer *opt)
{
    for (size_t g = 0; g < nn_optimizer_num_groups(opt); g++) {
        double lr;
        if (nn_optimizer_get_lr(opt, g, &lr) < 0) {
            nn_error_clear();
            continue;
        }
        for (size_t k = 0; k < nn_optimizer_group_size(opt, g); k++) {
            nn_tensor *p = nn_optimizer_group_param(opt, g, k);
            for (size_t i = 0; i < s->n_params; i++)
                if (s->params[i].tensor == p) s->params[i].info.lr = lr;
        }
    }
}

static void optimizer_stepped(void *ud, nn_optimizer *opt)
{
    insp_session *s = ud;
    if (!s->attached) return;
    read_lrs(s, opt);
    if (!s->optim_seen) {
        /* the first optimizer step: every pass so far was step 1 (the backwards
           counted before it accumulated gradients into it), the scalars read
           since keep their newest value, as step 1's */
        s->optim_seen = true;
        s->train_steps = 1;
        s->step_last[1] = s->step ? s->step - 1 : 0;
        insp_ratios_record(s, 1);
        for (size_t i = 0; i < s->n_scalars; i++) {
            insp_scalar *c = &s->scalars[i];
            if (!c->len) continue;
            size_t last = (c->next + INSP_SCALAR_KEEP - 1) % INSP_SCALAR_KEEP;
            c->values[0] = c->values[last];
            c->steps[0] = 1;
            c->len = c->next = 1;
        }
        if (s->n_scalars && s->scalars[0].len == 0) insp_scalars_sample(s);
        /* the first step's parameters and gradients are kept (a capture taken when
           the view opened has no gradients), so that time travel back to it shows its
           parameter flags; later captures come at the view's rate */
        if (insp_capture_stepped(s, true) < 0) nn_error_clear();
        return;
    }
    s->train_steps++;
    s->step_last[s->train_steps % INSP_RING] = s->step ? s->step - 1 : 0;
    insp_ratios_record(s, s->train_steps);
    insp_scalars_sample(s);
    if (insp_capture_stepped(s, false) < 0) nn_error_clear();
}

void insp_steps_watch(insp_session *s, bool on)
{
    void *ud;
    nn_optimizer_observer_fn fn = nn_get_optimizer_observer(&ud);
    if (on)
        nn_set_optimizer_observer(optimizer_stepped, s);
    else if (fn == optimizer_stepped && ud == s)
        nn_set_optimizer_observer(NULL, NULL);
}

void insp_set_scalar_source(insp_session *s, insp_scalar_fn fn, void *ud)
{
    s->scalar_fn = fn;
    s->scalar_ud = ud;
}

int insp_track(insp_session *s, const char *name)
{
    for (size_t i = 0; i < s->n_scalars; i++)
        if (!strcmp(s->scalars[i].name, name)) return 0;
    if (s->n_scalars == INSP_SCALARS)
        return nn_error_set(NN_ERR_VALUE, "track: at most %d names at once", INSP_SCALARS);
    if (!s->scalars && !(s->scalars = nn_calloc(INSP_SCALARS, sizeof *s->scalars))) return -1;
    insp_scalar *c = &s->scalars[s->n_scalars];
    memset(c, 0, sizeof *c);
    if (!(c->name = nn_strdup(name)) || !(c->values = nn_malloc(INSP_SCALAR_KEEP * sizeof *c->values)) ||
        !(c->steps = nn_malloc(INSP_SCALAR_KEEP * sizeof *c->steps))) {
        nn_free(c->name);
        nn_free(c->values);
        nn_free(c->steps);
        return -1;
    }
    s->n_scalars++;
    return 0;
}

void insp_scalars_sample(insp_session *s)
{
    if (!s->scalar_fn) return;
    for (size_t i = 0; i < s->n_scalars; i++) {
        insp_scalar *c = &s->scalars[i];
        double v;
        if (s->scalar_fn(s->scalar_ud, c->name, &v) < 0) continue;
        c->values[c->next] = v;
        c->steps[c->next] = s->train_steps;
        c->next = (c->next + 1) % INSP_SCALAR_KEEP;
        if (c->len < INSP_SCALAR_KEEP) c->len++;
    }
}

void insp_scalars_free(insp_session *s)
{
    for (size_t i = 0; i < s->n_scalars; i++) {
        nn_free(s->scalars[i].name);
        nn_free(s->scalars[i].values);
        nn_free(s->scalars[i].steps);
    }
    nn_free(s->scalars);
    s->scalars = NULL;
    s->n_scalars = 0;
}

size_t insp_scalar_count(const insp_session *s) { return s->n_scalars; }
const char *insp_scalar_name(const insp_session *s, size_t i) { return i < s->n_scalars ? s->scalars[i].name : NULL; }
size_t insp_scalar_len(const insp_session *s, size_t i) { return i < s->n_scalars ? s->scalars[i].len : 0; }

double insp_scalar_at(const insp_session *s, size_t i, size_t k, uint64_t *step)
{
    const insp_scalar *c = &s->scalars[i];
    size_t slot = (c->next + INSP_SCALAR_KEEP - c->len + k) % INSP_SCALAR_KEEP;
    if (step) *step = c->steps[slot];
    return c->values[slot];
}
