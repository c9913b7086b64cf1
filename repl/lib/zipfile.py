# zipfile, written in the language: the exceptions, is_zipfile, and a ZipFile that
# reads archives (stored or deflated members, zip64 sizes in the central directory)
# and writes them (ZIP_STORED, ZIP_DEFLATED through zlib's raw deflate, as CPython's),
# which np.savez and np.load's .npz use. No encryption, comments, appending or
# zip64 archives of more than 65535 members.
import struct
import zlib

class BadZipFile(Exception):
    pass


class LargeZipFile(Exception):
    pass


error = BadZipfile = BadZipFile

_END = b'PK\x05\x06'  # the end of central directory record, 22 bytes and a comment


def _has_end_record(data):
    # CPython's _EndRecData: the record at the very end, else within the last 64 KiB
    if len(data) < 22:
        return False
    if data[-22:-18] == _END and data[-2:] == b'\x00\x00':
        return True
    data = data[-(65535 + 22):]
    at = data.rfind(_END)
    if at < 0 or len(data) - at < 22:
        return False
    comment = int.from_bytes(data[at + 20:at + 22], 'little')
    return len(data) - at - 22 >= comment


def is_zipfile(filename):
    try:
        if hasattr(filename, 'read'):
            return _has_end_record(filename.read())
        with open(filename, 'rb') as f:
            return _has_end_record(f.read())
    except OSError:
        return False


ZIP_STORED = 0
ZIP_DEFLATED = 8
_LOCAL = b'PK\x03\x04'
_CENTRAL = b'PK\x01\x02'
_LOCAL_FMT = '<4s2B4HL2L2H'  # 30 bytes
_CENTRAL_FMT = '<4s4B4HL2L5H2L'  # 46 bytes
_END_FMT = '<4s4H2LH'  # 22 bytes
_FFFF = 0xFFFFFFFF


class ZipInfo:
    def __init__(self, filename='NoName', date_time=(1980, 1, 1, 0, 0, 0)):
        self.filename = filename
        self.date_time = date_time
        self.compress_type = ZIP_STORED
        self.file_size = self.compress_size = self.CRC = self.header_offset = 0
        self.external_attr = 0o600 << 16

    def is_dir(self):
        return self.filename.endswith('/')

    def __repr__(self):
        return '<ZipInfo filename=' + repr(self.filename) + ' file_size=' + str(self.file_size) + '>'


def _dos_time(dt):
    return ((dt[0] - 1980) << 9 | dt[1] << 5 | dt[2]), (dt[3] << 11 | dt[4] << 5 | dt[5] // 2)


def _end_record(data):
    at = data.rfind(_END, max(0, len(data) - 65535 - 22))
    if at < 0 or len(data) - at < 22:
        raise BadZipFile('File is not a zip file')
    return struct.unpack(_END_FMT, data[at:at + 22])



def _zip64_fields(extra, want):
    # the 8-byte values of the zip64 extra field (id 1), for the fields that are 0xFFFFFFFF
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack('<2H', extra[i:i + 4])
        if tag == 1:
            return list(struct.unpack('<' + 'Q' * (size // 8), extra[i + 4:i + 4 + size // 8 * 8]))[:want]
        i += 4 + size
    raise BadZipFile('Corrupt extra field 0001 (size=0)')


class ZipFile:
    def __init__(self, file, mode='r', compression=ZIP_STORED, allowZip64=True, compresslevel=None):
        if mode not in ('r', 'w'):
            raise ValueError("ZipFile requires mode 'r', 'w'")
        if compression not in (ZIP_STORED, ZIP_DEFLATED):
            raise NotImplementedError('That compression method is not supported')
        self.mode = mode
        self.compression = compression
        self.compresslevel = compresslevel
        self.filename = file if isinstance(file, str) else getattr(file, 'name', None)
        self._file = file
        self._infos = []
        self._out = bytearray()
        self._closed = False
        if mode == 'r':
            if isinstance(file, str):
                with open(file, 'rb') as f:
                    self._data = f.read()
            else:
                self._data = file.read()
            self._read_directory()

    def _read_directory(self):
        data = self._data
        sig, disk, disk_cd, n_disk, n, size, offset, comment = _end_record(data)
        at = offset
        for i in range(n):
            fields = struct.unpack(_CENTRAL_FMT, data[at:at + 46])
            if fields[0] != _CENTRAL:
                raise BadZipFile('Bad magic number for central directory')
            name_len, extra_len, comment_len = fields[12], fields[13], fields[14]
            name = data[at + 46:at + 46 + name_len]
            extra = data[at + 46 + name_len:at + 46 + name_len + extra_len]
            zi = ZipInfo(name.decode('utf-8' if fields[5] & 0x800 else 'latin-1'))  # (cp437 in CPython)
            zi.compress_type, zi.CRC = fields[6], fields[9]
            zi.compress_size, zi.file_size, zi.header_offset = fields[10], fields[11], fields[18]
            zi.external_attr = fields[17]
            wide = [v for v in (zi.file_size, zi.compress_size, zi.header_offset) if v == _FFFF]
            if wide:
                vals = _zip64_fields(extra, len(wide))
                if zi.file_size == _FFFF:
                    zi.file_size = vals.pop(0)
                if zi.compress_size == _FFFF:
                    zi.compress_size = vals.pop(0)
                if zi.header_offset == _FFFF:
                    zi.header_offset = vals.pop(0)
            d, t = fields[8], fields[7]
            zi.date_time = ((d >> 9) + 1980, (d >> 5) & 0xF, d & 0x1F, t >> 11, (t >> 5) & 0x3F, (t & 0x1F) * 2)
            self._infos.append(zi)
            at += 46 + name_len + extra_len + comment_len

    def namelist(self):
        return [zi.filename for zi in self._infos]

    def infolist(self):
        return list(self._infos)

    def getinfo(self, name):
        for zi in self._infos:
            if zi.filename == name:
                return zi
        raise KeyError('There is no item named ' + repr(name) + ' in the archive')

    def read(self, name):
        if self._closed:
            raise ValueError('Attempt to use ZIP archive that was already closed')
        zi = name if isinstance(name, ZipInfo) else self.getinfo(name)
        data = self._data
        at = zi.header_offset
        fields = struct.unpack(_LOCAL_FMT, data[at:at + 30])
        if fields[0] != _LOCAL:
            raise BadZipFile('Bad magic number for file header')
        start = at + 30 + fields[10] + fields[11]
        raw = data[start:start + zi.compress_size]
        if zi.compress_type == ZIP_DEFLATED:
            raw = zlib.decompress(raw, -15)
        elif zi.compress_type != ZIP_STORED:
            raise NotImplementedError('That compression method is not supported')
        if zlib.crc32(raw) != zi.CRC:
            raise BadZipFile('Bad CRC-32 for file ' + repr(zi.filename))
        return raw

    def open(self, name, mode='r'):
        import io
        if mode != 'r':
            raise NotImplementedError("ZipFile.open: mode 'r' only here (use writestr)")
        return io.BytesIO(self.read(name))

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):
        if self.mode != 'w':
            raise ValueError('write() requires mode \'w\', \'x\', or \'a\'')
        if isinstance(data, str):
            data = data.encode('utf-8')
        data = bytes(data)
        if isinstance(zinfo_or_arcname, ZipInfo):
            zi = zinfo_or_arcname
        else:
            import time
            zi = ZipInfo(zinfo_or_arcname, time.localtime(time.time())[:6])
            zi.compress_type = self.compression if compress_type is None else compress_type
        level = compresslevel if compresslevel is not None else self.compresslevel
        body = data
        if zi.compress_type == ZIP_DEFLATED:
            c = zlib.compressobj(-1 if level is None else level, zlib.DEFLATED, -15)
            body = c.compress(data) + c.flush()
        zi.file_size, zi.compress_size, zi.CRC = len(data), len(body), zlib.crc32(data)
        zi.header_offset = len(self._out)
        name = zi.filename.encode('utf-8')
        flags = 0 if zi.filename.isascii() else 0x800
        ddate, dtime = _dos_time(zi.date_time)
        self._out += struct.pack(_LOCAL_FMT, _LOCAL, 20, 0, flags, zi.compress_type, dtime, ddate, zi.CRC,
                                 zi.compress_size, zi.file_size, len(name), 0) + name + body
        self._infos.append(zi)

    def close(self):
        if self._closed:
            return
        self._closed = True
        if self.mode != 'w':
            return
        start = len(self._out)
        for zi in self._infos:
            name = zi.filename.encode('utf-8')
            ddate, dtime = _dos_time(zi.date_time)
            self._out += struct.pack(_CENTRAL_FMT, _CENTRAL, 20, 3, 20, 0, 0 if zi.filename.isascii() else 0x800,
                                     zi.compress_type, dtime, ddate, zi.CRC, zi.compress_size, zi.file_size,
                                     len(name), 0, 0, 0, 0, zi.external_attr, zi.header_offset) + name
        self._out += struct.pack(_END_FMT, _END, 0, 0, len(self._infos), len(self._infos), len(self._out) - start,
                                 start, 0)
        if isinstance(self._file, str):
            with open(self._file, 'wb') as f:
                f.write(bytes(self._out))
        else:
            self._file.write(bytes(self._out))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return '<zipfile.ZipFile filename=' + repr(self.filename) + ' mode=' + repr(self.mode) + '>'
