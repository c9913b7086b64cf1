# matplotlib as scripts use it, drawn by nnscope: matplotlib.use(...) (any backend name; the
# drawing goes to the terminal when stdout is one, as an interactive backend would, and nowhere
# otherwise, as the Agg backend), rcParams, and matplotlib.pyplot (repl/lib/matplotlib.pyplot.py).
__version__ = '3.6.3'
_backend = ['agg']
rcParams = {'figure.figsize': [6.4, 4.8], 'figure.dpi': 100.0, 'savefig.dpi': 'figure', 'font.size': 10.0,
            'lines.linewidth': 1.5, 'axes.grid': False, 'image.cmap': 'viridis', 'backend': 'agg'}


def use(backend, force=True):
    _backend[0] = backend.lower()
    rcParams['backend'] = backend


def get_backend():
    return _backend[0]


def is_interactive():
    return False
