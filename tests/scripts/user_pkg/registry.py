# a module for lang_module_globals.py: its globals(), global statements,
# exec/eval in its namespace, a registry filled by a decorator
counter = 0
REGISTRY = {}
seen_name = __name__


def register(fn):
    REGISTRY[fn.__name__] = fn
    globals()['last_registered'] = fn.__name__
    return fn


def bump(by=1):
    global counter
    counter += by
    return counter


def reset():
    global counter, made_later
    counter = 0
    made_later = 'yes'


def names():
    return sorted(k for k in globals() if not k.startswith('__'))


def lookup(name):
    return globals().get(name, 'missing')


def evaluate(text):
    return eval(text)


def run(code):
    exec(code, globals())


def module_vars():
    return vars()


class Config:
    level = counter

    def where(self):
        return __name__, type(self).__module__


g_at_top = globals()
top_is_vars = vars() is globals()
top_is_locals = locals() is globals()
exec("exec_at_top = counter + 1")
eval_at_top = eval("__name__")
comp = [counter + i for i in range(3)]
gen_sum = sum(counter + i for i in range(3))


@register
def square(x):
    return x * x
