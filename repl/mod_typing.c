/*
 * mod_typing.c — the module typing: its names importable as inert objects that
 * annotations can subscript and print as CPython 3.11 prints them
 * (`Dict[str, List[int]]` is typing.Dict[str, typing.List[int]], TypeVar('T')
 * is ~T), and the functions that do nothing at run time (cast, overload,
 * final, no_type_check). The forms are instances of one class, `_SpecialForm`,
 * whose C methods live in the class dict. Not here: checks (isinstance against
 * a form, get_type_hints), TypedDict. Generic and Protocol are classes (the
 * source below): class Box(Generic[T]) derives Generic, Box[int] is an alias
 * that prints as __main__.Box[int] and calls Box.
 * NamedTuple (class P(NamedTuple) with annotated fields, or the functional
 * form) is collections' named tuple, in the source below.
 */
#include <stdio.h>
#include <string.h>

#include "stdlib_int.h"

static const char *const form_names[] = {
    "Any", "Callable", "ClassVar", "Collection", "Container", "Counter", "DefaultDict", "Deque", "Dict", "Final",
    "FrozenSet", "Generator", "Generic", "Hashable", "Iterable", "Iterator", "List", "Literal", "Mapping",
    "MutableMapping", "MutableSequence", "NoReturn", "Optional", "OrderedDict", "Protocol", "Sequence", "Set", "Sized",
    "Tuple", "Type", "Union",
};

/* A form's printed name ("typing.List[int]"), borrowed from its attributes. */
static const char *form_name(nn_object *form)
{
    nn_object *n = repl_nmap_get(&((instance_obj *)form)->attrs, "_name");
    return n && nn_is_str(n) ? nn_str_cstr(n) : "typing.?";
}

static bool is_form(nn_object *o, nn_object *like)
{
    return o->type == &repl_instance_type && ((instance_obj *)o)->cls == ((instance_obj *)like)->cls;
}

static nn_object *form_new(class_obj *cls, const char *name)
{
    nn_object *f = repl_instance_new(cls), *n = nn_str_new(name);
    if (!f || !n || repl_nmap_set(&((instance_obj *)f)->attrs, "_name", n) < 0) NN_SET(f, NULL);
    NN_RELEASE(n);
    return f;
}

/* typing's _type_repr of a parameter into b: builtins by name, other classes
   as module.qualname, forms by their name, ... for Ellipsis, lists in brackets. */
static void type_repr(sbuf *b, nn_object *o, nn_object *self, bool literal)
{
    if (literal) { /* Literal's values print as values */
        repl_sb_take(b, repl_obj_repr(o));
        return;
    }
    if (is_form(o, self)) {
        repl_sb_puts(b, form_name(o));
        return;
    }
    if (nn_is_none(o)) {
        repl_sb_puts(b, "NoneType");
        return;
    }
    if (repl_is_ellipsis(o)) {
        repl_sb_puts(b, "...");
        return;
    }
    if (nn_is_str(o)) { /* a forward reference */
        repl_sb_puts(b, "ForwardRef(");
        repl_sb_take(b, repl_obj_repr(o));
        repl_sb_puts(b, ")");
        return;
    }
    if (nn_is_list(o)) {
        repl_sb_puts(b, "[");
        for (size_t i = 0; i < nn_list_len(o); i++) {
            if (i) repl_sb_puts(b, ", ");
            type_repr(b, nn_list_get(o, i), self, false);
        }
        repl_sb_puts(b, "]");
        return;
    }
    if (o->type == &repl_class_type) {
        nn_object *m = repl_get_attr(o, "__module__"), *q = m ? repl_get_attr(o, "__qualname__") : NULL;
        if (m && q && nn_is_str(m) && nn_is_str(q)) {
            if (strcmp(nn_str_cstr(m), "builtins") != 0) repl_sb_printf(b, "%s.", nn_str_cstr(m));
            repl_sb_puts(b, nn_str_cstr(q));
            NN_RELEASE(m);
            NN_RELEASE(q);
            return;
        }
        NN_RELEASE(m);
        NN_RELEASE(q);
        nn_object *e = repl_take_exception();
        NN_RELEASE(e);
    }
    repl_sb_take(b, repl_obj_repr(o));
}

/* form[params]: a new form named "form[p1, p2]"; Union[X, None] prints as Optional[X]. */
static nn_object *f_getitem(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("__getitem__", args, kwargs, 2, 2) < 0) return NULL;
    nn_object *self = nn_tuple_get(args, 0), *params = nn_tuple_get(args, 1);
    const char *name = form_name(self);
    bool tuple = params->type == &nn_tuple_type;
    size_t n = tuple ? nn_tuple_len(params) : 1;
    sbuf b = {0};
    if (!strcmp(name, "typing.Union") && n == 2 && nn_is_none(nn_tuple_get(params, 1))) {
        repl_sb_puts(&b, "typing.Optional[");
        type_repr(&b, nn_tuple_get(params, 0), self, false);
    } else {
        repl_sb_printf(&b, "%s[", name);
        for (size_t i = 0; i < n; i++) {
            if (i) repl_sb_puts(&b, ", ");
            type_repr(&b, tuple ? nn_tuple_get(params, i) : params, self, !strcmp(name, "typing.Literal"));
        }
        if (tuple && n == 0) repl_sb_puts(&b, "()");
    }
    repl_sb_puts(&b, "]");
    char *s = repl_sb_finish(&b);
    nn_object *f = s ? form_new(((instance_obj *)self)->cls, s) : NULL;
    nn_free(s);
    return f;
}

static nn_object *f_repr(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("__repr__", args, kwargs, 1, 1) < 0) return NULL;
    return nn_str_new(form_name(nn_tuple_get(args, 0)));
}

/* TypeVar(name, *constraints, bound=None, covariant=False, contravariant=False): ~name */
static nn_object *t_typevar(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"bound", "covariant", "contravariant", NULL};
    if (repl_mod_kwargs_only("TypeVar", kwargs, names) < 0) return NULL;
    if (nn_tuple_len(args) < 1 || !nn_is_str(nn_tuple_get(args, 0))) {
        repl_raise_exc(EXC_TypeError, "TypeVar() missing required argument 'name' (a str)");
        return NULL;
    }
    nn_object *typing = repl_nmap_get(&repl_current->stdlib_modules, "typing");
    nn_object *any = typing ? repl_get_attr(typing, "Any") : NULL; /* a form: its class */
    if (!any) return NULL;
    sbuf b = {0};
    repl_sb_printf(&b, "~%s", nn_str_cstr(nn_tuple_get(args, 0)));
    char *s = repl_sb_finish(&b);
    nn_object *f = s ? form_new(((instance_obj *)any)->cls, s) : NULL;
    nn_free(s);
    NN_RELEASE(any);
    return f;
}

/* cast(typ, val) -> val */
static nn_object *t_cast(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("cast", args, kwargs, 2, 2) < 0) return NULL;
    return nn_retain(nn_tuple_get(args, 1));
}

/* overload / final / no_type_check (f) -> f */
static nn_object *t_identity(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("decorator", args, kwargs, 1, 1) < 0) return NULL;
    return nn_retain(nn_tuple_get(args, 0));
}

static const repl_mod_fn typing_functions[] = {
    {"TypeVar", t_typevar, "TypeVar(name, *constraints, bound=None, covariant=False, contravariant=False)\nType variable: prints as ~name."},
    {"cast", t_cast, "cast(typ, val)\nCast a value to a type: returns the value unchanged."},
    {"overload", t_identity, "overload(func)\nDecorator for overloaded functions: returns func (no checks at run time)."},
    {"final", t_identity, "final(f)\nA decorator to indicate final methods and final classes: returns f."},
    {"no_type_check", t_identity, "no_type_check(arg)\nDecorator to indicate that annotations are not type hints: returns arg."},
};

/* source: begin */
static const char source[] =
    "# typing.NamedTuple, written in the language over collections' named tuples.\n"
    "\n"
    "from collections import _NamedTuple, namedtuple as _namedtuple\n"
    "\n"
    "\n"
    "class NamedTuple(_NamedTuple):\n"
    "    _fields = ()\n"
    "    _field_defaults = {}\n"
    "\n"
    "    def __new__(cls, *args, **kwargs):\n"
    "        if cls is NamedTuple:  # NamedTuple('P', [('x', int)]) or NamedTuple('P', x=int)\n"
    "            if not args:\n"
    "                raise TypeError(\"NamedTuple.__new__() missing 1 required positional argument: 'typename'\")\n"
    "            fields = args[1] if len(args) > 1 and args[1] is not None else list(kwargs.items())\n"
    "            return _namedtuple(args[0], [name for name, _ in fields])\n"
    "        return _NamedTuple.__new__(cls, *args, **kwargs)\n"
    "\n"
    "    def __init_subclass__(cls, **kwargs):\n"
    "        # class P(NamedTuple): x: int; y: int = 0 -- the annotations are the fields, in order\n"
    "        annotations = vars(cls).get('__annotations__', {})\n"
    "        defaults = {}\n"
    "        for name in annotations:\n"
    "            if name in vars(cls):\n"
    "                defaults[name] = vars(cls)[name]\n"
    "            elif defaults:\n"
    "                raise TypeError('Non-default namedtuple field %s cannot follow default field%s %s'\n"
    "                                % (name, 's' if len(defaults) > 1 else '', ', '.join(defaults)))\n"
    "        cls._fields = tuple(annotations)\n"
    "        cls._field_defaults = defaults\n"
    "\n"
    "\n"
    "class _GenericAlias:\n"
    "    # C[int] of a class deriving Generic: prints as typing does, calls the class,\n"
    "    # and as a base stands for the class (__mro_entries__)\n"
    "    def __init__(self, origin, args):\n"
    "        self.__origin__ = origin\n"
    "        self.__args__ = args if isinstance(args, tuple) else (args,)\n"
    "\n"
    "    def __repr__(self):\n"
    "        return _type_repr(self.__origin__) + '[' + ', '.join(_type_repr(a) for a in self.__args__) + ']'\n"
    "\n"
    "    def __call__(self, *args, **kwargs):\n"
    "        return self.__origin__(*args, **kwargs)\n"
    "\n"
    "    def __mro_entries__(self, bases):\n"
    "        return (self.__origin__,)\n"
    "\n"
    "    def __eq__(self, other):\n"
    "        return isinstance(other, _GenericAlias) and (self.__origin__, self.__args__) == (other.__origin__, other.__args__)\n"
    "\n"
    "    def __hash__(self):\n"
    "        return hash((self.__origin__, self.__args__))\n"
    "\n"
    "    def __getattr__(self, name):\n"
    "        if name.startswith('__'):\n"
    "            raise AttributeError(name)\n"
    "        return getattr(self.__origin__, name)\n"
    "\n"
    "\n"
    "def _type_repr(a):\n"
    "    if isinstance(a, type):\n"
    "        return a.__qualname__ if a.__module__ == 'builtins' else a.__module__ + '.' + a.__qualname__\n"
    "    if a is ...:\n"
    "        return '...'\n"
    "    return repr(a)\n"
    "\n"
    "\n"
    "class Generic:\n"
    "    def __class_getitem__(cls, params):\n"
    "        return _GenericAlias(cls, params)\n"
    "\n"
    "\n"
    "class Protocol(Generic):\n"
    "    pass\n"
    "\n"
    "_SpecialForm = type(List)\n"
    "\n"
    "\n"
    "def _form_origin(form):\n"
    "    # the class a bare form stands for in isinstance/issubclass and as a base\n"
    "    name = form._name.split('[')[0][len('typing.'):]\n"
    "    simple = {'List': list, 'Dict': dict, 'Set': set, 'FrozenSet': frozenset, 'Tuple': tuple, 'Type': type}\n"
    "    if name in simple:\n"
    "        return simple[name]\n"
    "    import collections\n"
    "    if name in ('Deque', 'DefaultDict', 'OrderedDict', 'Counter'):\n"
    "        return getattr(collections, {'Deque': 'deque', 'DefaultDict': 'defaultdict'}.get(name, name))\n"
    "    import collections.abc\n"
    "    return getattr(collections.abc, name, None)\n"
    "\n"
    "\n"
    "def _form_check(form, arg, instance):\n"
    "    origin = _form_origin(form)\n"
    "    if origin is None:\n"
    "        raise TypeError('%s cannot be used with %s()' % (form._name, 'isinstance' if instance else 'issubclass'))\n"
    "    if '[' in form._name:\n"
    "        raise TypeError('Subscripted generics cannot be used with class and instance checks')\n"
    "    return isinstance(arg, origin) if instance else issubclass(arg, origin)\n"
    "\n"
    "\n"
    "def _form_instancecheck(self, obj):\n"
    "    return _form_check(self, obj, True)\n"
    "\n"
    "\n"
    "def _form_subclasscheck(self, cls):\n"
    "    return _form_check(self, cls, False)\n"
    "\n"
    "\n"
    "def _form_mro_entries(self, bases):\n"
    "    origin = _form_origin(self)\n"
    "    if origin is None:\n"
    "        raise TypeError('Cannot subclass %s' % self._name)\n"
    "    return (origin,)\n"
    "\n"
    "\n"
    "_SpecialForm.__instancecheck__ = _form_instancecheck\n"
    "_SpecialForm.__subclasscheck__ = _form_subclasscheck\n"
    "_SpecialForm.__mro_entries__ = _form_mro_entries\n"
;
/* source: end */

nn_object *repl_mod_typing(void)
{
    nn_object *m = repl_module_new("typing");
    class_obj *cls = repl_lang_class_new("_SpecialForm", repl_current->object_cls, -1);
    nn_object *gi = nn_cfunction_new("__getitem__", f_getitem, NULL, NULL);
    nn_object *rp = nn_cfunction_new("__repr__", f_repr, NULL, NULL);
    int rc = m && cls && gi && rp && repl_nmap_set(&cls->dict, "__getitem__", gi) == 0 &&
                     repl_nmap_set(&cls->dict, "__repr__", rp) == 0
                 ? 0
                 : -1;
    NN_RELEASE(gi);
    NN_RELEASE(rp);
    if (rc == 0) cls->module = "typing";
    for (size_t i = 0; rc == 0 && i < sizeof form_names / sizeof *form_names; i++) {
        char name[64];
        snprintf(name, sizeof name, "typing.%s", form_names[i]);
        rc = repl_mod_set(m, form_names[i], form_new(cls, name));
    }
    if (rc == 0) rc = repl_mod_add_fns(m, typing_functions, sizeof typing_functions / sizeof *typing_functions);
    if (rc == 0) rc = repl_mod_set(m, "TYPE_CHECKING", nn_bool_new(false));
    if (rc == 0) rc = repl_exec_module_source(m, "typing", source, "<frozen typing>");
    NN_RELEASE(cls);
    if (rc < 0) NN_SET(m, NULL);
    return m;
}
