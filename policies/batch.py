"""Policies that decide for a batch of tables at once (``belote_env.vector``).

A **batched policy** has ``act_batch(batch) -> actions``: ``batch`` a
``belote_env.vector.SeatBatch`` (the seats to act at some tables of a ``BatchedGame``:
their observations, masks and, row by row, their ``InfoSet``), ``actions`` an int64
``(len(batch),)`` array of legal ids, one a row.

* ``as_batch_policy(policy)``: ``policy`` itself when it has ``act_batch``
  (``policies.network.NetworkPolicy``, and so the hard tier: its networks decide every row
  in a few forward passes), else an adapter calling ``policy.act(batch.infoset(i))`` row
  by row (the rule-based tiers ``easy`` / ``normal``, ``random``, a user's policy).
* ``policies.make_batch_policy(spec, seed)`` (``policies.registry``): the same from a tier
  name, model folder or factory.

The networks' batched forward pass (``network_outputs``): a network whose hidden layers are
ReLU runs in a compiled kernel (numba) that skips the zero inputs of every layer (an
observation has about 90 non-zero entries of 618; after the ReLU about 3% of the card
network's hidden units are non-zero), with the average over the 24 suit renamings of the
value networks done by renaming the first layer's columns instead of the observations:
the outputs are those of ``NetworkPolicy``'s one-row pass up to float32 rounding (the
policy re-decides the rare rows where that rounding could matter,
``policies.network.BATCH_TIE_MARGIN``). Other networks (tanh, no hidden layer) run in
torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import numba as nb
import numpy as np

from belote_env.cards import NUM_SUITS
from belote_env.deprecation import deprecated_names

__all__ = ["as_batch_policy", "LoopBatchPolicy", "network_outputs", "outputs_by_renaming", "head_outputs",
           "CompiledNet", "suit_orbits"]


class LoopBatchPolicy:
    """A batched policy from any policy with ``act(info)``: row ``i``'s action is
    ``policy.act(batch.infoset(i))``, rows in order (so a policy drawing random numbers
    draws them in row order). ``name`` and ``policy`` are the wrapped policy's."""

    def __init__(self, policy: Any):
        if not callable(getattr(policy, "act", None)):
            raise TypeError(f"{policy!r} is not a policy: it has no act(info) method")
        self.policy = policy
        self.name = getattr(policy, "name", type(policy).__name__)

    def act_batch(self, batch) -> np.ndarray:
        """Row ``i``'s action ``policy.act(batch.infoset(i))``, int64 ``(len(batch),)``.

        Raises ``TypeError`` for an action that is not an int (a float, a string, a bool:
        never cast); an exception raised by the policy, or that one, carries the row as
        ``batch_row`` (the match records that row's position)."""
        act = self.policy.act
        out = np.empty(len(batch), dtype=np.int64)
        for i in range(len(batch)):
            try:
                a = act(batch.infoset(i))
                if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
                    raise TypeError(f"policy {self.name!r} returned {a!r} ({type(a).__name__}), not an int action id")
                out[i] = a
            except Exception as e:
                try:
                    e.batch_row = i
                except AttributeError:  # an exception type without attributes: the row is not kept
                    pass
                raise
        return out

    def act(self, info) -> int:
        return self.policy.act(info)

    def __repr__(self) -> str:
        return f"LoopBatchPolicy({self.policy!r})"


def as_batch_policy(policy: Any):
    """``policy`` when it has a callable ``act_batch``, else ``LoopBatchPolicy(policy)``.
    Raises ``TypeError`` for an object with neither ``act_batch`` nor ``act``."""
    if callable(getattr(policy, "act_batch", None)):
        return policy
    return LoopBatchPolicy(policy)


# ------------------------------------------------------------------ suit renamings
_ORBITS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def suit_orbits(size: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How the 24 suit renamings (``policies.symmetry.suit_permutation_tables(size)``) move
    the columns of an observation of ``size`` floats (default the classic ``OBS_SIZE``;
    ``COINCHE_OBS_SIZE`` for coinche): ``(fixed, cols, pick)``.

    ``fixed``: the columns no renaming moves; ``cols`` ``(4, L)``: the others, ``cols[s,
    o]`` the member for suit ``s`` of orbit ``o`` (each orbit holds one column per suit: a
    card, suit or contract-suit entry of some block); ``pick`` ``(24, 4)``: renamed
    observation ``p`` holds, at the columns of suit ``t``, the observation's columns of
    suit ``pick[p, t]`` of the same orbits (``obs[po[p]][cols[t]] == obs[cols[pick[p,
    t]]]``). Checked when built (``AssertionError`` if the renamings do not act so)."""
    from belote_env.observation import OBS_SIZE

    size = OBS_SIZE if size is None else size
    if size not in _ORBITS:
        from .symmetry import suit_permutation_tables

        po = suit_permutation_tables(size)[0].numpy()
        n = po.shape[1]
        orbit = [tuple(sorted(set(po[:, i].tolist()))) for i in range(n)]
        fixed = np.array([i for i in range(n) if len(orbit[i]) == 1], dtype=np.int64)
        groups = sorted({o for o in orbit if len(o) > 1})
        assert all(len(o) == 4 for o in groups) and len(fixed) + 4 * len(groups) == n
        cols = np.ascontiguousarray(np.array(groups, dtype=np.int64).T)  # members sorted: suit order
        where = {int(c): (o, s) for s in range(NUM_SUITS) for o, c in enumerate(cols[s])}
        pick = np.empty((po.shape[0], 4), dtype=np.int64)
        for p in range(po.shape[0]):
            for t in range(NUM_SUITS):
                src = {where[int(po[p, c])] for c in cols[t]}
                suits = {s for _, s in src}
                assert len(suits) == 1 and {o for o, _ in src} == set(range(cols.shape[1]))
                assert all(where[int(po[p, c])][0] == o for o, c in enumerate(cols[t]))
                pick[p, t] = suits.pop()
        _ORBITS[size] = fixed, cols, pick
    return _ORBITS[size]


# ------------------------------------------------------------------ compiled forward pass
@nb.njit(cache=True, nogil=True, fastmath={"contract"})
def _axpy(y, a, x):
    """``y += a * x`` (1-D float32, same length)."""
    for j in range(y.shape[0]):
        y[j] += a * x[j]


@nb.njit(cache=True, nogil=True)
def _relu_nonzero(h, nz):
    """Indices of ``h``'s positive entries into ``nz``; returns their count (the other
    entries are read as 0: ReLU)."""
    n = 0
    for j in range(h.shape[0]):
        if h[j] > 0:
            nz[n] = j
            n += 1
    return n


@nb.njit(cache=True, nogil=True, fastmath={"contract"})
def _relu_mlp_kernel(obs, fixed, cols, w_fixed, w_orb, b1, combo_s, combo_t, comb, hw, hb, hspan, hdims, w_out,
                     b_out, out):
    """``out[i]`` = the average over renamings ``p`` of the network's outputs for
    ``obs[i]`` renamed by ``p`` (ReLU hidden layers), skipping zero inputs everywhere.

    Layer 1 of renaming ``p``: ``b1 + w_fixed . obs[fixed] + sum_t prod[comb[p, t]]``,
    ``prod[k] = w_orb[combo_t[k]] . obs[cols[combo_s[k]]]`` (each made once per row).
    Hidden layers 2.. (``hdims``: their sizes, input size first): weights transposed
    ``(in, out)`` one after the other in ``hw``, biases in ``hb``; ``hspan[k]`` ``(lo,
    hi)``: the non-zero columns of ``hw``'s ``k``-th row (all rows of all those layers in
    order) lie in ``[lo, hi)`` (a blend of two networks, ``training.blend.blend_nets``, is
    block-diagonal there: each unit feeds half the next layer). The output layer of
    renaming ``p`` is ``w_out[p]`` ``(H, W)`` (renamed outputs); ``b_out`` is the sum of
    the renamings' biases."""
    m = obs.shape[0]
    n_orb = cols.shape[1]
    h1 = b1.shape[0]
    hmax = h1
    for d in hdims:
        hmax = max(hmax, d)
    n_combo = combo_s.shape[0]
    n_perm = comb.shape[0]
    width = out.shape[1]
    prod = np.empty((n_combo, h1), dtype=np.float32)
    base = np.empty(h1, dtype=np.float32)
    h = np.empty(hmax, dtype=np.float32)
    hn = np.empty(hmax, dtype=np.float32)
    nz = np.empty(hmax, dtype=np.int64)
    nz_o = np.empty((4, n_orb), dtype=np.int64)
    nz_v = np.empty((4, n_orb), dtype=np.float32)
    n_nz = np.zeros(4, dtype=np.int64)
    acc = np.empty(width, dtype=np.float32)
    n_layers = hdims.shape[0] - 1
    for i in range(m):
        x = obs[i]
        base[:] = b1
        for f in range(fixed.shape[0]):
            v = x[fixed[f]]
            if v != 0:
                _axpy(base, v, w_fixed[f])
        for s in range(NUM_SUITS):
            c = 0
            for o in range(n_orb):
                v = x[cols[s, o]]
                if v != 0:
                    nz_o[s, c] = o
                    nz_v[s, c] = v
                    c += 1
            n_nz[s] = c
        for k in range(n_combo):
            s, t = combo_s[k], combo_t[k]
            pk = prod[k]
            pk[:] = 0.0
            for c in range(n_nz[s]):
                _axpy(pk, nz_v[s, c], w_orb[t, nz_o[s, c]])
        acc[:] = 0.0
        for p in range(n_perm):
            p0, p1, p2, p3 = prod[comb[p, 0]], prod[comb[p, 1]], prod[comb[p, 2]], prod[comb[p, 3]]
            hv = h[:h1]
            for j in range(h1):
                hv[j] = base[j] + p0[j] + p1[j] + p2[j] + p3[j]
            n = _relu_nonzero(hv, nz)
            w_at = 0
            b_at = 0
            r_at = 0
            x_in, x_out = h, hn
            for layer in range(n_layers):
                d_in, d_out = hdims[layer], hdims[layer + 1]
                y_out = x_out[:d_out]
                y_out[:] = hb[b_at:b_at + d_out]
                for c in range(n):
                    j = nz[c]
                    lo, hi = hspan[r_at + j, 0], hspan[r_at + j, 1]
                    _axpy(y_out[lo:hi], x_in[j], hw[w_at + j * d_out + lo:w_at + j * d_out + hi])
                w_at += d_in * d_out
                b_at += d_out
                r_at += d_in
                n = _relu_nonzero(y_out, nz)
                x_in, x_out = x_out, x_in
            wp = w_out[p]
            for c in range(n):
                j = nz[c]
                _axpy(acc, x_in[j], wp[j])
        for a in range(width):
            out[i, a] = (acc[a] + b_out[a]) / n_perm


class CompiledNet:
    """A ``BeloteNet``'s policy-head outputs ``first .. first + width - 1`` for a batch of
    observations, in the compiled kernel, optionally averaged over the 24 suit renamings as
    ``NetworkPolicy._value_outputs`` averages them (``table``: how each renaming permutes
    the outputs, ``suit_permutation_tables()[1]`` or ``bid_permutation_table()``; ``None``:
    no average). Needs ReLU hidden layers (at least one); raises ``ValueError`` otherwise.
    The weights are copied when it is built: rebuild it after changing them
    (``NetworkPolicy`` does, by the parameters' version counters)."""

    def __init__(self, net, first: int, width: int, table=None):
        import torch
        from torch import nn

        layers = list(net.mlp_extractor.policy_net)
        linears = layers[0::2]
        if (not layers or len(layers) % 2 or not all(isinstance(x, nn.Linear) for x in linears)
                or not all(isinstance(x, nn.ReLU) for x in layers[1::2])):
            raise ValueError("the compiled forward pass needs ReLU hidden layers")
        with torch.no_grad():
            w1 = linears[0].weight.detach().float().cpu().numpy()  # (H1, OBS)
            fixed, cols, pick = suit_orbits(w1.shape[1])
            if table is None:
                pick = np.arange(4, dtype=np.int64)[None, :]  # no renaming
            self.fixed, self.cols = fixed, cols
            self.w_fixed = np.ascontiguousarray(w1[:, fixed].T)
            self.w_orb = np.ascontiguousarray(np.stack([w1[:, cols[t]].T for t in range(NUM_SUITS)]))  # (4, L, H1)
            self.b1 = linears[0].bias.detach().float().cpu().numpy().copy()
            combos = sorted({(int(pick[p, t]), t) for p in range(pick.shape[0]) for t in range(NUM_SUITS)})
            index = {c: k for k, c in enumerate(combos)}
            self.combo_s = np.array([s for s, _ in combos], dtype=np.int64)
            self.combo_t = np.array([t for _, t in combos], dtype=np.int64)
            self.comb = np.array([[index[(int(pick[p, t]), t)] for t in range(NUM_SUITS)] for p in range(pick.shape[0])],
                                 dtype=np.int64)
            hid = linears[1:]
            self.hdims = np.array([w1.shape[0]] + [x.out_features for x in hid], dtype=np.int64)
            self.hw = np.concatenate([x.weight.detach().float().cpu().numpy().T.reshape(-1) for x in hid]
                                     + [np.zeros(0, np.float32)]).astype(np.float32)
            self.hb = np.concatenate([x.bias.detach().float().cpu().numpy() for x in hid]
                                     + [np.zeros(0, np.float32)]).astype(np.float32)
            self.hspan = np.zeros((int(sum(x.in_features for x in hid)), 2), dtype=np.int64)
            at = 0
            for x in hid:  # each input unit's non-zero weights: columns [lo, hi) of its row
                nzw = x.weight.detach().float().cpu().numpy().T != 0  # (in, out)
                some = nzw.any(1)
                self.hspan[at:at + len(nzw), 0] = np.where(some, nzw.argmax(1), 0)
                self.hspan[at:at + len(nzw), 1] = np.where(some, nzw.shape[1] - nzw[:, ::-1].argmax(1), 0)
                at += len(nzw)
            w3 = net.action_net.weight.detach().float().cpu().numpy()  # (A, H)
            b3 = net.action_net.bias.detach().float().cpu().numpy()
            if table is None:
                inv = np.arange(width, dtype=np.int64)[None, :]
            else:
                t = np.asarray(table.cpu() if hasattr(table, "cpu") else table, dtype=np.int64)
                inv = np.empty_like(t)  # renaming p's output a is its output j with table[p, j] == a
                np.put_along_axis(inv, t, np.broadcast_to(np.arange(width), t.shape), 1)
            self.w_out = np.ascontiguousarray(np.stack([w3[first + inv[p]].T for p in range(inv.shape[0])]))
            self.b_out = np.stack([b3[first + inv[p]] for p in range(inv.shape[0])]).sum(0, dtype=np.float32)
        self.width = width
        self.obs_size = w1.shape[1]

    def __call__(self, obs: np.ndarray, threads: int = 1) -> np.ndarray:
        """float32 ``(m, OBS_SIZE)`` -> float32 ``(m, width)``; ``threads`` > 1 splits the
        rows over that many threads (the kernel releases the GIL)."""
        obs = np.ascontiguousarray(obs[:, :self.obs_size], dtype=np.float32)
        m = obs.shape[0]
        out = np.empty((m, self.width), dtype=np.float32)
        threads = max(1, min(int(threads), m // 16))
        if threads == 1:
            self._run(obs, out)
            return out
        from concurrent.futures import ThreadPoolExecutor

        cuts = np.linspace(0, m, threads + 1).astype(int)
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda k: self._run(obs[cuts[k]:cuts[k + 1]], out[cuts[k]:cuts[k + 1]]), range(threads)))
        return out

    def _run(self, obs: np.ndarray, out: np.ndarray) -> None:
        _relu_mlp_kernel(obs, self.fixed, self.cols, self.w_fixed, self.w_orb, self.b1, self.combo_s, self.combo_t,
                         self.comb, self.hw, self.hb, self.hspan, self.hdims, self.w_out, self.b_out, out)


def _by_suit_outputs(net, x, first: int, width: int, table):
    """Outputs ``first .. first + width - 1`` of ``net``'s policy head averaged over the 24
    suit renamings of each row of ``x`` (float32 tensor ``(m, OBS_SIZE)``), computed by
    suit blocks: the first layer of renaming ``p`` is the fixed columns' product plus four
    of the 16 products (observation suit ``s``, weight suit ``t``) that ``suit_orbits``
    names (``pick[p, t] == s``), so the first layer costs 16 products of one suit's
    columns instead of 24 of the whole observation; the output layer computes only the
    ``width`` outputs wanted. Equal to renaming the observations (up to float rounding)."""
    import torch

    layers = list(net.mlp_extractor.policy_net)
    fixed, cols, pick = suit_orbits(layers[0].in_features)
    out_layer = net.action_net
    params = list(net.parameters())
    with torch.no_grad():  # versions miss some writes (fused Adam, .data): the sums catch them
        key = (first, width, tuple(id(p) for p in params), tuple(p.data_ptr() for p in params),
               tuple(p._version for p in params), tuple(float(p.sum()) for p in params))
    cached = getattr(net, "_by_suit_cache", None)
    if cached is None or cached[0] != key:  # the weights' blocks, rebuilt when the weights change
        with torch.no_grad():
            w1 = layers[0].weight.detach()
            fixed_t = torch.from_numpy(fixed)
            w_fixed = w1[:, fixed_t].t().contiguous()  # (F, H)
            w_suits = torch.cat([w1[:, torch.from_numpy(cols[t])].t() for t in range(NUM_SUITS)], 1).contiguous()
            comb = torch.zeros(pick.shape[0], NUM_SUITS * NUM_SUITS)  # renaming p sums 4 of the 16 products
            comb[np.repeat(np.arange(pick.shape[0]), NUM_SUITS), (pick * NUM_SUITS + np.arange(NUM_SUITS)).reshape(-1)] = 1.0
            blocks = (fixed_t, torch.from_numpy(cols.reshape(-1)), w_fixed, layers[0].bias.detach().clone(), w_suits,
                      comb, out_layer.weight.detach()[first:first + width].clone(),
                      out_layer.bias.detach()[first:first + width].clone())
        net._by_suit_cache = cached = (key, blocks)
    fixed_t, cols_t, w_fixed, b1, w_suits, comb, w_out, b_out = cached[1]
    n_perm, h, m = comb.shape[0], w_fixed.shape[1], x.shape[0]
    base = torch.addmm(b1, x[:, fixed_t], w_fixed)  # (m, H)
    prod = torch.mm(x[:, cols_t].reshape(m * NUM_SUITS, cols.shape[1]), w_suits)
    prod = prod.view(m, NUM_SUITS * NUM_SUITS, h)  # row s * 4 + t: suit s of the row by weight suit t
    h1 = torch.matmul(comb, prod) + base.unsqueeze(1)  # (m, 24, H)
    z = h1.view(m * n_perm, h)
    for layer in layers[1:]:
        z = layer(z)
    out = torch.nn.functional.linear(z, w_out, b_out).float()  # averaged in float32 (bfloat16 would tie bids)
    out = out.view(m, n_perm, width)
    return torch.empty_like(out).scatter_(2, table.expand(m, -1, -1), out).mean(1)


def network_outputs(net, obs: np.ndarray, first: int, width: int, table=None, compiled: CompiledNet | None = None,
                    threads: int = 1, bf16: bool = False) -> np.ndarray:
    """Outputs ``first .. first + width - 1`` of ``net``'s policy head for each row of
    ``obs`` (float32 ``(m, OBS_SIZE)``), averaged over the 24 suit renamings when
    ``table`` is given (see ``CompiledNet``): with ``compiled`` (a ``CompiledNet`` of that
    network) in the compiled kernel, else in torch (the average by suit blocks,
    ``_by_suit_outputs``), its matrix products in bfloat16 under ``torch.autocast`` when
    ``bf16``. Returns float32 ``(m, width)``."""
    if compiled is not None:
        return compiled(obs, threads)
    import contextlib

    import torch

    cast = torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()
    with torch.inference_mode(), cast:
        x = torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32))
        if table is None:
            return net.logits(x)[:, first:first + width].float().numpy()
        layers = list(net.mlp_extractor.policy_net)
        if layers and isinstance(layers[0], torch.nn.Linear):
            return _by_suit_outputs(net, x[:, :net.obs_size], first, width, table).float().numpy()
        return outputs_by_renaming(net, x, first, width, table).float().numpy()  # no hidden layer


def head_outputs(net, x, first: int, width: int):
    """Outputs ``first .. first + width - 1`` of ``net``'s policy head (a ``BeloteNet``) for
    the rows of ``x`` (float tensor ``(m, >= net.obs_size)``), the output layer computed only
    for those: a ``(m, width)`` tensor in the computation's dtype (bfloat16 under autocast)."""
    import torch

    head = net.action_net
    h = net.mlp_extractor.policy_net(x[:, :net.obs_size])
    return torch.nn.functional.linear(h, head.weight[first:first + width], head.bias[first:first + width])


def outputs_by_renaming(net, x, first: int, width: int, table, po=None):
    """Outputs ``first .. first + width - 1`` of ``net``'s policy head averaged over suit
    renamings the plain way: each row of ``x`` (float32 tensor ``(m, >= OBS_SIZE)``)
    renamed by each row of ``po`` (observation index ``(k, size)`` int64; default all 24
    renamings of the classic observation, ``suit_permutation_tables()``), the whole network
    run on the ``k m`` rows (the output layer only for the ``width`` outputs wanted), each
    renaming's outputs mapped back by ``table`` (``(k, width)`` int64) and averaged in
    float32. Returns a float32 ``(m, width)`` tensor. ``network_outputs`` computes the 24
    renamings' average by suit blocks when the network has a hidden layer;
    ``training.rollouts.ValuePlayer`` averages over a subset of them here."""
    if po is None:
        from .symmetry import suit_permutation_tables

        po, _ = suit_permutation_tables()
    m, k = x.shape[0], po.shape[0]
    out = head_outputs(net, x[:, po].reshape(m * k, -1), first, width).float().view(m, k, width)
    return out.new_empty(out.shape).scatter_(2, table.expand(m, -1, -1), out).mean(1)


#: Deprecated alias for one release: ``make_batch_policy`` moved to ``policies.registry``.
__getattr__ = deprecated_names(__name__, {"make_batch_policy": (
    "policies.make_batch_policy (policies.registry)", lambda: import_module("policies.registry").make_batch_policy)})
