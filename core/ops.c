/*
 * ops.c — the tables generated from ops.def: names, docs and backwards.
 */
#include "nn_int.h"

const nn_op_info nn_op_table[NN_OP_COUNT] = {
#define OP(id, grad_name, doc) [NN_OP_##id] = {#id, grad_name, doc},
#include "ops.def"
#undef OP
};

const nn_backward_fn nn_backward_table[NN_OP_COUNT] = {
#define OP(id, grad_name, doc) [NN_OP_##id] = nn_##id##_backward,
#include "ops.def"
#undef OP
};
