/*
 * nn_cpu_select.h — the CPU index kernel's codes for select.c's ops
 * (core/cpu/select.c), which nn_cpu_index (core/cpu/index.c) hands on.
 */
#ifndef NN_CPU_SELECT_H
#define NN_CPU_SELECT_H

#include "backend.h"

/* Runs op (NN_INDEX_SORT and the codes after it); 0 or -1 with the error set. */
int nn_cpu_index_select_ops(nn_index_op op, nn_kernel_args *a);
/* Runs op (NN_INDEX_PROD and the codes after it: core/cpu/select_more.c). */
int nn_cpu_index_select_more_ops(nn_index_op op, nn_kernel_args *a);
/* Runs op (NN_INDEX_UNIQUE and the codes after it: core/cpu/histo.c). */
int nn_cpu_index_histo_ops(nn_index_op op, nn_kernel_args *a);
/* Runs op (NN_INDEX_CUMPROD_GRAD and the codes after it: core/cpu/index_more.c). */
int nn_cpu_index_more_ops(nn_index_op op, nn_kernel_args *a);

#endif
