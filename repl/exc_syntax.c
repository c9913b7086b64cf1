/*
 * exc_syntax.c — SyntaxError's fields as CPython 3.11 keeps them (issue 22):
 * SyntaxError(msg, (filename, lineno, offset, text[, end_lineno, end_offset]))
 * sets msg, filename, lineno, offset, text, end_lineno and end_offset (None
 * when not given, as is print_file_and_line); str(e) is "msg (file, line N)"
 * with the file's base name; an uncaught one prints CPython's
 * `File "...", line N` / text / caret block before "SyntaxError: msg"
 * (pythonrun.c's print_exception_file_and_line and print_error_text).
 */
#include <stdint.h>
#include <string.h>

#include "eval_int.h"

static const char *const fields[] = {"filename", "lineno", "offset", "text", "end_lineno", "end_offset"};

int repl_syntax_error_class_init(repl_interp *in)
{
    nmap *d = &in->exc_classes[EXC_SyntaxError]->dict;
    int rc = repl_nmap_set(d, "msg", nn_none());
    for (size_t i = 0; rc == 0 && i < sizeof fields / sizeof *fields; i++) rc = repl_nmap_set(d, fields[i], nn_none());
    if (rc == 0) rc = repl_nmap_set(d, "print_file_and_line", nn_none());
    return rc;
}

bool repl_is_syntax_error(const nn_object *exc)
{
    return exc && exc->type == &repl_instance_type &&
           repl_class_is_subclass(((const instance_obj *)exc)->cls, repl_current->exc_classes[EXC_SyntaxError]);
}

bool repl_syntax_error_field(const char *name)
{
    if (strcmp(name, "msg") == 0 || strcmp(name, "print_file_and_line") == 0) return true;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(name, fields[i]) == 0) return true;
    return false;
}

int repl_syntax_error_init(nn_object *exc)
{
    nmap *attrs = &((instance_obj *)exc)->attrs;
    nn_object *args = repl_nmap_get(attrs, "args");
    size_t n = args && args->type == &nn_tuple_type ? nn_tuple_len(args) : 0;
    if (n >= 1 && repl_nmap_set(attrs, "msg", nn_tuple_get(args, 0)) < 0) return -1;
    if (n != 2) return 0;
    nn_object *info = repl_to_list(nn_tuple_get(args, 1)); /* any iterable, as CPython's PySequence_Tuple */
    if (!info) return -1;
    size_t k = nn_list_len(info);
    int rc = 0;
    if (k < 4 || k > 6)
        rc = repl_raise_exc(EXC_TypeError, "function takes %s %d arguments (%zu given)", k < 4 ? "at least" : "at most",
                            k < 4 ? 4 : 6, k);
    else if (k == 5)
        rc = repl_raise_exc(EXC_TypeError, "end_offset must be provided when end_lineno is provided");
    for (size_t i = 0; rc == 0 && i < k; i++) rc = repl_nmap_set(attrs, fields[i], nn_list_get(info, i));
    NN_RELEASE(info);
    return rc;
}

/* exc.name (its own, else the class's), borrowed; None when there is none */
static nn_object *field(nn_object *exc, const char *name)
{
    nn_object *v = repl_nmap_get(&((instance_obj *)exc)->attrs, name);
    if (!v) v = repl_class_lookup(((instance_obj *)exc)->cls, name);
    return v ? v : nn_none();
}

char *repl_syntax_error_str(nn_object *exc)
{
    nn_object *msg = field(exc, "msg"), *file = field(exc, "filename"), *line = field(exc, "lineno");
    bool have_file = nn_is_str(file), have_line = line->type == &nn_int_type;
    if (!have_file && !have_line) return repl_obj_str(msg);
    char *text = repl_obj_str(msg);
    if (!text) return NULL;
    sbuf b = {0};
    repl_sb_puts(&b, text);
    nn_free(text);
    const char *base = have_file ? strrchr(nn_str_cstr(file), '/') : NULL;
    base = base ? base + 1 : have_file ? nn_str_cstr(file) : NULL;
    if (have_file && have_line) repl_sb_printf(&b, " (%s, line %lld)", base, (long long)nn_int_value(line));
    else if (have_file) repl_sb_printf(&b, " (%s)", base);
    else repl_sb_printf(&b, " (line %lld)", (long long)nn_int_value(line));
    return repl_sb_finish(&b);
}

/* an int field as CPython's parse_syntax_error reads it: None gives dflt */
static bool int_field(nn_object *exc, const char *name, int64_t dflt, int64_t *out)
{
    nn_object *v = field(exc, name);
    if (nn_is_none(v)) {
        *out = dflt;
        return true;
    }
    if (v->type != &nn_int_type && v->type != &nn_bool_type) return false;
    *out = nn_int_value(v);
    return true;
}

/* The text with one caret line under offset..end_offset (1-based, in bytes of
   the text), as CPython's print_error_text draws it. */
static void error_text(sbuf *b, int64_t offset, int64_t end_offset, const char *text)
{
    int64_t carets = end_offset > 0 && end_offset > offset ? end_offset - offset : 1;
    offset--;
    for (; *text == ' ' || *text == '\t' || *text == '\f'; text++) offset--;
    int64_t len = (int64_t)strlen(text);
    if (len > 0 && text[len - 1] == '\n') len--;
    if (offset > len) offset = len;
    for (const char *nl; (nl = strchr(text, '\n')) && nl - text < offset;) { /* the line of the offset */
        int64_t skip = nl - text + 1;
        text += skip, len -= skip, offset -= skip;
    }
    repl_sb_printf(b, "    %s", text);
    if (text[len] != '\n') repl_sb_puts(b, "\n");
    if (offset < 0) return;
    repl_sb_printf(b, "    %*s", (int)offset, "");
    for (int64_t i = 0; i < carets; i++) repl_sb_puts(b, "^"); /* at most the text's length */
    repl_sb_puts(b, "\n");
}

nn_object *repl_syntax_error_block(sbuf *b, nn_object *exc)
{
    if (exc->type != &repl_instance_type) return NULL;
    instance_obj *o = (instance_obj *)exc;
    if (!repl_is_syntax_error(exc) && !repl_nmap_get(&o->attrs, "print_file_and_line")) return NULL;
    nn_object *file = field(exc, "filename"), *text = field(exc, "text");
    nn_object *lineno = field(exc, "lineno");
    int64_t line, offset, end_line, end_offset;
    if (nn_is_none(lineno) || !int_field(exc, "lineno", 0, &line) || !int_field(exc, "offset", -1, &offset)) return NULL;
    if (o->cls == repl_current->exc_classes[EXC_SyntaxError]) {
        if (!int_field(exc, "end_lineno", line, &end_line) || !int_field(exc, "end_offset", -1, &end_offset)) return NULL;
    } else { /* its subclasses: one caret */
        end_line = line, end_offset = -1;
    }
    char *name = nn_is_none(file) ? nn_strdup("<string>") : repl_obj_str(file);
    if (!name) return NULL;
    repl_sb_printf(b, "  File \"%s\", line %lld\n", name, (long long)line);
    nn_free(name);
    if (nn_is_str(text)) {
        int64_t size = (int64_t)nn_str_len(text);
        if (end_line > line) end_offset = size; /* a range over lines: to the end of the first */
        if (end_offset > size + 1) end_offset = size + 1;
        error_text(b, offset, end_offset, nn_str_cstr(text));
    }
    return field(exc, "msg");
}
