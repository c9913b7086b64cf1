# ast.literal_eval as CPython 3.11's (minGPT's CfgNode.merge_from_args reads its command
# line with it): numbers, strings, bytes, containers, unary signs; ValueError for names,
# calls, operators (the node's class named) and SyntaxError for text that does not parse.
import re
from ast import literal_eval
import ast

for s in ['3', '3.14', '-2', '+1.5e3', '[1, 2, 3]', '(1,)', '()', '(1)', "'abc'", '"a" "b"', "b'x'", 'True',
          'None', "{'a': 1, 'b': [2, 3]}", '{1, 2}', '{}', '0x1F', '0o17', '0b101', '1_000', '  7',
          '(1, (2, 3), [4, {5: 6}])', '1e-3', '0.1', '2,3', "'''t'''", "r'\\n'", "'\\n'", '-0.0', '--3',
          '[1, 2,]', '{"k": (1, 2),}']:
    try:
        print(repr(s), '->', repr(literal_eval(s)))
    except Exception as e:
        print(repr(s), '!!', type(e).__name__, re.sub('0x[0-9a-f]+', '0x...', str(e)))
for s in ['abc', 'a.b', 'f(1)', '1+2', '1*2', '[1, x]', '', '1 2', '(1,', "'abc", '-True', '-"s"', 'x[0]', '01',
          '-[1]', 'inf']:
    try:
        print(repr(s), '->', repr(literal_eval(s)))
    except Exception as e:
        print(repr(s), '!!', type(e).__name__, re.sub('0x[0-9a-f]+', '0x...', str(e)))
print(ast.literal_eval('[0.5, "x"]'))
try:
    ast.literal_eval(5)
except ValueError as e:
    print('ValueError:', e)
