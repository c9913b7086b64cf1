# ast, written in the language: literal_eval (the part scripts use to read
# values from a command line or a config file). The text is scanned and parsed
# here as CPython's literal_eval accepts it: numbers, strings, bytes, True,
# False, None, tuples, lists, sets, dicts, unary +/- on numbers (no complex
# numbers: the language has no complex type). Nothing in the text is run: a string token is decoded by eval()
# only after the scanner has matched it as one string literal.

_PUNCT = '()[]{},:+-'
_CONTAINER_NODES = {list: 'List', tuple: 'Tuple', dict: 'Dict', set: 'Set'}
_NODES = {'name': 'Name', 'call': 'Call', 'binop': 'BinOp', 'attr': 'Attribute', 'sub': 'Subscript'}


class _Malformed(Exception):
    pass


def _scan(text):
    tokens = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in ' \t\n\r\f\\':
            i += 1
            continue
        if c == '#':
            while i < n and text[i] != '\n':
                i += 1
            continue
        start = i
        low = c.lower()
        if c.isalpha() or c == '_':
            while i < n and (text[i].isalnum() or text[i] == '_'):
                i += 1
            word = text[start:i]
            prefix = word.lower()
            if i < n and text[i] in '\'"' and prefix in ('b', 'r', 'u', 'br', 'rb'):
                i = _string_end(text, i)
                tokens.append(('str', text[start:i]))
                continue
            if i < n and text[i] in '\'"' and 'f' in prefix:
                raise _Malformed('JoinedStr')
            tokens.append(('name', word))
            continue
        if c in '\'"':
            i = _string_end(text, i)
            tokens.append(('str', text[start:i]))
            continue
        if c.isdigit() or (c == '.' and i + 1 < n and text[i + 1].isdigit()):
            while i < n and (text[i].isalnum() or text[i] in '._' or
                             (text[i] in '+-' and text[i - 1] in 'eE' and not text[start:i].lower().startswith('0x'))):
                i += 1
            tokens.append(('num', text[start:i]))
            continue
        if c in _PUNCT:
            tokens.append(('op', c))
            i += 1
            continue
        if c in '*/%@&|^~<>=!.':
            tokens.append(('other', c))
            i += 1
            continue
        raise SyntaxError('invalid character %r (U+%04X)' % (c, ord(c)))
    return tokens


def _string_end(text, i):
    quote = text[i]
    triple = text[i:i + 3] == quote * 3
    i += 3 if triple else 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == '\\':
            i += 2
            continue
        if triple and text[i:i + 3] == quote * 3:
            return i + 3
        if not triple and c == quote:
            return i + 1
        if not triple and c == '\n':
            break
        i += 1
    raise SyntaxError('unterminated string literal (detected at line 1)')


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ('end', '')

    def take(self):
        tok = self.peek()
        self.pos += 1
        return tok

    def expect(self, value):
        tok = self.take()
        if tok[1] != value or tok[0] not in ('op',):
            raise SyntaxError('invalid syntax')

    def top(self):
        if self.peek()[0] == 'end':
            raise SyntaxError('invalid syntax')
        value = self.expr()
        if self.peek()[1] == ',' and self.peek()[0] == 'op':  # a bare tuple: 1, 2
            items = [value]
            while self.peek() == ('op', ','):
                self.take()
                if self.peek()[0] == 'end':
                    break
                items.append(self.expr())
            value = tuple(items)
        if self.peek()[0] != 'end':
            kind = self.peek()
            if kind[0] == 'other' or kind == ('op', '('):
                raise _Malformed('BinOp' if kind[0] == 'other' else 'Call')
            raise SyntaxError('invalid syntax')
        return value

    def expr(self):
        value = self.unary()
        while self.peek() in (('op', '+'), ('op', '-')):
            op = self.take()[1]
            right = self.unary()
            raise _Malformed('BinOp')  # only a complex sum (1+2j) is a literal: no complex type here
        if self.peek()[0] == 'other':
            raise _Malformed('BinOp')
        return value

    def unary(self):
        tok = self.peek()
        if tok in (('op', '+'), ('op', '-')):
            self.take()
            if self.peek() in (('op', '+'), ('op', '-')):
                raise _Malformed('UnaryOp')  # a sign applies to a number only
            operand = self.atom()
            if isinstance(operand, bool) or not isinstance(operand, (int, float)):
                raise _Malformed(_CONTAINER_NODES.get(type(operand), 'Constant'))
            return operand if tok[1] == '+' else -operand
        return self.atom()

    def atom(self):
        kind, text = self.take()
        if kind == 'num':
            value = _number(text)
        elif kind == 'str':
            value = eval(text)
            while self.peek()[0] == 'str':  # implicit concatenation
                more = eval(self.take()[1])
                if type(more) is not type(value):
                    raise SyntaxError('cannot mix bytes and nonbytes literals')
                value = value + more
        elif kind == 'name':
            if text == 'True':
                value = True
            elif text == 'False':
                value = False
            elif text == 'None':
                value = None
            else:
                nxt = self.peek()
                raise _Malformed('Call' if nxt == ('op', '(') else 'Subscript' if nxt == ('op', '[') else
                                 'Attribute' if nxt == ('other', '.') else 'Name')
        elif kind == 'op' and text == '(':
            value = self.sequence('(', ')', tuple)
        elif kind == 'op' and text == '[':
            value = self.sequence('[', ']', list)
        elif kind == 'op' and text == '{':
            value = self.braces()
        else:
            raise SyntaxError('invalid syntax')
        nxt = self.peek()
        if nxt == ('op', '(') :
            raise _Malformed('Call')
        if nxt == ('op', '['):
            raise _Malformed('Subscript')
        if nxt == ('other', '.'):
            raise _Malformed('Attribute')
        return value

    def sequence(self, open_, close, make):
        items = []
        trailing = False
        while self.peek() != ('op', close):
            if self.peek()[0] == 'end':
                raise SyntaxError("'%s' was never closed" % open_)
            items.append(self.expr())
            trailing = False
            if self.peek() == ('op', ','):
                self.take()
                trailing = True
            elif self.peek() != ('op', close):
                raise SyntaxError('invalid syntax')
        self.take()
        if make is tuple and len(items) == 1 and not trailing:
            return items[0]
        return make(items)

    def braces(self):
        if self.peek() == ('op', '}'):
            self.take()
            return {}
        first = self.expr()
        if self.peek() == ('op', ':'):
            self.take()
            d = {first: self.expr()}
            while self.peek() == ('op', ','):
                self.take()
                if self.peek() == ('op', '}'):
                    break
                key = self.expr()
                self.expect(':')
                d[key] = self.expr()
            self.expect('}')
            return d
        items = [first]
        while self.peek() == ('op', ','):
            self.take()
            if self.peek() == ('op', '}'):
                break
            items.append(self.expr())
        self.expect('}')
        return set(items)


def _number(text):
    t = text.replace('_', '') if '__' not in text and not text.endswith('_') else None
    if t is None:
        raise SyntaxError('invalid decimal literal')
    low = t.lower()
    try:
        if low.endswith('j'):
            raise _Malformed('Constant')  # no complex type here
        if low.startswith(('0x', '0o', '0b')):
            return int(low, 0)
        if '.' in low or 'e' in low or low in ('inf', 'nan'):
            return float(low)
        if len(low) > 1 and low[0] == '0' and low.strip('0'):
            raise SyntaxError('leading zeros in decimal integer literals are not permitted; '
                              'use an 0o prefix for octal integers')
        return int(low)
    except ValueError:
        raise SyntaxError('invalid decimal literal')


class _NodeStandIn:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return '<ast.%s object at 0x%x>' % (self.name, id(self))


def literal_eval(node_or_string):
    if not isinstance(node_or_string, str):
        if isinstance(node_or_string, (bytes, bytearray)):
            node_or_string = bytes(node_or_string).decode()
        else:
            raise ValueError('malformed node or string: %r' % (node_or_string,))
    text = node_or_string.lstrip(' \t')
    try:
        return _Parser(_scan(text)).top()
    except SyntaxError as e:
        line = 1 if text.strip() else 0
        raise SyntaxError('%s (<unknown>, line %d)' % (e.args[0], line)) from None
    except _Malformed as e:
        raise ValueError('malformed node or string on line 1: %r' % (_NodeStandIn(e.args[0]),)) from None
