/*
 * bind_anomaly.c — torch.autograd.anomaly_mode (detect_anomaly,
 * set_detect_anomaly, is_anomaly_enabled) and torch.autograd.grad_mode's
 * inference_mode / is_inference_mode_enabled: modules written in the language
 * (sources below) over core's anomaly mode (core/anomaly.c). The forward
 * traceback core keeps on each node is the language's frames as text, made
 * here; an anomaly warns with it as PyTorch does, through core's nn_warn (so the
 * language's warnings module prints it, "file.py:8: UserWarning: ...", or filters it).
 * Inference tensors are core's (nn_storage.inference): the mode's state is
 * core's, set by the source's helpers. Not here: the warning's place is the script's line that ran
 * backward() (PyTorch's is its own autograd/__init__.py), and it lacks PyTorch's
 * "(Triggered internally at ...)" tail.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_custom_fn.h"
#include "stdlib_int.h"

/* Line n (1-based) of source into b, stripped as Python's traceback prints it. */
static void source_line(sbuf *b, const char *source, int n)
{
    const char *p = source;
    for (int i = 1; p && i < n; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) return;
    while (*p == ' ' || *p == '\t') p++;
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\r')) len--;
    if (len) repl_sb_printf(b, "    %.*s\n", (int)len, p);
}

/* The language's frames now, outermost first, as a str (a new reference), or NULL. */
static nn_object *capture_frames(void)
{
    tb_entry *e = NULL;
    int n = 0;
    if (!repl_current || repl_debug_frames(repl_current, true, &e, &n) < 0) {
        nn_error_clear();
        return NULL;
    }
    sbuf b = {0};
    for (int i = n - 1; i >= 0; i--) {
        const char *source = NULL, *filename = NULL;
        if (e[i].unit) repl_code_unit_text(e[i].unit, &source, &filename);
        repl_sb_printf(&b, "  File \"%s\", line %d, in %s\n", filename ? filename : "<unknown>", e[i].line, e[i].name);
        if (source) source_line(&b, source, e[i].line);
    }
    repl_tb_entries_free(e, n);
    char *s = repl_sb_finish(&b);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    if (!r) nn_error_clear();
    return r;
}

/* PyTorch's warning, through core's nn_warn_at (the language's warnings: its filters, and
   "torch/autograd/__init__.py:197: UserWarning: ...", where PyTorch's engine raises it). */
static void report(const char *node_name, nn_object *trace)
{
    const char *t = nn_is_str(trace) ? nn_str_cstr(trace) : "";
    size_t len = strlen(t);
    if (len && t[len - 1] == '\n') len--;
    /* raised while PyTorch 1.13's torch/autograd/__init__.py:197 runs the engine */
    static const nn_warn_place autograd_py = {"torch.autograd", "torch/autograd/__init__.py", 197};
    if (nn_warn_at(&autograd_py, "UserWarning",
                   "Error detected in %s. Traceback of forward call that caused the error:\n%.*s", node_name, (int)len,
                   t) < 0)
        nn_error_clear(); /* a warning made an error by a filter: the anomaly's own error follows */
}

static nn_object *h_set(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = repl_mod_nargs("_set", args, kwargs, 2, 2);
    int mode = n < 0 ? -1 : repl_truth(nn_tuple_get(args, 0));
    int nan = mode < 0 ? -1 : repl_truth(nn_tuple_get(args, 1));
    if (nan < 0) return NULL;
    nn_set_anomaly_hooks(capture_frames, report);
    nn_set_detect_anomaly(mode, nan);
    return nn_retain(nn_none());
}

static nn_object *h_is_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_is_enabled", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(nn_detect_anomaly_enabled());
}

static nn_object *h_is_check_nan_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_is_check_nan_enabled", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(nn_anomaly_check_nan_enabled());
}

static const repl_mod_fn anomaly_helpers[] = {
    {"_set", h_set, NULL},
    {"_is_enabled", h_is_enabled, NULL},
    {"_is_check_nan_enabled", h_is_check_nan_enabled, NULL},
};

/* grad_mode's helpers: core's inference mode, _set_inference(mode) -> the previous one */
static nn_object *h_set_inference(void *ud, nn_object *args, nn_object *kwargs)
{
    int n = repl_mod_nargs("_set_inference", args, kwargs, 1, 1);
    int mode = n < 0 ? -1 : repl_truth(nn_tuple_get(args, 0));
    return mode < 0 ? NULL : nn_bool_new(nn_set_inference_mode(mode));
}

static nn_object *h_is_inference_mode_enabled(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("is_inference_mode_enabled", args, kwargs, 0, 0) < 0) return NULL;
    return nn_bool_new(nn_inference_mode());
}

static nn_object *h_is_inference(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_tensor *t = NULL;
    if (repl_mod_nargs("is_inference", args, kwargs, 1, 1) < 0 ||
        repl_arg_tensor("is_inference", "input", 1, nn_tuple_get(args, 0), &t))
        return NULL;
    return nn_bool_new(nn_is_inference(t));
}

static const repl_mod_fn grad_mode_helpers[] = {
    {"_is_inference", h_is_inference, NULL},
    {"_set_inference", h_set_inference, NULL},
    {"is_inference_mode_enabled", h_is_inference_mode_enabled, NULL},
};

/* anomaly source: begin */
static const char anomaly_source[] =
    "# torch.autograd.anomaly_mode, written in the language: detect_anomaly() and\n"
    "# set_detect_anomaly(mode) switch core's anomaly mode (_set: NaN checks after\n"
    "# each backward node, the forward traceback kept on each node).\n"
    "import torch\n"
    "import warnings\n"
    "\n"
    "\n"
    "class _AnomalyMode:\n"
    "    def __repr__(self):\n"
    "        return '<torch.autograd.anomaly_mode.' + type(self).__name__ + ' object at ' + format(id(self), '#x') + '>'\n"
    "\n"
    "    def _save(self):\n"
    "        self.prev = _is_enabled()\n"
    "        self.prev_check_nan = _is_check_nan_enabled()\n"
    "\n"
    "    def __exit__(self, *args):\n"
    "        _set(self.prev, self.prev_check_nan)\n"
    "        return False\n"
    "\n"
    "\n"
    "class detect_anomaly(_AnomalyMode):\n"
    "    def __init__(self, check_nan=True):\n"
    "        self._save()\n"
    "        self.check_nan = check_nan\n"
    "        warnings.warn('Anomaly Detection has been enabled. This mode will increase the runtime and should '\n"
    "                      'only be enabled for debugging.', stacklevel=2)\n"
    "\n"
    "    def __enter__(self):\n"
    "        _set(True, self.check_nan)\n"
    "\n"
    "\n"
    "class set_detect_anomaly(_AnomalyMode):\n"
    "    def __init__(self, mode, check_nan=True):\n"
    "        self._save()\n"
    "        _set(mode, check_nan)\n"
    "\n"
    "    def __enter__(self):\n"
    "        pass\n"
    "\n"
    "\n"
    "def is_anomaly_enabled():\n"
    "    return _is_enabled()\n"
    "\n"
    "\n"
    "def is_anomaly_check_nan_enabled():\n"
    "    return _is_check_nan_enabled()\n";
/* anomaly source: end */

/* grad_mode source: begin */
static const char grad_mode_source[] =
    "# torch.autograd.grad_mode's inference_mode, written in the language: grad mode\n"
    "# off inside (mode=True), torch.is_inference_mode_enabled() true (core's mode: the\n"
    "# tensors made inside are inference tensors); a context manager and a decorator\n"
    "# (@torch.inference_mode()).\n"
    "import torch\n"
    "\n"
    "\n"
    "class inference_mode:\n"
    "    def __repr__(self):\n"
    "        return '<torch.autograd.grad_mode.inference_mode object at ' + format(id(self), '#x') + '>'\n"
    "\n"
    "    def __init__(self, mode=True):\n"
    "        self.mode = mode\n"
    "        self.prev = []\n"
    "\n"
    "    def __enter__(self):\n"
    "        grad = torch.is_grad_enabled()\n"
    "        self.prev.append((_set_inference(self.mode), grad))\n"
    "        if self.mode:\n"
    "            torch.set_grad_enabled(False)\n"
    "\n"
    "    def __exit__(self, *args):\n"
    "        inference, grad = self.prev.pop()\n"
    "        _set_inference(inference)\n"
    "        torch.set_grad_enabled(grad)\n"
    "        return False\n"
    "\n"
    "    def __call__(self, fn):\n"
    "        mode = self.mode\n"
    "\n"
    "        def decorate_context(*args, **kwargs):\n"
    "            with inference_mode(mode):\n"
    "                return fn(*args, **kwargs)\n"
    "        return decorate_context\n"
    "\n"
    "    def clone(self):\n"
    "        return inference_mode(self.mode)\n";
/* grad_mode source: end */

nn_object *repl_mod_anomaly_mode(void)
{
    return repl_mod_from_source("torch.autograd.anomaly_mode", anomaly_helpers,
                                sizeof anomaly_helpers / sizeof *anomaly_helpers, anomaly_source);
}

nn_object *repl_mod_grad_mode(void)
{
    return repl_mod_from_source("torch.autograd.grad_mode", grad_mode_helpers,
                                sizeof grad_mode_helpers / sizeof *grad_mode_helpers, grad_mode_source);
}
