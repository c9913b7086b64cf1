/*
 * init.c — torch.nn.init: uniform_, normal_, constant_, ones_, zeros_,
 * xavier_* and kaiming_*, calculate_gain and the fan computation, written
 * after PyTorch 1.13's init.py line by line: the same double arithmetic for
 * bounds and standard deviations, the same checks in the same order, and the
 * draws through nn_uniform_ / nn_normal_ (bit-exact with tensor.uniform_ /
 * normal_) with grad mode off.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_int.h"

/* ---------------------------------------------------------------- fills */

int nn_init_uniform_(nn_tensor *t, double a, double b)
{
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_uniform_(t, a, b));
    return rc;
}

int nn_init_normal_(nn_tensor *t, double mean, double std)
{
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_normal_(t, mean, std));
    return rc;
}

int nn_init_constant_(nn_tensor *t, double val)
{
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_fill_(t, val));
    return rc;
}

int nn_init_ones_(nn_tensor *t) { return nn_init_constant_(t, 1.0); }

int nn_init_zeros_(nn_tensor *t)
{
    int rc;
    NN_WITH_GRAD_MODE(false, rc = nn_zero_(t));
    return rc;
}

/* ----------------------------------------------------------------- fans */

int nn_init_calculate_fan_in_and_fan_out(const nn_tensor *t, int64_t *fan_in, int64_t *fan_out)
{
    if (t->ndim < 2)
        return nn_error_set(NN_ERR_VALUE, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
    int64_t receptive = 1;
    for (int d = 2; d < t->ndim; d++) receptive *= t->sizes[d];
    *fan_in = t->sizes[1] * receptive;
    *fan_out = t->sizes[0] * receptive;
    return 0;
}

/* _calculate_correct_fan: mode lower-cased, checked before the fans. */
static int correct_fan(const nn_tensor *t, const char *mode, int64_t *fan)
{
    char lower[64];
    size_t n = strlen(mode);
    if (n >= sizeof lower) n = sizeof lower - 1;
    for (size_t i = 0; i < n; i++) lower[i] = (char)(mode[i] >= 'A' && mode[i] <= 'Z' ? mode[i] - 'A' + 'a' : mode[i]);
    lower[n] = '\0';
    bool in = !strcmp(lower, "fan_in");
    if (!in && strcmp(lower, "fan_out") != 0)
        return nn_error_set(NN_ERR_VALUE, "Mode %s not supported, please use one of ['fan_in', 'fan_out']", lower);
    int64_t fi = 0, fo = 0;
    if (nn_init_calculate_fan_in_and_fan_out(t, &fi, &fo) < 0) return -1;
    *fan = in ? fi : fo;
    return 0;
}

/* ----------------------------------------------------------------- gain */

static const char *const linear_fns[] = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                                         "conv_transpose2d", "conv_transpose3d", "sigmoid"};

/* The gain as a double; *is_int says PyTorch returns the int 1. 0 or -1. */
static int gain_value(const char *nonlinearity, nn_object *param, double *gain, bool *is_int)
{
    *is_int = false;
    for (size_t i = 0; i < sizeof linear_fns / sizeof linear_fns[0]; i++) {
        if (!strcmp(nonlinearity, linear_fns[i])) {
            *is_int = true;
            *gain = 1;
            return 0;
        }
    }
    if (!strcmp(nonlinearity, "tanh")) {
        *gain = 5.0 / 3;
    } else if (!strcmp(nonlinearity, "relu")) {
        *gain = sqrt(2.0);
    } else if (!strcmp(nonlinearity, "leaky_relu")) {
        double denominator;
        if (nn_is_none(param)) {
            denominator = 1 + pow(0.01, 2);
        } else if (nn_is_int(param)) {
            /* Python's ints are exact: 1 + slope ** 2 is converted to float once */
            int64_t s = nn_int_value(param);
            if (s > -3037000499LL && s < 3037000499LL) denominator = (double)(1 + s * s);
            else denominator = 1 + (double)s * (double)s;
        } else if (nn_is_float(param)) {
            denominator = 1 + pow(nn_float_value(param), 2);
        } else {
            char *s = nn_str(param);
            if (!s) return -1;
            nn_error_set(NN_ERR_VALUE, "negative_slope %s not a valid number", s);
            nn_free(s);
            return -1;
        }
        *gain = sqrt(2.0 / denominator);
    } else if (!strcmp(nonlinearity, "selu")) {
        *gain = 3.0 / 4;
    } else {
        return nn_error_set(NN_ERR_VALUE, "Unsupported nonlinearity %s", nonlinearity);
    }
    return 0;
}

nn_object *nn_init_calculate_gain(const char *nonlinearity, nn_object *param)
{
    double gain = 0;
    bool is_int;
    if (gain_value(nonlinearity, param, &gain, &is_int) < 0) return NULL;
    return is_int ? nn_int_new(1) : nn_float_new(gain);
}

/* --------------------------------------------------------------- xavier */

/* gain * sqrt(2.0 / float(fan_in + fan_out)) */
static int xavier_std(const nn_tensor *t, double gain, double *std)
{
    int64_t fi = 0, fo = 0;
    if (nn_init_calculate_fan_in_and_fan_out(t, &fi, &fo) < 0) return -1;
    if (fi + fo == 0) return nn_error_set(NN_ERR_ZERO_DIVISION, "float division by zero");
    *std = gain * sqrt(2.0 / (double)(fi + fo));
    return 0;
}

int nn_init_xavier_uniform_(nn_tensor *t, double gain)
{
    double std = 0;
    if (xavier_std(t, gain, &std) < 0) return -1;
    double a = sqrt(3.0) * std;
    return nn_init_uniform_(t, -a, a);
}

int nn_init_xavier_normal_(nn_tensor *t, double gain)
{
    double std = 0;
    if (xavier_std(t, gain, &std) < 0) return -1;
    return nn_init_normal_(t, 0., std);
}

/* -------------------------------------------------------------- kaiming */

/* gain / sqrt(fan); 1 when the tensor has a zero-sized dim (nothing to fill). */
static int kaiming_std(const nn_tensor *t, nn_object *a, const char *mode, const char *nonlinearity, double *std,
                       int init_py_line)
{
    /* warnings.warn in PyTorch 1.13's torch/nn/init.py, at init_py_line */
    nn_warn_place place = {"torch.nn.init", "torch/nn/init.py", init_py_line};
    for (int d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 0) {
            return nn_warn_at(&place, "UserWarning", "Initializing zero-element tensors is a no-op") < 0 ? -1 : 1;
        }
    }
    int64_t fan = 0;
    if (correct_fan(t, mode ? mode : "fan_in", &fan) < 0) return -1;
    nn_object *zero = NULL;
    if (!a && !(zero = nn_int_new(0))) return -1;
    double gain = 0;
    bool is_int;
    int rc = gain_value(nonlinearity ? nonlinearity : "leaky_relu", a ? a : zero, &gain, &is_int);
    NN_RELEASE(zero);
    if (rc < 0) return -1;
    *std = gain / sqrt((double)fan);
    return 0;
}

int nn_init_kaiming_uniform_(nn_tensor *t, nn_object *a, const char *mode, const char *nonlinearity)
{
    double std = 0;
    int rc = kaiming_std(t, a, mode, nonlinearity, &std, 405);
    if (rc != 0) return rc < 0 ? -1 : 0;
    double bound = sqrt(3.0) * std;
    return nn_init_uniform_(t, -bound, bound);
}

int nn_init_kaiming_normal_(nn_tensor *t, nn_object *a, const char *mode, const char *nonlinearity)
{
    double std = 0;
    int rc = kaiming_std(t, a, mode, nonlinearity, &std, 445);
    if (rc != 0) return rc < 0 ? -1 : 0;
    return nn_init_normal_(t, 0, std);
}

int nn_init_reset_weight_bias(nn_tensor *weight, nn_tensor *bias)
{
    nn_object *a = nn_float_new(sqrt(5.0));
    int rc = a ? nn_init_kaiming_uniform_(weight, a, NULL, NULL) : -1;
    NN_RELEASE(a);
    if (rc == 0 && bias) {
        int64_t fan_in = 0, fan_out = 0;
        if (nn_init_calculate_fan_in_and_fan_out(weight, &fan_in, &fan_out) < 0) return -1;
        double bound = fan_in > 0 ? 1 / sqrt((double)fan_in) : 0;
        rc = nn_init_uniform_(bias, -bound, bound);
    }
    return rc;
}
