/*
 * error.c — the current error (kind + message) and the interrupt flag.
 * Functions that fail set it and return NULL or -1; callers pass it up.
 */
#include <stdio.h>
#include <string.h>

#include "nn.h"

static _Thread_local nn_error_kind current_kind = NN_OK;
static _Thread_local char current_message[1024];

volatile int nn_interrupt_requested = 0;

static const char *const kind_names[NN_ERR_KIND_COUNT] = {
    [NN_OK] = "OK",
#define ERR(id, name) [NN_ERR_##id] = name,
#include "errors.def"
#undef ERR
};

int nn_error_set(nn_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(current_message, sizeof current_message, fmt, ap);
    va_end(ap);
    current_kind = kind;
    return -1;
}

nn_error_kind nn_error_current(void) { return current_kind; }

const char *nn_error_message(void) { return current_kind == NN_OK ? "" : current_message; }

const char *nn_error_kind_name(nn_error_kind kind)
{
    if ((int)kind < 0 || kind >= NN_ERR_KIND_COUNT) return "Exception";
    return kind_names[kind];
}

void nn_error_clear(void)
{
    current_kind = NN_OK;
    current_message[0] = '\0';
}

int nn_check_interrupt(void)
{
    if (!nn_interrupt_requested) return 0;
    nn_interrupt_requested = 0;
    return nn_error_set(NN_ERR_KEYBOARD_INTERRUPT, "%s", "");
}
