/*
 * nn_init.h — placeholder: filled in by the init work (see docs/architecture.md).
 * Included by nn.h.
 */
#ifndef NN_INIT_H
#define NN_INIT_H

#endif
