"""Batched Belote: N tables of single deals stepped together in compiled code (numba).

* ``BatchedGame`` (``engine``): the batched engine of every table (``BatchedGame(n,
  rules)``; ``games.Game.batched``): reset from seeds, legal-action masks, a batch of
  actions applied, deal scores and rewards in preallocated arrays.
* ``encode_batch`` (``observation``): the observation encoder, value for value the
  reference's, into a preallocated float32 array.
* ``infoset_of`` (``infoset``) and ``SeatBatch`` (``batch``): what one seat may know at a
  table, for policies.
* ``cutthroat``: the parts of the two- and three-player games (TWO_THREE.md) that the
  one engine calls at those tables, their compiled observation encoder and information
  set, held equal to ``game.GameState`` by ``tests/test_vector_cutthroat.py``
  (``CutthroatBatchedGame``: a deprecated name of ``BatchedGame``, for one release).

Each kernel is held equal to the pure-Python reference module it reproduces by a
differential test (``tests/test_vector_engine.py``, ``tests/test_vector_declare.py``,
``scripts/check_vector.py``).
"""

from .batch import SeatBatch
from .engine import COL, MAX_TABLES, OUTCOMES, BatchedGame
from .envs import BeloteGymVectorEnv, BeloteVectorEnv
from .infoset import infoset_of
from .observation import encode_batch

__all__ = ["BatchedGame", "MAX_TABLES", "COL", "OUTCOMES", "SeatBatch", "encode_batch", "infoset_of", "BeloteVectorEnv",
           "BeloteGymVectorEnv", "BeloteSB3VecEnv"]


def __getattr__(name):
    if name in ("CutthroatBatchedGame", "SmallBatchedGame"):  # deprecated, warn: BatchedGame serves every table
        from . import cutthroat

        return getattr(cutthroat, name)
    if name == "BeloteSB3VecEnv":  # stable-baselines3 (the ``train`` extra) only when it is asked for
        from . import envs

        return envs.BeloteSB3VecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
