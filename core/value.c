/*
 * value.c — the value types core's APIs exchange and the language shares:
 * str, int, float, bool, list and an insertion-ordered dict (flagged as an
 * OrderedDict where PyTorch returns one), with Python's reprs, hashing and
 * equality. Not here: the language's own types (repl/).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* --------------------------------------------------------------------- str */

typedef struct str_obj {
    nn_object ob;
    size_t len;
    int64_t hash; /* -1 until computed */
    char data[];
} str_obj;

static void plain_dealloc(nn_object *self) { nn_free(self); }

static nn_printable_fn str_printable;

void nn_set_str_printable(nn_printable_fn fn) { str_printable = fn; }

/* The code point of the UTF-8 sequence (a lone surrogate too, as the language
   keeps one) at s[i], of at most n - i bytes; its length into *len. */
static uint32_t utf8_at(const unsigned char *s, size_t n, size_t i, size_t *len)
{
    unsigned char c = s[i];
    size_t k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (k > n - i) k = n - i;
    uint32_t cp = k == 1 ? c : c & (0x7fu >> k);
    for (size_t j = 1; j < k; j++) cp = cp << 6 | (s[i + j] & 0x3fu);
    *len = k;
    return cp;
}

/* Python's repr of a str: single quotes unless the text has ' and no ". */
static char *str_repr(nn_object *self)
{
    const str_obj *s = (const str_obj *)self;
    bool has_single = memchr(s->data, '\'', s->len) != NULL, has_double = memchr(s->data, '"', s->len) != NULL;
    char quote = has_single && !has_double ? '"' : '\'';
    nn_text t = {0};
    nn_text_add(&t, &quote, 1);
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->data[i];
        char esc[8];
        if (c == (unsigned char)quote || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            nn_text_add(&t, esc, 2);
        } else if (c == '\n') nn_text_puts(&t, "\\n");
        else if (c == '\r') nn_text_puts(&t, "\\r");
        else if (c == '\t') nn_text_puts(&t, "\\t");
        else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", c);
            nn_text_puts(&t, esc);
        } else if (c >= 0x80 && str_printable) {
            size_t len;
            uint32_t cp = utf8_at((const unsigned char *)s->data, s->len, i, &len);
            if (str_printable(cp)) nn_text_add(&t, s->data + i, len);
            else {
                char wide[12];
                snprintf(wide, sizeof wide, cp <= 0xff ? "\\x%02x" : cp <= 0xffff ? "\\u%04x" : "\\U%08x", (unsigned)cp);
                nn_text_puts(&t, wide);
            }
            i += len - 1;
        } else nn_text_add(&t, (const char *)&c, 1);
    }
    nn_text_add(&t, &quote, 1);
    return nn_text_finish(&t);
}

static char *str_str(nn_object *self) { return nn_strdup(((str_obj *)self)->data); }

const nn_type nn_str_type = {.name = "str", .dealloc = plain_dealloc, .repr = str_repr, .str = str_str};

nn_object *nn_str_from(const char *s, size_t len)
{
    str_obj *o = len < SIZE_MAX - sizeof *o - 1 ? nn_malloc(sizeof *o + len + 1) : NULL;
    if (!o && len >= SIZE_MAX - sizeof *o - 1) nn_error_set(NN_ERR_MEMORY, "out of memory");
    if (!o) return NULL;
    nn_object_init(&o->ob, &nn_str_type);
    o->len = len;
    o->hash = -1;
    memcpy(o->data, s, len);
    o->data[len] = '\0';
    return &o->ob;
}

nn_object *nn_str_new(const char *s) { return nn_str_from(s, strlen(s)); }

nn_object *nn_str_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = n >= 0 ? nn_malloc((size_t)n + 1) : NULL;
    if (!buf) return NULL;
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    nn_object *s = nn_str_from(buf, (size_t)n);
    nn_free(buf);
    return s;
}

const char *nn_str_cstr(const nn_object *s) { return ((const str_obj *)s)->data; }
size_t nn_str_len(const nn_object *s) { return ((const str_obj *)s)->len; }

/* ----------------------------------------------------------- int and float */

typedef struct int_obj {
    nn_object ob;
    int64_t value;
} int_obj;

typedef struct float_obj {
    nn_object ob;
    double value;
} float_obj;

static char *int_repr(nn_object *self)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)((int_obj *)self)->value);
    return nn_strdup(buf);
}

static char *float_repr(nn_object *self)
{
    char buf[64];
    nn_format_float(((float_obj *)self)->value, buf, sizeof buf);
    return nn_strdup(buf);
}

static char *bool_repr(nn_object *self) { return nn_strdup(((int_obj *)self)->value ? "True" : "False"); }

/* Ints and floats come and go once per operation in a language loop, so they are
   cheap here as in CPython: the ints SMALL_INT_MIN..SMALL_INT_MAX are preallocated
   and immortal (nn_int_new of one allocates nothing), and freed ints and floats
   (one block size) are kept on a free list for reuse. The list is used only
   under the default allocator: a custom one (a budget, fault injection) sees
   every allocation, and nn_set_allocator flushes the list. */
#define SMALL_INT_MIN (-5)
#define SMALL_INT_MAX 256
#define FREE_NUMBERS_MAX 256

typedef union number_block {
    int_obj i;
    float_obj f;
    union number_block *next; /* while on the free list */
} number_block;

static struct {
    number_block *head;
    int len;
    bool enabled;
} free_numbers = {.enabled = true};

/* Under AddressSanitizer a block on the free list is poisoned past its link (a
   pointer in poisoned memory would hide the rest of the list from the leak
   checker), so reading a released number's type or value is still reported. */
#if defined(__SANITIZE_ADDRESS__)
#define NUMBERS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NUMBERS_ASAN 1
#endif
#endif
#ifdef NUMBERS_ASAN
#include <sanitizer/asan_interface.h>
#define LINK_SIZE sizeof(number_block *)
#define BLOCK_POISON(b) ASAN_POISON_MEMORY_REGION((char *)(b) + LINK_SIZE, sizeof(number_block) - LINK_SIZE)
#define BLOCK_UNPOISON(b) ASAN_UNPOISON_MEMORY_REGION((char *)(b) + LINK_SIZE, sizeof(number_block) - LINK_SIZE)
#else
#define BLOCK_POISON(b) ((void)(b))
#define BLOCK_UNPOISON(b) ((void)(b))
#endif

/* Immortal like None: the refcount starts high, so it never reaches 0. */
#define SMALL(i) {{1 << 30, &nn_int_type}, SMALL_INT_MIN + (i)}
#define SMALL4(i) SMALL(i), SMALL((i) + 1), SMALL((i) + 2), SMALL((i) + 3)
#define SMALL16(i) SMALL4(i), SMALL4((i) + 4), SMALL4((i) + 8), SMALL4((i) + 12)
#define SMALL64(i) SMALL16(i), SMALL16((i) + 16), SMALL16((i) + 32), SMALL16((i) + 48)
static int_obj small_ints[] = {SMALL64(0), SMALL64(64), SMALL64(128), SMALL64(192), SMALL4(256), SMALL(260), SMALL(261)};
_Static_assert(sizeof small_ints / sizeof small_ints[0] == SMALL_INT_MAX - SMALL_INT_MIN + 1, "one object per small int");

static bool is_small_int(const nn_object *o)
{
    uintptr_t p = (uintptr_t)o, first = (uintptr_t)small_ints;
    return p >= first && p < first + sizeof small_ints;
}

static number_block *number_alloc(void)
{
    number_block *b = free_numbers.head;
    if (!b) return nn_malloc(sizeof *b);
    BLOCK_UNPOISON(b);
    free_numbers.head = b->next;
    free_numbers.len--;
    return b;
}

static void number_dealloc(nn_object *self)
{
    if (is_small_int(self)) {
        self->refcount = 1 << 30; /* only a refcounting bug gets here: stay immortal */
        return;
    }
    number_block *b = (number_block *)self;
    if (!free_numbers.enabled || free_numbers.len == FREE_NUMBERS_MAX) {
        nn_free(b);
        return;
    }
    b->next = free_numbers.head;
    free_numbers.head = b;
    free_numbers.len++;
    BLOCK_POISON(b);
}

void nn_number_cache_flush(bool keep_freed)
{
    while (free_numbers.head) {
        number_block *b = free_numbers.head;
        BLOCK_UNPOISON(b);
        free_numbers.head = b->next;
        nn_free(b);
    }
    free_numbers.len = 0;
    free_numbers.enabled = keep_freed;
}

const nn_type nn_int_type = {.name = "int", .dealloc = number_dealloc, .repr = int_repr};
const nn_type nn_float_type = {.name = "float", .dealloc = number_dealloc, .repr = float_repr};
/* bool is its own type here (Python's derives from int; nn_int_value accepts both) */
const nn_type nn_bool_type = {.name = "bool", .repr = bool_repr};

static int_obj true_object = {{1 << 30, &nn_bool_type}, 1};
static int_obj false_object = {{1 << 30, &nn_bool_type}, 0};

nn_object *nn_int_new(int64_t v)
{
    if (v >= SMALL_INT_MIN && v <= SMALL_INT_MAX) return nn_retain(&small_ints[v - SMALL_INT_MIN].ob);
    number_block *b = number_alloc();
    if (!b) return NULL;
    nn_object_init(&b->i.ob, &nn_int_type);
    b->i.value = v;
    return &b->i.ob;
}

int64_t nn_int_value(const nn_object *o) { return ((const int_obj *)o)->value; }

nn_object *nn_float_new(double v)
{
    number_block *b = number_alloc();
    if (!b) return NULL;
    nn_object_init(&b->f.ob, &nn_float_type);
    b->f.value = v;
    return &b->f.ob;
}

double nn_float_value(const nn_object *o)
{
    if (o->type == &nn_float_type) return ((const float_obj *)o)->value;
    return (double)((const int_obj *)o)->value;
}

nn_object *nn_bool_new(bool v) { return nn_retain(v ? &true_object.ob : &false_object.ob); }

bool nn_is_true(const nn_object *o)
{
    if (nn_is_none(o)) return false;
    if (o->type == &nn_bool_type) return ((const int_obj *)o)->value != 0;
    return true;
}

/* -------------------------------------------------------------------- list */

typedef struct list_obj {
    nn_object ob;
    size_t len, cap;
    nn_object **items;
} list_obj;

static void list_dealloc(nn_object *self)
{
    list_obj *l = (list_obj *)self;
    for (size_t i = 0; i < l->len; i++) NN_RELEASE(l->items[i]);
    nn_free(l->items);
    nn_free(l);
}

/* The containers whose repr is being made, outermost first, so that one that
   contains itself prints as CPython's [...], {...} or ... (Py_ReprEnter). Only
   the first REPR_ACTIVE_MAX levels are tracked: a cycle is caught where it
   starts unless the nesting above it is deeper than that. */
#define REPR_ACTIVE_MAX 256
static _Thread_local const nn_object *repr_active[REPR_ACTIVE_MAX];
static _Thread_local int repr_depth;

/* True (and o is noted) unless o's repr is already being made. */
static bool repr_enter(const nn_object *o)
{
    for (int i = 0; i < repr_depth && i < REPR_ACTIVE_MAX; i++)
        if (repr_active[i] == o) return false;
    if (repr_depth < REPR_ACTIVE_MAX) repr_active[repr_depth] = o;
    repr_depth++;
    return true;
}

static void repr_leave(void) { repr_depth--; }

static char *list_repr(nn_object *self)
{
    list_obj *l = (list_obj *)self;
    if (!repr_enter(self)) return nn_strdup("[...]");
    nn_text t = {0};
    nn_text_puts(&t, "[");
    for (size_t i = 0; i < l->len; i++) {
        if (i) nn_text_puts(&t, ", ");
        nn_text_take(&t, nn_repr(l->items[i]));
    }
    nn_text_puts(&t, "]");
    repr_leave();
    return nn_text_finish(&t);
}

static void list_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    list_obj *l = (list_obj *)self;
    for (size_t i = 0; i < l->len; i++) visit(l->items[i], arg);
}

/* Empties the list; the items are released after it holds none. */
static void list_clear(nn_object *self)
{
    list_obj *l = (list_obj *)self;
    nn_object **items = l->items;
    size_t len = l->len;
    l->items = NULL;
    l->len = l->cap = 0;
    for (size_t i = 0; i < len; i++) NN_RELEASE(items[i]);
    nn_free(items);
}

const nn_type nn_list_type = {.name = "list", .dealloc = list_dealloc, .repr = list_repr,
                              .traverse = list_traverse, .clear = list_clear};

nn_object *nn_list_new(size_t capacity)
{
    if (capacity > SIZE_MAX / sizeof(nn_object *)) {
        nn_error_set(NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    list_obj *l = nn_malloc(sizeof *l);
    if (!l) return NULL;
    nn_object_init(&l->ob, &nn_list_type);
    l->len = 0;
    l->cap = capacity;
    l->items = capacity ? nn_malloc(capacity * sizeof(nn_object *)) : NULL;
    if (capacity && !l->items) {
        nn_free(l);
        return NULL;
    }
    if (nn_gc_track(&l->ob) < 0) {
        NN_RELEASE(l);
        return NULL;
    }
    return &l->ob;
}

size_t nn_list_len(const nn_object *list) { return ((const list_obj *)list)->len; }
nn_object *nn_list_get(const nn_object *list, size_t i) { return ((const list_obj *)list)->items[i]; }

static int list_reserve(list_obj *l, size_t need)
{
    if (need <= l->cap) return 0;
    size_t cap = l->cap ? l->cap * 2 : 4;
    while (cap < need) cap *= 2;
    nn_object **items = nn_realloc(l->items, cap * sizeof *items);
    if (!items) return -1;
    l->items = items;
    l->cap = cap;
    return 0;
}

int nn_list_insert(nn_object *list, size_t i, nn_object *item)
{
    list_obj *l = (list_obj *)list;
    if (list_reserve(l, l->len + 1) < 0) return -1;
    if (i > l->len) i = l->len;
    memmove(l->items + i + 1, l->items + i, (l->len - i) * sizeof *l->items);
    l->items[i] = nn_retain(item ? item : nn_none());
    l->len++;
    return 0;
}

int nn_list_append(nn_object *list, nn_object *item) { return nn_list_insert(list, nn_list_len(list), item); }

void nn_list_set(nn_object *list, size_t i, nn_object *item)
{
    list_obj *l = (list_obj *)list;
    NN_SET(l->items[i], item);
}

nn_object *nn_list_pop(nn_object *list, size_t i)
{
    list_obj *l = (list_obj *)list;
    nn_object *item = l->items[i];
    memmove(l->items + i, l->items + i + 1, (l->len - i - 1) * sizeof *l->items);
    l->len--;
    return item;
}

/* -------------------------------------------------------------------- hash */

static int64_t string_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return (int64_t)(h >> 1);
}

/* CPython's hash of numbers (Python/pyhash.c): the value modulo the Mersenne
   prime 2**61 - 1, negated for a negative value, -1 made -2. */
#define NUMBER_HASH_BITS 61
#define NUMBER_HASH_MODULUS (((uint64_t)1 << NUMBER_HASH_BITS) - 1)
#define NUMBER_HASH_INF 314159

uint64_t nn_number_hash_residue(bool negative, uint64_t magnitude_mod)
{
    uint64_t h = negative ? (uint64_t)0 - magnitude_mod : magnitude_mod;
    return h == (uint64_t)-1 ? (uint64_t)-2 : h;
}

uint64_t nn_number_hash_int(int64_t v)
{
    uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return nn_number_hash_residue(v < 0, magnitude % NUMBER_HASH_MODULUS);
}

uint64_t nn_number_hash_double(double v)
{
    if (isinf(v)) return v > 0 ? NUMBER_HASH_INF : (uint64_t)-NUMBER_HASH_INF;
    int e;
    double m = frexp(v, &e);
    bool negative = m < 0;
    if (negative) m = -m;
    uint64_t x = 0;
    while (m) { /* 28 bits at a time, reduced mod 2**61 - 1 */
        x = ((x << 28) & NUMBER_HASH_MODULUS) | x >> (NUMBER_HASH_BITS - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= NUMBER_HASH_MODULUS) x -= NUMBER_HASH_MODULUS;
    }
    e = e >= 0 ? e % NUMBER_HASH_BITS : NUMBER_HASH_BITS - 1 - ((-1 - e) % NUMBER_HASH_BITS);
    x = ((x << e) & NUMBER_HASH_MODULUS) | x >> (NUMBER_HASH_BITS - e);
    return nn_number_hash_residue(negative, x);
}

int64_t nn_hash(nn_object *o)
{
    if (!o) o = nn_none();
    const nn_type *t = o->type;
    if (t == &nn_str_type) {
        str_obj *s = (str_obj *)o;
        if (s->hash < 0) s->hash = string_hash(s->data, s->len);
        return s->hash;
    }
    /* equal numbers hash alike (2.0 == 2, 0.5 == Fraction(1, 2)): CPython's hash, made non-negative */
    if (t == &nn_int_type || t == &nn_bool_type) return (int64_t)(nn_number_hash_int(nn_int_value(o)) & INT64_MAX);
    if (t == &nn_float_type) {
        double v = nn_float_value(o);
        if (isnan(v)) return (int64_t)(((uintptr_t)o >> 4) & INT64_MAX); /* by identity, as CPython 3.10+ */
        return (int64_t)(nn_number_hash_double(v) & INT64_MAX);
    }
    if (t == &nn_tuple_type) {
        if (nn_stack_check() < 0) return -1;
        uint64_t h = 0x345678;
        for (size_t i = 0; i < nn_tuple_len(o); i++) {
            int64_t item = nn_hash(nn_tuple_get(o, i));
            if (item < 0) return -1;
            h = (h ^ (uint64_t)item) * 1000003ull;
        }
        return (int64_t)(h >> 1);
    }
    if (t == &nn_list_type || t == &nn_dict_type) {
        bool ordered = t == &nn_dict_type && nn_dict_is_ordered(o);
        nn_error_set(NN_ERR_TYPE, "unhashable type: '%s'", ordered ? "collections.OrderedDict" : t->name);
        return -1;
    }
    if (t->hash) return t->hash(o);
    return (int64_t)(((uintptr_t)o >> 4) & INT64_MAX);
}

static bool is_number(const nn_object *o)
{
    return o->type == &nn_int_type || o->type == &nn_float_type || o->type == &nn_bool_type;
}

int nn_equal(nn_object *a, nn_object *b)
{
    if (!a) a = nn_none();
    if (!b) b = nn_none();
    if (a == b) return 1;
    if (is_number(a) && is_number(b)) {
        if (a->type != &nn_float_type && b->type != &nn_float_type) return nn_int_value(a) == nn_int_value(b);
        return nn_float_value(a) == nn_float_value(b);
    }
    if (a->type != b->type) {
        if (a->type->equal_any) return a->type->equal(a, b);
        return b->type->equal_any ? b->type->equal(b, a) : 0;
    }
    if (a->type == &nn_str_type) {
        const str_obj *x = (const str_obj *)a, *y = (const str_obj *)b;
        return x->len == y->len && memcmp(x->data, y->data, x->len) == 0;
    }
    if (a->type == &nn_tuple_type || a->type == &nn_list_type) {
        bool tuple = a->type == &nn_tuple_type;
        size_t n = tuple ? nn_tuple_len(a) : nn_list_len(a);
        if (n != (tuple ? nn_tuple_len(b) : nn_list_len(b))) return 0;
        if (nn_recursion_enter(" in comparison") < 0) return -1;
        int eq = 1;
        for (size_t i = 0; i < n && eq == 1; i++)
            eq = tuple ? nn_equal(nn_tuple_get(a, i), nn_tuple_get(b, i)) : nn_equal(nn_list_get(a, i), nn_list_get(b, i));
        nn_recursion_leave();
        return eq;
    }
    if (a->type->equal) return a->type->equal(a, b);
    return 0;
}

/* -------------------------------------------------------------------- dict */

/* Entries in insertion order (deleted ones have key NULL until compaction),
   plus an open-addressing index of entry positions. */
typedef struct dict_entry {
    nn_object *key, *value;
    int64_t hash;
} dict_entry;

typedef struct dict_obj {
    nn_object ob;
    dict_entry *entries;
    size_t n_entries, cap_entries, len;
    int64_t *index; /* slots hold entry positions, -1 empty */
    size_t n_slots; /* power of two */
    bool ordered;   /* an OrderedDict: only its repr (and the language's ==) differ */
    uint64_t version; /* counts changes to the set of keys or their order */
    uint64_t changes; /* counts every change: keys, order or values */
    nn_object *attrs; /* owned or NULL: an OrderedDict's own attributes (its __dict__) */
} dict_obj;

static void dict_clear_entries(dict_obj *d)
{
    for (size_t i = 0; i < d->n_entries; i++) {
        NN_RELEASE(d->entries[i].key);
        NN_RELEASE(d->entries[i].value);
    }
    d->n_entries = d->len = 0;
    d->version++;
    d->changes++;
    if (d->index)
        for (size_t i = 0; i < d->n_slots; i++) d->index[i] = -1;
}

static void dict_dealloc(nn_object *self)
{
    dict_obj *d = (dict_obj *)self;
    dict_clear_entries(d);
    NN_RELEASE(d->attrs);
    nn_free(d->entries);
    nn_free(d->index);
    nn_free(d);
}

/* {k: v, ...}; an OrderedDict as CPython 3.11 prints it: OrderedDict() when
   empty, else OrderedDict([(k, v), ...]). */
static char *dict_repr(nn_object *self)
{
    bool ordered = ((dict_obj *)self)->ordered;
    if (!repr_enter(self)) return nn_strdup(ordered ? "..." : "{...}");
    nn_text t = {0};
    if (ordered && !nn_dict_len(self)) nn_text_puts(&t, "OrderedDict()");
    else nn_text_puts(&t, ordered ? "OrderedDict([" : "{");
    size_t pos = 0, i = 0;
    nn_object *k, *v;
    while (nn_dict_next(self, &pos, &k, &v)) {
        if (i++) nn_text_puts(&t, ", ");
        if (ordered) nn_text_puts(&t, "(");
        nn_text_take(&t, nn_repr(k));
        nn_text_puts(&t, ordered ? ", " : ": ");
        nn_text_take(&t, nn_repr(v));
        if (ordered) nn_text_puts(&t, ")");
    }
    if (!ordered) nn_text_puts(&t, "}");
    else if (i) nn_text_puts(&t, "])");
    repr_leave();
    return nn_text_finish(&t);
}

static void dict_traverse(nn_object *self, nn_visit_fn visit, void *arg)
{
    dict_obj *d = (dict_obj *)self;
    for (size_t i = 0; i < d->n_entries; i++) {
        if (d->entries[i].key) visit(d->entries[i].key, arg);
        if (d->entries[i].value) visit(d->entries[i].value, arg);
    }
    if (d->attrs) visit(d->attrs, arg);
}

static void dict_clear_slot(nn_object *self)
{
    dict_clear_entries((dict_obj *)self);
    NN_SET(((dict_obj *)self)->attrs, NULL);
}

const nn_type nn_dict_type = {.name = "dict", .dealloc = dict_dealloc, .repr = dict_repr,
                              .traverse = dict_traverse, .clear = dict_clear_slot};

nn_object *nn_dict_new(void)
{
    dict_obj *d = nn_calloc(1, sizeof *d);
    if (!d) return NULL;
    nn_object_init(&d->ob, &nn_dict_type);
    if (nn_gc_track(&d->ob) < 0) {
        NN_RELEASE(d);
        return NULL;
    }
    return &d->ob;
}

nn_object *nn_ordered_dict_new(void)
{
    nn_object *d = nn_dict_new();
    if (d) ((dict_obj *)d)->ordered = true;
    return d;
}

bool nn_dict_is_ordered(const nn_object *d) { return ((const dict_obj *)d)->ordered; }

nn_object *nn_dict_attrs(nn_object *d, bool create)
{
    dict_obj *o = (dict_obj *)d;
    if (!o->ordered) return NULL;
    if (!o->attrs && create) o->attrs = nn_dict_new();
    return o->attrs;
}

nn_object *nn_dict_copy(nn_object *src)
{
    nn_object *d = nn_dict_is_ordered(src) ? nn_ordered_dict_new() : nn_dict_new();
    size_t pos = 0;
    nn_object *k, *v;
    while (d && nn_dict_next(src, &pos, &k, &v))
        if (nn_dict_set(d, k, v) < 0) NN_SET(d, NULL);
    return d;
}

size_t nn_dict_len(const nn_object *d) { return ((const dict_obj *)d)->len; }

/* Finds key: returns its index slot (the entry is index[slot] >= 0) or the empty
   slot to use; -1 with an error on a failed comparison. */
static int64_t dict_lookup(dict_obj *d, nn_object *key, int64_t hash)
{
    size_t mask = d->n_slots - 1, slot = (size_t)hash & mask;
    for (;;) {
        int64_t e = d->index[slot];
        if (e < 0) return (int64_t)slot;
        dict_entry *en = &d->entries[e];
        if (en->key && en->hash == hash) {
            int eq = nn_equal(en->key, key);
            if (eq < 0) return -1;
            if (eq) return (int64_t)slot;
        }
        slot = (slot + 1) & mask;
    }
}

/* Points the index at the entries (all live) where they are now. */
static void dict_reindex(dict_obj *d)
{
    size_t mask = d->n_slots - 1;
    for (size_t i = 0; i <= mask; i++) d->index[i] = -1;
    for (size_t i = 0; i < d->n_entries; i++) {
        size_t slot = (size_t)d->entries[i].hash & mask;
        while (d->index[slot] >= 0) slot = (slot + 1) & mask;
        d->index[slot] = (int64_t)i;
    }
}

/* Rebuilds the index for at least `need` live entries, dropping deleted entries. */
static int dict_rebuild(dict_obj *d, size_t need)
{
    size_t slots = 8;
    while (slots < need * 2) slots *= 2;
    int64_t *index = nn_malloc(slots * sizeof *index);
    if (!index) return -1;
    size_t live = 0;
    for (size_t i = 0; i < d->n_entries; i++)
        if (d->entries[i].key) d->entries[live++] = d->entries[i];
    d->n_entries = live;
    nn_free(d->index);
    d->index = index;
    d->n_slots = slots;
    dict_reindex(d);
    return 0;
}

static dict_entry *dict_find(nn_object *dict, nn_object *key)
{
    dict_obj *d = (dict_obj *)dict;
    int64_t h = nn_hash(key);
    if (h < 0) return NULL;
    if (!d->len) return NULL;
    int64_t slot = dict_lookup(d, key, h);
    if (slot < 0 || d->index[slot] < 0) return NULL;
    return &d->entries[d->index[slot]];
}

nn_object *nn_dict_get(nn_object *dict, nn_object *key)
{
    dict_entry *e = dict_find(dict, key);
    return e ? e->value : NULL;
}

nn_object *nn_dict_stored_key(nn_object *dict, nn_object *key)
{
    dict_entry *e = dict_find(dict, key);
    return e ? e->key : NULL;
}

int nn_dict_set(nn_object *dict, nn_object *key, nn_object *value)
{
    dict_obj *d = (dict_obj *)dict;
    int64_t h = nn_hash(key);
    if (h < 0) return -1;
    if (!value) value = nn_none();
    if ((d->n_entries + 1) * 2 > d->n_slots && dict_rebuild(d, d->len + 1) < 0) return -1;
    int64_t slot = dict_lookup(d, key, h);
    if (slot < 0) return -1;
    if (d->index[slot] >= 0) {
        dict_entry *e = &d->entries[d->index[slot]];
        NN_RETAIN(value);
        NN_SET(e->value, value);
        d->changes++;
        return 0;
    }
    if (d->n_entries == d->cap_entries) {
        size_t cap = d->cap_entries ? d->cap_entries * 2 : 8;
        dict_entry *entries = nn_realloc(d->entries, cap * sizeof *entries);
        if (!entries) return -1;
        d->entries = entries;
        d->cap_entries = cap;
    }
    dict_entry *e = &d->entries[d->n_entries];
    e->key = nn_retain(key);
    e->value = nn_retain(value);
    e->hash = h;
    d->index[slot] = (int64_t)d->n_entries++;
    d->len++;
    d->version++;
    d->changes++;
    return 0;
}

int nn_dict_del(nn_object *dict, nn_object *key)
{
    dict_obj *d = (dict_obj *)dict;
    int64_t h = nn_hash(key);
    if (h < 0) return -1;
    int64_t slot = d->len ? dict_lookup(d, key, h) : 0;
    if (slot < 0) return -1;
    if (!d->len || d->index[slot] < 0) {
        char *r = nn_repr(key);
        nn_error_set(NN_ERR_KEY, "%s", r ? r : "?");
        nn_free(r);
        return -1;
    }
    dict_entry *e = &d->entries[d->index[slot]];
    NN_SET(e->key, NULL);
    NN_SET(e->value, NULL);
    d->len--;
    d->version++;
    d->changes++;
    /* the index slot still points at the emptied entry, which lookups skip: a
       tombstone that keeps probe chains intact until the next rebuild compacts */
    return 0;
}

static nn_object *temp_key(const char *key) { return nn_str_new(key); }

/* A lookup by C string without making a str: the same hash as a str key. */
nn_object *nn_dict_get_str(nn_object *dict, const char *key)
{
    dict_obj *d = (dict_obj *)dict;
    if (!d->len) return NULL;
    size_t len = strlen(key);
    int64_t h = string_hash(key, len);
    size_t mask = d->n_slots - 1;
    for (size_t slot = (size_t)h & mask;; slot = (slot + 1) & mask) {
        int64_t e = d->index[slot];
        if (e < 0) return NULL;
        dict_entry *en = &d->entries[e];
        if (en->key && en->hash == h && en->key->type == &nn_str_type) {
            const str_obj *k = (const str_obj *)en->key;
            if (k->len == len && memcmp(k->data, key, len) == 0) return en->value;
        }
    }
}

int nn_dict_set_str(nn_object *d, const char *key, nn_object *value)
{
    nn_object *k = temp_key(key);
    if (!k) return -1;
    int rc = nn_dict_set(d, k, value);
    NN_RELEASE(k);
    return rc;
}

int nn_dict_del_str(nn_object *d, const char *key)
{
    nn_object *k = temp_key(key);
    if (!k) return -1;
    int rc = nn_dict_del(d, k);
    NN_RELEASE(k);
    return rc;
}

bool nn_dict_next(const nn_object *dict, size_t *pos, nn_object **key, nn_object **value)
{
    const dict_obj *d = (const dict_obj *)dict;
    while (*pos < d->n_entries) {
        const dict_entry *e = &d->entries[(*pos)++];
        if (!e->key) continue;
        if (key) *key = e->key;
        if (value) *value = e->value;
        return true;
    }
    return false;
}

void nn_dict_clear(nn_object *d) { dict_clear_entries((dict_obj *)d); }

uint64_t nn_dict_version(const nn_object *d) { return ((const dict_obj *)d)->version; }

uint64_t nn_dict_changes(const nn_object *d) { return ((const dict_obj *)d)->changes; }

int nn_dict_move_to_end(nn_object *dict, nn_object *key, bool last)
{
    dict_obj *d = (dict_obj *)dict;
    int64_t h = nn_hash(key);
    if (h < 0) return -1;
    /* compacting first (the one allocation) leaves d unchanged when it fails;
       it keeps the live entries' order */
    if (d->len && dict_rebuild(d, d->len + 1) < 0) return -1;
    int64_t slot = d->len ? dict_lookup(d, key, h) : 0;
    if (slot < 0) return -1;
    if (!d->len || d->index[slot] < 0) {
        char *r = nn_repr(key);
        nn_error_set(NN_ERR_KEY, "%s", r ? r : "?");
        nn_free(r);
        return -1;
    }
    size_t at = (size_t)d->index[slot];
    dict_entry moved = d->entries[at];
    if (last) {
        memmove(d->entries + at, d->entries + at + 1, (d->n_entries - at - 1) * sizeof *d->entries);
        d->entries[d->n_entries - 1] = moved;
    } else {
        memmove(d->entries + 1, d->entries, at * sizeof *d->entries);
        d->entries[0] = moved;
    }
    dict_reindex(d);
    d->version++;
    d->changes++;
    return 0;
}

int nn_dict_move_to_front(nn_object *d, nn_object *key) { return nn_dict_move_to_end(d, key, false); }
