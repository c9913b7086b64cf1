/*
 * insp_int.h — what the inspector's files share and nothing outside inspector/
 * includes: the session and module records (session.c), the pooled statistics of
 * an object (stats.c) and the module-kind tests by class name.
 */
#ifndef INSP_INT_H
#define INSP_INT_H

#include "insp.h"

/* Statistics of o (borrowed): a tensor, or a tuple/list of tensors and None (all
   tensors pooled), anything else counts as no tensor (out->count 0). alive, when
   not NULL, has n_units bytes: alive[u] |= (some value of unit u is nonzero) for
   the first tensor, whose units are insp_units_of's. Without with_hist the
   histogram stays all zero (and costs nothing). 0, or -1 with MemoryError. */
int insp_object_stats(nn_object *o, insp_saturation sat, uint8_t *alive, int64_t n_units, bool with_hist,
                      insp_stats *out);
/* The parameter table as last captured (render.c reads it after insp_problems). */
const insp_param *insp_param_table(const insp_session *s, size_t *n);
/* The first tensor of o (a tensor, or the first in a tuple/list), borrowed, or NULL. */
nn_tensor *insp_first_tensor(nn_object *o);
/* Units of a ReLU-like output: dim 1 for ndim >= 2, dim 0 for 1-D, 1 for 0-D. */
int64_t insp_units_of(const nn_tensor *t);

/* Kinds by class name. */
insp_saturation insp_saturation_of(const char *class_name);
bool insp_is_relu_like(const char *class_name);

/* A module as the session records it. */
typedef struct insp_module {
    nn_module *module;        /* owned reference */
    char *path;               /* nn_malloc'd; "" for the root */
    int depth;                /* dots in path + 1; 0 for the root */
    nn_object *fwd_hook;      /* owned: the forward hook callable while attached, else NULL */
    nn_object *bwd_hook;      /* owned: the full backward hook callable, or NULL */
    int prev_full_flag;       /* module->is_full_backward_hook before attach */
    insp_saturation sat;
    bool relu_like;
    insp_pass *ring;          /* INSP_RING slots, allocated at the first pass */
    size_t ring_len, ring_next; /* kept passes; slot of the next write */
    uint8_t *alive;           /* per-unit ever-nonzero map (ReLU-like), n_units bytes */
    int64_t n_units;
    uint64_t alive_passes;    /* forward passes folded into alive */
} insp_module;

/* What the C hooks hold (shared by a module's two hooks, freed with the last one):
   the session is NULL once detached, so late calls do nothing. */
typedef struct insp_link {
    int refs;
    insp_session *s;
    size_t index;
} insp_link;

typedef struct insp_param_rec {
    insp_param info;
    char *name;               /* nn_malloc'd local name */
    nn_tensor *tensor;        /* owned reference */
    double *snapshot;         /* nn_malloc'd values at the last snapshot, or NULL */
    int64_t snapshot_n;
} insp_param_rec;

struct insp_session {
    insp_module *mods;
    size_t n_mods;
    insp_link **links;        /* one per module, each holding one reference of ours */
    insp_param_rec *params;
    size_t n_params;
    insp_param *param_view;   /* the table insp_param_capture hands out */
    bool attached;
    uint64_t step;
    bool break_nan;
    int break_module;
    int nan_module;
    uint64_t nan_step;
    const char *nan_where;
};

#endif
