/* source_text.h — a source file's bytes as the parser takes them (source_text.c). */
#ifndef NNSCOPE_SOURCE_TEXT_H
#define NNSCOPE_SOURCE_TEXT_H

#include <stddef.h>

/* src (a file's NUL-terminated bytes) as UTF-8 text for repl_parse: past a UTF-8
   byte order mark, decoded by its coding declaration (UTF-8 or Latin-1; *owned
   then holds the nn_malloc'd copy returned, else NULL). NULL when it cannot be:
   CPython's SyntaxError message in msg ("Non-UTF-8 code starting with '\xff' in
   file F on line N, ...", "encoding problem: NAME"), or "" when memory ran out. */
const char *repl_source_text(const char *src, const char *filename, char **owned, char *msg, size_t msg_len);

#endif
