#!/bin/sh
# Builds what benchmarks/pico_chip.py needs from a MicroPython checkout given by its path
# (brought onto this machine with its submodules: pico-sdk, tinyusb, micropython-lib; never
# committed here): mpy-cross, the rp2 port for RPI_PICO (the chip's firmware image) and the
# unix port (it writes the littlefs image with the rp2 port's own code). Needs Debian's
# gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake and build-essential. About 4 minutes on
# two cores. Prints the image's path.
#
#     sh benchmarks/rp2040/build_micropython.sh /path/to/micropython
set -e
MPY=${1:?usage: build_micropython.sh MICROPYTHON_CHECKOUT}
[ -f "$MPY/ports/rp2/CMakeLists.txt" ] || { echo "$MPY: not a MicroPython checkout (no ports/rp2)" >&2; exit 2; }
[ -f "$MPY/lib/pico-sdk/CMakeLists.txt" ] || { echo "$MPY: lib/pico-sdk is missing (its submodules)" >&2; exit 2; }
nice make -C "$MPY/mpy-cross" -j2 >&2
B="$MPY/ports/rp2/build-RPI_PICO"
[ -e "$B/Makefile" ] || cmake -S "$MPY/ports/rp2" -B "$B" -DMICROPY_BOARD=RPI_PICO \
  -DMICROPY_BOARD_DIR="$MPY/ports/rp2/boards/RPI_PICO" -DPICO_BUILD_DOCS=0 -DPICO_NO_PICOTOOL=1 >&2
nice make -C "$B" -j2 >&2
# The unix port without the parts that need more submodules (berkeley-db, mbedtls).
nice make -C "$MPY/ports/unix" -j2 MICROPY_PY_BTREE=0 MICROPY_SSL_MBEDTLS=0 >&2
ls "$B/firmware.bin"
