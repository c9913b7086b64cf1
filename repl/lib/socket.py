# socket, written in the language over _host (repl/mod_host.c): the host's name
# and the exceptions and constants scripts name. No network connections.

import _host

AF_UNIX = 1
AF_INET = 2
AF_INET6 = 10
SOCK_STREAM = 1
SOCK_DGRAM = 2
SOL_SOCKET = 1
SO_REUSEADDR = 2

error = OSError


class timeout(OSError):
    # CPython's is the built-in TimeoutError, which nnscope lacks
    pass


class herror(OSError):
    pass


class gaierror(OSError):
    pass


def gethostname():
    return _host.gethostname()
