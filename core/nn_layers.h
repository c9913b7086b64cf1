/*
 * nn_layers.h — placeholder: filled in by the layers work (see docs/architecture.md).
 * Included by nn.h.
 */
#ifndef NN_LAYERS_H
#define NN_LAYERS_H

#endif
