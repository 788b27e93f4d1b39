"""The decisions of a model: ``NetworkPolicy`` routes each decision to the network that
makes it (the card-value network for card play, the bid-value network for the bids it
values, the policy network otherwise, a fixed rule where none does), one row or a batch of
rows at once (``act_batch``). The network itself is ``policies.net.BeloteNet``, the model
file format ``policies.model_files`` (both re-exported here, their old home). Only torch is
needed (no SB3).
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import torch

from belote_env import NUM_ACTIONS, InfoSet
from belote_env.actions import (
    ANNOUNCE_BELOTE, DECLARE, EXTENDED_NUM_ACTIONS, GENERALE_BID, PASS, PROPOSE_REDEAL, SURCOINCHE,
)
from belote_env.jsonfile import read_json
from belote_env.game import STEPS
from belote_env.games import game_of
from belote_env.deprecation import renamed_in
from belote_env.observation import COINCHE_OBS_SIZE, OBS_SIZE
from belote_env.cards import ALL_TRUMP, NUM_CARDS

from .base import with_belote
from .net import (
    BeloteNet, CheckpointError, FORMAT_VERSION, MAX_HIDDEN_LAYERS, MAX_LAYER_WIDTH, MAX_PARAMETERS,
    expected_shapes,
)
from .model_files import (
    BIDS_SUBDIR, BID_ACTIONS, BID_TEMPERATURE, BID_VALUES_KIND, CARDS_SUBDIR, CARD_TEMPERATURE, CARD_VALUES_KIND,
    COINCHE_BID_ACTIONS, MAX_META_BYTES, CONTRACT_MODE_OBS_SIZE, MODEL_PARTS, MODE_N_ACTIONS, RulesMismatchError,
    PROPOSAL_BID_ACTIONS, CUTTHROAT_MODES, VALUE_POLICY_KIND, _FIRST_BID, _VALUE_NET_NAMES, _check_bid_actions,
    bid_actions_of, game_words, variant_game,
    _is_value_policy, _meta_mode, _model_folder, check_finite, contract_mode_of_size, declare_parts,
    declared_parts, load_bid_net, load_card_net, load_model, policy_suit_average_of, read_safetensors_header,
    save_model, save_value_policy_meta, value_net_kwargs,
)
from .symmetry import (
    action_permutation_table, bid_permutation_table, coinche_bid_permutation_table, suit_permutation_tables,
)

__all__ = ["BeloteNet", "CheckpointError", "save_model", "load_model", "load_card_net", "NetworkPolicy",
           "is_card_decision", "CARDS_SUBDIR", "CARD_VALUES_KIND", "CARD_TEMPERATURE", "suit_permutation_tables",
           "is_bid_decision", "load_bid_net", "BIDS_SUBDIR", "BID_VALUES_KIND", "BID_ACTIONS", "BID_TEMPERATURE",
           "bid_permutation_table", "action_permutation_table", "value_net_kwargs", "policy_suit_average_of",
           "FORMAT_VERSION",
           "MAX_HIDDEN_LAYERS", "MAX_LAYER_WIDTH", "MAX_PARAMETERS", "MAX_META_BYTES", "expected_shapes",
           "read_safetensors_header", "check_finite", "BATCH_VALUE_MARGIN", "BATCH_LOGIT_MARGIN",
           "COINCHE_BID_ACTIONS", "is_coinche_bid_decision", "coinche_bid_permutation_table", "VALUE_POLICY_KIND",
           "save_value_policy_meta", "contract_mode_of_size", "RulesMismatchError", "CONTRACT_MODE_OBS_SIZE",
           "CUTTHROAT_MODES", "PROPOSAL_BID_ACTIONS", "is_proposal_bid_decision", "MODEL_PARTS",
           "declared_parts", "declare_parts"]


def is_coinche_bid_decision(info: InfoSet) -> bool:
    """A coinche auction decision (``contract_mode="coinche"``, COINCHE.md §3) with more
    than one legal action, all of them auction actions: pass, a bid, coinche, surcoinche
    (``COINCHE_BID_ACTIONS``), under rules of the extended action table also a générale or
    a bid above 160 (``actions.num_actions`` 412): a coinche bid-value network's domain (it
    values the ids of ``COINCHE_BID_ACTIONS``; an extended bid it never makes)."""
    legal = info.legal_actions
    return (info.contract is None and len(legal) > 1 and info.rules.contract_mode == "coinche"
            and all(PASS <= a <= SURCOINCHE or GENERALE_BID <= a < EXTENDED_NUM_ACTIONS for a in legal))


#: outputs 32..37 of a small bid-value network, unpermuted (``_value_outputs``' width)
_PROPOSAL_BID_TABLE = torch.arange(len(PROPOSAL_BID_ACTIONS))[None]


def is_proposal_bid_decision(info) -> bool:
    """A contract decision of the two- or three-seat auction (TWO_THREE.md §2.3; a
    ``InfoSet``): no contract yet, every legal action in ``PROPOSAL_BID_ACTIONS`` or
    ``PROPOSE_REDEAL``, and at least two of ``PROPOSAL_BID_ACTIONS`` legal (pass / take in
    round 1, pass / name a suit in round 2, or a forced choice of suits). Answering a
    proposal (agree / refuse) is not one: the small bid-value network's domain."""
    if info.contract is None and getattr(info, "players", 4) in (2, 3):
        n = 0
        for a in info.legal_actions:
            if a in PROPOSAL_BID_ACTIONS:
                n += 1
            elif a != PROPOSE_REDEAL:
                return False
        return n > 1
    return False


def is_bid_decision(info: InfoSet) -> bool:
    """A classic bidding decision (RULES.md §3.2-3.3: pass, take the turned suit, or name a
    contract) with more than one legal bid: the bid-value network's domain."""
    legal = info.legal_actions
    return info.contract is None and len(legal) > 1 and all(a in BID_ACTIONS for a in legal)


def is_card_decision(info: InfoSet) -> bool:
    """A card-play decision with more than one legal card, where the only other legal
    action is announcing belote (the card-value network's domain). A decision where
    declaring is also possible (``declarations: choice``, RULES.md §6) is not one: the
    policy network makes it, or the fixed rule (declare) for a network never trained on that
    choice (``declares_by_rule``). At two and three seats (an ``InfoSet``) only the card
    step of the play is one (``game.STEPS``: not the maker's discards, whose legal
    actions are card ids too)."""
    if info.contract is None:
        return False
    legal = info.legal_actions
    n = 0
    for a in legal:
        if a < NUM_CARDS:
            n += 1
        elif a != ANNOUNCE_BELOTE:
            return False
    return n > 1 and getattr(info, "step", -1) in (-1, _CARDS_STEP)  # -1: four seats (no sub-steps)


def declares_by_rule(meta: dict) -> bool:
    """Whether a policy network leaves the declaration choice (``DECLARE`` legal:
    ``declarations: choice``, RULES.md §6, TWO_THREE.md §2.6) to the fixed rule, declare, as
    ``normal`` does: its ``meta.json`` records the rules it was trained under (``rules``) and
    their ``declarations`` is not ``choice``, so the network never met that choice (the shipped
    classic hard and hard_oracle, and the two- and three-seat hard, trained under ``off`` /
    ``auto``: left to their networks they declined three times in four and lost to
    ``normal`` under the choice, docs/results.md). A model whose rules are not recorded
    keeps the choice."""
    rules = meta.get("rules")
    return isinstance(rules, dict) and rules.get("declarations", "off") != "choice"


#: ``game.STEPS.index("cards")``: the step of an ``InfoSet``'s card play (a
#: four-seat ``InfoSet``'s is -1).
_CARDS_STEP = STEPS.index("cards")
#: ``game.STEPS.index("declare")``: the combinations' step of the two- and three-seat play
_DECLARE_STEP = STEPS.index("declare")


class NetworkPolicy:
    """A policy backed by a ``BeloteNet`` (checkpoints, exported models, the hard tier),
    or by value networks alone (``net=None``: the coinche hard tier).

    Args:
        net: the policy network, or ``None`` (a model folder of value networks only,
            ``VALUE_POLICY_KIND``): then ``card_net`` is required, and the decisions the
            value networks do not make follow a fixed rule (``rule_action``: announce /
            declare when legal, else the lowest legal id). ``meta``: its metadata.
        deterministic: play the most probable legal action (default) or sample.
        seed: seed of the policy's own RNG (used only when sampling).
        name: display name.
        card_net: optional card-value network (``training.oracle``): at card decisions
            (``is_card_decision``) the legal card with the largest output 0..31 is played
            (with the belote announcement when due, ``policies.base.with_belote``),
            whatever ``deterministic`` says; ``net`` makes every other decision but those
            it was never trained on (its ``meta.json`` rules): the declaration choice
            (``declares_by_rule``: declare; at two and three seats the combinations' step is
            ``normal``'s) and, at three seats, every decision but the card play under a deal
            layout it was not trained on (``deals_untrained``: ``normal``'s).
        suit_average: average the card-value network over the 24 renamings of the suits
            (``observation.suit_permutation_index``: one batched forward pass of 24 rows),
            as it was trained with renamed suits (``training.oracle``).
        bid_net: optional bid-value network (``training.oracle.generate_bid_data``). Classic
            (a network of the classic observation): at classic bidding decisions
            (``is_bid_decision``) whose legal bids are all in ``bid_actions``, the legal bid
            with the largest output (ids 32..39) is made, whatever ``deterministic`` says;
            ``net`` makes the other bidding decisions. Coinche (a network of the coinche
            observation, ``COINCHE_OBS_SIZE``): at coinche auction decisions
            (``is_coinche_bid_decision``) the legal action of ``bid_actions`` (ids
            32..101: pass, the bids, coinche, surcoinche) with the largest output is made;
            legal bids it was never trained on are not made (pass always is one). Two and
            three seats (``CUTTHROAT_MODES``): at the contract decisions of the auction
            (``is_proposal_bid_decision``: pass / take / name a suit, a redeal proposal
            perhaps legal too) whose legal bids are all in ``bid_actions`` (ids 32..37),
            the bid with the largest output is made: such a seat never proposes a redeal;
            ``net`` answers proposals and makes every other decision.
        bid_suit_average: average the bid-value network over the 24 suit renamings.
        bid_actions: the bid ids the bid-value network was trained on (its ``meta.json``
            key ``bid_actions``; default all of 32..39, coinche 32..101). A network fitted
            on default-rule deals never saw no-trump / all-trump (38, 39), so under
            ``round2_no_trump_all_trump`` its round-2 decisions go to ``net``.
        policy_suit_average: wherever ``net`` decides (``action_probabilities``, ``act``,
            ``act_batch``), play it averaged over the 24 suit renamings: the mean over the
            renamings of its log-probabilities, each mapped back to the deal's action ids
            (``action_permutation_table``: cards, "name a suit" and coinche bids move with
            their suit, every other action stays). A self-play network trained on
            suit-symmetric deals plays better so (a model's ``meta.json`` key
            ``policy_suit_average``, read by ``from_path``). The mean of the
            log-softmaxes is the mean of the logits less a constant (the mean of the 24
            normalisers), so the policy averages the logits: the same probabilities and
            decisions, and a linear average the batched pass makes in its compiled kernel.
        card_unit, bid_unit: the points one unit of the value networks' outputs stands for
            (their ``meta.json`` key ``value_unit``: 162 classic, 500 coinche); only the
            softmax of ``action_probabilities`` reads them (its temperature is in points).

    Every network reads the observation of one contract mode (``contract_mode``: classic,
    618 floats; coinche, ``COINCHE_OBS_SIZE``); every decision checks the info set's rules
    against it (``check_rules``: ``RulesMismatchError`` naming both modes, never a silent
    fallback).

    Raises ``ValueError`` for a ``suit_average``, ``bid_suit_average`` or
    ``policy_suit_average`` that is not a bool, ``bid_actions`` that are not ids of the
    mode's bids, networks of different contract modes, or no network to play cards.
    """

    def __init__(self, net: BeloteNet | None, meta: dict | None = None, deterministic: bool = True,
                 seed: int | None = None, name: str = "network", card_net: BeloteNet | None = None,
                 suit_average: bool = False, bid_net: BeloteNet | None = None, bid_suit_average: bool = False,
                 bid_actions=None, policy_suit_average: bool = False, card_unit: float = 162.0,
                 bid_unit: float = 162.0):
        for key, v in (("suit_average", suit_average), ("bid_suit_average", bid_suit_average),
                       ("policy_suit_average", policy_suit_average)):
            if type(v) is not bool:
                raise ValueError(f"{key} must be a bool, got {v!r}")
        if net is None and card_net is None:
            raise ValueError("a NetworkPolicy needs a policy network or a card-value network")
        modes = {which: contract_mode_of_size(n.obs_size) for which, n in
                 (("policy", net), ("card-value", card_net), ("bid-value", bid_net)) if n is not None}
        if len(set(modes.values())) > 1 or None in modes.values():
            raise ValueError(f"the networks must read the observation of one contract mode (classic {OBS_SIZE} or "
                             f"coinche {COINCHE_OBS_SIZE} floats), got {modes}")
        self.contract_mode: str = next(iter(modes.values()))
        #: the ``games.Game`` of the variant the networks were made for (``variant_game``)
        self.game = variant_game(self.contract_mode)
        if not self.game.has_partners and suit_average:
            raise ValueError(f"suit_average is for four-seat card-value networks: the {self.contract_mode}-player "
                             f"observation has no suit-renaming tables")
        self._bid_range = bid_actions_of(self.contract_mode)
        self.bid_actions = _check_bid_actions(self._bid_range if bid_actions is None else bid_actions,
                                              self._bid_range)
        self.net, self.meta, self.name = net, meta or {}, name
        #: the declaration choice is the fixed rule's, declare (``declares_by_rule`` of ``meta``)
        self.declares_by_rule = net is not None and declares_by_rule(self.meta)
        self.card_net = card_net
        self.suit_average = suit_average
        self.bid_net = bid_net
        self.bid_suit_average = bid_suit_average
        self.policy_suit_average = policy_suit_average
        self.card_unit, self.bid_unit = float(card_unit), float(bid_unit)
        self.deterministic = deterministic
        self.rng = random.Random(seed)
        self.obs_size = CONTRACT_MODE_OBS_SIZE[self.contract_mode]
        self._obs = np.zeros(self.obs_size, dtype=np.float32)
        self._rules_ok = None  # the last rules check_rules accepted

    @classmethod
    def from_path(cls, path: str | os.PathLike, **kwargs) -> "NetworkPolicy":
        """Load a model folder (see ``load_model``), and its ``cards/`` card-value and
        ``bids/`` bid-value networks when it has them, played as its ``meta.json`` says
        (``value_net_kwargs``: ``policy_suit_average`` too); ``kwargs`` override those;
        raises ``CheckpointError``. A folder of value networks only (``meta.json`` kind
        ``VALUE_POLICY_KIND``, no ``model.safetensors``) loads with ``net=None``; its
        networks must be of the contract mode its ``meta.json`` records."""
        folder = _model_folder(path)
        if not (folder / "model.safetensors").exists() and _is_value_policy(folder):
            meta = read_json(folder / "meta.json", MAX_META_BYTES)
            mode = meta.get("contract_mode")
            if mode not in CONTRACT_MODE_OBS_SIZE:
                raise CheckpointError(f"{folder / 'meta.json'}: contract_mode must be one of "
                                      f"{sorted(CONTRACT_MODE_OBS_SIZE)}, got {mode!r}")
            _meta_mode(meta, meta.get("obs_size"), folder / "meta.json")
            values = value_net_kwargs(path, meta, contract_mode=mode)
            if "card_net" not in values:
                raise CheckpointError(f"{folder}: a folder of value networks only needs its card-value network "
                                      f"({CARDS_SUBDIR}/)")
            kwargs.setdefault("name", str(path))
            return cls(None, meta, **(values | kwargs))
        net, meta = load_model(path)
        if meta.get("kind") in (CARD_VALUES_KIND, BID_VALUES_KIND):
            sub = CARDS_SUBDIR if meta["kind"] == CARD_VALUES_KIND else BIDS_SUBDIR
            raise CheckpointError(f"{path}: a {_VALUE_NET_NAMES[meta['kind']]} network, not a policy; load the model "
                                  f"folder that holds it in {sub}/")
        kwargs.setdefault("name", str(path))
        mode = contract_mode_of_size(net.obs_size)
        return cls(net, meta, **(value_net_kwargs(path, meta, contract_mode=mode) | kwargs))

    def check_rules(self, rules) -> None:
        """Raise ``RulesMismatchError`` unless this policy's networks can play under
        ``rules``: the same game (classic, coinche, two or three seats: the observation
        they read). Coinche rules with a générale or bids above 160 (412 action ids,
        ``actions.num_actions``; the same observation) are played with the ids the networks
        know: such a bid is never made, and one made by another seat is read as its level
        (``observation.level_value``), beyond the levels the networks were trained on."""
        if rules is self._rules_ok:
            return
        mode = game_of(rules).variant
        if mode != self.contract_mode:
            hint = (" (make_policy('hard') picks the hard model of the rules' mode)" if self.name == "hard" else "")
            mine, theirs = game_words(self.contract_mode), game_words(mode)
            raise RulesMismatchError(
                f"{self.name}: a {mine} model (its networks read the {mine} observation "
                f"of {self.obs_size} floats) cannot play {theirs} rules (observation of "
                f"{CONTRACT_MODE_OBS_SIZE.get(mode, '?')} floats): load a {theirs} model{hint}")
        self._rules_ok = rules

    def _encode(self, info: InfoSet) -> np.ndarray:
        self.check_rules(info.rules)
        return game_of(info.rules).encode(info, self._obs)

    @torch.inference_mode()
    def action_probabilities(self, info: InfoSet) -> dict[int, float]:
        """Probability of each legal action id under the network. With a card-value
        network, at card decisions (``is_card_decision``) the cards get a softmax of their
        values at a temperature of ``CARD_TEMPERATURE`` points (the card ``act`` plays is
        the most probable) and announcing belote gets 0 (``act`` announces through
        ``with_belote``): what a search on top of the policy (``hard+search``) or a belief
        modelling it reads. Elsewhere the policy network's softmax over the legal actions
        (averaged over the suit renamings with ``policy_suit_average``), 0 for a legal id
        beyond its outputs (a générale or a bid above 160, ``check_rules``); without a policy
        network, 1 for ``rule_action``'s action, and 1 for ``act``'s where the fixed rule
        decides what the network was never trained on (``declares_by_rule``,
        ``deals_untrained``)."""
        self.check_rules(info.rules)
        if self.card_net is not None and is_card_decision(info):
            return _softmax(self.card_values(info), CARD_TEMPERATURE, info.legal_actions, self.card_unit)
        a = self._untrained_action(info)
        if a is not None:
            return {b: float(b == a) for b in info.legal_actions}
        if self._bids_by_value(info):
            return _softmax(self.bid_values(info), BID_TEMPERATURE, info.legal_actions, self.bid_unit)
        if self.net is None:
            a = self.rule_action(info)
            return {b: float(b == a) for b in info.legal_actions}
        logits = self.policy_logits(info)
        known = [a for a in info.legal_actions if a < len(logits)]  # an extended coinche id (a générale, a bid
        p = torch.softmax(logits[known], dim=0).tolist()             # above 160) has no output: probability 0
        return {a: 0.0 for a in info.legal_actions} | dict(zip(known, p))

    @torch.inference_mode()
    def policy_logits(self, info: InfoSet) -> torch.Tensor:
        """The policy network's logits for ``info``, float32 ``(NUM_ACTIONS,)``; with
        ``policy_suit_average`` their mean over the 24 suit renamings, each renaming's
        outputs mapped back to the deal's action ids (``action_permutation_table``): up to
        a constant, the mean of the renamings' log-probabilities. ``ValueError`` without a
        policy network."""
        if self.net is None:
            raise ValueError(f"{self.name}: no policy network (value networks only)")
        obs = torch.from_numpy(self._encode(info))
        if not self.policy_suit_average:
            return self.net.logits(obs.unsqueeze(0))[0]
        po, _ = suit_permutation_tables(self.obs_size)
        out = self.net.logits(obs[po])
        return torch.empty_like(out).scatter_(1, action_permutation_table(out.shape[1]), out).mean(0)

    @torch.inference_mode()
    def card_values(self, info: InfoSet) -> dict[int, float]:
        """The card-value network's value of each legal card: a point difference /
        ``card_unit`` (162 classic, 500 coinche) for the seat's team, trained on values
        centred per decision, so only the differences between cards are meaningful.
        Raises ``ValueError`` if the policy has no card-value network."""
        if self.card_net is None:
            raise ValueError(f"{self.name}: no card-value network")
        out = self._value_outputs(info, self.card_net, self.suit_average, 0, suit_permutation_tables()[1])
        return {a: out[a] for a in info.legal_actions if a < NUM_CARDS}

    def _bids_by_value(self, info: InfoSet) -> bool:
        if self.bid_net is None:
            return False
        if self.game.auction_kind == "coinche":
            return is_coinche_bid_decision(info) and any(a in self.bid_actions for a in info.legal_actions)
        if self.game.auction_kind == "proposal":  # never proposes a redeal where it values the bids
            return is_proposal_bid_decision(info) and all(a in self.bid_actions for a in info.legal_actions
                                                       if a != PROPOSE_REDEAL)
        return is_bid_decision(info) and all(a in self.bid_actions for a in info.legal_actions)

    @torch.inference_mode()
    def bid_values(self, info: InfoSet) -> dict[int, float]:
        """The bid-value network's value of each legal bid it was trained on (classic ids
        32..39; coinche ids of ``bid_actions`` among 32..101; two / three seats the legal
        ids of ``bid_actions`` among 32..37, ``PROPOSAL_BID_ACTIONS``, never a redeal
        proposal, the acting seat's margin): the deal's point difference
        / ``bid_unit`` for the seat's team, trained on values centred per decision (only
        the differences between bids are meaningful). Raises ``ValueError`` if the policy
        has no bid-value network."""
        if self.bid_net is None:
            raise ValueError(f"{self.name}: no bid-value network")
        if self.game.auction_kind == "proposal":  # ids 32..37 (PROPOSAL_BID_ACTIONS); a redeal proposal is not valued
            out = self._value_outputs(info, self.bid_net, False, _FIRST_BID, _PROPOSAL_BID_TABLE)
            return {a: out[a - _FIRST_BID] for a in info.legal_actions if a in self.bid_actions}
        coinche = self.game.auction_kind == "coinche"
        table = coinche_bid_permutation_table() if coinche else bid_permutation_table()
        out = self._value_outputs(info, self.bid_net, self.bid_suit_average, _FIRST_BID, table)
        if coinche:
            return {a: out[a - _FIRST_BID] for a in info.legal_actions if a in self.bid_actions}
        return {a: out[a - _FIRST_BID] for a in info.legal_actions}

    def _value_outputs(self, info: InfoSet, net: BeloteNet, average: bool, first: int,
                       table: torch.Tensor) -> list[float]:
        """Outputs ``first .. first + table.shape[1] - 1`` of a value network for ``info``,
        averaged over the 24 suit renamings when ``average`` (``table``: how each renaming
        permutes those outputs, ``suit_permutation_tables`` / ``bid_permutation_table``)."""
        obs = torch.from_numpy(self._encode(info))
        width = table.shape[1]
        if not average:
            return net.logits(obs.unsqueeze(0))[0, first:first + width].tolist()
        po, _ = suit_permutation_tables(self.obs_size)
        out = net.logits(obs[po])[:, first:first + width]
        # row p values the renamed deal: output j of row p is output table[p, j] of the deal
        return torch.empty_like(out).scatter_(1, table, out).mean(0).tolist()

    def rule_action(self, info: InfoSet) -> int:
        """The fixed rule a policy without a policy network (``net=None``) follows where its
        value networks do not decide (``act``): a card decision the card-value network
        does not take (e.g. declining belote is legal too, ``belote: optional``) plays its
        best legal card (with the belote announcement, ``with_belote``); otherwise
        announce: ``DECLARE`` (declarations, RULES.md §6) or ``ANNOUNCE_BELOTE`` when
        legal; otherwise the bid-value network's best trained bid when one is legal;
        otherwise the lowest legal id.

        At two and three seats (``CUTTHROAT_MODES``) the card-value network plays the card
        decisions (``is_card_decision``: the card step, with the belote claim of
        ``with_belote``) and every other decision (the bids, the seven exchange,
        the maker's discards, the combinations protocol, a belote claim with one legal
        card) is the ``normal`` tier's (``policies.cutthroat_play.normal_cutthroat_act``): the
        lowest legal id would pass every auction and give up the combinations."""
        legal = info.legal_actions
        if not self.game.has_partners:
            if self.card_net is not None and is_card_decision(info):
                v = self.card_values(info)
                return with_belote(info, max(v, key=lambda a: (v[a], -a)))
            from .cutthroat_play import normal_cutthroat_act

            return normal_cutthroat_act(info)
        cards = [a for a in legal if a < NUM_CARDS]
        if DECLARE in legal:
            return DECLARE
        if cards and self.card_net is not None:
            v = self.card_values(info)
            return with_belote(info, max(v, key=lambda a: (v[a], -a)))
        if ANNOUNCE_BELOTE in legal:
            return ANNOUNCE_BELOTE
        if self.bid_net is not None and any(a in self.bid_actions for a in legal) and (
                self.game.auction_kind == "coinche" or all(a in BID_ACTIONS for a in legal)):
            v = self.bid_values(info)
            if v:
                return max(v, key=lambda a: (v[a], -a))
        return min(legal)

    def act(self, info: InfoSet) -> int:
        self.check_rules(info.rules)
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.card_net is not None and is_card_decision(info):
            v = self.card_values(info)
            best = max(v, key=lambda a: (v[a], -a))
            return with_belote(info, best)
        a = self._untrained_action(info)
        if a is not None:
            return a
        if self._bids_by_value(info):
            v = self.bid_values(info)
            return max(v, key=lambda a: (v[a], -a))
        if self.net is None:
            return self.rule_action(info)
        probs = self.action_probabilities(info)
        if self.deterministic:
            return max(legal, key=lambda a: (probs[a], -a))
        x, acc = self.rng.random(), 0.0
        for a in legal:
            acc += probs[a]
            if x < acc:
                return a
        return legal[-1]

    def act_batch(self, batch) -> np.ndarray:
        """The actions of a batch of seats (``belote_env.vector.SeatBatch``: ``obs``,
        ``mask``, ``infoset(i)``): int64 ``(len(batch),)``.

        With ``deterministic=True`` row ``i`` gets exactly ``act(batch.infoset(i))``: the
        rows are sorted into card decisions (``is_card_decision``: the card-value
        network, with the belote announcement of ``with_belote``), classic bidding
        decisions (``_bids_by_value``: the bid-value network), the declaration choice of a
        network never trained on it (``declares_by_rule``: declare) and the others (the policy
        network), from the masks and observations alone; each network then makes its rows'
        decisions in one batched pass (``policies.batch.network_outputs``: the 24 suit
        renamings of every row together, for the policy network too with
        ``policy_suit_average``: its averaged logits, ``policy_logits``). A row whose best
        action leads the next by less than ``BATCH_VALUE_MARGIN`` / ``BATCH_LOGIT_MARGIN``
        (relative to the best's size; an exact tie included) is decided again by ``act``
        on its ``InfoSet``: the batch's float32 rounding may differ from ``act``'s one-row
        pass, never by that much, so ties break as ``act`` breaks them (about 0.1% of the
        hard tier's decisions in random play).

        With ``deterministic=False`` the policy network's rows are sampled, in row order,
        from the policy's ``rng`` (one ``rng.random()`` a row, as ``act`` draws): the
        draws follow ``act``'s sequence, but an action is picked from probabilities
        computed in the batch, so a draw at the boundary between two actions may pick
        another one than ``act`` would (the value networks' rows are decided as above).
        torch's thread count (``torch.get_num_threads``) is the number of threads used.

        Raises ``ValueError`` for a row without a legal action or a mask / observation of
        the wrong shape.
        """
        from .batch import network_outputs

        mask = np.asarray(batch.mask) != 0
        m = len(mask)
        if not self.game.has_partners and self.deterministic:
            return self._act_batch_cutthroat(batch, mask)
        if self.game.auction_kind == "coinche" and self.net is None and self.deterministic:
            return self._act_batch_coinche(batch, mask)
        if self.contract_mode != "classic" or self.net is None:
            # value networks only, not deterministic: each row decided by act on its InfoSet (the same decisions)
            width = self._mask_width(mask)
            if mask.ndim != 2 or mask.shape[1] != width:
                raise ValueError(f"batch.mask must be ({m}, {width}), got {mask.shape}")
            out = np.zeros(m, dtype=np.int64)
            for i in range(m):
                if mask[i].sum() == 0:
                    raise ValueError(f"rows without a legal action: [{i}]")
                out[i] = mask[i].argmax() if mask[i].sum() == 1 else self.act(batch.infoset(i))
            return out
        out, todo = _forced_rows(mask)
        if not todo.any():
            return out
        obs_width = np.asarray(batch.obs).shape[-1]
        if obs_width != OBS_SIZE:
            raise RulesMismatchError(f"{self.name}: a classic model (observation of {OBS_SIZE} floats) got a batch of "
                                     f"{obs_width}-float observations (coinche rules?): load a model of those rules")
        obs = np.asarray(batch.obs)
        if obs.shape != (m, OBS_SIZE):
            raise ValueError(f"batch.obs must be ({m}, {OBS_SIZE}), got {obs.shape}")
        self._declare_rows(mask, todo, out)  # the declaration choice by the fixed rule (``declares_by_rule``)
        c0, c1, _ = _obs_blocks()
        contract = obs[:, c0:c1].any(1)
        threads = torch.get_num_threads()
        redo = self._card_rows_batched(obs, mask, todo, contract, out, threads)
        if self.bid_net is not None:
            allowed = np.zeros(NUM_ACTIONS, dtype=bool)
            allowed[list(self.bid_actions)] = True
            rows = np.flatnonzero(todo & ~contract & ~(mask & ~allowed).any(1))
            if len(rows):
                table = bid_permutation_table() if self.bid_suit_average else None
                width = len(BID_ACTIONS)
                compiled = self._compiled("bids", self.bid_net, _FIRST_BID, width, table)
                v = network_outputs(self.bid_net, obs[rows], _FIRST_BID, width, table, compiled, threads)
                best, close = _best_legal(v, mask[rows, _FIRST_BID:_FIRST_BID + width], BATCH_VALUE_MARGIN)
                out[rows] = _FIRST_BID + best
                redo.append(rows[close])
                todo[rows] = False
        rows = np.flatnonzero(todo)
        if len(rows):
            table = action_permutation_table() if self.policy_suit_average else None
            key = "policy-average" if self.policy_suit_average else "policy"
            compiled = self._compiled(key, self.net, 0, NUM_ACTIONS, table)
            logits = network_outputs(self.net, obs[rows], 0, NUM_ACTIONS, table, compiled, threads)
            legal = mask[rows]
            if self.deterministic:
                best, close = _best_legal(logits, legal, BATCH_LOGIT_MARGIN)
                out[rows] = best
                redo.append(rows[close])
            else:
                with torch.inference_mode():
                    p = torch.softmax(torch.from_numpy(logits).masked_fill(torch.from_numpy(~legal), float("-inf")),
                                      1).numpy().astype(np.float64)
                acc = np.cumsum(np.where(legal, p, 0.0), 1)
                x = np.array([self.rng.random() for _ in rows])
                hit = (acc > x[:, None]) & legal
                last = NUM_ACTIONS - 1 - legal[:, ::-1].argmax(1)
                out[rows] = np.where(hit.any(1), hit.argmax(1), last)
        if redo:
            for i in np.sort(np.concatenate(redo)).tolist():
                out[i] = self.act(batch.infoset(i))
        return out

    def deals_untrained(self, rules) -> bool:
        """At two and three seats, whether ``rules`` deal the cards otherwise than the rules
        the policy network was trained under (``three_player_deal``, TWO_THREE.md §4 A26; its
        ``meta.json`` ``rules``): its decisions other than the card play (the auction, the
        seven's exchange, the taker's discards, the combinations) are then ``normal``'s
        (``cutthroat_play.normal_cutthroat_act``). The shipped three-seat hard, trained under
        ``6+3``, took 2,360 contracts and made 35% of them under ``10_each`` (24 points a seat a
        deal below ``normal``); its card play with normal's other decisions is ahead of
        ``normal`` there (docs/results.md)."""
        trained = self.meta.get("rules")
        return (self.net is not None and not self.game.has_partners and isinstance(trained, dict)
                and "three_player_deal" in trained
                and trained["three_player_deal"] != getattr(rules, "three_player_deal", None))

    def _normal_decides(self, info: InfoSet) -> bool:
        """Whether ``normal`` makes this decision of a two- or three-seat policy network: one
        other than the card play under a deal the network was not trained on
        (``deals_untrained``), or one of the combinations' step (TWO_THREE.md §2.6: declare or
        decline, the dealer's answer enough / not enough / equal) under a declaration choice it
        was not trained on (``declares_by_rule``: left to the two-seat network the answers
        were at chance, 0.50 / 0.50)."""
        if self.game.has_partners or self.net is None:
            return False
        if self.declares_by_rule and getattr(info, "step", -1) == _DECLARE_STEP:
            return True
        return self.deals_untrained(info.rules) and not is_card_decision(info)

    def _untrained_action(self, info: InfoSet) -> int | None:
        """The fixed rule's action where the policy network never met the decision in training
        (its ``meta.json`` rules): ``normal``'s at two and three seats (``_normal_decides``),
        ``DECLARE`` at four (``declares_by_rule``, the declaration choice); None elsewhere (the
        networks decide). ``act`` and ``action_probabilities`` read it after the card
        decisions (a decision with ``DECLARE`` legal is never a card decision nor a bid)."""
        if self._normal_decides(info):
            from .cutthroat_play import normal_cutthroat_act

            return normal_cutthroat_act(info)
        if self.declares_by_rule and DECLARE in info.legal_actions:
            return DECLARE
        return None

    def _declare_rows(self, mask: np.ndarray, todo: np.ndarray, out: np.ndarray) -> None:
        """``act_batch``'s declaration choices where they are the fixed rule's
        (``declares_by_rule``): ``DECLARE`` written into ``out``, the rows cleared from ``todo``."""
        if self.declares_by_rule and mask.ndim == 2 and mask.shape[1] > DECLARE:
            rows = np.flatnonzero(todo & mask[:, DECLARE])
            out[rows] = DECLARE
            todo[rows] = False

    def _mask_width(self, mask: np.ndarray) -> int:
        """The width ``act_batch`` accepts for ``mask``: the game's number of actions, or
        for a coinche model also ``EXTENDED_NUM_ACTIONS`` (412: coinche rules with a
        générale or bids above 160, played with the ids the networks know: ``check_rules``)."""
        if self.game.auction_kind == "coinche" and mask.ndim == 2 and mask.shape[1] == EXTENDED_NUM_ACTIONS:
            return EXTENDED_NUM_ACTIONS
        return self.game.num_actions

    def _compiled(self, key: str, net: BeloteNet, first: int, width: int, table):
        """``act_batch``'s compiled network for ``key`` (``_BatchNets.get``; the cache is
        made on first use)."""
        if not hasattr(self, "_batch_nets"):
            self._batch_nets = _BatchNets()
        return self._batch_nets.get(key, net, first, width, table)

    def _card_rows_batched(self, obs: np.ndarray, mask: np.ndarray, todo: np.ndarray, contract: np.ndarray,
                           out: np.ndarray, threads: int) -> list[np.ndarray]:
        """``act_batch``'s card decisions (``is_card_decision``, from the masks and the
        contract block): the card-value network's best legal card for each such row of
        ``todo``, with the belote announcement of ``with_belote``, written into ``out``;
        those rows are cleared from ``todo``. Returns ``[rows]``: the rows within
        ``BATCH_VALUE_MARGIN`` of a tie, for ``act`` to decide again."""
        from .batch import network_outputs

        if self.card_net is None:
            return []
        hand0 = _obs_blocks()[2]
        others = mask[:, NUM_CARDS:].copy()
        others[:, ANNOUNCE_BELOTE - NUM_CARDS] = False
        rows = np.flatnonzero(todo & contract & (mask[:, :NUM_CARDS].sum(1) > 1) & ~others.any(1))
        if not len(rows):
            return []
        table = suit_permutation_tables()[1] if self.suit_average else None
        compiled = self._compiled("cards", self.card_net, 0, NUM_CARDS, table)
        v = network_outputs(self.card_net, obs[rows], 0, NUM_CARDS, table, compiled, threads)
        best, close = _best_legal(v, mask[rows, :NUM_CARDS], BATCH_VALUE_MARGIN)
        # with_belote: announce when legal and the card is the first of the hand's K+Q of a
        # belote suit (the trump; every suit at all-trump: the contract block's one-hot)
        suit, rank = best >> 3, best & 7
        qk = obs[rows[:, None], hand0 + 8 * suit[:, None] + np.array([5, 6])] > 0.5
        c0 = _obs_blocks()[0]
        belote_suit = (obs[rows, c0 + suit] > 0.5) | (obs[rows, c0 + ALL_TRUMP] > 0.5)
        announce = mask[rows, ANNOUNCE_BELOTE] & ((rank == 5) | (rank == 6)) & qk.all(1) & belote_suit
        out[rows] = np.where(announce, ANNOUNCE_BELOTE, best)
        todo[rows] = False
        return [rows[close]]

    def _act_batch_cutthroat(self, batch, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` at two and three seats (``CUTTHROAT_MODES``; deterministic): the
        decisions ``act`` gives to a network, each network's rows in one batched pass (the
        24 suit renamings averaged as ``act`` averages them): the card decisions
        (``is_card_decision`` of each row's ``InfoSet``) by the card-value network,
        with the belote claim of ``with_belote``, and the policy network's decisions
        (``policy_logits``). The rows within ``BATCH_VALUE_MARGIN`` / ``BATCH_LOGIT_MARGIN``
        of a tie, the bids a bid-value network values, the decisions ``normal`` makes for a
        network never trained on them (``_normal_decides``) and the decisions without a
        network (``rule_action``: the normal tier's) by ``act`` on their ``InfoSet``."""
        from .batch import network_outputs

        out, todo = _forced_rows(mask, self.game.num_actions)
        if not todo.any():
            return out
        threads = torch.get_num_threads()
        obs = None
        redo = []

        def observations() -> np.ndarray:
            o = np.asarray(batch.obs)
            if o.shape != (len(mask), self.obs_size):
                raise RulesMismatchError(f"{self.name}: a model of {self.obs_size}-float observations got a batch of "
                                         f"shape {o.shape}: load a model of those rules")
            return o

        infos = {i: batch.infoset(i) for i in np.flatnonzero(todo).tolist()}
        if self.card_net is not None:
            rows = np.array([i for i, info in infos.items() if is_card_decision(info)], dtype=np.int64)
            if len(rows):
                obs = observations()
                table = suit_permutation_tables()[1] if self.suit_average else None
                compiled = self._compiled("cards", self.card_net, 0, NUM_CARDS, table)
                v = network_outputs(self.card_net, obs[rows], 0, NUM_CARDS, table, compiled, threads)
                best, close = _best_legal(v, mask[rows, :NUM_CARDS], BATCH_VALUE_MARGIN)
                for r, b in zip(rows.tolist(), best.tolist()):
                    out[r] = with_belote(infos[r], b)
                todo[rows] = False
                redo.append(rows[close])
        # normal's decisions (``_normal_decides``) and the valued bids: act, row by row
        rows = np.array([i for i in np.flatnonzero(todo).tolist()
                         if self._normal_decides(infos[i]) or self._bids_by_value(infos[i])], dtype=np.int64)
        todo[rows] = False
        redo.append(rows)
        rows = np.flatnonzero(todo)
        if len(rows) and self.net is not None:
            obs = observations() if obs is None else obs
            table = action_permutation_table(self.game.num_actions) if self.policy_suit_average else None
            # torch (BLAS) rather than the compiled sparse kernel: 414 outputs per renaming, the
            # products dominate (4.1 s against 5.3 s for 500 two-seat sets of hard against normal)
            logits = network_outputs(self.net, obs[rows], 0, self.game.num_actions, table, None, threads)
            best, close = _best_legal(logits, mask[rows], BATCH_LOGIT_MARGIN)
            out[rows] = best
            todo[rows] = False
            redo.append(rows[close])
        redo.append(np.flatnonzero(todo))  # no network: rule_action
        for i in np.sort(np.concatenate(redo)).tolist():
            out[i] = self.act(infos[i] if i in infos else batch.infoset(i))
        return out

    def _act_batch_coinche(self, batch, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` of a coinche value-network policy (no policy network): the card
        decisions (``is_card_decision``) by the card-value network, the auction decisions
        (``is_coinche_bid_decision`` with a valued bid legal) by the bid-value network,
        each in one batched pass (``policies.batch.network_outputs``, the 24 suit renamings
        averaged as ``act`` averages them); the rows within ``BATCH_VALUE_MARGIN`` of a tie
        and the few other decisions (``rule_action``) by ``act`` on their ``InfoSet``."""
        from .batch import network_outputs

        m = len(mask)
        out, todo = _forced_rows(mask, self._mask_width(mask))
        if not todo.any():
            return out
        obs = np.asarray(batch.obs)
        if obs.shape != (m, COINCHE_OBS_SIZE):
            raise RulesMismatchError(f"{self.name}: a coinche model (observation of {COINCHE_OBS_SIZE} floats) got a "
                                     f"batch of shape {obs.shape}: load a model of those rules")
        c0, c1, _ = _obs_blocks()  # the classic blocks lead the coinche observation
        contract = obs[:, c0:c1].any(1)
        threads = torch.get_num_threads()
        redo = self._card_rows_batched(obs, mask, todo, contract, out, threads)
        if self.bid_net is not None:
            first, width = COINCHE_BID_ACTIONS[0], len(COINCHE_BID_ACTIONS)
            valued_rows, valued = coinche_bid_rows(obs, mask, self.bid_actions)
            rows = np.flatnonzero(todo & valued_rows)
            if len(rows):
                table = coinche_bid_permutation_table() if self.bid_suit_average else None
                compiled = self._compiled("bids", self.bid_net, first, width, table)
                v = network_outputs(self.bid_net, obs[rows], first, width, table, compiled, threads)
                best, close = _best_legal(v, (mask & valued)[rows, first:first + width], BATCH_VALUE_MARGIN)
                out[rows] = first + best
                redo.append(rows[close])
                todo[rows] = False
        redo.append(np.flatnonzero(todo))  # the other decisions: rule_action, row by row
        for i in np.sort(np.concatenate(redo)).tolist():
            out[i] = self.act(batch.infoset(i))
        return out


def _softmax(values: dict[int, float], temperature: float, legal, unit: float = 162.0) -> dict[int, float]:
    """Probabilities of the legal actions from values in units of ``unit`` points at a
    temperature in points (a legal action without a value gets 0)."""
    top = max(values.values())
    w = {a: float(np.exp((x - top) * unit / temperature)) for a, x in values.items()}
    z = sum(w.values())
    return {a: w.get(a, 0.0) / z for a in legal}


# ------------------------------------------------------------------ batched decisions
#: ``NetworkPolicy.act_batch`` takes a row's decision from its batched forward pass only
#: when the best legal action leads the next one by at least ``margin * max(1, |best|)``:
#: ``BATCH_VALUE_MARGIN`` for a value network's outputs (units of 162 points),
#: ``BATCH_LOGIT_MARGIN`` for the policy network's logits. The batch is computed in other
#: shapes and summation orders than ``act``'s one-row pass, so its outputs may differ in the
#: last float32 bits (measured on the hard tier's networks: at most 2e-7 for the values,
#: 4e-6 x max(1, |best|) for the logits); a closer row, an exact tie included, is decided
#: again by ``act`` on the row's ``InfoSet``, so the batch decides as ``act`` does.
BATCH_VALUE_MARGIN = 1e-5
BATCH_LOGIT_MARGIN = 1e-4


def _best_legal(values: np.ndarray, legal: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the column of the largest legal value (the lowest column among equals, as
    ``max(..., key=lambda a: (v[a], -a))``) and whether the next legal value is within
    ``margin * max(1, |largest|)`` of it (an exact tie included; False for a row with one
    legal column)."""
    v = np.where(legal, values.astype(np.float64), -np.inf)
    best = v.argmax(1)
    rows = np.arange(len(v))
    top = v[rows, best]
    v[rows, best] = -np.inf
    return best, top - v.max(1) < margin * np.maximum(1.0, np.abs(top))


def _forced_rows(mask: np.ndarray, width: int = NUM_ACTIONS) -> tuple[np.ndarray, np.ndarray]:
    """``act_batch``'s start: ``(out, todo)``, int64 ``out`` holding each row's first legal
    id (the action of a forced row) and bool ``todo`` its rows with a choice. Raises
    ``ValueError`` for a mask that is not ``(m, width)`` or a row without a legal
    action."""
    m = len(mask)
    if mask.ndim != 2 or mask.shape[1] != width:
        raise ValueError(f"batch.mask must be ({m}, {width}), got {mask.shape}")
    n_legal = mask.sum(1)
    if (n_legal == 0).any():
        raise ValueError(f"rows without a legal action: {np.flatnonzero(n_legal == 0)[:10].tolist()}")
    return mask.argmax(1).astype(np.int64), n_legal > 1


class _BatchNets:
    """``NetworkPolicy``'s compiled networks for ``act_batch`` (``policies.batch.CompiledNet``),
    rebuilt when a network's weights change (torch's version counters) or is replaced."""

    def __init__(self):
        self._built: dict[str, tuple[Any, Any]] = {}

    def get(self, key: str, net: BeloteNet, first: int, width: int, table):
        from .batch import CompiledNet

        stamp = (id(net), tuple((id(p), p._version) for p in net.parameters()))
        have = self._built.get(key)
        if have is None or have[0] != stamp:
            try:
                compiled = CompiledNet(net, first, width, table)
            except ValueError:  # not ReLU hidden layers: torch
                compiled = None
            have = self._built[key] = (stamp, compiled)
        return have[1]


_BLOCKS: tuple[int, int, int] | None = None


def coinche_bid_rows(obs: np.ndarray, mask: np.ndarray, bid_actions) -> tuple[np.ndarray, np.ndarray]:
    """The rows of a coinche batch whose decision a bid-value network values
    (``NetworkPolicy``'s batched rule): no contract yet (the observation's contract block all
    0), no legal action outside ``COINCHE_BID_ACTIONS`` and the extended bids (ids 112..411
    of a 412-wide mask), a legal bid among ``bid_actions``.

    Args: ``obs`` float32 ``(m, COINCHE_OBS_SIZE)``; ``mask`` bool ``(m, A)`` (``A`` >=
    112); ``bid_actions`` the ids the network values (``NetworkPolicy.bid_actions``).
    Returns ``(rows, valued)``: bool ``(m,)`` and bool ``(A,)`` (the valued ids)."""
    first, width = COINCHE_BID_ACTIONS[0], len(COINCHE_BID_ACTIONS)
    valued = np.zeros(mask.shape[1], dtype=bool)
    valued[list(bid_actions)] = True
    outside = np.ones(mask.shape[1], dtype=bool)
    outside[first:first + width] = False
    outside[GENERALE_BID:EXTENDED_NUM_ACTIONS] = False  # the extended bids (none in a 112-wide mask)
    c0, c1, _ = _obs_blocks()
    return ~obs[:, c0:c1].any(1) & ~(mask & outside).any(1) & (mask & valued).any(1), valued


def _obs_blocks() -> tuple[int, int, int]:
    """Observation columns ``act_batch`` reads: the contract block's first and end (all 0
    before a contract: ``info.contract is None``) and the hand block's first."""
    global _BLOCKS
    if _BLOCKS is None:
        from belote_env.observation import LAYOUT, OFFSET

        size = {b.name: b.size for b in LAYOUT}
        _BLOCKS = (OFFSET["contract"], OFFSET["contract"] + size["contract"], OFFSET["hand"])
    return _BLOCKS


__getattr__ = renamed_in(__name__, globals(), {
    "is_small_bid_decision": "is_proposal_bid_decision",
}, {
    "small_with_belote": ("policies.base.with_belote (every table)", lambda: with_belote)})
