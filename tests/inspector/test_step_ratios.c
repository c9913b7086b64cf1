/*
 * test_step_ratios.c — the update ratio of every training step (the `u` chart):
 * 300 optimizer steps give 300 points, each the exact ||update|| / ||param|| of
 * its step for a parameter of up to INSP_RATIO_SAMPLE elements (checked against
 * the exact full measurement the test takes around each step) and a close
 * estimate for a larger one; the chart draws one cell per step as far as the
 * width allows, ends at the step shown under time travel, and a loop that updates
 * the parameters by hand (no optimizer) gets its points too.
 */
#include "test_util.h"

#include "inspector/insp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linear(4, 8) -> Tanh -> Linear(8, 3): small enough that every ratio is exact,
   or Linear(96, 128) -> Tanh -> Linear(128, 3), whose first weight (12288
   elements) is sampled. */
static nn_module *make_model(bool big)
{
    nn_generator_seed(nn_default_generator(), 0);
    int64_t in = big ? 96 : 4, hidden = big ? 128 : 8;
    nn_module *mods[] = {TU_OK(nn_linear_new(in, hidden, true, NN_FLOAT32)), TU_OK(nn_tanh_new()),
                         TU_OK(nn_linear_new(hidden, 3, true, NN_FLOAT32))};
    nn_module *model = TU_OK(nn_sequential_new(3, mods));
    for (size_t i = 0; i < 3; i++) NN_RELEASE(mods[i]);
    return model;
}

typedef struct run {
    nn_module *model;
    insp_session *s;
    nn_object *plist;
    nn_optimizer *opt; /* NULL: the loop updates the parameters by hand */
    nn_tensor *x;
    int64_t in;
} run;

static void run_start(run *r, bool big, bool optimizer)
{
    memset(r, 0, sizeof *r);
    r->model = make_model(big);
    tu_check(insp_attach(r->model, &r->s));
    r->plist = TU_OK(nn_module_parameters(r->model, true));
    r->in = big ? 96 : 4;
    r->x = TU_OK(nn_randn(2, TU_SHAPE(16, r->in), NN_FLOAT32));
    if (optimizer) {
        nn_tensor *params[8];
        size_t n = nn_list_len(r->plist);
        for (size_t i = 0; i < n; i++) params[i] = NN_TENSOR(nn_list_get(r->plist, i));
        nn_sgd_options o;
        nn_sgd_options_default(&o);
        o.lr = big ? 0.002 : 0.05;
        o.momentum = 0.9;
        r->opt = TU_OK(nn_sgd_new(params, n, &o));
    }
}

/* One step of sum(model(x)^2); exact[i][k] receives parameter i's exact ratio of
   step k (the inspector's full measurement around the update). */
static void run_step(run *r, double exact[][400], int k)
{
    nn_tensor *y = TU_OK(nn_module_call1(r->model, r->x));
    nn_tensor *sq = TU_OK(nn_mul(y, y));
    nn_tensor *loss = TU_OK(nn_sum(sq, 0, NULL, false));
    tu_check(nn_backward(loss, NULL, false, false));
    tu_check(insp_param_snapshot(r->s));
    if (r->opt) {
        tu_check(nn_optimizer_step(r->opt));
        tu_check(nn_optimizer_zero_grad(r->opt, true));
    } else {
        bool prev = nn_set_grad_enabled(false);
        for (size_t i = 0; i < nn_list_len(r->plist); i++) {
            nn_tensor *p = NN_TENSOR(nn_list_get(r->plist, i));
            tu_check(nn_add_(p, p->grad, -0.01));
            NN_RELEASE(p->grad);
            p->grad = NULL;
        }
        nn_set_grad_enabled(prev);
    }
    tu_check(insp_param_update_ratio(r->s));
    size_t n;
    const insp_param *table;
    tu_check(insp_param_capture(r->s, &table, &n));
    for (size_t i = 0; i < n; i++) exact[i][k] = table[i].update_ratio;
    NN_RELEASE(y), NN_RELEASE(sq), NN_RELEASE(loss);
}

static void run_stop(run *r)
{
    NN_RELEASE(r->opt), NN_RELEASE(r->plist), NN_RELEASE(r->x);
    insp_session_free(r->s);
    NN_RELEASE(r->model);
}

/* The view drawn on a w x h screen, as text (nn_malloc'd). */
static char *draw_text(insp_view *v, int w, int h)
{
    insp_screen sc;
    tu_check(insp_screen_init(&sc, w, h));
    tu_check(insp_view_draw(v, &sc));
    char *text = TU_OK(insp_screen_text(&sc));
    insp_screen_free(&sc);
    return text;
}

static void keys(insp_view *v, const char *k)
{
    for (; *k; k++) insp_view_key(v, (unsigned char)*k);
}

/* Cells of the chart on the row of parameter `label`: block characters and dots
   after the label, up to the newest value. */
static int chart_cells(const char *text, const char *label)
{
    const char *row = strstr(text, label);
    if (!row) fail_msg("no row for %s in:\n%s", label, text);
    int cells = 0;
    for (const char *c = row + strlen(label); *c && *c != '\n'; c++)
        if (!strncmp(c, "·", 2) || (!strncmp(c, "\xe2\x96", 2) && (unsigned char)c[2] >= 0x81 &&
                                    (unsigned char)c[2] <= 0x88))
            cells++;
    return cells;
}

static void test_every_step_exact(void **state)
{
    (void)state;
    static double exact[4][400];
    run r;
    run_start(&r, false, true);
    for (int k = 0; k < 300; k++) run_step(&r, exact, k);
    assert_int_equal(insp_ratios_len(r.s), 300);
    for (size_t k = 0; k < 300; k++) {
        uint64_t step;
        for (size_t i = 0; i < 4; i++) {
            double got = insp_ratio_at(r.s, k, i, &step), want = exact[i][k];
            if (!(fabs(got - want) <= 1e-6 * want))
                fail_msg("step %zu param %zu: %.9g, exact %.9g", k + 1, i, got, want);
        }
        assert_int_equal(step, k + 1);
    }
    insp_view *v = TU_OK(insp_view_new(r.s));
    keys(v, "u");
    /* 250 columns: the chart's cells run from the label to the newest value */
    char *wide = draw_text(v, 250, 80);
    int cells = chart_cells(wide, "0.weight");
    if (cells < 100 || cells > 200) fail_msg("%d cells at 250 columns:\n%s", cells, wide);
    char head[96];
    snprintf(head, sizeof head, "steps %d … 300", 300 - cells + 1);
    if (!strstr(wide, head)) fail_msg("no '%s' in:\n%s", head, wide);
    nn_free(wide);
    /* 80 columns: fewer cells, the newest steps */
    char *narrow = draw_text(v, 80, 24);
    int few = chart_cells(narrow, "0.weight");
    assert_true(few > 20 && few < cells);
    snprintf(head, sizeof head, "steps %d … 300", 300 - few + 1);
    if (!strstr(narrow, head)) fail_msg("no '%s' in:\n%s", head, narrow);
    nn_free(narrow);
    /* time travel: '[' shows step 299, the chart ends there */
    keys(v, "[");
    char *back = draw_text(v, 250, 80);
    snprintf(head, sizeof head, "steps %d … 299", 299 - cells + 1);
    if (!strstr(back, head)) fail_msg("no '%s' in:\n%s", head, back);
    nn_free(back);
    insp_view_free(v);
    run_stop(&r);
}

/* A parameter larger than the sample: every step has a ratio near the exact one. */
static void test_every_step_sampled(void **state)
{
    (void)state;
    static double exact[4][400];
    run r;
    run_start(&r, true, true);
    for (int k = 0; k < 40; k++) run_step(&r, exact, k);
    assert_int_equal(insp_ratios_len(r.s), 40);
    double worst = 0;
    for (size_t k = 0; k < 40; k++) {
        double got = insp_ratio_at(r.s, k, 0, NULL), want = exact[0][k];
        worst = fmax(worst, fabs(log10(got / want)));
    }
    if (worst > 0.05) fail_msg("the sampled ratio is %.3g decades off the exact one", worst);
    run_stop(&r);
}

/* No optimizer: the update made by hand between two steps is the earlier step's. */
static void test_every_step_by_hand(void **state)
{
    (void)state;
    static double exact[4][400];
    run r;
    run_start(&r, false, false);
    for (int k = 0; k < 20; k++) run_step(&r, exact, k);
    /* step k's update is measured when the backward of step k + 1 begins */
    assert_int_equal(insp_ratios_len(r.s), 19);
    for (size_t k = 0; k < 19; k++) {
        uint64_t step;
        double got = insp_ratio_at(r.s, k, 2, &step), want = exact[2][k];
        assert_int_equal(step, k + 1);
        if (!(fabs(got - want) <= 1e-6 * want)) fail_msg("step %zu: %.9g, exact %.9g", k + 1, got, want);
    }
    run_stop(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_step_exact),
        cmocka_unit_test(test_every_step_sampled),
        cmocka_unit_test(test_every_step_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
