/*
 * cpu/special.c — torch.special's functions on the CPU (the math kernel's
 * NN_MATH_special, core/backend.h's nn_special_op): lgamma, digamma, trigamma
 * and polygamma (Hurwitz zeta), the modified Bessel functions i0, i0e, i1, i1e
 * (Cephes' Chebyshev series), ndtr, ndtri, log_ndtr, erfcx, sinc, entr,
 * xlog1py and zeta, element by element over contiguous float32 or float64
 * operands.
 *
 * Each is ATen 1.13's scalar formula (aten/src/ATen/native/Math.h, the
 * coefficients being Cephes' published ones) in the operand's precision, with
 * the same libm calls, so that float32 rounds where PyTorch's rounds. ATen's
 * kernels are compiled with GCC's default floating-point contraction for an
 * AVX2+FMA target: this file is compiled the same way (fp-contract=fast, and
 * an FMA clone of each loop chosen at run time) so that `a * b + c` fuses
 * where GCC fuses it in PyTorch. erfcx is not ATen's (a table of 100
 * Chebyshev fits): it is computed in long double and rounded, which can be one
 * unit in the last place from PyTorch's.
 */
/* -O3 whatever the build's level (GCC forms fused multiply-adds only from -O2 on: an -O1
   sanitizer build would round differently) */
#ifdef __clang__
#pragma clang fp contract(on) /* clang ignores GCC's optimize pragma; "on" fuses as GCC does here */
#else
#pragma GCC optimize("O3", "fp-contract=fast")
#endif
#include <float.h>
#include <math.h>

#include "nn_cpu.h"
#include "nn_vmath.h"

#define INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------------------ coefficients */

/* Chebyshev series, zero order last: exp(-x) I0(x) on [0, 8] and exp(-x) sqrt(x)
   I0(x) on (8, inf) (Cephes' i0.c). */
static const double I0_A[30] = {
    -4.41534164647933937950E-18, 3.33079451882223809783E-17,  -2.43127984654795469359E-16,
    1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
    9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
    1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
    -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
    1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
    -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
    1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
static const double I0_B[25] = {
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
    7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
    3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
    2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
    8.04490411014108831608E-1};
/* exp(-x) I1(x) / x on [0, 8] and exp(-x) sqrt(x) I1(x) on (8, inf) (Cephes' i1.c);
   float32 uses only the last 17 and 7 terms, as ATen's float tables */
static const double I1_A[29] = {
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9,  -4.44505912879632808065E-8, 2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6,  -1.32731636560394358279E-5,
    4.78156510755005422638E-5,  -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3,  -1.05640848946261981558E-2,
    2.47264490306265168283E-2,  -5.29459812080949914269E-2, 1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1};
static const double I1_B[25] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
    3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};
/* ndtri's rational fits (Cephes' ndtri.c), highest power first */
static const double NDTRI_P0[5] = {-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
                                   1.39312609387279679503E1, -1.23916583867381258016E0};
static const double NDTRI_Q0[9] = {1.0, 1.95448858338141759834E0, 4.67627912898881538453E0,
                                   8.63602421390890590575E1, -2.25462687854119370527E2, 2.00260212380060660359E2,
                                   -8.20372256168333339912E1, 1.59056225126211695515E1, -1.18331621121330003142E0};
static const double NDTRI_P1[9] = {4.05544892305962419923E0,  3.15251094599893866154E1,  5.71628192246421288162E1,
                                   4.40805073893200834700E1,  1.46849561928858024014E1,  2.18663306850790267539E0,
                                   -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4};
static const double NDTRI_Q1[9] = {1.0, 1.57799883256466749731E1, 4.53907635128879210584E1,
                                   4.13172038254672030440E1, 1.50425385692907503408E1, 2.50464946208309415979E0,
                                   -1.42182922854787788574E-1, -3.80806407691578277194E-2, -9.33259480895457427372E-4};
static const double NDTRI_P2[9] = {3.23774891776946035970E0,  6.91522889068984211695E0,  3.93881025292474443415E0,
                                   1.33303460815807542389E0,  2.01485389549179081538E-1, 1.23716634817820021358E-2,
                                   3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9};
static const double NDTRI_Q2[9] = {1.0, 6.02427039364742014255E0, 3.67983563856160859403E0,
                                   1.37702099489081330271E0, 2.16236993594496635890E-1, 1.34204006088543189037E-2,
                                   3.28014464682127739104E-4, 2.89247864745380683936E-6, 6.79019408009981274425E-9};
/* the Euler-Maclaurin tail of the Hurwitz zeta (Cephes' zeta.c) */
static const double ZETA_A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                                  7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                                  -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18};
/* digamma's asymptotic series in 1/x^2 */
static const double PSI_A[7] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                                -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                                8.33333333333333333333E-2};

/* ------------------------------------------------------- the two precisions */

/* Each formula is written once over a type T and its libm functions (F##f for
   float32); the float tables are the double ones rounded. */
#define SPECIAL_FUNCS(T, SUF, LG, EXP, LOG, LOG1P, SQRT, SIN, TAN, ERF, ERFC, FABS, TRUNC)                         \
    INLINE T chbevl_##SUF(T x, const double *c, int len)                                                             \
    {                                                                                                                \
        T b0 = (T)c[0], b1 = 0, b2 = 0;                                                                              \
        for (int i = 1; i < len; i++) {                                                                              \
            b2 = b1;                                                                                                 \
            b1 = b0;                                                                                                 \
            b0 = x * b1 - b2 + (T)c[i];                                                                              \
        }                                                                                                            \
        return (T)0.5 * (b0 - b2);                                                                                   \
    }                                                                                                                \
    INLINE T polevl_##SUF(T x, const double *c, int degree)                                                          \
    {                                                                                                                \
        T r = 0;                                                                                                     \
        for (int i = 0; i <= degree; i++) r = r * x + (T)c[i];                                                       \
        return r;                                                                                                    \
    }                                                                                                                \
    INLINE T digamma_pos_##SUF(T x)                                                                                  \
    {                                                                                                                \
        if (x == 0) return copysign(INFINITY, -x);                                                                   \
        T result = 0;                                                                                                \
        while (x < 10) {                                                                                             \
            result -= 1 / x;                                                                                         \
            x += 1;                                                                                                  \
        }                                                                                                            \
        if (x == 10) return result + (T)2.25175258906672110764;                                                      \
        T y = 0;                                                                                                     \
        if (x < (T)1.0e17) {                                                                                         \
            T z = 1 / (x * x);                                                                                       \
            y = z * polevl_##SUF(z, PSI_A, 6);                                                                       \
        }                                                                                                            \
        return result + LOG(x) - ((T)0.5 / x) - y;                                                                   \
    }                                                                                                                \
    INLINE T digamma_##SUF(T x)                                                                                      \
    {                                                                                                                \
        if (x < 0) {                                                                                                 \
            if (x == TRUNC(x)) return NAN;                                                                           \
            double whole, r = modf((double)x, &whole); /* tan of pi * the fraction, in double */                    \
            T reflect = (T)(M_PI / tan(M_PI * r));                                                                   \
            return digamma_pos_##SUF(1 - x) - reflect;                                                               \
        }                                                                                                            \
        return digamma_pos_##SUF(x);                                                                                 \
    }                                                                                                                \
    INLINE T trigamma_##SUF(T x)                                                                                     \
    {                                                                                                                \
        T sign = 1, result = 0;                                                                                      \
        if (x < (T)0.5) {                                                                                            \
            sign = -1;                                                                                               \
            const T s = SIN((T)M_PI * x);                                                                            \
            result -= ((T)M_PI * (T)M_PI) / (s * s);                                                                 \
            x = 1 - x;                                                                                               \
        }                                                                                                            \
        for (int i = 0; i < 6; i++) {                                                                                \
            result += 1 / (x * x);                                                                                   \
            x += 1;                                                                                                  \
        }                                                                                                            \
        const T ixx = 1 / (x * x);                                                                                   \
        result += (1 + 1 / (2 * x) + ixx * ((T)1 / 6 - ixx * ((T)1 / 30 - ixx * ((T)1 / 42)))) / x;          \
        return sign * result;                                                                                        \
    }                                                                                                                \
    INLINE T polygamma_##SUF(T x, int n)                                                                             \
    {                                                                                                                \
        if (n == 0) return digamma_##SUF(x);                                                                         \
        if (n == 1) return trigamma_##SUF(x);                                                                        \
        const T one = 1;                                                                                             \
        return ((n % 2) ? one : -one) * EXP(LG((T)n + one)) * (T)hurwitz_zeta((double)(T)(n + 1), (double)x);       \
    }                                                                                                                \
    INLINE T i0_##SUF(T v)                                                                                           \
    {                                                                                                                \
        T x = FABS(v);                                                                                               \
        if (x <= (T)8.0) return EXP(x) * chbevl_##SUF(x / (T)2.0 - (T)2.0, I0_A, 30);                                \
        return EXP(x) * chbevl_##SUF((T)32.0 / x - (T)2.0, I0_B, 25) / SQRT(x);                                      \
    }                                                                                                                \
    INLINE T i0e_##SUF(T v)                                                                                          \
    {                                                                                                                \
        T x = FABS(v);                                                                                               \
        if (x <= (T)8.0) return chbevl_##SUF(x / (T)2.0 - (T)2.0, I0_A, 30);                                         \
        return chbevl_##SUF((T)32.0 / x - (T)2.0, I0_B, 25) / SQRT(x);                                               \
    }                                                                                                                \
    INLINE T i1_##SUF(T v, bool scaled)                                                                              \
    {                                                                                                                \
        const bool f32 = sizeof(T) == sizeof(float);                                                                 \
        T x = FABS(v), out;                                                                                          \
        if (x <= (T)8.0) {                                                                                           \
            T c = chbevl_##SUF(x / (T)2.0 - (T)2.0, I1_A + (f32 ? 12 : 0), f32 ? 17 : 29);                           \
            out = scaled ? c * x : EXP(x) * x * c;                                                                   \
        } else {                                                                                                     \
            T c = chbevl_##SUF((T)32.0 / x - (T)2.0, I1_B + (f32 ? 18 : 0), f32 ? 7 : 25);                           \
            out = scaled ? c / SQRT(x) : (EXP(x) * c) / SQRT(x);                                                     \
        }                                                                                                            \
        return v < 0 ? -out : out;                                                                                   \
    }                                                                                                                \
    INLINE T ndtri_##SUF(T y0)                                                                                       \
    {                                                                                                                \
        const T one = 1, e2 = (T)0.13533528323661269189; /* exp(-2) */                                              \
        if (y0 == 0) return -INFINITY;                                                                               \
        if (y0 == one) return INFINITY;                                                                              \
        if (y0 < 0 || y0 > one) return NAN;                                                                          \
        bool negate = true;                                                                                          \
        T y = y0;                                                                                                    \
        if (y > one - e2) {                                                                                          \
            y = one - y;                                                                                             \
            negate = false;                                                                                          \
        }                                                                                                            \
        if (y > e2) {                                                                                                \
            y = y - (T)0.5;                                                                                          \
            const T y2 = y * y;                                                                                      \
            T x = y + y * (y2 * polevl_##SUF(y2, NDTRI_P0, 4) / polevl_##SUF(y2, NDTRI_Q0, 8));                      \
            return x * (T)2.50662827463100050242E0;                                                                  \
        }                                                                                                            \
        /* ::log and ::sqrt are the double functions, as ATen calls them */                                        \
        T x = (T)sqrt((double)(T)-2.0 * log((double)y));                                                             \
        const T x0 = (T)((double)x - log((double)x) / (double)x);                                                    \
        const T z = one / x;                                                                                         \
        T x1 = x < (T)8.0 ? z * polevl_##SUF(z, NDTRI_P1, 8) / polevl_##SUF(z, NDTRI_Q1, 8)                          \
                          : z * polevl_##SUF(z, NDTRI_P2, 8) / polevl_##SUF(z, NDTRI_Q2, 8);                         \
        x = x0 - x1;                                                                                                 \
        return negate ? -x : x;                                                                                      \
    }                                                                                                                \
    INLINE T erfcx_##SUF(T x) { return (T)erfcx_long(x); }                                                           \
    INLINE T ndtr_##SUF(T x) { return (1 + ERF(x * (T)M_SQRT1_2)) / 2; }                                             \
    INLINE T log_ndtr_##SUF(T x)                                                                                     \
    {                                                                                                                \
        T t = (T)((double)x * M_SQRT1_2); /* the double constant, as ATen writes it */                             \
        if (x < (T)-1.0) return LOG(erfcx_##SUF(-t) / 2) - t * t;                                                    \
        return LOG1P(-ERFC(t) / 2);                                                                                  \
    }                                                                                                                \
    INLINE T sinc_##SUF(T a)                                                                                         \
    {                                                                                                                \
        if (a == 0) return 1;                                                                                        \
        T product = (T)M_PI * a;                                                                                     \
        return SIN(product) / product;                                                                               \
    }                                                                                                                \
    INLINE T entr_##SUF(T x)                                                                                         \
    {                                                                                                                \
        if (isnan(x)) return x;                                                                                      \
        if (x > 0) return -x * LOG(x);                                                                               \
        if (x == 0) return 0;                                                                                        \
        return -INFINITY;                                                                                            \
    }                                                                                                                \
    INLINE T xlog1py_##SUF(T x, T y)                                                                                 \
    {                                                                                                                \
        if (isnan(y)) return NAN;                                                                                    \
        if (x == 0) return 0;                                                                                        \
        return x * LOG1P(y);                                                                                         \
    }                                                                                                                \
    INLINE T unary_##SUF(nn_special_op op, T x, int n)                                                               \
    {                                                                                                                \
        switch (op) {                                                                                                \
        case NN_SPECIAL_LGAMMA: return LG(x);                                                                        \
        case NN_SPECIAL_DIGAMMA: return digamma_##SUF(x);                                                            \
        case NN_SPECIAL_POLYGAMMA: return polygamma_##SUF(x, n);                                                     \
        case NN_SPECIAL_I0: return i0_##SUF(x);                                                                      \
        case NN_SPECIAL_I0E: return i0e_##SUF(x);                                                                    \
        case NN_SPECIAL_I1: return i1_##SUF(x, false);                                                               \
        case NN_SPECIAL_I1E: return i1_##SUF(x, true);                                                               \
        case NN_SPECIAL_NDTR: return ndtr_##SUF(x);                                                                  \
        case NN_SPECIAL_NDTRI: return ndtri_##SUF(x);                                                                \
        case NN_SPECIAL_LOG_NDTR: return log_ndtr_##SUF(x);                                                          \
        case NN_SPECIAL_SINC: return sinc_##SUF(x);                                                                  \
        case NN_SPECIAL_ENTR: return entr_##SUF(x);                                                                  \
        case NN_SPECIAL_ERFCX: return erfcx_##SUF(x);                                                                \
        default: return NAN;                                                                                         \
        }                                                                                                            \
    }                                                                                                                \
    __attribute__((target_clones("fma", "default"))) static void run_##SUF(nn_special_op op, T *o, const T *x,       \
                                                                           const T *y, int64_t k, int n)             \
    {                                                                                                                \
        int64_t from = op == NN_SPECIAL_LGAMMA ? nn_vmath_lgamma_vec(sizeof(T) == 8, o, x, k) : 0;                   \
        if (op == NN_SPECIAL_XLOG1PY)                                                                                \
            for (int64_t i = 0; i < k; i++) o[i] = xlog1py_##SUF(x[i], y[i]);                                        \
        else if (op == NN_SPECIAL_ZETA)                                                                              \
            for (int64_t i = 0; i < k; i++) o[i] = (T)hurwitz_zeta((double)x[i], (double)y[i]);                       \
        else                                                                                                         \
            for (int64_t i = from; i < k; i++) o[i] = unary_##SUF(op, x[i], n);                                      \
    }

/* The Hurwitz zeta function sum_k (k + q)^-x, in double whatever the dtype (ATen's
   accumulate type on the CPU): the first terms directly, then Euler-Maclaurin. */
INLINE double hurwitz_zeta(double x, double q)
{
    const double machep = 1.11022302462515654042E-16;
    if (x == 1) return INFINITY;
    if (x < 1) return NAN;
    if (q <= 0) {
        if (q == floor(q)) return INFINITY;
        if (x != floor(x)) return NAN;
    }
    double s = pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i += 1;
        a += 1;
        b = pow(a, -x);
        s += b;
        if (-machep * s < b && b < machep * s) return s;
    }
    double w = a, k = 0, t;
    s += b * w / (x - 1);
    s -= 0.5 * b;
    a = 1;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        t = a * b / ZETA_A[i];
        s = s + t;
        t = fabs(t / s);
        if (t < machep) return s;
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* exp(x^2) erfc(x): directly in long double while erfc stays normal there, else the
   asymptotic continued fraction (1/sqrt(pi)) / (x + (1/2) / (x + 1 / (x + ...))) */
INLINE long double erfcx_long(double xd)
{
    long double x = xd;
    if (isnan(xd)) return NAN;
    if (x < 100) {
        if (x < -26.7) return INFINITY;
        return expl(x * x) * erfcl(x);
    }
    long double f = x;
    for (int k = 60; k >= 1; k--) f = x + (k / 2.0L) / f;
    return 0.564189583547756286948079451560772586L / f;
}

static float lgamma_f(float x) { return lgammaf(x); }

SPECIAL_FUNCS(float, f32, lgamma_f, expf, logf, log1pf, sqrtf, sinf, tanf, erff, erfcf, fabsf, truncf)
SPECIAL_FUNCS(double, f64, lgamma, exp, log, log1p, sqrt, sin, tan, erf, erfc, fabs, trunc)

int nn_cpu_special(nn_special_op op, nn_kernel_args *a)
{
    nn_tensor *out = a->t[0];
    int64_t k = nn_numel(out);
    bool binary = op == NN_SPECIAL_XLOG1PY || op == NN_SPECIAL_ZETA;
    if (out->dtype == NN_FLOAT32)
        run_f32(op, nn_data_ptr(out), nn_data_ptr(a->t[1]), binary ? nn_data_ptr(a->t[2]) : NULL, k, (int)a->i[1]);
    else
        run_f64(op, nn_data_ptr(out), nn_data_ptr(a->t[1]), binary ? nn_data_ptr(a->t[2]) : NULL, k, (int)a->i[1]);
    return 0;
}
