"""The hall page's script and style sheet (served by hall/page.py)."""
