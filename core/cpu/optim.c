/*
 * cpu/optim.c — the CPU's `optim_step` kernel (core/kernels.def, nn_optim_op):
 * one parameter's update of torch.optim's SGD, Adam/AdamW (optim.c), RMSprop,
 * Adagrad and Adadelta (optim_more.c), element by element, doing per element
 * what PyTorch 1.13's chain of whole-tensor ops does in its single-tensor CPU
 * path, bit for bit. SGD and Adam run over the pool's threads (elementwise).
 */
#include <math.h>

#include "nn_cpu.h"

/* Each kernel runs one parameter's update element by element, doing per element
   exactly what PyTorch's chain of whole-tensor ops does, in T (the parameter's
   dtype) with the Python floats cast to T as TensorIterator casts scalars.
   Measured against PyTorch 1.13's AVX2 CPU kernels (vectorized and scalar tails
   alike): add(x, alpha=a) is fma(x, a, self); addcmul(t1, t2, value=v) is
   fma(v * t1, t2, self); addcdiv(t1, t2, value=v) is self + v * t1 / t2 unfused;
   division by a Python float divides. The file must be compiled without
   floating-point contraction (-std=c11 turns GCC's off), so the rest rounds
   after every operation as PyTorch does. */

/* torch.maximum: NaN wins, then std::max. */
#define MAXIMUM(a, b) ((a) != (a) || (b) != (b) ? NAN : (a) < (b) ? (b) : (a))

/* Built twice, picked at load time: with FMA instructions fmaf is one
   instruction; without them it is a libm call per element. */
#define CLONES __attribute__((target_clones("fma", "default")))

#define DEFINE_SGD_ADAM(SUFFIX, T, FMA, SQRT)                                                             \
    CLONES static void sgd_##SUFFIX(T *p, const T *g, T *buf, int64_t n, const nn_sgd_step_args *a)                     \
    {                                                                                                    \
        const T wd = (T)a->weight_decay, mom = (T)a->momentum, damp = (T)a->one_minus_dampening;         \
        const T neg_lr = (T)a->neg_lr;                                                                   \
        /* the flags as locals: the plain update (no decay, momentum or maximize) is then one        \
           vectorized fma loop (same bits: elementwise, each element's operations unchanged) */       \
        const bool maximize = a->maximize, decay = a->weight_decay != 0, momentum = a->momentum != 0;    \
        const bool new_buffer = a->new_buffer, nesterov = a->nesterov;                                   \
        if (!maximize && !decay && !momentum) {                                                          \
            for (int64_t i = 0; i < n; i++) p[i] = FMA(g[i], neg_lr, p[i]);                              \
            return;                                                                                      \
        }                                                                                                \
        for (int64_t i = 0; i < n; i++) {                                                                \
            T d = maximize ? -g[i] : g[i];                    /* d_p = -d_p_list[i] */                   \
            if (decay) d = FMA(p[i], wd, d);                  /* d_p.add(param, alpha=wd) */             \
            if (momentum) {                                                                              \
                /* torch.clone(d_p), or buf.mul_(momentum).add_(d_p, alpha=1 - dampening) */            \
                T b = new_buffer ? d : FMA(d, damp, buf[i] * mom);                                       \
                buf[i] = b;                                                                              \
                d = nesterov ? FMA(b, mom, d) : b;            /* d_p.add(buf, alpha=momentum) */         \
            }                                                                                            \
            p[i] = FMA(d, neg_lr, p[i]);                      /* param.add_(d_p, alpha=-lr) */           \
        }                                                                                                \
    }                                                                                                    \
    CLONES static void adam_##SUFFIX(T *p, const T *g, T *m, T *v, T *vmax, int64_t n, const nn_adam_step_args *a)      \
    {                                                                                                    \
        const T decay = (T)a->decay, wd = (T)a->weight_decay, b1 = (T)a->beta1;                          \
        const T omb1 = (T)a->one_minus_beta1, b2 = (T)a->beta2, omb2 = (T)a->one_minus_beta2;            \
        const T bc2 = (T)a->bias_correction2_sqrt, eps = (T)a->eps, neg_ss = (T)a->neg_step_size;        \
        for (int64_t i = 0; i < n; i++) {                                                                \
            T d = a->maximize ? -g[i] : g[i];                                                            \
            if (a->adamw) p[i] = p[i] * decay;                /* param.mul_(1 - lr * weight_decay) */    \
            if (a->weight_decay != 0) d = FMA(p[i], wd, d);   /* grad.add(param, alpha=wd) */            \
            T mi = FMA(d, omb1, m[i] * b1);                   /* exp_avg.mul_(b1).add_(grad, 1 - b1) */  \
            T vi = FMA(omb2 * d, d, v[i] * b2);               /* exp_avg_sq.mul_(b2).addcmul_(...) */    \
            m[i] = mi;                                                                                   \
            v[i] = vi;                                                                                   \
            if (vmax) vi = vmax[i] = MAXIMUM(vmax[i], vi);    /* torch.maximum(..., out=max) */          \
            T denom = SQRT(vi) / bc2 + eps;                   /* (sq.sqrt() / bc2_sqrt).add_(eps) */     \
            p[i] = p[i] + neg_ss * mi / denom;                /* addcdiv_(exp_avg, denom, -step_size) */ \
        }                                                                                                \
    }

DEFINE_SGD_ADAM(f32, float, fmaf, sqrtf)
DEFINE_SGD_ADAM(f64, double, fma, sqrt)

#define DEFINE_MORE(SUFFIX, T, FMA, SQRT)                                                              \
    CLONES static void rmsprop_##SUFFIX(T *p, const T *g, T *sq, T *ga, T *buf, int64_t n,              \
                                        const nn_rmsprop_args *a)                                        \
    {                                                                                                     \
        const T wd = (T)a->weight_decay, alpha = (T)a->alpha, oma = (T)(1 - a->alpha);                   \
        const T eps = (T)a->eps, mom = (T)a->momentum, neg_lr = (T)(-a->lr);                             \
        for (int64_t i = 0; i < n; i++) {                                                                 \
            T d = a->maximize ? -g[i] : g[i];                                                             \
            if (a->weight_decay != 0) d = FMA(p[i], wd, d);  /* grad.add(param, alpha=wd) */             \
            T s = FMA(oma * d, d, sq[i] * alpha);            /* sq.mul_(alpha).addcmul_(g, g, 1-alpha) */ \
            sq[i] = s;                                                                                    \
            T avg;                                                                                        \
            if (a->centered) {                                                                            \
                T m = FMA(d, oma, ga[i] * alpha);            /* ga.mul_(alpha).add_(g, alpha=1-alpha) */  \
                ga[i] = m;                                                                                \
                avg = SQRT(FMA(-m, m, s));                   /* sq.addcmul(ga, ga, value=-1).sqrt_() */   \
            } else {                                                                                      \
                avg = SQRT(s);                                                                            \
            }                                                                                             \
            avg = avg + eps;                                 /* avg.add_(eps) */                          \
            if (a->momentum > 0) {                                                                        \
                T b = buf[i] * mom + d / avg;                /* buf.mul_(mom).addcdiv_(g, avg) */         \
                buf[i] = b;                                                                               \
                p[i] = FMA(b, neg_lr, p[i]);                 /* param.add_(buf, alpha=-lr) */             \
            } else {                                                                                      \
                p[i] = p[i] + neg_lr * d / avg;              /* param.addcdiv_(g, avg, value=-lr) */      \
            }                                                                                             \
        }                                                                                                 \
    }                                                                                                     \
    CLONES static void adagrad_##SUFFIX(T *p, const T *g, T *sum, int64_t n, const nn_adagrad_args *a)    \
    {                                                                                                     \
        const T wd = (T)a->weight_decay, eps = (T)a->eps, neg_clr = (T)(-a->clr);                        \
        for (int64_t i = 0; i < n; i++) {                                                                 \
            T d = a->maximize ? -g[i] : g[i];                                                             \
            if (a->weight_decay != 0) d = FMA(p[i], wd, d);                                               \
            T s = FMA(d, d, sum[i]);                         /* state_sum.addcmul_(g, g, value=1) */      \
            sum[i] = s;                                                                                   \
            T std = SQRT(s) + eps;                           /* state_sum.sqrt().add_(eps) */             \
            p[i] = p[i] + neg_clr * d / std;                 /* param.addcdiv_(g, std, value=-clr) */     \
        }                                                                                                 \
    }                                                                                                     \
    CLONES static void adadelta_##SUFFIX(T *p, const T *g, T *sq, T *acc, int64_t n,                     \
                                         const nn_adadelta_args *a)                                       \
    {                                                                                                     \
        const T wd = (T)a->weight_decay, rho = (T)a->rho, omr = (T)(1 - a->rho), eps = (T)a->eps;        \
        const T neg_lr = (T)(-a->lr);                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                                 \
            T d = a->maximize ? -g[i] : g[i];                                                             \
            if (a->weight_decay != 0) d = FMA(p[i], wd, d);                                               \
            T s = FMA(omr * d, d, sq[i] * rho);              /* sq.mul_(rho).addcmul_(g, g, 1-rho) */     \
            sq[i] = s;                                                                                    \
            T std = SQRT(s + eps);                           /* sq.add(eps).sqrt_() */                    \
            T delta = SQRT(acc[i] + eps) / std * d;          /* acc.add(eps).sqrt_().div_(std).mul_(g) */ \
            acc[i] = FMA(omr * delta, delta, acc[i] * rho);  /* acc.mul_(rho).addcmul_(delta, delta, .) */ \
            p[i] = FMA(delta, neg_lr, p[i]);                 /* param.add_(delta, alpha=-lr) */           \
        }                                                                                                 \
    }

DEFINE_MORE(f32, float, fmaf, sqrtf)
DEFINE_MORE(f64, double, fma, sqrt)

/* SGD and Adam over float16/bfloat16 parameters, as PyTorch 1.13's CPU kernels run
   each whole-tensor op of the chain in c10::Half / c10::BFloat16 arithmetic: the
   Python floats are cast to the dtype first, and every product, sum, quotient and
   square root rounds to it (R). The one exception is bfloat16's vectorized add with
   alpha (vec::fmadd, one rounding), which covers an elementwise op's first multiple
   of 32 elements; the rest (and every float16 element, which 1.13 does not
   vectorize) take the scalar loop. */
typedef struct reduced {
    bool bf16;
    int64_t vec_end; /* elements below it: bfloat16's vectorized loop */
} reduced;
static float load_r(bool bf16, uint16_t v) { return bf16 ? nn_bfloat16_to_float(v) : nn_half_to_float(v); }
static uint16_t store_r(bool bf16, float v) { return bf16 ? nn_float_to_bfloat16(v) : nn_float_to_half(v); }
static float round_r(bool bf16, float v) { return load_r(bf16, store_r(bf16, v)); }
#define R(x) round_r(rd->bf16, (x))

/* a + alpha * b (torch.add with alpha), element i */
static float add_alpha(const reduced *rd, int64_t i, float a, float alpha, float b)
{
    return i < rd->vec_end ? R(fmaf(b, alpha, a)) : R(a + R(alpha * b));
}

static void sgd_reduced(uint16_t *p, const uint16_t *g, uint16_t *buf, int64_t n, const nn_sgd_step_args *a,
                        const reduced *rd)
{
    const float wd = R((float)a->weight_decay), mom = R((float)a->momentum);
    const float damp = R((float)a->one_minus_dampening), neg_lr = R((float)a->neg_lr);
    for (int64_t i = 0; i < n; i++) {
        float pi = load_r(rd->bf16, p[i]), d = load_r(rd->bf16, g[i]);
        if (a->maximize) d = -d;
        if (a->weight_decay != 0) d = add_alpha(rd, i, d, wd, pi);
        if (a->momentum != 0) {
            float b = a->new_buffer ? d : add_alpha(rd, i, R(load_r(rd->bf16, buf[i]) * mom), damp, d);
            buf[i] = store_r(rd->bf16, b);
            d = a->nesterov ? add_alpha(rd, i, d, mom, b) : b;
        }
        p[i] = store_r(rd->bf16, add_alpha(rd, i, pi, neg_lr, d));
    }
}

static void adam_reduced(uint16_t *p, const uint16_t *g, uint16_t *m, uint16_t *v, uint16_t *vmax, int64_t n,
                         const nn_adam_step_args *a, const reduced *rd)
{
    const float decay = R((float)a->decay), wd = R((float)a->weight_decay), b1 = R((float)a->beta1);
    const float omb1 = R((float)a->one_minus_beta1), b2 = R((float)a->beta2), omb2f = (float)a->one_minus_beta2;
    const float bc2 = R((float)a->bias_correction2_sqrt), eps = R((float)a->eps), neg_ssf = (float)a->neg_step_size;
    for (int64_t i = 0; i < n; i++) {
        float pi = load_r(rd->bf16, p[i]), d = load_r(rd->bf16, g[i]);
        if (a->maximize) d = -d;
        if (a->adamw) pi = R(pi * decay);                              /* param.mul_(1 - lr * wd) */
        if (a->weight_decay != 0) d = add_alpha(rd, i, d, wd, pi);     /* grad.add(param, alpha=wd) */
        float mi = add_alpha(rd, i, R(load_r(rd->bf16, m[i]) * b1), omb1, d);
        /* addcmul_(grad, grad, 1 - b2): 1.13's kernel computes in float with the value unrounded */
        float vi = R(fmaf(omb2f * d, d, R(load_r(rd->bf16, v[i]) * b2)));
        m[i] = store_r(rd->bf16, mi);
        v[i] = store_r(rd->bf16, vi);
        if (vmax) {
            vi = MAXIMUM(load_r(rd->bf16, vmax[i]), vi);
            vmax[i] = store_r(rd->bf16, vi);
        }
        float denom = R(R(R(sqrtf(vi)) / bc2) + eps);                  /* (sq.sqrt() / bc2_sqrt).add_(eps) */
        p[i] = store_r(rd->bf16, pi + neg_ssf * mi / denom);            /* addcdiv_: in float, as addcmul_ */
    }
}
#undef R

/* One update over elements [begin, end) of the parameter (the kernels are
   elementwise: the pool's threads take disjoint chunks, parallel.c). */
typedef struct update_job {
    nn_optim_op op;
    const void *args;
    bool f32;
    char *p, *g, *s[3];
} update_job;

static void update_chunk(void *vctx, int64_t begin, int64_t end)
{
    const update_job *j = vctx;
    size_t off = (size_t)begin * (j->f32 ? sizeof(float) : sizeof(double));
    int64_t n = end - begin;
#define AT(k) (j->s[k] ? j->s[k] + off : NULL)
    if (j->op == NN_OPTIM_STEP_SGD) {
        if (j->f32)
            sgd_f32((float *)(j->p + off), (const float *)(j->g + off), (float *)AT(0), n, j->args);
        else
            sgd_f64((double *)(j->p + off), (const double *)(j->g + off), (double *)AT(0), n, j->args);
    } else if (j->f32) {
        adam_f32((float *)(j->p + off), (const float *)(j->g + off), (float *)AT(0), (float *)AT(1), (float *)AT(2), n,
                 j->args);
    } else {
        adam_f64((double *)(j->p + off), (const double *)(j->g + off), (double *)AT(0), (double *)AT(1),
                 (double *)AT(2), n, j->args);
    }
#undef AT
}

int nn_cpu_optim_step(nn_optim_op op, const void *args, nn_tensor *p, const nn_tensor *g, nn_tensor *s0, nn_tensor *s1,
                      nn_tensor *s2)
{
    int64_t n = nn_numel(p);
    bool f32 = p->dtype == NN_FLOAT32;
    void *pd = nn_data_ptr(p), *gd = nn_data_ptr(g);
#define D(t) ((t) ? nn_data_ptr(t) : NULL)
    bool bf16 = p->dtype == NN_BFLOAT16;
    const reduced rd = {bf16, bf16 ? n / 32 * 32 : 0};
    if ((bf16 || p->dtype == NN_FLOAT16) && op == NN_OPTIM_STEP_SGD) {
        sgd_reduced(pd, gd, D(s0), n, args, &rd);
        return 0;
    }
    if ((bf16 || p->dtype == NN_FLOAT16) && op == NN_OPTIM_STEP_ADAM) {
        adam_reduced(pd, gd, D(s0), D(s1), D(s2), n, args, &rd);
        return 0;
    }
    switch (op) {
    case NN_OPTIM_STEP_SGD:
    case NN_OPTIM_STEP_ADAM: {
        update_job job = {op, args, f32, pd, gd, {D(s0), D(s1), D(s2)}};
        nn_parallel_for(n, NN_GRAIN, update_chunk, &job);
        return 0;
    }
    case NN_OPTIM_STEP_RMSPROP:
        if (f32) rmsprop_f32(pd, gd, D(s0), D(s1), D(s2), n, args);
        else rmsprop_f64(pd, gd, D(s0), D(s1), D(s2), n, args);
        return 0;
    case NN_OPTIM_STEP_ADAGRAD:
        if (f32) adagrad_f32(pd, gd, D(s0), n, args);
        else adagrad_f64(pd, gd, D(s0), n, args);
        return 0;
    case NN_OPTIM_STEP_ADADELTA:
        if (f32) adadelta_f32(pd, gd, D(s0), D(s1), n, args);
        else adadelta_f64(pd, gd, D(s0), D(s1), n, args);
        return 0;
    }
#undef D
    return nn_error_set(NN_ERR_RUNTIME, "optim_step kernel: unknown op code %d", (int)op);
}
