# urllib — the package of urllib.parse, urllib.request and urllib.error.
