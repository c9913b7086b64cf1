/*
 * nn_reduce_exact.h — core's float32 reductions in PyTorch 1.13's exact order
 * (core/reduce_exact.c), used by core/reduce.c on the CPU.
 */
#ifndef NN_REDUCE_EXACT_H
#define NN_REDUCE_EXACT_H

#include "nn_int.h"

/* For a non-contiguous a: l2 = the layout of a reduction like l's whose rows
   hold each output's elements in memory order (TensorIterator's order); 1.
   0 when a is contiguous (l's rows are already in that order), -1 on error.
   l2->data is a new reference when 1. */
int nn_reduce_memory_layout(nn_tensor *a, const nn_reduction_layout *l, nn_reduction_layout *l2);

/* var (or std) of a float32 CPU tensor whose reduction has one output, into
   out's one element (the reduce kernel's VAR_ALL_F32/STD_ALL_F32): 1; 0 when not
   of that kind; -1 with the error set. */
int nn_var_all_f32_exact(nn_tensor *a, const nn_reduction_layout *l, double correction, bool take_sqrt,
                         nn_tensor *out);

/* The p-norm of each output of a float32 CPU reduction into out: 1; 0 when
   not of that kind (other dtypes, empty), -1 on error. */
int nn_norm_f32_exact(nn_tensor *a, const nn_reduction_layout *l, double p, nn_tensor *out);

#endif
