/*
 * warn.c — core's warnings (PyTorch's TORCH_WARN): formatted here, then handed
 * to the front end's handler (the language's `warnings` module decides whether
 * to show, ignore or raise them), or printed on stderr when there is none (core
 * alone: tests, bench).
 */
#include <stdarg.h>
#include <stdio.h>

#include "nn.h"

static nn_warning_handler warning_handler;

void nn_set_warning_handler(nn_warning_handler handler) { warning_handler = handler; }

int nn_warn(const char *category, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (warning_handler) return warning_handler(category, message);
    fprintf(stderr, "%s: %s\n", category, message);
    return 0;
}
