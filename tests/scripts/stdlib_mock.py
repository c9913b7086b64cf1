import os, unittest
from unittest import mock
from unittest.mock import Mock, MagicMock, call, patch, sentinel, ANY, NonCallableMock, PropertyMock, DEFAULT, mock_open, create_autospec
import unittest.mock
print(unittest.mock.Mock is Mock)
m = Mock()
m(1, 2, a=3)
m.foo(4)
m.foo.bar(5)(6)
print(m.call_args, m.call_args_list, m.call_count, m.called)
print(m.mock_calls)
print(m.method_calls)
print(m.call_args.args, m.call_args.kwargs)
args, kwargs = m.call_args
print(args, kwargs)
print(m.mock_calls == [call(1, 2, a=3), call.foo(4), call.foo.bar(5), call.foo.bar()(6)])
print(m.call_args == call(1, 2, a=3), m.call_args == ((1, 2), {'a': 3}))
print(call(1, ANY) == call(1, 'x'))
m.assert_called_with(1, 2, a=3)
m.foo.assert_called_once_with(4)
m.assert_any_call(1, 2, a=ANY)
for f in [lambda: m.assert_called_with(9), lambda: m.assert_called_once_with(9), lambda: m.foo.assert_called_with(1),
          lambda: Mock().assert_called(), lambda: m.assert_not_called(), lambda: Mock(name='nm').assert_called_with(1),
          lambda: m.assert_any_call(7), lambda: m.assert_has_calls([call(1), call(2)]),
          lambda: Mock().assert_has_calls([call(1)]), lambda: m.assert_has_calls([call.foo(3)], any_order=True),
          lambda: m.assert_called_once(), lambda: m.foo.bar.assert_not_called()]:
    try: f(); print('no error')
    except AssertionError as e: print('AE:', e)
m.foo.assert_has_calls([call(4)])
m.assert_has_calls([call.foo(4), call.foo.bar(5)])
s = Mock(side_effect=[1, 2, ValueError('bad')])
print(s(), s())
try: s()
except ValueError as e: print('VE', e)
try: s()
except StopIteration: print('StopIteration')
e = Mock(side_effect=KeyError('k'))
try: e()
except KeyError as ex: print('KE', ex)
f = Mock(side_effect=lambda x: x * 2); print(f(21))
r = Mock(return_value=sentinel.result); print(r(), sentinel.result is sentinel.result)
d = Mock(side_effect=lambda: mock.DEFAULT, return_value=5); print(d())
m.reset_mock(); print(m.call_count, m.mock_calls, m.foo.call_count)
c = Mock(a=1, **{'b.c': 2, 'method.return_value': 3, 'other.side_effect': KeyError})
print(c.a, c.b.c, c.method())
try: c.assert_called_wiht()
except AttributeError as ex: print('AttributeError', ex)
class Foo:
    x = 1
    def meth(self, a): return a
sm = Mock(spec=Foo)
try: sm.nope
except AttributeError as ex: print('AttributeError', ex)
ss = Mock(spec_set=['a'])
ss.a = 1
try: ss.b = 2
except AttributeError as ex: print('AttributeError', ex)
try: NonCallableMock()()
except TypeError as ex: print('TypeError', ex)
print(callable(NonCallableMock()), callable(Mock()))
mm = MagicMock()
print(len(mm), list(mm), bool(mm), int(mm), float(mm), 3 in mm)
mm.__len__.return_value = 3
mm.__iter__.return_value = [1, 2]
mm.__getitem__.side_effect = lambda k: k * 10
print(len(mm), list(mm), mm[4])
with mm as ctx: print(ctx is mm.__enter__.return_value)
mm.__enter__.assert_called_once_with()
mm.__exit__.assert_called_once_with(None, None, None)
print(mm == mm, mm != mm, mm == 3)
r = mm + 1; print(type(r).__name__)
try: mm < 1
except TypeError as ex: print('TypeError', ex)
mm.__str__.return_value = 'hello'; print(str(mm))
mm2 = MagicMock(); mm2.__len__ = lambda self: 42; print(len(mm2))
class P:
    pass
p = PropertyMock(return_value=7)
P.x = p
o = P(); print(o.x); o.x = 8; print(p.mock_calls)
print(sentinel.foo, mock.DEFAULT, ANY)
print(isinstance(sm, Foo))
def get_cwd():
    return os.getcwd()

with patch('os.getcwd', return_value='/fake') as m:
    print(get_cwd(), m.call_count)
print(get_cwd() != '/fake')

@patch('os.path.exists')
@patch('os.listdir', return_value=['a'])
def f(mock_listdir, mock_exists, extra=1):
    mock_exists.return_value = False
    return os.listdir('.'), os.path.exists('x'), extra
print(f())
print(f(extra=5))

class Cfg:
    value = 1
    def method(self, x):
        return x + 1

with patch.object(Cfg, 'value', 99):
    print(Cfg.value)
print(Cfg.value)
with patch.object(Cfg, 'method') as mm:
    mm.return_value = 'mocked'
    print(Cfg().method(3))
    mm.assert_called_once_with(3)
print(Cfg().method(3))

p = patch.object(Cfg, 'value', new=sentinel.v)
p.start(); print(Cfg.value); p.stop(); print(Cfg.value)
print(p.stop())

d = {'a': 1}
with patch.dict(d, {'b': 2}):
    print(sorted(d.items()))
print(d)
with patch.dict(d, clear=True, c=3):
    print(d)
print(d)
with patch.dict('os.environ', {'MY_VAR': 'x'}):
    print(os.environ['MY_VAR'])
print('MY_VAR' in os.environ)

@patch.dict(d, {'z': 26})
def g():
    return dict(d)
print(g(), d)

try:
    patch('nodots')
except TypeError as e: print('TypeError', e)
with patch('os.nonexistent_attr', create=True, new=5):
    print(os.nonexistent_attr)
print(hasattr(os, 'nonexistent_attr'))
try:
    patch.object('os', 'x')
except TypeError as e: print('TypeError', e)
with patch.multiple(Cfg, value=DEFAULT, method=DEFAULT) as vals:
    print(sorted(vals), isinstance(vals['value'], MagicMock))
print(Cfg.value)
m = mock_open(read_data='a\nb\nc')
with m('x') as fh:
    print(fh.readline(), fh.readlines())
m.assert_called_once_with('x')
fh = m('y')
print(repr(fh.read()))
mo = mock_open()
with mo('out.txt', 'w') as fh:
    fh.write('hello')
mo.assert_called_once_with('out.txt', 'w')
mo().write.assert_called_once_with('hello')
def func(a, b, c=3): return a
af = create_autospec(func, return_value=7)
print(af(1, 2))
try: af(1, 2, 3, 4)
except TypeError as e: print('TypeError', e)
af.assert_called_once_with(1, 2)
ac = create_autospec(Cfg)
inst = ac()
inst.method(2)
inst.method.assert_called_with(2)
try: inst.method(1, 2)
except TypeError as e: print('TypeError', e)
try: inst.nothing
except AttributeError as e: print('AttributeError', e)
m = MagicMock()
m.method.return_value.attr.side_effect = [1, 2]
print(m.method().attr(), m.method().attr())
print(m.mock_calls)
m2 = Mock()
m2.attach_mock(Mock(name='child'), 'child')
m2.child(1)
print(m2.mock_calls, m2.method_calls)
mock.seal(m2)
try: m2.newattr
except AttributeError as e: print('AttributeError', e)
print(call(1).foo(2).call_list())
m3 = MagicMock()
m3(1).foo(2)
print(m3.mock_calls == call(1).foo(2).call_list())
m4 = Mock(wraps=lambda x: x + 100)
print(m4(1), m4.call_args)
print(Mock().__class__.__name__, MagicMock(spec=dict).__class__)

class TestX(unittest.TestCase):
    @patch('os.getcwd')
    def test_cwd(self, mcwd):
        mcwd.return_value = '/t'
        self.assertEqual(get_cwd(), '/t')
    @patch.object(Cfg, 'value', 5)
    def test_val(self):
        self.assertEqual(Cfg.value, 5)
    def test_fail(self):
        m = Mock()
        m(1)
        m.assert_called_with(2)

@patch('os.getcwd', return_value='/cls')
class TestCls(unittest.TestCase):
    def test_a(self, mcwd):
        self.assertEqual(os.getcwd(), '/cls')

suite = unittest.TestSuite()
loader = unittest.TestLoader()
suite.addTests(loader.loadTestsFromTestCase(TestX))
suite.addTests(loader.loadTestsFromTestCase(TestCls))
result = unittest.TestResult()
suite.run(result)
print(result.testsRun, len(result.failures), len(result.errors))
print(result.failures[0][0], result.failures[0][1].splitlines()[-3:])
