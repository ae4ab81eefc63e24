"""Action costs: Money-or-Time alternatives, discounts, Any surcharge, affordability."""

from __future__ import annotations

from typing import NamedTuple

from rules.core.words import said
from rules.first_in_flight.board import spaces, time_available, time_target
from rules.first_in_flight.common import (
    VIA_PELTIER,
    at_use_abilities,
    has_mod,
    is_peltier,
    katharine_source,
    mod_sum,
    player,
    second_repair_source,
)
from rules.first_in_flight.data import Cost, ReduceCost, SpaceOption
from rules.first_in_flight.keys import Pay, format_key
from rules.first_in_flight.state import State, Step

UPGRADE_VALUES = 20  # at most this many X values for an Upgrade
PAY_MAX = 24  # payments offered in one step (plus Back: at most 25 actions)


class Payment(NamedTuple):
    """One way to pay: coins, Time Spaces, the card that reduced it, and the Upgrade X bought."""

    money: int
    time: int
    reducer: str = ""
    x: int = 0

    def as_key(self) -> Pay:
        """The typed action key of this payment."""
        return Pay(money=self.money, time=self.time, x=self.x, reducer=self.reducer)

    @property
    def key(self) -> str:
        """The action key's wire text."""
        return format_key(self.as_key())

    @property
    def label(self) -> str:
        """A readable description (with the Upgrade X bought, if any)."""
        if self.x:
            return said("X={x}: {cost}", x=self.x, cost=self.cost_text)
        return self.cost_text

    @property
    def cost_text(self) -> str:
        """What is paid, without the Upgrade X: 'Pay 2 Money (with …)' or 'Free'."""
        if not self.money and not self.time:
            text = said("Free")
        else:
            text = said("Pay {amount}", amount=self._amount())
        if self.reducer:
            return said("{cost} (with {card})", cost=text, card=_reducer_name(self.reducer))
        return text

    @property
    def cost_words(self) -> str:
        """`cost_text` inside a log line, in lower case: 'pay 2 money (with edith berg)'."""
        if not self.money and not self.time:
            text = said("free")
        elif self.money and self.time:
            text = said("pay {money} money + {time} time", money=self.money, time=self.time)
        elif self.money:
            text = said("pay {money} money", money=self.money)
        else:
            text = said("pay {time} time", time=self.time)
        if self.reducer:
            card = str(_reducer_name(self.reducer)).lower()  # a name, as the log always wrote it
            return said("{cost} (with {card})", cost=text, card=card)
        return text

    def _amount(self) -> str:
        """'2 Money + 1 Time', '2 Money', '1 Time'."""
        money = said("{n} Money", n=self.money) if self.money else ""
        time = said("{n} Time", n=self.time) if self.time else ""
        if money and time:
            return said("{money} + {time}", money=money, time=time)
        return money or time


def _reducer_name(reducer: str) -> str:
    """'Edith Berg', or 'Edith Berg (via Peltier)' when Peltier copies another's card."""
    card = reducer.removeprefix(VIA_PELTIER)
    # Friends who reduce costs are people: their names are said as they are, in every language
    name = card.replace("_", " ").title()
    return said("{card} (via Peltier)", card=name) if card != reducer else name


def target_option(state: State, step: Step) -> SpaceOption:
    """The option being taken: on the copied space for an Any Action, else on the space."""
    space = step.copied if step.copied >= 0 else step.space
    return spaces(state)[space].options[step.option]


def base_alternatives(
    state: State, seat: int, step: Step, opt: SpaceOption, pos: int
) -> list[Payment]:
    """Money and Time alternatives before Friend reductions (standing on `pos` for Time)."""
    surcharge = 0
    if step.copied >= 0 and step.via != "fame" and not has_mod(state, seat, "any_surcharge_waived"):
        surcharge = spaces(state)[step.space].options[0].amount
    extra_time = 1 if 1 in step.slots else 0  # the right Garage slot costs 1 more Time
    discount = mod_sum(state, seat, "space_discount", opt.action)
    if opt.action == "upgrade":
        # rulebook: any amount of Money or Time (minimum 2); beyond the deck size is pointless
        low = max(2, opt.amount)
        high = min(max(len(state.upgrade_deck), low), low + UPGRADE_VALUES - 1)
        high = min(high, _upgrade_reach(state, seat, pos, surcharge))
        xs = range(low, high + 1)
        alts = [Payment(x + surcharge, 0, "", x) for x in xs]
        return alts + [Payment(surcharge, x, "", x) for x in xs]
    return [Payment(m + surcharge, t + extra_time) for m, t in _cost_pairs(opt.cost, discount)]


def _upgrade_reach(state: State, seat: int, pos: int, surcharge: int) -> int:
    """The largest Upgrade X this seat could pay in Money or in Time (reductions included)."""
    cuts = [e for _, a in at_use_abilities(state, seat, ("pay",)) for e in a.effects]
    money_cut = max((e.money for e in cuts if isinstance(e, ReduceCost)), default=0)
    time_cut = max((e.time for e in cuts if isinstance(e, ReduceCost)), default=0)
    by_money = player(state, seat).coins - surcharge + money_cut
    by_time = time_available(state, pos) + time_cut
    return max(by_money, by_time)


def _cost_pairs(cost: Cost, discount: int) -> list[tuple[int, int]]:
    """(money, time) pairs a cost allows, each reduced by a standing discount."""
    m, t = cost.money, cost.time
    if cost.both:
        return [(max(0, (m or 0) - discount), max(0, (t or 0) - discount))]
    pairs = []
    if m is not None:
        pairs.append((max(0, m - discount), 0))
    if t is not None:
        pairs.append((0, max(0, t - discount)))
    return pairs or [(0, 0)]


def alternatives(state: State, seat: int, step: Step, pos: int) -> list[Payment]:
    """Every affordable payment for this step, standing on `pos` when Time is paid."""
    opt = target_option(state, step)
    out: list[Payment] = []
    reducers = at_use_abilities(state, seat, ("pay",))
    if _peltier_busy(state, seat, step):  # her one use already goes to Katharine or Bollée
        reducers = [(src, ab) for src, ab in reducers if not is_peltier(src)]
    for alt in base_alternatives(state, seat, step, opt, pos):
        variants = [alt]
        for src, ability in reducers:
            for eff in ability.effects:
                if isinstance(eff, ReduceCost) and eff.money and alt.money:
                    cut = min(eff.money, alt.money)
                    variants.append(Payment(alt.money - cut, alt.time, src, alt.x))
                if isinstance(eff, ReduceCost) and eff.time and alt.time:
                    cut = min(eff.time, alt.time)
                    variants.append(Payment(alt.money, alt.time - cut, src, alt.x))
        out += [v for v in variants if is_affordable(state, seat, v, pos)]
    out = list(dict.fromkeys(out))
    while len(out) > PAY_MAX and opt.action == "upgrade":  # a wide Upgrade: drop its largest X
        top = max(p.x for p in out)
        out = [p for p in out if p.x != top]
    return out


def _peltier_busy(state: State, seat: int, step: Step) -> bool:
    """True when this action already spends Peltier's use (Katharine or Bollée via Peltier)."""
    if step.via == "katharine" and is_peltier(katharine_source(state, seat)):
        return True
    return step.slots == (0, 1) and is_peltier(second_repair_source(state, seat))


def is_affordable(state: State, seat: int, pay: Payment, pos: int) -> bool:
    """Enough coins, and the Time does not pass the Year's last Time Space."""
    return pay.money <= player(state, seat).coins and time_target(state, pos, pay.time) is not None


def upgrade_looks(state: State, seat: int, x: int) -> int:
    """How many Upgrade cards an Upgrade paying X looks at (Curtiss, Wind Tunnel, Langley)."""
    extra = mod_sum(state, seat, "upgrade_look") + mod_sum(state, seat, "upgrade_discount")
    return x + extra + mod_sum(state, seat, "gain_look")
