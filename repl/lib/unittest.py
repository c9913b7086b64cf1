# unittest — CPython 3.11's unittest as scripts use it: TestCase with the
# assert* methods and their failure messages (the ndiff lines under unequal
# lists, tuples, dicts, sets and strings included), assertLogs/assertNoLogs,
# setUp/tearDown, setUpClass/tearDownClass, addCleanup, skip decorators,
# expectedFailure, subTest, TestSuite, TestLoader, TextTestRunner, TestResult
# and main() with CPython's output (on stderr) and exit status. Not here:
# discovery of test files; mock is unittest.mock.
import sys
import time
import traceback

__all__ = ['TestResult', 'TestCase', 'TestSuite', 'TextTestRunner', 'TestLoader', 'FunctionTestCase', 'main',
           'defaultTestLoader', 'SkipTest', 'skip', 'skipIf', 'skipUnless', 'expectedFailure',
           'TextTestResult', 'installHandler', 'registerResult', 'removeResult', 'removeHandler',
           'addModuleCleanup', 'getTestCaseNames', 'makeSuite', 'findTestCases']

_MAX_LENGTH = 80
_PLACEHOLDER_LEN = 12
_MIN_BEGIN_LEN = 5
_MIN_END_LEN = 5
_MIN_COMMON_LEN = 5
_MIN_DIFF_LEN = _MAX_LENGTH - (_MIN_BEGIN_LEN + _PLACEHOLDER_LEN + _MIN_COMMON_LEN + _PLACEHOLDER_LEN + _MIN_END_LEN)
DIFF_OMITTED = '\nDiff is %s characters long. Set self.maxDiff to None to see it.'


def safe_repr(obj, short=False):
    try:
        result = repr(obj)
    except Exception:
        result = object.__repr__(obj)
    if not short or len(result) < _MAX_LENGTH:
        return result
    return result[:_MAX_LENGTH] + ' [truncated]...'


def _shorten(s, prefixlen, suffixlen):
    skip = len(s) - prefixlen - suffixlen
    if skip > _PLACEHOLDER_LEN:
        return '%s[%d chars]%s' % (s[:prefixlen], skip, s[len(s) - suffixlen:])
    return s


def _common_shorten_repr(*args):
    # the reprs of the values, cut in the middle of their common start and of
    # their tails so that each fits in about 80 characters, as CPython's
    reprs = tuple(safe_repr(a) for a in args)
    maxlen = max(len(r) for r in reprs)
    if maxlen <= _MAX_LENGTH:
        return reprs
    prefixlen = 0
    shortest = min(len(r) for r in reprs)
    while prefixlen < shortest and all(r[prefixlen] == reprs[0][prefixlen] for r in reprs):
        prefixlen += 1
    prefix = reprs[0][:prefixlen]
    common_len = _MAX_LENGTH - (maxlen - prefixlen + _MIN_BEGIN_LEN + _PLACEHOLDER_LEN)
    if common_len > _MIN_COMMON_LEN:
        prefix = _shorten(prefix, _MIN_BEGIN_LEN, common_len)
        return tuple(prefix + r[prefixlen:] for r in reprs)
    prefix = _shorten(prefix, _MIN_BEGIN_LEN, _MIN_COMMON_LEN)
    return tuple(prefix + _shorten(r[prefixlen:], _MIN_DIFF_LEN, _MIN_END_LEN) for r in reprs)


def _ndiff_lines(first, second):
    # the ndiff of the pretty-printed values, one line each, as under a failed assertEqual
    import difflib
    import pprint
    return '\n' + '\n'.join(difflib.ndiff(pprint.pformat(first).splitlines(),
                                           pprint.pformat(second).splitlines()))


def strclass(cls):
    return '%s.%s' % (cls.__module__, cls.__qualname__)


class SkipTest(Exception):
    """
    Raise this exception in a test to skip it.

    Usually you can use TestCase.skipTest() or one of the skipping decorators
    instead of raising this directly.
    """
    __module__ = 'unittest.case'


class _ShouldStop(Exception):
    pass


class _UnexpectedSuccess(Exception):
    pass


def _id(obj):
    return obj


def skip(reason):
    """
    Unconditionally skip a test.
    """
    def decorator(test_item):
        test_item.__unittest_skip__ = True
        test_item.__unittest_skip_why__ = reason
        return test_item
    if callable(reason):
        test_item = reason
        reason = ''
        return decorator(test_item)
    return decorator


def skipIf(condition, reason):
    """
    Skip a test if the condition is true.
    """
    if condition:
        return skip(reason)
    return _id


def skipUnless(condition, reason):
    """
    Skip a test unless the condition is true.
    """
    if not condition:
        return skip(reason)
    return _id


def expectedFailure(test_item):
    test_item.__unittest_expecting_failure__ = True
    return test_item


class _AssertRaisesContext:
    def __init__(self, expected, test_case, expected_regex=None, msg=None):
        self.expected = expected
        self.test_case = test_case
        self.expected_regex = expected_regex
        self.msg = msg
        self.obj_name = None

    def __enter__(self):
        return self

    def _fail(self, standard):
        raise self.test_case.failureException(self.test_case._formatMessage(self.msg, standard))

    def __exit__(self, exc_type, exc_value, tb):
        try:
            exc_name = self.expected.__name__
        except AttributeError:
            exc_name = str(self.expected)
        if exc_type is None:
            if self.obj_name:
                self._fail('{} not raised by {}'.format(exc_name, self.obj_name))
            self._fail('{} not raised'.format(exc_name))
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc_value
        if self.expected_regex is None:
            return True
        import re
        expected_regex = self.expected_regex
        if isinstance(expected_regex, str):
            expected_regex = re.compile(expected_regex)
        if not expected_regex.search(str(exc_value)):
            self._fail('"{}" does not match "{}"'.format(expected_regex.pattern, str(exc_value)))
        return True

    def handle(self, name, args, kwargs):
        if not args:
            if kwargs:
                raise TypeError('%r is an invalid keyword argument for this function' % (next(iter(kwargs)),))
            return self
        callable_obj = args[0]
        args = args[1:]
        try:
            self.obj_name = callable_obj.__name__
        except AttributeError:
            self.obj_name = str(callable_obj)
        with self:
            callable_obj(*args, **kwargs)


class _AssertWarnsContext(_AssertRaisesContext):
    def __enter__(self):
        import warnings
        self._cm = warnings.catch_warnings(record=True)
        self.warnings = self._cm.__enter__()
        warnings.simplefilter('always')
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self._cm.__exit__(exc_type, exc_value, tb)
        if exc_type is not None:
            return False
        try:
            exc_name = self.expected.__name__
        except AttributeError:
            exc_name = str(self.expected)
        for m in self.warnings:
            w = m.message
            if not isinstance(w, self.expected):
                continue
            if self.expected_regex is not None:
                import re
                if not re.search(self.expected_regex, str(w)):
                    continue
            self.warning = w
            self.filename = m.filename
            self.lineno = m.lineno
            return
        if self.obj_name:
            self._fail('{} not triggered by {}'.format(exc_name, self.obj_name))
        self._fail('{} not triggered'.format(exc_name))


class _LoggingWatcher:
    # what assertLogs gives: the records and their formatted lines
    def __init__(self, records, output):
        self.records = records
        self.output = output

    def __iter__(self):
        return iter((self.records, self.output))

    def __repr__(self):
        return '_LoggingWatcher(records=%r, output=%r)' % (self.records, self.output)


def _capturing_handler():
    import logging

    class _CapturingHandler(logging.Handler):
        def __init__(self):
            logging.Handler.__init__(self)
            self.watcher = _LoggingWatcher([], [])

        def flush(self):
            pass

        def emit(self, record):
            self.watcher.records.append(record)
            self.watcher.output.append(self.format(record))

    return _CapturingHandler()


class _AssertLogsContext:
    # assertLogs/assertNoLogs: the logger's handlers replaced by one that
    # records, its level set and propagation off, all restored on exit
    LOGGING_FORMAT = '%(levelname)s:%(name)s:%(message)s'

    def __init__(self, test_case, logger_name, level, no_logs):
        import logging
        self.test_case = test_case
        self.logger_name = logger_name
        self.level = logging._nameToLevel.get(level, level) if level else logging.INFO
        self.msg = None
        self.no_logs = no_logs

    def __enter__(self):
        import logging
        if isinstance(self.logger_name, logging.Logger):
            logger = self.logger = self.logger_name
        else:
            logger = self.logger = logging.getLogger(self.logger_name)
        handler = _capturing_handler()
        handler.setLevel(self.level)
        handler.setFormatter(logging.Formatter(self.LOGGING_FORMAT))
        self.watcher = handler.watcher
        self.old_handlers = logger.handlers[:]
        self.old_level = logger.level
        self.old_propagate = logger.propagate
        logger.handlers = [handler]
        logger.setLevel(self.level)
        logger.propagate = False
        if self.no_logs:
            return None
        return handler.watcher

    def __exit__(self, exc_type, exc_value, tb):
        import logging
        self.logger.handlers = self.old_handlers
        self.logger.propagate = self.old_propagate
        self.logger.setLevel(self.old_level)
        if exc_type is not None:
            return False
        if self.no_logs:
            if len(self.watcher.records) > 0:
                self._raiseFailure('Unexpected logs found: {!r}'.format(self.watcher.output))
        elif len(self.watcher.records) == 0:
            self._raiseFailure('no logs of level {} or higher triggered on {}'.format(
                logging.getLevelName(self.level), self.logger.name))

    def _raiseFailure(self, standardMsg):
        raise self.test_case.failureException(self.test_case._formatMessage(self.msg, standardMsg))


class _Outcome:
    def __init__(self, result):
        self.result = result
        self.success = True
        self.expecting_failure = False
        self.expected_failure = None


class _SubTest:
    def __init__(self, test_case, message, params):
        self.test_case = test_case
        self._message = message
        self.params = params
        self.failureException = test_case.failureException

    def _subDescription(self):
        parts = []
        if self._message is not _subtest_msg_sentinel:
            parts.append('[{}]'.format(self._message))
        if self.params:
            params_desc = ', '.join('{}={!r}'.format(k, v) for (k, v) in self.params.items())
            parts.append('({})'.format(params_desc))
        return ' '.join(parts) or '(<subtest>)'

    def id(self):
        return '{} {}'.format(self.test_case.id(), self._subDescription())

    def shortDescription(self):
        return self.test_case.shortDescription()

    def __str__(self):
        return '{} {}'.format(self.test_case, self._subDescription())


_subtest_msg_sentinel = object()


class _SubTestContext:
    def __init__(self, case, msg, params):
        self.case = case
        self.sub = _SubTest(case, msg, params)

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, tb):
        outcome = self.case._outcome
        if outcome is None:
            return False
        if exc_type is None:
            return False
        if issubclass(exc_type, KeyboardInterrupt):
            return False
        if issubclass(exc_type, SkipTest):
            outcome.result.addSkip(self.sub, str(exc_value))
            return True
        outcome.success = False
        if outcome.expecting_failure:
            outcome.expected_failure = exc_value
        else:
            outcome.result.addSubTest(self.case, self.sub, exc_value)
        return True


_main_cases = []


class _MainModule:
    # __main__'s TestCase classes by name, as main() finds them in the module
    def __init__(self):
        for cls in _main_cases:
            if cls.__module__ == '__main__':
                setattr(self, cls.__name__, cls)


class TestCase:
    __module__ = 'unittest.case'
    failureException = AssertionError
    longMessage = True
    maxDiff = 80 * 8
    _diffThreshold = 2 ** 16
    _classSetupFailed = False

    def __init_subclass__(cls, *args, **kwargs):
        # the classes of __main__ main() runs (the language has no sys.modules)
        super().__init_subclass__(*args, **kwargs)
        if '<locals>' not in cls.__qualname__:
            _main_cases.append(cls)

    def __init__(self, methodName='runTest'):
        self._testMethodName = methodName
        self._outcome = None
        self._testMethodDoc = 'No test'
        self._cleanups = []
        self._type_equality_funcs = {dict: 'assertDictEqual', list: 'assertListEqual',
                                     tuple: 'assertTupleEqual', set: 'assertSetEqual',
                                     frozenset: 'assertSetEqual', str: 'assertMultiLineEqual'}
        try:
            testMethod = getattr(self, methodName)
        except AttributeError:
            if methodName != 'runTest':
                raise ValueError('no such test method in %s: %s' % (self.__class__, methodName))
        else:
            self._testMethodDoc = testMethod.__doc__

    @classmethod
    def setUpClass(cls):
        "Hook method for setting up class fixture before running tests in the class."

    @classmethod
    def tearDownClass(cls):
        "Hook method for deconstructing the class fixture after running all tests in the class."

    def setUp(self):
        "Hook method for setting up the test fixture before exercising it."
        pass

    def tearDown(self):
        "Hook method for deconstructing the test fixture after testing it."
        pass

    def addCleanup(self, function, /, *args, **kwargs):
        self._cleanups.append((function, args, kwargs))

    def doCleanups(self):
        ok = True
        while self._cleanups:
            function, args, kwargs = self._cleanups.pop()
            if not self._call(function, args, kwargs):
                ok = False
        return ok

    def countTestCases(self):
        return 1

    def defaultTestResult(self):
        return TestResult()

    def shortDescription(self):
        doc = self._testMethodDoc
        return doc.strip().split('\n')[0].strip() if doc else None

    def id(self):
        return '%s.%s' % (strclass(self.__class__), self._testMethodName)

    def __eq__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return self._testMethodName == other._testMethodName

    def __hash__(self):
        return hash((type(self), self._testMethodName))

    def __str__(self):
        return '%s (%s.%s)' % (self._testMethodName, strclass(self.__class__), self._testMethodName)

    def __repr__(self):
        return '<%s testMethod=%s>' % (strclass(self.__class__), self._testMethodName)

    def subTest(self, msg=_subtest_msg_sentinel, **params):
        return _SubTestContext(self, msg, params)

    def _call(self, function, args, kwargs):
        # runs one part of the test, recording what it raises; True when it passed
        outcome = self._outcome
        try:
            function(*args, **kwargs)
            return True
        except KeyboardInterrupt:
            raise
        except SkipTest as e:
            outcome.success = False
            outcome.result.addSkip(self, str(e))
        except self.failureException as e:
            outcome.success = False
            if outcome.expecting_failure:
                outcome.expected_failure = e
            else:
                outcome.result.addFailure(self, e)
        except BaseException as e:
            outcome.success = False
            if outcome.expecting_failure:
                outcome.expected_failure = e
            else:
                outcome.result.addError(self, e)
        return False

    def run(self, result=None):
        if result is None:
            result = self.defaultTestResult()
            startTestRun = getattr(result, 'startTestRun', None)
            if startTestRun is not None:
                startTestRun()
        result.startTest(self)
        try:
            testMethod = getattr(self, self._testMethodName)
            if (getattr(self.__class__, '__unittest_skip__', False) or
                    getattr(testMethod, '__unittest_skip__', False)):
                skip_why = (getattr(self.__class__, '__unittest_skip_why__', '') or
                            getattr(testMethod, '__unittest_skip_why__', ''))
                result.addSkip(self, skip_why)
                return result
            outcome = _Outcome(result)
            outcome.expecting_failure = (getattr(self, '__unittest_expecting_failure__', False) or
                                         getattr(testMethod, '__unittest_expecting_failure__', False))
            self._outcome = outcome
            if self._call(self.setUp, (), {}):
                self._call(testMethod, (), {})
                outcome.expecting_failure = False
                self._call(self.tearDown, (), {})
            self.doCleanups()
            if outcome.success:
                if getattr(testMethod, '__unittest_expecting_failure__', False) or \
                        getattr(self, '__unittest_expecting_failure__', False):
                    if outcome.expected_failure is not None:
                        result.addExpectedFailure(self, outcome.expected_failure)
                    else:
                        result.addUnexpectedSuccess(self)
                else:
                    result.addSuccess(self)
            elif outcome.expected_failure is not None:
                result.addExpectedFailure(self, outcome.expected_failure)
            return result
        finally:
            result.stopTest(self)
            self._outcome = None

    def __call__(self, *args, **kwds):
        return self.run(*args, **kwds)

    def debug(self):
        self.setUp()
        getattr(self, self._testMethodName)()
        self.tearDown()
        while self._cleanups:
            function, args, kwargs = self._cleanups.pop()
            function(*args, **kwargs)

    def skipTest(self, reason):
        raise SkipTest(reason)

    def fail(self, msg=None):
        raise self.failureException(msg)

    def _formatMessage(self, msg, standardMsg):
        if not self.longMessage:
            return msg or standardMsg
        if msg is None:
            return standardMsg
        try:
            return '%s : %s' % (standardMsg, msg)
        except UnicodeDecodeError:
            return '%s : %s' % (safe_repr(standardMsg), safe_repr(msg))

    def assertFalse(self, expr, msg=None):
        if expr:
            raise self.failureException(self._formatMessage(msg, '%s is not false' % safe_repr(expr)))

    def assertTrue(self, expr, msg=None):
        if not expr:
            raise self.failureException(self._formatMessage(msg, '%s is not true' % safe_repr(expr)))

    def assertRaises(self, expected_exception, *args, **kwargs):
        context = _AssertRaisesContext(expected_exception, self, msg=kwargs.pop('msg', None))
        try:
            return context.handle('assertRaises', args, kwargs)
        finally:
            context = None

    def assertRaisesRegex(self, expected_exception, expected_regex, *args, **kwargs):
        context = _AssertRaisesContext(expected_exception, self, expected_regex, msg=kwargs.pop('msg', None))
        return context.handle('assertRaisesRegex', args, kwargs)

    def assertWarns(self, expected_warning, *args, **kwargs):
        context = _AssertWarnsContext(expected_warning, self, msg=kwargs.pop('msg', None))
        return context.handle('assertWarns', args, kwargs)

    def assertWarnsRegex(self, expected_warning, expected_regex, *args, **kwargs):
        context = _AssertWarnsContext(expected_warning, self, expected_regex, msg=kwargs.pop('msg', None))
        return context.handle('assertWarnsRegex', args, kwargs)

    def addTypeEqualityFunc(self, typeobj, function):
        self._type_equality_funcs[typeobj] = function

    def assertLogs(self, logger=None, level=None):
        return _AssertLogsContext(self, logger, level, no_logs=False)

    def assertNoLogs(self, logger=None, level=None):
        return _AssertLogsContext(self, logger, level, no_logs=True)

    def _getAssertEqualityFunc(self, first, second):
        # the type-specific comparison when both values have exactly the same type
        if type(first) == type(second):
            asserter = self._type_equality_funcs.get(type(first))
            if asserter is not None:
                if isinstance(asserter, str):
                    asserter = getattr(self, asserter)
                return asserter
        return self._baseAssertEqual

    def _baseAssertEqual(self, first, second, msg=None):
        if not first == second:
            standardMsg = '%s != %s' % _common_shorten_repr(first, second)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def _truncateMessage(self, message, diff):
        max_diff = self.maxDiff
        if max_diff is None or len(diff) <= max_diff:
            return message + diff
        return message + (DIFF_OMITTED % len(diff))

    def assertEqual(self, first, second, msg=None):
        assertion_func = self._getAssertEqualityFunc(first, second)
        assertion_func(first, second, msg=msg)

    def assertNotEqual(self, first, second, msg=None):
        if not first != second:
            msg = self._formatMessage(msg, '%s == %s' % (safe_repr(first), safe_repr(second)))
            raise self.failureException(msg)

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if first == second:
            return
        if delta is not None and places is not None:
            raise TypeError('specify delta or places not both')
        diff = abs(first - second)
        if delta is not None:
            if diff <= delta:
                return
            standardMsg = '%s != %s within %s delta (%s difference)' % (
                safe_repr(first), safe_repr(second), safe_repr(delta), safe_repr(diff))
        else:
            if places is None:
                places = 7
            if round(diff, places) == 0:
                return
            standardMsg = '%s != %s within %r places (%s difference)' % (
                safe_repr(first), safe_repr(second), places, safe_repr(diff))
        raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if delta is not None and places is not None:
            raise TypeError('specify delta or places not both')
        diff = abs(first - second)
        if delta is not None:
            if not (first == second) and diff > delta:
                return
            standardMsg = '%s == %s within %s delta (%s difference)' % (
                safe_repr(first), safe_repr(second), safe_repr(delta), safe_repr(diff))
        else:
            if places is None:
                places = 7
            if not (first == second) and round(diff, places) != 0:
                return
            standardMsg = '%s == %s within %r places' % (safe_repr(first), safe_repr(second), places)
        raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertSequenceEqual(self, seq1, seq2, msg=None, seq_type=None):
        if seq_type is not None:
            seq_type_name = seq_type.__name__
            if not isinstance(seq1, seq_type):
                raise self.failureException('First sequence is not a %s: %s' % (seq_type_name, safe_repr(seq1)))
            if not isinstance(seq2, seq_type):
                raise self.failureException('Second sequence is not a %s: %s' % (seq_type_name, safe_repr(seq2)))
        else:
            seq_type_name = 'sequence'
        differing = None
        try:
            len1 = len(seq1)
        except (TypeError, NotImplementedError):
            differing = 'First %s has no length.    Non-sequence?' % seq_type_name
        if differing is None:
            try:
                len2 = len(seq2)
            except (TypeError, NotImplementedError):
                differing = 'Second %s has no length.    Non-sequence?' % seq_type_name
        if differing is None:
            if seq1 == seq2:
                return
            differing = '%ss differ: %s != %s\n' % ((seq_type_name.capitalize(),) + _common_shorten_repr(seq1, seq2))
            for i in range(min(len1, len2)):
                try:
                    item1 = seq1[i]
                except (TypeError, IndexError, NotImplementedError):
                    differing += '\nUnable to index element %d of first %s\n' % (i, seq_type_name)
                    break
                try:
                    item2 = seq2[i]
                except (TypeError, IndexError, NotImplementedError):
                    differing += '\nUnable to index element %d of second %s\n' % (i, seq_type_name)
                    break
                if item1 != item2:
                    differing += '\nFirst differing element %d:\n%s\n%s\n' % ((i,) + _common_shorten_repr(item1, item2))
                    break
            else:
                if len1 == len2 and seq_type is None and type(seq1) != type(seq2):
                    return  # equal items in sequences of different types
            if len1 > len2:
                differing += '\nFirst %s contains %d additional elements.\n' % (seq_type_name, len1 - len2)
                try:
                    differing += 'First extra element %d:\n%s\n' % (len2, safe_repr(seq1[len2]))
                except (TypeError, IndexError, NotImplementedError):
                    differing += 'Unable to index element %d of first %s\n' % (len2, seq_type_name)
            elif len1 < len2:
                differing += '\nSecond %s contains %d additional elements.\n' % (seq_type_name, len2 - len1)
                try:
                    differing += 'First extra element %d:\n%s\n' % (len1, safe_repr(seq2[len1]))
                except (TypeError, IndexError, NotImplementedError):
                    differing += 'Unable to index element %d of second %s\n' % (len1, seq_type_name)
        standardMsg = self._truncateMessage(differing, _ndiff_lines(seq1, seq2))
        self.fail(self._formatMessage(msg, standardMsg))

    def assertListEqual(self, list1, list2, msg=None):
        self.assertSequenceEqual(list1, list2, msg, seq_type=list)

    def assertTupleEqual(self, tuple1, tuple2, msg=None):
        self.assertSequenceEqual(tuple1, tuple2, msg, seq_type=tuple)

    def _set_difference(self, a, b, which):
        try:
            return a.difference(b)
        except TypeError as e:
            self.fail('invalid type when attempting set difference: %s' % e)
        except AttributeError as e:
            self.fail('%s argument does not support set difference: %s' % (which, e))

    def assertSetEqual(self, set1, set2, msg=None):
        difference1 = self._set_difference(set1, set2, 'first')
        difference2 = self._set_difference(set2, set1, 'second')
        if not (difference1 or difference2):
            return
        lines = []
        if difference1:
            lines.append('Items in the first set but not the second:')
            for item in difference1:
                lines.append(repr(item))
        if difference2:
            lines.append('Items in the second set but not the first:')
            for item in difference2:
                lines.append(repr(item))
        self.fail(self._formatMessage(msg, '\n'.join(lines)))

    def assertDictEqual(self, d1, d2, msg=None):
        self.assertIsInstance(d1, dict, 'First argument is not a dictionary')
        self.assertIsInstance(d2, dict, 'Second argument is not a dictionary')
        if d1 != d2:
            standardMsg = '%s != %s' % _common_shorten_repr(d1, d2)
            standardMsg = self._truncateMessage(standardMsg, _ndiff_lines(d1, d2))
            self.fail(self._formatMessage(msg, standardMsg))

    def assertMultiLineEqual(self, first, second, msg=None):
        import difflib
        self.assertIsInstance(first, str, 'First argument is not a string')
        self.assertIsInstance(second, str, 'Second argument is not a string')
        if first == second:
            return
        if len(first) > self._diffThreshold or len(second) > self._diffThreshold:
            self._baseAssertEqual(first, second, msg)
        firstlines = first.splitlines(keepends=True)
        secondlines = second.splitlines(keepends=True)
        if len(firstlines) == 1 and first.strip('\r\n') == first:
            firstlines = [first + '\n']
            secondlines = [second + '\n']
        standardMsg = '%s != %s' % _common_shorten_repr(first, second)
        diff = '\n' + ''.join(difflib.ndiff(firstlines, secondlines))
        standardMsg = self._truncateMessage(standardMsg, diff)
        self.fail(self._formatMessage(msg, standardMsg))

    def assertCountEqual(self, first, second, msg=None):
        first_seq, second_seq = list(first), list(second)
        differences = []
        for elem in list(dict.fromkeys(first_seq + second_seq)) if _hashable(first_seq + second_seq) else []:
            cnt_s, cnt_t = first_seq.count(elem), second_seq.count(elem)
            if cnt_s != cnt_t:
                differences.append((cnt_s, cnt_t, elem))
        if not _hashable(first_seq + second_seq):
            rest = list(second_seq)
            for elem in first_seq:
                if elem in rest:
                    rest.remove(elem)
                else:
                    differences.append((first_seq.count(elem), second_seq.count(elem), elem))
            for elem in rest:
                if elem not in first_seq:
                    differences.append((0, second_seq.count(elem), elem))
        if differences:
            standardMsg = 'Element counts were not equal:\n'
            lines = ['First has %d, Second has %d:  %r' % diff for diff in differences]
            diffMsg = '\n'.join(lines)
            raise self.failureException(self._formatMessage(msg, standardMsg + diffMsg))

    def assertIn(self, member, container, msg=None):
        if member not in container:
            standardMsg = '%s not found in %s' % (safe_repr(member), safe_repr(container))
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotIn(self, member, container, msg=None):
        if member in container:
            standardMsg = '%s unexpectedly found in %s' % (safe_repr(member), safe_repr(container))
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIs(self, expr1, expr2, msg=None):
        if expr1 is not expr2:
            standardMsg = '%s is not %s' % (safe_repr(expr1), safe_repr(expr2))
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIsNot(self, expr1, expr2, msg=None):
        if expr1 is expr2:
            standardMsg = 'unexpectedly identical: %s' % (safe_repr(expr1),)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIsNone(self, obj, msg=None):
        if obj is not None:
            standardMsg = '%s is not None' % (safe_repr(obj),)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIsNotNone(self, obj, msg=None):
        if obj is None:
            standardMsg = 'unexpectedly None'
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIsInstance(self, obj, cls, msg=None):
        if not isinstance(obj, cls):
            standardMsg = '%s is not an instance of %r' % (safe_repr(obj), cls)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotIsInstance(self, obj, cls, msg=None):
        if isinstance(obj, cls):
            standardMsg = '%s is an instance of %r' % (safe_repr(obj), cls)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def _compare(self, a, b, ok, words, msg):
        if not ok:
            raise self.failureException(self._formatMessage(msg, '%s %s %s' % (safe_repr(a), words, safe_repr(b))))

    def assertLess(self, a, b, msg=None):
        self._compare(a, b, a < b, 'not less than', msg)

    def assertLessEqual(self, a, b, msg=None):
        self._compare(a, b, a <= b, 'not less than or equal to', msg)

    def assertGreater(self, a, b, msg=None):
        self._compare(a, b, a > b, 'not greater than', msg)

    def assertGreaterEqual(self, a, b, msg=None):
        self._compare(a, b, a >= b, 'not greater than or equal to', msg)

    def assertRegex(self, text, expected_regex, msg=None):
        import re
        if isinstance(expected_regex, str):
            expected_regex = re.compile(expected_regex)
        if not expected_regex.search(text):
            standardMsg = "Regex didn't match: %r not found in %r" % (expected_regex.pattern, text)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotRegex(self, text, unexpected_regex, msg=None):
        import re
        if isinstance(unexpected_regex, str):
            unexpected_regex = re.compile(unexpected_regex)
        match = unexpected_regex.search(text)
        if match:
            standardMsg = 'Regex matched: %r matches %r in %r' % (
                text[match.start():match.end()], unexpected_regex.pattern, text)
            raise self.failureException(self._formatMessage(msg, standardMsg))

    # the 3.11 aliases still in use
    failUnlessEqual = assertEquals = assertEqual
    failIfEqual = assertNotEquals = assertNotEqual
    failUnlessAlmostEqual = assertAlmostEquals = assertAlmostEqual
    failIfAlmostEqual = assertNotAlmostEquals = assertNotAlmostEqual
    failUnless = assert_ = assertTrue
    failUnlessRaises = assertRaises
    failIf = assertFalse
    assertRaisesRegexp = assertRaisesRegex
    assertRegexpMatches = assertRegex
    assertNotRegexpMatches = assertNotRegex


def _hashable(items):
    try:
        for x in items:
            hash(x)
        return True
    except TypeError:
        return False


class FunctionTestCase(TestCase):
    __module__ = 'unittest.case'
    def __init__(self, testFunc, setUp=None, tearDown=None, description=None):
        TestCase.__init__(self)
        self._setUpFunc = setUp
        self._tearDownFunc = tearDown
        self._testFunc = testFunc
        self._description = description

    def setUp(self):
        if self._setUpFunc is not None:
            self._setUpFunc()

    def tearDown(self):
        if self._tearDownFunc is not None:
            self._tearDownFunc()

    def runTest(self):
        self._testFunc()

    def id(self):
        return self._testFunc.__name__

    def __str__(self):
        return '%s (%s)' % (strclass(self.__class__), self._testFunc.__name__)

    def __repr__(self):
        return '<%s tec=%s>' % (strclass(self.__class__), self._testFunc)

    def shortDescription(self):
        if self._description is not None:
            return self._description
        doc = self._testFunc.__doc__
        return doc and doc.split('\n')[0].strip() or None


class TestSuite:
    __module__ = 'unittest.suite'
    def __init__(self, tests=()):
        self._tests = []
        self.addTests(tests)

    def __repr__(self):
        return '<%s tests=%s>' % (strclass(self.__class__), list(self))

    def __eq__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return list(self) == list(other)

    def __iter__(self):
        return iter(self._tests)

    def countTestCases(self):
        return sum(test.countTestCases() for test in self)

    def addTest(self, test):
        if not callable(test):
            raise TypeError('{} is not callable'.format(repr(test)))
        if isinstance(test, type) and issubclass(test, (TestCase, TestSuite)):
            raise TypeError('TestCases and TestSuites must be instantiated before passing them to addTest()')
        self._tests.append(test)

    def addTests(self, tests):
        if isinstance(tests, str):
            raise TypeError('tests must be an iterable of tests, not a string')
        for test in tests:
            self.addTest(test)

    def run(self, result, debug=False):
        topLevel = not getattr(result, '_testRunEntered', False)
        if topLevel:
            result._testRunEntered = True
        for test in self:
            if result.shouldStop:
                break
            if isinstance(test, TestCase):
                self._classSetUp(test, result)
                if test.__class__._classSetupFailed:
                    continue
            test(result)
        if topLevel:
            self._tearDownPreviousClass(None, result)
            result._testRunEntered = False
        return result

    def __call__(self, *args, **kwds):
        return self.run(*args, **kwds)

    def debug(self):
        for test in self:
            test.debug()

    def _classSetUp(self, test, result):
        previousClass = getattr(result, '_previousTestClass', None)
        currentClass = test.__class__
        if currentClass == previousClass:
            return
        self._tearDownPreviousClass(test, result)
        result._previousTestClass = currentClass
        currentClass._classSetupFailed = False
        if getattr(currentClass, '__unittest_skip__', False):
            return
        try:
            currentClass.setUpClass()
        except Exception as e:
            currentClass._classSetupFailed = True
            result.addError(_ErrorHolder('setUpClass (%s)' % strclass(currentClass)), e)

    def _tearDownPreviousClass(self, test, result):
        previousClass = getattr(result, '_previousTestClass', None)
        currentClass = test.__class__ if test is not None else None
        if currentClass == previousClass or previousClass is None:
            return
        if getattr(previousClass, '_classSetupFailed', False) or getattr(previousClass, '__unittest_skip__', False):
            return
        try:
            previousClass.tearDownClass()
        except Exception as e:
            result.addError(_ErrorHolder('tearDownClass (%s)' % strclass(previousClass)), e)


class _ErrorHolder:
    failureException = None

    def __init__(self, description):
        self.description = description

    def id(self):
        return self.description

    def shortDescription(self):
        return None

    def __repr__(self):
        return '<ErrorHolder description=%r>' % (self.description,)

    def __str__(self):
        return self.id()

    def countTestCases(self):
        return 0


def _exc_text(test, err):
    # the traceback as CPython's TestResult writes it: the frames of unittest
    # itself left out and, for a failure, every frame below the first of them
    # (a comparison function called by assertEqual)
    chunks = traceback.format_exception(err)
    keep = []
    seen_test_frame = cut = False
    for c in chunks:
        if c.startswith('  File "<frozen unittest>"'):
            cut = seen_test_frame and isinstance(err, test.failureException)
            continue
        if c.startswith('  File '):
            if cut:
                continue
            seen_test_frame = True
        keep.append(c)
    return ''.join(keep)


class TestResult:
    __module__ = 'unittest.result'
    _previousTestClass = None
    _testRunEntered = False

    def __init__(self, stream=None, descriptions=None, verbosity=None):
        self.failfast = False
        self.failures = []
        self.errors = []
        self.testsRun = 0
        self.skipped = []
        self.expectedFailures = []
        self.unexpectedSuccesses = []
        self.shouldStop = False
        self.buffer = False
        self.tb_locals = False

    def printErrors(self):
        pass

    def startTest(self, test):
        self.testsRun += 1

    def startTestRun(self):
        pass

    def stopTest(self, test):
        pass

    def stopTestRun(self):
        pass

    def addError(self, test, err):
        self.errors.append((test, _exc_text(test, err)))
        if self.failfast:
            self.stop()

    def addFailure(self, test, err):
        self.failures.append((test, _exc_text(test, err)))
        if self.failfast:
            self.stop()

    def addSubTest(self, test, subtest, err):
        if err is not None:
            if self.failfast:
                self.stop()
            if isinstance(err, test.failureException):
                errors = self.failures
            else:
                errors = self.errors
            errors.append((subtest, _exc_text(test, err)))

    def addSuccess(self, test):
        pass

    def addSkip(self, test, reason):
        self.skipped.append((test, reason))

    def addExpectedFailure(self, test, err):
        self.expectedFailures.append((test, _exc_text(test, err)))

    def addUnexpectedSuccess(self, test):
        self.unexpectedSuccesses.append(test)

    def wasSuccessful(self):
        return ((len(self.failures) == len(self.errors) == 0) and
                (not hasattr(self, 'unexpectedSuccesses') or len(self.unexpectedSuccesses) == 0))

    def stop(self):
        self.shouldStop = True

    def __repr__(self):
        return ('<%s run=%i errors=%i failures=%i>' %
                (strclass(self.__class__), self.testsRun, len(self.errors), len(self.failures)))


class _WritelnDecorator:
    def __init__(self, stream):
        self.stream = stream

    def __getattr__(self, attr):
        if attr in ('stream', '__getstate__'):
            raise AttributeError(attr)
        return getattr(self.stream, attr)

    def write(self, arg):
        self.stream.write(arg)

    def flush(self):
        if hasattr(self.stream, 'flush'):
            self.stream.flush()

    def writeln(self, arg=None):
        if arg:
            self.write(arg)
        self.write('\n')


class TextTestResult(TestResult):
    __module__ = 'unittest.runner'
    separator1 = '=' * 70
    separator2 = '-' * 70

    def __init__(self, stream, descriptions, verbosity):
        TestResult.__init__(self, stream, descriptions, verbosity)
        self.stream = stream
        self.showAll = verbosity > 1
        self.dots = verbosity == 1
        self.descriptions = descriptions
        self._newline = True

    def getDescription(self, test):
        doc_first_line = test.shortDescription()
        if self.descriptions and doc_first_line:
            return '\n'.join((str(test), doc_first_line))
        return str(test)

    def startTest(self, test):
        TestResult.startTest(self, test)
        if self.showAll:
            self.stream.write(self.getDescription(test))
            self.stream.write(' ... ')
            self.stream.flush()
            self._newline = False

    def _write_status(self, test, status):
        is_subtest = isinstance(test, _SubTest)
        if is_subtest or self._newline:
            if not self._newline:
                self.stream.writeln()
            if is_subtest:
                self.stream.write('  ')
            self.stream.write(self.getDescription(test))
            self.stream.write(' ... ')
        self.stream.writeln(status)
        self.stream.flush()
        self._newline = True

    def _report(self, test, status, dot):
        if self.showAll:
            self._write_status(test, status)
        elif self.dots:
            self.stream.write(dot)
            self.stream.flush()

    def addSubTest(self, test, subtest, err):
        if err is not None:
            if isinstance(err, subtest.failureException):
                self._report(subtest, 'FAIL', 'F')
            else:
                self._report(subtest, 'ERROR', 'E')
        TestResult.addSubTest(self, test, subtest, err)

    def addSuccess(self, test):
        TestResult.addSuccess(self, test)
        self._report(test, 'ok', '.')

    def addError(self, test, err):
        TestResult.addError(self, test, err)
        self._report(test, 'ERROR', 'E')

    def addFailure(self, test, err):
        TestResult.addFailure(self, test, err)
        self._report(test, 'FAIL', 'F')

    def addSkip(self, test, reason):
        TestResult.addSkip(self, test, reason)
        self._report(test, 'skipped {0!r}'.format(reason), 's')

    def addExpectedFailure(self, test, err):
        TestResult.addExpectedFailure(self, test, err)
        self._report(test, 'expected failure', 'x')

    def addUnexpectedSuccess(self, test):
        TestResult.addUnexpectedSuccess(self, test)
        self._report(test, 'unexpected success', 'u')

    def printErrors(self):
        if self.dots or self.showAll:
            self.stream.writeln()
            self.stream.flush()
        self.printErrorList('ERROR', self.errors)
        self.printErrorList('FAIL', self.failures)
        unexpectedSuccesses = getattr(self, 'unexpectedSuccesses', ())
        if unexpectedSuccesses:
            self.stream.writeln(self.separator1)
            for test in unexpectedSuccesses:
                self.stream.writeln(f'UNEXPECTED SUCCESS: {self.getDescription(test)}')
            self.stream.flush()

    def printErrorList(self, flavour, errors):
        for test, err in errors:
            self.stream.writeln(self.separator1)
            self.stream.writeln('%s: %s' % (flavour, self.getDescription(test)))
            self.stream.writeln(self.separator2)
            self.stream.writeln('%s' % err)
            self.stream.flush()


class TextTestRunner:
    __module__ = 'unittest.runner'
    resultclass = TextTestResult

    def __init__(self, stream=None, descriptions=True, verbosity=1, failfast=False, buffer=False,
                 resultclass=None, warnings=None, *, tb_locals=False):
        if stream is None:
            stream = sys.stderr
        self.stream = _WritelnDecorator(stream)
        self.descriptions = descriptions
        self.verbosity = verbosity
        self.failfast = failfast
        self.buffer = buffer
        self.tb_locals = tb_locals
        self.warnings = warnings
        if resultclass is not None:
            self.resultclass = resultclass

    def _makeResult(self):
        return self.resultclass(self.stream, self.descriptions, self.verbosity)

    def run(self, test):
        result = self._makeResult()
        result.failfast = self.failfast
        result.buffer = self.buffer
        result.tb_locals = self.tb_locals
        startTime = time.perf_counter()
        result.startTestRun()
        try:
            test(result)
        finally:
            result.stopTestRun()
        stopTime = time.perf_counter()
        timeTaken = stopTime - startTime
        result.printErrors()
        if hasattr(result, 'separator2'):
            self.stream.writeln(result.separator2)
        run = result.testsRun
        self.stream.writeln('Ran %d test%s in %.3fs' % (run, run != 1 and 's' or '', timeTaken))
        self.stream.writeln()
        expectedFails = len(result.expectedFailures)
        unexpectedSuccesses = len(result.unexpectedSuccesses)
        skipped = len(result.skipped)
        infos = []
        if not result.wasSuccessful():
            self.stream.write('FAILED')
            failed, errored = len(result.failures), len(result.errors)
            if failed:
                infos.append('failures=%d' % failed)
            if errored:
                infos.append('errors=%d' % errored)
        elif run == 0 and not skipped:
            self.stream.write('NO TESTS RAN')
        else:
            self.stream.write('OK')
        if skipped:
            infos.append('skipped=%d' % skipped)
        if expectedFails:
            infos.append('expected failures=%d' % expectedFails)
        if unexpectedSuccesses:
            infos.append('unexpected successes=%d' % unexpectedSuccesses)
        if infos:
            self.stream.writeln(' (%s)' % (', '.join(infos),))
        else:
            self.stream.write('\n')
        self.stream.flush()
        return result


class TestLoader:
    __module__ = 'unittest.loader'
    testMethodPrefix = 'test'
    sortTestMethodsUsing = None
    suiteClass = TestSuite
    testNamePatterns = None

    def __init__(self):
        self.errors = []

    def loadTestsFromTestCase(self, testCaseClass):
        if issubclass(testCaseClass, TestSuite):
            raise TypeError('Test cases should not be derived from TestSuite. Maybe you meant to derive from '
                            'TestCase?')
        testCaseNames = self.getTestCaseNames(testCaseClass)
        if not testCaseNames and hasattr(testCaseClass, 'runTest'):
            testCaseNames = ['runTest']
        return self.suiteClass([testCaseClass(name) for name in testCaseNames])

    def loadTestsFromModule(self, module, *args, pattern=None, **kws):
        tests = []
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, TestCase):
                tests.append(self.loadTestsFromTestCase(obj))
        load_tests = getattr(module, 'load_tests', None)
        tests = self.suiteClass(tests)
        if load_tests is not None:
            return load_tests(self, tests, pattern)
        return tests

    def loadTestsFromName(self, name, module=None):
        parts = name.split('.')
        obj = module
        for part in parts:
            obj = getattr(obj, part)
        if isinstance(obj, type) and issubclass(obj, TestCase):
            return self.loadTestsFromTestCase(obj)
        if isinstance(obj, TestSuite):
            return obj
        if callable(obj) and len(parts) >= 2:
            parent = getattr(module, parts[-2]) if len(parts) == 2 else None
            if isinstance(parent, type) and issubclass(parent, TestCase):
                return self.suiteClass([parent(parts[-1])])
        if isinstance(obj, TestCase):
            return obj
        raise TypeError('calling %s returned %s, not a test' % (obj, obj))

    def loadTestsFromNames(self, names, module=None):
        return self.suiteClass([self.loadTestsFromName(name, module) for name in names])

    def getTestCaseNames(self, testCaseClass):
        names = []
        for name in dir(testCaseClass):
            if not name.startswith(self.testMethodPrefix) or not callable(getattr(testCaseClass, name)):
                continue
            if self.testNamePatterns is not None:
                from fnmatch import fnmatchcase
                full_name = '%s.%s.%s' % (testCaseClass.__module__, testCaseClass.__qualname__, name)
                if not any(fnmatchcase(full_name, pattern) for pattern in self.testNamePatterns):
                    continue
            names.append(name)
        if self.sortTestMethodsUsing is not None:
            import functools
            names.sort(key=functools.cmp_to_key(self.sortTestMethodsUsing))
        else:
            names.sort()
        return names


defaultTestLoader = TestLoader()


def getTestCaseNames(testCaseClass, prefix, sortUsing=None, testNamePatterns=None):
    loader = TestLoader()
    loader.testMethodPrefix = prefix
    return loader.getTestCaseNames(testCaseClass)


def makeSuite(testCaseClass, prefix='test', sortUsing=None, suiteClass=TestSuite):
    loader = TestLoader()
    loader.testMethodPrefix = prefix
    loader.suiteClass = suiteClass
    return loader.loadTestsFromTestCase(testCaseClass)


def findTestCases(module, prefix='test', sortUsing=None, suiteClass=TestSuite):
    return defaultTestLoader.loadTestsFromModule(module)


class TestProgram:
    __module__ = 'unittest.main'
    def __init__(self, module='__main__', defaultTest=None, argv=None, testRunner=None, testLoader=None,
                 exit=True, verbosity=1, failfast=None, catchbreak=None, buffer=None, warnings=None, *,
                 tb_locals=False):
        if module == '__main__':
            module = _MainModule()
        elif isinstance(module, str):
            module = __import__(module)
        self.module = module
        if argv is None:
            argv = sys.argv
        self.exit = exit
        self.failfast = failfast
        self.verbosity = verbosity
        self.buffer = buffer
        self.tb_locals = tb_locals
        self.defaultTest = defaultTest
        self.testRunner = testRunner
        self.testLoader = testLoader if testLoader is not None else defaultTestLoader
        self.progName = 'python -m unittest' if module is None else (argv[0].split('/')[-1] if argv else '')
        self.parseArgs(argv)
        self.runTests()

    def parseArgs(self, argv):
        names = []
        patterns = []
        args = iter(argv[1:])
        for a in args:
            if a == '-k' or a.startswith('-k'):
                pattern = a[2:] or next(args, '')
                patterns.append(pattern if '*' in pattern else '*%s*' % pattern)
            elif a in ('-v', '--verbose'):
                self.verbosity = 2
            elif a in ('-q', '--quiet'):
                self.verbosity = 0
            elif a in ('-f', '--failfast'):
                self.failfast = True
            elif a in ('-b', '--buffer', '-c', '--catch', '--locals'):
                pass
            elif not a.startswith('-'):
                names.append(a)
        if patterns:
            self.testLoader.testNamePatterns = patterns
        if not names and self.defaultTest is not None:
            names = [self.defaultTest] if isinstance(self.defaultTest, str) else list(self.defaultTest)
        if names:
            self.test = self.testLoader.loadTestsFromNames(names, self.module)
        else:
            self.test = self.testLoader.loadTestsFromModule(self.module)

    def runTests(self):
        testRunner = self.testRunner
        if testRunner is None:
            testRunner = TextTestRunner
        if isinstance(testRunner, type):
            testRunner = testRunner(verbosity=self.verbosity, failfast=bool(self.failfast),
                                    tb_locals=self.tb_locals)
        self.result = testRunner.run(self.test)
        if self.exit:
            sys.exit(not self.result.wasSuccessful())


main = TestProgram


def installHandler():
    pass


def removeHandler(method=None):
    if method is not None:
        return method


def registerResult(result):
    pass


def removeResult(result):
    return False


_module_cleanups = []


def addModuleCleanup(function, /, *args, **kwargs):
    _module_cleanups.append((function, args, kwargs))
