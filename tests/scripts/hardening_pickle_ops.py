# malformed and old-protocol pickles: every opcode CPython 3.11's unpickler knows
# either loads as it does or raises its exception with its message
import pickle


def t(label, f):
    try:
        r = f()
        print(label, 'ok', repr(r)[:60])
    except Exception as e:
        print(label, type(e).__name__, str(e)[:100])


class X:
    def __init__(self, *a):
        self.a = a


t('build on int', lambda: pickle.loads(b'\x80\x02K\x01}b.'))
t('build None state on int', lambda: pickle.loads(b'\x80\x02K\x01Nb.'))
t('build dict on list', lambda: pickle.loads(b'\x80\x02]}(X\x01\x00\x00\x00aK\x01ub.'))
t('build on instance', lambda: pickle.loads(b'\x80\x02c__main__\nX\n)\x81}X\x01\x00\x00\x00bK\x07sb.').b)
t('NEWOBJ int', lambda: pickle.loads(b'\x80\x02K\x01)\x81.'))
t('NEWOBJ_EX int', lambda: pickle.loads(b'\x80\x04K\x01)}\x92.'))
t('EXT1', lambda: pickle.loads(b'\x80\x02\x82\x01.'))
t('EXT2', lambda: pickle.loads(b'\x80\x02\x83\x01\x01.'))
t('EXT4', lambda: pickle.loads(b'\x80\x02\x84\x01\x00\x00\x00.'))
t('EXT1 zero', lambda: pickle.loads(b'\x80\x02\x82\x00.'))
t('INST', lambda: pickle.loads(b'(i__main__\nX\nK\x01K\x02.'))
t('INST args', lambda: pickle.loads(b'(K\x01K\x02i__main__\nX\n.').a)
t('INST no args', lambda: type(pickle.loads(b'(i__main__\nX\n.')).__name__)
t('INST builtins', lambda: pickle.loads(b'(S\'ab\'\nibuiltins\nlist\n.'))
t('OBJ', lambda: pickle.loads(b'\x80\x01(c__main__\nX\nK\x01o.').a)
t('OBJ no mark', lambda: pickle.loads(b'\x80\x01o.'))
t('OBJ empty mark', lambda: pickle.loads(b'\x80\x01(o.'))
t('NEXT_BUFFER', lambda: pickle.loads(b'\x80\x05\x97.'))
t('READONLY_BUFFER', lambda: pickle.loads(b'\x80\x05N\x98.'))
t('INT bad', lambda: pickle.loads(b'Iabc\n.'))
t('INT big', lambda: pickle.loads(b'I123456789012345678901234567890\n.'))
t('INT bools', lambda: pickle.loads(b'(I01\nI00\nt.'))
t('FLOAT bad', lambda: pickle.loads(b'Fabc\n.'))
t('FLOAT ok', lambda: pickle.loads(b'F1.5\n.'))
t('LONG bad', lambda: pickle.loads(b'Labc\n.'))
t('LONG ok', lambda: pickle.loads(b'L12345678901234567890L\n.'))
t('GET bad', lambda: pickle.loads(b'\x80\x02gabc\n.'))
t('PUT bad', lambda: pickle.loads(b'\x80\x02Npabc\n.'))
t('protocol 0 list', lambda: pickle.loads(b'(lp0\nI1\naI2\na.'))
t('protocol 0 dict', lambda: pickle.loads(b'(dp0\nVa\np1\nI1\ns.'))
t('protocol 0 tuple', lambda: pickle.loads(b'(I1\nI2\ntp0\n.'))
for proto in range(6):
    t('dumps/loads protocol %d' % proto, lambda: pickle.loads(pickle.dumps([1, (2, 'x'), {'a': 1.5}, X(1, 2).a], protocol=proto)))
    t('instance protocol %d' % proto, lambda: pickle.loads(pickle.dumps(X(1, 2), protocol=proto)).a)
