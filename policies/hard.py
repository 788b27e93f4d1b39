"""Tier ``hard`` (RULES.md §12, seed 004: it "remembers played cards, infers which suits each
seat is void in, and estimates where each unseen card lies"): three networks shipped in
``policies/models/hard/``.

Since 2026-12-03 the value networks of ``hard`` are those described below improved by
policy iteration on their own rollouts (``belote iterate``, ``training.iterate``): the
classic card and bid networks (docs/models/hard.md); the coinche card network, and the
coinche bid values are the mean of the oracle's (weight 0.5 since 2026-12-07) and the
iterated ones (``belote blend``, distilled by ``belote distil``; docs/models/hard_coinche.md). The networks as described below are the
tier ``hard_oracle`` (``policies/models/hard_oracle``, ``hard_oracle_coinche``).

* Classic bids (pass, take, name a suit): a bid-value network (``bids/``) fitted to
  rollout values (``training.oracle.generate_bid_data``: each legal bid made, then the deal
  played out by normal and hard seats; two rounds, the second played by the first bid
  network): it values each legal bid by the deal's expected point difference given the
  seat's information set, averaged over the 24 renamings of the suits, and the best bid
  is made. It was fitted on default-rule deals, so it never saw no-trump / all-trump bids
  (``round2_no_trump_all_trump``): those round-2 decisions go to the policy network.
* Announcements and the bids above: a policy network trained by self-play MaskablePPO
  (``belote train --config configs/train/hard.yaml``; it made all the bids before the bid
  network), playing its most probable legal action. It was trained without the declaration
  choice (``declarations: off``), so under ``declarations: choice`` (seed 000) the tier
  declares whenever it may, as ``normal`` does (``network.declares_by_rule``): left to that
  network it declined three times in four and scored 3.9 points a deal below ``normal``.
* Card play: a card-value network (``cards/``) trained from a double-dummy oracle
  (``training.oracle``): it values each legal card by the deal's expected point difference
  given the seat's information set, averaged over the 24 renamings of the suits, and the
  best card is played.

Those inferences are inputs (the observation's played-card and belief blocks,
``belote_env.inference``); the networks learned the rest. Loading uses torch and
safetensors only (no SB3, no code from the files); illegal actions are masked out.

**Coinche** (``contract_mode="coinche"``, docs/COINCHE.md): the same tier plays coinche
with the model of ``policies/models/hard_coinche/`` (docs/models/hard_coinche.md), loaded
on the first coinche information set the policy sees (the rules come with every
``info.rules``): value networks only, reading the coinche observation
(``COINCHE_OBS_SIZE``), improved by policy iteration from those of
``policies/models/hard_oracle_coinche/`` (docs/experiments/hard_coinche.md), which were
fitted by ``training.oracle`` on default coinche deals:

* the auction (pass, bids 80..160 and capot, coinche, surcoinche): a bid-value network
  fitted to rollout values (each candidate bid made on a copy of the deal, then the deal
  played out by normal seats), averaged over the suit renamings;
* card play: a card-value network fitted to the double-dummy solver's exact values of the
  cards, scored as coinche deals against the contract (``score_coinche_deal``);
* announcements and declarations (no policy network): always announce
  (``NetworkPolicy.rule_action``).

Rules with extended ids (a générale or bids above 160, ``num_actions`` 412, e.g. the
``coinche_bga`` preset; the same observation) are played with the ids the networks know:
the model never bids a générale or above 160 (its bid-value network values pass, 80..160,
capot, coinche and surcoinche), and reads such a bid by another seat as its level. Under
``coinche_bga`` hard scores +46.0 a deal against ``normal`` (+36.1 to +55.9) and
hard_oracle +58.8 (+48.5 to +69.1), 2,000 deal pairs each (docs/results.md).

**Two and three players** (``players`` 2 / 3, docs/TWO_THREE.md): the models of
``policies/models/hard_2p/`` and ``hard_3p/``: a policy network trained by the project's
self-play pipeline (``belote train --config configs/train/hard_2p.yaml`` /
``hard_3p.yaml``: a warm start cloned from ``normal``, then MaskablePPO against an
opponent pool), reading the small-table observation (``observation.encode_cutthroat``)
and making every decision (docs/experiments/hard_small.md) but the declaration choice
(``declarations: choice``, which they were not trained on: the combinations' step is
``normal``'s) and, under a three-seat deal other than the ``6+3`` they were trained on
(``three_player_deal`` ``10_each`` or ``24_card``), every decision but the card play: those
are ``normal``'s there, the card play stays the network's (``NetworkPolicy.deals_untrained``:
left to the network, it took 2,360 contracts in 3,000 deals of ``10_each`` and made 35%).
"""

from __future__ import annotations

from pathlib import Path

from belote_env.games import game_of

from .network import NetworkPolicy

__all__ = ["HardPolicy", "HARD_MODEL_DIR", "HARD_COINCHE_MODEL_DIR", "HARD_MODEL_DIRS", "HARD_2P_MODEL_DIR",
           "HARD_3P_MODEL_DIR", "HARD_ORACLE_MODEL_DIR", "HARD_ORACLE_COINCHE_MODEL_DIR", "hard_oracle", "hard_model_dir"]

HARD_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard"
#: the classic hard model before policy iteration: value networks fitted to an
#: exact double-dummy solver's values and to rollouts of normal / hard seats (tier ``hard_oracle``)
HARD_ORACLE_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard_oracle"
#: the coinche hard model before policy iteration (the coinche oracle pipeline's value networks)
HARD_ORACLE_COINCHE_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard_oracle_coinche"
#: the coinche hard model (value networks only: ``cards/``, ``bids/``)
HARD_COINCHE_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard_coinche"
#: the two- and three-player hard models (policy networks, TWO_THREE.md)
HARD_2P_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard_2p"
HARD_3P_MODEL_DIR = Path(__file__).resolve().parent / "models" / "hard_3p"
#: the hard model of each game (``games.Game.variant``); a game not named here plays the
#: model folder ``policies/models/hard_<variant>`` (``hard_model_dir``)
HARD_MODEL_DIRS = {"classic": HARD_MODEL_DIR, "coinche": HARD_COINCHE_MODEL_DIR, "two": HARD_2P_MODEL_DIR,
                   "three": HARD_3P_MODEL_DIR}


def hard_model_dir(variant: str) -> Path:
    """The folder of the hard model of a game (``games.Game.variant``): ``HARD_MODEL_DIRS``,
    else ``policies/models/hard_<variant>``."""
    return HARD_MODEL_DIRS.get(variant, HARD_MODEL_DIR.parent / f"hard_{variant}")


class HardPolicy(NetworkPolicy):
    """The shipped hard tier. ``seed`` only matters with ``deterministic=False``.

    It is the classic hard model (``model_dir``); at an information set of coinche rules it
    plays the coinche hard model (``coinche_dir``), loaded on first use (``for_rules``).

    Raises ``policies.network.CheckpointError`` if the shipped model or its card-value
    network is missing, or if it, its card-value or its bid-value network is corrupt or
    made for another action-table / observation version (the coinche model: when first
    needed).
    """

    def __init__(self, seed: int | None = None, deterministic: bool = True, model_dir: str | Path = HARD_MODEL_DIR,
                 coinche_dir: str | Path = HARD_COINCHE_MODEL_DIR, name: str = "hard"):
        from .network import CARDS_SUBDIR, CheckpointError, load_model, value_net_kwargs

        net, meta = load_model(model_dir, "classic")
        values = value_net_kwargs(model_dir, contract_mode="classic")
        if "card_net" not in values:
            raise CheckpointError(f"{model_dir}: the hard tier's card-value network ({CARDS_SUBDIR}/) is missing")
        super().__init__(net, meta, deterministic=deterministic, seed=seed, name=name, **values)
        self.coinche_dir = Path(coinche_dir)
        self.model_dirs = {**HARD_MODEL_DIRS, "coinche": self.coinche_dir}
        self._others: dict[str, NetworkPolicy] = {}

    def for_rules(self, rules) -> NetworkPolicy:
        """The policy that plays ``rules``: this one (classic), or the hard model of the
        rules' game (coinche, two or three players; loaded once, then kept);
        ``CheckpointError`` if that model is missing or bad."""
        game = game_of(rules).variant
        if game == "classic":
            return self
        pol = self._others.get(game)
        if pol is None:
            from .network import CheckpointError

            folder = self.model_dirs.get(game) or hard_model_dir(game)
            if not folder.is_dir():
                raise CheckpointError(f"{folder}: the {game} hard model is missing")
            pol = NetworkPolicy.from_path(folder, deterministic=self.deterministic, name=self.name)
            if pol.contract_mode != game:
                raise CheckpointError(f"{folder}: not a {game} model ({pol.contract_mode})")
            self._others[game] = pol
        pol.rng = self.rng  # one random stream, reseeded by matches through self.rng
        return pol

    @property
    def _coinche(self) -> NetworkPolicy | None:
        """The coinche model once loaded (``for_rules``), else None."""
        return self._others.get("coinche")

    @staticmethod
    def _classic(info) -> bool:
        return game_of(info.rules).variant == "classic"

    def act(self, info) -> int:
        if not self._classic(info):
            return self.for_rules(info.rules).act(info)
        return super().act(info)

    def action_probabilities(self, info) -> dict[int, float]:
        if not self._classic(info):
            return self.for_rules(info.rules).action_probabilities(info)
        return super().action_probabilities(info)

    def card_values(self, info) -> dict[int, float]:
        if not self._classic(info):
            return self.for_rules(info.rules).card_values(info)
        return super().card_values(info)

    def bid_values(self, info) -> dict[int, float]:
        if not self._classic(info):
            return self.for_rules(info.rules).bid_values(info)
        return super().bid_values(info)

    def policy_logits(self, info):
        if not self._classic(info):
            return self.for_rules(info.rules).policy_logits(info)
        return super().policy_logits(info)

    def act_batch(self, batch):
        import numpy as np

        from belote_env.observation import OBS_SIZE

        obs = np.asarray(batch.obs)
        if len(obs) and obs.shape[-1] != OBS_SIZE:
            return self.for_rules(batch.infoset(0).rules).act_batch(batch)
        return super().act_batch(batch)


def hard_oracle(seed: int | None = None) -> HardPolicy:
    """Tier ``hard_oracle``: the classic hard model before policy iteration
    (``policies/models/hard_oracle``; docs/models/hard.md); under coinche rules the coinche
    model before policy iteration (``policies/models/hard_oracle_coinche``;
    docs/models/hard_coinche.md)."""
    return HardPolicy(seed, model_dir=HARD_ORACLE_MODEL_DIR, coinche_dir=HARD_ORACLE_COINCHE_MODEL_DIR,
                      name="hard_oracle")
