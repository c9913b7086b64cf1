# json: dumps/loads as CPython 3.11 formats and parses them, JSONDecodeError messages and positions
import json
from collections import OrderedDict, Counter, namedtuple
data = {'name': 'model', 'layers': [784, 128, 10], 'lr': 0.001, 'ok': True, 'none': None, 'nested': {'a': [1.5, 2e20, -0.0], 'b': {}}, 'empty': [], 't': (1, 2)}
print(json.dumps(data))
print(json.dumps(data, indent=2))
print(json.dumps(data, indent='\t', sort_keys=True))
print(json.dumps(data, separators=(',', ':')))
print(json.dumps({'b': 1, 'a': 2}, sort_keys=True), json.dumps([]), json.dumps({}), json.dumps([[]], indent=2), json.dumps({'a': {}}, indent=0))
print(json.dumps('héllo ✓ 😀 "q" \\ \n\t\x01\x7f'), json.dumps('héllo ✓ 😀\x7f', ensure_ascii=False))
print(json.dumps({1: 'a', 2.5: 'b', True: 'c', None: 'd'}), json.dumps(float('nan')), json.dumps([float('inf'), -float('inf')]))
print(json.dumps(3), json.dumps('s'), json.dumps(None), json.dumps(1.0), json.dumps(0.1), json.dumps(1e-7), json.dumps(123456789.125))
print(json.dumps(OrderedDict([('z', 1), ('a', 2)])), json.dumps(Counter('aab')), json.dumps(namedtuple('P', 'x y')(1, 2)))
for bad in [lambda: json.dumps({(1, 2): 3}), lambda: json.dumps(object()), lambda: json.dumps(float('nan'), allow_nan=False), lambda: json.dumps({1, 2})]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
l = [1]; l.append(l)
try:
    json.dumps(l)
except ValueError as e:
    print('ValueError', e)
print(json.dumps({(1, 2): 3, 'k': 1}, skipkeys=True))
print(json.dumps({'s': {1, 2}}, default=sorted), json.dumps([1, {'x': 2}], indent=4))
class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)
print(json.dumps({'s': {3, 1}}, cls=Enc))
print(json.loads('{"a": [1, 2.5, "x", true, false, null], "b": {"c": -3}}'))
print(json.loads('"\\u00e9\\ud83d\\ude00\\n"'), json.loads('  7 '), json.loads('[]'), json.loads('{"a":1,"a":2}'), json.loads('1.5e3'), json.loads('-0.0'))
print(json.loads('{"b": 1, "a": 2}', object_pairs_hook=OrderedDict), json.loads('{"x": {"y": 1}}', object_hook=lambda d: sorted(d)))
print(json.loads(json.dumps(data)) == {**data, 't': [1, 2]})
for s in ['', '{', '{"a" 1}', '[1,]', '[1 2]', '1 2', '{"a":1,}', 'nul', '"abc', '"a\\q"', '{1:2}', '[1,2', 'tru', '"\x01"', '  ', '[', '{"a":}', '-', '[1,,2]', "{'a':1}", '["x\ny"]', '{"a":1 "b":2}', '\n\n  [1,\n  x]', '"é" 1', '{"a":\n}']:
    try:
        print(repr(s), '->', repr(json.loads(s)))
    except json.JSONDecodeError as e:
        print(repr(s), 'JSONDecodeError', e, e.pos, e.lineno, e.colno, e.msg, isinstance(e, ValueError))
try:
    json.loads(3)
except TypeError as e:
    print('TypeError', e)
class F:
    def __init__(self): self.parts = []
    def write(self, s): self.parts.append(s)
    def read(self): return ''.join(self.parts)
f = F(); json.dump({'k': [1, 2]}, f, indent=1); print(''.join(f.parts)); print(json.load(f))
try:
    json.nosuch
except AttributeError as e:
    print('AttributeError', e)
json.loads('[1, 2')
