# Crafted .npy, .npz and checkpoint files (issue 22): np.load and torch.load raise
# the exception NumPy 1.24 and PyTorch 1.13 raise, with their messages.
import os
import struct
import tempfile

import numpy as np
import torch

d = tempfile.mkdtemp()


def path(name, data):
    p = os.path.join(d, name)
    with open(p, 'wb') as f:
        f.write(data)
    return p


def npy(name, shape, data=b'', descr='<f4', version=b'\x01\x00'):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    hdr = hdr + ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
    return path(name, b'\x93NUMPY' + version + struct.pack('<H', len(hdr)) + hdr.encode() + data)


def t(label, f):
    try:
        r = f()
        print(label, 'ok', tuple(r.shape) if hasattr(r, 'shape') else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).replace(d, 'DIR'))


t('2**62 x 2**62', lambda: np.load(npy('a.npy', '(4611686018427387904, 4611686018427387904)', b'\0' * 8)))
t('wraps negative', lambda: np.load(npy('b.npy', '(4611686018427387904, 3)', b'\0' * 8)))
t('bytes overflow', lambda: np.load(npy('c.npy', '(2305843009213693952,)', b'\0' * 8)))
t('truncated', lambda: np.load(npy('d.npy', '(10,)', b'\0' * 12)))
t('4 TB', lambda: np.load(npy('e.npy', '(1000000000000,)', b'\0' * 12)))
t('10**12 doubles', lambda: np.load(npy('e2.npy', '(1000000000000,)', b'\0' * 12, '<f8')))
t('exact', lambda: np.load(npy('f.npy', '(3, 2)', b'\0' * 24)))
t('extra data', lambda: np.load(npy('g.npy', '(2, 3)', b'\0' * 40)))
t('-1', lambda: np.load(npy('h.npy', '(-1,)', b'\0' * 40)))
t('-1 and 2', lambda: np.load(npy('h2.npy', '(-1, 2)', b'\0' * 40)))
t('-1 and 3', lambda: np.load(npy('h3.npy', '(-1, 3)', b'\0' * 40)))
t('3 and -1', lambda: np.load(npy('h4.npy', '(3, -1)', b'\0' * 40)))
t('past int64', lambda: np.load(npy('i.npy', '(99999999999999999999,)', b'\0' * 40)))
t('0 x 2**62', lambda: np.load(npy('j.npy', '(0, 4611686018427387904)')))
t('0 x 5', lambda: np.load(npy('k.npy', '(0, 5)')))
t('scalar', lambda: np.load(npy('l.npy', '()', b'\0' * 4)))
t('version 4', lambda: np.load(npy('m.npy', '(1,)', b'\0' * 4, version=b'\x04\x00')))
t('header cut', lambda: np.load(path('n.npy', b'\x93NUMPY\x01\x00\x76\x00{}')))
t('empty', lambda: np.load(path('o.npy', b'')))
t('text', lambda: np.load(path('p.npy', b'hello world')))
t('junk zip', lambda: np.load(path('q.npz', b'PK\x03\x04junkjunkjunk')))
t('empty zip prefix', lambda: np.load(path('r.npz', b'PK\x05\x06')))
t('bad encoding', lambda: np.load(path('s.npy', b''), encoding='utf-8'))
t('pickle allowed, junk', lambda: np.load(path('u.npy', b'\x80\x04\xff.'), allow_pickle=True))
t('pickle allowed', lambda: np.load(path('v.npy', b'\x80\x04K\x07.'), allow_pickle=True))
try:
    np.load(path('w.npy', b'xyz'), allow_pickle=True)
except Exception as e:
    print('cause', type(e.__cause__).__name__)
t('torch empty', lambda: torch.load(path('x.pt', b'')))
t('torch empty stream', lambda: torch.load(open(path('y.pt', b''), 'rb')))
