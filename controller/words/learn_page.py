"""The phone page's "Learn" tab (web/static/learn.js, web/learn.py): starting a
lesson or a puzzle on the board, watching the child's tries, and each
learner's progress. The lesson's and the puzzle's own sentences (the
instruction, why a try was wrong) come from the board already in its
language; these are the page's words around them, and the board's screen
line about what the page started."""

from damka.controller.words.catalogue import add

add({
    # the page (keys "page.*" are served at /api/words)
    "page.tab_learn": ("Learn", "Nauka"),
    "page.learn_board": ("the lesson's board", "plansza lekcji"),
    "page.learn_on_board": ("On the board now", "Teraz na planszy"),
    "page.learn_lesson_step": ("Lesson: {title}, step {step} of {steps}", "Lekcja: {title}, krok {step} z {steps}"),
    "page.learn_tries": ("Tries", "Próby"),
    "page.learn_step": ("Step {step}", "Krok {step}"),
    "page.learn_no_tries": ("No tries yet.", "Jeszcze nie było prób."),
    "page.learn_right": ("right", "dobrze"),
    "page.learn_wrong": ("wrong", "źle"),
    "page.learn_reply_done": ("the other side's move", "ruch drugiej strony"),
    "page.learn_reply_wrong": ("not the reply the lights showed", "to nie ta odpowiedź, którą pokazały lampki"),
    "page.learn_stars": ("Stars: {stars} of 3", "Gwiazdki: {stars} z 3"),
    "page.learn_hints": ("Hints used: {count}", "Użyte podpowiedzi: {count}"),
    "page.learn_stop": ("Stop and go back to the menu", "Przerwij i wróć do menu"),
    "page.learn_learner": ("Who is learning", "Kto się uczy"),
    "page.learn_learner_now": ("At the board: {name}", "Przy planszy: {name}"),
    "page.learn_name": ("name", "imię"),
    "page.learn_name_label": ("the learner's name", "imię ucznia"),
    "page.learn_set_learner": ("Set", "Ustaw"),
    "page.learn_learner_set": ("{name} is learning at the board now", "teraz przy planszy uczy się: {name}"),
    "page.learn_progress": ("Progress", "Postępy"),
    "page.learn_progress_of": ("progress of", "postępy ucznia"),
    "page.learn_lessons_done": ("Lessons done: {done} of {total}", "Lekcje zrobione: {done} z {total}"),
    # {total}: the puzzles that ship (teaching/sets), {tried}: the tries made
    "page.learn_puzzles_solved": ("Puzzles solved: {solved} of {total}", "Zagadki rozwiązane: {solved} z {total}"),
    "page.learn_variant_solved": ("{variant}: {solved} of {total}", "{variant}: {solved} z {total}"),
    "page.learn_solved_of": ("{solved} of {total} solved", "rozwiązane: {solved} z {total}"),
    "page.learn_total_stars": ("Stars: {stars}", "Gwiazdki: {stars}"),
    "page.learn_rating": ("Rating: {rating}", "Ranking: {rating}"),
    "page.learn_lessons": ("Lessons", "Lekcje"),
    "page.learn_done": ("done", "zrobiona"),
    "page.learn_next": ("next", "następna"),
    "page.learn_puzzles": ("Puzzles", "Zagadki"),
    "page.learn_next_puzzle": ("Next puzzle", "Następna zagadka"),
    "page.learn_started_lesson": ("lesson started on the board: the lights set it up",
                                  "lekcja zaczęta na planszy: lampki ją ustawiają"),
    "page.learn_started_puzzle": ("puzzle {id} started on the board: the lights set it up",
                                  "zagadka {id} zaczęta na planszy: lampki ją ustawiają"),
    "page.learn_stopped": ("back to the board's menu", "powrót do menu planszy"),
    "page.learn_help": ("Starting a lesson or a puzzle needs the pairing code. The board's lights set up the "
                        "pieces; the tries show here as the child makes them.",
                        "Aby zacząć lekcję albo zagadkę, potrzebny jest kod parowania. Lampki planszy pokazują, "
                        "jak ustawić pionki; próby dziecka widać tutaj na bieżąco."),
    # the board's screen line about what the page did (WebServer.announce)
    "web.learn_lesson_from": ("lesson started from {who}", "lekcja zaczęta z: {who}"),
    "web.learn_puzzle_from": ("puzzle started from {who}", "zagadka zaczęta z: {who}"),
    "web.learn_learner_from": ("learner {name} chosen from {who}", "uczeń {name} wybrany z: {who}"),
    "web.learn_quit_from": ("back to the menu from {who}", "powrót do menu z: {who}"),
    "web.learn_no_learner": ("there is no learner called {name}", "nie ma ucznia o imieniu {name}"),
})
