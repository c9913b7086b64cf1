/*
 * mod_traceback.c — `import traceback`: print_exc, format_exc,
 * print_exception, format_exception, format_exception_only, print_tb,
 * format_tb, written in the language (the source below) over one C helper
 * that gives the text the interpreter prints for an uncaught exception
 * (exc_chain.c: the entries of its __traceback__, the source lines with
 * CPython 3.11's carets, the chain of causes and contexts).
 */
#include "stdlib_int.h"

/* _format(exc, chain): the traceback text of exc, ending with a newline. */
static nn_object *tb_format(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_format", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *exc = nn_tuple_get(args, 0);
    if (!repl_is_exception(exc)) {
        repl_raise_exc(EXC_TypeError, "Exception expected for value, %s found", repl_value_type_name(exc));
        return NULL;
    }
    int chain = repl_truth(nn_tuple_get(args, 1));
    if (chain < 0) return NULL;
    char *text = repl_exc_format(exc, chain);
    if (!text) return NULL;
    nn_object *s = nn_str_format("%s\n", text);
    nn_free(text);
    return s;
}

/* _format_tb(tb): a traceback object's entries, with the header line. */
static nn_object *tb_format_tb(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_format_tb", args, kwargs, 1, 1) < 0) return NULL;
    char *text = repl_traceback_format(nn_tuple_get(args, 0));
    nn_object *s = text ? nn_str_new(text) : NULL;
    nn_free(text);
    return s;
}

static const repl_mod_fn helpers[] = {
    {"_format", tb_format, "_format(exc, chain)\nThe traceback text of exc as the interpreter prints it."},
    {"_format_tb", tb_format_tb, "_format_tb(tb)\nThe entries of a traceback object as the interpreter prints them."},
};

/* source: begin */
static const char source[] =
    "# traceback, written in the language over _format (C).\n"
    "\n"
    "import sys\n"
    "\n"
    "_sentinel = object()\n"
    "\n"
    "\n"
    "def _exc_of(exc, value):\n"
    "    # the old (type, value, tb) form or the new (exc) form\n"
    "    if value is not _sentinel and value is not None:\n"
    "        return value\n"
    "    if isinstance(exc, type):\n"
    "        return None\n"
    "    return exc\n"
    "\n"
    "\n"
    "def format_exception(exc, /, value=_sentinel, tb=_sentinel, limit=None, chain=True):\n"
    "    e = _exc_of(exc, value)\n"
    "    if e is None:\n"
    "        return ['NoneType: None\\n']\n"
    "    return _chunks(_format(e, chain))\n"
    "\n"
    "\n"
    "def _chunks(text):\n"
    "    # CPython's list: one string per frame (its File line and source lines), one per other line\n"
    "    out = []\n"
    "    for line in text.splitlines(True):\n"
    "        if line.startswith('    ') and out and out[-1].startswith('  File '):\n"
    "            out[-1] += line\n"
    "        else:\n"
    "            out.append(line)\n"
    "    return out\n"
    "\n"
    "\n"
    "def format_exception_only(exc, /, value=_sentinel):\n"
    "    e = _exc_of(exc, value)\n"
    "    if e is None:\n"
    "        return ['NoneType: None\\n']\n"
    "    if isinstance(e, SyntaxError):\n"
    "        return _syntax_error_lines(e)\n"
    "    return [_format(e, False).splitlines(True)[-1]]\n"
    "\n"
    "\n"
    "def _syntax_error_lines(e):\n"
    "    # as traceback.py's TracebackException shows a SyntaxError: its place, its text\n"
    "    # (leading spaces dropped) and carets from offset to end_offset\n"
    "    cls = type(e)\n"
    "    name = cls.__qualname__\n"
    "    if cls.__module__ not in ('__main__', 'builtins'):\n"
    "        name = cls.__module__ + '.' + name\n"
    "    lines = []\n"
    "    where = ''\n"
    "    if e.lineno is not None:\n"
    "        lines.append('  File \"%s\", line %s\\n' % (e.filename or '<string>', e.lineno))\n"
    "    elif e.filename is not None:\n"
    "        where = ' (%s)' % (e.filename,)\n"
    "    if e.text is not None:\n"
    "        line = e.text.rstrip('\\n')\n"
    "        shown = line.lstrip(' \\n\\f')\n"
    "        dropped = len(line) - len(shown)\n"
    "        lines.append('    %s\\n' % shown)\n"
    "        if e.offset is not None:\n"
    "            start = e.offset\n"
    "            end = start if e.end_offset in (None, 0) else e.end_offset\n"
    "            if end == start or end == -1:\n"
    "                end = start + 1\n"
    "            start -= 1 + dropped\n"
    "            end -= 1 + dropped\n"
    "            if start >= 0:\n"
    "                pad = ''.join(c if c.isspace() else ' ' for c in shown[:start])\n"
    "                lines.append('    %s%s\\n' % (pad, '^' * (end - start)))\n"
    "    lines.append('%s: %s%s\\n' % (name, e.msg or '<no detail available>', where))\n"
    "    return lines\n"
    "\n"
    "\n"
    "def print_exception(exc, /, value=_sentinel, tb=_sentinel, limit=None, file=None, chain=True):\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    file.write(''.join(format_exception(exc, value, tb, limit=limit, chain=chain)))\n"
    "\n"
    "\n"
    "def format_exc(limit=None, chain=True):\n"
    "    return ''.join(format_exception(sys.exc_info()[1], limit=limit, chain=chain))\n"
    "\n"
    "\n"
    "def print_exc(limit=None, file=None, chain=True):\n"
    "    print_exception(sys.exc_info()[1], limit=limit, file=file, chain=chain)\n"
    "\n"
    "\n"
    "def print_last(limit=None, file=None, chain=True):\n"
    "    if not hasattr(sys, 'last_value'):\n"
    "        raise ValueError('no last exception')\n"
    "    print_exception(sys.last_value, limit=limit, file=file, chain=chain)\n"
    "\n"
    "\n"
    "def format_tb(tb, limit=None):\n"
    "    # one string per entry: its File line and its source lines\n"
    "    entries = []\n"
    "    for line in _format_tb(tb).splitlines(True)[1:]:\n"
    "        if line.startswith('  File ') or not entries:\n"
    "            entries.append(line)\n"
    "        else:\n"
    "            entries[-1] += line\n"
    "    return entries\n"
    "\n"
    "\n"
    "def print_tb(tb, limit=None, file=None):\n"
    "    if file is None:\n"
    "        file = sys.stderr\n"
    "    file.write(''.join(format_tb(tb, limit)))\n";
/* source: end */

nn_object *repl_mod_traceback(void)
{
    return repl_mod_from_source("traceback", helpers, sizeof helpers / sizeof *helpers, source);
}
