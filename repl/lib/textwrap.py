# textwrap, written in the language: wrap, fill, shorten, dedent, indent.
# Words break at whitespace and after the hyphen of a hyphenated word, as
# CPython's TextWrapper with its defaults.

import re


class TextWrapper:
    def __init__(self, width=70, initial_indent='', subsequent_indent='', expand_tabs=True,
                 replace_whitespace=True, fix_sentence_endings=False, break_long_words=True,
                 drop_whitespace=True, break_on_hyphens=True, tabsize=8, *, max_lines=None,
                 placeholder=' [...]'):
        self.width = width
        self.initial_indent = initial_indent
        self.subsequent_indent = subsequent_indent
        self.expand_tabs = expand_tabs
        self.replace_whitespace = replace_whitespace
        self.break_long_words = break_long_words
        self.drop_whitespace = drop_whitespace
        self.break_on_hyphens = break_on_hyphens
        self.tabsize = tabsize
        self.max_lines = max_lines
        self.placeholder = placeholder

    def _split(self, text):
        if self.expand_tabs:
            text = text.expandtabs(self.tabsize)
        if self.replace_whitespace:
            text = re.sub(r'[\t\n\x0b\x0c\r]', ' ', text)
        chunks = []
        for piece in re.split(r'(\s+)', text):
            if not piece:
                continue
            if self.break_on_hyphens and not piece.isspace():
                chunks.extend(p for p in re.split(r'(?<=[^\W\d_]-)(?=[^\W\d_])', piece) if p)
            else:
                chunks.append(piece)
        return chunks

    def wrap(self, text):
        if self.width <= 0:
            raise ValueError('invalid width %r (must be > 0)' % self.width)
        chunks = self._split(text)
        chunks.reverse()
        lines = []
        while chunks:
            cur = []
            cur_len = 0
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - len(indent)
            if self.drop_whitespace and chunks[-1].strip() == '' and lines:
                chunks.pop()
            while chunks:
                n = len(chunks[-1])
                if cur_len + n <= width:
                    cur.append(chunks.pop())
                    cur_len += n
                else:
                    break
            if chunks and len(chunks[-1]) > width:
                space_left = width - cur_len if width >= 1 else 1
                if self.break_long_words:
                    chunk = chunks[-1]
                    end = space_left
                    if self.break_on_hyphens and len(chunk) > space_left:
                        hyphen = chunk.rfind('-', 0, space_left)
                        if hyphen > 0 and any(c != '-' for c in chunk[:hyphen]):
                            end = hyphen + 1
                    cur.append(chunk[:end])
                    chunks[-1] = chunk[end:]
                    cur_len += len(cur[-1])
                elif not cur:
                    cur.append(chunks.pop())
                    cur_len += len(cur[-1])
            if self.drop_whitespace and cur and cur[-1].strip() == '':
                cur_len -= len(cur[-1])
                del cur[-1]
            if cur:
                if self.max_lines is not None and len(lines) + 1 >= self.max_lines and (
                        chunks and not (self.drop_whitespace and len(chunks) == 1 and not chunks[0].strip())):
                    while cur:
                        if cur[-1].strip() and cur_len + len(self.placeholder) <= width:
                            cur.append(self.placeholder)
                            lines.append(indent + ''.join(cur))
                            return lines
                        cur_len -= len(cur[-1])
                        del cur[-1]
                    if lines:
                        prev_line = lines[-1].rstrip()
                        if len(prev_line) + len(self.placeholder) <= self.width:
                            lines[-1] = prev_line + self.placeholder
                            return lines
                    lines.append(indent + self.placeholder.lstrip())
                    return lines
                lines.append(indent + ''.join(cur))
        return lines

    def fill(self, text):
        return '\n'.join(self.wrap(text))


def wrap(text, width=70, **kwargs):
    return TextWrapper(width=width, **kwargs).wrap(text)


def fill(text, width=70, **kwargs):
    return TextWrapper(width=width, **kwargs).fill(text)


def shorten(text, width, **kwargs):
    w = TextWrapper(width=width, max_lines=1, **kwargs)
    return w.fill(' '.join(text.strip().split()))


def dedent(text):
    lines = text.split('\n')
    margin = None
    for line in lines:
        if not line.strip():
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if margin is None:
            margin = indent
        else:
            n = 0
            while n < len(margin) and n < len(indent) and margin[n] == indent[n]:
                n += 1
            margin = margin[:n]
    out = []
    for line in lines:
        if not line.strip():
            out.append('')
        else:
            out.append(line[len(margin):] if margin else line)
    return '\n'.join(out)


def indent(text, prefix, predicate=None):
    if predicate is None:
        def predicate(line):
            return line.strip()
    return ''.join(prefix + line if predicate(line) else line for line in text.splitlines(True))
