/*
 * cpu/gamma_grad_kernel.c — the reparameterized gradients of the gamma and Dirichlet
 * samplers, elementwise, as ATen 1.13's CPU kernels compute them
 * (torch._standard_gamma_grad, torch._dirichlet_grad; the sample kernel's
 * NN_SAMPLE_GAMMA_GRAD and NN_SAMPLE_DIRICHLET_GRAD):
 *   - d x / d alpha of a standard gamma draw x = -(d/dalpha CDF(x; alpha)) / pdf(x; alpha):
 *     a Taylor series for x < 0.8, a Rice saddle-point expansion for alpha > 8, else a
 *     bivariate rational fit (in double, rounded once to the tensor's dtype);
 *   - the same scaled quantity for a Beta(alpha, total - alpha) draw: series near 0 and 1,
 *     a saddle-point expansion for large alpha and beta, else a rational correction to
 *     an analytic approximation.
 * The series near 0 and 1 run in the tensor's own dtype and the rest in double, with
 * the float literals' float values, as ATen's templates (scalar_t, accumulating in
 * double) do, so float32 results round where PyTorch's do. The formulas and
 * coefficient tables are published math (Jankowiak & Obermeyer 2018); Cephes'
 * digamma is evaluated the same way.
 */
#include <math.h>

#include "nn_cpu.h"

/* powers of z evaluated by Horner's rule, coefficients from the highest */
static double horner(double z, const double *c, int n)
{
    double r = 0;
    for (int i = 0; i < n; i++) r = r * z + c[i];
    return r;
}

static const double digamma_asym[7] = {
    8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
    -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
    8.33333333333333333333E-2,
};

/* digamma of x given in type S, summed in double, rounded to S. Generated for
   float and double. */
#define DIGAMMA(S, NAME, LOG, TAN, FLOOR, PI)                                                              \
    static S NAME(S x)                                                                                     \
    {                                                                                                      \
        if (x == 0) return (S)INFINITY;                                                                    \
        double reflect = 0;                                                                                \
        if (x < 0) {                                                                                       \
            if (x == FLOOR(x)) return (S)INFINITY;                                                         \
            reflect = -PI / TAN(PI * x);                                                                   \
            x = 1 - x;                                                                                     \
        }                                                                                                  \
        double acc = 0;                                                                                    \
        for (; x < 10; x += 1) acc -= 1 / x;                                                               \
        if (x == 10) return (S)(acc + 2.25175258906672110764 + reflect);                                   \
        double tail = 0;                                                                                   \
        if (x < 1.0e17f) {                                                                                 \
            double z = 1.0 / (x * x);                                                                      \
            tail = z * horner(z, digamma_asym, 7);                                                         \
        }                                                                                                  \
        return (S)(acc + LOG(x) - (0.5f / x) - tail + reflect);                                            \
    }
DIGAMMA(float, digamma_f, logf, tanf, floorf, 3.14159265358979323846f)
DIGAMMA(double, digamma_d, log, tan, floor, 3.14159265358979323846)

/* d x / d alpha for a standard gamma draw x, in double */
static double gamma_grad(double alpha, double x)
{
    if (x < 0.8f) { /* Taylor series of the lower incomplete gamma function */
        double num = 1, den = alpha, s1 = num / den, s2 = num / (den * den);
        for (int k = 1; k <= 5; k++) {
            num *= -x / (double)k;
            den += 1;
            s1 += num / den;
            s2 += num / (den * den);
        }
        double xa = pow(x, alpha);
        double pdf = pow(x, alpha - 1) * exp(-x);
        double cdf = xa * s1;
        double dcdf = (log(x) - digamma_d(alpha)) * cdf - xa * s2;
        double r = -dcdf / pdf;
        return isnan(r) ? 0 : r;
    }
    if (alpha > 8.0f) { /* Rice's saddle point expansion */
        if (0.9f * alpha <= x && x <= 1.1f * alpha) {
            double n1 = 1 + 24 * alpha * (1 + 12 * alpha);
            double n2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x);
            double d = 1244160 * (alpha * alpha) * (alpha * alpha);
            return n1 * n2 / d;
        }
        double d = sqrt(8 * alpha);
        double t2 = d / (alpha - x);
        double t3 = pow(x - alpha - alpha * log(x / alpha), -1.5);
        double t23 = x < alpha ? t2 - t3 : t2 + t3;
        double t1 = log(x / alpha) * t23 - sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x));
        double stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha));
        return -stirling * (x * t1) / d;
    }
    /* a rational function of u = log(x / alpha) and v = log(alpha) */
    static const double fit[3][8] = {
        {0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084},
        {0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623},
        {0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
         -1.5247877e-07},
    };
    double u = log(x / alpha), v = log(alpha), c[8];
    for (int k = 0; k < 8; k++) c[k] = fit[0][k] + u * (fit[1][k] + u * fit[2][k]);
    double p = c[0] + v * (c[1] + v * (c[2] + v * c[3]));
    double q = c[4] + v * (c[5] + v * (c[6] + v * c[7]));
    return exp(p / q);
}

/* The Beta(alpha, beta) series near 0 (wrt alpha) and near 1 (wrt beta, at 1 - x),
   in type S as ATen's templates compute them. */
#define BETA_SMALL(S, SUF, LOG, POW, DIGAMMA)                                                              \
    static S beta_alpha_small_##SUF(S x, S alpha, S beta)                                                  \
    {                                                                                                      \
        const S factor = DIGAMMA(alpha) - DIGAMMA(alpha + beta) - LOG(x);                                  \
        S num = 1;                                                                                         \
        S series = num / alpha * (factor + 1 / alpha);                                                     \
        for (int k = 1; k <= 10; k++) {                                                                    \
            S sk = (S)k;                                                                                   \
            num *= (sk - beta) * x / sk;                                                                   \
            const S den = alpha + sk;                                                                      \
            series += num / den * (factor + 1 / den);                                                      \
        }                                                                                                  \
        const S r = x * POW(1 - x, -beta) * series;                                                        \
        return isnan(r) ? 0 : r;                                                                           \
    }                                                                                                      \
    static S beta_beta_small_##SUF(S x, S alpha, S beta)                                                   \
    {                                                                                                      \
        const S factor = DIGAMMA(alpha + beta) - DIGAMMA(beta);                                            \
        S num = 1, prod = 1, dprod = 0, series = factor / alpha;                                           \
        for (int k = 1; k <= 8; k++) {                                                                     \
            S sk = (S)k;                                                                                   \
            num *= -x / sk;                                                                                \
            dprod = dprod * (beta - sk) + prod;                                                            \
            prod = prod * (beta - sk);                                                                     \
            series += num / (alpha + sk) * (dprod + factor * prod);                                        \
        }                                                                                                  \
        const S r = -POW(1 - x, 1 - beta) * series;                                                        \
        return isnan(r) ? 0 : r;                                                                           \
    }
BETA_SMALL(float, f, logf, powf, digamma_f)
BETA_SMALL(double, d, log, pow, digamma_d)

/* wrt alpha for large alpha and beta (saddle point), in double */
static double beta_alpha_mid(double x, double alpha, double beta)
{
    const double total = alpha + beta, mean = alpha / total;
    const double sd = sqrt(alpha * beta / (total + 1)) / total;
    if (mean - 0.1 * sd <= x && x <= mean + 0.1 * sd) { /* around the singularity at the mean */
        const double b2 = beta * beta;
        const double poly =
            47 * x * b2 * b2 +
            alpha * ((43 + 20 * (16 + 27 * beta) * x) * b2 * beta +
                     alpha * (3 * (59 + 180 * beta - 90 * x) * b2 +
                              alpha * ((453 + 1620 * beta * (1 - x) - 455 * x) * beta +
                                       alpha * (8 * (1 - x) * (135 * beta - 11)))));
        const double pre_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total);
        const double pre_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total);
        return pre_num / (1 - x) * poly / pre_den;
    }
    const double pre = -x / sqrt(2 * alpha * beta / total);
    const double stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) *
                            (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) /
                            (1 + 1 / (12 * total) + 1 / (288 * total * total));
    const double t1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta);
    const double axbx = alpha * (x - 1) + beta * x;
    const double t1 = t1_num / (sqrt(2 * alpha / beta) * pow(total, (double)1.5f) * axbx * axbx);
    const double t2 = 0.5f * log(alpha / (total * x));
    const double t3 = sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1));
    const double t4 = pow(beta * log(beta / (total * (1 - x))) + alpha * log(alpha / (total * x)), (double)-1.5f);
    return stirling * pre * (t1 + t2 * (t3 + (x < mean ? t4 : -t4)));
}

static const double dirichlet_fit[2][3][3][4] = {
    {{{1.003668233, -0.01061107488, -0.0657888334, 0.01201642863},
      {0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033},
      {-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013}},
     {{0.221950385, -0.3187676331, 0.01799915743, 0.01074823814},
      {-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057},
      {0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05}},
     {{-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565},
      {0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181},
      {0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05}}},
    {{{1, -0.02924021934, -0.04438342661, 0.007285809825},
      {0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521},
      {-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149}},
     {{0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273},
      {0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956},
      {-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05}},
     {{0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05},
      {0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05},
      {-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06}}},
};

/* the rational correction, in double; the digammas in type S */
#define DIRICHLET_GRAD(S, SUF, DIGAMMA)                                                                    \
    static S dirichlet_grad_##SUF(S x, S alpha, S total)                                                   \
    {                                                                                                      \
        const S beta = total - alpha, edge = total * x * (1 - x);                                          \
        if (x <= 0.5f && edge < 2.5f) return beta_alpha_small_##SUF(x, alpha, beta);                      \
        if (x >= 0.5f && edge < 0.75f) return -beta_beta_small_##SUF(1 - x, beta, alpha);                 \
        if (alpha > 6 && beta > 6) return (S)beta_alpha_mid(x, alpha, (double)total - (double)alpha);      \
        const double u = log((double)x), a = log((double)alpha) - u, b = log((double)total) - a;          \
        const double pu[3] = {1, u, u * u}, pa[3] = {1, a, a * a};                                         \
        double p = 0, q = 0;                                                                               \
        for (int i = 0; i < 3; i++)                                                                        \
            for (int j = 0; j < 3; j++) {                                                                  \
                const double ua = pu[i] * pa[j];                                                           \
                const double *cp = dirichlet_fit[0][i][j], *cq = dirichlet_fit[1][i][j];                   \
                p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])));                                 \
                q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])));                                 \
            }                                                                                              \
        const S dg = DIGAMMA((S)total) - DIGAMMA((S)alpha);                                                \
        const double approx = (double)x * dg / ((double)total - (double)alpha);                            \
        return (S)(p / q * approx);                                                                        \
    }
DIRICHLET_GRAD(float, f, digamma_f)
DIRICHLET_GRAD(double, d, digamma_d)

/* t[0] = d x / d alpha at each concentration t[1] and draw t[2] (one float dtype, contiguous) */
int nn_cpu_standard_gamma_grad(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    const nn_tensor *al = a->t[1], *xs = a->t[2];
    int64_t n = nn_numel(out);
    if (out->dtype == NN_FLOAT32) {
        const float *pa = nn_data_ptr(al), *px = nn_data_ptr(xs);
        float *po = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) po[i] = (float)gamma_grad(pa[i], px[i]);
    } else {
        const double *pa = nn_data_ptr(al), *px = nn_data_ptr(xs);
        double *po = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) po[i] = gamma_grad(pa[i], px[i]);
    }
    return 0;
}

/* t[0] = the Dirichlet gradient at each draw t[1], concentration t[2] and total t[3] */
int nn_cpu_dirichlet_grad(nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    int64_t n = nn_numel(out);
    if (out->dtype == NN_FLOAT32) {
        const float *px = nn_data_ptr(a->t[1]), *pa = nn_data_ptr(a->t[2]), *pt = nn_data_ptr(a->t[3]);
        float *po = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) po[i] = dirichlet_grad_f(px[i], pa[i], pt[i]);
    } else {
        const double *px = nn_data_ptr(a->t[1]), *pa = nn_data_ptr(a->t[2]), *pt = nn_data_ptr(a->t[3]);
        double *po = nn_data_ptr(out);
        for (int64_t i = 0; i < n; i++) po[i] = dirichlet_grad_d(px[i], pa[i], pt[i]);
    }
    return 0;
}
