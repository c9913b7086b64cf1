/*
 * ast_walk.h — a read-only walk over a tree's names (ast_mangle.c's visitor):
 * each(ctx, id, binds, depth) for every Name (binds: stored or deleted) and
 * parameter in expr (may be NULL) and the statements body (may be NULL), the
 * nested defs, lambdas, comprehensions and class bodies included, depth counting
 * the defs, lambdas and comprehensions around it. func_attrs.c finds a
 * function's free and cell variables with it.
 */
#ifndef REPL_AST_WALK_H
#define REPL_AST_WALK_H

#include <stdbool.h>

#include "ast.h"

void repl_ast_each_name(const repl_node *expr, const repl_node_list *body,
                        void (*each)(void *ctx, const char *id, bool binds, int depth), void *ctx);

#endif
