/*
 * nn_scratch.h — core-private: the temporaries of one composed computation
 * (rnn.c, attention.c, losses.c). Each op's result is kept and released together at
 * the end; once one op has failed (returned NULL, error set), the NN_KEEP of
 * later ops skips them, so a chain of ops needs one check at its end.
 */
#ifndef NN_SCRATCH_H
#define NN_SCRATCH_H

#include "nn_int.h"

typedef struct nn_scratch {
    nn_tensor *t[40];
    int n;
    bool failed;
} nn_scratch;

/* Keeps t (a new reference, or NULL: failed) and returns it borrowed. */
static inline nn_tensor *nn_scratch_keep(nn_scratch *s, nn_tensor *t)
{
    if (!t || s->n == (int)(sizeof s->t / sizeof s->t[0])) {
        if (t) nn_error_set(NN_ERR_RUNTIME, "internal: too many temporaries in one computation");
        NN_RELEASE(t);
        s->failed = true;
        return NULL;
    }
    return s->t[s->n++] = t;
}
/* expr evaluated only while nothing has failed. */
#define NN_KEEP(s, expr) ((s)->failed ? NULL : nn_scratch_keep((s), (expr)))

static inline void nn_scratch_free(nn_scratch *s)
{
    for (int i = 0; i < s->n; i++) NN_RELEASE(s->t[i]);
    s->n = 0;
}

#endif
