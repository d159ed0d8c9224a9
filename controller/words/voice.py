"""What the board says aloud (controller/words/wording_voice.py): short sentences a
speech synthesiser reads well. The Polish voice says "bije" for a capture and
"na" for a step, as Polish players read a game aloud."""

from damka.controller.words.catalogue import Counted, add

add({
    "voice.to": ("to", "na"),
    "voice.takes": ("takes", "bije"),
    "voice.refused": ("Refused", "Odrzucone"),
    "voice.illegal": ("Illegal move", "Nieprawidłowy ruch"),
    "voice.put_back": ("put back on", "postaw z powrotem na"),
    "voice.take_off": ("take off", "zdejmij z"),
    "voice.computer": ("Computer plays", "Komputer gra"),
    "voice.flag": ("Flag", "Flaga"),
    "voice.out": ("is out", "odpada"),
    "voice.wins": ("wins", "wygrywa"),
    "voice.draw": ("Draw", "Remis"),
    "voice.byoyomi": ("byo-yomi", "bajomi"),
    "voice.taking_back": ("Taking back", "Cofamy ruch"),
    "voice.put": ("Put", "Postaw"),
    "voice.on": ("on", "na"),
    "voice.take": ("Take off", "Zdejmij z"),
    "voice.piece": ("a piece", "pionka"),
    "voice.king": ("a king", "damkę"),
    "voice.white piece": ("a white piece", "białego pionka"),
    "voice.black piece": ("a black piece", "czarnego pionka"),
    "voice.white king": ("a white king", "białą damkę"),
    "voice.black king": ("a black king", "czarną damkę"),
    "voice.periods": (Counted(("{count} period left", "{count} periods left")),
                      Counted(("{count} okres został", "{count} okresy zostały", "{count} okresów zostało"))),
    "voice.seconds": (Counted(("{count} second", "{count} seconds")),
                      Counted(("{count} sekunda", "{count} sekundy", "{count} sekund"))),
})

add({
    "sound.no_espeak": (
        "No voice: espeak-ng is not installed (sudo apt install espeak-ng); the board plays on without it",
        "Bez głosu: brak programu espeak-ng (sudo apt install espeak-ng); gra toczy się dalej bez niego"),
})
