# collections.ChainMap as CPython 3.11: lookups through the maps, writes to the first,
# new_child/parents, repr, the | operators, the Mapping mixins and the KeyError messages.
import collections
from collections import ChainMap
from collections.abc import Mapping, MutableMapping

defaults = {'lr': 0.1, 'epochs': 10, 'batch': 32}
env = {'lr': 0.01}
cli = {'epochs': 3}
cfg = ChainMap(cli, env, defaults)
print(cfg)
print(cfg['lr'], cfg['epochs'], cfg['batch'], len(cfg), list(cfg))
print(cfg.get('missing'), cfg.get('missing', 7), 'lr' in cfg, 'x' in cfg, bool(cfg), bool(ChainMap({}, {})))
print(list(cfg.keys()), list(cfg.values()), list(cfg.items()))
print(dict(cfg), cfg.maps is cfg.maps, cfg.maps[0] is cli)
print(isinstance(cfg, Mapping), isinstance(cfg, MutableMapping), isinstance(cfg, dict), type(cfg).__name__)

cfg['batch'] = 64            # writes go to the first map only
print(cli, defaults['batch'], cfg['batch'])
del cfg['batch']
print(cli, cfg['batch'])
try:
    del cfg['lr']            # in a later map, not the first
except KeyError as e:
    print('KeyError', e)
try:
    cfg['nothing']
except KeyError as e:
    print('KeyError', e)
print(cfg.pop('epochs'), cli, cfg.pop('zz', 'dflt'))
try:
    cfg.pop('zz')
except KeyError as e:
    print('KeyError', e)
try:
    ChainMap({}).popitem()
except KeyError as e:
    print('KeyError', e)
cli['a'] = 1
print(cfg.popitem(), cli)

child = cfg.new_child()
child['lr'] = 0.5
print(child, child['lr'], cfg['lr'])
print(child.parents, child.parents.parents)
print(cfg.new_child({'k': 1}), cfg.new_child(k=2), cfg.new_child({'a': 0}, b=1))
print(ChainMap(), ChainMap().maps, ChainMap.fromkeys('ab'), ChainMap.fromkeys('ab', 0))

c2 = cfg.copy()
c2['new'] = 1
print(c2, cfg, c2.maps[1] is cfg.maps[1])
print(cfg | {'lr': 9}, {'z': 0} | cfg, type({'z': 0} | cfg).__name__)
c3 = ChainMap({'a': 1}, {'b': 2})
c3 |= {'c': 3}
print(c3)
print(c3 == {'a': 1, 'b': 2, 'c': 3}, c3 == ChainMap({'a': 1, 'b': 2, 'c': 3}), c3 != {})
c3.clear()
print(c3)


class Defaulting(ChainMap):      # a subclass with __missing__, as CPython's docs suggest
    def __missing__(self, key):
        return 'default-' + str(key)


d = Defaulting({'x': 1})
print(d['x'], d['y'], repr(d), type(d.new_child()).__name__, type(d.parents).__name__)

loop = ChainMap({})
loop.maps[0]['self'] = loop      # a recursive repr
print(loop)
print(collections.ChainMap is ChainMap, ChainMap.__module__)
try:
    cfg | 3
except TypeError as e:
    print('TypeError', e)
