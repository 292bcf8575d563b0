"""``ddz lessons validate``: the shipped course is clean, and every kind of problem is caught."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from tests.verdicts import Verdicts, digest
from tutor.lessons.course import load_course
from tutor.lessons.oracle import Oracle
from tutor.lessons.validate import Report, validate_paths
from tutor.paths import lessons_dir

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return Oracle()


def _course_key(view: bool) -> str:
    """The shipped course's content (every lesson file's bytes) and the validation's settings."""
    files = sorted(lessons_dir().glob("*.yaml"))
    return digest({"files": {f.name: digest(f.read_bytes().decode("utf-8")) for f in files}, "view": view})


def _course_found(report: Report) -> dict[str, Any]:
    hidden_23_27 = [s for lesson in report.lessons[22:27] for s in lesson.steps
                    if s.task is not None and s.setup is not None and not s.setup.show >= {1, 2}]
    return {"problems": [asdict(p) for p in report.problems], "claims": asdict(report.claims),
            "lessons": len(report.lessons), "files": report.files, "figures": report.figures(),
            "hidden_23_27": len(hidden_23_27)}


def course_verdicts() -> dict[str, Any]:
    """The good verdicts of the shipped course, with and without the coach's weighing (tests/verdicts.py)."""
    oracle = Oracle()
    good = {}
    for view in (True, False):
        found = _course_found(validate_paths(None, oracle, view=view))
        if found["problems"] or found["claims"]["unclear"]:
            print(f"NOT valid (view={view}), not recorded: {found['problems'][:3]} {found['claims']['unclear'][:3]}")
        else:
            good[_course_key(view)] = found
    return good


#: The shipped course's validation for this module's run, by ``view``: two tests read the one without the
#: coach's weighing (1.2 s CPU a validation once the module's oracle holds the course's proofs).
_VALIDATED: dict[bool, dict[str, Any]] = {}


def _course(oracle: Oracle, view: bool) -> dict[str, Any]:
    """The shipped course validated: a cached good verdict of this very course and code, or validated now
    (once per module run and ``view``: the tests only read the result)."""
    if view in _VALIDATED:
        return _VALIDATED[view]
    cache = Verdicts("lessons")
    found = cache.get(_course_key(view))
    print(f"\n{cache.note()}; {'cached' if found else 'validating now'} (view={view})")
    _VALIDATED[view] = found if found is not None else _course_found(validate_paths(None, oracle, view=view))
    return _VALIDATED[view]


def test_every_shipped_lesson_validates(oracle: Oracle) -> None:
    """The whole course, hidden-hand claims weighed by the coach's view-based evaluation too."""
    report = _course(oracle, view=True)
    assert report["problems"] == []
    claims = report["claims"]
    assert claims["unclear"] == []  # every wrong answer on hidden hands is clearly worse
    kinds = claims["by_kind"]
    assert kinds.get("bid_mistake", 0) >= 10 and kinds.get("bid_accepted", 0) >= 6  # bids agree with the coach
    assert kinds.get("accepted_view", 0) >= 20 and claims["reachable"] >= 30
    assert kinds.get("mistake_view", 0) >= 5
    assert report["lessons"] >= 20
    assert report["files"] == len(list(lessons_dir().glob("*.yaml")))
    figures = report["figures"]  # the closing note's counts (issue 21)
    assert figures["tasks"] >= 139 and figures["hints"] >= 3 * figures["tasks"]
    assert figures["hidden"] >= 20 and figures["web"] >= 10 and figures["feedback"] >= 150
    assert report["hidden_23_27"] >= 3  # the new lessons practise reading the table, not only open positions


def test_the_course_figures_line_has_plurals_right_in_both_languages() -> None:
    from tutor.i18n import speaking, t

    with speaking("ru"):
        line = t("lessons.validate_course", tasks=21, hidden=2, hints=3, real_hints=3, feedback=5, derived=1, web=22)
    assert line.startswith("Курс: 21 задание (") and "3 подсказки" in line and "5 неверных ответов" in line
    assert "1 задание," in line and "22 текста" in line
    with speaking("en"):
        line = t("lessons.validate_course", tasks=1, hidden=0, hints=2, real_hints=2, feedback=1, derived=1, web=1)
    assert line.startswith("The course: 1 task (") and "1 wrong answer with" in line and "1 text with" in line


def test_the_course_covers_every_combination_and_every_beginner_mistake() -> None:
    from tutor.engine.combos import Kind, readings

    named: set[str] = set()
    mistakes: set[str] = set()
    for lesson in load_course():  # the lessons as the learner gets them (validated by the test above)
        for step in lesson.steps:
            task = step.task
            if task is None:
                continue
            if task.cards is not None:
                named |= {r.kind.label for r in readings(task.cards)}
            named |= {k.label for k in task.kinds}
            mistakes |= {f.mistake.value for f in task.feedback if f.mistake is not None}
            if step.setup is not None and step.setup.table is not None:
                named.add(step.setup.table.kind.label)
    assert named >= {k.label for k in Kind}
    assert mistakes == {"break_bomb_for_straight", "high_cards_early", "beat_partner", "not_counting"}


def _problems(name: str, oracle: Oracle) -> list[tuple[int, str, str]]:
    report = validate_paths([DATA / name], oracle)
    assert not report.ok
    for problem in report.problems:
        assert problem.file.endswith(name)
    return [(p.line, p.path, p.code) for p in report.problems]


def test_schema_errors_have_line_and_path(oracle: Oracle) -> None:
    found = _problems("broken_schema.yaml", oracle)
    assert (1, "id", "schema") in found
    assert (2, "level", "schema") in found
    assert (4, "steps[0]", "schema") in found  # the unknown field 'colour'
    assert any(path == "(top)" and code == "schema" for _, path, code in found)  # title missing


def test_a_card_that_does_not_exist(oracle: Oracle) -> None:
    assert (8, "steps[0].position.hands.you", "bad_cards") in _problems("broken_cards.yaml", oracle)


def test_the_same_card_in_two_hands(oracle: Oracle) -> None:
    assert (8, "steps[0].position.hands", "duplicate_card") in _problems("broken_duplicate.yaml", oracle)


def test_impossible_hand_sizes(oracle: Oracle) -> None:
    assert (9, "steps[0].position.counts.right", "hand_size") in _problems("broken_hand_size.yaml", oracle)


def test_an_accepted_answer_that_is_illegal(oracle: Oracle) -> None:
    assert (13, "steps[0].task.accept.moves[0]", "illegal_answer") in _problems("broken_illegal.yaml", oracle)


def test_a_winning_answer_the_solver_refutes(oracle: Oracle) -> None:
    found = _problems("broken_refuted.yaml", oracle)
    assert (11, "steps[0].task.accept.moves[0]", "refuted") in found


def test_a_position_that_cannot_be_reached(oracle: Oracle) -> None:
    assert (9, "steps[0].position.table.by", "unreachable") in _problems("broken_unreachable.yaml", oracle)


def test_all_problems_of_all_files_in_one_run(oracle: Oracle) -> None:
    report = validate_paths([DATA], oracle)
    codes = {p.code for p in report.problems}
    assert {"schema", "bad_cards", "duplicate_card", "hand_size", "illegal_answer", "refuted", "unreachable"} <= codes
    assert len({p.file for p in report.problems}) == len(list(DATA.glob("*.yaml")))


def test_rule_6_a_history_play_that_does_not_beat_is_unreachable(oracle: Oracle) -> None:
    assert (10, "steps[0].position.history[2].play", "unreachable") in _problems("broken_history.yaml", oracle)


# ---------------------------------------------------------------- issue 14: the teaching is proven


def test_old_lesson_15_calls_winning_moves_mistakes(oracle: Oracle) -> None:
    """With all hands open, A, 7, 77, 777, 777A and the four + 2s also win: each is one line."""
    report = validate_paths([DATA / "old_15_bomb_for_straight.yaml"], oracle)
    flagged = {(p.path, p.message.split("'")[1]) for p in report.problems if p.code == "mistake_wins"}
    moves = {move for _, move in flagged}
    assert {"A", "7", "77", "777", "777A"} <= moves
    assert any(m.endswith("7777") and len(m) == 6 for m in moves)  # the four + 2s
    assert "34567" not in moves and "7777" not in moves  # these two really lose
    assert all(p.line > 0 and p.path.startswith("steps[1].task.feedback[") for p in report.problems
               if p.code == "mistake_wins")


def test_old_lesson_12_accepts_a_slower_plan_and_misses_the_best(oracle: Oracle) -> None:
    """3456789 leaves a 6-play hand; 3456789TJQK then TJQKA plays it out in 5."""
    found = _problems("old_12_landlord_plan.yaml", oracle)
    assert (32, "steps[1].task.accept.moves[0]", "not_best") in found
    assert (32, "steps[1].task.accept", "unlisted_best") in found
    report = validate_paths([DATA / "old_12_landlord_plan.yaml"], oracle)
    assert any("3456789TJQK" in p.message for p in report.problems if p.code == "unlisted_best")


def test_claims_are_counted_on_the_shipped_course(oracle: Oracle) -> None:
    report = _course(oracle, view=False)
    assert report["problems"] == []
    assert report["claims"]["proven"] >= 50
    assert report["claims"]["by_kind"].get("mistake", 0) >= 25


def test_hints_are_real_steps_and_the_answer_comes_last_with_why(oracle: Oracle) -> None:
    """Issue 30: two real hints before any answer; only the last may show it, and never bare."""
    found = _problems("broken_hints.yaml", oracle)
    assert (10, "steps[0].task.hints[0]", "hint_order") in found  # the answer came first
    assert (9, "steps[0].task.hints", "hint_order") in found  # and one real hint is not two
    assert (19, "steps[1].task.hints[2]", "bare_answer") in found  # «Answer: trio + pair.» alone
    assert not [f for f in found if f[1].startswith("steps[2]")]  # two clues, then the answer with why


def test_the_course_hints_are_real_steps(oracle: Oracle) -> None:
    """Every hint of the shipped course is a real step: no «Answer: X» alone (issue 30)."""
    figures = _course(oracle, view=False)["figures"]
    assert figures["real_hints"] == figures["hints"] >= 3 * figures["tasks"]


def test_thrift_proves_the_cheapest_answer(oracle: Oracle) -> None:
    """'Beat it cheaply': a higher card that leaves as many plays is proven worse (cards lesson)."""
    report = validate_paths([lessons_dir() / "02_cards.yaml"], oracle)
    assert report.ok and report.claims.by_kind.get("mistake", 0) >= 5


def _one_step(tmp_path: Path, name: str, level: int, step: str, oracle: Oracle) -> Report:
    """Validate (with the coach's weighing) a lesson of one step written here: ``step`` is its YAML."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\ntitle: t\nlevel: {level}\nsteps:\n{step}", encoding="utf-8")
    return validate_paths([path], oracle, view=True)


def test_view_based_check_flags_a_wrong_answer_that_wins_more_often(tmp_path: Path, oracle: Oracle) -> None:
    """The old beating step: KKK4 split the pair 44, and KKK2 kept 44 + AA (two plays)."""
    report = _one_step(tmp_path, "old-beating", 2,
                       "  - text: Left led QQQ + 3. Beat it.\n"
                       "    position: {landlord: left, bid: 1, hands: {you: 44KKKAA2}, counts: {right: 17, left: 16},"
                       " table: {by: left, cards: QQQ3}}\n"
                       "    task:\n      type: play\n      accept: {moves: [KKK4]}\n"
                       "      feedback:\n        - {answer: KKK2, text: a 2 wasted as a wing}\n", oracle)
    found = {(p.line, p.path, p.code) for p in report.problems}
    assert (11, "steps[0].task.feedback[0].answer", "view_contradicts") in found  # KKK2 wins more often
    assert (9, "steps[0].task.accept", "view_contradicts") in found  # and an unlisted move (KKKA) too


# ---------------------------------------------------------------- issue 21: the course agrees with the coach


def test_the_old_opening_lead_with_eight_cards_is_refused(oracle: Oracle) -> None:
    """The landlord's first lead while you hold 8 cards: no game reaches it (RULES §3)."""
    assert (6, "steps[0].position", "unreachable") in _problems("broken_opening_lead.yaml", oracle)


def test_old_bidding_steps_the_coach_calls_mistakes_are_reported(tmp_path: Path, oracle: Oracle) -> None:
    """The old lesson 12 step 5: pass after left's 1 with two 2s and a bomb; the coach's expected score says 3."""
    report = _one_step(tmp_path, "old-bidding", 3,
                       "  - text: t\n    position: {bids: [{by: left, bid: 1}], hands: {you: 4555578899JJQKA22}}\n"
                       "    task: {type: bid, accept: {bids: [0]}}\n", oracle)
    found = {(p.path, p.code) for p in report.problems}
    assert ("steps[0].task.accept.bids[0]", "coach_disagrees") in found  # pass is not a good choice
    assert ("steps[0].task.accept.bids", "coach_disagrees") in found  # and bid 3, called wrong, is not worse
    assert report.claims.by_kind.get("bid_accepted", 0) == 0


def test_a_drill_answer_the_coach_calls_a_blunder_is_reported(tmp_path: Path, oracle: Oracle) -> None:
    """The old airplane drill accepted every airplane with single wings, JJJQQQ + A + 2 among them."""
    report = _one_step(tmp_path, "old-airplane", 2,
                       "  - text: t\n    position: {landlord: you, bid: 2, hands: {you: 4JJJQQQ9A2},"
                       " counts: {right: 17, left: 17}}\n"
                       "    task: {type: play, accept: {kinds: [airplane_singles]}}\n", oracle)
    flagged = [p.message for p in report.problems if p.code == "coach_disagrees"]
    assert any("'JJJQQQA2'" in m and "blunder" in m for m in flagged)
    assert not any(m.startswith("the lesson accepts '49JJJQQQ'") for m in flagged)


def _lesson(tmp_path: Path, name: str, head: str, step: str, oracle: Oracle) -> Report:
    """Validate (with the coach's weighing) a one-step lesson whose top lines ``head`` may name its rules."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\ntitle: t\nlevel: 4\n{head}steps:\n{step}", encoding="utf-8")
    return validate_paths([path], oracle, view=True)


_HINTS = "      hints: [look at your winners, count your plays]\n"


def test_a_rob_decision_is_weighed_under_the_rob_auction(tmp_path: Path, oracle: Oracle) -> None:
    """Lesson 40's strong hand: pass after Left's call is no good choice under `rules: rob` (issue 30)."""
    step = ("  - text: t\n    position: {bids: [{by: left, bid: call}], hands: {you: 34567899TJQKAA22D}}\n"
            "    task:\n      type: bid\n      accept: {bids: [pass]}\n" + _HINTS +
            "      feedback: [{answer: rob, text: t}]\n")
    report = _lesson(tmp_path, "rob-pass", "rules: rob\n", step, oracle)
    found = {(p.path, p.code) for p in report.problems}
    assert ("steps[0].task.accept.bids[0]", "coach_disagrees") in found  # pass is not a good choice
    assert ("steps[0].task.accept.bids", "coach_disagrees") in found  # and the rob called wrong is not worse
    right = _lesson(tmp_path, "rob-right", "rules: rob\n", step.replace("[pass]", "[rob]").replace(
        "answer: rob", "answer: pass"), oracle)
    assert right.ok, right.problems
    assert right.claims.by_kind.get("bid_accepted") == 1 and right.claims.by_kind.get("bid_mistake") == 1
    classic = _lesson(tmp_path, "rob-classic", "", step.replace("bid: call", "bid: 1"), oracle)
    assert any(p.code == "illegal_answer" or p.code == "bad_answer" for p in classic.problems)  # no rob in §3


def test_an_open_hand_decision_is_weighed_and_needs_the_open_rules(tmp_path: Path, oracle: Oracle) -> None:
    """Lesson 41: the rocket hand is shown; keeping it closed is called wrong, proven by expected score."""
    step = ("  - text: t\n    position: {landlord: you, bid: 3, hands: {you: 33456789TTJQKKAA22XD},"
            " counts: {right: 17, left: 17}, kitty: KXD}\n"
            "    task:\n      type: show\n      accept: {show: SHOWN}\n" + _HINTS +
            "      feedback: [{answer: WRONG, text: t}]\n")
    right = _lesson(tmp_path, "show-right", "rules: open\n", step.replace("SHOWN", "true").replace("WRONG", "keep"),
                    oracle)
    assert right.ok, right.problems
    assert right.claims.by_kind.get("bid_accepted") == 1 and right.claims.by_kind.get("bid_mistake") == 1
    wrong = _lesson(tmp_path, "show-wrong", "rules: open\n", step.replace("SHOWN", "false").replace("WRONG", "show"),
                    oracle)
    assert {p.code for p in wrong.problems} == {"coach_disagrees"}
    classic = _lesson(tmp_path, "show-classic", "", step.replace("SHOWN", "true").replace("WRONG", "keep"), oracle)
    assert [p.code for p in classic.problems] == ["illegal_answer"]  # the standard rules never show a hand


def test_every_strategy_lesson_has_five_tasks() -> None:
    """From bidding on, the course teaches decisions: each lesson drills at least five (issue 30)."""
    from tutor.lessons.course import load_course

    course = load_course()
    first = next(i for i, lesson in enumerate(course) if lesson.id == "bidding")
    short = {lesson.id: lesson.tasks for lesson in course[first:] if lesson.tasks < 5}
    assert short == {}
    assert {lesson.id: lesson.rules.name for lesson in course if lesson.rules.name != "standard"} == {
        "rob-the-landlord": "rob", "open-hand": "open", "wildcard": "wild-9", "four-players": "four"}


def test_rule_12_3_a_wildcard_lesson_is_proven_under_its_wild_rank(tmp_path: Path, oracle: Oracle) -> None:
    """Lesson 42: names and scores read under `rules: wild-R` (the wild rank fixed); not under another rank."""
    step = ("  - text: t\n    task:\n      type: name\n      accept: {kinds: [bomb]}\n" + _HINTS +
            "      cards: \"7779\"\n"
            "  - text: t\n    task:\n      type: score\n      ask: cost\n"
            "      game: {bid: 1, winner: landlord, bombs: [\"7779\"]}\n" + _HINTS)
    right = _lesson(tmp_path, "wild-right", "rules: wild-9\n", step, oracle)
    assert right.ok, right.problems
    other = _lesson(tmp_path, "wild-other", "rules: wild-8\n", step, oracle)
    assert [p.code for p in other.problems] == ["illegal_answer", "illegal_answer"]  # 7779 is no bomb with 8s wild
    bad = _lesson(tmp_path, "wild-joker", "rules: wild-X\n", step, oracle)
    assert not bad.ok  # a joker is never wild (RULES §12.3): the schema refuses the name
