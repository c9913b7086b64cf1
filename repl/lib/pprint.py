# pprint, written in the language: pformat/pprint/pp of dicts, lists, tuples
# and sets in CPython's layout (sorted dict keys by default, one item per
# line when a container does not fit in the width, nested indentation).


def _sort_key(x):
    return (str(type(x)), x) if not isinstance(x, (int, float)) else ('', x)


def _safe_repr(obj, sort_dicts, level, depth):
    if isinstance(obj, dict):
        if not obj:
            return '{}'
        if depth and level >= depth:
            return '{...}'
        items = sorted(obj.items(), key=lambda kv: _sort_key(kv[0])) if sort_dicts else obj.items()
        return '{' + ', '.join('%s: %s' % (_safe_repr(k, sort_dicts, level + 1, depth),
                                          _safe_repr(v, sort_dicts, level + 1, depth)) for k, v in items) + '}'
    if isinstance(obj, list) or (isinstance(obj, tuple) and not hasattr(obj, '_fields')):
        if not obj:
            return '[]' if isinstance(obj, list) else '()'
        if depth and level >= depth:
            return '[...]' if isinstance(obj, list) else '(...)'
        inner = ', '.join(_safe_repr(x, sort_dicts, level + 1, depth) for x in obj)
        if isinstance(obj, list):
            return '[' + inner + ']'
        return '(' + inner + (',)' if len(obj) == 1 else ')')
    return repr(obj)


class PrettyPrinter:
    def __init__(self, indent=1, width=80, depth=None, stream=None, *, compact=False, sort_dicts=True,
                 underscore_numbers=False):
        if indent < 0:
            raise ValueError('indent must be >= 0')
        if depth is not None and depth <= 0:
            raise ValueError('depth must be > 0')
        if not width:
            raise ValueError('width must be != 0')
        self._indent_per_level = indent
        self._width = width
        self._depth = depth
        self._stream = stream
        self._compact = compact
        self._sort_dicts = sort_dicts

    def pprint(self, object):
        s = self.pformat(object)
        if self._stream is not None:
            self._stream.write(s + '\n')
        else:
            print(s)

    def pformat(self, object):
        out = []
        self._format(object, out, 0, 0, 0)
        return ''.join(out)

    def isreadable(self, object):
        return True

    def _repr(self, object, level):
        return _safe_repr(object, self._sort_dicts, level, self._depth)

    def _format(self, object, out, indent, allowance, level):
        rep = self._repr(object, level)
        if len(rep) > self._width - indent - allowance:
            if isinstance(object, dict) and object:
                return self._pprint_dict(object, out, indent, allowance, level + 1)
            if isinstance(object, list) and object:
                return self._pprint_seq(object, out, indent, allowance, level + 1, '[', ']')
            if isinstance(object, tuple) and object and not hasattr(object, '_fields'):
                return self._pprint_seq(object, out, indent, allowance, level + 1, '(', ',)' if len(object) == 1 else ')')
            if isinstance(object, str) and object:
                return self._pprint_str(object, out, indent, allowance, level + 1)
        out.append(rep)

    def _pprint_dict(self, object, out, indent, allowance, level):
        out.append('{')
        if self._indent_per_level > 1:
            out.append((self._indent_per_level - 1) * ' ')
        items = sorted(object.items(), key=lambda kv: _sort_key(kv[0])) if self._sort_dicts else list(object.items())
        indent += self._indent_per_level
        delimnl = ',\n' + ' ' * indent
        last_index = len(items) - 1
        for i, (key, ent) in enumerate(items):
            last = i == last_index
            rep = self._repr(key, level)
            out.append(rep)
            out.append(': ')
            self._format(ent, out, indent + len(rep) + 2, allowance + 1 if last else 1, level)
            if not last:
                out.append(delimnl)
        out.append('}')

    def _pprint_seq(self, object, out, indent, allowance, level, open, close):
        out.append(open)
        if self._indent_per_level > 1:
            out.append((self._indent_per_level - 1) * ' ')
        indent += self._indent_per_level
        allowance += len(close)
        if self._compact:
            width = max_width = self._width - indent + 1
            delim = ''
            for i, ent in enumerate(object):
                last = i == len(object) - 1
                rep = self._repr(ent, level)
                w = len(rep) + 2
                if width < w:
                    width = max_width
                    if delim:
                        delim = ',\n' + ' ' * indent
                if width >= w:
                    width -= w
                    out.append(delim)
                    delim = ', '
                    out.append(rep)
                    continue
                out.append(delim)
                delim = ',\n' + ' ' * indent
                self._format(ent, out, indent, allowance if last else 1, level)
        else:
            delimnl = ',\n' + ' ' * indent
            for i, ent in enumerate(object):
                last = i == len(object) - 1
                if i:
                    out.append(delimnl)
                self._format(ent, out, indent, allowance if last else 1, level)
        out.append(close)

    def _pprint_str(self, object, out, indent, allowance, level):
        import re
        chunks = []
        lines = object.splitlines(True)
        if level == 1:
            indent += 1
            allowance += 1
        max_width1 = max_width = self._width - indent
        for i, line in enumerate(lines):
            rep = repr(line)
            if i == len(lines) - 1:
                max_width1 -= allowance
            if len(rep) <= max_width1:
                chunks.append(rep)
            else:
                parts = re.findall(r'\S*\s*', line)
                parts.pop()
                max_width2 = max_width
                current = ''
                for j, part in enumerate(parts):
                    candidate = current + part
                    if j == len(parts) - 1 and i == len(lines) - 1:
                        max_width2 -= allowance
                    if len(repr(candidate)) > max_width2:
                        if current:
                            chunks.append(repr(current))
                        current = part
                    else:
                        current = candidate
                if current:
                    chunks.append(repr(current))
        if len(chunks) == 1:
            out.append(rep)
            return
        if level == 1:
            out.append('(')
        for i, rep in enumerate(chunks):
            if i > 0:
                out.append('\n' + ' ' * indent)
            out.append(rep)
        if level == 1:
            out.append(')')


def pformat(object, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
    return PrettyPrinter(indent=indent, width=width, depth=depth, compact=compact,
                         sort_dicts=sort_dicts).pformat(object)


def pprint(object, stream=None, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True,
           underscore_numbers=False):
    PrettyPrinter(stream=stream, indent=indent, width=width, depth=depth, compact=compact,
                  sort_dicts=sort_dicts).pprint(object)


def pp(object, *args, sort_dicts=False, **kwargs):
    pprint(object, *args, sort_dicts=sort_dicts, **kwargs)


def saferepr(object):
    return _safe_repr(object, True, 0, None)


def isreadable(object):
    return True


def isrecursive(object):
    return False
