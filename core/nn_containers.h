/*
 * nn_containers.h — placeholder: filled in by the containers work (see docs/architecture.md).
 * Included by nn.h.
 */
#ifndef NN_CONTAINERS_H
#define NN_CONTAINERS_H

#endif
