// The Pico of the board on an emulated RP2040 (rp2040js), driven line by line
// from benchmarks/pico_chip.py over stdin/stdout (one JSON object a line each
// way). This side is only the chip and the wires around it: the reed matrix,
// the key row, the encoder, the WS2812 line and the USB host's serial port.
// What the chip sends is decoded on the Python side, with the project's own
// protocol module.
//
// Two things stock rp2040js does not do as a real chip and host do, and the
// figures depend on both, so this file does them:
//  - the PIO is stepped from simulated time at its clock divider, delay
//    cycles included (stock: 1000 instructions per JavaScript macrotask,
//    whatever the divider), so a WS2812 bit takes its 1.25 us;
//  - the USB CDC OUT endpoint waits for the host's data (stock: it answers an
//    armed OUT buffer at once, with zero bytes when the host has none).
//
//   node chip.mjs --bootrom BOOTROM --image firmware.bin|.uf2 --fs littlefs.img
//
// Commands (stdin): {"op":"run","until_us":N} runs the chip to simulated time
// N and answers with what happened since the last answer; {"op":"send","hex":H}
// queues host bytes; {"op":"reeds","rows":[9 masks]}, {"op":"keys","mask":M},
// {"op":"encoder","a":0|1,"b":0|1} set the switches; {"op":"quit"}.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const FLASH_FS_OFFSET = 0xa0000; // MICROPY_HW_FLASH_STORAGE_BASE of RPI_PICO: 2 MiB - 1408 KiB
const ROW_PINS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const COL_PINS = [9, 10, 11, 12, 13, 14, 15, 16, 17];
const KEY_ROW_PIN = 18;
const ENCODER_PINS = [19, 20];
const LED_PIN = 28;
const LED_WORDS = 81;
const WS2812_ONE_NS = 625; // a high pulse longer than this is a 1 bit (0: 250 ns, 1: 875 ns)
const WS2812_LATCH_NS = 280000; // a WS2812B latches what it has after this long low

function args() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const need of ['bootrom', 'image', 'fs']) {
    if (!out[need]) throw new Error(`chip.mjs needs --${need}`);
  }
  return out;
}

/** The B1 bootrom as rp2040js's demo/bootrom.ts holds it (hex words), or a raw 16 KiB binary. */
function loadBootrom(path) {
  const raw = readFileSync(path);
  if (raw.length === 16384) return new Uint32Array(raw.buffer, raw.byteOffset, 4096);
  const words = raw.toString('utf8').match(/0x[0-9a-fA-F]{8}/g) || [];
  if (words.length !== 4096) throw new Error(`${path}: expected 4096 bootrom words, found ${words.length}`);
  return Uint32Array.from(words, (w) => parseInt(w, 16));
}

function loadImage(mcu, path) {
  const raw = readFileSync(path);
  if (path.endsWith('.uf2')) {
    for (let at = 0; at + 512 <= raw.length; at += 512) {
      const block = raw.subarray(at, at + 512);
      if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) continue;
      const address = block.readUInt32LE(12);
      const size = block.readUInt32LE(16);
      mcu.flash.set(block.subarray(32, 32 + size), address - 0x10000000);
    }
  } else {
    mcu.flash.set(raw, 0);
  }
}

const opts = args();
const mcu = new RP2040();
mcu.logger = new ConsoleLogger(LogLevel.Error);
mcu.loadBootrom(loadBootrom(opts.bootrom)); // (this also erases the flash)
loadImage(mcu, opts.image);
mcu.flash.set(readFileSync(opts.fs), FLASH_FS_OFFSET);
mcu.core.PC = 0x10000000;
const clock = mcu.clock;
const CYCLE_NS = 1e9 / mcu.clkSys;

// -- what happened since the last answer ----------------------------------
let events = { usb: [], scans: [], writes: [], connected: null, pio: [] };
const nowUs = () => Math.round(pinTimeNs / 10) / 100;
let pinTimeNs = 0;
let waitNs = 0; // simulated time the core spent asleep (WFE/WFI) // the time of the pin change being handled (the PIO steps inside an instruction)

// -- the switches: reed matrix and key row on the columns, encoder ---------
let reeds = new Array(9).fill(0); // bit c of reeds[r]: the switch at (r, c) is closed
let keys = 0; // bit c: the button on column c is held
const colLevel = new Array(COL_PINS.length).fill(true);

function driven(pin) {
  const g = mcu.gpio[pin];
  return g.outputEnable && !g.outputValue;
}

function updateColumns() {
  let low = 0;
  for (let r = 0; r < ROW_PINS.length; r++) if (driven(ROW_PINS[r])) low |= reeds[r];
  if (driven(KEY_ROW_PIN)) low |= keys;
  for (let c = 0; c < COL_PINS.length; c++) {
    const level = !(low >> c & 1); // pulled up, low through a closed switch and its diode
    if (level !== colLevel[c]) {
      colLevel[c] = level;
      mcu.gpio[COL_PINS[c]].setInputValue(level);
    }
  }
}

for (const c of COL_PINS) mcu.gpio[c].setInputValue(true);
for (const e of ENCODER_PINS) mcu.gpio[e].setInputValue(true);
for (const pin of [...ROW_PINS, KEY_ROW_PIN]) mcu.gpio[pin].addListener(updateColumns);
// A scan pulls row 0 low once: its falling edges time the scans.
let row0 = true;
mcu.gpio[ROW_PINS[0]].addListener(() => {
  const low = driven(ROW_PINS[0]);
  if (low && row0) events.scans.push(Math.round(clock.nanos / 1000));
  row0 = !low;
});

// -- the WS2812 line ------------------------------------------------------
const ws = { high: false, rise: 0, fall: 0, bits: 0, word: 0, first: -1, start: 0, maxGap: 0, latches: 0 };

function ledEdge(high, t) {
  if (high === ws.high) return;
  ws.high = high;
  if (high) {
    if (ws.bits === 0) {
      ws.start = t;
      ws.maxGap = 0;
      ws.latches = 0;
    } else {
      const gap = t - ws.fall;
      if (gap > ws.maxGap) ws.maxGap = gap;
      if (gap > WS2812_LATCH_NS) ws.latches++;
    }
    ws.rise = t;
    return;
  }
  ws.fall = t;
  ws.word = (ws.word << 1) | (t - ws.rise > WS2812_ONE_NS ? 1 : 0);
  ws.bits++;
  if (ws.bits === 24) ws.first = ws.word & 0xffffff;
  if (ws.bits % 24 === 0) ws.word = 0;
  if (ws.bits === LED_WORDS * 24) {
    events.writes.push({
      start_us: ws.start / 1000, end_us: t / 1000, first: ws.first,
      max_gap_us: ws.maxGap / 1000, latches: ws.latches,
    });
    ws.bits = 0;
  }
}

// -- the PIO, from simulated time at its clock divider --------------------
for (const pio of mcu.pio) pio.run = () => {}; // stock: setTimeout batches; here: stepped below
const machines = [];
for (const pio of mcu.pio) {
  for (const sm of pio.machines) {
    sm.phase = 0; // system cycles x 256 owed to this machine
    sm.delay = 0; // delay cycles still to wait before its next instruction
    machines.push(sm);
  }
}
const ledPio = mcu.pio[0];
let reportedDiv = false;
// Whether a state machine may have work: set by any write to a PIO (FIFO, CTRL,
// an instruction; the DMA writes through the same path), cleared once every
// enabled machine waits on an empty TX FIFO. Saves a look at eight machines per instruction.
let pioBusy = false;
for (const pio of mcu.pio) {
  const write = pio.writeUint32.bind(pio);
  pio.writeUint32 = (offset, value) => {
    pioBusy = true;
    write(offset, value);
  };
}

function stepPio(cycles, t0) {
  if (!pioBusy) return;
  let busy = false;
  for (const sm of machines) {
    if (!sm.enabled || sm.pio.stopped) continue;
    // An `out` stalled on an empty TX FIFO (autopull) waits for the CPU: nothing to step.
    if (sm.delay === 0 && sm.waiting && sm.waitType === 5 && sm.txFIFO.empty) {
      sm.phase = 0;
      continue;
    }
    busy = true;
    if (!reportedDiv && sm.pio === ledPio) {
      reportedDiv = true;
      events.pio.push({ sm: sm.index, div: sm.clockDivInt + sm.clockDivFrac / 256 });
    }
    const div = (sm.clockDivInt || 65536) * 256 + sm.clockDivFrac;
    sm.phase += cycles * 256;
    let k = 0;
    while (sm.phase >= div) {
      sm.phase -= div;
      k++;
      if (sm.delay > 0) {
        sm.delay--;
        continue;
      }
      const before = sm.cycles;
      sm.step();
      const extra = sm.cycles - before - 1;
      if (extra > 0) sm.delay = extra;
      const t = t0 + (cycles - sm.phase / 256) * CYCLE_NS;
      pinTimeNs = t;
      sm.pio.checkChangedPins();
      if (sm.pio === ledPio) ledEdge(!!(ledPio.pinValues >> LED_PIN & 1), t);
      if (sm.delay === 0 && sm.waiting && sm.waitType === 5 && sm.txFIFO.empty) {
        sm.phase = 0;
        break;
      }
    }
  }
  pioBusy = busy;
}

// -- USB: the host's serial port -------------------------------------------
const cdc = new USBCDC(mcu.usbCtrl);
const hostBytes = []; // what the host has sent and the chip has not taken yet
let armedOut = null; // (endpoint, size) of an OUT buffer the chip armed while the host had nothing
cdc.onDeviceConnected = () => {
  events.connected = Math.round(clock.nanos / 1000);
};
cdc.onSerialData = (data) => {
  events.usb.push([Math.round(clock.nanos / 1000), Buffer.from(data).toString('hex')]);
};
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  if (hostBytes.length === 0) {
    armedOut = { endpoint, size }; // NAK until the host has data
    return;
  }
  deliver(endpoint, size);
};

function deliver(endpoint, size) {
  const n = Math.min(size, 64, hostBytes.length); // full-speed bulk: 64 bytes a packet
  mcu.usbCtrl.endpointReadDone(endpoint, Uint8Array.from(hostBytes.splice(0, n)));
}

function hostSend(bytes) {
  hostBytes.push(...bytes);
  if (armedOut !== null && hostBytes.length) {
    const { endpoint, size } = armedOut;
    armedOut = null;
    deliver(endpoint, size);
  }
}

// -- the run loop -----------------------------------------------------------
function runUntil(targetNs) {
  const core = mcu.core;
  while (clock.nanosCounter < targetNs) {
    const t0 = clock.nanosCounter;
    if (core.waiting) {
      let dt = clock.nextAlarm ? clock.nextAlarm.nanos - t0 : targetNs - t0;
      if (t0 + dt > targetNs) dt = targetNs - t0;
      if (dt <= 0) dt = CYCLE_NS;
      // While a state machine works, the core's sleep goes by in 1 µs steps, so
      // what its FIFO asks meanwhile (a DMA transfer: an alarm) comes on time.
      if (pioBusy && dt > 1000) dt = 1000;
      if (pioBusy) stepPio(Math.max(1, Math.round(dt / CYCLE_NS)), t0);
      clock.tick(dt);
      waitNs += dt;
    } else {
      const cycles = core.executeInstruction();
      if (pioBusy) stepPio(cycles, t0);
      const t = t0 + cycles * CYCLE_NS;
      const next = clock.nextAlarm;
      if (next !== null && next.nanos <= t) clock.tick(cycles * CYCLE_NS);
      else clock.nanosCounter = t; // no alarm due: what tick() would do, without the call
    }
  }
}

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const cmd = JSON.parse(line);
  switch (cmd.op) {
    case 'run': {
      const started = Date.now();
      runUntil(cmd.until_us * 1000);
      answer({ now_us: Math.round(clock.nanos / 1000), wall_ms: Date.now() - started, asleep_us: Math.round(waitNs / 1000), ...events });
      events = { usb: [], scans: [], writes: [], connected: null, pio: [] };
      break;
    }
    case 'send':
      hostSend(Buffer.from(cmd.hex, 'hex'));
      answer({ ok: true });
      break;
    case 'reeds':
      reeds = cmd.rows.slice();
      updateColumns();
      answer({ ok: true });
      break;
    case 'keys':
      keys = cmd.mask;
      updateColumns();
      answer({ ok: true });
      break;
    case 'encoder':
      mcu.gpio[ENCODER_PINS[0]].setInputValue(!!cmd.a);
      mcu.gpio[ENCODER_PINS[1]].setInputValue(!!cmd.b);
      answer({ ok: true });
      break;
    case 'quit':
      answer({ ok: true });
      process.exit(0);
      break;
    default:
      answer({ error: `unknown op ${cmd.op}` });
  }
}
