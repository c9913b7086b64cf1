/*
 * updates.c — update-to-data ratios without help from the optimizer: at a forward
 * of the root the parameters are snapshotted (at most INSP_PARAM_HZ times a
 * second, so a training loop pays for a copy once a second, not every step); at a later root forward after which some parameter's version moved (an
 * optimizer step updates in place), the ratio ||now - snapshot|| / ||now|| is the
 * one of that step. Not here: the snapshot and ratio arithmetic (session.c).
 */
#include "insp_int.h"

/* Optimizer steps bump the storage versions of the parameters they update. */
static uint64_t version_sum(const insp_session *s)
{
    uint64_t v = 0;
    for (size_t i = 0; i < s->n_params; i++) v += s->params[i].tensor->storage->version;
    return v;
}

int insp_track_updates(insp_session *s)
{
    if (s->n_params == 0) return 0;
    uint64_t versions = version_sum(s);
    if (s->ratio_armed) {
        if (versions == s->ratio_versions) return 0; /* no step yet (eval forwards, accumulation) */
        s->ratio_armed = false;
        if (insp_param_update_ratio(s) < 0) return -1;
    }
    if (!insp_should_redraw(&s->ratio_gate)) return 0;
    if (insp_param_snapshot(s) < 0) return -1;
    s->ratio_armed = true;
    s->ratio_versions = versions;
    return 0;
}
