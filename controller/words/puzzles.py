"""What the board says while a child solves a puzzle, and what it shows of a
learner's progress (controller/app/puzzle_desk.py, teaching_desk.py,
teaching/exercise.py). Words for a child of 6."""

from damka.controller.words.catalogue import Counted, add

add({
    # the menus
    "new.puzzles": ("Puzzles", "Zagadki"),
    "puzzles.title": ("Puzzles", "Zagadki"),
    "puzzles.footer": ("up/down: choose   ok: start   menu: back", "góra/dół: wybierz   ok: zacznij   menu: wróć"),
    "puzzles.variant": ("{variant}: a puzzle", "{variant}: zagadka"),
    "puzzles.next_lesson": ("Next lesson: {title}", "Następna lekcja: {title}"),
    "puzzles.progress": ("My progress", "Moje postępy"),
    "puzzles.learner": ("Who plays: {name} (ok: next)", "Kto gra: {name} (ok: następny)"),
    "learner.default": ("Player 1", "Gracz 1"),   # shown for the default learner (stored as "Player 1")
    # the puzzle on the board
    # difficulty: 1-5, as `damka puzzles list` and docs/puzzles.md give it; stars: what the child keeps (3, a hint costs 1)
    "puzzle.title": ("Puzzle {number} (difficulty {difficulty} of 5): {stars} of 3 stars",
                     "Zagadka {number} (trudność {difficulty} z 5): {stars} z 3 gwiazdek"),
    "puzzle.find_move": (Counted(("{side} to move and win {count} piece!", "{side} to move and win {count} pieces!")),
                         Counted(("{side}: ruch i wygrana {count} pionka!", "{side}: ruch i wygrana {count} pionków!",
                                  "{side}: ruch i wygrana {count} pionków!"))),
    "puzzle.find_win": ("{side} to move and win the game!", "{side}: ruch i wygrana partii!"),
    "puzzle.find_turn": ("{side} to move: find the turn (two moves) that wins points!",
                         "{side}: znajdź turę (dwa ruchy), która wygrywa punkty!"),
    "puzzle.go_on": ("Good! Now the next move.", "Dobrze! Teraz następny ruch."),
    "puzzle.reply": ("Now make my move: the one the lights show.", "Teraz zrób mój ruch: ten, który świeci."),
    "puzzle.reply_done": ("Thank you!", "Dziękuję!"),
    "puzzle.make_lit": ("{why} Make the lit move.", "{why} Zrób ruch, który świeci."),
    "puzzle.why.not_best": ("That move does not win. Look again!", "Ten ruch nie wygrywa. Poszukaj jeszcze!"),
    "puzzle.why.taken": ("After that move, I can jump your pieces! Look for a better one.",
                         "Po tym ruchu mogę zbić twoje pionki! Poszukaj lepszego."),
    "puzzle.why.taken_points": ("After that turn, I can capture and win the points! Look for a better one.",
                                "Po tej turze ja mogę bić i zdobyć punkty! Poszukaj lepszej."),
    "puzzle.why.not_lit": ("That is not the move the lights show.", "To nie jest ruch, który świeci."),
    "puzzle.hint.1": ("Hint: the lit piece moves. (A hint costs a star.)",
                      "Podpowiedź: rusza się świecący pionek. (Podpowiedź kosztuje gwiazdkę.)"),
    "puzzle.hint.2": ("Hint: the lights show the whole move.", "Podpowiedź: światła pokazują cały ruch."),
    "puzzle.solved": ("Well done! You solved it: {stars} of 3 stars.",
                      "Brawo! Rozwiązane: {stars} z 3 gwiazdek."),
    "puzzle.shown": ("The lights showed you the answer. Try another puzzle!",
                     "Światła pokazały odpowiedź. Spróbuj innej zagadki!"),
    "puzzle.finished_next": ("ok: next puzzle   menu: back", "ok: następna zagadka   menu: wróć"),
    "puzzle.status.setup": ("Set up the pieces", "Ustaw pionki"),
    "puzzle.status.play": ("{side} to move", "Ruch: {side}"),
    "puzzle.status.put_back": ("Not quite: put the pieces back", "Jeszcze nie: postaw pionki z powrotem"),
    "puzzle.status.right": ("Right!", "Dobrze!"),
    "puzzle.status.reply": ("My move", "Mój ruch"),
    "puzzle.status.done": ("Finished", "Koniec"),
    # progress
    "progress.title": ("My progress: {name}", "Moje postępy: {name}"),
    "progress.lessons": ("Lessons done: {done} of {total}", "Lekcje: {done} z {total}"),
    "progress.puzzles": ("Puzzles solved: {solved} of {total}", "Zagadki: {solved} z {total}"),  # total: that ship
    "progress.stars": ("Stars: {stars}", "Gwiazdki: {stars}"),
    "progress.rating": ("Rating: {rating}", "Ranking: {rating}"),
    "progress.back": ("Back", "Wróć"),
    "progress.footer": ("ok or menu: back", "ok albo menu: wróć"),
    # what a parent reads when a command is refused (the page)
    "teaching.no_puzzles": ("There are no {variant} puzzles.", "Nie ma zagadek: {variant}."),
    "teaching.no_puzzle": ("There is no puzzle {id} in the {variant} set.", "W zestawie {variant} nie ma zagadki {id}."),
    "teaching.all_solved": ("Every {variant} puzzle is solved already.", "Wszystkie zagadki {variant} już rozwiązane."),
    "teaching.bad_name": ("A name is 1 to 24 letters, digits or spaces (a hyphen or apostrophe may join two letters).",
                          "Imię to od 1 do 24 liter, cyfr albo spacji (łącznik lub apostrof może łączyć dwie litery)."),
    "teaching.too_many_learners": ("The board keeps {most} learners at most: choose one of them.",
                                   "Plansza pamięta najwyżej {most} uczniów: wybierz jednego z nich."),
})
