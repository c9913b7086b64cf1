# sys: version_info, version, platform, byteorder, path, executable, recursion limit
import sys
print(sys.version_info >= (3, 8), sys.version_info[:2], sys.version_info[0], sys.version.startswith('3.11'), sys.platform, sys.byteorder)
print(sys.maxunicode, sys.getrecursionlimit(), sys.hexversion >= 0x030b0000, type(sys.path).__name__, isinstance(sys.executable, str))
sys.setrecursionlimit(10000)
sys.path.append('/tmp/x')
print(sys.path[-1], sys.maxsize == 9223372036854775807)
sys.stdout.write('written\n')
