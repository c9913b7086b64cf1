# platform, written in the language over _host (repl/mod_host.c): the machine,
# the kernel and the interpreter as CPython 3.11's platform module reports them
# on Linux.

import collections
import sys
import _host

_uname_result = collections.namedtuple('uname_result', ['system', 'node', 'release', 'version', 'machine'])


class uname_result(_uname_result):
    @property
    def processor(self):
        return processor()

    def __iter__(self):
        return iter(tuple(_uname_result.__iter__(self)) + (self.processor,))

    def __len__(self):
        return 6

    def __getitem__(self, key):
        return tuple(self)[key]


_uname_cache = None


def uname():
    global _uname_cache
    if _uname_cache is None:
        _uname_cache = uname_result(*_host.uname())
    return _uname_cache


def system():
    return uname().system


def node():
    return uname().node


def release():
    return uname().release


def version():
    return uname().version


def machine():
    return uname().machine


def processor():
    # CPython asks `uname -p`, which Linux answers 'unknown': ''
    return ''


def architecture(executable=sys.executable, bits='', linkage=''):
    return ('64bit', 'ELF')


def libc_ver(executable=None, lib='', version='', chunksize=16384):
    return ('glibc', _host.libc_version())


def python_implementation():
    return 'CPython'


def python_version_tuple():
    return tuple(str(x) for x in sys.version_info[:3])


def python_version():
    return '.'.join(python_version_tuple())


def python_branch():
    return ''


def python_revision():
    return ''


def python_compiler():
    return 'GCC'


def python_build():
    return ('main', '')


def _platform(*args):
    platform = '-'.join(x.strip() for x in filter(len, args))
    for old, new in (' ', '_'), ('/', '-'), (':', '-'), (';', '-'), ('"', '-'), ('(', '-'), (')', '-'):
        platform = platform.replace(old, new)
    platform = platform.replace('unknown', '')
    while True:
        cleaned = platform.replace('--', '-')
        if cleaned == platform:
            break
        platform = cleaned
    while platform[-1] == '-':
        platform = platform[:-1]
    return platform


def platform(aliased=False, terse=False):
    u = uname()
    lib, ver = libc_ver()
    return _platform(u.system, u.release, u.machine, processor(), 'with', lib + ver)


def freedesktop_os_release():
    info = {'NAME': 'Linux', 'ID': 'linux', 'PRETTY_NAME': 'Linux'}
    for path in ('/etc/os-release', '/usr/lib/os-release'):
        try:
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if '=' in line and not line.startswith('#'):
                        k, _, v = line.partition('=')
                        if len(v) >= 2 and v[0] == v[-1] and v[0] in '"\'':
                            v = v[1:-1]
                        info[k] = v
            return info
        except OSError:
            pass
    raise OSError(2, 'No such file or directory', '/etc/os-release')
