/*
 * mod_traceback.c — the module traceback, the part of CPython 3.11's
 * Lib/traceback.py that scripts call: print_exc / format_exc (the exception an
 * except block is handling), print_exception / format_exception /
 * format_exception_only (an exception object, or the old (type, value, tb)
 * form), print_tb / format_tb (a traceback object), print_stack / format_stack
 * (the frames running now). The text is the evaluator's own traceback text
 * (chained exceptions, source lines and ^^^ lines as an uncaught exception
 * prints them). Written in the language over five C helpers. Not here:
 * limit=, the FrameSummary / StackSummary / TracebackException classes,
 * extract_tb / extract_stack, walk_tb.
 */
#include <string.h>

#include "stdlib_int.h"

/* A str of b's text (b finished); NULL with MemoryError. */
static nn_object *str_of(sbuf *b)
{
    char *s = repl_sb_finish(b);
    nn_object *r = s ? nn_str_new(s) : NULL;
    nn_free(s);
    return r;
}

/* _handling(): the exception an except block is handling now, or None. */
static nn_object *tb_handling(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_handling", args, kwargs, 0, 0) < 0) return NULL;
    nn_object *h = repl_current->handling;
    return nn_retain(h ? h : nn_none());
}

/* _format(exc, chain): the whole text print_exception writes for exc, as a str. */
static nn_object *tb_format(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_format", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *exc = nn_tuple_get(args, 0);
    int chain = repl_truth(nn_tuple_get(args, 1));
    if (chain < 0) return NULL;
    if (!repl_is_exception(exc)) {
        repl_raise_exc(EXC_TypeError, "format_exception() expects an exception, not '%s'", repl_value_type_name(exc));
        return NULL;
    }
    sbuf b = {0};
    repl_exc_format_caught(&b, exc, chain);
    repl_sb_puts(&b, "\n");
    return str_of(&b);
}

/* _exc_line(exc): the exception's last line ("ValueError: bad"), with its line end. */
static nn_object *tb_exc_line(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_exc_line", args, kwargs, 1, 1) < 0) return NULL;
    sbuf b = {0};
    repl_tb_format_exc_line(&b, nn_tuple_get(args, 0));
    repl_sb_puts(&b, "\n");
    return str_of(&b);
}

/* _format_tb(tb): the entries of a traceback object (None: ''), outermost first, without a header. */
static nn_object *tb_format_tb(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_format_tb", args, kwargs, 1, 1) < 0) return NULL;
    nn_object *tb = nn_tuple_get(args, 0);
    if (!nn_is_none(tb) && tb->type != &repl_traceback_type) {
        repl_raise_exc(EXC_AttributeError, "'%s' object has no attribute 'tb_frame'", repl_value_type_name(tb));
        return NULL;
    }
    sbuf b = {0};
    if (!nn_is_none(tb)) repl_tb_format_object(&b, tb);
    return str_of(&b);
}

/* _stack(): the frames running now, outermost first, without a header; the
   frames of this module (and of the other modules written in the language) left out. */
static nn_object *tb_stack(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_stack", args, kwargs, 0, 0) < 0) return NULL;
    tb_entry *frames = NULL;
    int n = 0;
    if (repl_debug_frames(repl_current, true, &frames, &n) < 0) return NULL;
    tb_entry *keep = n ? nn_calloc((size_t)n, sizeof *keep) : NULL;
    int k = 0;
    for (int i = 0; keep && i < n; i++) {
        const char *source = NULL, *filename = NULL;
        repl_code_unit_text(frames[i].unit, &source, &filename);
        if (filename && strncmp(filename, "<frozen ", 8) == 0) continue;
        keep[k] = frames[i]; /* borrowed from frames */
        keep[k].col = keep[k].anchor_l = keep[k].anchor_r = -1; /* no ^^^ line: the call's column is not known */
        k++;
    }
    sbuf b = {0};
    if (k) repl_tb_format_entries(&b, keep, k);
    nn_free(keep);
    repl_tb_entries_free(frames, n);
    if (n && !keep) {
        nn_free(repl_sb_finish(&b));
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    char *s = repl_sb_finish(&b);
    /* without repl_tb_format_entries' header line */
    const char *body = s && k ? strchr(s, '\n') + 1 : "";
    nn_object *r = s ? nn_str_new(body) : NULL;
    nn_free(s);
    return r;
}

static const repl_mod_fn helpers[] = {
    {"_handling", tb_handling, NULL},
    {"_format", tb_format, NULL},
    {"_format_tb", tb_format_tb, NULL},
    {"_exc_line", tb_exc_line, NULL},
    {"_stack", tb_stack, NULL},
};

/* source: begin */
static const char source[] =
    "import sys\n"
    "\n"
    "_sentinel = object()\n"
    "\n"
    "def _entries(text):\n"
    "    # one string per header, frame (its File line and the lines under it) and exception line\n"
    "    out = []\n"
    "    for line in text.splitlines(True):\n"
    "        if line.startswith('    ') and out and out[-1].startswith('  File '):\n"
    "            out[-1] = out[-1] + line\n"
    "        else:\n"
    "            out.append(line)\n"
    "    return out\n"
    "\n"
    "def _exception(exc, value):\n"
    "    if value is not _sentinel:\n"
    "        return value\n"
    "    return exc\n"
    "\n"
    "def format_exception_only(exc, /, value=_sentinel):\n"
    "    exc = _exception(exc, value)\n"
    "    if exc is None:\n"
    "        return ['NoneType: None\\n']\n"
    "    return [_exc_line(exc)]\n"
    "\n"
    "def format_exception(exc, /, value=_sentinel, tb=_sentinel, limit=None, chain=True):\n"
    "    exc = _exception(exc, value)\n"
    "    if exc is None:\n"
    "        return ['NoneType: None\\n']\n"
    "    return _entries(_format(exc, chain))\n"
    "\n"
    "def print_exception(exc, /, value=_sentinel, tb=_sentinel, limit=None, file=None, chain=True):\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    for line in format_exception(exc, value, tb, limit=limit, chain=chain):\n"
    "        print(line, file=file, end='')\n"
    "\n"
    "def format_exc(limit=None, chain=True):\n"
    "    return ''.join(format_exception(_handling(), limit=limit, chain=chain))\n"
    "\n"
    "def print_exc(limit=None, file=None, chain=True):\n"
    "    print_exception(_handling(), limit=limit, file=file, chain=chain)\n"
    "\n"
    "def format_tb(tb, limit=None):\n"
    "    return _entries(_format_tb(tb))\n"
    "\n"
    "def print_tb(tb, limit=None, file=None):\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    print(_format_tb(tb), file=file, end='')\n"
    "\n"
    "def format_stack(f=None, limit=None):\n"
    "    return _entries(_stack())\n"
    "\n"
    "def print_stack(f=None, limit=None, file=None):\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    print(_stack(), file=file, end='')\n";
/* source: end */

nn_object *repl_mod_traceback(void)
{
    return repl_mod_from_source("traceback", helpers, sizeof helpers / sizeof *helpers, source);
}
