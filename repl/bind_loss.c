/*
 * bind_loss.c — the losses of core/losses.c as torch.nn classes (BCELoss,
 * BCEWithLogitsLoss, NLLLoss, SmoothL1Loss, HuberLoss, KLDivLoss,
 * MarginRankingLoss, CosineEmbeddingLoss, TripletMarginLoss; CrossEntropyLoss
 * with weight=) and their torch.nn.functional forms, with PyTorch 1.13's
 * signatures and its legacy size_average= / reduce= arguments.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_layers.h"
#include "nn_losses.h"

#define ARGS(n) nn_object *a[n] = {0}

/* ---------------------------------------------------------------- helpers */

static bool given(nn_object *o) { return o && !nn_is_none(o); }

/* an optional tensor argument: NULL for None */
static int opt_tensor(const char *f, const char *name, int pos, nn_object *o, nn_tensor **out)
{
    *out = NULL;
    return given(o) ? repl_arg_tensor(f, name, pos, o, out) : 0;
}

static int reduction_of(const char *s, bool allow_batchmean, nn_reduction *r, bool *batchmean)
{
    if (batchmean) *batchmean = false;
    if (!s || !strcmp(s, "mean")) *r = NN_REDUCTION_MEAN;
    else if (!strcmp(s, "sum")) *r = NN_REDUCTION_SUM;
    else if (!strcmp(s, "none")) *r = NN_REDUCTION_NONE;
    else if (allow_batchmean && !strcmp(s, "batchmean")) *r = NN_REDUCTION_SUM, *batchmean = true;
    else return nn_error_set(NN_ERR_VALUE, "%s is not a valid value for reduction", s);
    return 0;
}

/* the reduction of size_average (a[sa]), reduce (a[rd]) and reduction (a[red], position pos) */
static int legacy(const char *f, nn_object **a, int sa, int rd, int red, const char **out)
{
    *out = NULL;
    if (repl_arg_str(f, "reduction", red + 1, a[red], out)) return -1;
    return repl_legacy_reduction(a[sa], a[rd], out);
}

static int set(nn_module *m, const char *name, nn_object *value)
{
    int rc = value ? nn_module_setattr(m, name, value) : -1;
    NN_RELEASE(value);
    return rc;
}

/* attribute name = the argument o if given (a number), else the float dflt */
static int set_number(nn_module *m, const char *f, const char *name, int pos, nn_object *o, double dflt)
{
    if (o && !nn_is_none(o)) {
        double v;
        if (repl_arg_double(f, name, pos, o, &v)) return -1;
        return set(m, name, nn_retain(o));
    }
    return set(m, name, nn_float_new(dflt));
}

/* a new loss module of cls with its weight-like buffers */
static nn_module *loss_new(const char *f, const char *cls, const char *red, int n_buffers, const char *const *names,
                           nn_object *const *values)
{
    nn_tensor *t[2] = {0};
    for (int i = 0; i < n_buffers; i++)
        if (opt_tensor(f, names[i], i + 1, values[i], &t[i])) return NULL;
    nn_module *m = nn_loss_module_new(cls, red);
    for (int i = 0; m && i < n_buffers; i++)
        if (nn_module_register_buffer(m, names[i], t[i], true) < 0) NN_SET(m, NULL);
    return m;
}

/* ------------------------------------------------------------ modules */

#define CTOR(name) static nn_object *c_##name(void *ud, nn_object *args, nn_object *kwargs)

CTOR(BCELoss)
{
    ARGS(4);
    const char *red, *f = "BCELoss.__init__";
    static const char *const names[] = {"weight"};
    if (repl_parse_args(f, "self, weight=, size_average=, reduce=, reduction=", args, kwargs, a) ||
        legacy(f, a, 1, 2, 3, &red))
        return NULL;
    return (nn_object *)loss_new(f, "BCELoss", red, 1, names, a);
}

CTOR(BCEWithLogitsLoss)
{
    ARGS(5);
    const char *red, *f = "BCEWithLogitsLoss.__init__";
    static const char *const names[] = {"weight", "pos_weight"};
    if (repl_parse_args(f, "self, weight=, size_average=, reduce=, reduction=, pos_weight=", args, kwargs, a) ||
        legacy(f, a, 1, 2, 3, &red))
        return NULL;
    nn_object *bufs[2] = {a[0], a[4]};
    return (nn_object *)loss_new(f, "BCEWithLogitsLoss", red, 2, names, bufs);
}

CTOR(NLLLoss)
{
    ARGS(5);
    const char *red, *f = "NLLLoss.__init__";
    int64_t ii = -100;
    static const char *const names[] = {"weight"};
    if (repl_parse_args(f, "self, weight=, size_average=, ignore_index=, reduce=, reduction=", args, kwargs, a) ||
        legacy(f, a, 1, 3, 4, &red) || repl_arg_int(f, "ignore_index", 3, a[2], &ii))
        return NULL;
    nn_module *m = loss_new(f, "NLLLoss", red, 1, names, a);
    if (m && set(m, "ignore_index", nn_int_new(ii)) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}

CTOR(CrossEntropyLoss)
{
    ARGS(6);
    const char *red, *f = "CrossEntropyLoss.__init__";
    int64_t ii = -100;
    double ls = 0;
    nn_tensor *w = NULL;
    if (repl_parse_args(f, "self, weight=, size_average=, ignore_index=, reduce=, reduction=, label_smoothing=", args,
                        kwargs, a) ||
        repl_arg_int(f, "ignore_index", 3, a[2], &ii) || legacy(f, a, 1, 3, 4, &red) ||
        repl_arg_double(f, "label_smoothing", 6, a[5], &ls) || opt_tensor(f, "weight", 1, a[0], &w))
        return NULL;
    nn_module *m = nn_cross_entropy_loss_new(red, ii, ls);
    if (m && w && nn_module_register_buffer(m, "weight", w, true) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}

CTOR(SmoothL1Loss)
{
    ARGS(4);
    const char *red, *f = "SmoothL1Loss.__init__";
    if (repl_parse_args(f, "self, size_average=, reduce=, reduction=, beta=", args, kwargs, a) ||
        legacy(f, a, 0, 1, 2, &red))
        return NULL;
    nn_module *m = nn_loss_module_new("SmoothL1Loss", red);
    if (m && set_number(m, f, "beta", 4, a[3], 1.0) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}

CTOR(HuberLoss)
{
    ARGS(2);
    const char *red = NULL, *f = "HuberLoss.__init__";
    if (repl_parse_args(f, "self, reduction=, delta=", args, kwargs, a) || repl_arg_str(f, "reduction", 1, a[0], &red))
        return NULL;
    nn_module *m = nn_loss_module_new("HuberLoss", red);
    if (m && set_number(m, f, "delta", 2, a[1], 1.0) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}

CTOR(KLDivLoss)
{
    ARGS(4);
    const char *red, *f = "KLDivLoss.__init__";
    bool lt = false;
    if (repl_parse_args(f, "self, size_average=, reduce=, reduction=, log_target=", args, kwargs, a) ||
        legacy(f, a, 0, 1, 2, &red) || repl_arg_bool(f, "log_target", 4, a[3], &lt))
        return NULL;
    nn_module *m = nn_loss_module_new("KLDivLoss", red);
    if (m && set(m, "log_target", nn_bool_new(lt)) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}

/* MarginRankingLoss, CosineEmbeddingLoss: (margin=0.0, size_average, reduce, reduction) */
static nn_object *margin_ctor(const char *cls, const char *f, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    const char *red;
    if (repl_parse_args(f, "self, margin=, size_average=, reduce=, reduction=", args, kwargs, a) ||
        legacy(f, a, 1, 2, 3, &red))
        return NULL;
    nn_module *m = nn_loss_module_new(cls, red);
    if (m && set_number(m, f, "margin", 1, a[0], 0.0) < 0) NN_SET(m, NULL);
    return (nn_object *)m;
}
CTOR(MarginRankingLoss) { return margin_ctor("MarginRankingLoss", "MarginRankingLoss.__init__", args, kwargs); }
CTOR(CosineEmbeddingLoss) { return margin_ctor("CosineEmbeddingLoss", "CosineEmbeddingLoss.__init__", args, kwargs); }

CTOR(TripletMarginLoss)
{
    ARGS(7);
    const char *red, *f = "TripletMarginLoss.__init__";
    bool swap = false;
    if (repl_parse_args(f, "self, margin=, p=, eps=, swap=, size_average=, reduce=, reduction=", args, kwargs, a) ||
        legacy(f, a, 4, 5, 6, &red) || repl_arg_bool(f, "swap", 4, a[3], &swap))
        return NULL;
    nn_module *m = nn_loss_module_new("TripletMarginLoss", red);
    if (m && (set_number(m, f, "margin", 1, a[0], 1.0) < 0 || set_number(m, f, "p", 2, a[1], 2.0) < 0 ||
              set_number(m, f, "eps", 3, a[2], 1e-6) < 0 || set(m, "swap", nn_bool_new(swap)) < 0))
        NN_SET(m, NULL);
    return (nn_object *)m;
}
#undef CTOR

#define NNCLASS(N, CLS, DOC) {#N, "torch.nn.modules.loss." #N, c_##N, NULL, CLS, DOC, repl_module_method_at}
static const repl_class_def classes[] = {
    NNCLASS(BCELoss, &nn_loss_classes[0],
            "BCELoss(weight=None, size_average=None, reduce=None, reduction='mean')\n"
            "Creates a criterion that measures the Binary Cross Entropy between the target and the input probabilities."),
    NNCLASS(BCEWithLogitsLoss, &nn_loss_classes[1],
            "BCEWithLogitsLoss(weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None)\n"
            "This loss combines a Sigmoid layer and the BCELoss in one single class."),
    NNCLASS(NLLLoss, &nn_loss_classes[2],
            "NLLLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean')\n"
            "The negative log likelihood loss."),
    NNCLASS(SmoothL1Loss, &nn_loss_classes[3],
            "SmoothL1Loss(size_average=None, reduce=None, reduction='mean', beta=1.0)\n"
            "Creates a criterion that uses a squared term if the absolute element-wise error falls below beta and an "
            "L1 term otherwise."),
    NNCLASS(HuberLoss, &nn_loss_classes[4],
            "HuberLoss(reduction='mean', delta=1.0)\n"
            "Creates a criterion that uses a squared term if the absolute element-wise error falls below delta and a "
            "delta-scaled L1 term otherwise."),
    NNCLASS(KLDivLoss, &nn_loss_classes[5],
            "KLDivLoss(size_average=None, reduce=None, reduction='mean', log_target=False)\n"
            "The Kullback-Leibler divergence loss."),
    NNCLASS(MarginRankingLoss, &nn_loss_classes[6],
            "MarginRankingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')\n"
            "Creates a criterion that measures the loss given inputs x1, x2 and a label tensor y containing 1 or -1."),
    NNCLASS(CosineEmbeddingLoss, &nn_loss_classes[7],
            "CosineEmbeddingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')\n"
            "Creates a criterion that measures the loss given input tensors x1, x2 and a label y with values 1 or -1."),
    NNCLASS(TripletMarginLoss, &nn_loss_classes[8],
            "TripletMarginLoss(margin=1.0, p=2.0, eps=1e-06, swap=False, size_average=None, reduce=None, "
            "reduction='mean')\n"
            "Creates a criterion that measures the triplet loss given input tensors a, p, n and a margin."),
    NNCLASS(CrossEntropyLoss, &nn_cross_entropy_loss_class,
            "CrossEntropyLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', "
            "label_smoothing=0.0)\n"
            "This criterion computes the cross entropy loss between input logits and target."),
};
#undef NNCLASS

int repl_loss_classes(nn_object *nn)
{
    return repl_namespace_add_classes(nn, classes, sizeof classes / sizeof classes[0]);
}

/* ---------------------------------------------------------- functional */

#define FN(name) static nn_object *F_##name(void *ud, nn_object *args, nn_object *kwargs)

/* input and target, positions 1 and 2 */
static int two(const char *f, nn_object **a, nn_tensor **x, nn_tensor **y)
{
    return repl_arg_tensor(f, "input", 1, a[0], x) || repl_arg_tensor(f, "target", 2, a[1], y) ? -1 : 0;
}

FN(binary_cross_entropy)
{
    ARGS(6);
    nn_tensor *x, *y, *w;
    const char *red, *f = "binary_cross_entropy";
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, weight=, size_average=, reduce=, reduction=", args, kwargs, a) ||
        two(f, a, &x, &y) || opt_tensor(f, "weight", 3, a[2], &w) || legacy(f, a, 3, 4, 5, &red) ||
        reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_binary_cross_entropy(x, y, w, r);
}

FN(binary_cross_entropy_with_logits)
{
    ARGS(7);
    nn_tensor *x, *y, *w, *pw;
    const char *red, *f = "binary_cross_entropy_with_logits";
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, weight=, size_average=, reduce=, reduction=, pos_weight=", args, kwargs,
                        a) ||
        two(f, a, &x, &y) || opt_tensor(f, "weight", 3, a[2], &w) || opt_tensor(f, "pos_weight", 7, a[6], &pw) ||
        legacy(f, a, 3, 4, 5, &red) || reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_bce_with_logits(x, y, w, pw, r);
}

FN(nll_loss)
{
    ARGS(7);
    nn_tensor *x, *y, *w;
    const char *red, *f = "nll_loss";
    int64_t ii = -100;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, weight=, size_average=, ignore_index=, reduce=, reduction=", args, kwargs,
                        a) ||
        two(f, a, &x, &y) || opt_tensor(f, "weight", 3, a[2], &w) || repl_arg_int(f, "ignore_index", 5, a[4], &ii) ||
        legacy(f, a, 3, 5, 6, &red) || reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_nll_loss(x, y, w, r, ii);
}

FN(cross_entropy)
{
    ARGS(8);
    nn_tensor *x, *y, *w;
    const char *red, *f = "cross_entropy";
    int64_t ii = -100;
    double ls = 0;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, weight=, size_average=, ignore_index=, reduce=, reduction=, label_smoothing=",
                        args, kwargs, a) ||
        two(f, a, &x, &y) || opt_tensor(f, "weight", 3, a[2], &w) || repl_arg_int(f, "ignore_index", 5, a[4], &ii) ||
        repl_arg_double(f, "label_smoothing", 8, a[7], &ls) || legacy(f, a, 3, 5, 6, &red) ||
        reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_cross_entropy_weighted(x, y, w, r, ii, ls);
}

FN(smooth_l1_loss)
{
    ARGS(6);
    nn_tensor *x, *y;
    const char *red, *f = "smooth_l1_loss";
    double beta = 1.0;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, size_average=, reduce=, reduction=, beta=", args, kwargs, a) ||
        two(f, a, &x, &y) || repl_arg_double(f, "beta", 6, a[5], &beta) || legacy(f, a, 2, 3, 4, &red) ||
        reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_smooth_l1_loss(x, y, r, beta);
}

FN(huber_loss)
{
    ARGS(4);
    nn_tensor *x, *y;
    const char *red = NULL, *f = "huber_loss";
    double delta = 1.0;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, reduction=, delta=", args, kwargs, a) || two(f, a, &x, &y) ||
        repl_arg_str(f, "reduction", 3, a[2], &red) || repl_arg_double(f, "delta", 4, a[3], &delta) ||
        reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_huber_loss(x, y, r, delta);
}

FN(kl_div)
{
    ARGS(6);
    nn_tensor *x, *y;
    const char *red, *f = "kl_div";
    bool lt = false, bm = false;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input, target, size_average=, reduce=, reduction=, log_target=", args, kwargs, a) ||
        two(f, a, &x, &y) || repl_arg_bool(f, "log_target", 6, a[5], &lt) || legacy(f, a, 2, 3, 4, &red) ||
        reduction_of(red, true, &r, &bm))
        return NULL;
    return (nn_object *)nn_kl_div(x, y, r, bm, lt);
}

/* input1, input2, target, margin, size_average, reduce, reduction */
static nn_object *margin_fn(const char *f, nn_object *args, nn_object *kwargs, bool cosine)
{
    ARGS(7);
    nn_tensor *x1, *x2, *y;
    const char *red;
    double margin = 0;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "input1, input2, target, margin=, size_average=, reduce=, reduction=", args, kwargs, a) ||
        repl_arg_tensor(f, "input1", 1, a[0], &x1) || repl_arg_tensor(f, "input2", 2, a[1], &x2) ||
        repl_arg_tensor(f, "target", 3, a[2], &y) || repl_arg_double(f, "margin", 4, a[3], &margin) ||
        legacy(f, a, 4, 5, 6, &red) || reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)(cosine ? nn_cosine_embedding_loss(x1, x2, y, margin, r)
                                : nn_margin_ranking_loss(x1, x2, y, margin, r));
}
FN(margin_ranking_loss) { return margin_fn("margin_ranking_loss", args, kwargs, false); }
FN(cosine_embedding_loss) { return margin_fn("cosine_embedding_loss", args, kwargs, true); }

FN(triplet_margin_loss)
{
    ARGS(10);
    nn_tensor *an, *po, *ne;
    const char *red, *f = "triplet_margin_loss";
    double margin = 1.0, p = 2, eps = 1e-6;
    bool swap = false;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (repl_parse_args(f, "anchor, positive, negative, margin=, p=, eps=, swap=, size_average=, reduce=, reduction=",
                        args, kwargs, a) ||
        repl_arg_tensor(f, "anchor", 1, a[0], &an) || repl_arg_tensor(f, "positive", 2, a[1], &po) ||
        repl_arg_tensor(f, "negative", 3, a[2], &ne) || repl_arg_double(f, "margin", 4, a[3], &margin) ||
        repl_arg_double(f, "p", 5, a[4], &p) || repl_arg_double(f, "eps", 6, a[5], &eps) ||
        repl_arg_bool(f, "swap", 7, a[6], &swap) || legacy(f, a, 7, 8, 9, &red) || reduction_of(red, false, &r, NULL))
        return NULL;
    return (nn_object *)nn_triplet_margin_loss(an, po, ne, margin, p, eps, swap, r);
}
#undef FN

static const repl_function_def functional[] = {
    {"binary_cross_entropy", F_binary_cross_entropy,
     "binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean') -> Tensor\n"
     "Function that measures the Binary Cross Entropy between the target and input probabilities."},
    {"binary_cross_entropy_with_logits", F_binary_cross_entropy_with_logits,
     "binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction='mean', "
     "pos_weight=None) -> Tensor\n"
     "Function that measures Binary Cross Entropy between target and input logits."},
    {"nll_loss", F_nll_loss,
     "nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean') -> "
     "Tensor\nThe negative log likelihood loss."},
    {"cross_entropy", F_cross_entropy,
     "cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', "
     "label_smoothing=0.0) -> Tensor\n"
     "This criterion computes the cross entropy loss between input logits and target."},
    {"smooth_l1_loss", F_smooth_l1_loss,
     "smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0) -> Tensor\n"
     "Function that uses a squared term if the absolute element-wise error falls below beta and an L1 term otherwise."},
    {"huber_loss", F_huber_loss,
     "huber_loss(input, target, reduction='mean', delta=1.0) -> Tensor\n"
     "Function that uses a squared term if the absolute element-wise error falls below delta and a delta-scaled L1 "
     "term otherwise."},
    {"kl_div", F_kl_div,
     "kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False) -> Tensor\n"
     "The Kullback-Leibler divergence Loss."},
    {"margin_ranking_loss", F_margin_ranking_loss,
     "margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean') -> "
     "Tensor\nSee MarginRankingLoss for details."},
    {"cosine_embedding_loss", F_cosine_embedding_loss,
     "cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean') -> "
     "Tensor\nSee CosineEmbeddingLoss for details."},
    {"triplet_margin_loss", F_triplet_margin_loss,
     "triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None, "
     "reduce=None, reduction='mean') -> Tensor\nSee TripletMarginLoss for details."},
};

int repl_loss_functional(nn_object *fns)
{
    return repl_namespace_add_fns(fns, functional, sizeof functional / sizeof functional[0]);
}
