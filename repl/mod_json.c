/*
 * mod_json.c — `import json`: dumps/dump/loads/load, JSONEncoder/JSONDecoder
 * and JSONDecodeError (a ValueError), written in the language (the source
 * below) over two C helpers:
 *   _encode(obj, indent, item_sep, key_sep, sort_keys, skipkeys, ensure_ascii,
 *           allow_nan, default): CPython's exact text (float repr, \uXXXX
 *           escapes, indent and separators, key coercion, its errors);
 *   _decode(s, idx, hooks..., strict): the scanner of mod_json_scan.c, as
 *           CPython's (NaN and Infinity, integers of any size, its messages
 *           and positions). Jansson, used before, could do neither.
 */
#include <math.h>
#include <string.h>

#include "bigint.h"
#include "stdlib_int.h"

/* ------------------------------------------------------------ encoding */

typedef struct enc {
    sbuf b;
    nn_object *indent; /* str or None */
    const char *item_sep, *key_sep;
    bool sort_keys, skipkeys, ensure_ascii, allow_nan;
    nn_object *deflt;  /* callable */
    nn_object *stack;  /* list of the containers being encoded (check_circular) */
    int level;
} enc;

/* The next code point of UTF-8 text s[*i..n) (a bad byte stands for itself). */
static uint32_t utf8_next(const unsigned char *s, size_t n, size_t *i)
{
    uint32_t c = s[(*i)++];
    int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (c >= 0x80) c &= 0x3f >> more;
    for (; more && *i < n && (s[*i] & 0xc0) == 0x80; more--) c = c << 6 | (s[(*i)++] & 0x3f);
    return c;
}

static void enc_string(enc *e, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    repl_sb_add(&e->b, "\"", 1);
    for (size_t i = 0; i < n;) {
        size_t start = i;
        uint32_t c = utf8_next(s, n, &i);
        switch (c) {
        case '"': repl_sb_puts(&e->b, "\\\""); continue;
        case '\\': repl_sb_puts(&e->b, "\\\\"); continue;
        case '\n': repl_sb_puts(&e->b, "\\n"); continue;
        case '\r': repl_sb_puts(&e->b, "\\r"); continue;
        case '\t': repl_sb_puts(&e->b, "\\t"); continue;
        case '\b': repl_sb_puts(&e->b, "\\b"); continue;
        case '\f': repl_sb_puts(&e->b, "\\f"); continue;
        default: break;
        }
        if (c < 0x20 || (e->ensure_ascii && c > 0x7e)) {
            if (c > 0xffff) {
                c -= 0x10000;
                repl_sb_printf(&e->b, "\\u%04x\\u%04x", 0xd800 | (c >> 10), 0xdc00 | (c & 0x3ff));
            } else {
                repl_sb_printf(&e->b, "\\u%04x", c);
            }
        } else {
            repl_sb_add(&e->b, str + start, i - start);
        }
    }
    repl_sb_add(&e->b, "\"", 1);
}

static int enc_float(enc *e, double v)
{
    if (isnan(v) || isinf(v)) {
        if (!e->allow_nan) return repl_raise_exc(EXC_ValueError, "Out of range float values are not JSON compliant");
        repl_sb_puts(&e->b, isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        return 0;
    }
    nn_object *f = nn_float_new(v);
    char *r = f ? repl_obj_repr(f) : NULL;
    NN_RELEASE(f);
    if (!r) return -1;
    repl_sb_take(&e->b, r);
    return 0;
}

static void enc_newline(enc *e)
{
    repl_sb_add(&e->b, "\n", 1);
    for (int i = 0; i < e->level; i++) repl_sb_add(&e->b, nn_str_cstr(e->indent), nn_str_len(e->indent));
}

static int enc_value(enc *e, nn_object *o);

/* an integer past 64 bits: its decimal digits (str's limit on their count applies) */
static int enc_bigint(sbuf *b, nn_object *o)
{
    char *digits = nn_repr(o);
    if (!digits) return -1;
    repl_sb_puts(b, digits);
    nn_free(digits);
    return 0;
}

/* Enters container o: ValueError when it is already being encoded. */
static int enc_push(enc *e, nn_object *o)
{
    for (size_t i = 0; i < nn_list_len(e->stack); i++)
        if (nn_list_get(e->stack, i) == o) return repl_raise_exc(EXC_ValueError, "Circular reference detected");
    if (nn_recursion_enter(" while encoding a JSON object") < 0) return -1;
    if (nn_list_append(e->stack, o) < 0) {
        nn_recursion_leave();
        return -1;
    }
    e->level++;
    return 0;
}

static void enc_pop(enc *e, bool close_line)
{
    NN_RELEASE(nn_list_pop(e->stack, nn_list_len(e->stack) - 1));
    nn_recursion_leave();
    e->level--;
    if (close_line && !nn_is_none(e->indent)) enc_newline(e);
}

static void enc_sep(enc *e, size_t i)
{
    if (i) repl_sb_puts(&e->b, e->item_sep);
    if (!nn_is_none(e->indent)) enc_newline(e);
}

static int enc_seq(enc *e, nn_object *o)
{
    nn_object *items = repl_to_list(o);
    if (!items) return -1;
    int rc = 0;
    if (!nn_list_len(items)) {
        repl_sb_puts(&e->b, "[]");
    } else if ((rc = enc_push(e, o)) == 0) {
        repl_sb_add(&e->b, "[", 1);
        for (size_t i = 0; rc == 0 && i < nn_list_len(items); i++) {
            enc_sep(e, i);
            rc = enc_value(e, nn_list_get(items, i));
        }
        enc_pop(e, true);
        repl_sb_add(&e->b, "]", 1);
    }
    NN_RELEASE(items);
    return rc;
}

/* The key as JSON writes it (a str), NULL without error to skip it, or NULL with TypeError. */
static nn_object *enc_key(enc *e, nn_object *k)
{
    k = repl_unwrap_value(k); /* a str subclass's value */
    if (nn_is_str(k)) return nn_retain(k);
    if (nn_is_bool(k)) return nn_str_new(nn_is_true(k) ? "true" : "false");
    if (nn_is_none(k)) return nn_str_new("null");
    if (repl_is_bigint(k)) {
        sbuf sub = {0};
        char *s = enc_bigint(&sub, k) == 0 ? repl_sb_finish(&sub) : NULL;
        nn_object *r = s ? nn_str_new(s) : NULL;
        nn_free(s);
        return r;
    }
    if (nn_is_int(k) || nn_is_float(k)) {
        enc sub = {.allow_nan = true};
        if (nn_is_int(k)) repl_sb_printf(&sub.b, "%lld", (long long)nn_int_value(k));
        else enc_float(&sub, nn_float_value(k));
        char *s = repl_sb_finish(&sub.b);
        nn_object *r = s ? nn_str_new(s) : NULL;
        nn_free(s);
        return r;
    }
    if (!e->skipkeys)
        repl_raise_exc(EXC_TypeError, "keys must be str, int, float, bool or None, not %s", repl_value_type_name(k));
    return NULL;
}

static int enc_dict(enc *e, nn_object *d)
{
    if (!nn_dict_len(d)) {
        repl_sb_puts(&e->b, "{}");
        return 0;
    }
    nn_object *keys = nn_list_new(nn_dict_len(d)), *k, *v;
    size_t pos = 0;
    while (keys && nn_dict_next(d, &pos, &k, &v))
        if (nn_list_append(keys, k) < 0) NN_SET(keys, NULL);
    if (keys && e->sort_keys) {
        nn_object *sorted = repl_nmap_get(&repl_current->builtins, "sorted");
        NN_SET(keys, sorted ? repl_call_object(sorted, &keys, 1, NULL) : NULL);
    }
    if (!keys || enc_push(e, d) < 0) {
        NN_RELEASE(keys);
        return -1;
    }
    repl_sb_add(&e->b, "{", 1);
    int rc = 0;
    size_t written = 0;
    for (size_t i = 0; rc == 0 && i < nn_list_len(keys); i++) {
        k = nn_list_get(keys, i);
        nn_object *ks = enc_key(e, k);
        if (!ks) {
            if (nn_error_current()) rc = -1;
            continue;
        }
        enc_sep(e, written++);
        enc_string(e, nn_str_cstr(ks), nn_str_len(ks));
        NN_RELEASE(ks);
        repl_sb_puts(&e->b, e->key_sep);
        v = nn_dict_get(d, k);
        rc = v ? enc_value(e, v) : -1;
    }
    enc_pop(e, written > 0);
    repl_sb_add(&e->b, "}", 1);
    NN_RELEASE(keys);
    return rc;
}

/* collections' Counter and defaultdict keep their items in a dict _d
   (mod_collections.c): JSON writes them as the dict CPython's subclasses of
   dict give; namedtuples are tuple subclasses, written as their value. */
static nn_object *collections_value(nn_object *o)
{
    if (o->type != &repl_instance_type) return NULL;
    instance_obj *in = (instance_obj *)o;
    /* a subclass of dict, list, str, int, float or tuple (not np.int64, which carries an int
       without deriving from int) */
    if (in->value && in->cls->vbase) return in->value;
    if (!in->cls->module || strcmp(in->cls->module, "collections") != 0) return NULL;
    nn_object *d = repl_nmap_get(&in->attrs, "_d");
    return d && nn_is_dict(d) ? d : NULL;
}

static int enc_value(enc *e, nn_object *o)
{
    if (nn_is_none(o)) repl_sb_puts(&e->b, "null");
    else if (nn_is_bool(o)) repl_sb_puts(&e->b, nn_is_true(o) ? "true" : "false");
    else if (nn_is_int(o)) repl_sb_printf(&e->b, "%lld", (long long)nn_int_value(o));
    else if (repl_is_bigint(o)) return enc_bigint(&e->b, o);
    else if (nn_is_float(o)) return enc_float(e, nn_float_value(o));
    else if (nn_is_str(o)) enc_string(e, nn_str_cstr(o), nn_str_len(o));
    else if (nn_is_list(o) || o->type == &nn_tuple_type) return enc_seq(e, o);
    else if (nn_is_dict(o)) return enc_dict(e, o);
    else if (collections_value(o)) {
        nn_object *v = collections_value(o);
        return nn_is_dict(v) ? enc_dict(e, v) : nn_is_list(v) || v->type == &nn_tuple_type ? enc_seq(e, v) : enc_value(e, v);
    } else {
        if (enc_push(e, o) < 0) return -1;
        nn_object *r = repl_call_object(e->deflt, &o, 1, NULL);
        int rc = r ? enc_value(e, r) : -1;
        NN_RELEASE(r);
        enc_pop(e, false);
        return rc;
    }
    return 0;
}

static nn_object *json_encode(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_encode", args, kwargs, 9, 9) < 0) return NULL;
    enc e = {.indent = nn_tuple_get(args, 1)};
    nn_object *item_sep = nn_tuple_get(args, 2), *key_sep = nn_tuple_get(args, 3);
    if ((!nn_is_none(e.indent) && !nn_is_str(e.indent)) || !nn_is_str(item_sep) || !nn_is_str(key_sep)) {
        repl_raise_exc(EXC_TypeError, "indent and separators must be str");
        return NULL;
    }
    e.item_sep = nn_str_cstr(item_sep);
    e.key_sep = nn_str_cstr(key_sep);
    e.sort_keys = nn_is_true(nn_tuple_get(args, 4));
    e.skipkeys = nn_is_true(nn_tuple_get(args, 5));
    e.ensure_ascii = nn_is_true(nn_tuple_get(args, 6));
    e.allow_nan = nn_is_true(nn_tuple_get(args, 7));
    e.deflt = nn_tuple_get(args, 8);
    e.stack = nn_list_new(8);
    int rc = e.stack ? enc_value(&e, nn_tuple_get(args, 0)) : -1;
    NN_RELEASE(e.stack);
    char *s = repl_sb_finish(&e.b);
    nn_object *r = rc == 0 && s ? nn_str_from(s, e.b.len) : NULL;
    nn_free(s);
    return r;
}

/* ------------------------------------------------------------ decoding */

nn_object *repl_json_decode(void *ud, nn_object *args, nn_object *kwargs); /* mod_json_scan.c */

static const repl_mod_fn helpers[] = {
    {"_encode", json_encode, NULL},
    {"_decode", repl_json_decode, NULL},
};

/* source: begin */
static const char source[] =
    "# json, written in the language over two C helpers: _encode (CPython's output\n"
    "# format) and _decode (CPython's scanner; a failure comes back as (message,\n"
    "# position) in CPython's words and becomes a JSONDecodeError here).\n"
    "\n"
    "\n"
    "class JSONDecodeError(ValueError):\n"
    "    def __init__(self, msg, doc, pos):\n"
    "        lineno = doc.count('\\n', 0, pos) + 1\n"
    "        colno = pos - doc.rfind('\\n', 0, pos)\n"
    "        ValueError.__init__(self, '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos))\n"
    "        self.msg = msg\n"
    "        self.doc = doc\n"
    "        self.pos = pos\n"
    "        self.lineno = lineno\n"
    "        self.colno = colno\n"
    "\n"
    "\n"
    "class JSONEncoder:\n"
    "    item_separator = ', '\n"
    "    key_separator = ': '\n"
    "\n"
    "    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,\n"
    "                 sort_keys=False, indent=None, separators=None, default=None):\n"
    "        self.skipkeys = skipkeys\n"
    "        self.ensure_ascii = ensure_ascii\n"
    "        self.check_circular = check_circular\n"
    "        self.allow_nan = allow_nan\n"
    "        self.sort_keys = sort_keys\n"
    "        self.indent = indent\n"
    "        if separators is not None:\n"
    "            self.item_separator, self.key_separator = separators\n"
    "        elif indent is not None:\n"
    "            self.item_separator = ','\n"
    "        if default is not None:\n"
    "            self.default = default\n"
    "\n"
    "    def default(self, o):\n"
    "        raise TypeError('Object of type ' + type(o).__name__ + ' is not JSON serializable')\n"
    "\n"
    "    def encode(self, o):\n"
    "        indent = self.indent\n"
    "        if indent is not None and not isinstance(indent, str):\n"
    "            indent = ' ' * indent\n"
    "        return _encode(o, indent, self.item_separator, self.key_separator, bool(self.sort_keys),\n"
    "                       bool(self.skipkeys), bool(self.ensure_ascii), bool(self.allow_nan), self.default)\n"
    "\n"
    "\n"
    "_CONSTANTS = {'-Infinity': float('-inf'), 'Infinity': float('inf'), 'NaN': float('nan')}\n"
    "\n"
    "\n"
    "def _constant(name):\n"
    "    return _CONSTANTS[name]\n"
    "\n"
    "\n"
    "def _ws(s, i):\n"
    "    n = len(s)\n"
    "    while i < n and s[i] in ' \\t\\n\\r':\n"
    "        i += 1\n"
    "    return i\n"
    "\n"
    "\n"
    "class JSONDecoder:\n"
    "    def __init__(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,\n"
    "                 strict=True, object_pairs_hook=None):\n"
    "        self.object_hook = object_hook\n"
    "        self.parse_float = parse_float or float\n"
    "        self.parse_int = parse_int or int\n"
    "        self.parse_constant = parse_constant or _constant\n"
    "        self.strict = strict\n"
    "        self.object_pairs_hook = object_pairs_hook\n"
    "\n"
    "    def decode(self, s):\n"
    "        obj, end = self.raw_decode(s, idx=_ws(s, 0))\n"
    "        end = _ws(s, end)\n"
    "        if end != len(s):\n"
    "            raise JSONDecodeError('Extra data', s, end)\n"
    "        return obj\n"
    "\n"
    "    def raw_decode(self, s, idx=0):\n"
    "        pf, pi, pc = self.parse_float, self.parse_int, self.parse_constant\n"
    "        value, end, error = _decode(s, idx, self.object_hook, self.object_pairs_hook,\n"
    "                                    None if pf is float else pf, None if pi is int else pi,\n"
    "                                    None if pc is _constant else pc, bool(self.strict))\n"
    "        if error is not None:\n"
    "            raise JSONDecodeError(error[0], s, error[1])\n"
    "        return value, end\n"
    "\n"
    "\n"
    "def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,\n"
    "          indent=None, separators=None, default=None, sort_keys=False, **kw):\n"
    "    if cls is None:\n"
    "        cls = JSONEncoder\n"
    "    return cls(skipkeys=skipkeys, ensure_ascii=ensure_ascii, check_circular=check_circular,\n"
    "               allow_nan=allow_nan, indent=indent, separators=separators, default=default,\n"
    "               sort_keys=sort_keys, **kw).encode(obj)\n"
    "\n"
    "\n"
    "def dump(obj, fp, **kw):\n"
    "    fp.write(dumps(obj, **kw))\n"
    "\n"
    "\n"
    "def detect_encoding(b):\n"
    "    if b.startswith((b'\\xff\\xfe\\x00\\x00', b'\\x00\\x00\\xfe\\xff')):\n"
    "        return 'utf-32'\n"
    "    if b.startswith((b'\\xff\\xfe', b'\\xfe\\xff')):\n"
    "        return 'utf-16'\n"
    "    if b.startswith(b'\\xef\\xbb\\xbf'):\n"
    "        return 'utf-8-sig'\n"
    "    if len(b) >= 4:\n"
    "        if not b[0]:\n"
    "            return 'utf-16-be' if b[1] else 'utf-32-be'\n"
    "        if not b[1]:\n"
    "            return 'utf-16-le' if b[2] or b[3] else 'utf-32-le'\n"
    "    elif len(b) == 2:\n"
    "        if not b[0]:\n"
    "            return 'utf-16-be'\n"
    "        if not b[1]:\n"
    "            return 'utf-16-le'\n"
    "    return 'utf-8'\n"
    "\n"
    "\n"
    "def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,\n"
    "          object_pairs_hook=None, **kw):\n"
    "    if isinstance(s, (bytes, bytearray)):\n"
    "        encoding = detect_encoding(s)\n"

    "        s = s.decode(encoding, 'surrogatepass')\n"
    "    elif not isinstance(s, str):\n"
    "        raise TypeError('the JSON object must be str, bytes or bytearray, not ' + type(s).__name__)\n"
    "    elif s.startswith('\\ufeff'):\n"
    "        raise JSONDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', s, 0)\n"
    "    if cls is None:\n"
    "        cls = JSONDecoder\n"
    "    for name, value in (('object_hook', object_hook), ('object_pairs_hook', object_pairs_hook),\n"
    "                        ('parse_float', parse_float), ('parse_int', parse_int), ('parse_constant', parse_constant)):\n"
    "        if value is not None:\n"
    "            kw[name] = value\n"
    "    return cls(**kw).decode(s)\n"
    "\n"
    "\n"
    "def load(fp, **kw):\n"
    "    return loads(fp.read(), **kw)\n";
/* source: end */

nn_object *repl_mod_json(void)
{
    nn_object *m = repl_mod_from_source("json", helpers, sizeof helpers / sizeof *helpers, source);
    nn_object *e = m ? repl_nmap_get(&((module_obj *)m)->dict, "JSONDecodeError") : NULL;
    if (e && e->type == &repl_class_type) ((class_obj *)e)->module = "json.decoder";
    return m;
}
