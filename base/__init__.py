"""What every layer may use and that uses nothing of theirs but the engine's errors:
the one bounded reader of the files a person names (`files`) and the one
cleaner of outside text before it reaches a terminal or a log (`safe_text`)."""
