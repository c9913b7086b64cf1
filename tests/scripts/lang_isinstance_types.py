# isinstance of the values the interpreter makes in its own ways: globals() is a
# dict, memoryview a type, range(2**70) a range, re's flags ints (RegexFlag);
# metaclass conflicts between bases; yield outside a function fails to compile
import re
print(isinstance(globals(), dict), isinstance(locals(), dict))
print(isinstance(b'x', memoryview), isinstance(3, memoryview))
m = memoryview(b'abcd')
print(isinstance(m, memoryview), type(m), type(m) is memoryview, memoryview, m[1:3].tobytes(), m.tolist())
print(isinstance(range(2**70), range), isinstance(range(3), range), isinstance([], range), len(range(2**70)[:5]))
print(isinstance(re.I, int), re.I | 0, re.I + 1, {re.I: 1}[2], {2: 'two'}[re.I], re.I == 2, int(re.I), re.I * 3)
print(re.M | re.I, re.I.value, re.I.name, hash(re.I) == hash(2), sorted([re.M, re.I]), [0, 1, 2, 3][re.I])
print(re.compile('a', 2).flags & re.I, re.search('A', 'xa', 2).group(), re.sub('A', 'b', 'aA', flags=re.I))


class M1(type):
    pass


class M2(type):
    pass


class M3(M1):
    pass


class A(metaclass=M1):
    pass


class B(metaclass=M2):
    pass


class C(metaclass=M3):
    pass


try:
    class D(A, B):
        pass
except TypeError as e:
    print('TypeError', e)
try:
    class E(A, metaclass=M2):
        pass
except TypeError as e:
    print('TypeError', e)


class F(A, C):
    pass


class G(C, metaclass=M1):
    pass


print(type(F).__name__, type(G).__name__)
for src in ['yield 1', 'x = yield', 'class K:\n    y = yield 2', 'print((yield))', 'def f():\n    class K:\n        yield 3']:
    try:
        compile(src, '<s>', 'exec')
        print('compiled')
    except SyntaxError as e:
        print(type(e).__name__, e.msg, e.lineno, e.offset, e.end_offset)
for src in ['def f():\n    yield 1', 'def f():\n    g = lambda: (yield)', 'def f():\n    x = [1 for _ in (yield)]', 'return 1 + 2', 'break']:
    try:
        compile(src, '<s>', 'exec')
        print('compiled')
    except SyntaxError as e:
        print(type(e).__name__, e.msg, e.lineno, e.offset, e.end_offset)
