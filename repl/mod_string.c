/*
 * mod_string.c — the module string: its character-class constants as
 * CPython's (ascii_letters, digits, punctuation, whitespace, printable, ...)
 * capwords and Template (written in the language, over re). Not here: Formatter.
 */
#include <ctype.h>
#include <string.h>

#include "stdlib_int.h"

#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define UPPER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define DIGITS "0123456789"
#define PUNCT "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
#define WHITE " \t\n\r\x0b\x0c"

static const struct {
    const char *name, *value;
} constants[] = {
    {"ascii_lowercase", LOWER},
    {"ascii_uppercase", UPPER},
    {"ascii_letters", LOWER UPPER},
    {"digits", DIGITS},
    {"hexdigits", DIGITS "abcdefABCDEF"},
    {"octdigits", "01234567"},
    {"punctuation", PUNCT},
    {"whitespace", WHITE},
    {"printable", DIGITS LOWER UPPER PUNCT WHITE},
};

/* capwords(s, sep=None): s.split(sep), each word capitalized, joined by sep or ' '. */
static nn_object *s_capwords(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"s", "sep", NULL};
    if (repl_mod_kwargs_only("capwords", kwargs, names) < 0) return NULL;
    size_t n = nn_tuple_len(args);
    nn_object *s = n > 0 ? nn_tuple_get(args, 0) : repl_mod_kwarg(kwargs, "s");
    nn_object *sep = n > 1 ? nn_tuple_get(args, 1) : repl_mod_kwarg(kwargs, "sep");
    if (n > 2) {
        repl_raise_exc(EXC_TypeError, "capwords() takes from 1 to 2 positional arguments but %zu were given", n);
        return NULL;
    }
    if (!s) {
        repl_raise_exc(EXC_TypeError, "capwords() missing 1 required positional argument: 's'");
        return NULL;
    }
    if (sep && nn_is_none(sep)) sep = NULL;
    nn_object *words = repl_call_method(s, "split", sep ? &sep : NULL, sep ? 1 : 0);
    if (!words) return NULL;
    nn_object *caps = nn_list_new(0);
    for (size_t i = 0; caps && i < nn_list_len(words); i++) {
        nn_object *c = repl_call_method(nn_list_get(words, i), "capitalize", NULL, 0);
        if (!c || nn_list_append(caps, c) < 0) NN_SET(caps, NULL);
        NN_RELEASE(c);
    }
    NN_RELEASE(words);
    if (!caps) return NULL;
    nn_object *joiner = sep ? nn_retain(sep) : nn_str_new(" ");
    nn_object *r = joiner ? repl_call_method(joiner, "join", &caps, 1) : NULL;
    NN_RELEASE(joiner);
    NN_RELEASE(caps);
    return r;
}

static const repl_mod_fn string_functions[] = {
    {"capwords", s_capwords, "capwords(s, sep=None)\nSplit s into words with str.split, capitalize each and join them with sep (a space by default)."},
};

/* source: begin */
static const char source[] =
    "# string.Template over re: $name, ${name}, $$, substitute and safe_substitute\n"
    "\n"
    "\n"
    "def _merged(mapping, kws):\n"
    "    if mapping is None:\n"
    "        return kws\n"
    "    if not kws:\n"
    "        return mapping\n"
    "    merged = dict(mapping)\n"
    "    merged.update(kws)\n"
    "    return merged\n"
    "\n"
    "\n"
    "class Template:\n"
    "    delimiter = '$'\n"
    "    idpattern = '[_a-zA-Z][_a-zA-Z0-9]*'\n"
    "    braceidpattern = None\n"
    "    flags = None\n"
    "\n"
    "    def __init__(self, template):\n"
    "        self.template = template\n"
    "        cls = type(self)\n"
    "        import re as _re\n"
    "        delim = _re.escape(cls.delimiter)\n"
    "        ident = cls.idpattern\n"
    "        bident = cls.braceidpattern or ident\n"
    "        self._pattern = _re.compile(delim + '(?:(?P<escaped>' + delim + ')|(?P<named>' + ident + ')|{(?P<braced>' +\n"
    "                                    bident + ')}|(?P<invalid>))', (cls.flags or 0) | _re.VERBOSE)\n"
    "\n"
    "    def _invalid(self, mo):\n"
    "        i = mo.start('invalid')\n"
    "        lines = self.template[:i].splitlines(keepends=True)\n"
    "        if not lines:\n"
    "            colno, lineno = 1, 1\n"
    "        else:\n"
    "            colno = i - len(''.join(lines[:-1]))\n"
    "            lineno = len(lines)\n"
    "        raise ValueError('Invalid placeholder in string: line %d, col %d' % (lineno, colno))\n"
    "\n"
    "    def substitute(self, mapping=None, /, **kws):\n"
    "        mapping = _merged(mapping, kws)\n"
    "\n"
    "        def convert(mo):\n"
    "            named = mo.group('named') or mo.group('braced')\n"
    "            if named is not None:\n"
    "                return str(mapping[named])\n"
    "            if mo.group('escaped') is not None:\n"
    "                return self.delimiter\n"
    "            if mo.group('invalid') is not None:\n"
    "                self._invalid(mo)\n"
    "            raise ValueError('Unrecognized named group in pattern', self._pattern)\n"
    "        return self._pattern.sub(convert, self.template)\n"
    "\n"
    "    def safe_substitute(self, mapping=None, /, **kws):\n"
    "        mapping = _merged(mapping, kws)\n"
    "\n"
    "        def convert(mo):\n"
    "            named = mo.group('named') or mo.group('braced')\n"
    "            if named is not None:\n"
    "                try:\n"
    "                    return str(mapping[named])\n"
    "                except KeyError:\n"
    "                    return mo.group()\n"
    "            if mo.group('escaped') is not None:\n"
    "                return self.delimiter\n"
    "            if mo.group('invalid') is not None:\n"
    "                return mo.group()\n"
    "            raise ValueError('Unrecognized named group in pattern', self._pattern)\n"
    "        return self._pattern.sub(convert, self.template)\n"
    "\n"
    "    def is_valid(self):\n"
    "        for mo in self._pattern.finditer(self.template):\n"
    "            if mo.group('invalid') is not None:\n"
    "                return False\n"
    "            if mo.group('named') is None and mo.group('braced') is None and mo.group('escaped') is None:\n"
    "                raise ValueError('Unrecognized named group in pattern', self._pattern)\n"
    "        return True\n"
    "\n"
    "    def get_identifiers(self):\n"
    "        ids = []\n"
    "        for mo in self._pattern.finditer(self.template):\n"
    "            named = mo.group('named') or mo.group('braced')\n"
    "            if named is not None and named not in ids:\n"
    "                ids.append(named)\n"
    "        return ids\n";
/* source: end */

nn_object *repl_mod_string(void)
{
    nn_object *m = repl_mod_from_source("string", string_functions, 1, source);
    if (!m) return NULL;
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        if (repl_mod_set(m, constants[i].name, nn_str_new(constants[i].value)) < 0) {
            NN_RELEASE(m);
            return NULL;
        }
    return m;
}
