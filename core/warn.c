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
    char small[1024], *message = small;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (message = nn_malloc((size_t)len + 1))) { /* a long one (a traceback) whole */
        va_start(ap, fmt);
        vsnprintf(message, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    if (!message) message = small; /* out of memory: the first 1023 bytes */
    int rc = 0;
    if (warning_handler) rc = warning_handler(category, message);
    else fprintf(stderr, "%s: %s\n", category, message);
    if (message != small) nn_free(message);
    return rc;
}
