"""Seeded random numbers that are the same on every machine and every Python version.

SplitMix64 (Steele, Lea and Flood, 2014) is written out here rather than taken from
``random``, whose algorithms may change between versions: a seed must give the same
boards forever, because board IDs and seeds are shared between players.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64


class SplitMix64:
    """A tiny, well-known 64-bit generator with an exactly specified output."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling, no modulo bias)."""
        if n < 1:
            raise ValueError(f"below({n}): n must be at least 1")
        # ``next`` written out (this is the hot caller): the same values, one call less.
        limit = _SPAN - _SPAN % n
        z = self.state
        while True:
            z = (z + _GAMMA) & _MASK64
            value = ((z ^ (z >> 30)) * _MIX1) & _MASK64
            value = ((value ^ (value >> 27)) * _MIX2) & _MASK64
            value ^= value >> 31
            if value < limit:
                self.state = z
                return value % n
