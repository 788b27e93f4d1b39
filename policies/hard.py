"""Tier ``hard`` (RULES.md §12, seed 004: it "remembers played cards, infers which suits each
seat is void in, and estimates where each unseen card lies"): three networks shipped in
``policies/models/hard/``.

* Classic bids (pass, take, name a suit): a bid-value network (``bids/``) fitted to
  rollout values (``training.oracle.generate_bid_data``: each legal bid made, then the deal
  played out by normal and hard seats; two rounds, the second played by the first bid
  network): it values each legal bid by the deal's expected point difference given the
  seat's information set, averaged over the 24 renamings of the suits, and the best bid
  is made. It was fitted on default-rule deals, so it never saw no-trump / all-trump bids
  (``round2_no_trump_all_trump``): those round-2 decisions go to the policy network.
* Declarations, announcements and the bids above: a policy network trained by self-play
  MaskablePPO (``belote train --config configs/train/hard.yaml``; it made all the bids
  before the bid network), playing its most probable legal action.
* Card play: a card-value network (``cards/``) trained from a double-dummy oracle
  (``training.oracle``): it values each legal card by the deal's expected point difference
  given the seat's information set, averaged over the 24 renamings of the suits, and the
  best card is played.

Those inferences are inputs (the observation's played-card and belief blocks,
``belote_env.inference``); the networks learned the rest. Loading uses torch and
safetensors only (no SB3, no code from the files); illegal actions are masked out.
"""

from __future__ import annotations

from pathlib import Path

from .network import NetworkPolicy

__all__ = ["HardPolicy", "HARD_MODEL_DIR"]

HARD_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard"


class HardPolicy(NetworkPolicy):
    """The shipped hard tier. ``seed`` only matters with ``deterministic=False``.

    Raises ``policies.network.CheckpointError`` if the shipped model or its card-value
    network is missing, or if it, its card-value or its bid-value network is corrupt or
    made for another action-table / observation version.
    """

    def __init__(self, seed: int | None = None, deterministic: bool = True, model_dir: str | Path = HARD_MODEL_DIR):
        from .network import CARDS_SUBDIR, CheckpointError, load_model, value_net_kwargs

        net, meta = load_model(model_dir)
        values = value_net_kwargs(model_dir)
        if "card_net" not in values:
            raise CheckpointError(f"{model_dir}: the hard tier's card-value network ({CARDS_SUBDIR}/) is missing")
        super().__init__(net, meta, deterministic=deterministic, seed=seed, name="hard", **values)
