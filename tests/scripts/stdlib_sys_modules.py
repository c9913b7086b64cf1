import builtins, atexit, platform, socket, getpass, importlib, importlib.util, sys, os
print(builtins.len is len, builtins.print is print, builtins.ValueError is ValueError, getattr(builtins, 'max')([1, 3]))
print(builtins.__name__, hasattr(builtins, 'open'), 'zip' in dir(builtins))
def bye(name, punct='!'):
    print('bye', name + punct)
def first():
    print('first registered, last run')
atexit.register(first)
atexit.register(bye, 'world', punct='?')
r = atexit.register(print, 'third')
atexit.unregister(print)
print(r is print, atexit._ncallbacks())
@atexit.register
def deco():
    print('decorated')
try:
    atexit.register(3)
except TypeError as e:
    print('TypeError', e)
u = platform.uname()
print(platform.system(), platform.machine() in ('x86_64', 'aarch64'), len(u), u[0] == u.system == platform.system())
print(platform.python_version() == '%d.%d.%d' % sys.version_info[:3], platform.python_version_tuple()[:2], platform.python_implementation())
print(platform.node() == socket.gethostname() == u.node, platform.platform().startswith('Linux-' + platform.release()), repr(platform.processor()))
print(platform.architecture(), platform.libc_ver()[0], type(platform.version()).__name__)
print(getpass.getuser() == (os.environ.get('LOGNAME') or os.environ.get('USER') or getpass.getuser()), isinstance(getpass.getuser(), str))
m = importlib.import_module('math')
print(m.sqrt(16), importlib.import_module('os.path') is os.path, importlib.import_module('json').dumps([1]))
for bad in [('nonexistent_mod_xyz',), ('.x',), ('',)]:
    try: importlib.import_module(*bad)
    except Exception as e: print(type(e).__name__, e)
print(importlib.util.find_spec('nonexistent_mod_xyz'), importlib.util.find_spec('json') is not None)
import tempfile
path = os.path.join(tempfile.mkdtemp(), 'mymod_ab.py')
with open(path, 'w') as f:
    f.write('X = 41\ndef f():\n    return X + 1\n')
spec = importlib.util.spec_from_file_location('mymod_ab', path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
print(spec.name, mod.__name__, mod.X, mod.f(), mod.__file__ == path, spec.origin == path)
try: importlib.reload(3)
except TypeError as e: print(e)
print('end of script')
