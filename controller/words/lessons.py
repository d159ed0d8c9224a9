"""What the board says while a child takes a lesson (or solves an exercise):
the menu of lessons, the runner's lines and why a try was not right. The
lessons' own words (instructions, well done) are in their files
(teaching/lessons/*.toml), in English and Polish too. Words for a child of 6."""

from damka.controller.words.catalogue import add

add({
    # controller/app/menus.py, controller/app/lesson_desk.py: the menu and the screen
    "new.lessons": ("Lessons", "Lekcje"),
    "lessons.title": ("Lessons", "Lekcje"),
    "lessons.back": ("Back", "Wróć"),
    "lessons.footer": ("up/down: lesson   ok: start   menu: back", "góra/dół: lekcja   ok: zacznij   menu: wróć"),
    "lesson.title": ("Lesson: {title} ({step} of {steps})", "Lekcja: {title} ({step} z {steps})"),
    "lesson.finished": ("Well done! You finished the lesson \"{title}\".",
                        "Brawo! Lekcja „{title}” skończona."),
    "lesson.finished_next": ("ok or menu: back to the menu", "ok albo menu: powrót do menu"),
    "lesson.next": ("ok: next step", "ok: dalej"),
    "lesson.status.setup": ("Set up the pieces", "Ustaw pionki"),
    "lesson.status.play": ("Your move!", "Twój ruch!"),
    "lesson.status.put_back": ("Not quite: put the pieces back", "Jeszcze nie: postaw pionki z powrotem"),
    "lesson.status.right": ("Right!", "Dobrze!"),
    "lesson.status.finished": ("Well done!", "Brawo!"),
    # teaching/exercise.py: the runner's lines
    "lesson.set_up": ("Set up the pieces as the lights show: {guide}",
                      "Ustaw pionki tak, jak świecą lampki: {guide}"),
    "lesson.put_back": ("{why} Put the pieces back as the lights show: {guide}",
                        "{why} Postaw pionki z powrotem tak, jak świecą lampki: {guide}"),
    "lesson.try_again": ("{why} Try again!", "{why} Spróbuj jeszcze raz!"),
    "lesson.answer_lit": ("{why} Look at the lights: move the lit piece where they show.",
                          "{why} Popatrz na lampki: przesuń podświetlony pionek tam, gdzie świecą."),
    # teaching/mistakes.py: why a try was not right
    "lesson.why.not_yours": ("That is not your piece. Move one of your own.",
                             "To nie twój pionek. Rusz swoim."),
    "lesson.why.must_capture": ("You can jump over a piece, so you must jump!",
                                "Możesz przeskoczyć pionek, więc musisz bić!"),
    "lesson.why.stuck": ("That piece cannot move now.", "Ten pionek nie może się teraz ruszyć."),
    "lesson.why.other_piece": ("Not that piece this time.", "Tym razem nie ten pionek."),
    "lesson.why.other_move": ("You may move like that, but it is not what we are learning now.",
                              "Tak wolno, ale teraz uczymy się czegoś innego."),
    "lesson.why.forward": ("A man only goes forward, never back.",
                           "Pionek idzie tylko do przodu, nigdy do tyłu."),
    "lesson.why.one_step": ("A man goes one square, along the slanting line.",
                            "Pionek idzie o jedno pole, po skosie."),
    "lesson.why.king_line": ("A king goes along a slanting line, over empty squares only.",
                             "Damka idzie po skosie, tylko po pustych polach."),
    "lesson.why.step_any": ("A piece goes to a square right next to it.",
                            "Pionek idzie na pole tuż obok."),
    "lesson.why.majority": ("You must take as many pieces as you can!",
                            "Musisz zbić tyle pionków, ile się da!"),
    "lesson.why.illegal": ("That move is not allowed.", "Tak nie wolno."),
})
