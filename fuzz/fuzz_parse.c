/*
 * fuzz_parse.c — libFuzzer target: the lexer and the parser. The input is a
 * source text parsed as a file, an interactive cell and an expression; a tree
 * that parses is dumped (ast.dump) too. Any outcome but a crash, a leak or a
 * hang is fine.
 */
#include "fuzz.h"

#include "repl/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_setup();
    char *src = fuzz_cstr(data, size);
    static const repl_parse_mode modes[] = {REPL_PARSE_FILE, REPL_PARSE_SINGLE, REPL_PARSE_EVAL};
    fuzz_start(5);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        repl_ast_arena *arena = NULL;
        repl_parse_error err;
        repl_node *tree = repl_parse(src, "<fuzz>", modes[i], &arena, &err);
        if (tree) {
            char *dump = repl_ast_dump(tree);
            nn_free(dump);
        }
        repl_ast_arena_free(arena);
        nn_error_clear();
    }
    fuzz_stop();
    free(src);
    return 0;
}
