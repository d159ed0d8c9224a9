"""What the board says of an uploaded PDN file: which record was passed over and why (the
engine's reasons are in `engine_reasons`), and why a file was not imported at all."""

from damka.controller.words.catalogue import add

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
})
