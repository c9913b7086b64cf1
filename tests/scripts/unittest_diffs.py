# unittest: the ndiff lines under failed assertEqual of lists/tuples/dicts/sets/strings (maxDiff, shortened reprs),
# assertLogs/assertNoLogs, subTest lines, main(argv=..., exit=False) summaries with -v/-q/-k, patching builtins
import io
import logging
import re
import sys
import unittest
from unittest import mock


class Diffs(unittest.TestCase):
    def test_list(self):
        self.assertEqual([1, 2, 3], [1, 2, 4])

    def test_dict(self):
        self.assertEqual({'a': 1, 'b': 2}, {'a': 1, 'b': 3})

    def test_nested_config(self):
        self.maxDiff = None
        self.assertEqual({'model': {'layers': [64, 128, 256], 'dropout': 0.1, 'act': 'relu'}, 'lr': 0.001, 'epochs': 10},
                         {'model': {'layers': [64, 128, 512], 'dropout': 0.1, 'act': 'gelu'}, 'lr': 0.001, 'epochs': 10})

    def test_word(self):
        self.assertEqual('hello', 'hallo')

    def test_lines(self):
        self.assertEqual('first line\nsecond line\nthird line', 'first line\nsecond  line\nthird line\nfourth')

    def test_tuple_longer(self):
        self.assertEqual((1, 2), (1, 2, 3))

    def test_list_shorter_msg(self):
        self.assertListEqual([1, 2, 3], [1], 'custom message')

    def test_set(self):
        self.assertEqual({1, 2}, {2, 3})

    def test_frozenset(self):
        self.assertEqual(frozenset([1]), frozenset([2]))

    def test_long_list(self):
        self.assertEqual(list(range(100)), list(range(1, 101)))

    def test_long_string(self):
        self.assertEqual('x' * 100 + 'a', 'x' * 100 + 'b')

    def test_sequence_types(self):
        self.assertSequenceEqual([1, 2], (1, 2))  # equal items: passes
        self.assertSequenceEqual([1, 2], (1, 3))

    def test_count(self):
        self.assertCountEqual([1, 1, 2], [1, 2, 2])

    def test_type_func(self):
        class Point:
            def __init__(self, x):
                self.x = x

        def points_equal(a, b, msg=None):
            if a.x != b.x:
                raise self.failureException('points differ: %d != %d' % (a.x, b.x))
        self.addTypeEqualityFunc(Point, points_equal)
        self.assertEqual(Point(1), Point(1))
        self.assertEqual(Point(1), Point(2))

    def test_subtests(self):
        for p in [(1, 1), (2, 3), (4, 4), (5, 'x')]:
            with self.subTest(p=p):
                self.assertEqual(p[0], p[1])
        with self.subTest('named', k=1):
            raise KeyError('k')


class Logs(unittest.TestCase):
    def test_captured(self):
        with self.assertLogs('train', level='INFO') as cm:
            logging.getLogger('train').info('epoch %d', 1)
            logging.getLogger('train.data').error('bad batch')
            logging.getLogger('train').debug('not captured')
        print(cm.output)
        print([r.levelname for r in cm.records], cm.records[0].getMessage())
        records, output = cm
        print(len(records), output[1])

    def test_root(self):
        with self.assertLogs() as cm:
            logging.warning('from root')
        print(cm.output)

    def test_logger_object(self):
        log = logging.getLogger('obj')
        with self.assertLogs(log, logging.DEBUG) as cm:
            log.debug('dbg')
        print(cm.output, log.handlers, log.propagate, log.level)

    def test_nologs_ok(self):
        with self.assertNoLogs('quiet', level='WARNING'):
            logging.getLogger('quiet').info('below the level')

    def test_failures(self):
        with self.assertRaises(AssertionError) as cm:
            with self.assertLogs('empty', level='ERROR'):
                logging.getLogger('empty').warning('too low')
        print(cm.exception)
        with self.assertRaises(AssertionError) as cm:
            with self.assertNoLogs('noisy'):
                logging.getLogger('noisy').info('oops %s', 'here')
        print(cm.exception)
        with self.assertRaises(ZeroDivisionError):
            with self.assertLogs('x'):
                1 / 0


class Small(unittest.TestCase):
    def test_alpha(self):
        pass

    def test_beta(self):
        pass

    def test_gamma(self):
        self.assertEqual([1], [2])


def clean(text):
    # no timings, no absolute paths
    text = re.sub(r'Ran (\d+ tests?) in [0-9.]+s', r'Ran \1', text)
    return re.sub(r'File "[^"]*/([^/"]+)"', r'File "\1"', text)


def report(title, argv):
    print('==', title, argv)
    stream = io.StringIO()
    runner = unittest.TextTestRunner(stream=stream, verbosity=1)
    prog = unittest.main(argv=argv, exit=False, testRunner=runner)
    print(clean(stream.getvalue()), end='')
    r = prog.result
    print(r.wasSuccessful(), r.testsRun, len(r.failures), len(r.errors), len(r.skipped))


for case in (Diffs, Logs):
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream, verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    print(clean(stream.getvalue()), end='')
    print(result)

report('one class', ['prog', 'Small'])
report('one test', ['prog', 'Small.test_beta'])
report('pattern', ['prog', '-k', 'alpha', 'Small'])
report('verbose pattern', ['prog', '-v', '-k', '*mm*', 'Small'])


# patching builtins: every call of the name sees the patch, and it is restored after
def read_config(path):
    with open(path) as f:
        return f.read()


with mock.patch('builtins.open', mock.mock_open(read_data='lr=0.1\nepochs=3\n')) as m:
    print(repr(read_config('train.cfg')))
    m.assert_called_once_with('train.cfg')
with mock.patch('builtins.input', return_value='yes'):
    print(input('continue? '))
with mock.patch('builtins.print') as mp:
    print('hidden', 1)
print(mp.call_args)
import builtins
with mock.patch.object(builtins, 'abs', return_value=-1):
    print(abs(-5))
print(abs(-5), builtins.open is open)
builtins.extra_name = 'visible'
print(extra_name)
del builtins.extra_name
try:
    extra_name
except NameError as e:
    print('NameError:', e)
