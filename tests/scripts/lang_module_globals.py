# globals() in an imported module is that module's namespace: global statements,
# exec/eval with the module's globals, vars(), module.__dict__ (a live view)
import user_pkg.registry as reg
from user_pkg.registry import bump, Config

print(reg.seen_name, reg.__name__, __name__)
print(reg.top_is_vars, reg.top_is_locals, reg.g_at_top['__name__'], 'bump' in reg.g_at_top)
print(reg.exec_at_top, reg.eval_at_top, reg.comp, reg.gen_sum)
print(list(reg.REGISTRY), reg.REGISTRY["square"] is reg.square, reg.last_registered, reg.square(4))
print(bump(), bump(2), reg.counter)
reg.counter = 100
print(bump(), reg.lookup('counter'), reg.lookup('nothing'))
reg.reset()
print(reg.counter, reg.made_later)
print(reg.names())
print(reg.evaluate('counter + 5'), reg.evaluate('__name__'))
reg.run('def added():\n    return counter + 1000\nnew_value = 7')
print(reg.added(), reg.new_value, 'new_value' in globals())
print(Config().where(), Config.level)
print(reg.module_vars() == {}, type(reg.__dict__).__name__)
d = reg.__dict__
print(d is vars(reg), d is reg.g_at_top, d['counter'], d.get('nope', 'default'))
d['injected'] = 'via dict'
print(reg.injected, reg.lookup('injected'))
del d['injected']
print(hasattr(reg, 'injected'), 'injected' in d)
print(sorted(k for k in vars(reg) if k.startswith('__') and k in ('__name__', '__file__')))
# __main__'s own
x = 1
print(globals() is vars(), globals()['x'], eval('x + 1'), __name__)
exec('y = x + 10', globals())
print(y)
import json
print('dumps' in vars(json), type(vars(json)).__name__)
