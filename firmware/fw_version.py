"""Which firmware this is, for HELLO's text ("damka-fw VERSION HASH").

VERSION is raised by hand when the firmware changes what it does; HASH is the
content hash of the other firmware files, written by `damka firmware stamp`
(a test fails while it is out of date), so the host can tell the board runs
exactly its own copy."""

NAME = "damka-fw"
VERSION = "1.2"
HASH = "e6a98050e857"
