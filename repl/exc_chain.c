/*
 * exc_chain.c — exception chaining as CPython 3.11 has it: traceback objects
 * (an exception's __traceback__, with tb_next and tb_lineno), `raise X from Y`
 * (__cause__, __suppress_context__), the implicit __context__ of an exception
 * raised while another is handled, with_traceback(), and the text of an
 * uncaught chain: the earlier exceptions' tracebacks first, each followed by
 * "The above exception was the direct cause of the following exception:" or
 * "During handling of the above exception, another exception occurred:".
 *
 * The evaluator (eval.c) collects a raise's entries in in->tb, innermost first.
 * When a try statement catches an exception (or a finally block or a with
 * statement's __exit__ runs because of one), those entries move into the
 * exception's __traceback__; raising it again puts them back first, so that a
 * `raise e` adds its frames after them, as CPython's traceback grows.
 */
#include <string.h>

#include "eval_int.h"

/* One traceback entry; tb_next goes one frame further in (NULL at the innermost). */
typedef struct tb_obj {
    nn_object ob;
    tb_entry e;       /* owned: its unit, name and scope */
    nn_object *next;  /* owned, or NULL */
} tb_obj;

static void tb_clear_slot(nn_object *self)
{
    tb_obj *t = (tb_obj *)self;
    NN_SET(t->next, NULL);
    NN_SET(t->e.sc, NULL);
}

static void tb_dealloc(nn_object *self)
{
    tb_obj *t = (tb_obj *)self;
    /* a chain of thousands of frames is freed one link at a time, without recursion */
    nn_object *next = t->next;
    repl_tb_entry_release(&t->e);
    nn_free(t);
    while (next && next->refcount == 1) {
        tb_obj *n = (tb_obj *)next;
        next = n->next;
        n->next = NULL;
        nn_release(&n->ob);
    }
    NN_RELEASE(next);
}

static void tb_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    tb_obj *t = (tb_obj *)self;
    if (t->next) visit(t->next, arg);
    if (t->e.sc) visit(t->e.sc, arg);
}

static char *tb_repr(nn_object *self)
{
    sbuf b = {0};
    repl_sb_printf(&b, "<traceback object at %p>", (void *)self);
    return repl_sb_finish(&b);
}

const nn_type repl_traceback_type = {.name = "traceback", .dealloc = tb_dealloc, .repr = tb_repr,
                                     .traverse = tb_traverse, .clear = tb_clear_slot,
                                     .getattr = repl_traceback_getattr};

nn_object *repl_traceback_getattr(nn_object *self, const char *name)
{
    tb_obj *t = (tb_obj *)self;
    if (strcmp(name, "tb_next") == 0) return nn_retain(t->next ? t->next : nn_none());
    if (strcmp(name, "tb_lineno") == 0) return nn_int_new(t->e.line);
    if (strcmp(name, "__class__") == 0) return nn_retain(&repl_class_of(self)->ob);
    repl_raise_exc(EXC_AttributeError, "'traceback' object has no attribute '%s'", name);
    return NULL;
}

/* A traceback of the n entries of a (innermost first), outermost first as a
   chain; NULL with MemoryError (or for n == 0, without an error). */
static nn_object *traceback_from(const tb_entry *a, int n)
{
    nn_object *inner = NULL;
    for (int i = 0; i < n; i++) {
        tb_obj *t = nn_calloc(1, sizeof *t);
        if (!t) {
            NN_RELEASE(inner);
            return NULL;
        }
        nn_object_init(&t->ob, &repl_traceback_type);
        repl_tb_entry_copy(&t->e, &a[i]);
        t->next = inner;
        inner = &t->ob;
        if (!t->e.name || nn_gc_track(&t->ob) < 0) {
            NN_RELEASE(inner);
            return NULL;
        }
    }
    return inner;
}

/* exc's attribute name when it is an exception instance that has it set (borrowed), else NULL. */
static nn_object *exc_attr(nn_object *exc, const char *name)
{
    if (!exc || exc->type != &repl_instance_type) return NULL;
    nn_object *v = repl_nmap_get(&((instance_obj *)exc)->attrs, name);
    return v && !nn_is_none(v) ? v : NULL;
}

static int exc_attr_set(nn_object *exc, const char *name, nn_object *v)
{
    return repl_nmap_set(&((instance_obj *)exc)->attrs, name, v);
}

void repl_exc_keep_traceback(nn_object *exc)
{
    repl_interp *in = repl_current;
    if (exc && exc->type == &repl_instance_type && in->n_tb) {
        nn_object *tb = traceback_from(in->tb, in->n_tb);
        if (!tb || exc_attr_set(exc, "__traceback__", tb) < 0) nn_error_clear(); /* a lost traceback, not a new error */
        NN_RELEASE(tb);
    }
    repl_tb_clear(in);
}

void repl_exc_seed_traceback(nn_object *exc)
{
    repl_interp *in = repl_current;
    nn_object *tb = exc_attr(exc, "__traceback__");
    if (!tb || tb->type != &repl_traceback_type || in->n_tb) return;
    int n = 0;
    for (nn_object *t = tb; t; t = ((tb_obj *)t)->next) n++;
    if (n > in->cap_tb) {
        tb_entry *a = nn_realloc(in->tb, (size_t)n * sizeof *a);
        if (!a) {
            nn_error_clear();
            return;
        }
        in->tb = a;
        in->cap_tb = n;
    }
    /* copied outermost first into in->tb[0..n_tb), the entries repl_tb_clear releases
       when a copy runs out of memory; then reversed: in->tb[0] is the innermost, as
       tb_add makes them (make sweep: written from the end, a failed copy had
       repl_tb_clear free the unwritten slots at the start, stdlib_contextlib.py) */
    for (nn_object *t = tb; t; t = ((tb_obj *)t)->next) {
        repl_tb_entry_copy(&in->tb[in->n_tb], &((tb_obj *)t)->e);
        if (!in->tb[in->n_tb++].name) { /* out of memory: the entries so far are dropped */
            repl_tb_clear(in);
            nn_error_clear();
            return;
        }
    }
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        tb_entry e = in->tb[i];
        in->tb[i] = in->tb[j];
        in->tb[j] = e;
    }
}

void repl_exc_set_context(nn_object *exc)
{
    nn_object *h = repl_current->handling;
    if (!h || h == exc || !repl_is_exception(exc) || !repl_is_exception(h)) return;
    /* a cycle through exc is cut where it would close, as CPython's _PyErr_SetObject */
    nn_object *o = h;
    for (int guard = 0; guard < 1000000; guard++) {
        nn_object *c = exc_attr(o, "__context__");
        if (!c) break;
        if (c == exc) {
            if (exc_attr_set(o, "__context__", nn_none()) < 0) nn_error_clear();
            break;
        }
        o = c;
    }
    nn_error_kind kind = nn_error_current();
    if (kind == NN_OK && exc_attr_set(exc, "__context__", h) < 0) nn_error_clear();
    else if (kind != NN_OK) {
        /* called while a core error is set (repl_take_exception builds the instance first) */
        nmap *m = &((instance_obj *)exc)->attrs;
        char *msg = nn_strdup(nn_error_message());
        nn_error_clear();
        if (repl_nmap_set(m, "__context__", h) < 0) nn_error_clear();
        if (msg) nn_error_set(kind, "%s", msg);
        nn_free(msg);
    }
}

void repl_exc_note_context(void)
{
    repl_interp *in = repl_current;
    const void *skip = in->tb_skip;
    nn_object *e = repl_take_exception();
    repl_raise_object(e);
    NN_RELEASE(e);
    in->tb_skip = skip;
}

int repl_exc_set_cause(nn_object *exc, nn_object *cause)
{
    nn_object *c = NULL;
    if (repl_is_exception_class(cause)) {
        c = repl_call_object(cause, NULL, 0, NULL);
        if (!c) return -1;
        if (!repl_is_exception(c)) {
            NN_RELEASE(c);
            return repl_raise_exc(EXC_TypeError, "calling %s should have returned an instance of BaseException, not %s",
                                  repl_value_type_name(cause), repl_value_type_name(c));
        }
    } else if (nn_is_none(cause) || repl_is_exception(cause)) {
        c = nn_retain(cause);
    } else {
        return repl_raise_exc(EXC_TypeError, "exception causes must derive from BaseException");
    }
    nn_object *t = nn_bool_new(true);
    int rc = t ? exc_attr_set(exc, "__cause__", c) : -1;
    if (rc == 0) rc = exc_attr_set(exc, "__suppress_context__", t);
    NN_RELEASE(t);
    NN_RELEASE(c);
    return rc;
}

/* A traceback object's entries, innermost first (borrowed from it; an
   nn_malloc'd array, NULL with *n 0 for None or an empty one). */
static tb_entry *tb_entries(nn_object *t, int *n)
{
    *n = 0;
    if (!t || t->type != &repl_traceback_type) return NULL;
    int ne = 0;
    for (nn_object *p = t; p; p = ((tb_obj *)p)->next) ne++;
    tb_entry *entries = nn_calloc((size_t)ne, sizeof *entries);
    int k = ne;
    for (nn_object *p = t; entries && p; p = ((tb_obj *)p)->next) entries[--k] = ((tb_obj *)p)->e; /* borrowed */
    if (entries) *n = ne;
    return entries;
}

/* exc's __traceback__ as entries (as tb_entries). */
static tb_entry *tb_entries_of(nn_object *exc, int *n)
{
    nn_object *t = exc_attr(exc, "__traceback__");
    nn_error_clear();
    return tb_entries(t, n);
}

void repl_exc_chain_format(sbuf *b, nn_object *exc, const tb_entry *tb, int n)
{
    /* the chain, newest first: each one's predecessor and the sentence between them */
    enum { MAX_CHAIN = 1000 };
    nn_object *chain[MAX_CHAIN];
    const char *why[MAX_CHAIN];
    int len = 0;
    chain[len] = exc;
    why[len++] = NULL;
    for (nn_object *cur = exc; cur && len < MAX_CHAIN;) {
        nn_object *cause = exc_attr(cur, "__cause__"), *ctx = exc_attr(cur, "__context__");
        nn_object *sup = exc_attr(cur, "__suppress_context__");
        nn_object *next = NULL;
        const char *text = NULL;
        if (cause && repl_is_exception(cause)) {
            next = cause;
            text = "\nThe above exception was the direct cause of the following exception:\n\n";
        } else if (ctx && repl_is_exception(ctx) && !(sup && repl_truth(sup) > 0)) {
            next = ctx;
            text = "\nDuring handling of the above exception, another exception occurred:\n\n";
        }
        nn_error_clear();
        for (int i = 0; next && i < len; i++)
            if (chain[i] == next) next = NULL; /* seen already: the chain ends */
        if (!next) break;
        why[len - 1] = text;
        chain[len] = next;
        why[len++] = NULL;
        cur = next;
    }
    for (int i = len - 1; i >= 1; i--) {
        int ne;
        tb_entry *entries = tb_entries_of(chain[i], &ne);
        if (ne) repl_tb_format_entries(b, entries, ne);
        nn_free(entries);
        repl_tb_format_exc_line(b, chain[i]);
        repl_sb_puts(b, "\n");
        repl_sb_puts(b, why[i - 1]);
    }
    if (n) repl_tb_format_entries(b, tb, n); /* an exception never raised has no traceback */
    repl_tb_format_exc_line(b, exc);
}

/* BaseException.with_traceback(self, tb): sets __traceback__ and returns self. */
static nn_object *exc_with_traceback(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    if (kwargs && nn_dict_len(kwargs)) {
        repl_raise_exc(EXC_TypeError, "with_traceback() takes no keyword arguments");
        return NULL;
    }
    size_t n = nn_tuple_len(args);
    if (n != 2) {
        repl_raise_exc(EXC_TypeError, "BaseException.with_traceback() takes exactly one argument (%zu given)", n ? n - 1 : 0);
        return NULL;
    }
    nn_object *self = nn_tuple_get(args, 0), *tb = nn_tuple_get(args, 1);
    if (!repl_is_exception(self)) {
        repl_raise_exc(EXC_TypeError, "descriptor 'with_traceback' requires a 'BaseException' object");
        return NULL;
    }
    if (!nn_is_none(tb) && tb->type != &repl_traceback_type) {
        repl_raise_exc(EXC_TypeError, "__traceback__ must be a traceback or None");
        return NULL;
    }
    if (exc_attr_set(self, "__traceback__", tb) < 0) return NULL;
    return nn_retain(self);
}

static const char with_traceback_doc[] =
    "with_traceback(tb)\nSet self.__traceback__ to tb and return self.";

const char *repl_exc_method_doc(const char *name)
{
    return strcmp(name, "with_traceback") == 0 ? with_traceback_doc : NULL;
}

int repl_exc_chain_init(repl_interp *in)
{
    nmap *d = &in->exc_classes[EXC_BaseException]->dict;
    nn_object *f = nn_cfunction_new("with_traceback", exc_with_traceback, NULL, NULL);
    nn_object *no = nn_bool_new(false);
    int rc = f && no ? 0 : -1;
    if (rc == 0) rc = repl_nmap_set(d, "with_traceback", f);
    if (rc == 0) rc = repl_nmap_set(d, "__cause__", nn_none());
    if (rc == 0) rc = repl_nmap_set(d, "__context__", nn_none());
    if (rc == 0) rc = repl_nmap_set(d, "__traceback__", nn_none());
    if (rc == 0) rc = repl_nmap_set(d, "__suppress_context__", no);
    NN_RELEASE(f);
    NN_RELEASE(no);
    return rc;
}

nn_object *repl_exc_info(void)
{
    nn_object *e = repl_current ? repl_current->handling : NULL;
    if (!e) return nn_tuple_pack(3, nn_none(), nn_none(), nn_none());
    nn_object *tb = repl_get_attr(e, "__traceback__");
    nn_object *t = tb ? nn_tuple_pack(3, &repl_class_of(e)->ob, e, tb) : NULL;
    NN_RELEASE(tb);
    return t;
}

char *repl_exc_format(nn_object *exc, bool chain)
{
    int n;
    tb_entry *entries = tb_entries_of(exc, &n);
    sbuf b = {0};
    if (chain) {
        repl_exc_chain_format(&b, exc, entries, n);
    } else {
        if (n) repl_tb_format_entries(&b, entries, n);
        repl_tb_format_exc_line(&b, exc);
    }
    nn_free(entries);
    return repl_sb_finish(&b);
}

char *repl_traceback_format(nn_object *tb)
{
    int n;
    tb_entry *entries = tb_entries(tb, &n);
    sbuf b = {0};
    if (n) repl_tb_format_entries(&b, entries, n);
    nn_free(entries);
    return repl_sb_finish(&b);
}
