/*
 * nn_activations.h — placeholder: filled in by the activations work (see docs/architecture.md).
 * Included by nn.h.
 */
#ifndef NN_ACTIVATIONS_H
#define NN_ACTIVATIONS_H

#endif
