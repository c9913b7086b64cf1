# tqdm as scripts use it (tqdm 4.x's look): an iterator wrapper whose progress bar goes to
# stderr, refreshed in place with "\r" at most every mininterval seconds and left as its final
# line ("100%|██████████| 10/10 [00:00<00:00, 1234.56it/s]") when leave=True; stdout is untouched
# except by tqdm.write. The bar is 10 cells wide unless ncols= (or COLUMNS, tqdm's fallback) gives
# the line's width: nnscope cannot ask a terminal its width, where tqdm fills it.
import os
import sys
import time

__version__ = '4.64.1'


def format_interval(t):
    mins, s = divmod(int(t), 60)
    h, m = divmod(mins, 60)
    if h:
        return '{0:d}:{1:02d}:{2:02d}'.format(h, m, s)
    return '{0:02d}:{1:02d}'.format(m, s)


def format_num(n):
    f = '{0:.3g}'.format(n).replace('+0', '+').replace('-0', '-')
    n = str(n)
    return f if len(f) < len(n) else n


def _bar(frac, width, ascii):
    charset = ' 123456789#' if ascii else ' ' + ''.join(chr(0x258F - i) for i in range(8))
    nsyms = len(charset) - 1
    full, part = divmod(int(frac * width * nsyms), nsyms)
    res = charset[-1] * full
    if full < width:
        res += charset[part] + ' ' * (width - full - 1)
    return res


class tqdm:
    def __init__(self, iterable=None, desc=None, total=None, leave=True, file=None, ncols=None, mininterval=0.1,
                 maxinterval=10.0, miniters=None, ascii=None, disable=False, unit='it', unit_scale=False,
                 dynamic_ncols=False, smoothing=0.3, bar_format=None, initial=0, position=None, postfix=None,
                 unit_divisor=1000, write_bytes=None, lock_args=None, nrows=None, colour=None, delay=0, **kwargs):
        if total is None and iterable is not None:
            try:
                total = len(iterable)
            except (TypeError, AttributeError):
                total = None
        self.iterable = iterable
        self.desc = desc or ''
        self.total = total
        self.leave = leave
        self.fp = file if file is not None else sys.stderr
        self.ncols = ncols
        self.mininterval = mininterval
        self.ascii = bool(ascii)
        self.disable = disable
        self.unit = unit
        self.n = initial
        self.postfix = ''
        self.start_t = time.time()
        self.last_print_t = self.start_t
        self._last_len = 0
        self._closed = False
        if postfix is not None:
            self.set_postfix(postfix, refresh=False) if isinstance(postfix, dict) else self.set_postfix_str(
                str(postfix), refresh=False)
        if not disable:
            self.refresh()

    # the line, as tqdm's format_meter writes it
    def __str__(self):
        elapsed = time.time() - self.start_t
        rate = self.n / elapsed if elapsed > 0 and self.n else None
        rate_fmt = ('?' if rate is None else '{0:5.2f}'.format(rate if rate >= 1 else 1 / rate)) + \
            (self.unit + '/s' if rate is None or rate >= 1 else 's/' + self.unit)
        postfix = ', ' + self.postfix if self.postfix else ''
        desc = self.desc if not self.desc or self.desc.endswith(': ') else self.desc + ': '
        if self.total is None:
            return '{0}{1}{2} [{3}, {4}{5}]'.format(desc, self.n, self.unit, format_interval(elapsed), rate_fmt, postfix)
        remaining = '?' if rate is None else format_interval((self.total - self.n) / rate)
        frac = self.n / self.total if self.total else 1.0
        l_bar = '{0}{1:3.0f}%|'.format(desc, frac * 100)
        r_bar = '| {0}/{1} [{2}<{3}, {4}{5}]'.format(self.n, self.total, format_interval(elapsed), remaining,
                                                     rate_fmt, postfix)
        ncols = self.ncols
        if ncols is None and self.fp in (sys.stderr, sys.stdout) and 'COLUMNS' in os.environ:
            ncols = int(os.environ['COLUMNS']) - 1  # tqdm's fallback where it cannot ask the terminal
        width = 10 if ncols is None else max(ncols - len(l_bar) - len(r_bar), 1)
        return l_bar + _bar(frac, width, self.ascii) + r_bar

    def _print(self, s):
        self.fp.write('\r' + s + ' ' * max(self._last_len - len(s), 0))
        self.fp.flush()
        self._last_len = len(s)

    def refresh(self, nolock=False, lock_args=None):
        if not self.disable:
            self._print(str(self))
            self.last_print_t = time.time()

    def display(self, msg=None, pos=None):
        self._print(str(self) if msg is None else msg)

    def update(self, n=1):
        if self.disable:
            return None
        self.n += n
        if time.time() - self.last_print_t >= self.mininterval:
            self.refresh()
        return True

    def __iter__(self):
        if self.disable:
            yield from self.iterable
            return
        try:
            for obj in self.iterable:
                yield obj
                self.update(1)
        finally:
            self.close()

    def __len__(self):
        if self.total is not None:
            return self.total
        return len(self.iterable)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()
        return False

    def __del__(self):
        pass

    def close(self):
        if self._closed or self.disable:
            self._closed = True
            return
        self._closed = True
        if self.leave:
            self._print(str(self))
            self.fp.write('\n')
        else:
            self.fp.write('\r' + ' ' * self._last_len + '\r')
        self.fp.flush()

    def clear(self, nolock=False):
        if not self.disable:
            self.fp.write('\r' + ' ' * self._last_len + '\r')

    def reset(self, total=None):
        self.n = 0
        if total is not None:
            self.total = total
        self.start_t = self.last_print_t = time.time()
        self.refresh()

    def set_description(self, desc=None, refresh=True):
        self.desc = desc or ''
        if refresh:
            self.refresh()

    def set_description_str(self, desc=None, refresh=True):
        self.set_description(desc, refresh)

    def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
        items = list(ordered_dict.items()) if ordered_dict is not None else []
        items += sorted(kwargs.items())
        parts = []
        for key, value in items:
            if isinstance(value, (int, float)):
                value = format_num(value)
            parts.append(key + '=' + str(value).strip())
        self.postfix = ', '.join(parts)
        if refresh:
            self.refresh()

    def set_postfix_str(self, s='', refresh=True):
        self.postfix = str(s)
        if refresh:
            self.refresh()

    @classmethod
    def write(cls, s, file=None, end='\n', nolock=False):
        fp = file if file is not None else sys.stdout
        fp.write(s)
        fp.write(end)


def trange(*args, **kwargs):
    return tqdm(range(*args), **kwargs)
