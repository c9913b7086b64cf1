# tarfile — CPython 3.11's tar archives as scripts use them: open (modes
# 'r', 'r:*', 'r:', 'r:gz', 'r:bz2', 'r:xz', 'w', 'w:', 'w:gz', 'w:bz2', 'w:xz',
# 'x', 'a' for plain archives; name= or fileobj=), getmembers, getnames,
# getmember, extractfile, extract, extractall (filter='data'/'tar'/
# 'fully_trusted' or a function), add (recursive), addfile, list, iteration,
# with; TarInfo (its fields, isfile/isdir/issym/islnk, frombuf/tobuf);
# is_tarfile. Archives are written as CPython's default PAX format writes
# ASCII names of up to 100 characters (plain ustar headers), read in ustar,
# GNU (long names) and pax (path, linkpath, size) forms. The archive is held
# in memory (a compressed one is decompressed whole).
import io
import os
import stat
import time
import struct

__all__ = ['TarFile', 'TarInfo', 'is_tarfile', 'TarError', 'ReadError', 'CompressionError', 'StreamError',
           'ExtractError', 'HeaderError', 'ENCODING', 'USTAR_FORMAT', 'GNU_FORMAT', 'PAX_FORMAT',
           'DEFAULT_FORMAT', 'open']

NUL = b'\0'
BLOCKSIZE = 512
RECORDSIZE = BLOCKSIZE * 20
GNU_MAGIC = b'ustar  \0'
POSIX_MAGIC = b'ustar\x0000'
LENGTH_NAME = 100
LENGTH_LINK = 100
LENGTH_PREFIX = 155

REGTYPE = b'0'
AREGTYPE = b'\0'
LNKTYPE = b'1'
SYMTYPE = b'2'
CHRTYPE = b'3'
BLKTYPE = b'4'
DIRTYPE = b'5'
FIFOTYPE = b'6'
CONTTYPE = b'7'
GNUTYPE_LONGNAME = b'L'
GNUTYPE_LONGLINK = b'K'
GNUTYPE_SPARSE = b'S'
XHDTYPE = b'x'
XGLTYPE = b'g'
SOLARIS_XHDTYPE = b'X'

USTAR_FORMAT = 0
GNU_FORMAT = 1
PAX_FORMAT = 2
DEFAULT_FORMAT = PAX_FORMAT
ENCODING = 'utf-8'

REGULAR_TYPES = (REGTYPE, AREGTYPE, CONTTYPE, GNUTYPE_SPARSE)


class TarError(Exception):
    """Base exception."""
    pass


class ExtractError(TarError):
    """General exception for extract errors."""
    pass


class ReadError(TarError):
    """Exception for unreadable tar archives."""
    pass


class CompressionError(TarError):
    """Exception for unavailable compression methods."""
    pass


class StreamError(TarError):
    """Exception for unsupported operations on stream-like TarFiles."""
    pass


class HeaderError(TarError):
    """Base exception for header errors."""
    pass


class FilterError(TarError):
    pass


class AbsolutePathError(FilterError):
    def __init__(self, tarinfo):
        self.tarinfo = tarinfo
        super().__init__(f'member {tarinfo.name!r} has an absolute path')


class OutsideDestinationError(FilterError):
    def __init__(self, tarinfo, path):
        self.tarinfo = tarinfo
        self._path = path
        super().__init__(f'{tarinfo.name!r} would be extracted to {path!r}, which is outside the destination')


def nts(s, encoding, errors):
    p = s.find(b'\0')
    if p != -1:
        s = s[:p]
    return s.decode(encoding, errors)


def nti(s):
    if s[0] in (0o200, 0o377):
        n = 0
        for i in range(len(s) - 1):
            n <<= 8
            n += s[i + 1]
        if s[0] == 0o377:
            n = -(256 ** (len(s) - 1) - n)
        return n
    try:
        s = nts(s, 'ascii', 'strict')
        return int(s.strip() or '0', 8)
    except ValueError:
        raise HeaderError('invalid header')


def itn(n, digits=8):
    n = int(n)
    if 0 <= n < 8 ** (digits - 1):
        return bytes('%0*o' % (digits - 1, n), 'ascii') + NUL
    if -256 ** (digits - 1) <= n < 256 ** (digits - 1):
        if n >= 0:
            s = bytearray([0o200])
        else:
            s = bytearray([0o377])
            n = 256 ** digits + n
        out = bytearray()
        for i in range(digits - 1):
            out.insert(0, n & 0o377)
            n >>= 8
        return bytes(s + out)
    raise ValueError('overflow in number field')


def stn(s, length, encoding, errors):
    s = s.encode(encoding, errors)
    return s[:length] + (length - len(s)) * NUL


def calc_chksums(buf):
    unsigned_chksum = 256 + sum(buf[:148]) + sum(buf[156:512])
    return unsigned_chksum


class TarInfo:
    def __init__(self, name=''):
        self.name = name
        self.mode = 0o644
        self.uid = 0
        self.gid = 0
        self.size = 0
        self.mtime = 0
        self.chksum = 0
        self.type = REGTYPE
        self.linkname = ''
        self.uname = ''
        self.gname = ''
        self.devmajor = 0
        self.devminor = 0
        self.offset = 0
        self.offset_data = 0
        self.sparse = None
        self.pax_headers = {}

    @property
    def path(self):
        return self.name

    @path.setter
    def path(self, name):
        self.name = name

    @property
    def linkpath(self):
        return self.linkname

    @linkpath.setter
    def linkpath(self, linkname):
        self.linkname = linkname

    def __repr__(self):
        return '<%s %r at %#x>' % (self.__class__.__name__, self.name, id(self))

    def replace(self, **kwargs):
        import copy
        result = copy.copy(self)
        for k, v in kwargs.items():
            setattr(result, k, v)
        return result

    def get_info(self):
        mode = None if self.mode is None else self.mode & 0o7777
        return {'name': self.name, 'mode': mode, 'uid': self.uid, 'gid': self.gid, 'size': self.size,
                'mtime': self.mtime, 'chksum': self.chksum, 'type': self.type, 'linkname': self.linkname,
                'uname': self.uname, 'gname': self.gname, 'devmajor': self.devmajor, 'devminor': self.devminor}

    def tobuf(self, format=DEFAULT_FORMAT, encoding=ENCODING, errors='surrogateescape'):
        info = self.get_info()
        name = info['name']
        if info['type'] == DIRTYPE and not name.endswith('/'):
            name += '/'
        if format == PAX_FORMAT:
            info['name'] = name
            return self._pax_tobuf(info, encoding)
        blocks = b''
        if len(name.encode(encoding, errors)) > LENGTH_NAME or not name.isascii():
            if format == GNU_FORMAT:
                blocks += self._gnu_long(name, GNUTYPE_LONGNAME, encoding, errors)
            else:
                blocks += self._pax_header({'path': name}, encoding)
            name = name[:LENGTH_NAME] if name.isascii() else name.encode(encoding, errors)[:LENGTH_NAME].decode(
                encoding, 'ignore')
        info['name'] = name
        magic = GNU_MAGIC if format == GNU_FORMAT else POSIX_MAGIC
        return blocks + self._create_header(info, magic, encoding, errors)

    def _pax_tobuf(self, info, encoding):
        # a pax header before the ustar one for what ustar cannot hold: long or
        # non-ASCII names, numbers out of range, float times (CPython's rules)
        pax = dict(self.pax_headers)
        for name, hname, length in (('name', 'path', LENGTH_NAME), ('linkname', 'linkpath', LENGTH_LINK),
                                    ('uname', 'uname', 32), ('gname', 'gname', 32)):
            if hname not in pax and (not info[name].isascii() or len(info[name]) > length):
                pax[hname] = info[name]
        for name, digits in (('uid', 8), ('gid', 8), ('size', 12), ('mtime', 12)):
            val = info[name]
            val_int = round(val) if isinstance(val, float) else val
            needs_pax = True
            if not 0 <= val_int < 8 ** (digits - 1):
                info[name] = 0
            elif isinstance(val, float):
                info[name] = val_int
            else:
                needs_pax = False
            if needs_pax and name not in pax:
                pax[name] = str(val)
        buf = self._pax_header(pax, encoding) if pax else b''
        return buf + self._create_header(info, POSIX_MAGIC, 'ascii', 'replace')

    @staticmethod
    def _create_header(info, magic, encoding, errors):
        parts = [
            stn(info.get('name', ''), 100, encoding, errors),
            itn(info.get('mode', 0) & 0o7777, 8),
            itn(info.get('uid', 0), 8),
            itn(info.get('gid', 0), 8),
            itn(info.get('size', 0), 12),
            itn(info.get('mtime', 0), 12),
            b'        ',
            info.get('type', REGTYPE),
            stn(info.get('linkname', ''), 100, encoding, errors),
            magic,
            stn(info.get('uname', ''), 32, encoding, errors),
            stn(info.get('gname', ''), 32, encoding, errors),
            # device numbers only for device files, as CPython 3.11 (empty fields otherwise)
            itn(info.get('devmajor', 0), 8) if info.get('type') in (CHRTYPE, BLKTYPE) else stn('', 8, encoding, errors),
            itn(info.get('devminor', 0), 8) if info.get('type') in (CHRTYPE, BLKTYPE) else stn('', 8, encoding, errors),
            stn(info.get('prefix', ''), 155, encoding, errors),
        ]
        buf = struct.pack('%ds' % BLOCKSIZE, b''.join(parts))
        chksum = calc_chksums(buf[-BLOCKSIZE:])
        buf = buf[:-364] + bytes('%06o\0' % chksum, 'ascii') + buf[-357:]
        return buf

    def _gnu_long(self, name, type, encoding, errors):
        name = name.encode(encoding, errors) + NUL
        info = {'name': '././@LongLink', 'type': type, 'size': len(name)}
        return self._create_header(info, GNU_MAGIC, encoding, errors) + name + \
            NUL * ((BLOCKSIZE - len(name) % BLOCKSIZE) % BLOCKSIZE)

    def _pax_header(self, pax_headers, encoding):
        records = b''
        for keyword, value in pax_headers.items():
            keyword = keyword.encode('utf-8')
            value = value.encode('utf-8')
            l = len(keyword) + len(value) + 3
            n = p = 0
            while True:
                n = l + len(str(p))
                if n == p:
                    break
                p = n
            records += bytes(str(p), 'ascii') + b' ' + keyword + b'=' + value + b'\n'
        info = {'name': '././@PaxHeader', 'type': XHDTYPE, 'size': len(records)}
        return self._create_header(info, POSIX_MAGIC, 'ascii', 'replace') + records + \
            NUL * ((BLOCKSIZE - len(records) % BLOCKSIZE) % BLOCKSIZE)

    @classmethod
    def frombuf(cls, buf, encoding, errors):
        if len(buf) == 0:
            raise HeaderError('empty header')
        if len(buf) != BLOCKSIZE:
            raise HeaderError('truncated header')
        if buf.count(NUL) == BLOCKSIZE:
            raise HeaderError('end of file header')
        chksum = nti(buf[148:156])
        if chksum != calc_chksums(buf):
            raise HeaderError('bad checksum')
        obj = cls()
        obj.name = nts(buf[0:100], encoding, errors)
        obj.mode = nti(buf[100:108])
        obj.uid = nti(buf[108:116])
        obj.gid = nti(buf[116:124])
        obj.size = nti(buf[124:136])
        obj.mtime = nti(buf[136:148])
        obj.chksum = chksum
        obj.type = buf[156:157]
        obj.linkname = nts(buf[157:257], encoding, errors)
        obj.uname = nts(buf[265:297], encoding, errors)
        obj.gname = nts(buf[297:329], encoding, errors)
        obj.devmajor = nti(buf[329:337])
        obj.devminor = nti(buf[337:345])
        prefix = nts(buf[345:500], encoding, errors)
        if obj.type == AREGTYPE and obj.name.endswith('/'):
            obj.type = DIRTYPE
        if prefix and buf[257:265] == POSIX_MAGIC:
            obj.name = prefix + '/' + obj.name
        if obj.type == DIRTYPE:
            obj.name = obj.name.rstrip('/')
        return obj

    def isreg(self):
        return self.type in REGULAR_TYPES

    def isfile(self):
        return self.isreg()

    def isdir(self):
        return self.type == DIRTYPE

    def issym(self):
        return self.type == SYMTYPE

    def islnk(self):
        return self.type == LNKTYPE

    def ischr(self):
        return self.type == CHRTYPE

    def isblk(self):
        return self.type == BLKTYPE

    def isfifo(self):
        return self.type == FIFOTYPE

    def issparse(self):
        return self.sparse is not None

    def isdev(self):
        return self.type in (CHRTYPE, BLKTYPE, FIFOTYPE)


def _decompress(data, comptype):
    if comptype == 'gz':
        import gzip
        try:
            return gzip.decompress(data)
        except Exception:
            raise ReadError('not a gzip file')
    if comptype == 'bz2':
        import bz2
        try:
            return bz2.decompress(data)
        except Exception:
            raise ReadError('not a bzip2 file')
    if comptype == 'xz':
        import lzma
        try:
            return lzma.decompress(data)
        except Exception:
            raise ReadError('not an lzma file')
    return data


def _compress(data, comptype, compresslevel, preset, name):
    if comptype == 'gz':
        # a GzipFile as CPython's gzopen: the header names the archive (less .gz)
        import gzip
        out = io.BytesIO()
        with gzip.GzipFile(name or '', 'wb', compresslevel, out) as f:
            f.write(data)
        return out.getvalue()
    if comptype == 'bz2':
        import bz2
        return bz2.compress(data, compresslevel)
    if comptype == 'xz':
        import lzma
        return lzma.compress(data, preset=preset)
    return data


def _sniff(data):
    if data[:2] == b'\x1f\x8b':
        return 'gz'
    if data[:3] == b'BZh':
        return 'bz2'
    if data[:6] == b'\xfd7zXZ\x00' or data[:1] == b'\x5d':
        return 'xz'
    return 'tar'


class _FileInTar(io.BytesIO):
    def __init__(self, data, name):
        super().__init__(data)
        self.name = name


def _data_filter(member, dest_path):
    name = member.name
    if name.startswith(('/', os.sep)):
        name = member.name.lstrip('/' + os.sep)
    if os.path.isabs(name):
        raise AbsolutePathError(member)
    dest_path = os.path.realpath(dest_path)
    target = os.path.realpath(os.path.join(dest_path, name))
    if os.path.commonpath([target, dest_path]) != dest_path:
        raise OutsideDestinationError(member, target)
    if name != member.name:
        return member.replace(name=name)
    return member


def fully_trusted_filter(member, dest_path):
    return member


def tar_filter(member, dest_path):
    return _data_filter(member, dest_path)


def data_filter(member, dest_path):
    return _data_filter(member, dest_path)


_NAMED_FILTERS = {'fully_trusted': fully_trusted_filter, 'tar': tar_filter, 'data': data_filter}


class TarFile:
    debug = 0
    dereference = False
    ignore_zeros = False
    errorlevel = 1
    format = DEFAULT_FORMAT
    encoding = ENCODING
    errors = None
    tarinfo = TarInfo
    fileobject = _FileInTar
    extraction_filter = None

    def __init__(self, name=None, mode='r', fileobj=None, format=None, tarinfo=None, dereference=None,
                 ignore_zeros=None, encoding=None, errors='surrogateescape', pax_headers=None, debug=None,
                 errorlevel=None, copybufsize=None):
        modes = {'r': 'rb', 'a': 'r+b', 'w': 'wb', 'x': 'xb'}
        if mode not in modes:
            raise ValueError("mode must be 'r', 'a', 'w' or 'x'")
        self.mode = mode
        self._comptype = getattr(self, '_comptype', 'tar')
        self._compresslevel = getattr(self, '_compresslevel', 9)
        self._preset = getattr(self, '_preset', None)
        if fileobj is None:
            if mode == 'x' and os.path.exists(name):
                raise FileExistsError(17, 'File exists', name)
            if mode == 'r':
                fileobj = _builtin_open(name, 'rb')
            elif mode == 'a':
                fileobj = None
            self._own = True
        else:
            if name is None and hasattr(fileobj, 'name') and isinstance(fileobj.name, (str, bytes)):
                name = fileobj.name
            self._own = False
        self.name = os.path.abspath(name) if name else None
        self.fileobj = fileobj
        if format is not None:
            self.format = format
        if encoding is not None:
            self.encoding = encoding
        self.errors = errors
        if dereference is not None:
            self.dereference = dereference
        if ignore_zeros is not None:
            self.ignore_zeros = ignore_zeros
        self.closed = False
        self.members = []
        self._data = b''
        self._out = []
        if mode == 'r':
            self._data = _decompress(fileobj.read(), self._comptype)
            self._load()
        elif mode == 'a':
            if os.path.exists(name):
                with _builtin_open(name, 'rb') as f:
                    self._data = f.read()
                self._load()
                self._out = [self._data[:self._end]]

    def _load(self):
        pos = 0
        data = self._data
        long_name = long_link = None
        pax = {}
        self._end = 0
        while pos + BLOCKSIZE <= len(data):
            buf = data[pos:pos + BLOCKSIZE]
            try:
                info = self.tarinfo.frombuf(buf, self.encoding, self.errors)
            except HeaderError as e:
                if str(e) == 'end of file header':
                    if self.ignore_zeros:
                        pos += BLOCKSIZE
                        continue
                    break
                if pos == 0:
                    raise ReadError(str(e))
                break
            info.offset = pos
            info.offset_data = pos + BLOCKSIZE
            size_blocks = (info.size + BLOCKSIZE - 1) // BLOCKSIZE * BLOCKSIZE
            body = data[info.offset_data:info.offset_data + info.size]
            pos = info.offset_data + size_blocks
            if info.type == GNUTYPE_LONGNAME:
                long_name = nts(body, self.encoding, self.errors)
                continue
            if info.type == GNUTYPE_LONGLINK:
                long_link = nts(body, self.encoding, self.errors)
                continue
            if info.type in (XHDTYPE, SOLARIS_XHDTYPE, XGLTYPE):
                pax = self._parse_pax(body)
                continue
            if long_name is not None:
                info.name = long_name.rstrip('/') if info.type == DIRTYPE else long_name
            if long_link is not None:
                info.linkname = long_link
            if pax:
                info.pax_headers = dict(pax)
                if 'path' in pax:
                    info.name = pax['path'].rstrip('/') if info.isdir() else pax['path']
                if 'linkpath' in pax:
                    info.linkname = pax['linkpath']
                if 'size' in pax:
                    info.size = int(pax['size'])
                if 'mtime' in pax:
                    info.mtime = float(pax['mtime'])
            long_name = long_link = None
            pax = {}
            self.members.append(info)
            self._end = pos
        if not self.members and pos == 0 and self.mode == 'r' and len(data) and data.count(NUL) != len(data):
            raise ReadError('empty file')

    @staticmethod
    def _parse_pax(body):
        out = {}
        pos = 0
        while pos < len(body):
            sp = body.find(b' ', pos)
            if sp < 0:
                break
            length = int(body[pos:sp].decode('ascii'))
            if length <= 0:
                break
            rec = body[sp + 1:pos + length - 1]
            k, _, v = rec.partition(b'=')
            out[k.decode('utf-8')] = v.decode('utf-8', 'surrogateescape')
            pos += length
        return out

    @classmethod
    def open(cls, name=None, mode='r', fileobj=None, bufsize=RECORDSIZE, **kwargs):
        if not name and not fileobj:
            raise ValueError('nothing to open')
        if '|' in mode:
            filemode, comptype = mode.split('|', 1)
            if (filemode or 'r') not in ('r', 'w'):
                raise ValueError("mode must be 'r' or 'w'")
        elif ':' in mode:
            filemode, comptype = mode.split(':', 1)
        elif mode in ('r', 'a', 'w', 'x'):
            filemode, comptype = mode, '*' if mode == 'r' else 'tar'
        else:
            raise ValueError('undiscernible mode')
        filemode = filemode or 'r'
        comptype = comptype or 'tar'
        if comptype not in ('*', 'tar', 'gz', 'bz2', 'xz'):
            raise CompressionError('unknown compression type %r' % comptype)
        if filemode not in ('r', 'w', 'x', 'a'):
            raise ValueError('mode must be \'r\', \'a\', \'w\' or \'x\'')
        if filemode == 'a' and comptype != 'tar':
            raise ValueError("mode must be 'r', 'w' or 'x'")
        if filemode == 'r' and comptype == '*':
            if fileobj is None:
                with _builtin_open(name, 'rb') as f:
                    head = f.read()
            else:
                at = fileobj.tell() if hasattr(fileobj, 'tell') else 0
                head = fileobj.read()
                fileobj.seek(at)
            comptype = _sniff(head)
            if comptype == 'tar' and head and len(head) < BLOCKSIZE:
                raise ReadError('file could not be opened successfully:\n- method tar: ReadError(\'truncated '
                                'header\')\n- method gz: ReadError(\'not a gzip file\')\n- method bz2: '
                                'CompressionError(\'bz2 module is not available\')\n- method xz: '
                                'ReadError(\'not an lzma file\')')
        obj = cls.__new__(cls)
        obj._comptype = comptype
        obj._compresslevel = kwargs.pop('compresslevel', 9)
        obj._preset = kwargs.pop('preset', None)
        obj.__init__(name, filemode, fileobj, **kwargs)
        return obj

    @classmethod
    def taropen(cls, name, mode='r', fileobj=None, **kwargs):
        return cls.open(name, mode + ':', fileobj, **kwargs)

    def _check(self, mode=None):
        if self.closed:
            raise OSError('%s is closed' % self.__class__.__name__)
        if mode is not None and self.mode not in mode:
            raise OSError('bad operation for mode %r' % self.mode)

    def getmember(self, name):
        for m in reversed(self.members):
            if m.name == name.rstrip('/'):
                return m
        raise KeyError('filename %r not found' % name)

    def getmembers(self):
        self._check()
        return list(self.members)

    def getnames(self):
        return [m.name for m in self.getmembers()]

    def __iter__(self):
        return iter(self.getmembers())

    def next(self):
        self._check('ra')
        i = getattr(self, '_next', 0)
        if i >= len(self.members):
            return None
        self._next = i + 1
        return self.members[i]

    def list(self, verbose=True, *, members=None):
        # each field followed by a space, as CPython's (whose mode column shows
        # '?' for the type: a member's mode holds the permission bits only)
        self._check()
        for tarinfo in (self.getmembers() if members is None else members):
            if verbose:
                print('??????????' if tarinfo.mode is None else stat.filemode(tarinfo.mode), end=' ')
                print('%s/%s' % (tarinfo.uname or tarinfo.uid, tarinfo.gname or tarinfo.gid), end=' ')
                if tarinfo.ischr() or tarinfo.isblk():
                    print('%10s' % ('%d,%d' % (tarinfo.devmajor, tarinfo.devminor)), end=' ')
                else:
                    print('%10d' % tarinfo.size, end=' ')
                print('%d-%02d-%02d %02d:%02d:%02d' % time.localtime(tarinfo.mtime)[:6], end=' ')
            print(tarinfo.name + ('/' if tarinfo.isdir() else ''), end=' ')
            if verbose:
                if tarinfo.issym():
                    print('-> ' + tarinfo.linkname, end=' ')
                if tarinfo.islnk():
                    print('link to ' + tarinfo.linkname, end=' ')
            print()

    def extractfile(self, member):
        self._check('r')
        if isinstance(member, str):
            member = self.getmember(member)
        if member.isreg():
            data = self._data[member.offset_data:member.offset_data + member.size]
            return self.fileobject(data, self.name if self.name is not None else member.name)
        if member.islnk() or member.issym():
            return self.extractfile(self.getmember(member.linkname))
        return None

    def _resolve_filter(self, filter):
        if filter is None:
            filter = self.extraction_filter
        if filter is None:
            return fully_trusted_filter
        if isinstance(filter, str):
            if filter not in _NAMED_FILTERS:
                raise ValueError(f'filter {filter!r} not found')
            return _NAMED_FILTERS[filter]
        return filter

    def extractall(self, path='.', members=None, *, numeric_owner=False, filter=None):
        f = self._resolve_filter(filter)
        dirs = []
        for member in (members if members is not None else self.getmembers()):
            m = f(member, path)
            if m is None:
                continue
            if m.isdir():
                dirs.append(m)
            self._extract_member(m, path)
        for d in sorted(dirs, key=lambda a: a.name, reverse=True):
            try:
                os.chmod(os.path.join(path, d.name), d.mode)
            except OSError:
                pass

    def extract(self, member, path='', set_attrs=True, *, numeric_owner=False, filter=None):
        if isinstance(member, str):
            member = self.getmember(member)
        m = self._resolve_filter(filter)(member, path)
        if m is not None:
            self._extract_member(m, path, set_attrs)

    def _extract_member(self, tarinfo, path, set_attrs=True):
        target = os.path.join(path, tarinfo.name)
        parent = os.path.dirname(target)
        if parent and not os.path.exists(parent):
            os.makedirs(parent)
        if tarinfo.isdir():
            if not os.path.exists(target):
                os.mkdir(target, 0o700)
            return
        if tarinfo.issym():
            if os.path.lexists(target) if hasattr(os.path, 'lexists') else os.path.exists(target):
                os.remove(target)
            os.symlink(tarinfo.linkname, target)
            return
        if tarinfo.islnk():
            src = self.getmember(tarinfo.linkname)
            data = self._data[src.offset_data:src.offset_data + src.size]
        else:
            data = self._data[tarinfo.offset_data:tarinfo.offset_data + tarinfo.size]
        with _builtin_open(target, 'wb') as f:
            f.write(data)
        if set_attrs:
            try:
                os.chmod(target, tarinfo.mode)
                os.utime(target, (tarinfo.mtime, tarinfo.mtime))
            except OSError:
                pass

    def gettarinfo(self, name=None, arcname=None, fileobj=None):
        if fileobj is not None:
            name = fileobj.name
        if arcname is None:
            arcname = name
        arcname = arcname.replace(os.sep, '/').lstrip('/')
        st = os.lstat(name)
        info = self.tarinfo(arcname)
        info.mode = st.st_mode & 0o7777
        info.uid = st.st_uid
        info.gid = st.st_gid
        info.mtime = st.st_mtime
        if stat.S_ISREG(st.st_mode):
            info.type = REGTYPE
            info.size = st.st_size
        elif stat.S_ISDIR(st.st_mode):
            info.type = DIRTYPE
        elif stat.S_ISLNK(st.st_mode):
            info.type = SYMTYPE
            info.linkname = os.readlink(name)
        else:
            return None
        try:
            import pwd
            info.uname = pwd.getpwuid(info.uid)[0]
        except Exception:
            info.uname = 'root' if info.uid == 0 else ''
        try:
            import grp
            info.gname = grp.getgrgid(info.gid)[0]
        except Exception:
            info.gname = 'root' if info.gid == 0 else ''
        return info

    def add(self, name, arcname=None, recursive=True, *, filter=None):
        self._check('awx')
        if arcname is None:
            arcname = name
        info = self.gettarinfo(name, arcname)
        if info is None:
            return
        if filter is not None:
            info = filter(info)
            if info is None:
                return
        if info.isreg():
            with _builtin_open(name, 'rb') as f:
                self.addfile(info, f)
        elif info.isdir():
            self.addfile(info)
            if recursive:
                for f in sorted(os.listdir(name)):
                    self.add(os.path.join(name, f), os.path.join(arcname, f), recursive, filter=filter)
        else:
            self.addfile(info)

    def addfile(self, tarinfo, fileobj=None):
        self._check('awx')
        import copy
        tarinfo = copy.copy(tarinfo)
        buf = tarinfo.tobuf(self.format, self.encoding, self.errors)
        self._out.append(buf)
        if fileobj is not None:
            data = fileobj.read(tarinfo.size)
            if len(data) < tarinfo.size:
                raise OSError('unexpected end of data')
            self._out.append(data)
            blocks, remainder = divmod(tarinfo.size, BLOCKSIZE)
            if remainder > 0:
                self._out.append(NUL * (BLOCKSIZE - remainder))
        self.members.append(tarinfo)

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.mode in ('a', 'w', 'x'):
            data = b''.join(self._out) + NUL * (BLOCKSIZE * 2)
            blocks, remainder = divmod(len(data), RECORDSIZE)
            if remainder > 0:
                data += NUL * (RECORDSIZE - remainder)
            data = _compress(data, self._comptype, self._compresslevel, self._preset, self.name)
            if self.fileobj is None or (self._own and self.mode != 'r'):
                with _builtin_open(self.name, 'wb') as f:
                    f.write(data)
            else:
                self.fileobj.write(data)
        if self._own and self.fileobj is not None:
            self.fileobj.close()

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, type, value, traceback):
        self.close()

    def __repr__(self):
        return '<tarfile.TarFile object at %#x>' % id(self)


_builtin_open = open


def is_tarfile(name):
    try:
        if hasattr(name, 'read'):
            pos = name.tell()
            t = open(fileobj=name)
            name.seek(pos)
        else:
            t = open(name)
        t.close()
        return True
    except TarError:
        return False


open = TarFile.open
