/*
 * nan_origin.c — which op inside a module made the first NaN or Inf. While the
 * NaN breakpoint is on, core's op observer (nn_set_op_observer) shows the
 * session every op: the first whose output holds NaN/Inf while its inputs are
 * all finite is kept with its inputs' statistics ("log made the first NaN/Inf
 * (3 NaN of 8) from finite input: min -0.37, ..."). The backward pass is
 * watched the same way through core's backward observer: the first node whose
 * gradients hold NaN/Inf while those it received are finite is kept with what
 * it received and what it saved in the forward ("SqrtBackward0 (backward) made
 * the first NaN/Inf ... saved from the forward: min 0, ..."). A module whose
 * output (or gradients) come out finite forgets it (the NaN was masked inside);
 * the breakpoint's message and the Problems pane name it. It costs a pass over
 * every op's results while the breakpoint is on, nothing when it is off.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether t holds a NaN or an Inf. */
static bool has_nonfinite(nn_tensor *t)
{
    if (!t || !nn_dtype_is_floating(t->dtype)) return false;
    int64_t n = nn_numel(t);
    nn_tensor *hold = NULL; /* the host-access contract: borrowed on the CPU, a copy from a device */
    const void *data = t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64 ? nn_host_read(t, &hold) : NULL;
    if (data) {
        bool bad;
        if (t->dtype == NN_FLOAT32) {
            const float *x = data;
            float acc = 0; /* x*0 is NaN exactly for NaN and Inf */
            for (int64_t i = 0; i < n; i++) acc += x[i] * 0.0f;
            bad = acc != acc;
        } else {
            const double *x = data;
            double acc = 0;
            for (int64_t i = 0; i < n; i++) acc += x[i] * 0.0;
            bad = acc != acc;
        }
        NN_RELEASE(hold);
        return bad;
    }
    nn_error_clear();
    insp_stats st;
    if (insp_tensor_stats(t, INSP_SAT_NONE, &st) < 0) {
        nn_error_clear();
        return false;
    }
    return st.nan_count + st.inf_count > 0;
}

/* Appends to buf (n bytes) what t is: its statistics and how many values are
   negative and zero (the domain errors of log, sqrt, division, pow). */
static void describe(char *buf, size_t n, nn_tensor *t)
{
    size_t len = strlen(buf);
    insp_stats st;
    if (insp_tensor_stats(t, INSP_SAT_NONE, &st) < 0) {
        nn_error_clear();
        return;
    }
    if (st.count == 1) {
        snprintf(buf + len, n - len, "%.4g", st.min);
        return;
    }
    /* the negatives: from the histogram's sample when the tensor is large */
    int64_t neg = 0, total = 0;
    nn_tensor *hold = NULL;
    const void *data = t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64 ? nn_host_read(t, &hold) : NULL;
    if (data) {
        int64_t k = nn_numel(t);
        for (int64_t i = 0; i < k; i++)
            neg += (t->dtype == NN_FLOAT32 ? ((const float *)data)[i] : ((const double *)data)[i]) < 0;
        total = k;
        NN_RELEASE(hold);
    } else {
        nn_error_clear();
    }
    snprintf(buf + len, n - len, "min %.4g, max %.4g, mean %.4g", st.min, st.max, st.mean);
    len = strlen(buf);
    if (total) snprintf(buf + len, n - len, ", %lld of %lld negative", (long long)neg, (long long)total);
    len = strlen(buf);
    if (st.zero_frac > 0)
        snprintf(buf + len, n - len, ", %lld zero", (long long)llround(st.zero_frac * (double)st.count));
}

/* Appends to b (n bytes) the description of the non-NULL tensors of
   t[0..count): ": min ..." for one, " 0: min ...; 1: min ..." for several. */
static void describe_all(char *b, size_t n, int count, nn_tensor *const *t)
{
    int shown = 0;
    for (int i = 0; i < count; i++) shown += t[i] != NULL;
    for (int i = 0, k = 0; i < count; i++) {
        if (!t[i]) continue;
        size_t len = strlen(b);
        if (shown > 1)
            snprintf(b + len, n - len, "%s %d: ", k ? ";" : "", k);
        else
            snprintf(b + len, n - len, ": ");
        describe(b, n, t[i]);
        k++;
    }
}

/* Writes into b (n bytes) that who made the first NaN/Inf when one of made[]
   holds some while every given[] is finite; false (b untouched) otherwise. */
static bool note_first(char *b, size_t n, const char *who, const char *given_word, int n_given,
                       nn_tensor *const *given, int n_made, nn_tensor *const *made)
{
    nn_tensor *bad = NULL;
    for (int k = 0; k < n_made && !bad; k++)
        if (has_nonfinite(made[k])) bad = made[k];
    if (!bad) return false;
    for (int i = 0; i < n_given; i++)
        if (has_nonfinite(given[i])) return false; /* carried, not made here */
    insp_stats st;
    if (insp_tensor_stats(bad, INSP_SAT_NONE, &st) < 0) {
        nn_error_clear();
        return false;
    }
    snprintf(b, n, "%s made the first NaN/Inf (", who);
    if (st.nan_count) snprintf(b + strlen(b), n - strlen(b), "%lld NaN%s", (long long)st.nan_count, st.inf_count ? ", " : "");
    if (st.inf_count) snprintf(b + strlen(b), n - strlen(b), "%lld Inf", (long long)st.inf_count);
    int shown = 0;
    for (int i = 0; i < n_given; i++) shown += given[i] != NULL;
    snprintf(b + strlen(b), n - strlen(b), " of %lld) from finite %s%s", (long long)st.count, given_word,
             shown > 1 ? "s" : "");
    describe_all(b, n, n_given, given);
    return true;
}

static void observe(void *ud, const char *op, int n_in, nn_tensor *const *inputs, int n_out,
                    nn_tensor *const *outputs)
{
    insp_session *s = ud;
    if (!s->origin_found) s->origin_found = note_first(s->origin, sizeof s->origin, op, "input", n_in, inputs, n_out, outputs);
}

/* A backward node that made NaN/Inf from finite gradients: named with what it
   received and what it saved in the forward (the input that log got, ...). */
static void observe_backward(void *ud, const char *node, int n_received, nn_tensor *const *received, int n_made,
                             nn_tensor *const *made, int n_saved, nn_tensor *const *saved)
{
    insp_session *s = ud;
    if (s->backward_origin_found) return;
    char who[96];
    snprintf(who, sizeof who, "%s (backward)", node);
    char *b = s->backward_origin;
    size_t n = sizeof s->backward_origin;
    if (!note_first(b, n, who, "gradient", n_received, received, n_made, made)) return;
    if (n_saved > 0) {
        size_t len = strlen(b);
        snprintf(b + len, n - len, "; saved from the forward");
        describe_all(b, n, n_saved, saved);
    }
    s->backward_origin_found = true;
}

void insp_origin_watch(insp_session *s, bool on)
{
    void *ud;
    nn_op_observer_fn fn = nn_get_op_observer(&ud);
    if (on)
        nn_set_op_observer(observe, s);
    else if (fn == observe && ud == s)
        nn_set_op_observer(NULL, NULL);
    nn_backward_observer_fn bfn = nn_get_backward_observer(&ud);
    if (on)
        nn_set_backward_observer(observe_backward, s);
    else if (bfn == observe_backward && ud == s)
        nn_set_backward_observer(NULL, NULL);
    s->origin_found = s->backward_origin_found = false;
}

void insp_origin_reset(insp_session *s, bool backward)
{
    if (backward)
        s->backward_origin_found = false;
    else
        s->origin_found = false;
}

const char *insp_nan_origin(const insp_session *s) { return s->nan_origin[0] ? s->nan_origin : NULL; }
