"""``policies.team.Team``: two different policies as one side of a duplicate match."""

import numpy as np
import pytest

from belote_env import GameState, Rules
from belote_env.vector import BatchedGame, SeatBatch
from policies import make_policy
from policies.team import Team
from training.evaluate import duplicate_match


class _Lowest:
    def __init__(self, name):
        self.name, self.seats = name, []

    def act(self, info):
        self.seats.append(info.seat)
        return min(info.legal_actions)


def test_team_plays_lead_at_seats_0_and_1_and_partner_at_2_and_3():
    lead, partner = _Lowest("lead"), _Lowest("partner")
    team = Team(lead, partner)
    assert team.name == "lead+partner"
    st = GameState(Rules(target=None), seed=1, single_deal=True)
    while not st.is_deal_over:
        st.apply(team.act(st.information_set(st.current)))
    assert set(lead.seats) == {0, 1} and set(partner.seats) == {2, 3}
    g = BatchedGame(64, Rules(), seed=3)
    batch = SeatBatch(g, np.arange(64))
    lead.seats.clear(), partner.seats.clear()
    out = team.act_batch(batch)
    want = [min(np.flatnonzero(batch.mask[i])) for i in range(64)]
    assert out.tolist() == want
    assert sorted(lead.seats + partner.seats) == sorted(batch.seats.tolist())
    assert all(s < 2 for s in lead.seats) and all(s >= 2 for s in partner.seats)


def test_team_match_is_batched_as_unbatched_and_refuses_small_tables():
    """hard at the first seat and normal at the second against normal: the batched match
    equals the unbatched one (deterministic policies, same decks)."""
    def side():
        return Team(make_policy("hard", seed=0), make_policy("normal", seed=0))

    a = duplicate_match(side(), "normal", 12, seed=5, rules=Rules(target=None), batched=True)
    b = duplicate_match(side(), "normal", 12, seed=5, rules=Rules(target=None))
    assert (a.mean_diff, a.a_taken, a.a_made) == (b.mean_diff, b.a_taken, b.a_made)
    with pytest.raises(TypeError, match="no act"):
        Team(object(), make_policy("normal"))
    from belote_env.game import GameState
    from belote_env import load_rules

    st = GameState(load_rules("seed001_3p"), seed=0)
    with pytest.raises(ValueError, match="four-seat tables"):
        side().act(st.information_set(st.current))


def test_team_spec_lead_comma_partner_names_a_team(tmp_path, monkeypatch):
    """``make_policy("hard,normal")`` is ``Team(hard, normal)`` named by its spec; the
    match it plays is the one of the Team object (so ``belote eval hard,normal normal``
    and worker processes measure a partnership); a bad part, or a team at a table of
    two or three, is refused by name; an existing folder with a comma stays a folder."""
    from policies.registry import check_policy_spec, team_spec

    team = make_policy("hard,normal", seed=0)
    assert isinstance(team, Team) and team.name == "hard,normal"
    assert (team.lead.name, team.partner.name) == ("hard", "normal")
    rules = Rules()
    by_spec = duplicate_match("hard,normal", "normal", 20, seed=4, rules=rules, batched=True)
    by_obj = duplicate_match(Team(make_policy("hard", seed=0), make_policy("normal", seed=0)), "normal", 20, seed=4,
                             rules=rules, batched=True)
    assert by_spec.mean_diff == by_obj.mean_diff and by_spec.deals == by_obj.deals == 40
    with pytest.raises(ValueError, match="unknown policy 'nrmal'"):
        check_policy_spec("hard,nrmal")
    with pytest.raises(ValueError, match="is a team .* the 2-player game has no partners"):
        make_policy("hard,normal", rules=Rules(players=2))
    assert team_spec("hard,") is None and team_spec("a,b,c") is None
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x,y").mkdir()
    assert team_spec("x,y") is None
