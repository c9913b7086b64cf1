# concurrent — the package of concurrent.futures (repl/lib/concurrent.futures.py).
