"""Mana costs as the rules define them, case by case from the rules' own words and examples (2024-11-08 text):

* 107.4: the notation ({2}, {X}, hybrid {R/G}, colourless {C}); a cost prints back as it reads.
* 202.2: an object is the colours of the mana symbols in its cost (hybrid: both; {C} and generic: none).
* 202.3: mana value — "{3}{U}{U} translates to a mana value of 5", "{1}{W/U}{W/U} is 3"; {X} is 0 off the stack
  and its announced value on it (202.3e, 107.3a).
* 118.7a–d: cost reduction — generic by generic only; a coloured or colourless reduction the cost does not require
  reduces generic mana; beyond its colour, the rest comes off the generic part; never below {0} (118.7).
* 118.3/601.2h: paying — only with the resources needed, the whole cost and nothing less; coloured symbols take
  their colour, {C} only colourless, hybrid either half, generic any mana; a player who names the mana pays
  exactly the cost with it.
* 601.2f: the total cost adds the costs' parts (mana, tapping, life, loyalty, ...).

The engine's own card files (data/cards) are a second source: every mana cost printed on them reads back the same.
"""
from __future__ import annotations

import pytest

from engine.cards import CardDB
from engine.costs import (
    ZERO,
    Cost,
    CostSyntaxError,
    ManaCost,
    Requirement,
    describe,
    find_payment,
    parse_cost_string,
    pool_from,
    pool_str,
)


def mc(text: str) -> ManaCost:
    return ManaCost.parse(text)


def mana(w=0, u=0, b=0, r=0, g=0, c=0) -> list[int]:
    return [w, u, b, r, g, c]


@pytest.mark.parametrize("text, printed, parts", [
    ("{2}{B}{B}", "{2}{B}{B}", (2, mana(b=2), 0, ())),
    ("{X}{R}", "{X}{R}", (0, mana(r=1), 1, ())),
    ("{X}{X}{G}", "{X}{X}{G}", (0, mana(g=1), 2, ())),
    ("{G}{2}{R/G}", "{2}{R/G}{G}", (2, mana(g=1), 0, ("RG",))),     # printed in the usual order
    ("{W/U}{W/U}{1}", "{1}{W/U}{W/U}", (1, mana(), 0, ("WU", "WU"))),
    ("{2}{C}", "{2}{C}", (2, mana(c=1), 0, ())),
    ("{10}", "{10}", (10, mana(), 0, ())),
    ("{1}{1}", "{2}", (2, mana(), 0, ())),
    ("{2}{b}", "{2}{B}", (2, mana(b=1), 0, ())),                     # lower-case symbols
    (" {1} {G} ", "{1}{G}", (1, mana(g=1), 0, ())),
    ("{W}{U}{B}{R}{G}{C}", "{W}{U}{B}{R}{G}{C}", (0, [1] * 6, 0, ())),
    ("{0}", "{0}", (0, mana(), 0, ())),                              # 107.4d
    ("", "{0}", (0, mana(), 0, ())),
])
def test_the_notation_of_107_4_reads_and_prints(text, printed, parts):
    cost = mc(text)
    assert (cost.generic, list(cost.colored), cost.x, cost.hybrid) == parts
    assert str(cost) == printed and mc(printed) == cost


@pytest.mark.parametrize("text, message", [
    ("{P}", "unknown mana symbol {P} in '{P}'"),
    ("{W/P}", "unknown mana symbol {W/P} in '{W/P}'"),       # Phyrexian mana: not in the engine's notation
    ("{R/}", "unknown mana symbol {R/} in '{R/}'"),
    ("2{G}", "unexpected '2' in mana cost '2{G}'"),
    ("{G}x", "unexpected 'x' in mana cost '{G}x'"),
    ("{1} and {G}", "unexpected ' and ' in mana cost '{1} and {G}'"),
])
def test_a_cost_that_is_no_mana_cost_is_a_clear_error(text, message):
    with pytest.raises(CostSyntaxError) as e:
        mc(text)
    assert str(e.value) == message


def test_every_mana_cost_of_the_card_files_prints_as_it_reads():
    costs = [card.mana_cost for card in CardDB.load().cards.values()]
    assert len({str(c) for c in costs}) > 20
    for cost in costs:
        assert mc(str(cost)) == cost, str(cost)


@pytest.mark.parametrize("text, colours", [
    ("{2}{W}", {"W"}), ("{2}", set()), ("{2}{W}{B}", {"W", "B"}),          # 202.2a's example
    ("{R/G}", {"R", "G"}), ("{1}{W/U}{B}", {"W", "U", "B"}),                # 202.2d
    ("{2}{C}", set()), ("{X}{U}{U}", {"U"}), ("{0}", set()),
])
def test_an_object_is_the_colours_of_its_mana_symbols_202_2(text, colours):
    assert mc(text).colors() == frozenset(colours)


def test_mana_value_202_3():
    assert mc("{3}{U}{U}").mana_value() == 5                      # 202.3's example
    assert mc("{1}{W/U}{W/U}").mana_value() == 3                  # 202.3f's example
    assert mc("{2}{C}").amount == 3 and ZERO.mana_value() == 0
    # 202.3e: X is 0 off the stack, the announced number on it
    assert mc("{X}{R}").mana_value() == 1 and mc("{X}{R}").mana_value(3) == 4
    assert mc("{X}{X}{R}").mana_value(2) == 5


def test_x_replaced_by_its_announced_value_107_3():
    assert str(mc("{X}{X}{R}").with_x(3)) == "{6}{R}"
    assert str(mc("{X}{1}{R}").with_x(0)) == "{1}{R}"
    assert str(mc("{X}{R/G}").with_x(2)) == "{2}{R/G}"
    plain = mc("{1}{R}")
    assert plain.with_x(5) is plain


def test_hybrid_symbols_take_the_colours_announced_for_them_601_2b():
    cost = mc("{2}{R/G}{W/U}")
    assert str(cost.announced(("G",))) == "{2}{W/U}{G}"
    assert str(cost.announced(("G", "W"))) == "{2}{W}{G}"
    assert str(cost.announced(("R", "R"))) == "{2}{R}{R}"
    assert cost.announced(()) is cost


@pytest.mark.parametrize("cost, less, after", [
    ("{3}{G}", "{2}", "{1}{G}"),          # 118.7a: generic by generic
    ("{G}{G}", "{1}", "{G}{G}"),          # 118.7a: never the coloured part
    ("{2}{C}", "{1}", "{1}{C}"),          # 118.7a: nor the colourless part
    ("{2}{R}", "{G}", "{1}{R}"),          # 118.7b: a colour the cost does not require
    ("{2}", "{C}", "{1}"),                # 118.7b: colourless the cost does not require
    ("{2}{G}", "{G}", "{2}"),             # the colour it requires
    ("{3}{G}", "{G}{G}", "{2}"),          # 118.7c: beyond its green part, the rest off the generic part
    ("{1}{G}", "{G}{G}", "{0}"),
    ("{3}{C}", "{C}{C}", "{2}"),          # 118.7d
    ("{1}", "{3}", "{0}"),                # 118.7: reduced to nothing is {0}
    ("{W}{U}", "{W}{W}{U}", "{0}"),
    ("{X}{1}{R/G}", "{1}", "{X}{R/G}"),   # X and hybrid symbols stay
    ("{2}{B}{R}", "{B}{1}", "{1}{R}"),
])
def test_cost_reduction_118_7(cost, less, after):
    assert str(mc(cost).minus(mc(less))) == after


def test_costs_add_up_and_pad():
    assert str(mc("{1}{G}").plus(mc("{2}{G}"))) == "{3}{G}{G}"
    assert str(mc("{X}{R/G}").plus(mc("{X}{W/U}{B}"))) == "{X}{X}{R/G}{W/U}{B}"
    assert mc("{2}").plus(ZERO) == mc("{2}")
    # a cost that must be at least some amount of mana gets generic mana
    assert str(mc("{G}").pad_to(3)) == "{2}{G}" and str(mc("{R/G}{X}").pad_to(2)) == "{X}{1}{R/G}"
    assert mc("{3}{G}").pad_to(4) == mc("{3}{G}") and mc("{3}{G}").pad_to(2) == mc("{3}{G}")


def test_a_pool_is_written_as_mana_and_only_as_mana():
    assert pool_from("{B}{B}{C}") == mana(b=2, c=1)
    assert pool_from("{W}{U}{B}{R}{G}{C}") == [1] * 6 and pool_from("") == mana()
    assert pool_str(mana(b=2, c=1)) == "{B}{B}{C}" and pool_str(mana(w=1, g=2)) == "{W}{G}{G}"
    assert pool_str(mana()) == "empty"
    assert pool_str([1, 0, 2]) == "{W}{B}{B}"      # a shorter list, as a scenario may write it: the first types
    for text in ("{2}", "{X}", "{R/G}", "{1}{G}"):
        with pytest.raises(CostSyntaxError) as e:
            pool_from(text)
        assert str(e.value) == f"{text!r} is not a list of mana (use {{W}}{{U}}{{B}}{{R}}{{G}}{{C}})"


@pytest.mark.parametrize("cost, pool, paid", [
    ("{1}{G}", mana(r=1, g=1), mana(r=1, g=1)),         # green for {G}, red for {1}
    ("{2}", mana(r=2, c=1), mana(r=1, c=1)),            # generic: colourless first
    ("{2}", mana(w=1, u=3), mana(u=2)),                 # then the colour the pool holds most of
    ("{3}", mana(w=1, u=1, b=1), mana(w=1, u=1, b=1)),
    ("{R/G}", mana(r=1, g=2), mana(g=1)),               # hybrid: the half the pool holds more of
    ("{R/G}{R/G}", mana(r=1, g=1), mana(r=1, g=1)),
    ("{1}{R/G}", mana(r=1, g=1), mana(r=1, g=1)),
    ("{R/G}{R/G}", mana(r=2), mana(r=2)),               # both halves of one colour
    ("{R}{R/G}", mana(r=2, w=1), mana(r=2)),            # after {R}, red the pool holds more of than green
    # 107.4e: each hybrid symbol is paid with either colour, whatever the first choice: blue for {W/U}, so that
    # white is left for {W/B} (a choice of the colour the pool holds more of, a tie taken as white, fails)
    ("{W/U}{W/B}", mana(w=1, u=1), mana(w=1, u=1)),
    ("{W/U}{W/B}{U/B}", mana(w=1, u=1, b=1), mana(w=1, u=1, b=1)),
    ("{C}", mana(c=1, r=1), mana(c=1)),
    ("{0}", mana(), mana()),                            # 118.3a: players can always pay 0 mana
    ("{0}", mana(g=2), mana()),
    ("{B}{B}{1}", mana(b=3, g=2), mana(b=2, g=1)),      # (after {B}{B}: one black, two green left)
    ("{B}{B}{1}", mana(b=3, g=1), mana(b=3)),           # (a tie: the first in WUBRG order)
])
def test_the_engine_pays_a_cost_from_the_pool(cost, pool, paid):
    before = list(pool)
    assert find_payment(mc(cost), pool) == paid
    assert pool == before       # (the payment is returned, the pool left to the caller)


@pytest.mark.parametrize("cost, pool", [
    ("{G}{G}", mana(g=1, r=5)), ("{3}", mana(w=1, c=1)), ("{C}", mana(r=3)),   # 107.4c: {C} only colourless
    ("{R/G}", mana(w=3)), ("{R/G}{R/G}", mana(r=1)), ("{1}{R/G}", mana(g=1)), ("{1}", mana()),
    ("{W/U}{W/B}{U/B}", mana(w=2, r=1)), ("{W/U}{W/U}{W/U}", mana(w=1, u=1, g=3)),
])
def test_a_cost_the_pool_cannot_pay_is_not_paid_118_3(cost, pool):
    assert find_payment(mc(cost), pool) is None


@pytest.mark.parametrize("cost, pool, spend, paid", [
    ("{1}{G}", mana(r=1, g=2), mana(r=1, g=1), True),
    ("{1}{G}", mana(r=1, g=2), mana(g=2), True),            # green for the generic part too
    ("{1}{G}", mana(r=1, g=2), mana(r=1, g=2), False),      # more than the cost
    ("{1}{G}", mana(g=1), mana(g=1), False),                # less than the cost
    ("{G}", mana(r=1, g=1), mana(r=1), False),              # the wrong colour
    ("{G}", mana(g=1), mana(g=2), False),                   # more than the pool holds
    ("{2}", mana(c=2), mana(c=2), True),
    ("{C}", mana(r=1, c=1), mana(r=1), False),
    ("{R/G}{R/G}", mana(r=1, g=1), mana(r=1, g=1), True),
    ("{R/G}{W/U}", mana(u=1, r=1), mana(u=1, r=1), True),
    ("{W/U}{R/G}{R/G}", mana(w=1, r=1, g=1), mana(w=1, r=1, g=1), True),
    ("{R/G}", mana(w=2), mana(w=1), False),
    ("{W/U}{W/B}", mana(w=1, u=1), mana(w=1, u=1), True),   # 107.4e: blue for {W/U}, white for {W/B}
    ("{W/B}{W/U}", mana(w=1, u=1), mana(w=1, u=1), True),
    ("{W/U}{W/B}", mana(w=1, b=1), mana(w=1, b=1), True),
    ("{W/U}{W/B}", mana(u=1, b=1), mana(u=1, b=1), True),
    ("{W/U}{W/B}", mana(u=2), mana(u=2), False),            # {W/B} takes neither blue
    ("{W/U}{U/B}{B/W}", mana(w=1, u=1, b=1), mana(w=1, u=1, b=1), True),
    ("{2}{W/U}", mana(w=1, u=2), mana(u=3), False),        # more than the pool holds of blue
    ("{2}{W/U}", mana(w=1, u=2), mana(w=1, u=2), True),
])
def test_mana_the_player_names_pays_the_cost_exactly_601_2h(cost, pool, spend, paid):
    assert find_payment(mc(cost), pool, spend) == (spend if paid else None)


def test_a_total_cost_adds_every_part_601_2f():
    creature = Requirement(filter="creature")
    a = Cost(mana=mc("{1}{B}"), tap=True, sacrifice=(creature,), life=2, counters=(("-1/-1", 1),))
    b = Cost(mana=mc("{1}"), untap=True, discard=(Requirement(count=2),), life=3, loyalty=-2,
             counters=(("+1/+1", 2),))
    total = a.plus(b)
    assert total == Cost(mana=mc("{2}{B}"), tap=True, untap=True, sacrifice=(creature,),
                         discard=(Requirement(count=2),), life=5, loyalty=-2,
                         counters=(("-1/-1", 1), ("+1/+1", 2)))
    assert str(total) == "[-2], {2}{B}, {T}, {Q}, sacrifice 1, discard 2, pay 5 life, put 1 -1/-1, put 2 +1/+1"
    assert a.plus(Cost()) == a and Cost().plus(a) == a
    assert Cost(loyalty=1).plus(Cost(loyalty=-3)).loyalty == -2
    assert Cost(loyalty=0).plus(Cost()).loyalty == 0 and Cost().plus(Cost()).loyalty is None
    assert Cost(life="X").plus(Cost(mana=mc("{1}"))).life == "X"
    assert Cost(mana=mc("{1}")).plus(Cost(life="X")).life == "X"
    with pytest.raises(CostSyntaxError) as e:
        Cost(life="X").plus(Cost(life=2))
    assert str(e.value) == "two variable life costs"


def test_a_cost_prints_its_parts():
    assert str(Cost(loyalty=2)) == "[+2]" and str(Cost(loyalty=-1)) == "[-1]" and str(Cost(loyalty=0)) == "[0]"
    assert str(Cost(loyalty=0, mana=mc("{1}"))) == "[0], {1}"
    assert str(Cost(sacrifice=(Requirement(itself=True),))) == "sacrifice this"
    assert str(Cost(life=2)) == "pay 2 life" and str(Cost(mana=mc("{X}"), life="X")) == "{X}, pay X life"
    assert str(Cost(counters=(("-1/-1", 1),))) == "put 1 -1/-1"


@pytest.mark.parametrize("text, cost", [
    ("{2}{T}", Cost(mana=mc("{2}"), tap=True)),
    ("{1}, {T}", Cost(mana=mc("{1}"), tap=True)),
    ("{t}", Cost(tap=True)),
    ("{Q}", Cost(untap=True)),
    ("{G}{G}, {Q}", Cost(mana=mc("{G}{G}"), untap=True)),
    ("{TAP}", Cost(tap=True)), ("{UNTAP}", Cost(untap=True)), ("{ENTTAP}", Cost(untap=True)),
    ("", Cost()), ("{0}", Cost()),
])
def test_a_cost_written_as_text(text, cost):
    assert parse_cost_string(text) == cost


def test_a_cost_written_as_text_with_other_words_is_a_clear_error():
    with pytest.raises(CostSyntaxError) as e:
        parse_cost_string("{2} and {T}")
    assert str(e.value) == "unexpected 'and' in cost '{2} and {T}'"
    with pytest.raises(CostSyntaxError, match=r"unknown mana symbol \{P\}"):
        parse_cost_string("{P}, {T}")


def test_how_a_total_cost_came_about_reads_as_text():
    assert describe(("{} (mana cost)", "{2}{G}")) == "{2}{G} (mana cost)"
    assert describe(("+ {} ({})", "{1}", "Thalia")) == "+ {1} (Thalia)"
