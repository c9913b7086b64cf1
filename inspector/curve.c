/*
 * curve.c — an activation module's curve and derivative, drawn with braille
 * (each cell U+2800+bits is a 2x4 grid of dots) over the range of the inputs
 * it saw, with the histogram of those inputs as bars underneath: where the
 * inputs fall (dead zone, saturated tails, PReLU's slope as it learns). The
 * derivative comes from autograd, as plot()'s does: a backward into the sample
 * points only (nn_backward_inputs), which may run inside a hook's backward (a
 * live redraw) and leaves the module's parameters' .grad as it was.
 */
#include "insp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool insp_is_activation(const nn_module *m)
{
    static const nn_module_class *const classes[] = {
        &nn_relu_class, &nn_gelu_class, &nn_prelu_class, &nn_sigmoid_class, &nn_tanh_class,
        &nn_threshold_class, &nn_leaky_relu_class, &nn_elu_class, &nn_silu_class, &nn_softplus_class,
    };
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (m->cls == classes[i]) return true;
    return false;
}

/* y[i] = f(x[i]) and dy[i] = f'(x[i]) for n points x = linspace(lo, hi) in dtype
   (into xs): the module's forward called directly (no hooks) on a copy of x, since
   an in-place module overwrites its input, and the derivative from a backward
   into x alone, so that the module's parameters (PReLU's weight) keep their .grad.
   0, or -1 with f's error. */
static int sample(nn_module *m, double lo, double hi, int n, nn_dtype dtype, double *xs, double *y, double *dy)
{
    bool was = nn_set_grad_enabled(true);
    nn_tensor *x = nn_linspace(lo, hi, n, dtype), *copy = NULL, *flat = NULL, *sum = NULL, *grad = NULL;
    nn_object *args = NULL, *out = NULL;
    int rc = -1;
    const nn_module_class *owner = NN_MODULE_SLOT(m->cls, forward);
    if (x) nn_to_doubles(x, xs);
    if (x && nn_set_requires_grad(x, true) == 0 && (copy = nn_clone(x)) && (args = nn_tuple_pack(1, &copy->ob)) &&
        owner && (out = owner->forward(m, args, NULL))) {
        if (!nn_is_tensor(out) || nn_numel(NN_TENSOR(out)) != n) {
            nn_error_set(NN_ERR_VALUE, "%s does not give one value per input", nn_module_name(m));
        } else if ((flat = nn_contiguous(NN_TENSOR(out)))) {
            nn_to_doubles(flat, y);
            if (!NN_TENSOR(out)->requires_grad) { /* a function that ignores x */
                for (int i = 0; i < n; i++) dy[i] = 0;
                rc = 0;
            } else if ((sum = nn_sum(NN_TENSOR(out), 0, NULL, false)) && nn_backward_inputs(sum, NULL, 1, &x) == 0) {
                if ((grad = nn_grad(x))) nn_to_doubles(grad, dy);
                else
                    for (int i = 0; i < n; i++) dy[i] = 0;
                rc = 0;
            }
        }
    }
    nn_set_grad_enabled(was);
    NN_RELEASE(grad);
    NN_RELEASE(sum);
    NN_RELEASE(flat);
    NN_RELEASE(out);
    NN_RELEASE(args);
    NN_RELEASE(copy);
    NN_RELEASE(x);
    return rc;
}

/* Sets the braille dot of sample column i (two per cell) at dot row r. */
static void dot(uint8_t *mask, int w, int i, int r)
{
    static const uint8_t bits[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    mask[(r / 4) * w + i / 2] |= bits[r % 4][i % 2];
}

/* Plots v[0..n) (n = 2 columns per cell) into mask over [ymin, ymax], joining
   neighbouring samples with a vertical run so that steps stay connected. */
static void plot(uint8_t *mask, int w, int dot_rows, const double *v, int n, double ymin, double ymax)
{
    int prev = -1;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            prev = -1;
            continue;
        }
        int r = (int)lround((ymax - v[i]) / (ymax - ymin) * (dot_rows - 1));
        r = r < 0 ? 0 : r >= dot_rows ? dot_rows - 1 : r;
        int from = prev < 0 ? r : prev < r ? prev + 1 : prev > r ? prev - 1 : r;
        for (int k = from < r ? from : r; k <= (from < r ? r : from); k++) dot(mask, w, i, k);
        prev = r;
    }
}

int insp_draw_curve(insp_screen *sc, int top, int x, int rows, int w, nn_module *m, const insp_stats *input)
{
    const int label_w = 9;
    int plot_rows = rows - 2, plot_w = w - label_w;
    if (plot_rows < 2 || plot_w < 8) return 0;
    if (plot_w > 256) plot_w = 256;
    bool seen = input && input->count > input->nan_count + input->inf_count;
    double lo = seen ? input->min : -3, hi = seen ? input->max : 3;
    if (!(hi > lo)) lo -= 1, hi += 1;
    int n = 2 * plot_w, rc = -1;
    double *y = nn_malloc(3 * (size_t)n * sizeof *y), *dy = y ? y + n : NULL, *xs = y ? y + 2 * n : NULL;
    uint8_t *curve = nn_calloc((size_t)(plot_rows * plot_w), 2), *deriv = curve ? curve + plot_rows * plot_w : NULL;
    char a[32], b[32], legend[256];
    if (!y || !curve) goto out;
    /* float64 first; a module with float32 parameters (PReLU) may only take float32 */
    int sampled = sample(m, lo, hi, n, NN_FLOAT64, xs, y, dy);
    if (sampled < 0 && nn_error_current() != NN_ERR_MEMORY) {
        nn_error_clear();
        sampled = sample(m, lo, hi, n, NN_FLOAT32, xs, y, dy);
    }
    if (sampled < 0) {
        if (nn_error_current() == NN_ERR_MEMORY) goto out;
        char note[200];
        snprintf(note, sizeof note, "curve: %s", nn_error_message());
        nn_error_clear();
        insp_screen_put(sc, top, x, w, INSP_COLOR_DIM, 0, note);
        rc = 0;
        goto out;
    }
    double ymin = 0, ymax = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 2; k++) {
            double v = k ? dy[i] : y[i];
            if (isfinite(v)) ymin = v < ymin ? v : ymin, ymax = v > ymax ? v : ymax;
        }
    }
    if (!(ymax > ymin)) ymin -= 1, ymax += 1;
    snprintf(legend, sizeof legend, "%s over the inputs seen", nn_module_name(m));
    int col = x + insp_screen_put(sc, top, x, w, INSP_COLOR_TITLE, INSP_ATTR_BOLD, legend);
    col += insp_screen_put(sc, top, col, x + w - col, INSP_COLOR_CURVE, 0, "  ⣿ f(x)");
    col += insp_screen_put(sc, top, col, x + w - col, INSP_COLOR_DERIV, 0, "  ⣿ f'(x)");
    insp_screen_put(sc, top, col, x + w - col, INSP_COLOR_HIST, 0, seen ? "  ▄ inputs" : "  (no input seen: [-3, 3])");
    /* the inputs' histogram in the lower half, then the curves over it */
    if (seen) insp_draw_bars(sc, top + 1 + plot_rows - plot_rows / 2, x + label_w, plot_rows / 2, plot_w, input->hist, INSP_COLOR_HIST);
    plot(curve, plot_w, plot_rows * 4, y, n, ymin, ymax);
    plot(deriv, plot_w, plot_rows * 4, dy, n, ymin, ymax);
    for (int r = 0; r < plot_rows; r++) {
        for (int c = 0; c < plot_w; c++) {
            uint8_t cm = curve[r * plot_w + c], dm = deriv[r * plot_w + c];
            if (!cm && !dm) continue;
            char cell[4] = {0};
            uint32_t u = 0x2800u | cm | dm;
            cell[0] = (char)(0xe0 | u >> 12), cell[1] = (char)(0x80 | ((u >> 6) & 0x3f)), cell[2] = (char)(0x80 | (u & 0x3f));
            insp_screen_put(sc, top + 1 + r, x + label_w + c, 1, cm ? INSP_COLOR_CURVE : INSP_COLOR_DERIV, 0, cell);
        }
    }
    /* y labels: top, bottom and 0; x labels: lo, 0, hi */
    snprintf(a, sizeof a, "%8.3g", ymax);
    insp_screen_put(sc, top + 1, x, label_w - 1, INSP_COLOR_DIM, 0, a);
    snprintf(a, sizeof a, "%8.3g", ymin);
    insp_screen_put(sc, top + plot_rows, x, label_w - 1, INSP_COLOR_DIM, 0, a);
    int zero_row = (int)lround(ymax / (ymax - ymin) * (plot_rows * 4 - 1)) / 4;
    if (zero_row > 0 && zero_row < plot_rows - 1) insp_screen_put(sc, top + 1 + zero_row, x, label_w - 1, INSP_COLOR_DIM, 0, "       0");
    snprintf(a, sizeof a, "%.3g", lo);
    snprintf(b, sizeof b, "%.3g", hi);
    insp_screen_put(sc, top + 1 + plot_rows, x + label_w, plot_w, INSP_COLOR_DIM, 0, a);
    if (lo < 0 && hi > 0) {
        int zc = (int)lround(-lo / (hi - lo) * (plot_w - 1));
        if (zc > (int)strlen(a) && zc < plot_w - (int)strlen(b) - 1) insp_screen_put(sc, top + 1 + plot_rows, x + label_w + zc, 1, INSP_COLOR_DIM, 0, "0");
    }
    insp_screen_put(sc, top + 1 + plot_rows, x + label_w + plot_w - (int)strlen(b), (int)strlen(b), INSP_COLOR_DIM, 0, b);
    rc = 0;
out:
    nn_free(y);
    nn_free(curve);
    return rc;
}
