/*
 * pylib.c — the standard library's modules written wholly in the language:
 * each is repl/lib/NAME.py, embedded at build time (the Makefile runs
 * repl/lib/embed.awk into $(BUILD)/gen/pylib_sources.h) and run as the
 * module's body on its first import (stdlib.c). A module that needs C helpers
 * keeps its source beside them in its repl/mod_NAME.c instead.
 */
#include <string.h>

#include "stdlib_int.h"

#include "pylib_sources.h"

const char *repl_pylib_source(const char *name)
{
    for (size_t i = 0; i < sizeof pylib_sources / sizeof *pylib_sources; i++)
        if (strcmp(pylib_sources[i].name, name) == 0) return pylib_sources[i].source;
    return NULL;
}
