"""What the board says of an uploaded PDN file: which record was passed over and why (the
engine's reasons are in `engine_reasons`), and why a file was not imported at all."""

from damka.controller.words.catalogue import Counted, add

add({
    "import.problem": ("game {number} (line {line}): {reason}", "partia {number} (wiersz {line}): {reason}"),
    "import.first_problem": ("{name}, game {number}: line {line}: {reason}",
                             "{name}, partia {number}: wiersz {line}: {reason}"),
    "import.not_imported": ("PDN not imported: {why}", "PDN nie wczytany: {why}"),
    "import.stopped": ("PDN stopped after {read} games ({stored} stored): {why}",
                       "wczytywanie PDN przerwane (przeczytane partie: {read}, zapisane: {stored}): {why}"),
    "import.died": ("the import stopped unexpectedly (exit code {code})",
                    "wczytywanie przerwało się niespodziewanie (kod wyjścia {code})"),
    "import.no_record": ("no game record in the file", "w pliku nie ma zapisu żadnej partii"),
    # An import stopped at the archive's budget (controller/store/budget.py): {key} max_games or max_megabytes.
    "import.full": (Counted(("the archive is full ({limit}): {count} game of {name} stored, the rest not; to store "
                             "more, raise [archive] {key} in the board config",
                             "the archive is full ({limit}): {count} games of {name} stored, the rest not; to store "
                             "more, raise [archive] {key} in the board config")),
                    Counted(("archiwum jest pełne ({limit}): z {name} zapisano {count} partię, reszty nie; aby "
                             "zapisać więcej, podnieś [archive] {key} w konfiguracji planszy",
                             "archiwum jest pełne ({limit}): z {name} zapisano {count} partie, reszty nie; aby "
                             "zapisać więcej, podnieś [archive] {key} w konfiguracji planszy",
                             "archiwum jest pełne ({limit}): z {name} zapisano {count} partii, reszty nie; aby "
                             "zapisać więcej, podnieś [archive] {key} w konfiguracji planszy"))),
    "import.full_games": (Counted(("its budget is {count} game", "its budget is {count} games")),
                          Counted(("jego budżet to {count} partia", "jego budżet to {count} partie",
                                   "jego budżet to {count} partii"))),
    "import.full_megabytes": ("its games take all of its budget, {megabytes} MB",
                              "jego partie zajmują cały budżet, {megabytes} MB"),
})
