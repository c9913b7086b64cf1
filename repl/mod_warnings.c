/*
 * mod_warnings.c — `import warnings`, written in the language (the source below,
 * CPython's semantics) over two C helpers, and the handler through which
 * core's warnings (nn_warn: PyTorch's TORCH_WARN) pass the same filters:
 * `warnings.filterwarnings("ignore")` silences them, "error" raises them, and a
 * shown one names the line that called the op, with its source, as CPython
 * prints a warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib_int.h"

/* Line `line` (1-based) of source as a new str without its line end, or None. */
static nn_object *line_of(const char *source, int line)
{
    for (int l = 1; source && l < line; l++) {
        source = strchr(source, '\n');
        if (source) source++;
    }
    if (!source || line < 1 || (!*source && line > 1)) return nn_retain(nn_none());
    return nn_str_from(source, strcspn(source, "\r\n"));
}

/* A tuple of the n new references in items (taken; NULL items make it fail). */
static nn_object *tuple_take(size_t n, nn_object **items)
{
    nn_object *t = NULL;
    bool ok = true;
    for (size_t i = 0; i < n; i++) ok = ok && items[i];
    if (ok && (t = nn_tuple_new(n)))
        for (size_t i = 0; i < n; i++) nn_tuple_set(t, i, nn_retain(items[i]));
    for (size_t i = 0; i < n; i++) NN_RELEASE(items[i]);
    return t;
}

/* _frame_info(stacklevel): (filename, lineno, module, line) of the frame that many
   levels above warn() (1: warn's caller); ('sys', 1, 'sys', None) beyond the outermost. */
static nn_object *w_frame_info(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t level;
    if (repl_mod_nargs("_frame_info", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &level) < 0)
        return NULL;
    tb_entry *frames = NULL;
    int n = 0;
    if (repl_debug_frames(repl_current, true, &frames, &n) < 0) return NULL;
    const tb_entry *found = NULL;
    const char *source = NULL, *filename = NULL;
    for (int i = 0; i < n && !found; i++) { /* innermost first; warn()'s own frames do not count */
        repl_code_unit_text(frames[i].unit, &source, &filename);
        if (filename && strcmp(filename, "<frozen warnings>") == 0) continue;
        if (--level <= 0) found = &frames[i];
    }
    nn_object *r;
    if (!found) {
        r = tuple_take(4, (nn_object *[]){nn_str_new("sys"), nn_int_new(1), nn_str_new("sys"), nn_retain(nn_none())});
    } else {
        filename = filename ? filename : "<unknown>";
        char module[64] = "__main__"; /* a stdlib module written in the language: its name */
        if (strncmp(filename, "<frozen ", 8) == 0)
            snprintf(module, sizeof module, "%.*s", (int)strcspn(filename + 8, ">"), filename + 8);
        /* code of exec()/eval() is "<string>": CPython's linecache has no line of it to show */
        bool no_source = strcmp(filename, "<string>") == 0;
        r = tuple_take(4, (nn_object *[]){nn_str_new(filename), nn_int_new(found->line), nn_str_new(module),
                                          no_source ? nn_retain(nn_none()) : line_of(source, found->line)});
    }
    repl_tb_entries_free(frames, n);
    return r;
}

/* _getline(filename, lineno): that line of the file with its line end, or ''. */
static nn_object *w_getline(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t want;
    if (repl_mod_nargs("_getline", args, kwargs, 2, 2) < 0 || repl_mod_int(nn_tuple_get(args, 1), &want) < 0)
        return NULL;
    nn_object *name = nn_tuple_get(args, 0);
    FILE *f = nn_is_str(name) && nn_str_cstr(name)[0] != '<' ? fopen(nn_str_cstr(name), "r") : NULL;
    if (!f) return nn_str_new("");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = 0;
    for (int64_t l = 1; l <= want && (n = getline(&line, &cap, f)) >= 0; l++) {}
    nn_object *r = n >= 0 && want >= 1 ? nn_str_from(line, (size_t)n) : nn_str_new("");
    free(line); /* getline's buffer comes from malloc */
    fclose(f);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_frame_info", w_frame_info, NULL},
    {"_getline", w_getline, NULL},
};

/* source: begin */
static const char source[] =
    "# warnings, written in the language as CPython's Lib/warnings.py: the filters\n"
    "# (filterwarnings, simplefilter, resetwarnings), warn and warn_explicit with\n"
    "# their registries (\"default\" shows a warning once per place, \"once\" once,\n"
    "# \"module\" once per module), showwarning / formatwarning (each may be\n"
    "# replaced), and catch_warnings. Two C helpers: _frame_info(stacklevel),\n"
    "# the caller's (filename, lineno, module, source line), and _getline(filename,\n"
    "# lineno), a line of a file ('' when there is none). Core's warnings (PyTorch's\n"
    "# TORCH_WARN) come through warn() too, placed at the line that called the op.\n"
    "# A module written in the language sees its own names through a closure, not\n"
    "# through the module's attributes: what a user may rebind (filters,\n"
    "# showwarning, formatwarning, defaultaction) is read through _module().\n"
    "\n"
    "import sys\n"
    "\n"
    "filters = [('default', None, DeprecationWarning, '__main__', 0),\n"
    "           ('ignore', None, DeprecationWarning, None, 0),\n"
    "           ('ignore', None, PendingDeprecationWarning, None, 0),\n"
    "           ('ignore', None, ImportWarning, None, 0),\n"
    "           ('ignore', None, ResourceWarning, None, 0)]\n"
    "defaultaction = 'default'\n"
    "onceregistry = {}\n"
    "_registries = {}\n"
    "_lines = {}\n"
    "_filters_version = [1]\n"
    "\n"
    "\n"
    "def _module():\n"
    "    import warnings\n"
    "    return warnings\n"
    "\n"
    "\n"
    "def _filters_mutated():\n"
    "    _filters_version[0] += 1\n"
    "\n"
    "\n"
    "class WarningMessage:\n"
    "    _WARNING_DETAILS = ('message', 'category', 'filename', 'lineno', 'file', 'line', 'source')\n"
    "\n"
    "    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):\n"
    "        self.message = message\n"
    "        self.category = category\n"
    "        self.filename = filename\n"
    "        self.lineno = lineno\n"
    "        self.file = file\n"
    "        self.line = line\n"
    "        self.source = source\n"
    "        self._category_name = category.__name__ if category else None\n"
    "\n"
    "    def __str__(self):\n"
    "        return ('{message : %r, category : %r, filename : %r, lineno : %s, line : %r}'\n"
    "                % (self.message, self._category_name, self.filename, self.lineno, self.line))\n"
    "\n"
    "\n"
    "def _formatwarnmsg_impl(msg):\n"
    "    category = msg.category.__name__\n"
    "    s = '%s:%s: %s: %s\\n' % (msg.filename, msg.lineno, category, msg.message)\n"
    "    line = msg.line\n"
    "    if line is None:\n"
    "        line = _lines.get((msg.filename, msg.lineno))\n"
    "        if line is None:\n"
    "            line = _getline(msg.filename, msg.lineno)\n"
    "    if line:\n"
    "        s += '  %s\\n' % line.strip()\n"
    "    return s\n"
    "\n"
    "\n"
    "def formatwarning(message, category, filename, lineno, line=None):\n"
    "    return _formatwarnmsg_impl(WarningMessage(message, category, filename, lineno, None, line))\n"
    "\n"
    "\n"
    "def _showwarnmsg_impl(msg):\n"
    "    file = msg.file\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    text = _formatwarnmsg(msg)\n"
    "    try:\n"
    "        file.write(text)\n"
    "    except OSError:\n"
    "        pass\n"
    "\n"
    "\n"
    "def showwarning(message, category, filename, lineno, file=None, line=None):\n"
    "    _showwarnmsg_impl(WarningMessage(message, category, filename, lineno, file, line))\n"
    "\n"
    "\n"
    "_showwarning_orig = showwarning\n"
    "_formatwarning_orig = formatwarning\n"
    "\n"
    "\n"
    "def _formatwarnmsg(msg):\n"
    "    fw = _module().formatwarning\n"
    "    if fw is not _formatwarning_orig:\n"
    "        return fw(msg.message, msg.category, msg.filename, msg.lineno, msg.line)\n"
    "    return _formatwarnmsg_impl(msg)\n"
    "\n"
    "\n"
    "def _showwarnmsg(msg):\n"
    "    m = _module()\n"
    "    sw = m.showwarning\n"
    "    if sw is not _showwarning_orig:\n"
    "        if not callable(sw):\n"
    "            raise TypeError('warnings.showwarning() must be set to a function or method')\n"
    "        sw(msg.message, msg.category, msg.filename, msg.lineno, msg.file, msg.line)\n"
    "        return\n"
    "    m._showwarnmsg_impl(msg)\n"
    "\n"
    "\n"
    "def _add_filter(item, append):\n"
    "    filters = _module().filters\n"
    "    if not append:\n"
    "        if item in filters:\n"
    "            filters.remove(item)\n"
    "        filters.insert(0, item)\n"
    "    elif item not in filters:\n"
    "        filters.append(item)\n"
    "    _filters_mutated()\n"
    "\n"
    "\n"
    "_ACTIONS = ('error', 'ignore', 'always', 'default', 'module', 'once')\n"
    "\n"
    "\n"
    "def filterwarnings(action, message='', category=Warning, module='', lineno=0, append=False):\n"
    "    assert action in _ACTIONS, 'invalid action: %r' % (action,)\n"
    "    assert isinstance(message, str), 'message must be a string'\n"
    "    assert isinstance(category, type), 'category must be a class'\n"
    "    assert issubclass(category, Warning), 'category must be a Warning subclass'\n"
    "    assert isinstance(module, str), 'module must be a string'\n"
    "    assert isinstance(lineno, int) and lineno >= 0, 'lineno must be an int >= 0'\n"
    "    if message or module:\n"
    "        import re\n"
    "    message = re.compile(message, re.I) if message else None\n"
    "    module = re.compile(module) if module else None\n"
    "    _add_filter((action, message, category, module, lineno), append)\n"
    "\n"
    "\n"
    "def simplefilter(action, category=Warning, lineno=0, append=False):\n"
    "    assert action in _ACTIONS, 'invalid action: %r' % (action,)\n"
    "    assert isinstance(lineno, int) and lineno >= 0, 'lineno must be an int >= 0'\n"
    "    _add_filter((action, None, category, None, lineno), append)\n"
    "\n"
    "\n"
    "def resetwarnings():\n"
    "    _module().filters[:] = []\n"
    "    _filters_mutated()\n"
    "\n"
    "\n"
    "def warn(message, category=None, stacklevel=1, source=None):\n"
    "    if isinstance(message, Warning):\n"
    "        category = message.__class__\n"
    "    if category is None:\n"
    "        category = UserWarning\n"
    "    if not (isinstance(category, type) and issubclass(category, Warning)):\n"
    "        raise TypeError(\"category must be a Warning subclass, not '%s'\" % type(category).__name__)\n"
    "    filename, lineno, module, line = _frame_info(stacklevel)\n"
    "    if line is not None:\n"
    "        _lines[(filename, lineno)] = line\n"
    "    registry = _registries.get(module)\n"
    "    if registry is None:\n"
    "        registry = _registries[module] = {}\n"
    "    warn_explicit(message, category, filename, lineno, module, registry, None, source)\n"
    "\n"
    "\n"
    "# where PyTorch 1.13's own files are: Debian's python3-torch, the reference install\n"
    "_TORCH_SITE = '/usr/lib/python3/dist-packages/'\n"
    "\n"
    "\n"
    "# the source line at each place PyTorch 1.13 raises one of those warnings in its own\n"
    "# files (shown under the warning, as CPython shows a line it can read)\n"
    "_TORCH_LINES = {\n"
    "    ('torch/autograd/__init__.py', 197): 'Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass',\n"
    "    ('torch/functional.py', 504): 'return _VF.meshgrid(tensors, **kwargs)  # type: ignore[attr-defined]',\n"
    "    ('torch/nn/_reduction.py', 42): 'warnings.warn(warning.format(ret))',\n"
    "    ('torch/nn/functional.py', 1331): 'warnings.warn(warn_msg)',\n"
    "    ('torch/nn/functional.py', 1338): 'warnings.warn(\"dropout2d: Received a 3D input to dropout2d and assuming that channel-wise \"',\n"
    "    ('torch/nn/functional.py', 1375): 'warnings.warn(warn_msg)',\n"
    "    ('torch/nn/functional.py', 2916): 'warnings.warn(',\n"
    "    ('torch/nn/functional.py', 3734): 'warnings.warn(\"nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.\")',\n"
    "    ('torch/nn/functional.py', 4014): 'warnings.warn(\"nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.\")',\n"
    "    ('torch/nn/functional.py', 4070): 'warnings.warn(\"nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.\")',\n"
    "    ('torch/nn/init.py', 405): 'warnings.warn(\"Initializing zero-element tensors is a no-op\")',\n"
    "    ('torch/nn/init.py', 445): 'warnings.warn(\"Initializing zero-element tensors is a no-op\")',\n"
    "    ('torch/nn/modules/lazy.py', 180): \"warnings.warn('Lazy modules are a new feature under heavy development '\",\n"
    "    ('torch/nn/modules/rnn.py', 67): 'warnings.warn(\"dropout option adds dropout after all but last \"',\n"
    "    ('torch/utils/checkpoint.py', 31): 'warnings.warn(\"None of the inputs have requires_grad=True. Gradients will be None\")',\n"
    "    ('torch/optim/swa_utils.py', 280): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 138): 'warnings.warn(\"Detected call of `lr_scheduler.step()` before `optimizer.step()`. \"',\n"
    "    ('torch/optim/lr_scheduler.py', 163): 'warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning)',\n"
    "    ('torch/optim/lr_scheduler.py', 257): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 335): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 381): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 429): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 483): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 550): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 587): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 742): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 807): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 1282): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 1359): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "    ('torch/optim/lr_scheduler.py', 1679): 'warnings.warn(\"To get the last learning rate computed by the scheduler, \"',\n"
    "}\n"
    "\n"
    "\n"
    "def _warn_from(message, category, module, filename, lineno):\n"
    "    # a warning PyTorch raises in its own file (torch/optim/lr_scheduler.py:138), placed\n"
    "    # there, named by that file's absolute path and shown with its source line, with that\n"
    "    # module's registry: the default filter shows it once per run, as PyTorch\n"
    "    _lines[(_TORCH_SITE + filename, lineno)] = _TORCH_LINES.get((filename, lineno), '')\n"
    "    filename = _TORCH_SITE + filename\n"
    "    registry = _registries.get(module)\n"
    "    if registry is None:\n"
    "        registry = _registries[module] = {}\n"
    "    warn_explicit(message, category, filename, lineno, module, registry)\n"
    "\n"
    "\n"
    "def _matches(pattern, text):\n"
    "    # a str (the default filters' '__main__') matches exactly, a compiled pattern at the start\n"
    "    if isinstance(pattern, str):\n"
    "        return pattern == text\n"
    "    return pattern.match(text) is not None\n"
    "\n"
    "\n"
    "def warn_explicit(message, category, filename, lineno, module=None, registry=None, module_globals=None,\n"
    "                  source=None):\n"
    "    lineno = int(lineno)\n"
    "    if module is None:\n"
    "        module = filename or '<unknown>'\n"
    "        if module[-3:].lower() == '.py':\n"
    "            module = module[:-3]\n"
    "    if registry is None:\n"
    "        registry = {}\n"
    "    if registry.get('version', 0) != _filters_version[0]:\n"
    "        registry.clear()\n"
    "        registry['version'] = _filters_version[0]\n"
    "    if isinstance(message, Warning):\n"
    "        text = str(message)\n"
    "        category = message.__class__\n"
    "    else:\n"
    "        text = message\n"
    "        message = category(message)\n"
    "    key = (text, category, lineno)\n"
    "    if registry.get(key):\n"
    "        return\n"
    "    m = _module()\n"
    "    for item in m.filters:\n"
    "        action, msg, cat, mod, ln = item\n"
    "        if ((msg is None or _matches(msg, text)) and issubclass(category, cat)\n"
    "                and (mod is None or _matches(mod, module)) and (ln == 0 or lineno == ln)):\n"
    "            break\n"
    "    else:\n"
    "        action = m.defaultaction\n"
    "    if action == 'ignore':\n"
    "        return\n"
    "    if action == 'error':\n"
    "        raise message\n"
    "    if action == 'once':\n"
    "        registry[key] = 1\n"
    "        oncekey = (text, category)\n"
    "        if m.onceregistry.get(oncekey):\n"
    "            return\n"
    "        m.onceregistry[oncekey] = 1\n"
    "    elif action == 'module':\n"
    "        registry[key] = 1\n"
    "        altkey = (text, category, 0)\n"
    "        if registry.get(altkey):\n"
    "            return\n"
    "        registry[altkey] = 1\n"
    "    elif action == 'default':\n"
    "        registry[key] = 1\n"
    "    elif action != 'always':\n"
    "        raise RuntimeError('Unrecognized action (%r) in warnings.filters:\\n %s' % (action, item))\n"
    "    _showwarnmsg(WarningMessage(message, category, filename, lineno, None, None, source))\n"
    "\n"
    "\n"
    "class catch_warnings:\n"
    "    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):\n"
    "        self._record = record\n"
    "        self._entered = False\n"
    "        self._filter = None if action is None else (action, category, lineno, append)\n"
    "\n"
    "    def __repr__(self):\n"
    "        return '%s(record=%s)' % (type(self).__name__, 'True' if self._record else 'False')\n"
    "\n"
    "    def __enter__(self):\n"
    "        module = _module()\n"
    "        if self._entered:\n"
    "            raise RuntimeError('Cannot enter %r twice' % self)\n"
    "        self._entered = True\n"
    "        self._filters = module.filters\n"
    "        module.filters = self._filters[:]\n"
    "        _filters_mutated()\n"
    "        self._showwarning = module.showwarning\n"
    "        self._showwarnmsg_impl = module._showwarnmsg_impl\n"
    "        if self._filter is not None:\n"
    "            simplefilter(*self._filter)\n"
    "        if self._record:\n"
    "            log = []\n"
    "            module._showwarnmsg_impl = log.append\n"
    "            module.showwarning = _showwarning_orig\n"
    "            return log\n"
    "        return None\n"
    "\n"
    "    def __exit__(self, *exc_info):\n"
    "        module = _module()\n"
    "        if not self._entered:\n"
    "            raise RuntimeError('Cannot exit %r without entering first' % self)\n"
    "        module.filters = self._filters\n"
    "        _filters_mutated()\n"
    "        module.showwarning = self._showwarning\n"
    "        module._showwarnmsg_impl = self._showwarnmsg_impl\n";
/* source: end */

nn_object *repl_mod_warnings(void)
{
    return repl_mod_from_source("warnings", helpers, sizeof helpers / sizeof *helpers, source);
}

/* core's warnings: warnings.warn(message, category) at the line running now. An
   error already set (a warning about a failure) is kept across the call. */
static int core_warning(const char *category, const char *message)
{
    if (!repl_current) {
        fprintf(stderr, "%s: %s\n", category, message);
        return 0;
    }
    nn_object *saved = nn_error_current() != NN_OK ? repl_take_exception() : NULL;
    nn_object *cls = repl_nmap_get(&repl_current->builtins, category);
    nn_object *module = cls ? repl_stdlib_module("warnings") : NULL;
    nn_object *warn = module ? repl_get_attr(module, "warn") : NULL;
    nn_object *text = warn ? nn_str_new(message) : NULL;
    nn_object *r = text ? repl_call_object(warn, (nn_object *[]){text, cls}, 2, NULL) : NULL;
    int rc = r ? 0 : -1;
    if (!cls) rc = repl_raise_exc(EXC_RuntimeError, "unknown warning category %s", category);
    NN_RELEASE(r), NN_RELEASE(text), NN_RELEASE(warn), NN_RELEASE(module);
    if (saved) {
        if (rc == 0) repl_raise_object(saved); /* the failure the warning was about goes on */
        NN_RELEASE(saved);
    }
    return rc;
}

/* core's warnings placed in PyTorch's own file (nn_warn_at): warnings._warn_from, so
   the default filter shows each once per run, as PyTorch's. */
static int placed_warning(const char *category, const char *message, const nn_warn_place *place)
{
    if (!repl_current) return core_warning(category, message);
    nn_object *saved = nn_error_current() != NN_OK ? repl_take_exception() : NULL;
    nn_object *cls = repl_nmap_get(&repl_current->builtins, category);
    nn_object *module = cls ? repl_stdlib_module("warnings") : NULL;
    nn_object *fn = module ? repl_get_attr(module, "_warn_from") : NULL;
    nn_object *text = fn ? nn_str_new(message) : NULL, *mod = text ? nn_str_new(place->module) : NULL;
    nn_object *file = mod ? nn_str_new(place->file) : NULL, *line = file ? nn_int_new(place->line) : NULL;
    nn_object *r = line ? repl_call_object(fn, (nn_object *[]){text, cls, mod, file, line}, 5, NULL) : NULL;
    int rc = r ? 0 : -1;
    if (!cls) rc = repl_raise_exc(EXC_RuntimeError, "unknown warning category %s", category);
    NN_RELEASE(r), NN_RELEASE(line), NN_RELEASE(file), NN_RELEASE(mod), NN_RELEASE(text), NN_RELEASE(fn);
    NN_RELEASE(module);
    if (saved) {
        if (rc == 0) repl_raise_object(saved); /* the failure the warning was about goes on */
        NN_RELEASE(saved);
    }
    return rc;
}

void repl_warnings_install(void)
{
    nn_set_warning_handler(core_warning);
    nn_set_placed_warning_handler(placed_warning);
}
