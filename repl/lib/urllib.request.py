# urllib.request — importable as CPython 3.11's; there is no network here, so
# urlopen and urlretrieve of a remote URL raise urllib.error.URLError as
# CPython does on a machine without one (the name cannot be resolved). A
# file: URL (or a local path given to urlretrieve's file: form) is read.
import os as _os
from urllib.error import URLError, HTTPError, ContentTooShortError
from urllib.parse import urlparse as _urlparse, unquote as _unquote, quote as _quote

__all__ = ['Request', 'urlopen', 'urlretrieve', 'urlcleanup', 'URLError', 'HTTPError', 'build_opener',
           'install_opener', 'pathname2url', 'url2pathname', 'getproxies']


class gaierror(OSError):
    # socket.gaierror: the name of the host could not be resolved
    __module__ = 'socket'


def _gaierror():
    return URLError(gaierror(-2, 'Name or service not known'))


class Request:
    def __init__(self, url, data=None, headers={}, origin_req_host=None, unverifiable=False, method=None):
        self.full_url = url
        self.data = data
        self.headers = {}
        for key, value in headers.items():
            self.add_header(key, value)
        self.origin_req_host = origin_req_host
        self.unverifiable = unverifiable
        self.method = method
        parsed = _urlparse(url)
        if not parsed.scheme:
            raise ValueError('unknown url type: %r' % url)
        self.type = parsed.scheme
        self.host = parsed.netloc
        self.selector = url.split(parsed.netloc, 1)[-1] if parsed.netloc else parsed.path

    def get_method(self):
        default_method = 'POST' if self.data is not None else 'GET'
        return getattr(self, 'method', None) or default_method

    def get_full_url(self):
        return self.full_url

    def add_header(self, key, val):
        self.headers[key.capitalize()] = val

    def has_header(self, header_name):
        return header_name in self.headers

    def get_header(self, header_name, default=None):
        return self.headers.get(header_name, default)


class _FileResponse:
    def __init__(self, path, url):
        self._f = open(path, 'rb')
        self.url = url
        self.status = self.code = 200

    def read(self, *args):
        return self._f.read(*args)

    def readline(self):
        return self._f.readline()

    def __iter__(self):
        return iter(self._f)

    def close(self):
        self._f.close()

    def geturl(self):
        return self.url

    def getcode(self):
        return self.code

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


def urlopen(url, data=None, timeout=None, *, cafile=None, capath=None, cadefault=False, context=None):
    full = url.full_url if isinstance(url, Request) else url
    parsed = _urlparse(full)
    if parsed.scheme == 'file':
        path = url2pathname(parsed.path)
        if not _os.path.exists(path):
            raise URLError(FileNotFoundError(2, 'No such file or directory', path))
        return _FileResponse(path, full)
    if not parsed.scheme:
        raise ValueError('unknown url type: %r' % full)
    if parsed.scheme not in ('http', 'https', 'ftp'):
        raise URLError('unknown url type: %s' % parsed.scheme)
    raise _gaierror()


def urlretrieve(url, filename=None, reporthook=None, data=None):
    with urlopen(url, data) as fp:
        if filename is None:
            import tempfile
            filename = tempfile.mktemp()
        with open(filename, 'wb') as out:
            out.write(fp.read())
    return filename, None


def urlcleanup():
    pass


def pathname2url(pathname):
    return _quote(pathname)


def url2pathname(pathname):
    return _unquote(pathname)


def getproxies():
    return {}


class OpenerDirector:
    addheaders = [('User-agent', 'Python-urllib/3.11')]

    def open(self, fullurl, data=None, timeout=None):
        return urlopen(fullurl, data, timeout)

    def add_handler(self, handler):
        pass


def build_opener(*handlers):
    return OpenerDirector()


def install_opener(opener):
    pass
