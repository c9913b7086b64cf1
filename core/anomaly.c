/*
 * anomaly.c — torch.autograd's anomaly mode in core: while it is on, each new
 * node keeps a description of where it was made (the forward traceback, from
 * a capture function its user sets; core treats it as an opaque object), and
 * after each node's backward the engine checks its results for NaN. A NaN
 * (or any error of the backward) reports the node's name and its forward
 * traceback through the user's report function, and a NaN fails the backward
 * with PyTorch's "Function 'LogBackward0' returned nan values in its 0th output.".
 */
#include <math.h>

#include "nn_custom_fn.h"
#include "nn_int.h"

static bool enabled, check_nan = true;
static nn_object *(*capture)(void);
static void (*report)(const char *node_name, nn_object *trace);

bool nn_set_detect_anomaly(bool on, bool nan_check)
{
    bool prev = enabled;
    enabled = on;
    check_nan = nan_check;
    return prev;
}

bool nn_detect_anomaly_enabled(void) { return enabled; }

bool nn_anomaly_check_nan_enabled(void) { return check_nan; }

void nn_set_anomaly_hooks(nn_object *(*capture_fn)(void), void (*report_fn)(const char *, nn_object *))
{
    capture = capture_fn;
    report = report_fn;
}

nn_object *nn_anomaly_capture(void) { return enabled && capture ? capture() : NULL; }

/* 1 when t holds a NaN, 0 when not, -1 (MemoryError). */
static int has_nan(nn_tensor *t)
{
    if (!nn_dtype_is_floating(t->dtype)) return 0;
    int64_t n = nn_numel(t);
    double *v = nn_malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) return -1;
    nn_to_doubles(t, v);
    int found = 0;
    for (int64_t i = 0; i < n && found == 0; i++) found = isnan(v[i]);
    nn_free(v);
    return found;
}

int nn_anomaly_check(nn_node *n, int rc, nn_tensor **grad_inputs)
{
    int bad = -1;
    for (int i = 0; rc == 0 && check_nan && bad < 0 && i < n->n_inputs; i++) {
        int r = grad_inputs[i] ? has_nan(grad_inputs[i]) : 0;
        if (r < 0) return -1;
        if (r) bad = i;
    }
    if (rc == 0 && bad < 0) return 0;
    if (report && n->anomaly_trace) report(nn_node_name(n), n->anomaly_trace);
    if (rc < 0) return rc;
    return nn_error_set(NN_ERR_RUNTIME, "Function '%s' returned nan values in its %dth output.", nn_node_name(n), bad);
}
