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
static nn_placed_warning_handler placed_handler;
static bool muted;

void nn_set_warning_handler(nn_warning_handler handler) { warning_handler = handler; }
void nn_set_placed_warning_handler(nn_placed_warning_handler handler) { placed_handler = handler; }

bool nn_set_warnings_muted(bool on)
{
    bool prev = muted;
    muted = on;
    return prev;
}

static int vwarn(const nn_warn_place *place, const char *category, const char *fmt, va_list ap)
{
    if (muted) return 0;
    char small[1024], *message = small;
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    if (len >= (int)sizeof small && (message = nn_malloc((size_t)len + 1))) /* a long one (a traceback) whole */
        vsnprintf(message, (size_t)len + 1, fmt, again);
    va_end(again);
    if (!message) message = small; /* out of memory: the first 1023 bytes */
    int rc = 0;
    if (place && placed_handler) rc = placed_handler(category, message, place);
    else if (warning_handler) rc = warning_handler(category, message);
    else fprintf(stderr, "%s: %s\n", category, message);
    if (message != small) nn_free(message);
    return rc;
}

int nn_warn(const char *category, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vwarn(NULL, category, fmt, ap);
    va_end(ap);
    return rc;
}

int nn_warn_at(const nn_warn_place *place, const char *category, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vwarn(place, category, fmt, ap);
    va_end(ap);
    return rc;
}
