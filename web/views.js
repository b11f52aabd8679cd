// The views beside the maps, for web/app.js: Ultima Online's art as a grid of thumbnails
// with search, hue and tiledata; its animations played at the client's frame time; a REZ
// archive's tree with PID previews and ANI playback. Everything is drawn by the worker
// (`page.call`); the page's address holds what is shown (docs/web.md).
window.GAMEDATA_VIEWS = function (page) {
  "use strict";

  const { el, call, status, splitId, setShown } = page;

  // A REZ archive's tree: directories opened on a click, a PID shown with a palette (its
  // own, or one of the archive's .PAL files seen so far), an ANI's frames played with the
  // images of its IMAGES folder. The address holds the file shown: #rez/PATH.
  let rezTimer = null;
  let rezShown = null;
  const rezPalettes = new Set();

  function stopRez() {
    if (rezTimer !== null) clearTimeout(rezTimer);
    rezTimer = null;
  }

  async function rezDir(dir, into) {
    let items;
    try {
      items = await call("rezList", dir);
    } catch (e) {
      status(String(e.message || e));
      return;
    }
    const ul = document.createElement("ul");
    for (const item of items) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.textContent = item.dir ? `${item.name}/` : `${item.name} (${item.size} bytes)`;
      a.className = item.dir ? "dir" : "file";
      a.dataset.path = item.path;
      if (item.dir) {
        a.addEventListener("click", () => {
          const open = li.querySelector(":scope > ul");
          if (open) open.remove();
          else rezDir(item.path, li);
        });
      } else {
        if (/\.PAL$/i.test(item.name) && !rezPalettes.has(item.path)) {
          rezPalettes.add(item.path);
          const o = document.createElement("option");
          o.value = item.path;
          o.textContent = item.path;
          el("rez-palette").append(o);
        }
        a.href = `#rez/${item.path}`;
      }
      li.append(a);
      ul.append(li);
    }
    into.append(ul);
  }

  async function showRez(id) {
    el("map").hidden = true;
    el("art").hidden = true;
    el("map-options").hidden = true;
    el("rez").hidden = false;
    for (const a of document.querySelectorAll("#maps a, #art-links a")) {
      a.classList.toggle("shown", a.dataset.id === "rez");
    }
    const tree = el("rez-tree");
    if (!tree.dataset.filled) {
      tree.dataset.filled = "1";
      await rezDir("", tree);
    }
    const path = id.startsWith("rez/") ? id.slice(4) : null;
    if (path) await rezShow(path);
  }

  async function rezPicture(path) {
    return call("rezPid", path, el("rez-palette").value);
  }

  function drawPicture(p) {
    const canvas = el("rez-canvas");
    if (!p) {
      canvas.width = 1;
      canvas.height = 1;
      return;
    }
    canvas.width = p.width;
    canvas.height = p.height;
    const image = new ImageData(new Uint8ClampedArray(p.rgba.buffer), p.width, p.height);
    canvas.getContext("2d").putImageData(image, 0, 0);
  }

  async function rezShow(path) {
    stopRez();
    rezShown = path;
    el("rez-frames").replaceChildren();
    try {
      if (/\.PID$/i.test(path)) {
        const p = await rezPicture(path);
        drawPicture(p);
        el("rez-shown").textContent = p
          ? `${path}: ${p.width} x ${p.height}`
          : `${path} has no palette of its own: choose one`;
        el("rez-shown").dataset.drawn = p ? "1" : "0";
      } else if (/\.ANI$/i.test(path)) {
        const ani = await call("rezAni", path);
        el("rez-frames").replaceChildren(...ani.frames.map((f, i) => {
          const li = document.createElement("li");
          li.textContent = `image ${f.image}, ${f.duration_ms} ms` +
            (f.sound ? `, sound ${f.sound}` : "") +
            (ani.pictures[i] ? ` (${ani.pictures[i]})` : " (no image)");
          return li;
        }));
        const pictures = [];
        for (const p of ani.pictures) pictures.push(p ? await rezPicture(p) : null);
        let i = 0;
        const step = () => {
          drawPicture(pictures[i]);
          el("rez-shown").textContent =
            `${path}: ${ani.image_set}, frame ${i + 1} of ${ani.frames.length}`;
          el("rez-shown").dataset.frame = String(i);
          const ms = Math.max(ani.frames[i].duration_ms, 16);
          i = (i + 1) % Math.max(ani.frames.length, 1);
          if (ani.frames.length > 1) rezTimer = setTimeout(step, ms);
        };
        if (ani.frames.length) step();
      } else {
        drawPicture(null);
        el("rez-shown").textContent = `${path}: no preview for this kind of file`;
      }
    } catch (e) {
      drawPicture(null);
      el("rez-shown").textContent = String(e.message || e);
    }
  }

  el("rez-palette").addEventListener("change", () => {
    if (rezShown) rezShow(rezShown);
  });

  // Animations: a body's action in a direction, played at the client's frame time (80 ms,
  // the worker says it). The address holds the choice:
  // #anim/BODY/ACTION/DIRECTION?hue=H,file=anim2 (file as `uo anim --file`, anim.mul when
  // not given).
  let animTimer = null;
  let animBodies = null;
  let animFile = "anim";
  const animLists = new Map();

  function stopAnim() {
    if (animTimer !== null) clearInterval(animTimer);
    animTimer = null;
  }

  function fillSelect(select, values, chosen) {
    select.replaceChildren(...values.map((v) => {
      const o = document.createElement("option");
      o.value = String(v);
      o.textContent = String(v);
      return o;
    }));
    if (values.map(String).includes(String(chosen))) select.value = String(chosen);
  }

  async function showAnim(id) {
    el("map").hidden = true;
    el("art").hidden = true;
    el("map-options").hidden = true;
    el("anim").hidden = false;
    for (const a of document.querySelectorAll("#maps a, #art-links a")) {
      a.classList.toggle("shown", a.dataset.id === "anim");
    }
    const { path, options } = splitId(id);
    const [, b, a, d] = path.split("/");
    const hueOption = options.find((o) => o.startsWith("hue="));
    const fileOption = options.find((o) => o.startsWith("file="));
    animFile = fileOption ? fileOption.slice(5) : "anim";
    try {
      if (!animLists.has("files")) animLists.set("files", await call("animFiles"));
      if (!animLists.has(animFile)) animLists.set(animFile, await call("animBodies", animFile));
    } catch (e) {
      status(String(e.message || e));
      return;
    }
    const files = animLists.get("files");
    el("anim-file-label").hidden = files.length < 2;
    fillSelect(el("anim-file"), files, animFile);
    animBodies = animLists.get(animFile);
    if (animBodies.length === 0) {
      status(`no body has frames in ${animFile}.mul`);
      return;
    }
    const body = b !== undefined ? Number(b) : animBodies[0][0];
    const entry = animBodies.find(([n]) => n === body) || animBodies[0];
    fillSelect(el("anim-body"), animBodies.map(([n]) => n), entry[0]);
    fillSelect(el("anim-action"), entry[1], a !== undefined ? Number(a) : entry[1][0]);
    el("anim-direction").value = d !== undefined ? String(Number(d) & 7) : "0";
    el("anim-hue").value = hueOption ? hueOption.slice(4) : "0";
    play();
  }

  function animAddress() {
    const hue = Number(el("anim-hue").value) || 0;
    const path = `anim/${el("anim-body").value}/${el("anim-action").value}/${el("anim-direction").value}`;
    const options = [];
    if (hue) options.push(`hue=${hue}`);
    if (animFile !== "anim") options.push(`file=${animFile}`);
    return options.length ? `${path}?${options.join(",")}` : path;
  }

  async function play() {
    stopAnim();
    const [body, action, direction] = ["anim-body", "anim-action", "anim-direction"]
      .map((n) => Number(el(n).value));
    const hue = Number(el("anim-hue").value) || 0;
    let got;
    try {
      got = await call("animFrames", body, action, direction, hue, animFile);
    } catch (e) {
      status(String(e.message || e));
      return;
    }
    const canvas = el("anim-canvas");
    const context = canvas.getContext("2d");
    const pictures = got.frames.map((f) => f.width > 0
      ? { f, image: new ImageData(new Uint8ClampedArray(f.rgba.buffer), f.width, f.height) }
      : { f, image: null });
    let i = 0;
    const draw = () => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      const { f, image } = pictures[i] || {};
      if (image) {
        // The frame's centre on the canvas' foot point, as the client places it: x less
        // the centre (mirrored: already width less it), y less the height and the centre
        // (ClassicUO 6854924f, Game/GameObjects/Views/MobileView.cs, DrawInternal).
        context.putImageData(image, 200 - f.centre_x, 230 - f.centre_y - f.height);
      }
      el("anim-frame").textContent = pictures.length
        ? `frame ${i + 1} of ${pictures.length}, ${got.frame_ms} ms each`
        : "no frames in this direction";
      el("anim-frame").dataset.frame = String(i);
    };
    draw();
    status(`body ${body}, action ${action}, direction ${direction}`);
    if (pictures.length > 1 && el("anim-play").textContent === "Pause") {
      animTimer = setInterval(() => {
        i = (i + 1) % pictures.length;
        draw();
      }, got.frame_ms);
    }
  }

  el("anim-file").addEventListener("change", () => {
    // Another file: its bodies, from the first.
    animFile = el("anim-file").value;
    const address = animFile === "anim" ? "anim" : `anim?file=${animFile}`;
    location.hash = address;
  });
  for (const name of ["anim-body", "anim-action", "anim-direction", "anim-hue"]) {
    el(name).addEventListener("change", () => {
      if (name === "anim-body" && animBodies) {
        const entry = animBodies.find(([n]) => n === Number(el("anim-body").value));
        if (entry) fillSelect(el("anim-action"), entry[1], entry[1][0]);
      }
      const address = animAddress();
      setShown(address);
      history.replaceState(null, "", `#${address}`);
      play();
    });
  }
  el("anim-play").addEventListener("click", () => {
    el("anim-play").textContent = el("anim-play").textContent === "Pause" ? "Play" : "Pause";
    play();
  });

  // The art grid: thumbnails by id, drawn by the worker as they scroll into view.
  let artKind = null;
  let artIds = [];
  let artShown = 0;
  const ART_PAGE = 600;

  function artHue() {
    const value = Number(el("art-hue").value) || 0;
    return (Math.max(0, Math.min(value, 0x3fff)) | (el("art-partial").checked ? 0x8000 : 0));
  }

  const artObserver = new IntersectionObserver((seen) => {
    for (const e of seen) {
      if (!e.isIntersecting) continue;
      artObserver.unobserve(e.target);
      drawThumbnail(e.target);
    }
  }, { root: el("art") });

  async function drawThumbnail(cell) {
    const canvas = cell.querySelector("canvas");
    try {
      const p = await call("art", artKind, Number(cell.dataset.id), artHue());
      if (!p) {
        cell.classList.add("empty");
        return;
      }
      canvas.width = p.width;
      canvas.height = p.height;
      const image = new ImageData(new Uint8ClampedArray(p.rgba.buffer), p.width, p.height);
      canvas.getContext("2d").putImageData(image, 0, 0);
      cell.dataset.drawn = "1";
    } catch (e) {
      cell.classList.add("bad");
      cell.title = String(e.message || e);
    }
  }

  // The tiledata of the tile under the pointer, in the bar above the grid.
  async function showTiledata(cell) {
    const id = Number(cell.dataset.id);
    const hex = `0x${id.toString(16).toUpperCase().padStart(4, "0")}`;
    try {
      const t = await call("artTiledata", artKind, id);
      el("art-tiledata").textContent = t
        ? `${hex} ${t.name}` + (t.height !== null ? `, height ${t.height}` : "") +
          (t.weight !== null ? `, weight ${t.weight}` : "") +
          (t.flags.length ? `; ${t.flags.join(", ")}` : "")
        : `${hex} (no tiledata)`;
    } catch (e) {
      el("art-tiledata").textContent = String(e.message || e);
    }
  }

  function moreArt() {
    const grid = el("art-grid");
    for (const id of artIds.slice(artShown, artShown + ART_PAGE)) {
      const cell = document.createElement("figure");
      cell.dataset.id = id;
      const canvas = document.createElement("canvas");
      canvas.width = 1;
      canvas.height = 1;
      const label = document.createElement("figcaption");
      label.textContent = `0x${id.toString(16).toUpperCase().padStart(4, "0")}`;
      cell.append(canvas, label);
      if (artKind === "land" || artKind === "item") cell.addEventListener("mouseenter", () => showTiledata(cell));
      grid.append(cell);
      artObserver.observe(cell);
    }
    artShown = Math.min(artIds.length, artShown + ART_PAGE);
    el("art-more").hidden = artShown >= artIds.length;
  }

  async function fillArt() {
    artObserver.disconnect();
    el("art-grid").replaceChildren();
    artShown = 0;
    try {
      artIds = await call("artIds", artKind, el("art-search").value);
    } catch (e) {
      artIds = [];
      status(String(e.message || e));
    }
    const what = { land: "land tiles", item: "items", gump: "gumps", texmap: "texture maps" }[artKind];
    el("art-count").textContent = `${artIds.length} ${what}`;
    moreArt();
  }

  function showArt(kind) {
    artKind = kind;
    el("map-options").hidden = true;
    el("map").hidden = true;
    el("art").hidden = false;
    for (const a of document.querySelectorAll("#maps a, #art-links a")) {
      a.classList.toggle("shown", a.dataset.id === `art/${kind}`);
    }
    status(`art: ${{ land: "land tiles", item: "items", gump: "gumps", texmap: "texture maps" }[kind]}`);
    el("art-tiledata").textContent = "";
    fillArt();
  }

  el("art-search").addEventListener("change", fillArt);
  el("art-hue").addEventListener("change", fillArt);
  el("art-partial").addEventListener("change", fillArt);
  el("art-more").addEventListener("click", moreArt);

  return {
    showArt,
    showAnim,
    showRez,
    stopAnim,
    stopRez,
    // The files changed: lists read before are stale.
    forget: () => {
      animBodies = null;
    },
  };
};
