/*
 * throttle.c — the redraw gate: hooks fire thousands of times a second in a
 * training loop, the screen redraws at most INSP_REDRAW_HZ times a second on the
 * monotonic clock. Not here: what is drawn (render.c).
 */
#include "insp.h"

#include <time.h>

void insp_throttle_init(insp_throttle *t, double hz)
{
    t->interval = hz > 0 ? 1.0 / hz : 0;
    t->last = 0;
    t->primed = false;
}

double insp_monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool insp_throttle_due(insp_throttle *t, double now)
{
    if (t->primed && now - t->last < t->interval) return false;
    t->primed = true;
    t->last = now;
    return true;
}

bool insp_should_redraw(insp_throttle *t) { return insp_throttle_due(t, insp_monotonic_seconds()); }
