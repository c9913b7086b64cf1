"""a from __future__ import after other statements is CPython's SyntaxError: nothing runs"""
print("never printed")
from __future__ import annotations
