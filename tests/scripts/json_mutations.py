# json.loads against CPython on 3000 mutated documents (issue 22): characters
# deleted, inserted (brackets, quotes, escapes, digits, NaN/Infinity letters,
# control characters, non-ASCII) or the text cut, from a seeded random stream; each
# document's value or JSONDecodeError (msg, pos, lineno, colno) as CPython's.
import json
import random

random.seed(7)
base = ['{"a": [1, 2.5, -3e10, true, false, null, "x\\u00e9\\n"], "b": {"c": NaN, "d": -Infinity}}',
        '[123456789012345678901234567890, 1E-5, "\\ud83d\\ude00", {}, []]', '"abc\\"def"',
        '  {"k" : [ 1 , { "z" : "q" } ] }  ']
alpha = '{}[],:"\\ 0123456789.eE+-tfnulNaIyx\n\t\x01é'
counts = {}
for i in range(3000):
    s = list(random.choice(base))
    for _ in range(random.randint(1, 4)):
        op = random.random()
        p = random.randrange(len(s) + 1)
        if op < 0.4 and s:
            del s[min(p, len(s) - 1)]
        elif op < 0.8:
            s.insert(p, random.choice(alpha))
        else:
            s = s[:p]
    d = ''.join(s)
    try:
        r = json.loads(d)
        print('ok', ascii(r))
        counts['ok'] = counts.get('ok', 0) + 1
    except json.JSONDecodeError as e:
        print('err', e.msg, e.pos, e.lineno, e.colno)
        counts[e.msg] = counts.get(e.msg, 0) + 1
print(sorted(counts.items()))
