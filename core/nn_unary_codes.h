/*
 * nn_unary_codes.h — the unary kernel's op codes (core/unary_ops.def) by the
 * short names its two sides use: the op file core/unary.c, which picks them,
 * and the CPU's formulas, core/cpu/unary.c.
 */
#ifndef NN_UNARY_CODES_H
#define NN_UNARY_CODES_H

#include "backend.h"

typedef int kern; /* an nn_unary_op */
typedef nn_unary_params kctx;

enum {
    K_NONE = NN_UNARY_NONE,
#define UNARY_OP(name) K_##name = NN_UNARY_##name,
#include "unary_ops.def"
#undef UNARY_OP
};

#endif
