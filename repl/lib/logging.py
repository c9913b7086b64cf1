# logging, written in the language: loggers in a dotted hierarchy under the
# root logger, levels, handlers (StreamHandler, FileHandler, NullHandler),
# Formatter with %-style fields, basicConfig, and the module-level functions,
# as CPython 3.11's for what it offers.

import sys
import time

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0

_levelToName = {CRITICAL: 'CRITICAL', ERROR: 'ERROR', WARNING: 'WARNING', INFO: 'INFO', DEBUG: 'DEBUG', NOTSET: 'NOTSET'}
_nameToLevel = {'CRITICAL': CRITICAL, 'FATAL': FATAL, 'ERROR': ERROR, 'WARN': WARNING, 'WARNING': WARNING,
                'INFO': INFO, 'DEBUG': DEBUG, 'NOTSET': NOTSET}

BASIC_FORMAT = '%(levelname)s:%(name)s:%(message)s'
_startTime = time.time()


def getLevelName(level):
    result = _levelToName.get(level)
    if result is not None:
        return result
    result = _nameToLevel.get(level)
    if result is not None:
        return result
    return 'Level %s' % level


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if str(level) == level:
        if level not in _nameToLevel:
            raise ValueError('Unknown level: %r' % level)
        return _nameToLevel[level]
    raise TypeError('Level not an integer or a valid string: %r' % (level,))


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None, sinfo=None, **kwargs):
        ct = time.time()
        self.name = name
        self.msg = msg
        if args and len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        self.args = args
        self.levelname = getLevelName(level)
        self.levelno = level
        self.pathname = pathname
        self.filename = pathname.split('/')[-1]
        self.module = self.filename.rsplit('.', 1)[0]
        self.exc_info = exc_info
        self.exc_text = None
        self.stack_info = sinfo
        self.lineno = lineno
        self.funcName = func
        self.created = ct
        self.msecs = int((ct - int(ct)) * 1000) + 0.0
        self.relativeCreated = (ct - _startTime) * 1000
        self.thread = 0
        self.threadName = 'MainThread'
        self.processName = 'MainProcess'
        self.process = 0

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg

    def __repr__(self):
        return '<LogRecord: %s, %s, %s, %s, "%s">' % (self.name, self.levelno, self.pathname, self.lineno, self.msg)


class Formatter:
    default_time_format = '%Y-%m-%d %H:%M:%S'
    default_msec_format = '%s,%03d'

    def __init__(self, fmt=None, datefmt=None, style='%', validate=True, *, defaults=None):
        if style not in ('%', '{', '$'):
            raise ValueError('Style must be one of: %, {, $')
        self._style = style
        self._fmt = fmt or {'%': '%(message)s', '{': '{message}', '$': '${message}'}[style]
        self.datefmt = datefmt
        self._defaults = defaults

    def formatTime(self, record, datefmt=None):
        ct = time.localtime(record.created)
        if datefmt:
            return time.strftime(datefmt, ct)
        s = time.strftime(self.default_time_format, ct)
        return self.default_msec_format % (s, record.msecs)

    def usesTime(self):
        return {'%': '%(asctime)', '{': '{asctime', '$': '${asctime'}[self._style] in self._fmt

    def formatMessage(self, record):
        values = dict(self._defaults) if self._defaults else {}
        values.update(vars(record))
        if self._style == '%':
            return self._fmt % values
        if self._style == '{':
            return self._fmt.format(**values)
        out = self._fmt
        for key, value in values.items():
            out = out.replace('${%s}' % key, str(value)).replace('$' + key, str(value))
        return out

    def formatException(self, ei):
        try:
            import traceback
        except ImportError:  # the traceback's last line only
            return '%s: %s' % (type(ei[1]).__name__, ei[1])
        return ''.join(traceback.format_exception(ei[0], ei[1], ei[2])).rstrip('\n')

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        s = self.formatMessage(record)
        if record.exc_info:
            if not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            if s[-1:] != '\n':
                s = s + '\n'
            s = s + record.exc_text
        return s


_defaultFormatter = Formatter()


class Filter:
    def __init__(self, name=''):
        self.name = name

    def filter(self, record):
        if not self.name or self.name == record.name:
            return True
        return record.name.startswith(self.name + '.')


class Filterer:
    def __init__(self):
        self.filters = []

    def addFilter(self, filter):
        if filter not in self.filters:
            self.filters.append(filter)

    def removeFilter(self, filter):
        if filter in self.filters:
            self.filters.remove(filter)

    def filter(self, record):
        for f in self.filters:
            result = f.filter(record) if hasattr(f, 'filter') else f(record)
            if not result:
                return False
        return True


class Handler(Filterer):
    def __init__(self, level=NOTSET):
        Filterer.__init__(self)
        self._name = None
        self.level = _checkLevel(level)
        self.formatter = None

    def get_name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    name = property(get_name, set_name)

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        return (self.formatter or _defaultFormatter).format(record)

    def emit(self, record):
        raise NotImplementedError('emit must be implemented by Handler subclasses')

    def handle(self, record):
        rv = self.filter(record)
        if rv:
            self.emit(record)
        return rv

    def flush(self):
        pass

    def close(self):
        pass

    def handleError(self, record):
        pass

    def __repr__(self):
        return '<%s (%s)>' % (type(self).__name__, getLevelName(self.level))


class StreamHandler(Handler):
    terminator = '\n'

    def __init__(self, stream=None):
        Handler.__init__(self)
        self.stream = sys.stderr if stream is None else stream

    def flush(self):
        if hasattr(self.stream, 'flush'):
            self.stream.flush()

    def emit(self, record):
        self.stream.write(self.format(record) + self.terminator)
        self.flush()

    def setStream(self, stream):
        if stream is self.stream:
            return None
        result = self.stream
        self.stream = stream
        return result

    def __repr__(self):
        name = getattr(self.stream, 'name', '')
        return '<%s %s(%s)>' % (type(self).__name__, name + ' ' if name else '', getLevelName(self.level))


class FileHandler(StreamHandler):
    def __init__(self, filename, mode='a', encoding=None, delay=False, errors=None):
        self.baseFilename = filename
        self.mode = mode
        Handler.__init__(self)
        self.stream = open(filename, mode)

    def close(self):
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def emit(self, record):
        if self.stream is None:
            self.stream = open(self.baseFilename, self.mode)
        StreamHandler.emit(self, record)


class NullHandler(Handler):
    def handle(self, record):
        pass

    def emit(self, record):
        pass


class _StderrHandler(StreamHandler):
    def __init__(self, level=NOTSET):
        Handler.__init__(self, level)

    def emit(self, record):
        sys.stderr.write(self.format(record) + self.terminator)


lastResort = _StderrHandler(WARNING)


class Logger(Filterer):
    manager = None

    def __init__(self, name, level=NOTSET):
        Filterer.__init__(self)
        self.name = name
        self.level = _checkLevel(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        if self.disabled or _disable_level >= level:
            return False
        return level >= self.getEffectiveLevel()

    def debug(self, msg, *args, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, **kwargs)

    def info(self, msg, *args, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, **kwargs)

    warn = warning

    def error(self, msg, *args, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.error(msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, **kwargs)

    fatal = critical

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            raise TypeError('level must be an integer')
        if self.isEnabledFor(level):
            self._log(level, msg, args, **kwargs)

    def _log(self, level, msg, args, exc_info=None, extra=None, stack_info=False, stacklevel=1):
        if exc_info:
            if isinstance(exc_info, BaseException):
                exc_info = (type(exc_info), exc_info, exc_info.__traceback__)
            elif not isinstance(exc_info, tuple):
                exc_info = sys.exc_info()
        record = LogRecord(self.name, level, sys.argv[0] if sys.argv else '', 0, msg, args, exc_info, None)
        if extra is not None:
            for key in extra:
                if key in ('message', 'asctime') or key in vars(record):
                    raise KeyError('Attempt to overwrite %r in LogRecord' % key)
                setattr(record, key, extra[key])
        self.handle(record)

    def handle(self, record):
        if not self.disabled and self.filter(record):
            self.callHandlers(record)

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        c = self
        while c:
            if c.handlers:
                return True
            if not c.propagate:
                break
            c = c.parent
        return False

    def callHandlers(self, record):
        c = self
        found = 0
        while c:
            for hdlr in c.handlers:
                found = found + 1
                if record.levelno >= hdlr.level:
                    hdlr.handle(record)
            if not c.propagate:
                c = None
            else:
                c = c.parent
        if found == 0 and lastResort and record.levelno >= lastResort.level:
            lastResort.handle(record)

    def getChild(self, suffix):
        if self.root is not self:
            suffix = '.'.join((self.name, suffix))
        return getLogger(suffix)

    def __repr__(self):
        return '<%s %s (%s)>' % (type(self).__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        Logger.__init__(self, 'root', level)


root = RootLogger(WARNING)
Logger.root = root
_loggers = {}
_disable_level = 0


def getLogger(name=None):
    if not name or isinstance(name, str) and name == root.name:
        return root
    if not isinstance(name, str):
        raise TypeError('A logger name must be a string')
    logger = _loggers.get(name)
    if logger is None:
        logger = Logger(name)
        _loggers[name] = logger
        # the nearest existing ancestor is the parent; existing descendants re-parent
        parent = root
        parts = name.split('.')
        for i in range(len(parts) - 1, 0, -1):
            candidate = _loggers.get('.'.join(parts[:i]))
            if candidate is not None:
                parent = candidate
                break
        logger.parent = parent
        for other in _loggers.values():
            if other is not logger and other.name.startswith(name + '.') and (
                    other.parent is parent or len(other.parent.name) < len(name) or other.parent is root):
                other.parent = logger
    return logger


def basicConfig(**kwargs):
    force = kwargs.pop('force', False)
    if force:
        for h in root.handlers[:]:
            root.removeHandler(h)
            h.close()
    if root.handlers:
        return
    handlers = kwargs.pop('handlers', None)
    stream = kwargs.pop('stream', None)
    filename = kwargs.pop('filename', None)
    filemode = kwargs.pop('filemode', 'a')
    if handlers is not None and (stream is not None or filename is not None):
        raise ValueError("'stream' or 'filename' should not be specified together with 'handlers'")
    if stream is not None and filename is not None:
        raise ValueError("'stream' and 'filename' should not be specified together")
    if handlers is None:
        if filename is not None:
            handlers = [FileHandler(filename, filemode)]
        else:
            handlers = [StreamHandler(stream)]
    fs = kwargs.pop('format', None)
    dfs = kwargs.pop('datefmt', None)
    style = kwargs.pop('style', '%')
    fmt = Formatter(fs if fs is not None else {'%': BASIC_FORMAT, '{': '{levelname}:{name}:{message}',
                                                '$': '${levelname}:${name}:${message}'}[style], dfs, style)
    for h in handlers:
        if h.formatter is None:
            h.setFormatter(fmt)
        root.addHandler(h)
    level = kwargs.pop('level', None)
    if level is not None:
        root.setLevel(level)
    kwargs.pop('encoding', None)
    kwargs.pop('errors', None)
    if kwargs:
        raise ValueError('Unrecognised argument(s): %s' % ', '.join(kwargs.keys()))


def _root_call(method, msg, args, kwargs):
    if len(root.handlers) == 0:
        basicConfig()
    getattr(root, method)(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    _root_call('critical', msg, args, kwargs)


fatal = critical


def error(msg, *args, **kwargs):
    _root_call('error', msg, args, kwargs)


def exception(msg, *args, exc_info=True, **kwargs):
    error(msg, *args, exc_info=exc_info, **kwargs)


def warning(msg, *args, **kwargs):
    _root_call('warning', msg, args, kwargs)


warn = warning


def info(msg, *args, **kwargs):
    _root_call('info', msg, args, kwargs)


def debug(msg, *args, **kwargs):
    _root_call('debug', msg, args, kwargs)


def log(level, msg, *args, **kwargs):
    if len(root.handlers) == 0:
        basicConfig()
    root.log(level, msg, *args, **kwargs)


def disable(level=CRITICAL):
    global _disable_level
    _disable_level = level


def shutdown():
    for h in root.handlers:
        h.flush()


def captureWarnings(capture):
    pass
