"""Lesson files: the ones that ship read cleanly, a teacher's faulty file is
told every fault on a line of its own (file, step, field), and the command
line lists the lessons and checks a file (`damka lessons`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.cli import main
from damka.teaching.lesson_file import (MAX_ANSWERS, MAX_STEPS, LessonError, LessonRefusedError, course_of,
                                       find_lesson, read_lesson, shipped, shipped_names)

ROOT = Path(__file__).resolve().parent.parent

FAULTY = """\
variant = "classic"
title = { en = "Bad", pl = "Zła" }
colour = "red"

[[step]]
position = "W:Wc3:Bh8"
to_move = "black"
say = { en = "Move it." }
right = ["c3-c4"]
well_done = { en = "Yes", pl = "Tak" }

[[step]]
position = "W:Wz9:Bh8"
say = { en = "x", pl = "y" }
right = ["c3-d4"]
well_done = { en = "Yes", pl = "Tak" }

[[step]]
position = "W:Wc3:Bh8"
say = { en = "x", pl = "y" }
right = ["c3-d4"]
[[step.wrong]]
move = "c3-d4"
en = "no"
pl = "nie"
"""


def test_the_lessons_that_ship_read_in_order() -> None:
    names = shipped_names()
    assert names[0] == "1-classic-01-man-moves" and names[-1] == "5-multiwarcaby-05-teams"
    assert [course_of(name) for name in names[:10]] == ["classic"] * 10
    assert [shipped(name).variant.name for name in names[:10]] == ["classic"] * 10
    # the course's number, the course, the lesson's number may be left out; a bare topic is the first course's
    for short in ("classic-07-flying-king", "classic-flying-king", "07-flying-king", "flying-king"):
        assert shipped(short).name == "1-classic-07-flying-king"
    assert shipped("capturing").name == "1-classic-02-capturing"
    assert shipped("russian-crowning").name == "2-russian-03-crowning"
    with pytest.raises(LessonError, match="no lesson 'chess'; the lessons are: 1-classic-01-man-moves"):
        shipped("chess")


def test_a_faulty_file_names_every_fault_by_step_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(FAULTY, encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        read_lesson(path)
    lines = str(caught.value).splitlines()
    assert lines == [
        f"{path}: colour: unknown field (the fields are variant, options, title and [[step]])",
        f"{path}: step 1.to_move: 'black', but in the position it is 'white' to move",
        f"{path}: step 1.say.pl: missing or empty",
        f"{path}: step 1.right: 'c3-c4': square 'c4' is not a playable square of this board",
        f"{path}: step 2.position: FEN field 2, token 'z9': square 'z9' is off the board (a1-h8)",
        f"{path}: step 3.well_done: missing: give the words as {{en = \"...\", pl = \"...\"}}",
    ]


def test_a_wrong_move_that_is_also_right_is_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "both.toml"
    path.write_text(FAULTY.replace('right = ["c3-d4"]\n[[step.wrong]]',
                                   'right = ["c3-d4"]\nwell_done = { en = "Yes", pl = "Tak" }\n[[step.wrong]]'),
                    encoding="utf-8")
    with pytest.raises(LessonError, match=r"step 3\.wrong: c3-d4 is also a right move"):
        read_lesson(path)


def test_a_multiwarcaby_turn_is_at_most_two_moves(tmp_path: Path) -> None:
    path = tmp_path / "three.toml"
    path.write_text('variant = "multiwarcaby7"\ntitle = { en = "a", pl = "b" }\n[[step]]\n'
                    'position = "MW7:S2:T1.1:P0,0:O5o1/7/7/7/7/1o5/7"\nsay = { en = "a", pl = "b" }\n'
                    'right = ["c3-d4 d4-e5 e5-f6"]\nwell_done = { en = "a", pl = "b" }\n', encoding="utf-8")
    with pytest.raises(LessonError, match=r"step 1\.right: 'c3-d4 d4-e5 e5-f6': a turn here is 1 to 2 moves"):
        read_lesson(path)


def test_not_toml_and_no_file_are_one_line_each(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("variant = \n", encoding="utf-8")
    with pytest.raises(LessonError, match=r"broken.toml: not a TOML file: Invalid value \(at line 1"):
        read_lesson(path)
    with pytest.raises(LessonError, match=r"missing.toml: no such lesson file"):
        find_lesson(str(tmp_path / "missing.toml"))


def test_lessons_check_prints_each_fault_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(FAULTY, encoding="utf-8")
    good = ROOT / "teaching" / "lessons" / "1-classic-01-man-moves.toml"
    assert main(["lessons", "check", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == f"{good}: ok, 3 steps of classic\n"
    assert len(err.splitlines()) == 6 and all(line.startswith(f"{bad}: ") for line in err.splitlines())
    assert main(["lessons", "check", str(good)]) == 0


def test_lessons_list_names_every_lesson(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "classic: 10 lessons, 33 steps"
    assert out[1] == "  1-classic-01-man-moves  classic  3 steps  How a man moves"
    assert [line.split()[0] for line in out if line.startswith("  ")] == shipped_names()


def test_the_docs_example_is_a_lesson_that_reads(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "my-lesson.toml"
    path.write_text(example, encoding="utf-8")
    lesson = read_lesson(path)
    assert lesson.name == "my-lesson" and len(lesson.steps) >= 2


STEP = ('[[step]]\nposition = "W:Wc3:Bh8"\nsay = { en = "Go.", pl = "Id\u017a." }\nright = [RIGHT]\n'
        'well_done = { en = "Yes.", pl = "Tak." }\n')
HEAD = 'variant = "classic"\ntitle = { en = "Long", pl = "D\u0142uga" }\n'


def test_a_lesson_of_too_many_steps_is_refused_before_its_steps_are_checked(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.toml"
    path.write_text(HEAD + STEP.replace("RIGHT", '"c3-d4"') * (MAX_STEPS + 1), encoding="utf-8")
    with pytest.raises(LessonRefusedError, match=f"long.toml: {MAX_STEPS + 1} steps; a lesson has at most {MAX_STEPS}"):
        read_lesson(path)
    assert main(["lessons", "check", str(path)]) == 2   # not a lesson at all: exit 2, one line
    assert capsys.readouterr().err.count("\n") == 1
    path.write_text(HEAD + STEP.replace("RIGHT", '"c3-d4"') * MAX_STEPS, encoding="utf-8")
    assert len(read_lesson(path).steps) == MAX_STEPS


def test_a_step_of_too_many_answers_is_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "answers.toml"
    path.write_text(HEAD + STEP.replace("RIGHT", ", ".join(['"c3-d4"'] * (MAX_ANSWERS + 1))), encoding="utf-8")
    with pytest.raises(LessonError, match=f"step 1.right: {MAX_ANSWERS + 1} moves; a step has at most {MAX_ANSWERS}"):
        read_lesson(path)


MW3 = ('variant = "multiwarcaby"\noptions = OPTIONS\ntitle = { en = "Three", pl = "Trzech" }\n[[step]]\n'
       'position = "MW9:S3:T1.1:P0,0,0:O9/9/6o2/9/3oo4/9/2o6/9/9"\nsay = { en = "a", pl = "b" }\n'
       'right = ["d5xf5"]\nwell_done = { en = "a", pl = "b" }\n')


def test_options_build_the_variant_of_a_lesson(tmp_path: Path) -> None:
    """Multiwarcaby with three players: `options = { sides = 3 }`; a wrong option is a fault of its own."""
    path = tmp_path / "three.toml"
    path.write_text(MW3.replace("OPTIONS", "{ sides = 3 }"), encoding="utf-8")
    lesson = read_lesson(path)
    assert lesson.variant.sides == ("1", "2", "3") and len(lesson.steps) == 1
    path.write_text(MW3.replace("OPTIONS", "{ sides = 9 }"), encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        read_lesson(path)
    assert str(caught.value).splitlines() == [
        f"{path}: options: multiwarcaby: option sides (--sides, tag Sides) cannot be 9; allowed: 2-4"]
    for options, said in (('"three"', "give the variant's options as a table, e.g. options = { sides = 3 }"),
                          ("{ colour = 1 }", "variant 'multiwarcaby' takes no option 'colour'")):
        path.write_text(MW3.replace("OPTIONS", options), encoding="utf-8")
        with pytest.raises(LessonError, match=f"options: {said}"):
            read_lesson(path)
    path.write_text(MW3.replace("OPTIONS", "{}"), encoding="utf-8")   # two players: the position's S3 is told
    with pytest.raises(LessonError, match=r"step 1.position: .*'S3'"):
        read_lesson(path)


MW2 = ('variant = "multiwarcaby7"\ntitle = { en = "a", pl = "b" }\n[[step]]\n'
       'position = "MW7:S2:T1.1:P0,0:O5o1/7/7/7/7/1o5/7"\nsay = { en = "a", pl = "b" }\n'
       'right = [RIGHT]\nwell_done = { en = "a", pl = "b" }\n[[step.wrong]]\nmove = "WRONG"\nen = "no"\npl = "nie"\n')


@pytest.mark.parametrize("right, wrong, said", [
    ('"c3-d4"', "c3-d4 d4-e5", "c3-d4 d4-e5 is counted right: it begins with a right answer"),
    ('"c3-d4 d4-e5"', "g8-g7 g7-g6", "g8-g7 g7-g6: the board tells a turn wrong after its first move when no "
                                     "right answer begins with it; write 'g8-g7' alone"),
])
def test_a_wrong_turn_the_board_would_not_refuse_with_its_words_is_a_fault(tmp_path: Path, right: str, wrong: str,
                                                                           said: str) -> None:
    path = tmp_path / "turns.toml"
    path.write_text(MW2.replace("RIGHT", right).replace("WRONG", wrong), encoding="utf-8")
    with pytest.raises(LessonError) as caught:
        read_lesson(path)
    assert str(caught.value).splitlines() == [f"{path}: step 1.wrong: {said}"]
    path.write_text(MW2.replace("RIGHT", '"c3-d4 d4-e5"').replace("WRONG", "c3-d4 d4-d5"), encoding="utf-8")
    assert read_lesson(path).steps[0].wrong[0][1].en == "no"  # begun as the answer is: told after both moves
