/*
 * import_file.c — `import model` / `from data import Corpus` of a script's own
 * files, as sys.path[0] gives them in CPython: NAME.py (or the package
 * NAME/__init__.py; a.b is a/b.py) in the directory of the running script
 * (__main__'s __file__), or in the working directory for the notebook, -c and
 * standard input. The file runs once, as a module of the language; later
 * imports get the same module object. The standard library's and the
 * bindings' modules come first (a file named like one of them is not seen).
 */
#include <stdio.h>
#include <string.h>

#include <errno.h>

#include "stdlib_int.h"
#include "source_text.h"

#define MAX_SOURCE ((size_t)64 << 20)

/* The directory that stands for sys.path[0] into out ("." when there is no script). */
static void search_dir(char *out, size_t n)
{
    nn_object *file = repl_get_global(repl_current, "__file__");
    const char *path = file && nn_is_str(file) ? nn_str_cstr(file) : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash) {
        snprintf(out, n, ".");
        return;
    }
    size_t len = (size_t)(slash - path);
    snprintf(out, n, "%.*s", (int)(len ? len : 1), len ? path : "/");
}

/* The file's text (nn_malloc'd), NULL when it cannot be opened (errno ENOENT:
   no such module here, no error set) or with an error. */
static char *read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *grown = cap <= MAX_SOURCE ? nn_realloc(text, cap) : NULL;
            if (!grown) {
                nn_free(text);
                fclose(f);
                repl_raise_exc(EXC_MemoryError, "%s", "");
                return NULL;
            }
            text = grown;
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    text[len] = 0;
    return text;
}

/* Whether name is a module name: identifiers and dots. */
static bool module_name_ok(const char *name)
{
    for (const char *c = name; *c; c++)
        if (!(*c == '.' || *c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
              (*c >= 'A' && *c <= 'Z')))
            return false;
    return *name != 0;
}

/* The file of module name (NAME.py, then NAME/__init__.py) into path, with its text
   (nn_malloc'd); NULL when there is none (no error) or with an error. The folders of
   sys.path are searched in order (a script's sys.path.insert(0, ...) first), then the
   script's own, as sys.path[0] stands for it. */
static char *find_source(const char *name, char *path, size_t n)
{
    char dir[4096], relative[512];
    snprintf(relative, sizeof relative, "%s", name);
    for (char *c = relative; *c; c++)
        if (*c == '.') *c = '/';
    const repl_native_ops *ops = repl_get_native_ops(); /* sys is the bindings' (none in some tests) */
    nn_object *sys = ops && ops->import_module ? ops->import_module("sys") : NULL;
    nn_object *dirs = sys ? repl_get_attr(sys, "path") : NULL;
    NN_RELEASE(sys);
    if (!dirs) nn_error_clear();
    size_t n_dirs = dirs && nn_is_list(dirs) ? nn_list_len(dirs) : 0;
    char *source = NULL;
    for (size_t d = 0; d <= n_dirs && !source && !nn_error_current(); d++) {
        nn_object *entry = d < n_dirs ? nn_list_get(dirs, d) : NULL;
        if (d < n_dirs && !nn_is_str(entry)) continue;
        if (entry) snprintf(dir, sizeof dir, "%s", nn_str_cstr(entry)[0] ? nn_str_cstr(entry) : ".");
        else search_dir(dir, sizeof dir);
        for (int package = 0; package < 2 && !source && !nn_error_current(); package++) {
            snprintf(path, n, package ? "%s/%s/__init__.py" : "%s/%s.py", dir, relative);
            source = read_source(path);
        }
    }
    NN_RELEASE(dirs);
    return source;
}

char *repl_user_module_path(const char *name)
{
    if (!module_name_ok(name)) return NULL;
    char path[4800];
    char *source = find_source(name, path, sizeof path);
    if (!source) return NULL;
    nn_free(source);
    return nn_strdup(path);
}

/* Runs source (read from path) as the body of module m: 0 or -1 with the error. */
static int exec_source(nn_object *m, char *source, const char *path)
{
    char msg[1024], *decoded;
    const char *text = repl_source_text(source, path, &decoded, msg, sizeof msg);
    if (!text) {
        if (msg[0]) return repl_raise_exc(EXC_SyntaxError, "%s", msg);
        return repl_raise_exc(EXC_MemoryError, "%s", "");
    }
    int rc = repl_exec_module_source(m, ((module_obj *)m)->name, text, path);
    nn_free(decoded);
    return rc;
}

int repl_exec_file_in_module(nn_object *m, const char *path)
{
    char *source = read_source(path);
    if (!source) {
        if (nn_error_current()) return -1;
        repl_mod_os_error(errno, path);
        return -1;
    }
    int rc = exec_source(m, source, path);
    nn_free(source);
    return rc;
}

nn_object *repl_import_user_file(const char *name)
{
    if (!module_name_ok(name)) return NULL;
    char key[600];
    snprintf(key, sizeof key, "file:%s", name);
    nn_object *m = repl_nmap_get(&repl_current->stdlib_modules, key);
    if (m) return nn_retain(m);
    char path[4800];
    char *source = find_source(name, path, sizeof path);
    if (!source) return NULL;
    m = repl_module_new(name);
    nn_object *file = m ? nn_str_new(path) : NULL, *mod_name = file ? nn_str_new(name) : NULL;
    int rc = mod_name ? repl_set_attr(m, "__file__", file) : -1;
    if (rc == 0) rc = repl_set_attr(m, "__name__", mod_name);
    NN_RELEASE(file);
    NN_RELEASE(mod_name);
    /* cached before it runs, as sys.modules: a module that imports itself back gets it */
    if (rc == 0) rc = repl_nmap_set(&repl_current->stdlib_modules, key, m);
    if (rc == 0) rc = exec_source(m, source, path);
    nn_free(source);
    const char *last_dot = strrchr(name, '.');
    if (rc == 0 && last_dot) { /* import a.b makes b an attribute of a */
        char parent[512];
        snprintf(parent, sizeof parent, "%.*s", (int)(last_dot - name), name);
        nn_object *p = repl_import_by_name(parent);
        rc = p ? repl_set_attr(p, last_dot + 1, m) : -1;
        NN_RELEASE(p);
    }
    if (rc < 0) {
        if (m) repl_nmap_del(&repl_current->stdlib_modules, key);
        NN_SET(m, NULL);
    }
    return m;
}
