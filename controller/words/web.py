"""What the board's web server says: the board's screen line about the page
(the code, what a page changed), and the refusals a person at the page reads
(a file too large, a board that did not answer). Field errors of the page's
own requests (bad JSON, a field's form) stay in English: the page never
sends them wrong."""

from damka.controller.words.catalogue import add

add({
    "web.code": ("Web code {code}", "Kod strony {code}"),
    "web.code_long": ("Web code {code} {more} (many wrong codes: type all 12 digits)",
                      "Kod strony {code} {more} (wiele złych kodów: wpisz wszystkie 12 cyfr)"),
    "web.pin": (", arbiter PIN {pin}", ", PIN sędziego {pin}"),
    "web.banner": ("{line} - {note}", "{line} - {note}"),
    "web.new_game": ("new game set up from {who}", "nowa gra założona z: {who}"),
    "web.seat_handed": ("remote seat handed to {who}", "zdalne miejsce przekazane do: {who}"),
    "web.seat_claimed": ("remote seat claimed from {who}", "zdalne miejsce zajęte z: {who}"),
    "web.draw_offered": ("draw offered from {who}", "propozycja remisu z: {who}"),
    "web.takeback_asked_settled": ("take-back asked from {who}", "prośba o cofnięcie z: {who}"),
    "web.takeback_asked": ("take-back of {moves} asked from {who}", "prośba o cofnięcie ({moves}) z: {who}"),
    "web.draw_answered": ("draw {answer} from {who}", "remis {answer} z: {who}"),
    "web.takeback_answered": ("take-back {answer} from {who}", "cofnięcie {answer} z: {who}"),
    "web.action_from": ("{action} from {who}", "{action} z: {who}"),
    "web.changed_from": ("{what} from {who}", "{what} z: {who}"),
    "web.clock_from": ("clock {done} from {who}", "zegar {done} z: {who}"),
    "web.clock_paused": ("paused", "zatrzymany"),
    "web.clock_started": ("started", "uruchomiony"),
    "web.new_code": ("new code from {who}", "nowy kod z: {who}"),
    "web.no_seat": ("no seat of this game is played from the page", "w tej grze nikt nie gra ze strony"),
    "web.seat_held": ("the remote seat is held by another page already: only the arbiter PIN hands it to this page",
                      "zdalne miejsce zajmuje już inna strona: tylko PIN sędziego przekaże je tej stronie"),
    "web.remote_out": ("the remote player's side is out of the game already", "strona gracza zdalnego już odpadła z gry"),
    "web.not_the_seat": ("the remote seat is played by the page that set up the game (it holds the seat token): "
                         "{why}; other pages watch",
                         "zdalne miejsce gra strona, która założyła grę (ma jego klucz): {why}; inne strony patrzą"),
    "web.no_token": ("this page has none", "ta strona go nie ma"),
    "web.wrong_token": ("this page's seat token is wrong", "klucz tej strony jest zły"),
    "web.cannot_clock": ("cannot {action} the clock: {why}", "nie można zmienić zegara ({action}): {why}"),
    "web.starts_first_move": ("it starts with the first move", "rusza z pierwszym ruchem"),
    "web.clock_is": ("it is {state}", "jest w stanie {state}"),
    "web.not_remote_turn": ("it is not the remote seat's turn", "to nie jest ruch zdalnego miejsca"),
    "web.not_legal": ("{move} is not a legal move here; legal: {legal}",
                      "{move} to tu nieprawidłowy ruch; prawidłowe: {legal}"),
    "web.locked_client": ("too many wrong codes from {client}: try again in {wait} s",
                          "za dużo złych kodów z {client}: spróbuj znowu za {wait} s"),
    "web.locked_board": ("too many wrong codes on this board: type all {digits} digits of the code the board's "
                         "screen shows now, or try again in {wait} s",
                         "za dużo złych kodów na tej planszy: wpisz wszystkie {digits} cyfr kodu, który teraz "
                         "pokazuje ekran planszy, albo spróbuj znowu za {wait} s"),
    "web.needs_pin": ("this needs the arbiter PIN", "to wymaga PIN-u sędziego"),
    "web.needs_code": ("this needs the board's pairing code (shown on the board's screen) or the arbiter PIN",
                       "to wymaga kodu parowania planszy (widać go na ekranie planszy) albo PIN-u sędziego"),
    "web.code_not_enough": ("this needs the arbiter PIN (the pairing code is not enough)",
                            "to wymaga PIN-u sędziego (kod parowania nie wystarczy)"),
    "web.wrong_pin": ("wrong arbiter PIN", "zły PIN sędziego"),
    "web.wrong_code": ("wrong code", "zły kod"),
    "web.no_store": ("this board keeps no games (started without a store)",
                     "ta plansza nie zapisuje gier (uruchomiona bez bazy)"),
    "web.unreadable": ("the stored games cannot be read now", "teraz nie da się odczytać zapisanych gier"),
    "web.no_stored_game": ("there is no stored game {id}", "nie ma zapisanej gry {id}"),
    "web.cannot_show": ("there is no stored game {id} that can be shown", "nie ma zapisanej gry {id}, którą da się pokazać"),
    "web.cannot_store": ("the games cannot be stored now", "teraz nie da się zapisać gier"),
    "web.too_large": ("too large: the board takes at most {kib} KiB at once",
                      "za duże: plansza przyjmuje najwyżej {kib} KiB naraz"),
    "web.no_answer": ("the board did not answer in time: try again (if it keeps happening, restart the board)",
                      "plansza nie odpowiedziała na czas: spróbuj znowu (jeśli to się powtarza, uruchom ją ponownie)"),
    "web.importing": ("{name} is being imported: wait until it is done", "trwa wczytywanie {name}: poczekaj, aż się skończy"),
})
