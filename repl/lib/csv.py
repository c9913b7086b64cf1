# csv, written in the language: reader, writer, DictReader, DictWriter and the
# dialects (excel, excel-tab, unix) with CPython 3.11's quoting rules, parsing
# (quoted fields across lines, doubled quotes, escapechar, skipinitialspace,
# QUOTE_NONNUMERIC's floats) and errors (csv.Error). Training scripts log their
# metrics with it.

QUOTE_MINIMAL = 0
QUOTE_ALL = 1
QUOTE_NONNUMERIC = 2
QUOTE_NONE = 3

__version__ = '1.0'

_field_limit = 131072


class Error(Exception):
    pass


class Dialect:
    _name = ''
    delimiter = None
    quotechar = None
    escapechar = None
    doublequote = None
    skipinitialspace = None
    lineterminator = None
    quoting = None
    strict = False


class excel(Dialect):
    delimiter = ','
    quotechar = '"'
    doublequote = True
    skipinitialspace = False
    lineterminator = '\r\n'
    quoting = QUOTE_MINIMAL


class excel_tab(excel):
    delimiter = '\t'


class unix_dialect(Dialect):
    delimiter = ','
    quotechar = '"'
    doublequote = True
    skipinitialspace = False
    lineterminator = '\n'
    quoting = QUOTE_ALL


_dialects = {'excel': excel, 'excel-tab': excel_tab, 'unix': unix_dialect}


def register_dialect(name, dialect=None, **fmtparams):
    if not isinstance(name, str):
        raise TypeError('dialect name must be a string')
    _dialects[name] = _Params(dialect, fmtparams)


def unregister_dialect(name):
    if name not in _dialects:
        raise Error('unknown dialect')
    del _dialects[name]


def get_dialect(name):
    if name not in _dialects:
        raise Error('unknown dialect')
    return _dialects[name]


def list_dialects():
    return list(_dialects)


def field_size_limit(*args):
    global _field_limit
    old = _field_limit
    if len(args) > 1:
        raise TypeError('field_size_limit expected at most 1 argument, got %d' % len(args))
    if args:
        if not isinstance(args[0], int):
            raise TypeError('limit must be an integer')
        _field_limit = args[0]
    return old


def _char(name, value, allow_none):
    if value is None:
        if allow_none:
            return None
        raise TypeError('"%s" must be a 1-character string' % name)
    if not isinstance(value, str):
        raise TypeError('"%s" must be string or None, not %s' % (name, type(value).__name__)
                        if allow_none else '"%s" must be string, not %s' % (name, type(value).__name__))
    if len(value) != 1:
        raise TypeError('"%s" must be a 1-character string' % name)
    return value


class _Params:
    def __init__(self, dialect, fmtparams):
        if isinstance(dialect, str):
            dialect = get_dialect(dialect)
        base = dialect if dialect is not None else excel

        def pick(name):
            if name in fmtparams:
                return fmtparams[name]
            return getattr(base, name)

        for key in fmtparams:
            if key not in ('delimiter', 'quotechar', 'escapechar', 'doublequote', 'skipinitialspace',
                           'lineterminator', 'quoting', 'strict'):
                raise TypeError("'%s' is an invalid keyword argument for this function" % key)
        self.delimiter = _char('delimiter', pick('delimiter'), False)
        self.doublequote = bool(pick('doublequote'))
        self.escapechar = _char('escapechar', pick('escapechar'), True)
        self.skipinitialspace = bool(pick('skipinitialspace'))
        self.strict = bool(pick('strict'))
        quoting = pick('quoting')
        if quoting not in (QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE):
            raise TypeError('bad "quoting" value')
        self.quoting = quoting
        quotechar = pick('quotechar')
        if quotechar is None and quoting != QUOTE_NONE:
            raise TypeError('quotechar must be set if quoting enabled')
        self.quotechar = _char('quotechar', quotechar, True)
        lineterminator = pick('lineterminator')
        if not isinstance(lineterminator, str):
            raise TypeError('"lineterminator" must be a string')
        self.lineterminator = lineterminator


class _Writer:
    def __init__(self, fileobj, dialect, fmtparams):
        if not hasattr(fileobj, 'write'):
            raise TypeError('argument 1 must have a "write" method')
        self._file = fileobj
        self.dialect = _Params(dialect, fmtparams)

    def _field(self, value, only):
        d = self.dialect
        if value is None:
            text = ''
        elif isinstance(value, float):
            text = repr(value)
        else:
            text = str(value)
        if d.quoting == QUOTE_ALL:
            quote = True
        elif d.quoting == QUOTE_NONNUMERIC:
            quote = not isinstance(value, (int, float))  # bools are ints; None is quoted
        else:
            quote = False
        specials = d.delimiter + (d.quotechar or '') + (d.escapechar or '') + '\r\n' + d.lineterminator
        out = []
        for ch in text:
            if ch in specials:
                if d.quoting == QUOTE_NONE:
                    if ch == d.escapechar or not d.escapechar:
                        if not d.escapechar:
                            raise Error('need to escape, but no escapechar set')
                    out.append(d.escapechar)
                elif ch == d.quotechar:
                    if d.doublequote:
                        out.append(d.quotechar)
                    elif d.escapechar:
                        out.append(d.escapechar)
                    else:
                        raise Error('need to escape, but no escapechar set')
                    quote = True
                elif ch == d.escapechar:
                    out.append(d.escapechar)
                else:
                    quote = d.quoting != QUOTE_NONE or quote
            out.append(ch)
        text = ''.join(out)
        if not text and only and d.quoting != QUOTE_NONE:
            if d.quoting == QUOTE_NONE:
                raise Error('single empty field record must be quoted')
            quote = True
        if quote and d.quoting != QUOTE_NONE:
            return d.quotechar + text + d.quotechar
        return text

    def writerow(self, row):
        try:
            fields = list(row)
        except TypeError:
            raise Error('iterable expected, not %s' % type(row).__name__)
        d = self.dialect
        line = d.delimiter.join(self._field(v, len(fields) == 1) for v in fields) + d.lineterminator
        return self._file.write(line)

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(fileobj, dialect='excel', **fmtparams):
    return _Writer(fileobj, dialect, fmtparams)


class _Reader:
    def __init__(self, iterable, dialect, fmtparams):
        self._lines = iter(iterable)
        self.dialect = _Params(dialect, fmtparams)
        self.line_num = 0

    def __iter__(self):
        return self

    def _next_line(self):
        line = next(self._lines)
        if not isinstance(line, str):
            raise Error('iterator should return strings, not %s (the file should be opened in text mode)'
                        % type(line).__name__)
        self.line_num += 1
        return line

    def __next__(self):
        d = self.dialect
        fields = []
        field = []
        state = 'start'  # start, field, quoted, quote_in_quoted, escape, quoted_escape
        quoted_field = False
        line = self._next_line()
        while True:
            i = 0
            n = len(line)
            while i <= n:
                ch = line[i] if i < n else '\n'
                at_end = i >= n
                if state == 'start':
                    if at_end or ch in '\r\n':
                        if not fields and not field and not quoted_field:
                            if at_end or ch in '\r\n':
                                return []
                        fields.append(self._finish(field, quoted_field))
                        return fields
                    if ch == d.quotechar and d.quoting != QUOTE_NONE:
                        state = 'quoted'
                        quoted_field = True
                    elif ch == d.escapechar:
                        state = 'escape'
                    elif ch == ' ' and d.skipinitialspace:
                        pass
                    elif ch == d.delimiter:
                        fields.append(self._finish(field, quoted_field))
                        field, quoted_field = [], False
                    else:
                        field.append(ch)
                        state = 'field'
                elif state == 'field':
                    if at_end or ch in '\r\n':
                        fields.append(self._finish(field, quoted_field))
                        return fields
                    if ch == d.escapechar:
                        state = 'escape'
                    elif ch == d.delimiter:
                        fields.append(self._finish(field, quoted_field))
                        field, quoted_field = [], False
                        state = 'start'
                    else:
                        field.append(ch)
                elif state == 'escape':
                    if at_end:
                        field.append('\n')
                        state = 'field'
                        break
                    field.append(ch)
                    state = 'field'
                elif state == 'quoted':
                    if at_end:
                        break
                    if ch == d.escapechar:
                        state = 'quoted_escape'
                    elif ch == d.quotechar:
                        state = 'quote_in_quoted' if d.doublequote else 'after_quote'
                    else:
                        field.append(ch)
                elif state == 'quoted_escape':
                    if at_end:
                        break
                    field.append(ch)
                    state = 'quoted'
                elif state in ('quote_in_quoted', 'after_quote'):
                    if ch == d.quotechar and state == 'quote_in_quoted' and not at_end:
                        field.append(ch)
                        state = 'quoted'
                    elif ch == d.delimiter and not at_end:
                        fields.append(self._finish(field, quoted_field))
                        field, quoted_field = [], False
                        state = 'start'
                    elif at_end or ch in '\r\n':
                        fields.append(self._finish(field, quoted_field))
                        return fields
                    elif d.strict:
                        raise Error("'%s' expected after '%s'" % (d.delimiter, d.quotechar))
                    else:
                        field.append(ch)
                        state = 'field'
                i += 1
            # the line ended inside a quoted field (or after an escape): read on
            try:
                line = self._next_line()
            except StopIteration:
                if state in ('quoted', 'quoted_escape'):
                    if d.strict:
                        raise Error('unexpected end of data')
                    fields.append(self._finish(field, quoted_field))
                    return fields
                raise Error('unexpected end of data')

    def _finish(self, chars, quoted):
        text = ''.join(chars)
        if len(text) > _field_limit:
            raise Error('field larger than field limit (%d)' % _field_limit)
        if self.dialect.quoting == QUOTE_NONNUMERIC and not quoted and text:
            return float(text)
        return text


def reader(iterable, dialect='excel', **fmtparams):
    return _Reader(iterable, dialect, fmtparams)


class DictReader:
    def __init__(self, f, fieldnames=None, restkey=None, restval=None, dialect='excel', *args, **kwds):
        self._fieldnames = fieldnames
        self.restkey = restkey
        self.restval = restval
        self.reader = reader(f, dialect, *args, **kwds)
        self.dialect = dialect
        self.line_num = 0

    def __iter__(self):
        return self

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                self._fieldnames = next(self.reader)
            except StopIteration:
                pass
        self.line_num = self.reader.line_num
        return self._fieldnames

    @fieldnames.setter
    def fieldnames(self, value):
        self._fieldnames = value

    def __next__(self):
        if self.line_num == 0:
            self.fieldnames
        row = next(self.reader)
        self.line_num = self.reader.line_num
        while row == []:
            row = next(self.reader)
        d = dict(zip(self.fieldnames, row))
        lf = len(self.fieldnames)
        lr = len(row)
        if lf < lr:
            d[self.restkey] = row[lf:]
        elif lf > lr:
            for key in self.fieldnames[lr:]:
                d[key] = self.restval
        return d


class DictWriter:
    def __init__(self, f, fieldnames, restval='', extrasaction='raise', dialect='excel', *args, **kwds):
        if fieldnames is not None and iter(fieldnames) is fieldnames:
            fieldnames = list(fieldnames)
        self.fieldnames = fieldnames
        self.restval = restval
        if extrasaction.lower() not in ('raise', 'ignore'):
            raise ValueError("extrasaction (%s) must be 'raise' or 'ignore'" % extrasaction)
        self.extrasaction = extrasaction
        self.writer = writer(f, dialect, *args, **kwds)

    def writeheader(self):
        header = dict(zip(self.fieldnames, self.fieldnames))
        return self.writerow(header)

    def _dict_to_list(self, rowdict):
        if self.extrasaction == 'raise':
            wrong_fields = rowdict.keys() - self.fieldnames
            if wrong_fields:
                raise ValueError('dict contains fields not in fieldnames: ' + ', '.join([repr(x) for x in wrong_fields]))
        return (rowdict.get(key, self.restval) for key in self.fieldnames)

    def writerow(self, rowdict):
        return self.writer.writerow(self._dict_to_list(rowdict))

    def writerows(self, rowdicts):
        return self.writer.writerows(map(self._dict_to_list, rowdicts))
