"""The page's files (HTML, JS, CSS, SVG): a package only so that the wheel carries them."""
