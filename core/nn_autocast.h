/*
 * nn_autocast.h — automatic mixed precision on the CPU, as PyTorch 1.13's
 * AutocastCPU dispatch key: while enabled, the ops of the "lower precision" list
 * (linear, matmul, mm, bmm, addmm, addbmm, baddbmm, conv1d/2d/3d) cast their
 * floating inputs (not float64) to the autocast dtype, and the ops of the "fp32"
 * list (the losses, prod, ...) cast theirs to float32. The casts are ordinary
 * differentiable nn_to_dtype copies, so gradients reach float32 leaves in float32.
 * The state is per thread; backward passes run with it off.
 */
#ifndef NN_AUTOCAST_H
#define NN_AUTOCAST_H

#include "nn.h"

typedef enum { NN_AUTOCAST_LOWER, NN_AUTOCAST_FP32 } nn_autocast_policy;

bool nn_autocast_enabled(void);
bool nn_autocast_set_enabled(bool on); /* returns the previous setting */
nn_dtype nn_autocast_dtype(void);      /* bfloat16 until set */
void nn_autocast_set_dtype(nn_dtype dt);

/* Casts t[0..n) (NULL entries allowed) as the policy says. Returns 0 when none
   needed a cast (t untouched, borrowed), 1 when t[] now holds new references the
   caller releases with nn_autocast_release, -1 on error. */
int nn_autocast_cast(nn_autocast_policy p, nn_tensor **t, int n);
void nn_autocast_release(nn_tensor **t, int n);

/* At the top of an op of a list: when a cast is needed, call the op again on
   the cast tensors (the second call finds nothing to cast) and return its result. */
#define NN_AUTOCAST(policy, call, ...)                                                   \
    do {                                                                                 \
        if (nn_autocast_enabled()) {                                                     \
            nn_tensor *ac_[] = {__VA_ARGS__};                                            \
            int n_ = (int)(sizeof ac_ / sizeof *ac_);                                    \
            int k_ = nn_autocast_cast(NN_AUTOCAST_##policy, ac_, n_);                    \
            if (k_ < 0) return NULL;                                                     \
            if (k_ > 0) {                                                                \
                nn_tensor *r_ = (call);                                                  \
                nn_autocast_release(ac_, n_);                                            \
                return r_;                                                               \
            }                                                                            \
        }                                                                                \
    } while (0)

#endif
