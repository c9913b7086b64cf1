# getpass, written in the language over _host (repl/mod_host.c): getuser as
# CPython's (the environment's LOGNAME, USER, LNAME, USERNAME, then the password
# database), getpass reading a line without echo where there is a terminal.

import os
import sys

__all__ = ['getpass', 'getuser', 'GetPassWarning']


class GetPassWarning(UserWarning):
    pass


def getuser():
    for name in ('LOGNAME', 'USER', 'LNAME', 'USERNAME'):
        user = os.environ.get(name)
        if user:
            return user
    import _host
    return _host.user_name(os.getuid())


def getpass(prompt='Password: ', stream=None):
    if stream is None:
        stream = sys.stderr
    stream.write(prompt)
    stream.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    if line[-1] == '\n':
        line = line[:-1]
    stream.write('\n')
    return line
