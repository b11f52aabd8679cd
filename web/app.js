// The page around gamedata-web: files in (folder, files, drop), the games found, the maps
// listed, a Leaflet deep-zoom view of the one shown (its id after `#` in the address), and
// `window.gamedata`, the contract other programs and tests rely on (docs/web.md).
// Tiles are drawn on this thread (a Web Worker is a later part).
(function () {
  "use strict";

  const el = (id) => document.getElementById(id);
  let lib = null;

  // The WebAssembly, inlined as base64 by web/build.sh so that the page works from
  // file:// (no fetch of a local file).
  const ready = (async () => {
    const text = atob(window.GAMEDATA_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    await wasm_bindgen({ module_or_path: bytes });
    lib = new wasm_bindgen.Gamedata();
  })();

  // Files are added one batch after another; `maps()` and `tile()` wait for the batches
  // given so far.
  let loading = Promise.resolve();

  function status(text) {
    el("status").textContent = text;
  }

  // `items`: [{ path, file }], path relative to the folder chosen.
  function addFiles(items) {
    loading = loading.then(async () => {
      await ready;
      let read = 0;
      for (const { path, file } of items) {
        if (!wasm_bindgen.Gamedata.wants(path)) continue;
        status(`Reading ${path}…`);
        lib.addFile(path, new Uint8Array(await file.arrayBuffer()));
        read += 1;
      }
      lib.scan();
      status(`${read} files read of ${items.length} given`);
      showLibrary();
    }).catch((e) => status(String(e)));
    return loading;
  }

  function fromInput(input) {
    const items = Array.from(input.files, (file) => ({
      path: file.webkitRelativePath || file.name,
      file,
    }));
    input.value = "";
    addFiles(items);
  }

  // A dropped folder's files, with their paths (FileSystemEntry API).
  async function entries(entry, prefix, out) {
    if (entry.isFile) {
      const file = await new Promise((ok, fail) => entry.file(ok, fail));
      out.push({ path: prefix + file.name, file });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (batch.length === 0) break;
        for (const e of batch) await entries(e, `${prefix}${entry.name}/`, out);
      }
    }
  }

  async function fromDrop(event) {
    const out = [];
    const items = Array.from(event.dataTransfer.items || []);
    const found = items.map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    if (found.length > 0) {
      for (const entry of found) await entries(entry, "", out);
    } else {
      for (const file of event.dataTransfer.files) out.push({ path: file.name, file });
    }
    addFiles(out);
  }

  function list(id, lines, make) {
    const ul = el(id);
    ul.replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.append(make ? make(line) : line);
      return li;
    }));
  }

  function showLibrary() {
    list("found", lib.found());
    list("maps", lib.maps(), (id) => {
      const a = document.createElement("a");
      a.href = `#${id}`;
      a.textContent = id;
      a.dataset.id = id;
      return a;
    });
    const errors = lib.errors();
    el("errors-title").hidden = errors.length === 0;
    list("errors", errors);
    showFromAddress();
  }

  // The Leaflet view of one map.
  let view = null;
  let shownId = null;

  const GameLayer = L.GridLayer.extend({
    createTile(coords, done) {
      const canvas = document.createElement("canvas");
      canvas.width = 256;
      canvas.height = 256;
      const id = this.options.mapId;
      // Drawn after the tile is placed, so that the view appears before the pixels.
      setTimeout(() => {
        try {
          const rgba = lib.tile(id, coords.z, coords.x, coords.y);
          if (rgba) {
            const image = new ImageData(new Uint8ClampedArray(rgba.buffer), 256, 256);
            canvas.getContext("2d").putImageData(image, 0, 0);
          }
          done(null, canvas);
        } catch (e) {
          status(String(e.message || e));
          done(e, canvas);
        }
      }, 0);
      return canvas;
    },
  });

  function show(id) {
    if (view) {
      view.remove();
      view = null;
    }
    shownId = id;
    for (const a of document.querySelectorAll("#maps a")) {
      a.classList.toggle("shown", a.dataset.id === id);
    }
    let levels;
    try {
      levels = lib.levels(id);
    } catch (e) {
      status(String(e.message || e));
      return;
    }
    const map = L.map("map", {
      crs: L.CRS.Simple,
      minZoom: 0,
      maxZoom: levels.max_zoom + 2,
      attributionControl: false,
    });
    const bounds = L.latLngBounds(
      map.unproject([0, levels.height], levels.native_zoom),
      map.unproject([levels.width, 0], levels.native_zoom),
    );
    new GameLayer({
      mapId: id,
      tileSize: 256,
      minZoom: 0,
      maxZoom: levels.max_zoom + 2,
      maxNativeZoom: levels.max_zoom,
      noWrap: true,
      bounds,
    }).addTo(map);
    map.fitBounds(bounds);
    view = map;
    status(`${id}: ${levels.width} x ${levels.height} pixels`);
  }

  function showFromAddress() {
    if (!lib) return;
    const id = decodeURIComponent(location.hash.slice(1));
    if (id && id !== shownId && lib.maps().length > 0) show(id);
  }

  window.addEventListener("hashchange", () => {
    loading.then(showFromAddress);
  });
  el("open-folder").addEventListener("change", (e) => fromInput(e.target));
  el("open-files").addEventListener("change", (e) => fromInput(e.target));
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    el("drop-cover").hidden = false;
  });
  document.addEventListener("dragleave", (e) => {
    if (e.relatedTarget === null) el("drop-cover").hidden = true;
  });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    el("drop-cover").hidden = true;
    fromDrop(e);
  });

  ready.then(
    () => status("Ready: choose a folder or files, or drop them here"),
    (e) => status(`The readers did not load: ${e}`),
  );

  // The contract (docs/web.md): these names exactly.
  window.gamedata = {
    ready,
    maps: async () => {
      await ready;
      await loading;
      return lib.maps();
    },
    tile: async (id, z, x, y) => {
      await ready;
      await loading;
      const rgba = lib.tile(id, z, x, y);
      return rgba ? { width: 256, height: 256, rgba } : null;
    },
    errors: () => (lib ? lib.errors() : []),
  };
})();
