"""What every layer may use and that uses nothing of theirs but the engine's: the one
bounded reader of the files a person names (`files`). Outside text is made safe for
terminals, logs, pages and PDN by `damka.engine.safe_text`, which the engine's own PDN
writer needs too."""
