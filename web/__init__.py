"""The board's web page: watch, set up, play and arbitrate from a phone (docs/web.md)."""
