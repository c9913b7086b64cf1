/*
 * fft.c — torch.fft's one-dimensional transforms (fft, ifft, rfft, irfft, hfft, ihfft) and
 * fftfreq: a direct O(n²) discrete Fourier transform per row, summed in double
 * on the host copy and rounded once to the result's dtype. PyTorch's CPU FFT
 * (MKL or pocketfft) rounds in float32 along the way; the results agree within a
 * few float32 ulps for the sizes scripts use (exactly on representable ones, such
 * as the transform of [1, 2, 3, 4]). Meant for small n: the cost is n² per row.
 */
#include <math.h>
#include <string.h>

#include "nn_custom_fn.h"
#include "nn_int.h"

/* the scale of a transform of length n: norm "backward" (the default: the inverse
   divides by n), "ortho" (both by sqrt(n)) or "forward" (the forward divides) */
static int scale_of(const char *norm, int64_t n, bool inverse, double *out)
{
    if (!norm || !strcmp(norm, "backward")) *out = inverse ? 1.0 / (double)n : 1.0;
    else if (!strcmp(norm, "ortho")) *out = 1.0 / sqrt((double)n);
    else if (!strcmp(norm, "forward")) *out = inverse ? 1.0 : 1.0 / (double)n;
    else return nn_error_set(NN_ERR_RUNTIME, "Invalid normalization mode: \"%s\"", norm);
    return 0;
}

/* x moved so that dim is last, as a contiguous complex128 tensor */
static nn_tensor *rows_of(nn_tensor *x, int dim)
{
    nn_tensor *c = NULL;
    NN_WITH_GRAD_MODE(false, {
        nn_tensor *moved = nn_transpose(x, dim, x->ndim - 1);
        nn_tensor *cd = moved ? nn_to_dtype(moved, NN_COMPLEX128) : NULL;
        c = cd ? nn_contiguous(cd) : NULL;
        NN_RELEASE(moved);
        NN_RELEASE(cd);
    });
    return c;
}

/* The transform of each row of x along dim, n points in (padded with zeros or cut),
   m points out; real_in / real_out: rfft's and irfft's halves (irfft extends its
   input as a Hermitian sequence). */
static nn_tensor *transform(const char *fname, nn_tensor *x, int64_t n, int dim, const char *norm, bool inverse,
                            bool real_in, bool real_out)
{
    if (x->ndim == 0) {
        nn_error_set(NN_ERR_INDEX, "Dimension specified as %d but tensor has no dimensions", dim);
        return NULL;
    }
    int d;
    if (nn_wrap_dim(dim, x->ndim, &d) < 0) return NULL;
    if (real_in && nn_dtype_is_complex(x->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "%s expects a real input tensor, but got %s", fname + strlen("fft_"),
                     nn_dtype_scalar_name(x->dtype));
        return NULL;
    }
    if (nn_dtype_is_complex(x->dtype) ? false : !nn_dtype_is_floating(x->dtype) && x->dtype != NN_BOOL &&
                                                    !nn_dtype_is_integer(x->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "%s: unsupported dtype %s", fname, nn_dtype_name(x->dtype));
        return NULL;
    }
    int64_t have = x->sizes[d];
    if (n < 0) n = real_out ? 2 * (have - 1) : have;
    if (n < 1) {
        nn_error_set(NN_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)n);
        return NULL;
    }
    double scale;
    if (scale_of(norm, n, inverse, &scale) < 0) return NULL;
    int64_t m = real_in ? n / 2 + 1 : n; /* points out */
    nn_dtype real_dt = x->dtype == NN_FLOAT64 || x->dtype == NN_COMPLEX128 ? NN_FLOAT64 : nn_default_dtype();
    if (real_dt != NN_FLOAT64 && real_dt != NN_FLOAT32) real_dt = NN_FLOAT32;
    nn_dtype out_dt = real_out ? real_dt : nn_dtype_to_complex(real_dt);
    nn_tensor *rows = rows_of(x, d);
    if (!rows) return NULL;
    int64_t batch = have ? nn_numel(rows) / have : 0;
    nn_tensor *hold = NULL;
    const double *in = nn_numel(rows) ? nn_host_read(rows, &hold) : NULL;
    double *out = nn_malloc((size_t)(batch * m * 2 + 1) * sizeof *out), *tw = nn_malloc((size_t)(2 * n) * sizeof *tw);
    signed char *turn = nn_malloc((size_t)n); /* k's quarter turn (0..3) where e^{..k..} is exact, else -1 */
    nn_tensor *r = NULL;
    if (out && tw && turn && (in || !nn_numel(rows))) {
        /* a real signal's full spectrum is its half spectrum and the conjugate mirror, as ATen
           fills it (X[n - k] = conj(X[k]), signed zeros included); its inverse transform
           is the conjugate of the forward one (ATen has no inverse r2c) */
        bool mirror = !real_out && !real_in && !nn_dtype_is_complex(x->dtype), conjugate = mirror && inverse;
        double sign = inverse && !conjugate ? 1 : -1;
        for (int64_t k = 0; k < n; k++) { /* e^{sign 2 pi i k / n}: quarter turns exact */
            static const double quarter[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
            double a = 2.0 * M_PI * (double)k / (double)n;
            bool exact = (4 * k) % n == 0;
            tw[2 * k] = exact ? quarter[4 * k / n][0] : cos(a);
            tw[2 * k + 1] = sign * (exact ? quarter[4 * k / n][1] : sin(a));
            turn[k] = exact ? (signed char)(4 * k / n) : -1;
        }
        for (int64_t b = 0; b < batch; b++) {
            const double *row = in + 2 * b * have;
            for (int64_t k = 0; k < m; k++) {
                if (mirror && k > n / 2) {
                    out[2 * (b * m + k)] = out[2 * (b * m + n - k)], out[2 * (b * m + k) + 1] = -out[2 * (b * m + n - k) + 1];
                    continue;
                }
                double sre = 0, sim = 0;
                for (int64_t t = 0; t < n; t++) {
                    double vre, vim;
                    if (real_out) { /* the Hermitian extension of the half spectrum */
                        int64_t j = t <= n / 2 ? t : n - t;
                        vre = j < have ? row[2 * j] : 0;
                        vim = j < have && t <= n / 2 ? row[2 * j + 1] : j < have ? -row[2 * j + 1] : 0;
                        if (t == 0 || (n % 2 == 0 && t == n / 2)) vim = 0;
                    } else {
                        vre = t < have ? row[2 * t] : 0, vim = t < have ? row[2 * t + 1] : 0;
                    }
                    int64_t at = (k * t) % n;
                    const double *w = tw + 2 * at;
                    double term_re, term_im;
                    if (turn[at] == 0 || turn[at] == 2) { /* times +-1: exactly, signed zeros kept */
                        term_re = turn[at] ? -vre : vre, term_im = turn[at] ? -vim : vim;
                    } else if (turn[at] > 0) { /* times +-i */
                        term_re = -vim * w[1], term_im = vre * w[1];
                    } else {
                        term_re = vre * w[0] - vim * w[1], term_im = vre * w[1] + vim * w[0];
                    }
                    /* the first term starts the sum (0 + -0 would lose a zero's sign, as FFTs do not) */
                    sre = t ? sre + term_re : term_re, sim = t ? sim + term_im : term_im;
                }
                out[2 * (b * m + k)] = sre * scale, out[2 * (b * m + k) + 1] = sim * scale;
            }
        }
        for (int64_t k = 0; conjugate && k < batch * m; k++) out[2 * k + 1] = -out[2 * k + 1];
        int64_t shape[NN_MAX_DIMS];
        memcpy(shape, rows->sizes, sizeof(int64_t) * (size_t)rows->ndim);
        shape[rows->ndim - 1] = m;
        nn_tensor *res = nn_empty_on(nn_device_of(x), rows->ndim, shape, out_dt);
        if (res) {
            nn_dtype part = nn_dtype_to_real(out_dt);
            size_t ps = nn_dtype_size(part), per = real_out ? 1 : 2;
            char *buf = nn_malloc((size_t)(batch * m) * per * ps + 1);
            for (int64_t k = 0; buf && k < batch * m; k++)
                for (size_t p = 0; p < per; p++) nn_store_double(buf + ((size_t)k * per + p) * ps, part, out[2 * k + p]);
            if (!buf || nn_host_write(res, buf) < 0) NN_SET(res, NULL);
            nn_free(buf);
        }
        nn_tensor *back = res ? nn_transpose(res, d, x->ndim - 1) : NULL;
        r = back ? nn_contiguous(back) : NULL;
        NN_RELEASE(back);
        NN_RELEASE(res);
    }
    nn_free(out);
    nn_free(tw);
    nn_free(turn);
    NN_RELEASE(hold);
    NN_RELEASE(rows);
    if (r && nn_needs_grad(1, &x)) {
        nn_op_params p = {.i = {d, n, have, inverse}, .n_i = 4, .f = {scale}};
        /* fft of a real signal is an r2c transform too (its gradient the real part) */
        bool r2c = real_in || (!real_out && !nn_dtype_is_complex(x->dtype));
        nn_op_id op = r2c ? NN_OP_fft_r2c : real_out ? NN_OP_fft_c2r : NN_OP_fft_c2c;
        if (nn_record(op, 1, &x, 1, &r, 0, NULL, &p) < 0) NN_SET(r, NULL);
    }
    return r;
}

/* The adjoint of a recorded transform applied to its gradient g (PyTorch's
   _fft_c2c_backward, _fft_r2c_backward, _fft_c2r_backward): the transform the other
   way with the same scale, back to the input's length along the dim; an rfft's
   input takes the real part, an irfft's mirrored bins count twice. */
static int fft_backward(nn_node *nd, nn_tensor *g, nn_tensor **gin, bool real_in, bool real_out)
{
    int d = (int)nd->p.i[0];
    int64_t n = nd->p.i[1], have = nd->p.i[2], m = g->sizes[d];
    double scale = nd->p.f[0], sign = nd->p.i[3] ? -1 : 1; /* the opposite of the forward's */
    nn_tensor *rows = rows_of(g, d), *hold = NULL;
    if (!rows) return -1;
    int64_t batch = m ? nn_numel(rows) / m : 0;
    const double *in = nn_numel(rows) ? nn_host_read(rows, &hold) : NULL;
    double *out = nn_calloc((size_t)(batch * have * 2 + 1), sizeof *out);
    int rc = -1;
    if (out && (in || !nn_numel(rows))) {
        int64_t limit = real_out ? n / 2 + 1 : n; /* input positions the forward read */
        for (int64_t b = 0; b < batch; b++) {
            const double *row = in + 2 * b * m;
            for (int64_t t = 0; t < have && t < limit; t++) {
                double sre = 0, sim = 0;
                for (int64_t k = 0; k < m; k++) {
                    double a = sign * 2.0 * M_PI * (double)((k * t) % n) / (double)n, c = cos(a), sn = sin(a);
                    sre += row[2 * k] * c - row[2 * k + 1] * sn;
                    sim += row[2 * k] * sn + row[2 * k + 1] * c;
                }
                double twice = real_out && t != 0 && 2 * t != n ? 2 : 1;
                out[2 * (b * have + t)] = sre * scale * twice;
                out[2 * (b * have + t) + 1] = real_in || (real_out && twice == 1) ? 0 : sim * scale * twice;
            }
        }
        nn_input_meta *meta = &nd->input_meta[0];
        nn_dtype dt = real_in ? nn_dtype_to_real(meta->dtype) : nn_dtype_is_complex(meta->dtype) ? meta->dtype
                                                                                                 : nn_dtype_to_complex(meta->dtype);
        int64_t shape[NN_MAX_DIMS];
        memcpy(shape, rows->sizes, sizeof(int64_t) * (size_t)rows->ndim);
        shape[rows->ndim - 1] = have;
        nn_tensor *res = nn_empty_on(nn_device_of(g), rows->ndim, shape, dt);
        size_t per = nn_dtype_is_complex(dt) ? 2 : 1, ps = nn_dtype_size(nn_dtype_to_real(dt));
        char *buf = res ? nn_malloc((size_t)(batch * have) * per * ps + 1) : NULL;
        for (int64_t k = 0; buf && k < batch * have; k++)
            for (size_t p = 0; p < per; p++) nn_store_double(buf + ((size_t)k * per + p) * ps, nn_dtype_to_real(dt), out[2 * k + p]);
        nn_tensor *back = buf && nn_host_write(res, buf) == 0 ? nn_transpose(res, d, rows->ndim - 1) : NULL;
        if (back && (gin[0] = nn_contiguous(back))) rc = 0;
        nn_free(buf);
        NN_RELEASE(back);
        NN_RELEASE(res);
    }
    nn_free(out);
    NN_RELEASE(hold);
    NN_RELEASE(rows);
    return rc;
}

int nn_fft_c2c_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return fft_backward(n, gout[0], gin, false, false); }
int nn_fft_r2c_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return fft_backward(n, gout[0], gin, true, false); }
int nn_fft_c2r_backward(nn_node *n, nn_tensor **gout, nn_tensor **gin) { return fft_backward(n, gout[0], gin, false, true); }

nn_tensor *nn_fft(nn_tensor *x, int64_t n, int dim, const char *norm) { return transform("fft_fft", x, n, dim, norm, false, false, false); }
nn_tensor *nn_ifft(nn_tensor *x, int64_t n, int dim, const char *norm) { return transform("fft_ifft", x, n, dim, norm, true, false, false); }
nn_tensor *nn_rfft(nn_tensor *x, int64_t n, int dim, const char *norm) { return transform("fft_rfft", x, n, dim, norm, false, true, false); }
nn_tensor *nn_irfft(nn_tensor *x, int64_t n, int dim, const char *norm) { return transform("fft_irfft", x, n, dim, norm, true, false, true); }

/* hfft's norm is irfft's reversed: the forward transform is the unscaled one by default */
static const char *reversed_norm(const char *norm)
{
    if (!norm || !strcmp(norm, "backward")) return "forward";
    if (!strcmp(norm, "forward")) return "backward";
    return norm; /* "ortho", or a bad one that scale_of refuses */
}

/* hfft: the (real) spectrum of the Hermitian signal whose first half x is, irfft of its
   conjugate; ihfft: that half from a real signal, the conjugate of its rfft */
nn_tensor *nn_hfft(nn_tensor *x, int64_t n, int dim, const char *norm)
{
    nn_tensor *c = nn_conj(x), *r = c ? transform("fft_hfft", c, n, dim, reversed_norm(norm), true, false, true) : NULL;
    NN_RELEASE(c);
    return r;
}

nn_tensor *nn_ihfft(nn_tensor *x, int64_t n, int dim, const char *norm)
{
    nn_tensor *h = transform("fft_ihfft", x, n, dim, reversed_norm(norm), false, true, false), *r = h ? nn_conj(h) : NULL;
    NN_RELEASE(h);
    return r;
}

nn_tensor *nn_fftfreq(int64_t n, double d, bool rfft, nn_dtype dt)
{
    int64_t m = rfft ? n / 2 + 1 : n;
    nn_tensor *t = nn_empty(1, &m, dt);
    double *v = t ? nn_malloc((size_t)(m + 1) * sizeof *v) : NULL;
    if (!v) {
        NN_RELEASE(t);
        return NULL;
    }
    /* [0, 1, ..., (n - 1) / 2, -(n / 2), ..., -1] / (d n), as arange then scale in the dtype */
    for (int64_t k = 0; k < m; k++) v[k] = (double)(k < (n + 1) / 2 || rfft ? k : k - n);
    char *buf = nn_malloc((size_t)m * nn_dtype_size(dt) + 1);
    double s = 1.0 / (d * (double)n);
    for (int64_t k = 0; buf && k < m; k++) {
        double x = dt == NN_FLOAT32 ? (double)((float)v[k] * (float)s) : v[k] * s;
        nn_store_double(buf + (size_t)k * nn_dtype_size(dt), dt, x);
    }
    if (!buf || nn_host_write(t, buf) < 0) NN_SET(t, NULL);
    nn_free(buf);
    nn_free(v);
    return t;
}

/* ------------------------------------------------------- n-dimensional */

/* dims wrapped into d, with ATen's errors for mismatched s and dim, repeated dims and none */
static int wrap_fft_dims(const nn_tensor *x, int n_dims, const int *dims, const int64_t *s, int *d)
{
    if (s && n_dims < 0) return nn_error_set(NN_ERR_RUNTIME, "When given, dim and shape arguments must have the same length");
    for (int i = 0; i < n_dims; i++) {
        if (nn_wrap_dim(dims[i], x->ndim, &d[i]) < 0) return -1;
        for (int j = 0; j < i; j++)
            if (d[j] == d[i]) return nn_error_set(NN_ERR_RUNTIME, "FFT dims must be unique");
    }
    if (n_dims < 1) return nn_error_set(NN_ERR_RUNTIME, "ndim must be >= 1");
    return 0;
}

/* hfftn: irfftn of the conjugate; ihfftn: the conjugate of rfftn; each with the norm reversed */
static nn_tensor *hermitian_fftn(const char *fname, nn_tensor *x, int n_dims, const int *dims, const int64_t *s,
                                 const char *norm, bool inverse)
{
    if (inverse && !nn_dtype_is_floating(x->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "Expected self.is_floating_point() to be true, but got false.  (Could this error "
                                     "message be improved?  If so, please report an enhancement request to PyTorch.)");
        return NULL;
    }
    if (inverse) {
        /* as ATen: the conjugate of the last dim's rfft, then the inverse over the others
           (signed zeros as its), in double until the one rounding */
        int d[NN_MAX_DIMS], last = n_dims - 1;
        if (wrap_fft_dims(x, n_dims, dims, s, d) < 0) return NULL;
        nn_tensor *wide = nn_to_dtype(x, NN_FLOAT64), *h = wide ? nn_rfft(wide, s ? s[last] : -1, dims[last], reversed_norm(norm)) : NULL;
        nn_tensor *c = h ? nn_conj(h) : NULL;
        nn_tensor *r = c && last ? nn_fftn(fname, c, last, dims, s, norm, NN_FFT_C2C, true) : c ? (nn_tensor *)nn_retain(&c->ob) : NULL;
        nn_tensor *out = r ? nn_to_dtype(r, nn_dtype_to_complex(x->dtype == NN_FLOAT64 ? NN_FLOAT64 : nn_default_dtype())) : NULL;
        NN_RELEASE(wide);
        NN_RELEASE(h);
        NN_RELEASE(c);
        NN_RELEASE(r);
        return out;
    }
    nn_tensor *c = nn_conj(x), *r = c ? nn_fftn(fname, c, n_dims, dims, s, reversed_norm(norm), NN_FFT_C2R, true) : NULL;
    NN_RELEASE(c);
    return r;
}

nn_tensor *nn_fftn(const char *fname, nn_tensor *x, int n_dims, const int *dims, const int64_t *s, const char *norm,
                   nn_fft_kind kind, bool inverse)
{
    if (kind == NN_FFT_HERMITIAN) return hermitian_fftn(fname, x, n_dims, dims, s, norm, inverse);
    int d[NN_MAX_DIMS];
    if (wrap_fft_dims(x, n_dims, dims, s, d) < 0) return NULL;
    if (kind == NN_FFT_R2C && nn_dtype_is_complex(x->dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "rfftn expects a real-valued input tensor, but got %s",
                     nn_dtype_scalar_name(x->dtype));
        return NULL;
    }
    /* every pass in double (one rounding at the end); R2C's last dim first, C2R's last */
    bool wide = x->dtype == NN_FLOAT64 || x->dtype == NN_COMPLEX128 || nn_default_dtype() == NN_FLOAT64;
    nn_dtype real_dt = wide ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *cur = nn_to_dtype(x, kind == NN_FFT_R2C && !nn_dtype_is_complex(x->dtype) ? NN_FLOAT64 : NN_COMPLEX128);
    int last = n_dims - 1;
    for (int step = 0; cur && step < n_dims; step++) {
        int i = kind == NN_FFT_R2C ? (step == 0 ? last : step - 1) : step;
        int64_t n = s ? s[i] : -1;
        nn_tensor *next;
        if (kind == NN_FFT_R2C && step == 0) next = nn_rfft(cur, n, d[i], norm);
        else if (kind == NN_FFT_C2R && i == last) next = nn_irfft(cur, n, d[i], norm);
        else next = transform(fname, cur, n, d[i], norm, inverse, false, false);
        NN_SET(cur, next);
    }
    nn_tensor *r = cur ? nn_to_dtype(cur, kind == NN_FFT_C2R ? real_dt : nn_dtype_to_complex(real_dt)) : NULL;
    NN_RELEASE(cur);
    /* the passes are recorded one by one (and the casts); the result's node is named as
       PyTorch's one transform node */
    const char *name = kind == NN_FFT_C2R ? "FftC2RBackward0" : kind == NN_FFT_R2C ? "FftR2CBackward0" : "FftC2CBackward0";
    if (r && r->grad_fn && nn_node_set_name(r->grad_fn, name) < 0) NN_SET(r, NULL);
    return r;
}

nn_tensor *nn_fftshift(nn_tensor *x, int n_dims, const int *dims, bool inverse)
{
    int all[NN_MAX_DIMS];
    if (n_dims < 0) { /* every dim */
        n_dims = x->ndim;
        for (int i = 0; i < n_dims; i++) all[i] = i;
        dims = all;
    }
    int64_t shifts[NN_MAX_DIMS];
    for (int i = 0; i < n_dims; i++) {
        int d;
        if (nn_wrap_dim(dims[i], x->ndim, &d) < 0) return NULL;
        shifts[i] = inverse ? (x->sizes[d] + 1) / 2 : x->sizes[d] / 2;
    }
    return nn_roll(x, n_dims, shifts, n_dims, dims);
}
