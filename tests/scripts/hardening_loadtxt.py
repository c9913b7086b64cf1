# np.loadtxt / np.savetxt on bad text files (issue 22): NumPy 1.24's exceptions and
# messages; a long line is read whole (str.split() of more than 4096 fields kept
# them all).
import os
import numpy as np


def t(label, f):
    try:
        r = f()
        print(label, 'ok', repr(r)[:100].replace('\n', ' '))
    except Exception as e:
        print(label, type(e).__name__, str(e)[:150].replace('\n', ' '))


def w(data):
    with open('hardening_loadtxt.tmp', 'wb') as f:
        f.write(data)
    return 'hardening_loadtxt.tmp'


print(len(' '.join(['1'] * 100000).split()), len(' '.join(['1'] * 5000).rsplit(None, 4500)))
print(repr('3 \x00\n'.replace('\r\n', '\n')), repr('a\x00'.center(6, '-')), repr('a\x00'.ljust(4)),
      repr('a\x00'.rjust(4)), repr('\x00'.zfill(3)), repr('x'.replace('x', 'a\x00b')), repr('ab'.replace('', '\x00')))
t('long line', lambda: np.loadtxt(w(b' '.join([b'1'] * 100000) + b'\n')).shape)
t('ragged', lambda: np.loadtxt(w(b'1 2 3\n4 5\n')))
t('ragged after comment', lambda: np.loadtxt(w(b'# c\n1 2\n3 4\n5 6 7\n')))
t('words', lambda: np.loadtxt(w(b'1 2\nx y\n')))
t('word in row 3', lambda: np.loadtxt(w(b'1 2\n3 4\n5 x\n')))
t('word after blank', lambda: np.loadtxt(w(b'1 2\n\n3 z\n')))
t('word after skiprows', lambda: np.loadtxt(w(b'1 2\n3 y\n'), skiprows=1))
t('word as int', lambda: np.loadtxt(w(b'1 2\n3 q\n'), dtype=int))
t('nul', lambda: np.loadtxt(w(b'1 2\n3 \x00\n')))
t('huge number', lambda: np.loadtxt(w(b'1e999 -1e999\n')))
t('nan inf', lambda: np.loadtxt(w(b'nan inf\n-inf NaN\n')))
t('usecols past', lambda: np.loadtxt(w(b'1 2\n'), usecols=(5,)))
t('usecols negative', lambda: np.loadtxt(w(b'1 2\n3 4\n'), usecols=(-5,)))
t('usecols ok', lambda: np.loadtxt(w(b'1 2\n3 4\n'), usecols=(-1,)))
t('empty field', lambda: np.loadtxt(w(b'1,2\n3,,4\n'), delimiter=','))
t('crlf', lambda: np.loadtxt(w(b'1 2\r\n3 4\r\n')))
t('cr only', lambda: np.loadtxt(w(b'1 2\r3 4\r')))
t('missing', lambda: np.loadtxt('no_such_file.txt'))
t('savetxt 3d', lambda: np.savetxt('hardening_loadtxt.tmp', np.zeros((2, 2, 2))))
t('savetxt 0d', lambda: np.savetxt('hardening_loadtxt.tmp', np.float64(3)))
t('savetxt fmt list', lambda: np.savetxt('hardening_loadtxt.tmp', np.zeros((2, 2)), fmt=['%d']))
t('savetxt fmt count', lambda: np.savetxt('hardening_loadtxt.tmp', np.zeros((2, 2)), fmt='%d %d %d'))
t('savetxt then load', lambda: (np.savetxt('hardening_loadtxt.tmp', np.arange(6.0).reshape(2, 3)),
                                np.loadtxt('hardening_loadtxt.tmp'))[1])
os.remove('hardening_loadtxt.tmp')
