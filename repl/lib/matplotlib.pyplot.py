# matplotlib.pyplot over nnscope's terminal drawing: figures of Axes that record what is plotted
# (plot, scatter, hist, bar, imshow, titles, labels, legend, grid, limits, log scale). show() draws
# them in braille (lines, points, bars) and half-block colour cells (images) through
# repl/plot.c's canvas when standard output is a terminal, and prints nothing otherwise, as the
# Agg backend does; savefig('x.png') writes a PNG of the same plot (no text: titles, labels
# and ticks appear only in the terminal drawing). Other formats raise matplotlib's ValueError.
import math
import os
import struct
import zlib

import matplotlib
import matplotlib._term as _term

_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22',
           '#17becf']
_NAMED = {'b': '#0000ff', 'g': '#008000', 'r': '#ff0000', 'c': '#00bfbf', 'm': '#bf00bf', 'y': '#bfbf00',
          'k': '#000000', 'w': '#ffffff', 'blue': '#0000ff', 'green': '#008000', 'red': '#ff0000',
          'black': '#000000', 'white': '#ffffff', 'orange': '#ffa500', 'purple': '#800080', 'gray': '#808080',
          'grey': '#808080'}
_SUPPORTED = ('png',)
_KNOWN = ('eps', 'jpeg', 'jpg', 'pdf', 'pgf', 'png', 'ps', 'raw', 'rgba', 'svg', 'svgz', 'tif', 'tiff', 'webp')


def _floats(v):
    # a list, tuple, range, tensor or NumPy array as a flat list of floats
    if hasattr(v, 'detach'):
        v = v.detach()
    if hasattr(v, 'tolist'):
        v = v.tolist()
    if isinstance(v, (int, float)):
        return [float(v)]
    out = []
    for item in v:
        if isinstance(item, (list, tuple)):
            out.extend(_floats(item))
        else:
            out.append(float(item))
    return out


def _matrix(v):
    if hasattr(v, 'detach'):
        v = v.detach()
    if hasattr(v, 'tolist'):
        v = v.tolist()
    return [list(row) for row in v]


def _rgb(color, index):
    if color is None:
        color = _COLORS[index % len(_COLORS)]
    if isinstance(color, (tuple, list)):
        return tuple(int(round(255 * c)) for c in color[:3])
    if color.startswith('C') and color[1:].isdigit():
        color = _COLORS[int(color[1:]) % len(_COLORS)]
    color = _NAMED.get(color, color)
    if not color.startswith('#') or len(color) != 7:
        raise ValueError(repr(color) + ' is not a valid value for color')
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


def _fmt_color(fmt):
    for ch in fmt:
        if ch in 'bgrcmykw':
            return ch
    return None


class Line2D:
    def __init__(self, xs, ys, kind, label, color):
        self.xs, self.ys, self.kind, self.label, self.color = xs, ys, kind, label, color

    def get_label(self):
        return self.label

    def set_data(self, xs, ys):
        self.xs, self.ys = _floats(xs), _floats(ys)


Line2D.__module__ = 'matplotlib.lines'


class Axes:
    def __init__(self, figure):
        self.figure = figure
        self.artists = []
        self.images = []
        self.title = ''
        self.xlabel = ''
        self.ylabel = ''
        self.show_legend = False
        self.show_grid = False
        self.xlim = None
        self.ylim = None
        self.yscale = 'linear'
        self.xscale = 'linear'
        self.visible_axis = True

    def _next_color(self, color):
        return _rgb(color, len(self.artists))

    def plot(self, *args, label=None, color=None, c=None, **kwargs):
        lines = []
        rest = list(args)
        while rest:
            ys = rest.pop(0)
            xs = None
            if rest and not isinstance(rest[0], str):
                xs, ys = ys, rest.pop(0)
            fmt = rest.pop(0) if rest and isinstance(rest[0], str) else ''
            ys = _floats(ys)
            xs = list(range(len(ys))) if xs is None else _floats(xs)
            if len(xs) != len(ys):
                raise ValueError('x and y must have same first dimension, but have shapes ({},) and ({},)'.format(
                    len(xs), len(ys)))
            kind = 'scatter' if fmt and fmt.strip('bgrcmykw') in ('o', '.', 'x', '+', '*', 's', '^') else 'line'
            line = Line2D(xs, ys, kind, label if label is not None else '_child' + str(len(self.artists)),
                          self._next_color(color or c or _fmt_color(fmt)))
            self.artists.append(line)
            lines.append(line)
        return lines

    def scatter(self, x, y, s=None, c=None, label=None, color=None, **kwargs):
        xs, ys = _floats(x), _floats(y)
        if len(xs) != len(ys):
            raise ValueError('x and y must be the same size')
        colour = color if color is not None else (c if isinstance(c, str) else None)
        line = Line2D(xs, ys, 'scatter', label if label is not None else '_child' + str(len(self.artists)),
                      self._next_color(colour))
        self.artists.append(line)
        return line

    def bar(self, x, height, width=0.8, bottom=None, label=None, color=None, **kwargs):
        xs = list(range(len(x))) if x and isinstance(list(x)[0], str) else _floats(x)
        hs = _floats(height)
        if len(hs) == 1 and len(xs) > 1:
            hs = hs * len(xs)
        line = Line2D(xs, hs, 'bar', label if label is not None else '_nolegend_', self._next_color(color))
        line.width = width
        self.artists.append(line)
        return line

    def hist(self, x, bins=10, range=None, density=False, label=None, color=None, alpha=None, **kwargs):
        data = _floats(x)
        lo, hi = range if range is not None else (min(data), max(data))
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        if isinstance(bins, int):
            step = (hi - lo) / bins  # as numpy.linspace spaces them
            edges = [lo + i * step for i in __builtins_range(bins)] + [hi]
        else:
            edges = _floats(bins)
        counts = [0.0] * (len(edges) - 1)
        for v in data:
            if edges[0] <= v <= edges[-1]:
                k = len(edges) - 2
                for i in __builtins_range(len(edges) - 1):
                    if v < edges[i + 1]:
                        k = i
                        break
                counts[k] += 1
        if density:
            total = sum(counts)
            counts = [cnt / (total * (edges[i + 1] - edges[i])) for i, cnt in enumerate(counts)]
        centers = [(edges[i] + edges[i + 1]) / 2 for i in __builtins_range(len(counts))]
        line = Line2D(centers, counts, 'bar', label if label is not None else '_nolegend_', self._next_color(color))
        line.width = edges[1] - edges[0]
        self.artists.append(line)
        try:
            import numpy as np
            return np.array(counts), np.array(edges), line
        except ImportError:
            return counts, edges, line

    def imshow(self, X, cmap=None, vmin=None, vmax=None, **kwargs):
        rows = _matrix(X)
        if rows and rows[0] and isinstance(rows[0][0], (list, tuple)):
            pixels = [[tuple(float(c) for c in px[:3]) for px in row] for row in rows]
            scale = 255.0 if max(max(max(px) for px in row) for row in pixels) > 1 else 1.0
            image = [[tuple(min(max(c / scale, 0.0), 1.0) for c in px) for px in row] for row in pixels]
        else:
            values = [[float(v) for v in row] for row in rows]
            lo = vmin if vmin is not None else min(min(r) for r in values)
            hi = vmax if vmax is not None else max(max(r) for r in values)
            span = hi - lo if hi > lo else 1.0
            gray = cmap in ('gray', 'Greys_r', 'binary_r') or getattr(cmap, 'name', None) == 'gray'
            image = [[_colormap((v - lo) / span, gray) for v in row] for row in values]
        self.images.append(image)
        return image

    def set_title(self, label, **kwargs):
        self.title = str(label)

    def set_xlabel(self, label, **kwargs):
        self.xlabel = str(label)

    def set_ylabel(self, label, **kwargs):
        self.ylabel = str(label)

    def legend(self, *args, **kwargs):
        if args and args[0]:
            labelled = [a for a in self.artists if a.kind != 'bar'] or self.artists
            for artist, name in zip(labelled, args[0]):
                artist.label = str(name)
        self.show_legend = True

    def grid(self, visible=None, **kwargs):
        self.show_grid = True if visible is None else bool(visible)

    def set_xlim(self, left=None, right=None):
        if isinstance(left, (tuple, list)):
            left, right = left
        self.xlim = (left, right)
        return self.xlim

    def set_ylim(self, bottom=None, top=None):
        if isinstance(bottom, (tuple, list)):
            bottom, top = bottom
        self.ylim = (bottom, top)
        return self.ylim

    def set_yscale(self, value, **kwargs):
        _check_scale(value)
        self.yscale = value

    def set_xscale(self, value, **kwargs):
        _check_scale(value)
        self.xscale = value

    def axis(self, arg=None, **kwargs):
        if arg == 'off':
            self.visible_axis = False

    def set_xticks(self, *args, **kwargs):
        return None

    def set_yticks(self, *args, **kwargs):
        return None

    def text(self, *args, **kwargs):
        return None

    def cla(self):
        self.__init__(self.figure)

    # the terminal drawing
    def _draw(self, width, color):
        if self.images:
            return _draw_image(self.images[-1], width, self.title, color)
        return _draw_axes(self, width, color)


Axes.__module__ = 'matplotlib.axes._subplots'
__builtins_range = range


def _check_scale(value):
    if value not in ('linear', 'log', 'symlog', 'logit'):
        raise ValueError("'" + str(value) + "' is not a valid value for scale; supported values are "
                         "'asinh', 'function', 'functionlog', 'linear', 'log', 'logit', 'mercator', 'symlog'")


_VIRIDIS = [(0.267, 0.005, 0.329), (0.283, 0.141, 0.458), (0.254, 0.265, 0.530), (0.207, 0.372, 0.553),
            (0.164, 0.471, 0.558), (0.128, 0.567, 0.551), (0.135, 0.659, 0.518), (0.267, 0.749, 0.441),
            (0.478, 0.821, 0.318), (0.741, 0.873, 0.150), (0.993, 0.906, 0.144)]


def _colormap(t, gray):
    t = min(max(t, 0.0), 1.0)
    if gray:
        return (t, t, t)
    pos = t * (len(_VIRIDIS) - 1)
    i = min(int(pos), len(_VIRIDIS) - 2)
    f = pos - i
    a, b = _VIRIDIS[i], _VIRIDIS[i + 1]
    return tuple(a[k] + (b[k] - a[k]) * f for k in __builtins_range(3))


def _tick(v):
    s = '{0:.3g}'.format(v)
    return '0' if s == '-0' else s


def _limits(ax):
    xs, ys = [], []
    for a in ax.artists:
        xs.extend(a.xs)
        ys.extend(a.ys)
        if a.kind == 'bar':
            ys.append(0.0)
            xs.extend([x - a.width / 2 for x in a.xs] + [x + a.width / 2 for x in a.xs])
    fx = [x for x in xs if math.isfinite(x)]
    fy = [y for y in ys if math.isfinite(y) and (ax.yscale != 'log' or y > 0)]
    xlo, xhi = (min(fx), max(fx)) if fx else (0.0, 1.0)
    ylo, yhi = (min(fy), max(fy)) if fy else (0.0, 1.0)
    if ax.yscale == 'log' and fy:
        ylo, yhi = math.log10(ylo), math.log10(yhi)
    if xhi == xlo:
        xlo, xhi = xlo - 1, xhi + 1
    if yhi == ylo:
        ylo, yhi = ylo - 1, yhi + 1
    if ax.xlim:
        xlo = ax.xlim[0] if ax.xlim[0] is not None else xlo
        xhi = ax.xlim[1] if ax.xlim[1] is not None else xhi
    if ax.ylim:
        lo, hi = ax.ylim
        if ax.yscale == 'log':
            lo = math.log10(lo) if lo is not None and lo > 0 else None
            hi = math.log10(hi) if hi is not None and hi > 0 else None
        ylo = lo if lo is not None else ylo
        yhi = hi if hi is not None else yhi
    return xlo, xhi, ylo, yhi


def _segments(ax, xlo, xhi, ylo, yhi, w, h):
    # each artist as dots of a w x h grid (row 0 at the top), lines joined point to point
    def to_dot(x, y):
        if ax.yscale == 'log':
            if y <= 0:
                return None
            y = math.log10(y)
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        return (int(round((x - xlo) / (xhi - xlo) * (w - 1))), int(round((yhi - y) / (yhi - ylo) * (h - 1))))

    out = []
    for index, a in enumerate(ax.artists):
        dots = []
        if a.kind == 'bar':
            for x, y in zip(a.xs, a.ys):
                left = to_dot(x - a.width / 2 * 0.9, y)
                right = to_dot(x + a.width / 2 * 0.9, y)
                base = to_dot(x, max(ylo, 0.0) if ax.yscale != 'log' else 10 ** ylo)
                if left is None or right is None or base is None:
                    continue
                for dx in __builtins_range(left[0], right[0] + 1):
                    top, bottom = min(left[1], base[1]), max(left[1], base[1])
                    for dy in __builtins_range(top, bottom + 1):
                        dots.append((dx, dy))
        else:
            prev = None
            for x, y in zip(a.xs, a.ys):
                p = to_dot(x, y)
                if p is not None and a.kind == 'line' and prev is not None:
                    dots.extend(_line(prev, p))
                elif p is not None:
                    dots.append(p)
                prev = p
        out.append((index, [(dx, dy) for dx, dy in dots if 0 <= dx < w and 0 <= dy < h], a))
    return out


def _line(p, q):
    (x0, y0), (x1, y1) = p, q
    n = max(abs(x1 - x0), abs(y1 - y0), 1)
    return [(x0 + (x1 - x0) * i // n if x1 >= x0 else x0 - (x0 - x1) * i // n,
             y0 + (y1 - y0) * i // n if y1 >= y0 else y0 - (y0 - y1) * i // n) for i in __builtins_range(n + 1)]


def _draw_axes(ax, width, color):
    label_w = 9
    cols, rows = width - label_w - 1, max(8, (width - label_w - 1) // 4)
    xlo, xhi, ylo, yhi = _limits(ax)
    series = _segments(ax, xlo, xhi, ylo, yhi, 2 * cols, 4 * rows)
    dots = []
    for index, ds, a in series:
        for dx, dy in ds:
            dots.extend((dx, dy, index))
    text_rows = _term.braille(cols, rows, dots, color)
    lines = []
    if ax.title:
        lines.append(' ' * max(label_w + 1 + (cols - len(ax.title)) // 2, 0) + ax.title)
    top = _tick(10 ** yhi if ax.yscale == 'log' else yhi)
    bottom = _tick(10 ** ylo if ax.yscale == 'log' else ylo)
    for r, text in enumerate(text_rows):
        label = top if r == 0 else bottom if r == rows - 1 else ''
        lines.append(label.rjust(label_w) + ('┤' if label else '│') + text)
    lines.append(' ' * label_w + '└' + '─' * cols)
    left, right = _tick(xlo), _tick(xhi)
    lines.append(' ' * (label_w + 1) + left + ' ' * max(cols - len(left) - len(right), 1) + right)
    if ax.xlabel:
        lines.append(' ' * max(label_w + 1 + (cols - len(ax.xlabel)) // 2, 0) + ax.xlabel)
    if ax.ylabel:
        lines.insert(1 if ax.title else 0, ax.ylabel)
    if ax.show_legend:
        for index, ds, a in series:
            if not a.label.startswith('_'):
                lines.append(' ' * (label_w + 1) + _sample(index, color) + ' ' + a.label)
    return '\n'.join(line.rstrip() for line in lines)


def _sample(index, color):
    return '\x1b[' + _term.color(index) + 'm⠒⠒⠒\x1b[0m' if color else '⠒⠒⠒'


def _cell(up, down, color):
    if not color:  # by brightness
        level = (sum(up) + sum(down if down is not None else up)) / 6
        return ' ░▒▓█'[min(int(level * 5), 4)]
    fg = ';'.join(str(int(round(255 * v))) for v in up)
    if down is None:
        return '\x1b[0m\x1b[38;2;' + fg + 'm▀'
    bg = ';'.join(str(int(round(255 * v))) for v in down)
    return '\x1b[38;2;' + fg + ';48;2;' + bg + 'm▀'


def _draw_image(image, width, title, color):
    # two pixel rows per text row: the upper one the foreground of '▀', the lower its background
    h, w = len(image), len(image[0]) if image else 0
    cols = min(max(w, 32), width)  # nearest pixels: a small image is enlarged
    rows = max(1, int(h * cols / max(w, 1)))
    lines = [title] if title else []
    for r in __builtins_range(0, rows, 2):
        cells = []
        for c in __builtins_range(cols):
            up = image[min(h - 1, r * h // rows)][min(w - 1, c * w // cols)]
            down = image[min(h - 1, (r + 1) * h // rows)][min(w - 1, c * w // cols)] if r + 1 < rows else None
            cells.append(_cell(up, down, color))
        lines.append(''.join(cells) + ('\x1b[0m' if color else ''))
    return '\n'.join(lines)


class Figure:
    def __init__(self, figsize=None, dpi=None):
        self.figsize = tuple(figsize) if figsize is not None else tuple(matplotlib.rcParams['figure.figsize'])
        self.dpi = dpi if dpi is not None else matplotlib.rcParams['figure.dpi']
        self.axes = []
        self.layout = (1, 1)
        self.suptitle_text = ''

    def add_subplot(self, nrows=1, ncols=1, index=1, **kwargs):
        if isinstance(nrows, int) and nrows > 100 and ncols == 1 and index == 1:
            nrows, ncols, index = nrows // 100, nrows // 10 % 10, nrows % 10
        self.layout = (nrows, ncols)
        while len(self.axes) < nrows * ncols:
            self.axes.append(None)
        if self.axes[index - 1] is None:
            self.axes[index - 1] = Axes(self)
        return self.axes[index - 1]

    def gca(self):
        for ax in self.axes:
            if ax is not None:
                return ax
        return self.add_subplot(1, 1, 1)

    def suptitle(self, t, **kwargs):
        self.suptitle_text = str(t)

    def tight_layout(self, **kwargs):
        return None

    def savefig(self, fname, dpi=None, format=None, **kwargs):
        _savefig(self, fname, dpi, format)

    def show(self):
        _show_figure(self)

    def __repr__(self):
        w, h = int(self.figsize[0] * self.dpi), int(self.figsize[1] * self.dpi)
        n = len([a for a in self.axes if a is not None])
        return '<Figure size {0}x{1} with {2} Axes>'.format(w, h, n)


Figure.__module__ = 'matplotlib.figure'

_figures = []
_current = [None]


def figure(num=None, figsize=None, dpi=None, **kwargs):
    fig = Figure(figsize, dpi)
    _figures.append(fig)
    _current[0] = fig
    return fig


def gcf():
    if _current[0] is None:
        figure()
    return _current[0]


def gca():
    fig = gcf()
    if getattr(fig, '_current_axes', None) is not None:
        return fig._current_axes
    return fig.gca()


def subplot(nrows=1, ncols=1, index=1, **kwargs):
    ax = gcf().add_subplot(nrows, ncols, index)
    gcf()._current_axes = ax
    return ax


class _AxesGrid(list):
    # what subplots returns for a grid: indexed [i] or [i, j], iterable, with .flat and .flatten()
    def __init__(self, rows, ncols):
        super().__init__(rows)
        self.ncols = ncols

    def __getitem__(self, key):
        if isinstance(key, tuple):
            return list.__getitem__(self, key[0])[key[1]]
        return list.__getitem__(self, key)

    @property
    def flat(self):
        return [ax for row in self for ax in (row if isinstance(row, list) else [row])]

    def flatten(self):
        return self.flat

    def ravel(self):
        return self.flat


def subplots(nrows=1, ncols=1, figsize=None, dpi=None, sharex=False, sharey=False, squeeze=True, **kwargs):
    fig = figure(figsize=figsize, dpi=dpi)
    axes = [fig.add_subplot(nrows, ncols, i + 1) for i in __builtins_range(nrows * ncols)]
    fig._current_axes = axes[0]
    if squeeze and nrows * ncols == 1:
        return fig, axes[0]
    if squeeze and (nrows == 1 or ncols == 1):
        return fig, _AxesGrid(axes, 1)
    return fig, _AxesGrid([axes[r * ncols:(r + 1) * ncols] for r in __builtins_range(nrows)], ncols)


def _ax_call(name):
    def f(*args, **kwargs):
        return getattr(gca(), name)(*args, **kwargs)
    f.__name__ = name
    return f


plot = _ax_call('plot')
scatter = _ax_call('scatter')
bar = _ax_call('bar')
hist = _ax_call('hist')
imshow = _ax_call('imshow')
legend = _ax_call('legend')
grid = _ax_call('grid')
axis = _ax_call('axis')
text = _ax_call('text')
title = _ax_call('set_title')
xlabel = _ax_call('set_xlabel')
ylabel = _ax_call('set_ylabel')
yscale = _ax_call('set_yscale')
xscale = _ax_call('set_xscale')
xticks = _ax_call('set_xticks')
yticks = _ax_call('set_yticks')
cla = _ax_call('cla')


def xlim(*args, **kwargs):
    return gca().set_xlim(*args, **kwargs) if args or kwargs else gca().xlim


def ylim(*args, **kwargs):
    return gca().set_ylim(*args, **kwargs) if args or kwargs else gca().ylim


def suptitle(t, **kwargs):
    gcf().suptitle(t)


def tight_layout(**kwargs):
    return None


def clf():
    fig = gcf()
    fig.axes = []
    fig._current_axes = None


def close(fig=None):
    if fig == 'all' or (fig is None and _current[0] is None):
        del _figures[:]
        _current[0] = None
        return
    target = _current[0] if fig is None else fig
    if target in _figures:
        _figures.remove(target)
    _current[0] = _figures[-1] if _figures else None


def savefig(fname, dpi=None, format=None, **kwargs):
    gcf().savefig(fname, dpi=dpi, format=format)


def pause(interval):
    return None


def ion():
    return None


def ioff():
    return None


def _to_terminal():
    return os.isatty(1)


def _show_figure(fig):
    if not _to_terminal():
        return
    color = 'NO_COLOR' not in os.environ
    width = 72
    if fig.suptitle_text:
        print(fig.suptitle_text)
    for ax in fig.axes:
        if ax is not None:
            print(ax._draw(width, color))


def show(block=None):
    for fig in list(_figures):
        _show_figure(fig)
    close('all')


# ------------------------------------------------------------------ PNG


def _savefig(fig, fname, dpi, fmt):
    name = str(fname)
    ext = fmt or (name.rsplit('.', 1)[1].lower() if '.' in os.path.basename(name) else 'png')
    if ext not in _SUPPORTED:
        known = _KNOWN if ext not in _KNOWN else _SUPPORTED  # one matplotlib writes, but not nnscope
        raise ValueError("Format '" + ext + "' is not supported (supported formats: " + ', '.join(known) + ")")
    if '.' not in os.path.basename(name) and fmt is None:
        name = name + '.png'
    dpi = fig.dpi if dpi in (None, 'figure') else dpi
    w, h = int(round(fig.figsize[0] * dpi)), int(round(fig.figsize[1] * dpi))
    canvas = _Canvas(w, h)
    nrows, ncols = fig.layout
    for i, ax in enumerate(fig.axes):
        if ax is None:
            continue
        r, c = divmod(i, ncols)
        x0 = int(w * (c + 0.125) / ncols)
        x1 = int(w * (c + 0.9) / ncols)
        y0 = int(h * (r + 0.11) / nrows)
        y1 = int(h * (r + 0.88) / nrows)
        _paint_axes(canvas, ax, x0, y0, x1, y1)
    with open(name, 'wb') as f:
        f.write(canvas.png())


class _Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.pixels = bytearray(b'\xff' * (w * h * 3))

    def put(self, x, y, rgb):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.pixels[i:i + 3] = bytes(rgb)

    def rect(self, x0, y0, x1, y1, rgb):
        x0, x1 = max(0, min(x0, x1)), min(self.w - 1, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h - 1, max(y0, y1))
        row = bytes(rgb) * (x1 - x0 + 1)
        for y in __builtins_range(y0, y1 + 1):
            i = (y * self.w + x0) * 3
            self.pixels[i:i + len(row)] = row

    def png(self):
        raw = bytearray()
        stride = self.w * 3
        for y in __builtins_range(self.h):
            raw += b'\x00'
            raw += self.pixels[y * stride:(y + 1) * stride]

        def chunk(kind, data):
            return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)

        header = struct.pack('>IIBBBBB', self.w, self.h, 8, 2, 0, 0, 0)
        return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(bytes(raw), 6)) +
                chunk(b'IEND', b''))


def _paint_axes(canvas, ax, x0, y0, x1, y1):
    if ax.images:
        image = ax.images[-1]
        ih, iw = len(image), len(image[0])
        scale = min((x1 - x0) / iw, (y1 - y0) / ih)
        ox, oy = x0 + int((x1 - x0 - iw * scale) / 2), y0 + int((y1 - y0 - ih * scale) / 2)
        for r in __builtins_range(ih):
            for c in __builtins_range(iw):
                rgb = tuple(int(round(255 * v)) for v in image[r][c])
                canvas.rect(ox + int(c * scale), oy + int(r * scale), ox + int((c + 1) * scale) - 1,
                            oy + int((r + 1) * scale) - 1, rgb)
        return
    w, h = x1 - x0, y1 - y0
    xlo, xhi, ylo, yhi = _limits(ax)
    if ax.show_grid:
        for k in __builtins_range(1, 5):
            canvas.rect(x0 + w * k // 5, y0, x0 + w * k // 5, y1, (0xb0, 0xb0, 0xb0))
            canvas.rect(x0, y0 + h * k // 5, x1, y0 + h * k // 5, (0xb0, 0xb0, 0xb0))
    for index, dots, a in _segments(ax, xlo, xhi, ylo, yhi, w, h):
        size = 2 if a.kind == 'scatter' else 0 if a.kind == 'bar' else 1
        for dx, dy in dots:
            canvas.rect(x0 + dx - size // 2, y0 + dy - size // 2, x0 + dx + (size + 1) // 2, y0 + dy + (size + 1) // 2,
                        a.color)
    if ax.visible_axis:
        black = (0, 0, 0)
        canvas.rect(x0, y0, x1, y0, black)
        canvas.rect(x0, y1, x1, y1, black)
        canvas.rect(x0, y0, x0, y1, black)
        canvas.rect(x1, y0, x1, y1, black)
