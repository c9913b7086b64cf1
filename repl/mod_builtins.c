/*
 * mod_builtins.c — the module builtins: the built-in names (len, print, int,
 * ValueError, ...) as its attributes, the same objects the names are bound to,
 * so that `import builtins; builtins.len` and `getattr(builtins, name)` find
 * them. Assigning to (or deleting) its attributes changes the built-in names
 * (eval.c repl_lang_module_setattr), as in CPython.
 */
#include "stdlib_int.h"

nn_object *repl_mod_builtins(void)
{
    nn_object *m = repl_module_new("builtins");
    uint32_t pos = 0;
    const char *name;
    nn_object *v;
    while (m && repl_nmap_next(&repl_current->builtins, &pos, &name, &v))
        if (repl_set_attr(m, name, v) < 0) NN_SET(m, NULL);
    return m;
}
