# zipfile, written in the language: the exceptions and is_zipfile only (np.load
# raises BadZipFile for a file that starts as a zip archive but is none); reading
# and writing archives is not here.

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
