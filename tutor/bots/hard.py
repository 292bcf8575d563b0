"""The hard level (RULES §10): medium, plus card counting, endgame technique and search.

On top of :class:`~tutor.bots.medium.MediumBot` it

* **plays as a real team**: feeds a partner who is down to one or two cards
  (RULES §11), spends more as the last farmer able to stop the landlord, meets
  an opponent about to go out with its highest card and keeps pairs away from
  an opponent holding two;
* **counts cards**: what the opponents may hold is the unseen cards (deck −
  own hand − every play), not "everything I do not hold"; kitty cards the
  landlord has not played are known to be in its hand; and passes made when
  passing was dangerous reveal what a player cannot beat
  (:func:`tutor.bots.counting.pass_limits`);
* **plays what nobody can beat first in the endgame**: when all but one of its
  planned groups are bosses it cashes them, keeping the lead, and finishes
  with the last one;
* **bombs to finish**: a bomb or the rocket that leaves at most one more play
  (or only bosses and one play) is played at once, partner or not;
* **looks ahead by rollouts**: it tries its heuristic choice and a few
  alternatives on sampled deals, letting medium-level players finish each
  game, and keeps the move that wins most (:mod:`tutor.bots.rollout`);
* **plays out its early decisions**: from the first play down to the search's
  horizon, each candidate is played out on 64 sampled deals (a farmer's on
  256, counting the team's win) by the compiled quick policy (the simulated
  opponents may play one of its variants instead,
  :attr:`HardBot.landlord_playout_opponents`: the landlord's chooses it
  from how the farmers have played so far, :mod:`tutor.bots.opponent_model`), and an
  alternative replaces the heuristic's choice only when it wins clearly more
  of the same deals (:func:`tutor.bots.rollout.best_by_playouts`; docs/bots.md
  measures it);
* **reads how the others played**: each sampled deal is nudged, card swap by
  card swap, towards one in which a sensible player would have made the
  others' past plays (:func:`tutor.bots.sampling.likely_samples`) — what a
  player led, answered or passed says what it holds;
* **searches the endgame**: when few cards remain it samples hidden hands
  consistent with its view (:mod:`tutor.bots.sampling`), solves each sample
  exactly with the solver under a node budget, and plays the move that wins in
  the most samples (determinized search).

Every look-ahead is bounded by counts, never by the clock, so the same view
gives the same move on an idle and on a busy machine (docs/api.md lists the
budgets and what they cost): 6 sampled deals solved with at most 4,000 solver
nodes each (fresh tables every decision); 10 rolled-out deals nudged by at
most 8 card swaps each, 4 candidates, at most
:attr:`HardBot.rollout_effort` model decisions in all; the landlord's 64
(a farmer's 256) played-out deals, 4 candidates; and no rollouts or play-outs after a search
that spent :attr:`HardBot.rollout_after_nodes` nodes or more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tutor.bots.base import Seats, check_turn, is_bomb, turn_rng
from tutor.bots.counting import unseen_packed
from tutor.bots.effort import Effort
from tutor.bots.medium import MediumBot, lead_key
from tutor.bots.planner import group_value, plan_packed
from tutor.bots.sampling import Filter, Weighting
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.rules import Rules
from tutor.engine.view import PlayerView
from tutor.engine.facts import can_show_hand, is_boss, whole_hand_play

if TYPE_CHECKING:
    from tutor.bots.control import ControlPlan
    from tutor.bots.rollout import Mixture, PlayoutObserver
    from tutor.solver import Solver


#: The suffix of a play-out policy played only once the opponents read as a simpler model (:meth:`HardBot.playout_policy`).
READ = "-read"
#: The model the play-outs' opponents play under a "gate" setting while they keep the rule agent's habits (round 18).
GATED = "agent"


class HardBot(MediumBot):
    """Medium's play with card counting, endgame technique and determinized search."""

    level = "hard"
    finesse = True
    #: Search when the cards still in play (all hands) are at most this many.
    search_cards = 20
    #: Hidden deals sampled per searched decision.
    samples = 6
    #: Node budget of one exact solve (nodes, not seconds: decisions must not depend on the machine).
    node_budget = 4_000
    #: The landlord's own search horizon (cards in play) and node budget: it plays alone against two,
    #: and the faster solver may reach its endgames earlier than the farmers'.
    landlord_search_cards = 20
    landlord_node_budget = 4_000

    #: Roll out candidate moves when the cards in play are at most this many.  Earlier,
    #: a rollout is long and says little (measured: no gain, five times the time).
    rollout_cards = 34
    #: The same for the landlord, who plays alone against two and whose early plays decide more.
    landlord_rollout_cards = 34
    #: The landlord's decisions with more cards in play than :attr:`search_cards` and at most this many
    #: are played out by the compiled quick policy (many cheap games, :func:`tutor.bots.rollout.best_by_playouts`)
    #: instead of rolled out by medium (0 = never).  Where the compiled play-out cannot play the rules
    #: (not built, the variants: ``Rules.native_coach``) the medium rollouts of :attr:`landlord_rollout_cards` stay.
    landlord_playout_cards = 54
    #: The same for a farmer's decisions (0 = never): each candidate is played out to the end and counts a
    #: win for the team, either farmer going out (:meth:`farmer_should_play_out`; kept in round 5 with
    #: 256 deals, docs/bots.md).
    farmer_playout_cards = 54
    #: A farmer searches when the cards in play are at most this many (None = :attr:`search_cards`) ...
    farmer_search_cards: int | None = None
    #: ... with at most this many nodes a solve (None = :attr:`node_budget`) ...
    farmer_node_budget: int | None = None
    #: ... on this many sampled deals (None = :attr:`samples`; round 15, second try: the solver is now fast
    #: enough for more, docs/bots.md).
    farmer_samples: int | None = None
    #: A farmer's played-out deals and candidates (None = :attr:`playout_samples`, :attr:`playout_width`).
    #: Four times the landlord's deals: with 64 the farmers' gain stayed inside the noise (docs/bots.md).
    farmer_playout_samples: int | None = 256
    farmer_playout_width: int | None = None
    #: Sampled deals per played-out decision (every candidate plays on each).
    playout_samples = 64
    #: Candidates played out (the heuristic's choice included).
    playout_width = 4
    #: How clearly (standard errors of the paired sign test) an alternative must beat the heuristic's choice.
    playout_z = 1.0
    #: The same for a farmer's played-out decision (None = :attr:`playout_z`; round 6: against the rule agent
    #: the farmers' loss table found the winning alternative among the candidates and the heuristic's losing
    #: choice kept, in 10 of 12 played-out blunders).
    farmer_playout_z: float | None = None
    #: Leads from other splits of the hand added to the landlord's played-out candidates (0 = none): the best
    #: by the plan of what remains (:meth:`split_leads`), so the play-outs can weigh a plan the planner missed.
    landlord_split_leads = 0
    #: The same for a farmer's played-out leads (0 = none; round 6: the farmers' loss table found leads lost by
    #: playing the planner's group where another split of it won — a shorter straight, a single from a pair).
    farmer_split_leads = 0
    #: Further played-out deals for a close landlord decision (the sign test between 0 and :attr:`playout_close`
    #: standard errors; 0 = none): the budget goes to the decisions it can change.
    playout_more = 0
    playout_close = 2.0
    #: The same for a farmer's close played-out decision (0 = none; round 6: in the farmers' loss table the
    #: winning move was among the played-out candidates, and the play-outs did not pick it).
    farmer_playout_more = 0
    #: How the opponents play in the landlord's (the farmers') play-outs: the quick policy ("quick") or one of
    #: its variants (:data:`tutor.solver.playout.VARIANTS`; "lowest": always beat with the lowest answer of the
    #: kind, the partner's play included, as RLCard's rule agent does).  The bot's own side always plays
    #: the quick policy.  The landlord's "lowest" won against the rule agent, which plays that way (+0.053
    #: [+0.012, +0.093] on fresh decks 600-999, +0.028 [−0.009, +0.064] on 1400-1799), but lost against RHCP-v2
    #: (−0.085 [−0.144, −0.026] on decks 0-199) and leaned to a loss against medium (−0.023 [−0.068, +0.023]):
    #: a model of one kind of opponent, not a better judge, so it is off (docs/bots.md, round 6).  The farmers'
    #: variants gained nothing measurable.
    #: Round 7: the landlord's is "auto", the model read from the farmers' past decisions (:attr:`auto_models`):
    #: against the rule agent +0.0275 [+0.003, +0.052] pooled over decks 2200-2599 (confirmation 2400-2599
    #: +0.020), against RHCP-v2 +0.005 (decks 0-199) and against medium +0.000 (it keeps "quick" there).  The
    #: farmers' "auto" was not measured to the end (docs/bots.md, round 7): "quick".
    #: Round 13: "fit", a model whose weights were fitted by maximum likelihood to the decisions of several
    #: rule-based players (the rule agent and medium; ``_fit.c``), may be named on either side; measured for the
    #: landlord, not kept: against the rule agent −0.0175 [−0.042, +0.007] (decks 7800-8599), medium +0.0075,
    #: RHCP-v2 −0.110 [−0.170, −0.050] — though it predicts RHCP-v2's moves better than quick (docs/bots.md, round 13).
    #: Round 14: the farmers' "fit" (the landlord they imagine plays the fitted model): against the rule agent +0.003
    #: [−0.027, +0.032] over decks 8600-8999 (selection −0.035, confirmation +0.040), medium −0.006 and RHCP-v2 −0.012
    #: (partial runs): not kept, "quick" (docs/bots.md, round 14).
    #: Round 16: the farmers' is "auto" too, with "plan" and the exact judgement below (the three together:
    #: +0.059 [+0.039, +0.079] on fresh decks 10000-10999 against the rule agent, docs/bots.md, round 16).
    #: Round 18: the landlord's is "gate" (below): "agent" with the deals nudged towards its plays while the farmers
    #: keep the rule agent's habits and have shown it by a telling answer, the "auto" read otherwise.  Declared on
    #: fresh decks: against the rule agent +0.013 [+0.005, +0.021] (16800-18799), RHCP-v2 +0.000 [-0.006, +0.006]
    #: (1856-2655), medium +0.000 (the same games: its farmers break the habits at once; docs/bots.md, round 18).
    landlord_playout_opponents = "gate"
    farmer_playout_opponents = "auto"
    #: Round 12 (issue 33): the compiled policy every seat plays in the landlord's (a farmer's) play-outs where
    #: the settings above name the quick policy — the bot's own side, and opponents played as "quick" (an
    #: "auto" model that reads them as "lowest", "rule" or "agent" still plays that model): "quick", or "plan",
    #: quick with a sense of control (:data:`tutor.solver.playout.VARIANTS`; docs/bots.md, round 12).  Not a
    #: model of any opponent: a better player for every seat, so that the play-outs judge the candidates better.
    #: Measured, not kept: against the rule agent the landlord's +0.011 [-0.009, +0.031] (decks 7000-7799), the
    #: farmers' +0.015 [-0.018, +0.048] (7000-7399); against medium +0.0575 [+0.015, +0.100] and +0.0075, against
    #: RHCP-v2 -0.040 and 0.000 (docs/bots.md, round 12).
    #: Round 16: the farmers' is "plan", with their "auto" and their exact judgement (kept together, above).
    landlord_playout_policy = "quick"
    #: Round 17: a "-read" policy plays its named policy whatever the read while more than this many cards are in
    #: play (0 = never): the first tricks, before any read can be made (round 16 found "plan"'s gain against the
    #: rule agent there, and "plan-read" keeping none of it).  Measured with 48 (spent decks, docs/bots.md round 17):
    #: against the rule agent +0.014, against RHCP-v2's decks 0–199 −0.040.
    read_policy_early = 0
    farmer_playout_policy = "plan"
    #: With a play-outs' opponents setting of "auto" (round 7), the model is chosen per decision from the view:
    #: the one of these that explains clearly more of the opponents' past decisions in this game than the
    #: quick policy (:func:`tutor.bots.opponent_model.chosen_model`; by :attr:`auto_margin` decisions).
    auto_models: tuple[str, ...] = ("quick", "lowest", "rule", "agent")
    auto_margin = 2.0
    #: The farmers' margin (None = :attr:`auto_margin`): the two sides' settings are measured apart (round 16).
    farmer_auto_margin: float | None = None
    #: Round 17: the sampled hands "auto" scores the opponents' past decisions on (None = the module's
    #: :data:`tutor.bots.opponent_model.SAMPLES`); its bound on model calls grows with them, so that as many
    #: past decisions are scored.  More hands, a steadier count of what each model explains.  Measured with 32 (spent
    #: decks, docs/bots.md round 17): +0.004, and +0.010 with the landlord's margin 1.0 (the margin alone +0.013).
    auto_samples: int | None = None
    #: Round 9: with ``farmer_playout_opponents = "mix"`` a farmer's played-out deals are split between the
    #: models of this prior, each weighted by ``exp(farmer_mix_beta · hits)`` on the landlord's past decisions
    #: (:func:`tutor.bots.model_mix.mixture`): the right model plays part of the deals from the first decision,
    #: and the evidence moves the shares, rounded to ``farmer_mix_slots`` (docs/bots.md, round 9).  Measured, not
    #: kept: against the rule agent +0.042 [+0.019, +0.065] over decks 3400-3999 (confirmation +0.045), RHCP-v2
    #: +0.030 (0-199), but medium -0.020 [-0.076, +0.036] (3400-3599): the rule's medium condition fails.
    farmer_mix_prior: ClassVar[dict[str, float]] = {"quick": 0.5, "agent": 0.5}
    farmer_mix_beta = 1.0
    farmer_mix_slots = 16
    #: Round 11: with a mixture of the opponents' models in the play-outs, the landlord's (the farmers') change
    #: of the heuristic's choice must also hold under every model family: an alternative whose paired statistic
    #: on one model's deals is below minus this is not chosen (:func:`tutor.bots.robust.holds_under_every_family`;
    #: None = the pooled test alone, as before).  Off by default (docs/bots.md, round 11).
    playout_robust_z: float | None = None
    farmer_playout_robust_z: float | None = None
    #: Round 11: the landlord's (the farmers') played-out deals each played once under every one of these
    #: families of the opponents' models (two or more; () = off), and a change made only when some family finds
    #: it clearly better and none finds it worse than minus the robust threshold above (None: 0)
    #: (:func:`tutor.bots.robust.robust_choice`): what holds against every plausible opponent, no posterior.
    #: Twice the play-outs for two families.  Measured, not kept (the farmers, ("quick", "agent") with the threshold
    #: 1.0): against the rule agent +0.025 [−0.007, +0.058] on 315 fresh decks, against medium −0.061 [−0.108,
    #: −0.014] on 311 (docs/bots.md, round 11).
    playout_families: tuple[str, ...] = ()
    farmer_playout_families: tuple[str, ...] = ()
    #: Round 8: a farmer's (the landlord's) play-outs end in an exact open-hand solve once at most this many
    #: cards are in play (0 = never), at most :attr:`playout_tail_nodes` nodes a play-out (the quick policy
    #: plays on where they do not suffice; :func:`tutor.solver.playout.solved_playout`).  The quick policy
    #: plays the endgame far below the bots' own exact search, which is what the game meets there: the
    #: round-6 loss table found the farmers' blunders mostly at 21-35 cards, with the play-outs' verdict wrong.
    #: Measured, not kept: the farmers' 14 won +0.030 on decks 2600-2799, lost 0.025 on 2800-2999 (pooled
    #: +0.0025 [-0.027, +0.032]) against the rule agent (docs/bots.md, round 8).
    farmer_playout_tail = 0
    landlord_playout_tail = 0
    playout_tail_nodes = 1_000
    #: A farmer's played-out decisions with at most this many cards in play have their candidates judged again
    #: by exact solves of sampled deals (:func:`tutor.bots.search.exact_judgement`; 0 = never): the solver is
    #: fast enough there (round 15: 21-30 cards, a median solve of a few thousand nodes).  Round 16: 30, kept
    #: with the farmers' "plan" and "auto" (above).
    farmer_exact_cards = 30
    #: The exact judgement's deals, and the node budget of each solve (counts, never time).
    farmer_exact_samples = 16
    farmer_exact_nodes = 50_000
    #: The same judgement for the landlord's played-out decisions with at most this many cards in play (0 = never),
    #: with its own deals and node budget (round 15, second try: docs/bots.md).
    landlord_exact_cards = 0
    landlord_exact_samples = 16
    landlord_exact_nodes = 50_000
    #: Told of every played-out decision (:data:`tutor.bots.rollout.PlayoutObserver`; benchmarks only, None = off).
    playout_observer: ClassVar[PlayoutObserver | None] = None
    #: Card swaps per played-out deal towards explaining the others' last :attr:`playout_recent` plays (0 = none).
    playout_steps = 0
    playout_recent: int | None = 12
    #: The model those swaps explain the plays by: a compiled play-out variant (:data:`tutor.solver.playout.VARIANTS`:
    #: "quick", "lowest", "rule", "agent"; the nudging compiled, :func:`tutor.bots.sampling.nudged_samples`) or
    #: "python" (the quick policy asked from Python, round 4's path; the same rule, slower), or "opponents": the
    #: variant the play-outs' opponents play (:meth:`playout_opponents`; the quick policy when they mix variants),
    #: so that the deals are guessed under the same model the play-outs then assume (round 7, docs/bots.md).
    playout_nudge_model = "quick"
    #: Sampled deals per rolled-out decision (every candidate plays on each).
    rollout_samples = 10
    #: Candidates tried (the heuristic's choice included).
    rollout_width = 4
    #: Wins (out of ``rollout_samples``) an alternative needs over the heuristic's choice to replace it.
    rollout_margin = 0
    #: Who plays the rolled-out games: "medium", or "hard" (this level's judgement without look-ahead).
    rollout_policy = "medium"
    #: Card swaps tried per sampled deal to make it explain the others' past plays (0 = none).
    rollout_steps = 8
    #: How many recent turns that explanation looks at (None = the whole history).
    rollout_recent: int | None = None
    #: No rollouts after a search that spent this many solver nodes or more (it had its
    #: say, and the two together would make the slowest decisions; nodes, not seconds).
    rollout_after_nodes = 6_000
    #: Safety stop of a rolled-out decision: model decisions (a medium ``play`` call) for the swaps
    #: and the rolled-out games together (:func:`tutor.bots.rollout.best_by_rollouts`).  It only
    #: trims a decision whose history is unusually long; a count, never a clock.
    rollout_effort: int | None = 2_400
    #: Weight every sampled deal by how well it explains the others' answers and passes, with the measured
    #: odds of this opponents' table (:data:`tutor.bots.revealed.TABLES`: "rule-agent", "medium", "pooled";
    #: None = not weighted), drawing :attr:`sample_pool` deals for each one kept (:func:`tutor.bots.sampling.sampler`).
    revealed_rates: str | None = None
    sample_pool = 4
    #: The landlord's lead by its hand plan with control counted (:mod:`tutor.bots.control`; 0 = off, the
    #: plain weakest lead): 1 leads first a group of a shape in which the hand holds a control (the lead
    #: comes back whatever the farmers answer); 2 also, while the hand has fewer controls than answerable
    #: groups, leads the group the farmers can answer in the fewest ways.  Not while a farmer is on 1–2 cards.
    landlord_control_plan = 0
    #: Where that lead goes: "lead" makes it the heuristic's choice (the play-outs' default), "candidate" keeps
    #: the plain lead as the default and adds the control lead to the played-out candidates.
    landlord_control_as = "lead"
    #: Add to the landlord's played-out answers the lowest one no farmer can beat but by a bomb (the lead
    #: taken back for sure, :meth:`control_answer`; 0 = off), which the plan's rating of answers ranks low.
    landlord_control_follow = 0
    #: How much worse the landlord's plan may get for the sake of taking a farmer's lead while its hand has
    #: more answerable groups than controls (:attr:`tutor.bots.control.ControlPlan.turns` > 0: a lead it lets
    #: go may not come back); None = medium's :attr:`follow_threshold` always.
    landlord_control_threshold: float | None = None
    #: Round 8 (issue 33): the landlord's played-out deals by the model its play-outs' opponents play
    #: (:meth:`playout_opponents`, "auto" resolved).  With a model in :attr:`landlord_filter_models`, draw
    #: :attr:`landlord_filter_pool` deals for each one played out and keep those the model explains best
    #: (:class:`tutor.bots.sampling.Filter`; ``landlord_filter_beta`` None keeps the best, a number resamples
    #: by ``exp(−beta·wrong)``; 1 = off).  The filter asks the model one compiled call a past decision a draw:
    #: cheap for the rule-like variants, dear for the quick policy's leads, hence the list.  Measured, not kept:
    #: ``pool=8`` +0.025 on decks 2600-2799, −0.025 on the confirmation 2800-2999, −0.025 [−0.047, −0.003]
    #: against RHCP-v2 (docs/bots.md, round 8).
    landlord_filter_pool = 1
    landlord_filter_beta: float | None = None
    landlord_filter_models: tuple[str, ...] = ("lowest", "rule", "agent")
    #: Played-out deals of a landlord decision by the model its opponents play (None or a missing model:
    #: :attr:`playout_samples`): a cheap model's play-outs may afford more deals for the same bounded work.
    landlord_model_samples: dict[str, int] | None = None
    #: The landlord's own nudging (round 8; 0 = off, then :attr:`playout_steps` as before): its played-out deals
    #: nudged by this many card swaps over the farmers' last :attr:`landlord_nudge_recent` plays (None: all)
    #: under the model its play-outs' opponents play, only when that model is one of :attr:`landlord_nudge_models`
    #: ("auto" has left the quick policy, whose replays are dear): the guesses under the same model the
    #: play-outs then assume.  The farmers' play is untouched.  Measured, not kept: 16 swaps +0.030 on decks
    #: 2600-2799, −0.010 on the confirmation 2800-2999 (docs/bots.md, round 8).
    landlord_nudge_steps = 0
    landlord_nudge_recent: int | None = None
    landlord_nudge_models: tuple[str, ...] = ("lowest", "rule", "agent")
    #: Round 9 (issue 33): with a play-outs' opponents setting of "mix", the deals are split among
    #: :attr:`auto_models` by how likely each is to be the opponents' way of playing after their past decisions
    #: (:func:`tutor.bots.opponent_model.posterior`: the prior :attr:`mix_prior`, weights in the order of
    #: :attr:`auto_models`, None = uniform; a model errs on a sampled hand with chance :attr:`mix_error`), from the
    #: first decision on, instead of one model chosen once the evidence is clear ("auto", which switches at about
    #: 38 cards in play).  Each model's deals are nudged under it by :attr:`mix_nudge_steps` swaps over the
    #: farmers' last :attr:`mix_nudge_recent` plays (None: all) when it is one of :attr:`mix_nudge_models`.
    #: Measured, not kept ("mix" with 16 swaps): against the rule agent +0.0225 [−0.0004, +0.0454] over decks
    #: 3400-4199, but against RHCP-v2 −0.075 [−0.132, −0.018] (decks 0-199): with a uniform prior three of the
    #: four candidates answer with their lowest card, and RHCP-v2's farmers never pull the weight back to
    #: "quick" early (docs/bots.md, round 9).  Round 10: two families, ``mix_prior = [1, 0, 0, 1]`` (quick and
    #: agent, half and half): +0.031 [+0.0125, +0.050] over decks 4400-5199, but −0.030 against RHCP-v2 and −0.025
    #: against medium (4400-4599): not kept either (docs/bots.md, round 10).
    mix_prior: tuple[float, ...] | None = None
    #: Round 17: the landlord's "mix" only once at most this many cards are in play; before, its play-outs' farmers
    #: are the "auto" read (the quick policy until the farmers have shown another model).  54 = from the first
    #: decision, as in rounds 9–10.  Measured with round 10's mixture and 48 (spent decks, docs/bots.md round 17):
    #: against the rule agent +0.017, against RHCP-v2 −0.0325 — its loss there is not only in the opening decisions.
    mix_cards = 54
    mix_error = 0.2
    mix_nudge_steps = 0
    mix_nudge_recent: int | None = None
    mix_nudge_models: tuple[str, ...] = ("lowest", "rule", "agent")
    #: Round 18: with a play-outs' opponents setting of "gate", the opponents play the "agent" model while none of
    #: them has refuted its habits (:func:`tutor.bots.rule_habits.opponents_keep_habits`: proven from the view, and
    #: with :attr:`gate_samples` on sampled hands) and, for the landlord, the farmers have given the telling answers
    #: below; the "auto" read otherwise.  Under the gate the played-out deals are nudged towards the agent's plays by
    #: this many swaps over all the opponents' plays (0 = none): the gain is the swaps' (without them +0.003 on spent
    #: decks against the rule agent).
    gate_nudge_steps = 16
    #: The gate's sampled test (:func:`tutor.bots.rule_habits.refuted`): hands drawn per past decision (0 = the proof
    #: alone, which RHCP-v2 escapes longer: −0.0575 against it on spent decks, −0.040 with 64 hands and no evidence).
    gate_samples = 64
    #: The landlord's gate opens only once the farmers have answered each other this many times
    #: (:func:`tutor.bots.rule_habits.partner_answers`; 0 = from the first decision) ...
    gate_evidence = 1
    #: ... counting only the answers to a partner's play of this main rank or above (0 = any: declared as "G",
    #: +0.025 against the rule agent but −0.0075 against RHCP-v2, whose farmers answer each other's low cards as the
    #: agent does; 10 = a king: the agent answers a partner's king or higher in about two games of three, RHCP-v2's
    #: farmers in one of three).
    gate_evidence_rank = 10
    #: ... and only once the agent explains at least this many more of their past decisions than the quick policy
    #: (:func:`tutor.bots.opponent_model.model_fit`; None = not asked; 1.0 screened: +0.011 / −0.015).
    gate_margin: float | None = None
    #: Under the gate the play-outs' opponents play the agent ("agent"), or the "auto" read while only the deals
    #: are nudged under the agent ("read"; screened: +0.008 / −0.010).
    gate_plays = "agent"

    def __init__(self, seed: int = 0, search: bool = True, rollouts: bool = True) -> None:
        super().__init__(seed)
        self.search = search
        self.rollouts = rollouts
        self.policy: MediumBot = (
            HardBot(seed, search=False, rollouts=False) if self.rollout_policy == "hard" and (search or rollouts)
            else MediumBot(seed)
        )

    def __repr__(self) -> str:
        return f"HardBot(seed={self.seed!r}, search={self.search!r}, rollouts={self.rollouts!r})"

    def bid(self, view: PlayerView) -> int:
        """Rob auction (RULES §12.1): call, rob or pass by expected score over sampled deals
        (:mod:`tutor.bots.auction_sense`); the classic 1-2-3 bid stays medium's hand evaluation."""
        if not view.rules.robs:
            return super().bid(view)
        from tutor.bots.auction_sense import auction_scores, best_code

        return best_code(auction_scores(view, self.seed, MediumBot(self.seed).bid))

    def show_hand(self, view: PlayerView) -> bool:
        """Show the hand (RULES §12.2) when that has clearly the higher expected score over sampled deals
        (the paired gain above twice its noise), played out by this level's judgement — whose farmers count
        an open hand exactly (:meth:`hidden`).  Exposure is not undone: a doubtful gain keeps it closed."""
        if not can_show_hand(view):
            return False
        from tutor.bots.auction_sense import clearly_better, open_scores

        policy = HardBot(self.seed, search=False, rollouts=False)
        scores = open_scores(view, self.seed, MediumBot(self.seed).bid, policy.play)
        return clearly_better([a - b for a, b in zip(scores[True], scores[False])])

    def hidden(self, view: PlayerView) -> int:
        """Counts cards: only what has not been seen can be in the other hands.

        A farmer facing an open hand (RULES §12.2) knows the only opponent's cards exactly.
        """
        if view.shown is not None and view.landlord != view.seat:
            return view.shown.packed
        return unseen_packed(view)

    def play(self, view: PlayerView) -> Combo | None:
        check_turn(view)
        if whole_hand_play(view.hand.packed, view.table, view.rules) is not None:
            return super().play(view)
        nodes = Effort()
        if self.search and self.should_search(view):
            from tutor.bots.search import determinized_choice

            solver = self.solver(view.rules, self.search_budget(view))
            choice = determinized_choice(
                view, solver, self.search_samples(view), turn_rng(self.seed, view), self.heuristic_play, nodes,
                self.weighting(),
            )
            if choice is not None:
                return choice.move
        heuristic = self.heuristic_play(view)
        # A search that spent much leaves the decision to judgement (bounds the slowest decisions).
        if self.rollouts and self.should_play_out(view) and nodes.spent < self.rollout_after_nodes:
            samples, _ = self.playout_budget(view)
            candidates = self.playout_candidates(view, heuristic)
            if len(candidates) > 1:
                from tutor.bots.rollout import best_by_playouts

                opponents = self.playout_opponents(view)
                mixture = self.mixture(view) if opponents == "mix" else None
                steps, recent, nudge = self.playout_steps, self.playout_recent, self.nudge_model(view)
                if self.landlord_nudges(view, opponents):
                    steps, recent, nudge = self.landlord_nudge_steps, self.landlord_nudge_recent, opponents
                if self.gated(view) and self.gate_nudge_steps:
                    steps, recent, nudge = self.gate_nudge_steps, None, GATED
                chosen = best_by_playouts(
                    view, candidates, self.model_samples(view, opponents, samples), self.seed,
                    self.playout_threshold(view),
                    steps=steps, recent=recent,
                    more=self.playout_extra(view), close=self.playout_close, weighting=self.weighting(),
                    opponents=opponents, observe=type(self).playout_observer,
                    nudge=nudge, filtering=self.deal_filter(view, opponents),
                    tail=self.playout_tail(view), tail_nodes=self.playout_tail_nodes, mixture=mixture,
                    robust=self.playout_robust(view),
                    families=self.playout_families if view.seat == view.landlord else self.farmer_playout_families,
                    policy=self.playout_policy(view, opponents),
                )
                cards, exact_samples, exact_nodes = self.exact_settings(view)
                if sum(view.card_counts) <= cards:
                    from tutor.bots.search import exact_judgement

                    chosen = exact_judgement(
                        view, candidates, chosen, self.solver(view.rules, exact_nodes), exact_samples,
                        turn_rng(self.seed, view), self.weighting(),
                    )
                return chosen
            return heuristic
        if self.rollouts and self.should_roll_out(view) and nodes.spent < self.rollout_after_nodes:
            candidates = self.candidates(view, heuristic)
            if len(candidates) > 1:
                from tutor.bots.rollout import best_by_rollouts

                return best_by_rollouts(
                    view,
                    candidates,
                    self.rollout_samples,
                    self.seed,
                    self.policy,
                    self.rollout_margin,
                    self.rollout_steps,
                    self.rollout_recent,
                    self.rollout_effort,
                    self.weighting(),
                )
        return heuristic

    def mixture(self, view: PlayerView) -> Mixture:
        """The play-outs' opponents as a mixture of :attr:`auto_models` weighted by their posterior (round 9)."""
        from tutor.bots.opponent_model import posterior
        from tutor.bots.rollout import Mixture

        weights = posterior(view, tuple(self.auto_models), self.mix_prior, self.mix_error)
        return Mixture(tuple(weights.items()), self.mix_nudge_steps, self.mix_nudge_recent, tuple(self.mix_nudge_models))

    def weighting(self) -> Weighting | None:
        """How the sampled deals are weighted (:attr:`revealed_rates`), or None."""
        if self.revealed_rates is None:
            return None
        return Weighting(self.revealed_rates, self.sample_pool)

    def model_samples(self, view: PlayerView, opponents: str, samples: int) -> int:
        """The landlord's played-out deals when its opponents play ``opponents`` (:attr:`landlord_model_samples`)."""
        if view.seat != view.landlord or not self.landlord_model_samples:
            return samples
        return int(self.landlord_model_samples.get(opponents, samples))

    def landlord_nudges(self, view: PlayerView, opponents: str) -> bool:
        """Are the landlord's played-out deals nudged under ``opponents``' model (:attr:`landlord_nudge_steps`)?"""
        return view.seat == view.landlord and self.landlord_nudge_steps > 0 and opponents in self.landlord_nudge_models

    def deal_filter(self, view: PlayerView, opponents: str) -> Filter | None:
        """The landlord's filter of its played-out deals under ``opponents``' model (:attr:`landlord_filter_pool`),
        or None: not the landlord, off, or a model not in :attr:`landlord_filter_models`."""
        if view.seat != view.landlord or self.landlord_filter_pool <= 1 or opponents not in self.landlord_filter_models:
            return None
        return Filter(opponents, self.landlord_filter_pool, self.landlord_filter_beta)

    def should_play_out(self, view: PlayerView) -> bool:
        """The landlord's early decisions, when the compiled play-out plays these rules."""
        if view.seat != view.landlord:
            return self.farmer_should_play_out(view)
        if not self.landlord_playout_cards:
            return False
        from tutor.bots.rollout import quick_available

        cards = sum(view.card_counts)
        return self.landlord_search_cards < cards <= self.landlord_playout_cards and quick_available(view.rules)

    def farmer_should_play_out(self, view: PlayerView) -> bool:
        """A farmer's decisions above its search's horizon and at most :attr:`farmer_playout_cards` in play.

        The play-out counts the team's win (:func:`tutor.bots.rollout.best_by_playouts`: either farmer going
        out), so letting the partner's play stand and overtaking it are weighed on the same deals."""
        if not self.farmer_playout_cards:
            return False
        from tutor.bots.rollout import quick_available

        horizon = self.farmer_horizon()
        return horizon < sum(view.card_counts) <= self.farmer_playout_cards and quick_available(view.rules)

    def exact_settings(self, view: PlayerView) -> tuple[int, int, int]:
        """This seat's exact judgement of its played-out candidates: the cards in play at most which it judges
        (0 = never), its deals and the node budget of a solve — the landlord's own, or the farmers'."""
        if view.seat == view.landlord:
            return self.landlord_exact_cards, self.landlord_exact_samples, self.landlord_exact_nodes
        return self.farmer_exact_cards, self.farmer_exact_samples, self.farmer_exact_nodes

    def playout_candidates(self, view: PlayerView, heuristic: Combo | None) -> list[Combo | None]:
        """The moves a played-out decision weighs, the heuristic's choice first: :meth:`candidates` within this
        seat's width, and on the lead the leads from other splits (:meth:`split_lead_count`).  Also how
        benchmarks/hard_losses.py tells whether a lost game's winning move was among them."""
        candidates = self.candidates(view, heuristic, self.playout_budget(view)[1])
        extra = self.split_lead_count(view)
        if view.table is None and extra:
            candidates += self.split_leads(view, candidates, extra)
        if view.table is None and self.landlord_control_as == "candidate":
            planned = self.control_lead(view, Seats.of(view), view.hand.packed)
            if planned is not None and planned not in candidates:
                candidates.append(planned)
        if view.table is not None and self.landlord_control_follow and view.seat == view.landlord:
            taken = self.control_answer(view)
            if taken is not None and taken not in candidates:
                candidates.append(taken)
        return candidates

    def playout_threshold(self, view: PlayerView) -> float:
        """How clearly an alternative must win this seat's play-outs: the landlord's, or the farmers' own."""
        if view.seat == view.landlord or self.farmer_playout_z is None:
            return self.playout_z
        return self.farmer_playout_z

    def playout_robust(self, view: PlayerView) -> float | None:
        """How clearly one model family's deals may contradict this seat's change: the landlord's or the farmers'."""
        return self.playout_robust_z if view.seat == view.landlord else self.farmer_playout_robust_z

    def playout_extra(self, view: PlayerView) -> int:
        """Further deals for this seat's close played-out decision: the landlord's or the farmers'."""
        return self.playout_more if view.seat == view.landlord else self.farmer_playout_more

    def playout_tail(self, view: PlayerView) -> int:
        """Cards in play at which this seat's play-outs are solved to their end: the landlord's or the farmers'."""
        return self.landlord_playout_tail if view.seat == view.landlord else self.farmer_playout_tail

    def split_lead_count(self, view: PlayerView) -> int:
        """Leads from other splits added to this seat's played-out candidates: the landlord's or the farmers'."""
        return self.landlord_split_leads if view.seat == view.landlord else self.farmer_split_leads

    def playout_budget(self, view: PlayerView) -> tuple[int, int]:
        """Deals and candidates of a played-out decision: the farmers' own when set."""
        if view.seat == view.landlord:
            return self.playout_samples, self.playout_width
        samples, width = self.farmer_playout_samples, self.farmer_playout_width
        return (self.playout_samples if samples is None else samples,
                self.playout_width if width is None else width)

    def nudge_model(self, view: PlayerView) -> str:
        """The model the played-out deals are nudged towards (:attr:`playout_nudge_model`, "opponents" and "auto" resolved)."""
        if self.playout_nudge_model == "auto":  # the model read from the opponents' play, as for the play-outs
            return self.read_model(view)
        if self.playout_nudge_model != "opponents":
            return self.playout_nudge_model
        opponents = self.playout_opponents(view)
        return "quick" if "+" in opponents or opponents == "mix" else opponents

    def read_model(self, view: PlayerView) -> str:
        """The model "auto" reads from the opponents' past decisions (:func:`tutor.bots.opponent_model.chosen_model`),
        on :attr:`auto_samples` hands and by :meth:`model_margin` decisions."""
        from tutor.bots.opponent_model import MAX_CALLS, SAMPLES, chosen_model

        samples = SAMPLES if self.auto_samples is None else self.auto_samples
        return chosen_model(
            view, tuple(self.auto_models), samples=samples, margin=self.model_margin(view),
            max_calls=MAX_CALLS * samples // SAMPLES,
        )

    def model_margin(self, view: PlayerView) -> float:
        """How many more of the opponents' past decisions another model must explain for "auto" to leave quick."""
        margin = self.farmer_auto_margin if view.seat != view.landlord else None
        return self.auto_margin if margin is None else margin

    def playout_policy(self, view: PlayerView, opponents: str) -> str:
        """The compiled policy the play-outs' quick seats play (:attr:`landlord_playout_policy`, the farmers').

        A policy named with ``-read`` (round 16: "plan-read") is played only once the opponents read as
        another model than the quick policy (``opponents``, :meth:`playout_opponents`), and quick before: a
        stronger own play where the opponents were seen to play simply, today's where they were not."""
        policy = self.landlord_playout_policy if view.seat == view.landlord else self.farmer_playout_policy
        if policy.endswith(READ):
            early = self.read_policy_early and sum(view.card_counts) > self.read_policy_early
            return policy.removesuffix(READ) if opponents != "quick" or early else "quick"
        return policy

    def playout_opponents(self, view: PlayerView) -> str:
        """How this seat's play-outs let its opponents play: the landlord's setting or the farmers'; "auto" is
        the model read from the opponents' past decisions (:func:`tutor.bots.opponent_model.chosen_model`)."""
        setting = self.landlord_playout_opponents if view.seat == view.landlord else self.farmer_playout_opponents
        if setting == "mix" and view.seat != view.landlord:
            from tutor.bots.model_mix import mixture

            return mixture(view, self.farmer_mix_prior, self.farmer_mix_beta, self.farmer_mix_slots)
        if setting == "mix" and sum(view.card_counts) > self.mix_cards:
            setting = "auto"
        if setting == "gate" and self.gate_plays == "agent" and self.gated(view):
            return GATED
        if setting not in ("auto", "gate"):
            return setting
        return self.read_model(view)

    def gated(self, view: PlayerView) -> bool:
        """Does this seat's "gate" setting hold its play-outs' opponents to the agent's model now (round 18)?"""
        setting = self.landlord_playout_opponents if view.seat == view.landlord else self.farmer_playout_opponents
        if setting != "gate":
            return False
        from tutor.bots.rule_habits import opponents_keep_habits

        if self.gate_evidence and view.seat == view.landlord:
            from tutor.bots.rule_habits import partner_answers

            if partner_answers(view, self.gate_evidence_rank) < self.gate_evidence:
                return False
        if not opponents_keep_habits(view, self.gate_samples):
            return False
        if self.gate_margin is not None:
            from tutor.bots.opponent_model import model_fit

            hits = model_fit(view, ("quick", GATED)).hits
            return hits[GATED] - hits["quick"] >= self.gate_margin
        return True

    def farmer_horizon(self) -> int:
        """The cards in play at which a farmer starts its exact search."""
        return self.search_cards if self.farmer_search_cards is None else self.farmer_search_cards

    def should_roll_out(self, view: PlayerView) -> bool:
        cards = self.landlord_rollout_cards if view.seat == view.landlord else self.rollout_cards
        return sum(view.card_counts) <= cards

    def candidates(self, view: PlayerView, heuristic: Combo | None, width: int | None = None) -> list[Combo | None]:
        """Moves worth trying in rollouts: the heuristic's first, then the plausible alternatives
        (at most ``width``, :attr:`rollout_width` by default)."""
        width = self.rollout_width if width is None else width
        hand = view.hand.packed
        found: list[Combo | None] = [heuristic]
        if view.table is None:
            groups = sorted((g for g in plan_packed(hand, view.rules.decks).groups if not is_bomb(g)), key=lead_key)
            kinds = set()
            for g in groups:
                key = (g[1], g[2])
                if key in kinds:
                    continue
                kinds.add(key)
                if g not in found:
                    found.append(g)
                if len(found) >= width:
                    break
            return found
        if None not in found:
            found.append(None)
        moves = follow_moves_packed(hand, view.table, view.rules)
        base = plan_packed(hand, view.rules.decks).score
        rated = sorted(
            (m for m in moves if not is_bomb(m)),
            key=lambda m: (-(plan_packed(hand - m.cards, view.rules.decks).score - base), m.main),
        )
        for m in rated:
            if len(found) >= width:
                break
            if m not in found:
                found.append(m)
        bombs = [m for m in moves if is_bomb(m)]
        if bombs:
            low = min(bombs, key=lambda m: (m.kind == Kind.ROCKET, m.main))
            if low not in found:
                found.append(low)
        return found

    def split_leads(self, view: PlayerView, found: list[Combo | None], count: int) -> list[Combo | None]:
        """Up to ``count`` leads from other splits of the hand than the planner's (not its groups, not in
        ``found``, not bombs), the best first by the plan of the hand they leave plus the lead's own value.

        The planner splits the hand one way and the other candidates are its groups; a lead from another
        split (the trio's wing from a pair, the straight one rank shorter, a pair broken into singles) may
        keep the lead better against these opponents, which only the play-outs can tell.
        """
        hand = view.hand.packed
        decks = view.rules.decks
        planned = set(plan_packed(hand, decks).groups)
        moves = [
            m for m in lead_moves_packed(hand, view.rules) if not is_bomb(m) and m not in found and m not in planned
        ]
        rated = sorted(
            moves, key=lambda m: (-(plan_packed(hand - m.cards, decks).score + group_value(m)), lead_key(m))
        )
        return list(rated[:count])

    def heuristic_play(self, view: PlayerView) -> Combo | None:
        """The play without search: medium's judgement plus counting and endgame technique."""
        return super().play(view)

    def solver(self, rules: Rules, budget: int | None = None) -> Solver:
        """A fresh exact solver for one decision.

        Fresh, not kept for the game: with a node budget, what earlier decisions
        left in the tables would change which samples get decided, so the move
        would depend on the bot's past (a resumed game, a hint asked after an
        undo) and not only on the view.  Its tables still serve every sample of
        the decision.
        """
        from tutor.solver import Solver

        return Solver(max_nodes=self.node_budget if budget is None else budget, rules=rules)

    def should_search(self, view: PlayerView) -> bool:
        return sum(view.card_counts) <= self.search_horizon(view)

    def search_horizon(self, view: PlayerView) -> int:
        """Cards in play from which this seat searches: the landlord's own, or the farmers'."""
        return self.landlord_search_cards if view.seat == view.landlord else self.farmer_horizon()

    def search_samples(self, view: PlayerView) -> int:
        """Deals of one searched decision for this seat: the farmers' own, or :attr:`samples`."""
        if view.seat == view.landlord or self.farmer_samples is None:
            return self.samples
        return self.farmer_samples

    def search_budget(self, view: PlayerView) -> int:
        """Nodes of one exact solve for this seat: the landlord's own, or the farmers'."""
        if view.seat == view.landlord:
            return self.landlord_node_budget
        return self.node_budget if self.farmer_node_budget is None else self.farmer_node_budget

    # ------------------------------------------------------------------ leading
    def lead(self, view: PlayerView, seats: Seats, hand: int) -> Combo:
        cashed = self.boss_first(view, seats, hand)
        if cashed is not None:
            return cashed
        if self.landlord_control_as == "lead":
            planned = self.control_lead(view, seats, hand)
            if planned is not None:
                return planned
        return super().lead(view, seats, hand)

    def control_lead(self, view: PlayerView, seats: Seats, hand: int) -> Combo | None:
        """The landlord's lead by control counted (:attr:`landlord_control_plan`), or None for the plain lead.

        Only with every farmer on 3 cards or more: nearer the end medium's tactics against a player about to
        go out (no single into one card, no pair into two) decide.
        """
        if not self.landlord_control_plan or view.seat != view.landlord or seats.fewest_opponent_cards() <= 2:
            return None
        from tutor.bots.control import control_lead

        hidden = self.hidden(view)
        biggest = max(seats.counts[o] for o in seats.opponents)
        return control_lead(self.control_count(view, seats), hidden, biggest, view.rules, self.landlord_control_plan)

    def control_count(self, view: PlayerView, seats: Seats) -> ControlPlan:
        """The seat's planned groups sorted into controls and answerable ones, from the unseen cards."""
        from tutor.bots.control import control_plan

        hidden = self.hidden(view)
        biggest = max(seats.counts[o] for o in seats.opponents)
        return control_plan(plan_packed(view.hand.packed, view.rules.decks).groups, hidden, biggest, view.rules)

    def threshold(self, view: PlayerView, seats: Seats) -> float:
        """Medium's, or :attr:`landlord_control_threshold` for a landlord short of controls."""
        if self.landlord_control_threshold is not None and view.seat == view.landlord:
            if self.control_count(view, seats).turns > 0:
                return self.landlord_control_threshold
        return super().threshold(view, seats)

    def control_answer(self, view: PlayerView) -> Combo | None:
        """The lowest plain answer to the table that no farmer can beat (the lead comes back), or None."""
        assert view.table is not None
        seats = Seats.of(view)
        hidden, biggest = self.hidden(view), max(seats.counts[o] for o in seats.opponents)
        sure = [
            m for m in follow_moves_packed(view.hand.packed, view.table, view.rules)
            if not is_bomb(m) and is_boss(m, hidden, biggest, bombs=False, rules=view.rules)
        ]
        return min(sure, key=lambda m: m.main) if sure else None

    def boss_first(self, view: PlayerView, seats: Seats, hand: int) -> Combo | None:
        """Endgame: if everything but one group is unbeatable, play the unbeatable first."""
        groups = plan_packed(hand, view.rules.decks).groups
        if len(groups) > 5:
            return None
        bosses = [g for g in groups if self.boss(view, seats, g)]
        others = [g for g in groups if g not in bosses]
        if not bosses or len(others) > 1:
            return None
        # Cash the plain bosses before the bombs (a bomb doubles the stake; keep it as a threat).
        return min(bosses, key=lambda g: (is_bomb(g), -len(readings(g[0])), g[3]))

    def single_against_one_card(self, view: PlayerView, seats: Seats, hand: int, groups: list[Combo]) -> Combo:
        """Against a one-card opponent, a counted boss single is safe; otherwise the highest."""
        singles = [g for g in groups if g[1] == Kind.SINGLE]
        safe = [g for g in singles if self.boss(view, seats, g)]
        if safe:
            return min(safe, key=lambda g: g[3])
        return super().single_against_one_card(view, seats, hand, groups)

    # ---------------------------------------------------------------- following
    def follow(self, view: PlayerView, seats: Seats, hand: int, table: Combo) -> Combo | None:
        moves = follow_moves_packed(hand, table, view.rules)
        if not moves:
            return None
        finisher = self.bomb_to_finish(view, seats, hand, moves)
        if finisher is not None:
            return finisher
        return super().follow(view, seats, hand, table)

    def bomb_to_finish(self, view: PlayerView, seats: Seats, hand: int, moves: list[Combo]) -> Combo | None:
        """A bomb (or the rocket) after which the hand goes out in one more play, or by bosses."""
        for move in sorted((m for m in moves if is_bomb(m)), key=lambda m: (m.kind == Kind.ROCKET, m.main)):
            rest = hand - move.cards
            if readings(rest):
                return move
            groups = plan_packed(rest, view.rules.decks).groups
            if len(groups) <= 3 and sum(1 for g in groups if not self.boss(view, seats, g)) <= 1:
                return move
        return None

    def boss(self, view: PlayerView, seats: Seats, combo: Combo) -> bool:
        biggest = max(seats.counts[o] for o in seats.opponents)
        return is_boss(combo, self.hidden(view), biggest, rules=view.rules)

    def follow_partner(
        self, view: PlayerView, seats: Seats, hand: int, table: Combo, moves: list[Combo]
    ) -> Combo | None:
        """Like medium, but also take over when the rest is all bosses and one play."""
        chosen = super().follow_partner(view, seats, hand, table, moves)
        if chosen is not None:
            return chosen
        for move in moves:
            if is_bomb(move) or not self.boss(view, seats, move):
                continue
            groups = plan_packed(hand - move.cards, view.rules.decks).groups
            if sum(1 for g in groups if not self.boss(view, seats, g)) <= 1 and len(groups) <= 3:
                return move
        return None
