"""Everything the board says, in English and Polish: `say(key, **fields)`.

See `catalogue.py` for how a text is looked up and the sibling modules for the texts.
"""

from damka.controller.words.catalogue import (LANGUAGE_NAMES, LANGUAGES, Counted, follow, language, retell,
                                              said, say, set_language, speaking, text_in, translate)

__all__ = ["LANGUAGE_NAMES", "LANGUAGES", "Counted", "follow", "language", "retell", "said", "say", "set_language",
           "speaking", "text_in", "translate"]
