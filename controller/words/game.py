"""What the session, the app and the DXP seat say while a game is played: the
message line, refusals, the arbiter's and the offers' lines. English word for
word as the code says it today; the comment over each group names where it is
said (file:line at the time of writing), for the code to call `say(key, ...)`."""

from damka.controller.words.catalogue import Counted, add

add({
    # controller/session.py
    "session.setup": ("set up the pieces", "ustaw pionki"),                                      # :98
    "session.clock_started": ("clock started; {prompt}", "zegar ruszył; {prompt}"),              # :335
    "session.its_turn": ("it is {side}'s turn", "teraz ruch: {side}"),                          # :338
    "session.carry_out_computer": ("carry out the computer's move", "wykonaj ruch komputera"),   # :341
    "session.put_back_turn": ("put the pieces back as they were at the start of the turn",       # :345
                              "postaw pionki tak, jak stały na początku tury"),
    # controller/session_assist.py
    "session.no_hints": ("no hints now", "teraz nie ma podpowiedzi"),                           # :56
    "session.no_takeback_tournament": ("no take-back in tournament play",                        # :101, app_offers.py:77
                                       "w turnieju nie cofa się ruchów"),
    "session.nothing_to_take_back": ("there is no move to take back", "nie ma ruchu do cofnięcia"),  # :104, offers.py:89
    "session.no_takeback": ("no take-back: {error}", "nie można cofnąć: {error}"),               # :142
    "session.moves": (Counted(("{count} move", "{count} moves")),                                # :144
                      Counted(("{count} ruch", "{count} ruchy", "{count} ruchów"))),
    "session.takeback_asked": ("take-back of {moves} asked of the {who}: waiting for the answer",  # :146
                               "prośba o cofnięcie ({moves}) do: {who}; czekamy na odpowiedź"),
    "session.put_back_leds": ("{reason}: put the pieces back as the LEDs show",                  # :167
                              "{reason}: postaw pionki z powrotem tak, jak pokazują diody"),
    "session.takeback_too_far": ("take-back of {plies} plies: the game has {ply}",               # :177
                                 "cofnięcie {plies} półruchów: gra ma ich {ply}"),
    # controller/session_commits.py
    "session.no_move_counts": ("no move counts now: {error}", "teraz żaden ruch się nie liczy: {error}"),  # :25
    "session.restored": ("moves restored; {prompt}", "ruchy przywrócone; {prompt}"),             # :82
    "session.no_takeback_past": ("no take-back past {floor}", "nie można cofnąć przed: {floor}"),  # :113
    "session.took_back": (Counted(("took back {count} move; {prompt}", "took back {count} moves; {prompt}")),  # :129
                          Counted(("cofnięto {count} ruch; {prompt}", "cofnięto {count} ruchy; {prompt}",
                                   "cofnięto {count} ruchów; {prompt}"))),
    "session.game_over": ("game over: {result}", "koniec gry: {result}"),                        # :148
    "session.new_game": ("new game; {prompt}", "nowa gra; {prompt}"),                            # :161
    # controller/session_ends.py
    "session.flag_fell": ("{side}'s flag fell in stage {stage}: play goes on",                   # :48
                          "{side}: flaga opadła w etapie {stage}, gra toczy się dalej"),
    "session.loss_on_time": ("a loss on time", "przegrana na czas"),                            # :62
    "session.end_of_game": ("the end of the game", "koniec gry"),                               # :84
    "session.out": ("{side} is out ({why})", "{side} odpada ({why})"),                           # :111
    "session.out_put_back": ("{out}: put the pieces back as they were at the start of the turn",  # :119
                             "{out}: postaw pionki tak, jak stały na początku tury"),
    # controller/session_judge.py
    "session.must_capture": ("{text}; a capture is compulsory ({squares})",                      # :28
                             "{text}; bicie jest obowiązkowe ({squares})"),
    "session.second_move": ("one move made: make the second move of your turn",                 # :82
                            "jeden ruch zrobiony: zrób drugi ruch swojej tury"),
    "session.move_first": ("make your move before pressing the clock",                          # :84
                           "zrób ruch, zanim naciśniesz zegar"),
    "session.illegal_must_capture": ("this is not a legal move: a capture is compulsory ({squares})",  # :89
                                     "to nie jest prawidłowy ruch: bicie jest obowiązkowe ({squares})"),
    "session.illegal": ("this is not a legal move", "to nie jest prawidłowy ruch"),              # :90
    "session.take_captured": ("take the captured pieces off the board first",                    # :105
                              "najpierw zdejmij zbite pionki z planszy"),
    "session.finish_move": ("finish your move first", "najpierw dokończ ruch"),                 # :107
    "session.press_refused": ("press refused: {text}", "naciśnięcie odrzucone: {text}"),         # :123
    # controller/hints.py, controller/coach.py (the message line's guidance)
    "hint.put_piece": ("put a piece{back} on {square}", "postaw pionek{back} na {square}"),       # hints.py:65
    "hint.back": (" back", " z powrotem"),
    "hint.take_piece": ("take the piece off {square}", "zdejmij pionek z {square}"),             # hints.py:67
    "hint.more": (Counted(("{text} ({count} more square to fix)", "{text} ({count} more squares to fix)")),  # hints.py:70
                  Counted(("{text} (jeszcze {count} pole do poprawienia)", "{text} (jeszcze {count} pola do poprawienia)",
                           "{text} (jeszcze {count} pól do poprawienia)"))),
    "coach.loses": ("This move loses about {amount} by force.", "Ten ruch na pewno traci około: {amount}."),  # coach.py:57
    "coach.no_hints_left": ("no hints left ({limit} per game)", "nie ma już podpowiedzi ({limit} na grę)"),  # coach.py:107
    "coach.game_over": ("the game is over: there is no move to suggest",                          # coach.py:109
                        "gra się skończyła: nie ma ruchu do podpowiedzenia"),
    # controller/resume.py
    "resume.describe": ("game {id}, {variant}, move {number}, {players}", "gra {id}, {variant}, ruch {number}, {players}"),  # :55
    # controller/app.py
    "app.names_unused": (Counted(("{count} player name for a game of {sides} sides: the sides' own names are used",  # :314
                                  "{count} player names for a game of {sides} sides: the sides' own names are used")),
                         Counted(("{count} imię gracza na grę dla {sides} stron: strony mają swoje nazwy",
                                  "{count} imiona graczy na grę dla {sides} stron: strony mają swoje nazwy",
                                  "{count} imion graczy na grę dla {sides} stron: strony mają swoje nazwy"))),
    "where.ok_button": ("the board's ok button", "przycisk ok planszy"),                         # app.py:234
    "where.menu": ("the board's menu", "menu planszy"),                                          # app_menus.py:132,142,147
    "where.remote_page": ("remote page", "strona zdalna"),                                       # app_offers.py:83, offers.py:24
    "where.remote_player": ("remote player", "gracz zdalny"),                                    # app_offers.py:112
    "where.page": ("page", "strona"),                                                            # offers.py:24
    "where.board": ("board", "plansza"),                                                         # offers.py:24
    # controller/app_commands.py: the arbiter's and the page's commands, and their refusals
    "command.by": ("{detail} (by {where})", "{detail} (zrobił: {where})"),                       # :72
    "command.side_label": ("{name} ({word})", "{name} ({word})"),                                # :68
    "command.no_game": ("there is no game on the board", "na planszy nie ma gry"),               # :50,186,219; app_offers.py:142
    "command.no_clock": ("this game has no clock", "ta gra nie ma zegara"),                      # :52
    "command.clock_over": ("the game is over: its clock is stopped for good",                    # :54
                           "gra się skończyła: jej zegar stoi na dobre"),
    "command.not_a_side": ("side: {side} is not a side of this game (0-{last})",                 # :60
                           "side: {side} to nie strona tej gry (0-{last})"),
    "command.only_running": ("the clock is {state}: only a running clock can be paused",         # :84
                             "zegar jest w stanie {state}: zatrzymać można tylko chodzący zegar"),
    "command.clock_paused": ("clock paused", "zegar zatrzymany"),                                # :88
    "command.only_paused": ("the clock is {state}: only a paused clock can be restarted",        # :93
                            "zegar jest w stanie {state}: wznowić można tylko zatrzymany zegar"),
    "command.not_set_up": ("the pieces are not set up yet: the clock runs again when play goes on",  # :96
                           "pionki nie są jeszcze ustawione: zegar ruszy, gdy gra będzie toczyć się dalej"),
    "command.clock_running": ("clock running again", "zegar znowu chodzi"),                      # :101
    "command.not_a_time": ("{what}: {ms} is not a time in ms (at most a day)",                   # :105
                           "{what}: {ms} to nie czas w ms (najwyżej doba)"),
    "command.zero_ms": ("ms: 0 changes nothing (give a time to add, or a negative one to take off)",  # :113
                        "ms: 0 niczego nie zmienia (podaj czas do dodania albo ujemny do odjęcia)"),
    "command.by_where": ("by {where}", "zrobił: {where}"),                                       # :115,127
    "command.time_changed": ("{side} {time}", "{side} {time}"),                                  # :118
    "command.no_time_left": ("ms_left: {ms} is no time left (the arbiter declares the result instead)",  # :125
                             "ms_left: {ms} to brak czasu (zamiast tego sędzia ogłasza wynik)"),
    "command.time_set": ("{side} set to {time}", "{side}: ustawiono {time}"),                    # :130
    "command.no_press": ("no clock press to undo: no move has been played",                      # :140
                         "nie ma naciśnięcia zegara do cofnięcia: nie zagrano ruchu"),
    "command.press_stands": ("the last press cannot be undone: a player went out after it",      # :143
                             "ostatniego naciśnięcia nie da się cofnąć: potem odpadł gracz"),
    "command.resumed_no_presses": ("{error} (a resumed game keeps no presses to undo)",          # :147
                                   "{error} (wznowiona gra nie pamięta naciśnięć do cofnięcia)"),
    "command.press_undone": ("last press of {side} undone ({text} taken back; clock paused)",    # :151
                             "cofnięto ostatnie naciśnięcie: {side} ({text} cofnięte; zegar zatrzymany)"),
    "command.no_game_in_play": ("there is no game in play", "nie trwa żadna gra"),               # :160
    "command.declared": ("{what}: {reason}", "{what}: {reason}"),                                # :172
    "command.over_already": ("the game is over already", "gra już się skończyła"),               # :188,223; app_offers.py:144
    "command.the_remote_player": ("the remote player", "gracz zdalny"),                          # :196
    "command.the_computer": ("the computer", "komputer"),                                        # :196
    "command.not_your_turn": ("it is {side}'s turn, played by {who}: with several sides at the table, "  # :197
                              "the board resigns the side to move on its turn",
                              "teraz ruch: {side}, gra {who}: gdy przy stole gra kilka stron, plansza poddaje "
                              "stronę, która ma ruch, w jej turze"),
    "command.out_already": ("{side} is out of the game already", "{side} już odpadł z gry"),     # :201
    "command.resigned": ("{side} resigned (from {where})", "{side} poddaje się (z: {where})"),   # :203
    "command.players": ("players: a list of names ({most} characters at most)",                  # :210
                        "players: lista imion (najwyżej {most} znaków)"),
    "command.no_stored_game": ("there is no stored game to resume", "nie ma zapisanej gry do wznowienia"),  # :221
    # controller/app_offers.py and controller/offers.py: draws and take-backs offered
    "offer.remote_away": ("Waiting for the remote player to come back (claim the seat on the web page with the code)",  # app_offers.py:65
                          "Czekamy na powrót gracza zdalnego (zajmij miejsce na stronie, podając kod)"),
    "offer.takeback_too_far": ("take-back of {moves} moves: the game has {ply}",                 # app_offers.py:90
                               "cofnięcie {moves} ruchów: gra ma ich {ply}"),
    "offer.answered": ("{offer}: {answer} from the {where}", "{offer}: {answer} ({where})"),     # app_offers.py:109
    "offer.accepted": ("accepted", "przyjęte"),
    "offer.declined": ("declined", "odrzucone"),
    "offer.takeback_answered": ("take-back {answer} by the {who}", "cofnięcie {answer}: {who}"),  # app_offers.py:113
    "offer.waiting": ("{text}: waiting for the answer", "{text}: czekamy na odpowiedź"),          # app_offers.py:135
    "offer.accept_in_menu": ("{text}: accept in menu", "{text}: przyjmij w menu"),                # app_offers.py:135
    "offer.lapsed": ("{offer}: lapsed ({why})", "{offer}: nieważne ({why})"),                    # app_offers.py:171
    "offer.game_ended": ("the game ended", "gra się skończyła"),                                 # app_offers.py:170
    "offer.move_made": ("a move was made", "padł ruch"),                                         # app_offers.py:170
    "offer.draw": ("Draw offered", "Propozycja remisu"),                                         # offers.py:52
    "offer.takeback": (Counted(("Take-back of {count} move asked", "Take-back of {count} moves asked")),  # offers.py:53
                       Counted(("Prośba o cofnięcie {count} ruchu", "Prośba o cofnięcie {count} ruchów",
                                "Prośba o cofnięcie {count} ruchów"))),
    "offer.by": (" by {side}", " od: {side}"),                                                   # offers.py:54
    "offer.text": ("{what}{by} from the {where}", "{what}{by} ({where})"),                       # offers.py:55
    "offer.pending": ("an offer is pending already ({offer}): it must be answered first",       # offers.py:86
                      "propozycja już czeka ({offer}): najpierw trzeba na nią odpowiedzieć"),
    "offer.none_pending": ("no offer is pending", "nie czeka żadna propozycja"),                 # offers.py:97
    "offer.own": ("the {where} made this offer: the other player answers it",                   # offers.py:99
                  "tę propozycję złożył(a) {where}: odpowiada drugi gracz"),
    # controller/dxp_*.py: the board against another program
    "dxp.adjudicate_white": ("Adjudicate: white wins", "Rozstrzygnij: wygrywają białe"),          # dxp_app.py:96
    "dxp.adjudicate_draw": ("Adjudicate: draw", "Rozstrzygnij: remis"),                          # dxp_app.py:96
    "dxp.adjudicate_black": ("Adjudicate: black wins", "Rozstrzygnij: wygrywają czarne"),         # dxp_app.py:97
    "dxp.lost": ("connection to {peer} lost", "utracono połączenie z {peer}"),                   # dxp_app.py:99
    "dxp.adjudicated": ("adjudicated ({what}): the connection to {peer} was lost ({why})",      # dxp_app.py:117
                        "rozstrzygnięto ({what}): utracono połączenie z {peer} ({why})"),
    "dxp.clock_lost": ("DXP: connection lost", "DXP: utracono połączenie"),                     # dxp_clock.py:33
    "dxp.clock_lost_paused": ("DXP: connection lost (paused by hand before)",                    # dxp_clock.py:34
                              "DXP: utracono połączenie (zegar zatrzymany wcześniej ręcznie)"),
    "dxp.clock_back": ("DXP: peer back", "DXP: rywal wrócił"),                                  # dxp_clock.py:35
    "dxp.later_version": ("GAMEREQ asks for DXP version {version}; the board speaks version {ours}",  # dxp/reconnect.py
                          "GAMEREQ prosi o DXP w wersji {version}; plansza zna wersję {ours}"),
    "dxp.other_program": ("other program", "inny program"),                                      # dxp_game.py:74
    "dxp.peer": ("DXP peer", "rywal DXP"),                                                       # dxp_game.py:115, dxp_start.py:115,122
    "dxp.not_connected": ("{peer} is not connected: waiting for it to come back (menu: adjudicate)",  # dxp_game.py:157
                          "{peer} nie jest połączony: czekamy na powrót (menu: rozstrzygnij)"),
    "dxp.refused": ("{peer}: refused: {why}", "{peer}: odrzucone: {why}"),                      # dxp_game.py:253
    "dxp.bad_message": ("{peer}: bad message refused: {item}", "{peer}: odrzucono błędną wiadomość: {item}"),  # dxp_game.py:261
    "dxp.finish_putting_back": ("; finish putting the pieces back", "; dokończ stawianie pionków"),  # dxp_game.py:274
    "dxp.drop": ("connection to {peer} lost ({reason}): waiting for it to come back (menu: adjudicate){finish}",  # dxp_game.py:275
                 "utracono połączenie z {peer} ({reason}): czekamy na powrót (menu: rozstrzygnij){finish}"),
    "dxp.takeback_refused": ("{peer} refused the take-back: put the moves back on the board",     # dxp_game.py:290
                             "{peer} nie zgadza się na cofnięcie: postaw ruchy z powrotem na planszy"),
    "dxp.ends_game": ("{peer} ends the game: carry out its last move first",                     # dxp_game.py:324
                      "{peer} kończy grę: najpierw wykonaj jego ostatni ruch"),
    "dxp.resigned": ("{peer} resigned", "{peer} poddaje się"),                                   # dxp_game.py:349
    "dxp.claimed": ("{peer} claimed the win", "{peer} ogłasza wygraną"),                         # dxp_game.py:351
    "dxp.draw_agreed": ("draw agreed over DXP", "remis uzgodniony przez DXP"),                   # dxp_game.py:353
    "dxp.ended": ("{peer} ended the game", "{peer} zakończył grę"),                              # dxp_game.py:355
    "dxp.takes_back": (Counted(("{peer} takes back {count} move", "{peer} takes back {count} moves")),  # dxp_game.py:370
                       Counted(("{peer} cofa {count} ruch", "{peer} cofa {count} ruchy", "{peer} cofa {count} ruchów"))),
    "dxp.asking": ("connected to {address}: asking {peer} to go on from this position",          # dxp_reconnect.py:76
                   "połączono z {address}: prosimy {peer} o grę dalej od tej pozycji"),
    "dxp.refused_to_go_on": ("{peer} refused to go on (code {code})", "{peer} nie chce grać dalej (kod {code})"),  # dxp_reconnect.py:85
    "dxp.new_closed": ("{peer}: new connection closed ({why})", "{peer}: nowe połączenie zamknięte ({why})"),  # dxp_reconnect.py:97
    "dxp.back": ("{peer} is back: the game goes on", "{peer} wrócił: gra toczy się dalej"),       # dxp_reconnect.py:132
    "dxp.says": ("{peer} says: {text}", "{peer} pisze: {text}"),                                 # dxp_refusals.py:56
    "dxp.ignored": ("ignored {count} bad messages from {peer}; the last: {why}",                 # dxp_refusals.py:85
                    "pominięto błędne wiadomości od {peer}: {count}; ostatnia: {why}"),
    "dxp.no_answer": ("{peer}: no {waiting} in time", "{peer}: brak {waiting} na czas"),          # dxp_start.py:48
    "dxp.left": ("{peer} left while waiting for {waiting}: {reason}",                           # dxp_start.py:50
                 "{peer} odszedł, czekając na {waiting}: {reason}"),
    "dxp.refused_game": ("{peer} refused the game (code {code})", "{peer} odrzucił grę (kod {code})"),  # dxp_start.py:114
    "dxp.not_yet": ("not connected yet", "jeszcze bez połączenia"),                              # dxp_start.py:141
})
