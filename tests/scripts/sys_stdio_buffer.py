# sys.stdout and sys.stderr as CPython 3.11's text streams: .buffer writes bytes in order
# with print(); write/flush/writelines; print(file=, flush=); the streams' attributes;
# reconfigure(...) and its errors; a script's own io.TextIOWrapper(sys.stdout.buffer),
# flushed at the end as CPython's shutdown flushes sys.stdout
import io
import sys

print('start')
sys.stdout.buffer.write(b'bytes line\n')
n = sys.stdout.buffer.write(bytearray(b'bytearray\n'))
print(n, sys.stdout.buffer.write(memoryview(b'memoryview\n')))
sys.stdout.buffer.flush()
print(sys.stdout.write('text\n'), sys.stdout.write('h\u00e9llo\n'))
sys.stdout.writelines(['line a\n', 'line b\n'])
print('flushed', flush=True)
print('to stderr', file=sys.stderr, flush=True)
print(sys.stderr.buffer.write(b'bytes to stderr\n'))
sys.stderr.buffer.flush()
sys.stderr.flush()
print('explicit file', file=sys.stdout)
print(type(sys.stdout).__name__, isinstance(sys.stdout, io.TextIOWrapper))
print(repr(sys.stdout), repr(sys.stderr))
print(sys.stdout.name, sys.stdout.mode, sys.stdout.encoding, sys.stderr.name, sys.stderr.errors)
print(sys.stdout.fileno(), sys.stderr.fileno(), sys.stdout.buffer.fileno(), sys.stdout.writable(),
      sys.stdout.readable(), sys.stdout.seekable(), sys.stdout.closed, sys.stdout.newlines)
print(sys.stdout.isatty(), sys.stdout.buffer.isatty(), sys.stdout.buffer.name, sys.stdout.buffer.closed,
      sys.stdout.buffer.writable())
print(sys.stdout is sys.__stdout__, sys.stderr is sys.__stderr__, sys.stdout is not sys.stderr)

for f in [lambda: sys.stdout.write(b'x'), lambda: sys.stdout.buffer.write('x'), lambda: sys.stdout.read(),
          lambda: sys.stdout.readline(), lambda: sys.stdout.tell(), lambda: sys.stdout.seek(0),
          lambda: sys.stdout.write(3)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

for kw in [dict(encoding=1), dict(line_buffering='x'), dict(newline='x'), dict(newline=1), dict(errors=2),
           dict(encoding='nope'), dict(foo=1), dict(write_through=2.0)]:
    try:
        sys.stdout.reconfigure(**kw)
        print('ok', kw)
    except Exception as e:
        print(type(e).__name__, e)
try:
    sys.stdout.reconfigure('utf-8')
except TypeError as e:
    print('TypeError', e)
sys.stdout.reconfigure(line_buffering=True)
print(sys.stdout.line_buffering)
sys.stdout.buffer.write(b'after reconfigure\n')
sys.stdout.reconfigure(encoding='latin-1')
print(sys.stdout.encoding, sys.stdout.errors)
sys.stdout.reconfigure(errors='replace')
print(sys.stdout.encoding, sys.stdout.errors)
sys.stdout.reconfigure(encoding='utf-8', errors='strict', line_buffering=False)
print(sys.stdout.encoding, sys.stdout.errors, sys.stdout.line_buffering)
try:
    print(1, foo=2)
except TypeError as e:
    print('TypeError', e)
try:
    print(1, file=3)
except AttributeError as e:
    print('AttributeError', e)

# a script's own text layer over the byte stream
old = sys.stdout
sys.stdout = io.TextIOWrapper(old.buffer, encoding='utf-8', line_buffering=True)
print('through a wrapper', sys.stdout is old)
sys.stdout.flush()
sys.stdout.detach()  # else its collection would close the stream under it
sys.stdout = old
print('back', sys.stdout is sys.__stdout__)
buf = io.StringIO()
print('into a StringIO', file=buf, flush=True)
print(repr(buf.getvalue()))
sys.stdout = io.TextIOWrapper(sys.__stdout__.buffer, encoding='utf-8')
print('kept until the end, then flushed')
