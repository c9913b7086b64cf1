# fnmatch, written in the language: shell-style patterns (* ? [seq] [!seq])
# translated to regular expressions as CPython's translate does.

import os
import re

_cache = {}


def translate(pat):
    i, n = 0, len(pat)
    res = []
    while i < n:
        c = pat[i]
        i = i + 1
        if c == '*':
            if not res or res[-1] != '.*':
                res.append('.*')
        elif c == '?':
            res.append('.')
        elif c == '[':
            j = i
            if j < n and pat[j] == '!':
                j = j + 1
            if j < n and pat[j] == ']':
                j = j + 1
            while j < n and pat[j] != ']':
                j = j + 1
            if j >= n:
                res.append('\\[')
            else:
                stuff = pat[i:j].replace('\\', '\\\\')
                i = j + 1
                if stuff[0] == '!':
                    stuff = '^' + stuff[1:]
                elif stuff[0] in ('^', '['):
                    stuff = '\\' + stuff
                res.append('[%s]' % stuff)
        else:
            res.append(re.escape(c))
    return '(?s:%s)\\Z' % ''.join(res)


def _compile(pat):
    r = _cache.get(pat)
    if r is None:
        r = re.compile(translate(pat))
        _cache[pat] = r
    return r


def fnmatchcase(name, pat):
    return _compile(pat).match(name) is not None


def fnmatch(name, pat):
    return fnmatchcase(os.path.normcase(name) if hasattr(os.path, 'normcase') else name, pat)


def filter(names, pat):
    match = _compile(pat).match
    return [name for name in names if match(name)]
