/*
 * optim_more.c — the updates of torch.optim's RMSprop, Adagrad and Adadelta
 * (nn_optim_more.h), element by element, doing per element what PyTorch 1.13's
 * chain of whole-tensor ops does (_single_tensor_rmsprop/_adagrad/_adadelta),
 * in the parameter's dtype with the Python floats cast to it. The roundings
 * are those optim.c measured for PyTorch's CPU kernels: add(x, alpha=a) is
 * fma(x, a, self); addcmul(t1, t2, value=v) is fma(v * t1, t2, self);
 * addcdiv(t1, t2, value=v) is self + v * t1 / t2 unfused; everything else
 * rounds after each operation (the file is built without contraction).
 */
#include <math.h>
#include <string.h>

#include "backend.h"
#include "nn_int.h"

/* PyTorch's broadcasting message for a state of another shape, or a clear one for
   another dtype or layout. */
static int check_state(const char *opt, const char *key, const nn_tensor *p, const nn_tensor *s)
{
    if (!s) return nn_error_set(NN_ERR_KEY, "'%s'", key);
    char a[256], b[256];
    if (s->ndim != p->ndim || memcmp(s->sizes, p->sizes, sizeof(int64_t) * (size_t)p->ndim) != 0)
        return nn_error_set(NN_ERR_RUNTIME, "%s: state '%s' has shape %s but its parameter has shape %s", opt, key,
                            nn_shape_str(s->ndim, s->sizes, a, sizeof a), nn_shape_str(p->ndim, p->sizes, b, sizeof b));
    if (s->dtype != p->dtype || !nn_is_contiguous(s))
        return nn_error_set(NN_ERR_RUNTIME, "%s: state '%s' must be a contiguous %s tensor like its parameter", opt,
                            key, nn_dtype_name(p->dtype));
    return 0;
}

typedef enum { RMSPROP, ADAGRAD, ADADELTA } which;

/* Runs the kernel over contiguous copies of param and grad (written back to a
   non-contiguous param), grad mode off. */
static int run(which w, const char *opt, nn_tensor *p, nn_tensor *grad, nn_tensor *s0, nn_tensor *s1, nn_tensor *s2,
               const void *args)
{
    if (p->dtype != NN_FLOAT32 && p->dtype != NN_FLOAT64)
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "%s: %s parameters are not supported (float32 and float64 are)",
                            opt, nn_dtype_name(p->dtype));
    if (grad->ndim != p->ndim || memcmp(grad->sizes, p->sizes, sizeof(int64_t) * (size_t)p->ndim) != 0) {
        char a[256], b[256];
        return nn_error_set(NN_ERR_RUNTIME, "%s: the grad's shape %s does not match the parameter's shape %s", opt,
                            nn_shape_str(grad->ndim, grad->sizes, a, sizeof a),
                            nn_shape_str(p->ndim, p->sizes, b, sizeof b));
    }
    bool prev = nn_set_grad_enabled(false);
    nn_tensor *pc = nn_contiguous(p), *g = NULL;
    int rc = -1;
    if (pc) g = grad->dtype != p->dtype ? nn_to_dtype(grad, p->dtype) : nn_contiguous(grad);
    if (!g) goto out;
    static const nn_optim_op codes[] = {[RMSPROP] = NN_OPTIM_STEP_RMSPROP, [ADAGRAD] = NN_OPTIM_STEP_ADAGRAD,
                                        [ADADELTA] = NN_OPTIM_STEP_ADADELTA};
    if (NN_KERNEL(nn_backend_of(pc), optim_step, (codes[w], args, pc, g, s0, s1, s2)) < 0) goto out;
    if (pc != p) {
        if (nn_copy_(p, pc) < 0) goto out; /* bumps the version */
    } else {
        nn_bump_version(p);
    }
    nn_tensor *states[3] = {s0, s1, s2};
    for (int k = 0; k < 3; k++)
        if (states[k]) nn_bump_version(states[k]);
    rc = 0;
out:
    nn_set_grad_enabled(prev);
    NN_RELEASE(pc);
    NN_RELEASE(g);
    return rc;
}

int nn_rmsprop_update(nn_tensor *param, nn_tensor *grad, nn_tensor *square_avg, nn_tensor *grad_avg, nn_tensor *buf,
                      const nn_rmsprop_args *a)
{
    if (check_state("RMSprop", "square_avg", param, square_avg) < 0 ||
        (a->centered && check_state("RMSprop", "grad_avg", param, grad_avg) < 0) ||
        (a->momentum > 0 && check_state("RMSprop", "momentum_buffer", param, buf) < 0))
        return -1;
    return run(RMSPROP, "RMSprop", param, grad, square_avg, a->centered ? grad_avg : NULL,
               a->momentum > 0 ? buf : NULL, a);
}

int nn_adagrad_update(nn_tensor *param, nn_tensor *grad, nn_tensor *sum, const nn_adagrad_args *a)
{
    if (check_state("Adagrad", "sum", param, sum) < 0) return -1;
    return run(ADAGRAD, "Adagrad", param, grad, sum, NULL, NULL, a);
}

int nn_adadelta_update(nn_tensor *param, nn_tensor *grad, nn_tensor *square_avg, nn_tensor *acc_delta,
                       const nn_adadelta_args *a)
{
    if (check_state("Adadelta", "square_avg", param, square_avg) < 0 ||
        check_state("Adadelta", "acc_delta", param, acc_delta) < 0)
        return -1;
    return run(ADADELTA, "Adadelta", param, grad, square_avg, acc_delta, NULL, a);
}
