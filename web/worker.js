// The readers' thread: gamedata-web runs here, in a Web Worker, so that drawing a tile never
// stops the page. web/build.sh wraps wasm-bindgen's glue and this file in one function
// (window.GAMEDATA_WORKER in gamedata_worker.js); the page starts the worker from that
// function's text (a blob: address, which a page opened from file:// may start).
//
// Messages in, each with a number `seq` the answer carries:
//   {op: "init", wasm}               the WebAssembly's bytes
//   {op: "add", seq, items}          files, [{path, file}] (File objects, read here when a
//                                    reader needs them: whole, or by ranges)
//   {op: "call", seq, name, args}    a call of the library: maps, errors, found, levels,
//                                    tile, levelInfo, tileAt, animFiles, animBodies,
//                                    animFrames, artIds, art, artTiledata, rezList,
//                                    rezPid, rezAni, memory
//   {op: "cancel", seq}              a tile no longer shown: not drawn if not yet begun
// Answers: {seq, value} or {seq, error} (the sentence).
"use strict";

let lib = null;
const queue = [];
const cancelled = new Set();
let scheduled = false;

const calls = {
  maps: () => lib.maps(),
  errors: () => lib.errors(),
  found: () => lib.found(),
  levels: (id) => {
    const l = lib.levels(id);
    const plain = {
      width: l.width,
      height: l.height,
      native_zoom: l.native_zoom,
      max_zoom: l.max_zoom,
    };
    l.free();
    return plain;
  },
  tile: (id, z, x, y) => lib.tile(id, z, x, y) || null,
  levelInfo: (id) => JSON.parse(lib.levelInfo(id)),
  tileAt: (id, px, py) => {
    const json = lib.uoTileAt(id, px, py);
    return json === undefined ? null : JSON.parse(json);
  },
  artTiledata: (kind, id) => {
    const json = lib.artTiledata(kind, id);
    return json === undefined ? null : JSON.parse(json);
  },
  rezList: (dir) => JSON.parse(lib.rezList(dir)),
  rezPid: (path, palette) => {
    const p = lib.rezPid(path, palette || "");
    if (!p) return null;
    const picture = { width: p.width, height: p.height, rgba: p.rgba };
    p.free();
    return picture;
  },
  rezAni: (path) => JSON.parse(lib.rezAni(path)),
  animFiles: () => JSON.parse(lib.animFiles()),
  animBodies: (file) => JSON.parse(lib.animBodies(file || undefined)),
  animFrames: (body, action, direction, hue, file) => {
    const frames = lib.animFrames(body, action, direction, hue, file || undefined).map((p) => {
      const frame = {
        width: p.width,
        height: p.height,
        centre_x: p.centre_x,
        centre_y: p.centre_y,
        rgba: p.rgba,
      };
      p.free();
      return frame;
    });
    return { frames, frame_ms: wasm_bindgen.Gamedata.frameMs() };
  },
  artIds: (kind, search) => Array.from(lib.artIds(kind, search)),
  art: (kind, id, hue) => {
    const p = lib.artPicture(kind, id, hue);
    if (!p) return null;
    const picture = { width: p.width, height: p.height, rgba: p.rgba };
    p.free();
    return picture;
  },
  memory: () => ({
    wasm: wasm_bindgen.Gamedata.memoryBytes(),
    loaded: lib.loadedBytes(),
  }),
};

// Files are handed to the readers by size, each with a function that reads a range of it
// (Blob.slice, FileReaderSync: synchronous in a worker); a reader reads a file whole only
// when it needs it whole, and art entries alone. Only the files the readers use.
function add(items) {
  const reader = new FileReaderSync();
  let given = 0;
  for (const { path, file } of items) {
    if (!wasm_bindgen.Gamedata.wants(path)) continue;
    lib.addLazyFile(path, file.size, (offset, length) =>
      new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length))));
    given += 1;
  }
  lib.scan();
  return { read: given, given: items.length };
}

function answer(seq, work) {
  try {
    const value = work();
    const pixels = value && (value instanceof Uint8Array ? value : value.rgba);
    const transfer = pixels instanceof Uint8Array ? [pixels.buffer] : [];
    if (value && Array.isArray(value.frames)) {
      // Animation frames carry pixels; an ANI's frames (rezAni) do not.
      for (const f of value.frames) if (f.rgba instanceof Uint8Array) transfer.push(f.rgba.buffer);
    }
    postMessage({ seq, value }, transfer);
  } catch (e) {
    postMessage({ seq, error: String((e && e.message) || e) });
  }
}

// One message at a time, with a turn of the event loop between, so that cancellations sent
// while a tile is drawn are seen before the next begins.
function run() {
  scheduled = false;
  const m = queue.shift();
  if (!m) return;
  if (cancelled.delete(m.seq)) {
    postMessage({ seq: m.seq, value: null, cancelled: true });
  } else if (m.op === "add") {
    answer(m.seq, () => add(m.items));
  } else {
    answer(m.seq, () => calls[m.name](...m.args));
  }
  schedule();
}

function schedule() {
  if (!scheduled && queue.length > 0) {
    scheduled = true;
    setTimeout(run, 0);
  }
}

self.onmessage = async (event) => {
  const m = event.data;
  if (m.op === "init") {
    try {
      await wasm_bindgen({ module_or_path: m.wasm });
      lib = new wasm_bindgen.Gamedata();
      postMessage({ seq: 0, value: true });
    } catch (e) {
      postMessage({ seq: 0, error: String((e && e.message) || e) });
    }
  } else if (m.op === "cancel") {
    if (queue.some((q) => q.seq === m.seq)) cancelled.add(m.seq);
  } else {
    queue.push(m);
    schedule();
  }
};
