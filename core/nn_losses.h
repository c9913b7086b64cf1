/*
 * nn_losses.h — the losses of torch.nn beyond MSE/L1/cross entropy
 * (core/losses.c): binary cross entropy (probabilities and logits), smooth
 * L1, Huber, KL divergence, margin ranking, cosine embedding and triplet
 * margin, and the module classes built on them. New references or NULL.
 */
#ifndef NN_LOSSES_H
#define NN_LOSSES_H

#include "nn.h"
#include "nn_module.h"

/* weight (NULL: none) broadcasts to target's shape; BinaryCrossEntropyBackward0 */
nn_tensor *nn_binary_cross_entropy(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction);
/* weight, pos_weight may be NULL; BinaryCrossEntropyWithLogitsBackward0 */
nn_tensor *nn_bce_with_logits(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_tensor *pos_weight,
                              nn_reduction reduction);
nn_tensor *nn_smooth_l1_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction, double beta);
nn_tensor *nn_huber_loss(nn_tensor *input, nn_tensor *target, nn_reduction reduction, double delta);
/* batchmean: the sum divided by input's first size (reduction ignored) */
nn_tensor *nn_kl_div(nn_tensor *input, nn_tensor *target, nn_reduction reduction, bool batchmean, bool log_target);
nn_tensor *nn_margin_ranking_loss(nn_tensor *x1, nn_tensor *x2, nn_tensor *target, double margin,
                                  nn_reduction reduction);
nn_tensor *nn_cosine_embedding_loss(nn_tensor *x1, nn_tensor *x2, nn_tensor *target, double margin,
                                    nn_reduction reduction);
nn_tensor *nn_triplet_margin_loss(nn_tensor *anchor, nn_tensor *positive, nn_tensor *negative, double margin,
                                  double p, double eps, bool swap, nn_reduction reduction);
/* nll_loss / cross_entropy with a per-class weight (NULL: none), in nnfunc.c */
nn_tensor *nn_nll_loss(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                       int64_t ignore_index);
nn_tensor *nn_cross_entropy_weighted(nn_tensor *input, nn_tensor *target, nn_tensor *weight, nn_reduction reduction,
                                     int64_t ignore_index, double label_smoothing);

/* a / s recorded as ATen's div.Scalar (DivBackward1), which C++ code
   dividing by a number reaches (Python's tensor / number gives DivBackward0) */
nn_tensor *nn_div_number(nn_tensor *a, double s);

/* BCELoss, BCEWithLogitsLoss, NLLLoss, SmoothL1Loss, HuberLoss, KLDivLoss,
   MarginRankingLoss, CosineEmbeddingLoss, TripletMarginLoss, in this order.
   Their forwards read the module's attributes (reduction, weight and
   pos_weight buffers, ignore_index, beta, delta, log_target, margin, p, eps,
   swap), which the constructor's caller sets. */
extern const nn_module_class nn_loss_classes[];
enum { NN_LOSS_N_CLASSES = 9 };
/* A module of the class named with reduction set; NULL and an error if none. */
nn_module *nn_loss_module_new(const char *name, const char *reduction);

#endif
