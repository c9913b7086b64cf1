# urllib.error — CPython 3.11's URLError, HTTPError and ContentTooShortError.
__all__ = ['URLError', 'HTTPError', 'ContentTooShortError']


class URLError(OSError):
    def __init__(self, reason, filename=None):
        self.args = (reason,)
        self.reason = reason
        if filename is not None:
            self.filename = filename

    def __str__(self):
        return '<urlopen error %s>' % self.reason


class HTTPError(URLError):
    """Raised when HTTP error occurs, but also acts like non-error return"""

    def __init__(self, url, code, msg, hdrs, fp):
        self.code = code
        self.msg = msg
        self.hdrs = hdrs
        self.fp = fp
        self.filename = url
        self.args = (url, code, msg, hdrs, fp)

    def __str__(self):
        return 'HTTP Error %s: %s' % (self.code, self.msg)

    def __repr__(self):
        return '<HTTPError %s: %r>' % (self.code, self.msg)

    @property
    def reason(self):
        return self.msg

    def getcode(self):
        return self.code


class ContentTooShortError(URLError):
    """Exception raised when downloaded size does not match content-length."""

    def __init__(self, message, content):
        URLError.__init__(self, message)
        self.content = content
