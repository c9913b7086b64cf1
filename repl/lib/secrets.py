# secrets, written in the language: tokens from the operating system's randomness
# (os.urandom), as CPython's module over random.SystemRandom.

import base64
import binascii
import os

__all__ = ['choice', 'randbelow', 'randbits', 'SystemRandom', 'token_bytes', 'token_hex', 'token_urlsafe',
           'compare_digest']

DEFAULT_ENTROPY = 32


def randbits(k):
    if k < 0:
        raise ValueError('number of bits must be non-negative')
    numbytes = (k + 7) // 8
    x = int.from_bytes(os.urandom(numbytes), 'big')
    return x >> (numbytes * 8 - k)


def randbelow(exclusive_upper_bound):
    if exclusive_upper_bound <= 0:
        raise ValueError("Upper bound must be positive.")
    k = exclusive_upper_bound.bit_length()
    r = randbits(k)
    while r >= exclusive_upper_bound:
        r = randbits(k)
    return r


class SystemRandom:
    def getrandbits(self, k):
        return randbits(k)

    def _randbelow(self, n):
        return randbelow(n)

    def random(self):
        return (int.from_bytes(os.urandom(7), 'big') >> 3) * 2.0 ** -53

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            if start <= 0:
                raise ValueError("empty range for randrange()")
            return randbelow(start)
        width = stop - start
        if step == 1:
            if width <= 0:
                raise ValueError("empty range for randrange() (%d, %d, %d)" % (start, stop, width))
            return start + randbelow(width)
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError('Cannot choose from an empty sequence')
        return seq[randbelow(len(seq))]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k):
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = []
        for i in range(k):
            j = randbelow(n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        return result

    def uniform(self, a, b):
        return a + (b - a) * self.random()


_sysrand = SystemRandom()


def choice(seq):
    return _sysrand.choice(seq)


def token_bytes(nbytes=None):
    if nbytes is None:
        nbytes = DEFAULT_ENTROPY
    return os.urandom(nbytes)


def token_hex(nbytes=None):
    return binascii.hexlify(token_bytes(nbytes)).decode('ascii')


def token_urlsafe(nbytes=None):
    tok = token_bytes(nbytes)
    return base64.urlsafe_b64encode(tok).rstrip(b'=').decode('ascii')


def compare_digest(a, b):
    if isinstance(a, str) and isinstance(b, str):
        try:
            a = a.encode('ascii')
            b = b.encode('ascii')
        except UnicodeEncodeError:
            raise TypeError("comparing strings with non-ASCII characters is not supported")
    elif not (isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray))):
        raise TypeError("unsupported operand types(s) or combination of types: '%s' and '%s'"
                        % (type(a).__name__, type(b).__name__))
    result = len(a) ^ len(b)
    for x, y in zip(a, b):
        result |= x ^ y
    return result == 0
