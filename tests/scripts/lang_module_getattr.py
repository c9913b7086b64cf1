# PEP 562: a module's own __getattr__(name) answers for the names it lacks (lazy attributes,
# deprecation shims), and its AttributeError is what the caller sees; the module is found
# in a folder the script put on sys.path.
import os
import sys
import tempfile

source = '''
import warnings
VALUE = 1

def __getattr__(name):
    if name == 'old_value':
        return VALUE * 100
    if name.startswith('lazy_'):
        return name[5:].upper()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
'''
folder = tempfile.mkdtemp()
with open(os.path.join(folder, 'pep562_mod.py'), 'w') as f:
    f.write(source)
sys.path.insert(0, folder)
import pep562_mod
print(pep562_mod.VALUE, pep562_mod.old_value, pep562_mod.lazy_thing)
print(getattr(pep562_mod, 'lazy_x'), hasattr(pep562_mod, 'missing'), getattr(pep562_mod, 'missing', 'default'))
from pep562_mod import lazy_imported
print(lazy_imported)
try:
    pep562_mod.missing
except AttributeError as e:
    print(e)
os.remove(os.path.join(folder, 'pep562_mod.py'))
os.rmdir(folder)
