// The page around gamedata-web: files in (folder, files, drop), the games found, the maps
// listed, a Leaflet deep-zoom view of the one shown (its id after `#` in the address), and
// `window.gamedata`, the contract other programs and tests rely on (docs/web.md).
// The readers run in a Web Worker (web/worker.js): files are handed to it and read there,
// and tiles are drawn there, so that the page stays responsive while a tile is drawn.
(function () {
  "use strict";

  const el = (id) => document.getElementById(id);

  // The worker, started from the text of window.GAMEDATA_WORKER (gamedata_worker.js: the
  // glue and web/worker.js) as a blob: address, which a page opened from file:// may start.
  const source = `(${window.GAMEDATA_WORKER.toString()})()`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  let seq = 0;
  const pending = new Map();
  worker.onmessage = (event) => {
    const m = event.data;
    const p = pending.get(m.seq);
    if (!p) return;
    pending.delete(m.seq);
    if ("error" in m) p.fail(new Error(m.error));
    else p.ok(m.value);
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.fail(new Error(event.message || "the worker failed"));
    pending.clear();
  };
  function post(message, transfer) {
    const number = message.seq === undefined ? ++seq : message.seq;
    return {
      seq: number,
      done: new Promise((ok, fail) => {
        pending.set(number, { ok, fail });
        worker.postMessage({ ...message, seq: number }, transfer || []);
      }),
    };
  }
  // A call of the library in the worker: a Promise of its value.
  const call = (name, ...args) => post({ op: "call", name, args }).done;

  // The WebAssembly, inlined as base64 by web/build.sh so that the page works from
  // file:// (no fetch of a local file), handed to the worker.
  const ready = (async () => {
    const text = atob(window.GAMEDATA_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    await post({ op: "init", seq: 0, wasm: bytes.buffer }, [bytes.buffer]).done;
  })();

  // Files are added one batch after another; `maps()` and `tile()` wait for the batches
  // given so far.
  let loading = Promise.resolve();
  // The map ids and the sentences of the files that failed, as last listed.
  let listed = [];
  let shownErrors = [];

  function status(text) {
    el("status").textContent = text;
  }

  // `items`: [{ path, file }], path relative to the folder chosen. The worker reads the
  // files the readers use and finds the games.
  function addFiles(items) {
    loading = loading
      .then(async () => {
        await ready;
        status(`Reading ${items.length} files…`);
        const { read, given } = await post({ op: "add", items }).done;
        status(`${read} of ${given} files given to the readers (each read when shown)`);
        await showLibrary();
      })
      .catch((e) => status(String(e.message || e)));
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

  async function showLibrary() {
    views.forget();
    const [found, maps, errors] = await Promise.all([call("found"), call("maps"), call("errors")]);
    listed = maps;
    list("found", found);
    list("maps", maps, (id) => {
      const a = document.createElement("a");
      a.href = `#${id}`;
      a.textContent = id;
      a.dataset.id = id;
      return a;
    });
    el("errors-title").hidden = errors.length === 0;
    list("errors", errors);
    const art = found.some((f) => f.startsWith("Ultima Online art:"));
    const anims = found.some((f) => f.startsWith("Ultima Online animations:"));
    const archive = found.some((f) => f.startsWith("REZ archive:"));
    const rez = archive || found.some((f) => f.startsWith("PID images:"));
    const texmaps = found.some((f) => f.startsWith("Ultima Online texture maps:"));
    const gumps = found.includes("Ultima Online gumps");
    el("art-title").hidden = !art && !anims && !rez && !texmaps && !gumps;
    const links = [...(art ? ["art/land", "art/item"] : []),
      ...(gumps ? ["art/gump"] : []), ...(texmaps ? ["art/texmap"] : []),
      ...(anims ? ["anim"] : []), ...(rez ? ["rez"] : [])];
    const names = { "art/land": "Land tiles", "art/item": "Items", "art/gump": "Gumps",
      "art/texmap": "Texture maps", anim: "Animations",
      rez: archive ? "REZ archive" : "PID images" };
    list("art-links", links, (id) => {
      const a = document.createElement("a");
      a.href = `#${id}`;
      a.textContent = names[id];
      a.dataset.id = id;
      return a;
    });
    shownErrors = errors;
    showFromAddress();
  }

  // The Leaflet view of one map.
  let view = null;
  let shownId = null;

  // Zoom levels the viewer shows below a map's native zoom.
  const MAX_DESCENT = 3;

  // Each tile is asked of the worker; a tile Leaflet drops before it is drawn (the view
  // moved on) is cancelled.
  const GameLayer = L.GridLayer.extend({
    createTile(coords, done) {
      const canvas = document.createElement("canvas");
      canvas.width = 256;
      canvas.height = 256;
      const asked = post({
        op: "call",
        name: "tile",
        args: [this.options.mapId, coords.z, coords.x, coords.y],
      });
      canvas.dataset.seq = asked.seq;
      asked.done.then(
        (rgba) => {
          if (rgba) {
            const image = new ImageData(new Uint8ClampedArray(rgba.buffer), 256, 256);
            canvas.getContext("2d").putImageData(image, 0, 0);
          }
          // "1" for a tile with pixels, "0" for one of nothing (the CLI writes no file).
          canvas.dataset.drawn = rgba ? "1" : "0";
          done(null, canvas);
        },
        (e) => {
          status(String(e.message || e));
          done(e, canvas);
        },
      );
      return canvas;
    },
  });

  async function show(id) {
    let kept = null;
    if (view) {
      kept = { path: shownId && shownId.split("?")[0], center: view.getCenter(), zoom: view.getZoom() };
      view.remove();
      view = null;
    }
    shownId = id;
    stopAnim();
    stopRez();
    el("anim").hidden = true;
    el("rez").hidden = true;
    if (id === "rez" || id.startsWith("rez/")) {
      showRez(id);
      return;
    }
    if (id.startsWith("art/")) {
      showArt(id.slice(4));
      return;
    }
    if (id === "anim" || id.startsWith("anim/") || id.startsWith("anim?")) {
      showAnim(id);
      return;
    }
    el("art").hidden = true;
    el("map").hidden = false;
    el("map-options").hidden = true;
    for (const a of document.querySelectorAll("#maps a, #art-links a")) {
      a.classList.toggle("shown", a.dataset.id === id);
    }
    let levels;
    try {
      levels = await call("levels", id);
    } catch (e) {
      status(String(e.message || e));
      return;
    }
    // A tile below the native zoom draws every native tile under it (4 to the power of
    // the levels between, less those kept): the view goes at most 3 levels below, 64
    // native tiles a tile, so that a whole facet drawn as the world never asks for all of
    // it at once. (window.gamedata.tile gives any zoom.)
    const lowest = Math.max(0, levels.native_zoom - MAX_DESCENT);
    const map = L.map("map", {
      crs: L.CRS.Simple,
      minZoom: lowest,
      maxZoom: levels.max_zoom + 2,
      attributionControl: false,
    });
    const bounds = L.latLngBounds(
      map.unproject([0, levels.height], levels.native_zoom),
      map.unproject([levels.width, 0], levels.native_zoom),
    );
    const layer = new GameLayer({
      mapId: id,
      tileSize: 256,
      minZoom: lowest,
      maxZoom: levels.max_zoom + 2,
      maxNativeZoom: levels.max_zoom,
      noWrap: true,
      bounds,
    });
    layer.on("tileunload", (e) => {
      const number = Number(e.tile.dataset.seq);
      if (pending.has(number)) worker.postMessage({ op: "cancel", seq: number });
    });
    layer.addTo(map);
    if (kept && kept.path === id.split("?")[0]) {
      // The same map with other options: the same place.
      map.setView(kept.center, kept.zoom);
    } else {
      map.fitBounds(bounds);
    }
    view = map;
    showOptions(id, map, levels);
    if (id.startsWith("uo/")) {
      // A click tells the tile under the pointer: its land and statics (uo tile).
      map.on("click", async (e) => {
        const p = map.project(e.latlng, levels.native_zoom);
        if (p.x < 0 || p.y < 0) return;
        try {
          const tile = await call("tileAt", id, Math.floor(p.x), Math.floor(p.y));
          if (!tile) return;
          L.popup().setLatLng(e.latlng).setContent(tileText(tile)).openOn(map);
        } catch (err) {
          status(String(err.message || err));
        }
      });
    }
    status(`${id}: ${levels.width} x ${levels.height} pixels`);
  }

  function showFromAddress() {
    const id = decodeURIComponent(location.hash.slice(1));
    const page = id.startsWith("art/") || id === "anim" || id.startsWith("anim/") ||
      id.startsWith("anim?") ||
      id === "rez" || id.startsWith("rez/");
    if (id && id !== shownId && (listed.length > 0 || page)) show(id);
  }

  // A tile's land and statics as the popup says them.
  function tileText(t) {
    const hex = (v) => `0x${v.toString(16).toUpperCase().padStart(4, "0")}`;
    const names = t.names || { land: "", statics: [] };
    const lines = [`<b>tile ${t.x}, ${t.y}</b>`,
      `land ${hex(t.land.id)} ${escape(names.land)} at z ${t.land.z}`];
    t.statics.forEach((s, i) => {
      lines.push(`static ${hex(s.id)} ${escape(names.statics[i] || "")} at z ${s.z}` +
        (s.hue ? ` hue ${s.hue}` : ""));
    });
    if (t.top_z !== null) lines.push(`top surface z ${t.top_z}`);
    return `<div class="tile-info">${lines.join("<br>")}</div>`;
  }

  function escape(text) {
    const span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  // The shown map's options, as controls that rewrite its id (the CLI's flags) in the
  // address; a level's planes and objects.
  function splitId(id) {
    const [path, rest] = id.split("?");
    const options = rest ? rest.split(",").filter(Boolean) : [];
    return { path, options };
  }

  function withOption(id, name, value) {
    const { path, options } = splitId(id);
    const kept = options.filter((o) => o !== name && !o.startsWith(`${name}=`));
    if (value === true) kept.push(name);
    else if (value !== false && value !== null && value !== "") kept.push(`${name}=${value}`);
    return kept.length ? `${path}?${kept.join(",")}` : path;
  }

  // A checkbox for the flag `name`; `inverted`: checked when the flag is absent.
  function checkbox(label, name, id, on, inverted) {
    const box = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.checked = on;
    input.dataset.option = name;
    input.addEventListener("change", () => {
      location.hash = withOption(id, name, inverted ? !input.checked : input.checked);
    });
    box.append(input, ` ${label}`);
    return box;
  }

  async function showOptions(id, map, levels) {
    const box = el("map-options");
    const { path, options } = splitId(id);
    const has = (name) => options.includes(name);
    const value = (name) => {
      const o = options.find((x) => x.startsWith(`${name}=`));
      return o ? o.slice(name.length + 1) : null;
    };
    const parts = [];
    if (path.startsWith("cosmo/")) {
      parts.push(checkbox("actors", "actors", id, has("actors")));
      parts.push(checkbox("backdrop", "backdrop", id, has("backdrop")));
      parts.push(checkbox("tile attributes", "attributes", id, has("attributes")));
    } else if (path.startsWith("wwd/")) {
      let info;
      try {
        info = await call("levelInfo", id);
      } catch (e) {
        status(String(e.message || e));
        return;
      }
      const select = document.createElement("select");
      select.id = "plane";
      for (const name of ["", ...info.planes]) {
        const o = document.createElement("option");
        o.value = name;
        o.textContent = name || "all planes (the main one's size)";
        select.append(o);
      }
      select.value = value("plane") ? info.shown : "";
      select.addEventListener("change", () => {
        location.hash = withOption(id, "plane", select.value);
      });
      const planeLabel = document.createElement("label");
      planeLabel.append("Plane ", select);
      parts.push(planeLabel);
      const archive = info.archive !== null;
      if (archive) {
        parts.push(checkbox("objects", "no-objects", id, !has("no-objects"), true));
        parts.push(checkbox("markers", "markers", id, has("markers")));
        parts.push(checkbox("collision map", "collision", id, has("collision")));
      }
      const time = document.createElement("input");
      time.type = "range";
      time.id = "time";
      time.min = "0";
      time.max = "10000";
      time.step = "50";
      time.value = value("time") || "0";
      const shown = document.createElement("span");
      shown.textContent = `${time.value} ms`;
      time.addEventListener("input", () => { shown.textContent = `${time.value} ms`; });
      time.addEventListener("change", () => {
        location.hash = withOption(id, "time", time.value === "0" ? null : time.value);
      });
      const timeLabel = document.createElement("label");
      timeLabel.append("Time ", time, " ", shown);
      if (archive) parts.push(timeLabel);
      parts.push(objectList(info, map, levels));
    }
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  // The objects of the plane shown, filtered by name or logic; a click centres the map on
  // one at the native zoom.
  function objectList(info, map, levels) {
    const wrap = document.createElement("div");
    const filter = document.createElement("input");
    filter.type = "search";
    filter.placeholder = `${info.objects.length} objects: filter by logic or name`;
    const ul = document.createElement("ul");
    ul.id = "objects";
    const fill = () => {
      const needle = filter.value.toLowerCase();
      const found = info.objects.filter((o) =>
        !needle || o.logic.toLowerCase().includes(needle) || o.name.toLowerCase().includes(needle));
      ul.replaceChildren(...found.slice(0, 300).map((o) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "#";
        a.textContent = `${o.logic || "(no logic)"} ${o.name ? `"${o.name}" ` : ""}at ${o.x}, ${o.y}`;
        a.title = o.image;
        a.addEventListener("click", (e) => {
          e.preventDefault();
          map.setView(map.unproject([o.x, o.y], levels.native_zoom), levels.native_zoom);
        });
        li.append(a);
        return li;
      }));
    };
    filter.addEventListener("input", fill);
    fill();
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = info.objects_error || "";
    wrap.append(filter, ul, note);
    return wrap;
  }

  // The views of art, animations and a REZ archive (web/views.js).
  const views = window.GAMEDATA_VIEWS({
    el,
    call,
    status,
    splitId,
    setShown: (id) => {
      shownId = id;
    },
  });
  const { showArt, showAnim, showRez, stopAnim, stopRez } = views;

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
      return call("maps");
    },
    tile: async (id, z, x, y) => {
      await ready;
      await loading;
      const rgba = await call("tile", id, z, x, y);
      return rgba ? { width: 256, height: 256, rgba } : null;
    },
    errors: () => shownErrors.slice(),
    // Beyond the contract (docs/web.md): a map's levels, the art, and what the page holds.
    levels: async (id) => {
      await ready;
      await loading;
      return call("levels", id);
    },
    tileAt: async (id, px, py) => {
      await ready;
      await loading;
      return call("tileAt", id, px, py);
    },
    artIds: async (kind, search) => {
      await ready;
      await loading;
      return call("artIds", kind, search || "");
    },
    art: async (kind, id, hue) => {
      await ready;
      await loading;
      return call("art", kind, id, hue || 0);
    },
    artTiledata: async (kind, id) => {
      await ready;
      await loading;
      return call("artTiledata", kind, id);
    },
    rezList: async (dir) => {
      await ready;
      await loading;
      return call("rezList", dir || "");
    },
    rezPid: async (path, palette) => {
      await ready;
      await loading;
      return call("rezPid", path, palette || "");
    },
    rezAni: async (path) => {
      await ready;
      await loading;
      return call("rezAni", path);
    },
    animFiles: async () => {
      await ready;
      await loading;
      return call("animFiles");
    },
    animBodies: async (file) => {
      await ready;
      await loading;
      return call("animBodies", file || "");
    },
    animFrames: async (body, action, direction, hue, file) => {
      await ready;
      await loading;
      return call("animFrames", body, action, direction, hue || 0, file || "");
    },
    memory: async () => {
      await ready;
      const m = await call("memory");
      const heap = performance.memory ? performance.memory.usedJSHeapSize : null;
      return { wasm: m.wasm, loaded: m.loaded, jsHeap: heap };
    },
  };
})();
