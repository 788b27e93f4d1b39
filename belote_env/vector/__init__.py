"""Batched (vectorised / numba) kernels of the engine's rules, each held equal to the
pure-Python reference module it reproduces by a differential test."""
