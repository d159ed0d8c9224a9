# The Pico's filesystem as MicroPython's rp2 port makes it, written by
# MicroPython itself (its unix port: the same littlefs code, the same
# parameters as ports/rp2/modules/_boot.py), so the emulated chip mounts it
# at boot like a board that `damka firmware install` filled.
#
#   micropython make_fs.py OUT.img BLOCKS FILE...
#
# Runs under MicroPython, not CPython (vfs.VfsLfs2 is MicroPython's).

import sys
import vfs

BLOCK = 4096        # the RP2040's flash erase block: rp2.Flash's block size
PROGSIZE = 256      # rp2's _boot.py: VfsLfs2(bdev, progsize=256)


class RamFlash:
    """A block device in RAM, erased (0xff) like a new flash."""

    def __init__(self, blocks):
        self.data = bytearray(b"\xff" * (blocks * BLOCK))
        self.blocks = blocks

    def readblocks(self, n, buf, off=0):
        at = n * BLOCK + off
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # a whole-block write erases first
            off = 0
            self.data[n * BLOCK:(n + 1) * BLOCK] = b"\xff" * BLOCK
        at = n * BLOCK + off
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
            return 0
        return 0


def main():
    out, blocks, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    dev = RamFlash(blocks)
    vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
    fs = vfs.VfsLfs2(dev, progsize=PROGSIZE)
    for path in files:
        name = path.rsplit("/", 1)[-1]
        with open(path, "rb") as src:
            data = src.read()
        with fs.open(name, "wb") as dst:
            dst.write(data)
    with open(out, "wb") as f:
        f.write(dev.data)
    print(out, len(files), "files")


main()
